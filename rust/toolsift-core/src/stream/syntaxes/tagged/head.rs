//! Incremental matchers for the small pieces of a tagged syntax: the tokens of an opening or
//! closing tag ([`Head`]), a choice between literals ([`Choice`]) and a search for one literal
//! ([`skip_to`]). They look at one byte at a time and keep only their own small state, so a
//! tag split anywhere across chunks matches exactly as it would in one piece.

/// Longest opening tag (bytes) a [`Head`] reads before it gives up: a bound on how far the
/// engine may have to replay text when a marker turns out not to open a call.
pub const MAX_HEAD: usize = 1024;

/// One piece of a tag pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// These exact bytes.
    Lit(&'static str),
    /// Optional blanks, also written as JSON escapes (`\n`, `\r`, `\t` as two characters):
    /// a model that escapes its output once too often writes the template's newlines so.
    Ws,
    /// Attributes up to and including the tag's `>`: `k="v"`, `k='v'` or `k=v`. The `name`
    /// attribute gives the name; `string="false"` marks a JSON value.
    Attrs,
    /// Text up to (not including) this byte: the name, trimmed.
    Text(u8),
    /// Anything up to and including this literal (whose first byte occurs in it only once),
    /// ignored.
    SkipTo(&'static str),
}

/// Where an attribute reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attr {
    Gap,
    Name,
    BeforeEq,
    AfterEq,
    Quoted(u8),
    Bare,
    /// A `/` that may make the tag self-closing (`/>`).
    Slash,
}

/// What one byte did.
enum Fed {
    Consumed,
    /// The token ended before this byte: read it again with the next token.
    Again,
    Fail,
}

/// How far a matcher got with the bytes it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Every byte was used; the match goes on.
    Going,
    /// The pattern matched; bytes from the returned index on are not part of it.
    Complete,
    /// The bytes do not match; the byte at the returned index is the one that failed.
    Fail,
}

/// Matches a token sequence; see the module docs.
#[derive(Debug, Clone)]
pub struct Head {
    toks: &'static [Tok],
    t: usize,
    sub: usize,
    attr: Attr,
    attr_name: Vec<u8>,
    value: Vec<u8>,
    /// Bytes consumed so far.
    pub len: usize,
    /// The name read (a `name` attribute or a [`Tok::Text`]).
    pub name: Option<String>,
    /// Whether `string="false"` was read.
    pub json: bool,
    /// Whether the tag closed itself (`/>`).
    pub self_closing: bool,
}

fn is_attr_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.')
}

/// Appends `b`, making room for a short name at the first byte: grown from empty a byte at a
/// time, a vector reallocated at 8, 16 and 32 bytes, three allocations per tool name.
fn push_byte(to: &mut Vec<u8>, b: u8) {
    if to.capacity() == 0 {
        to.reserve(32);
    }
    to.push(b);
}

/// A name or key: trimmed of blanks, and of blanks written as JSON escapes (`\n` as two
/// characters), which no name ends or starts with (see [`Tok::Ws`]).
fn text_of(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut s = text.trim();
    loop {
        let before = s.len();
        for esc in ["\\n", "\\r", "\\t"] {
            s = s.strip_prefix(esc).unwrap_or(s);
            s = s.strip_suffix(esc).unwrap_or(s).trim();
        }
        if s.len() == before {
            return s.trim().to_string();
        }
    }
}

impl Head {
    /// A matcher for `toks`.
    #[must_use]
    pub fn new(toks: &'static [Tok]) -> Self {
        Self {
            toks,
            t: 0,
            sub: 0,
            attr: Attr::Gap,
            attr_name: Vec::new(),
            value: Vec::new(),
            len: 0,
            name: None,
            json: false,
            self_closing: false,
        }
    }

    /// Matches `bytes` from `i`; returns where it stopped and how far it got.
    pub fn feed(&mut self, bytes: &[u8], mut i: usize) -> (usize, Progress) {
        loop {
            let Some(&tok) = self.toks.get(self.t) else {
                return (i, Progress::Complete);
            };
            let Some(&b) = bytes.get(i) else {
                return (i, Progress::Going);
            };
            match self.byte(tok, b) {
                Fed::Consumed => {
                    i += 1;
                    self.len += 1;
                    if self.len > MAX_HEAD {
                        return (i, Progress::Fail);
                    }
                }
                Fed::Again => {}
                Fed::Fail => return (i, Progress::Fail),
            }
        }
    }

    fn next(&mut self) {
        self.t += 1;
        self.sub = 0;
    }

