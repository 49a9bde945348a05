//! Follows one lenient JSON value byte by byte, so its end (or the first byte that cannot be
//! JSON) is known without rescanning: strings in `"` or `'` (an apostrophe closes a
//! single-quoted string only before `, : } ]`), words and numbers as runs of literal bytes,
//! trailing commas, a member's value left out (`{"k": }`). It also notes whether the keys near the top are a call's, so a value cut
//! off by the end of the stream can be told from prose.

/// Keys that make a value call-shaped on their own (wrappers).
const WRAPPER_KEYS: &[&[u8]] = &[
    b"tool_calls",
    b"tools",
    b"tool",
    b"function",
    b"functionCall",
];
/// Keys that may hold arguments.
const ARGS_KEYS: &[&[u8]] = &[b"args", b"arguments", b"parameters"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum T {
    Value,
    FirstValueOrClose,
    KeyOrClose,
    Colon,
    AfterValue,
    Str {
        quote: u8,
        key: bool,
        escaped: bool,
    },
    /// A `'` that may close a single-quoted string: the next non-blank byte decides.
    MaybeSingle {
        key: bool,
    },
    Literal,
}

/// What [`Tokenizer::feed`] stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// All bytes taken; the value goes on.
    More,
    /// The value ended with the last byte taken.
    Done,
    /// The next byte cannot continue the value.
    NotJson,
    /// The next byte opens an object that is an element of the top-level list (reported once;
    /// feed again to take it).
    ElementStart,
    /// The last byte taken closed such an element.
    ElementEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Started,
    Closed,
}

/// Follows one lenient JSON value; see the module docs.
#[derive(Debug, Clone)]
pub struct Tokenizer {
    stack: Vec<u8>,
    state: T,
    /// Whether the elements of a top-level list are reported.
    pub elements: bool,
    /// A list element's start was just reported, or its end is to be.
    mark: Mark,
    /// The key being read, when it may be a signature key (short and near the top).
    key: Option<Vec<u8>>,
    /// Which call keys were seen near the top: a wrapper, `name`, an arguments key.
    seen: [bool; 3],
    /// Keys of a top-level object so far (the first few; empty for one not captured).
    top_keys: Vec<Vec<u8>>,
    /// The string value of its `name` key, once complete (unless it has escapes).
    name: Option<String>,
    /// Whether the string being captured is that value (else a key).
    capturing_name: bool,
    /// The top-level value is an object: its keys count once it has closed too, so that a
    /// value complete within one input shows them as one fed in pieces did.
    object: bool,
    /// Arguments keys that make a top-level object with a `name` announceable (see
    /// [`Tokenizer::announceable`]); none by default.
    pub announce_keys: &'static [&'static [u8]],
    /// The name, latched when a top-level string first made the object announceable.
    announceable: Option<String>,
}

/// Top-level keys remembered (enough for any call object's leading keys).
const TOP_KEYS: usize = 32;

fn literal_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_')
}

impl Tokenizer {
    /// A tokenizer before the value.
    #[must_use]
    pub fn new() -> Self {
        Self {
            stack: Vec::new(),
            state: T::Value,
            elements: false,
            mark: Mark::None,
            key: None,
            seen: [false; 3],
            top_keys: Vec::new(),
            name: None,
            capturing_name: false,
            object: false,
            announce_keys: &[],
            announceable: None,
        }
    }

    /// Back to [`Tokenizer::new`]'s state, in place, keeping the memory of its buffers.
    pub fn reset(&mut self) {
        self.stack.clear();
        self.state = T::Value;
        self.elements = false;
        self.mark = Mark::None;
        self.key = None;
        self.seen = [false; 3];
        self.top_keys.clear();
        self.name = None;
        self.capturing_name = false;
        self.object = false;
        self.announce_keys = &[];
        self.announceable = None;
    }

    /// Takes the value's opening bracket.
    pub fn open(&mut self, b: u8) {
        if self.stack.is_empty() {
            self.object = b == b'{';
        }
        self.stack.push(b);
        self.state = if b == b'{' {
            T::KeyOrClose
        } else {
            T::FirstValueOrClose
        };
    }

    /// The open containers' brackets, outermost first.
    #[must_use]
    pub fn open_containers(&self) -> &[u8] {
        &self.stack
    }

    /// Whether the keys seen so far near the top are a call's.
    #[must_use]
    pub fn looks_like_call(&self) -> bool {
        self.seen[0] || (self.seen[1] && self.seen[2])
    }

    /// Inside the top-level object: its name when it already shows a call's keys, `name`
    /// with a string value and one of [`Self::announce_keys`], and no wrapper key (whose call
    /// could be another).
    fn top_call_name(&self) -> Option<&str> {
        let has = |keys: &[&[u8]]| self.top_keys.iter().any(|k| keys.contains(&k.as_slice()));
        let name = self.name.as_deref()?.trim();
        let top_object = self.stack.first() == Some(&b'{');
        (top_object && !name.is_empty() && has(self.announce_keys) && !has(WRAPPER_KEYS))
            .then_some(name)
    }

    /// The call name of a top-level object that showed a call's keys ([`Self::top_call_name`])
    /// at the end of one of its top-level strings, whatever came
    /// after: so the answer does not depend on how much of the value one feed held (a wrapper
    /// key after the arguments key, fed in one piece, would otherwise hide it).
    #[must_use]
    pub fn announceable(&self) -> Option<&str> {
        self.announceable.as_deref()
    }

    fn end_string(&mut self, key: bool) {
        self.end_string_inner(key);
        if self.announceable.is_none() && self.stack.len() == 1 && !self.announce_keys.is_empty() {
            self.announceable = self.top_call_name().map(str::to_string);
        }
    }

    fn end_string_inner(&mut self, key: bool) {
        let captured = self.key.take();
        if key {
            if self.stack.len() == 1 && self.top_keys.len() < TOP_KEYS {
                self.top_keys.push(captured.clone().unwrap_or_default());
            }
            if let Some(k) = captured {
                self.seen[0] |= WRAPPER_KEYS.contains(&k.as_slice());
                self.seen[1] |= k == b"name";
                self.seen[2] |= ARGS_KEYS.contains(&k.as_slice());
            }
            self.state = T::Colon;
        } else {
            if std::mem::take(&mut self.capturing_name) {
                self.name = captured.and_then(|v| String::from_utf8(v).ok());
            }
            self.state = T::AfterValue;
        }
    }