    fn byte(&mut self, tok: Tok, b: u8) -> Fed {
        match tok {
            Tok::Lit(s) => {
                if s.as_bytes().get(self.sub) != Some(&b) {
                    return Fed::Fail;
                }
                self.sub += 1;
                if self.sub == s.len() {
                    self.next();
                }
                Fed::Consumed
            }
            Tok::Ws => {
                if self.sub == 1 {
                    // After a `\`: only an escaped blank goes on.
                    self.sub = 0;
                    return if matches!(b, b'n' | b'r' | b't') {
                        Fed::Consumed
                    } else {
                        Fed::Fail
                    };
                }
                if b.is_ascii_whitespace() {
                    Fed::Consumed
                } else if b == b'\\' {
                    self.sub = 1;
                    Fed::Consumed
                } else {
                    self.next();
                    Fed::Again
                }
            }
            Tok::Text(stop) => {
                if b == stop {
                    self.name = Some(text_of(&self.value));
                    self.value.clear();
                    self.next();
                    return Fed::Again;
                }
                // A name is one word: prose after a marker fails at its second word, so the
                // engine has little to replay.
                let blank = b.is_ascii_whitespace();
                let after_blank = self.value.last().is_some_and(u8::is_ascii_whitespace);
                let word = self.value.iter().any(|c| !c.is_ascii_whitespace());
                if (!blank && after_blank && word) || b"<>\"'{}[](),;=`".contains(&b) {
                    return Fed::Fail;
                }
                push_byte(&mut self.value, b);
                Fed::Consumed
            }
            Tok::SkipTo(s) => {
                if s.as_bytes().get(self.sub) == Some(&b) {
                    self.sub += 1;
                    if self.sub == s.len() {
                        self.next();
                    }
                    Fed::Consumed
                } else if self.sub > 0 {
                    // Read this byte again: it may start the literal.
                    self.sub = 0;
                    Fed::Again
                } else {
                    Fed::Consumed
                }
            }
            Tok::Attrs => self.attr_byte(b),
        }
    }

    fn attr_byte(&mut self, b: u8) -> Fed {
        let blank = b.is_ascii_whitespace();
        match self.attr {
            Attr::Gap | Attr::AfterEq if blank => {}
            Attr::Gap if b == b'>' => self.next(),
            Attr::Gap if b == b'/' => self.attr = Attr::Slash,
            Attr::Slash if b == b'>' => {
                self.self_closing = true;
                self.next();
            }
            Attr::Gap if is_attr_byte(b) => {
                self.attr_name.clear();
                push_byte(&mut self.attr_name, b);
                self.attr = Attr::Name;
            }
            Attr::Name if is_attr_byte(b) => push_byte(&mut self.attr_name, b),
            Attr::Name | Attr::BeforeEq if blank => self.attr = Attr::BeforeEq,
            Attr::Name | Attr::BeforeEq if b == b'=' => self.attr = Attr::AfterEq,
            Attr::AfterEq if b == b'"' || b == b'\'' => {
                self.value.clear();
                self.attr = Attr::Quoted(b);
            }
            Attr::AfterEq if b != b'>' => {
                self.value.clear();
                push_byte(&mut self.value, b);
                self.attr = Attr::Bare;
            }
            Attr::Quoted(q) if b == q => self.attr_done(),
            Attr::Bare if blank || b == b'>' => {
                self.attr_done();
                if b == b'>' {
                    self.next();
                }
            }
            Attr::Quoted(_) | Attr::Bare => push_byte(&mut self.value, b),
            _ => return Fed::Fail,
        }
        Fed::Consumed
    }

    fn attr_done(&mut self) {
        self.attr = Attr::Gap;
        match self.attr_name.as_slice() {
            b"name" => self.name = Some(text_of(&self.value)),
            b"string" => self.json = self.value.eq_ignore_ascii_case(b"false"),
            _ => {}
        }
        self.value.clear();
    }
}

/// Which of several literals (none a prefix of another) the bytes spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    alive: u8,
    /// Bytes matched so far.
    pub n: usize,
}

impl Default for Choice {
    fn default() -> Self {
        Self {
            alive: u8::MAX,
            n: 0,
        }
    }
}

/// What a [`Choice`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Every byte matched some literal's prefix.
    Going,
    /// Literal number `k` matched in full.
    Matched(usize),
    /// No literal matches; the byte at the returned index is the one that failed.
    Fail,
}

impl Choice {
    /// Whether literal number `k` still matches the bytes seen.
    pub fn alive(&self, k: usize) -> bool {
        k < 8 && self.alive & (1 << k) != 0
    }

    /// Matches `bytes` from `i` against `cands` (at most eight).
    pub fn feed(&mut self, cands: &[&str], bytes: &[u8], mut i: usize) -> (usize, Pick) {
        while let Some(&b) = bytes.get(i) {
            let mut alive = 0u8;
            for (k, c) in cands.iter().enumerate().take(8) {
                if self.alive & (1 << k) != 0 && c.as_bytes().get(self.n) == Some(&b) {
                    alive |= 1 << k;
                }
            }
            if alive == 0 {
                return (i, Pick::Fail);
            }
            self.alive = alive;
            self.n += 1;
            i += 1;
            for (k, c) in cands.iter().enumerate().take(8) {
                if alive & (1 << k) != 0 && c.len() == self.n {
                    return (i, Pick::Matched(k));
                }
            }
        }
        (i, Pick::Going)
    }
}

/// Finds `lit` (whose first byte occurs in it only once) in `bytes` from `i`, with `matched`
/// bytes of it already seen; returns the index just past it.
pub fn skip_to(lit: &[u8], bytes: &[u8], mut i: usize, matched: &mut usize) -> Option<usize> {
    while let Some(&b) = bytes.get(i) {
        if lit.get(*matched) == Some(&b) {
            *matched += 1;
            i += 1;
            if *matched == lit.len() {
                *matched = 0;
                return Some(i);
            }
        } else if *matched > 0 {
            // Read this byte again: it may start the literal.
            *matched = 0;
        } else {
            let first = lit.first().copied().unwrap_or(0);
            i = memchr::memchr(first, &bytes[i..]).map_or(bytes.len(), |k| i + k);
        }
    }
    None
}