    /// Reads `bytes`: returns how many were taken and `None` (need more), `Some(true)` (the
    /// value ended with the last byte taken) or `Some(false)` (the next byte is not JSON).
    pub fn feed(&mut self, bytes: &[u8]) -> (usize, Tok) {
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            match self.state {
                T::Str {
                    quote,
                    key,
                    escaped,
                } => {
                    match self.string(bytes, i, quote, key, escaped) {
                        Some(next) => i = next,
                        None => return (bytes.len(), Tok::More),
                    }
                    continue;
                }
                T::MaybeSingle { key } => {
                    if b.is_ascii_whitespace() {
                        i += 1;
                    } else if matches!(b, b',' | b':' | b'}' | b']') {
                        self.end_string(key);
                    } else {
                        // An apostrophe inside the string: it goes on.
                        self.key = None;
                        self.state = T::Str {
                            quote: b'\'',
                            key,
                            escaped: false,
                        };
                    }
                    continue;
                }
                _ if b.is_ascii_whitespace() && self.state != T::Literal => {
                    i += 1;
                    continue;
                }
                // `{"arguments": }`: a member's value left out (the repair reads it as ""),
                // and the byte is read again as what follows a value.
                T::Value if matches!(b, b'}' | b',') && self.stack.last() == Some(&b'{') => {
                    self.state = T::AfterValue;
                    continue;
                }
                T::Value | T::FirstValueOrClose => {
                    if let Some(stop) = self.value_byte(b, i) {
                        return stop;
                    }
                }
                T::KeyOrClose => match b {
                    b'}' => {
                        if self.close(b) {
                            return (i + 1, Tok::Done);
                        }
                    }
                    b'"' | b'\'' => {
                        self.key = (self.stack.len() <= 2).then(Vec::new);
                        self.state = T::Str {
                            quote: b,
                            key: true,
                            escaped: false,
                        };
                    }
                    _ => return (i, Tok::NotJson),
                },
                T::Colon if b == b':' => self.state = T::Value,
                T::Colon => return (i, Tok::NotJson),
                T::Literal if literal_byte(b) => {}
                T::Literal | T::AfterValue => match b {
                    b',' => {
                        self.state = if self.stack.last() == Some(&b'{') {
                            T::KeyOrClose
                        } else {
                            T::FirstValueOrClose
                        };
                    }
                    b'}' | b']' => {
                        let want = if b == b'}' { b'{' } else { b'[' };
                        if self.stack.last() != Some(&want) {
                            return (i, Tok::NotJson);
                        }
                        if self.close(b) {
                            return (i + 1, Tok::Done);
                        }
                    }
                    _ if self.state == T::Literal && b.is_ascii_whitespace() => {
                        self.state = T::AfterValue;
                    }
                    _ => return (i, Tok::NotJson),
                },
            }
            i += 1;
            if std::mem::replace(&mut self.mark, Mark::None) == Mark::Closed {
                return (i, Tok::ElementEnd);
            }
        }
        (i, Tok::More)
    }

    /// A byte where a value may start (or a list close): where to stop, if anywhere.
    fn value_byte(&mut self, b: u8, i: usize) -> Option<(usize, Tok)> {
        match b {
            b']' if self.state == T::FirstValueOrClose => {
                if self.close(b) {
                    return Some((i + 1, Tok::Done));
                }
            }
            b'{' if self.elements && self.stack.len() == 1 && self.mark != Mark::Started => {
                self.mark = Mark::Started;
                return Some((i, Tok::ElementStart));
            }
            b'{' | b'[' => {
                self.mark = Mark::None;
                self.open(b);
            }
            b'"' | b'\'' => {
                // The value of a top-level `name` key is kept, to announce the call early.
                self.capturing_name = self.stack.len() == 1
                    && self.name.is_none()
                    && self.top_keys.last().is_some_and(|k| k == b"name");
                self.key = self.capturing_name.then(Vec::new);
                self.state = T::Str {
                    quote: b,
                    key: false,
                    escaped: false,
                };
            }
            _ if literal_byte(b) => self.state = T::Literal,
            _ => return Some((i, Tok::NotJson)),
        }
        None
    }

    /// String bytes from `i`: the index after what was taken, `None` when all were.
    fn string(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        quote: u8,
        key: bool,
        mut escaped: bool,
    ) -> Option<usize> {
        if escaped {
            escaped = false;
            i += 1;
        }
        let rest = bytes.get(i..).unwrap_or_default();
        let Some(k) = memchr::memchr2(quote, b'\\', rest) else {
            self.capture(rest);
            self.state = T::Str {
                quote,
                key,
                escaped,
            };
            return None;
        };
        self.capture(&rest[..k]);
        if rest[k] == b'\\' {
            self.key = None;
            self.state = T::Str {
                quote,
                key,
                escaped: true,
            };
        } else if quote == b'\'' {
            self.state = T::MaybeSingle { key };
        } else {
            self.end_string(key);
        }
        Some(i + k + 1)
    }

    fn capture(&mut self, bytes: &[u8]) {
        let limit = if self.capturing_name { 256 } else { 16 };
        if let Some(k) = &mut self.key {
            if k.len() + bytes.len() > limit {
                self.key = None;
            } else {
                k.extend_from_slice(bytes);
            }
        }
    }

    /// Closes the innermost container; true when that ends the value.
    fn close(&mut self, b: u8) -> bool {
        let want = if b == b'}' { b'{' } else { b'[' };
        if self.stack.last() != Some(&want) {
            return false;
        }
        self.stack.pop();
        self.state = T::AfterValue;
        if self.elements && b == b'}' && self.stack.len() == 1 {
            self.mark = Mark::Closed;
        }
        self.stack.is_empty()
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reset_tokenizer_is_a_new_one() {
        let mut tok = Tokenizer::new();
        tok.elements = true;
        tok.announce_keys = &[b"arguments"];
        tok.open(b'{');
        let _ = tok.feed(br#""name": "f", "arguments": {"k": [1, "x"]"#);
        tok.reset();
        assert_eq!(format!("{tok:?}"), format!("{:?}", Tokenizer::new()));
    }
}
