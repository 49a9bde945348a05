//! Small incremental pieces for the XML-like syntaxes: a multi-pattern matcher for end tags
//! that may be split anywhere, tag and attribute parsing, and entities. (Their JSON helpers,
//! `json_string` and `json_object`, are the argument writer's.)

use std::borrow::Cow;

/// One piece of a [`Pattern`]. Patterns are constants: the one part that depends on the
/// open value, its close tag, is [`Piece::Close`], whose text the caller passes to
/// [`Matcher::step`]; a parser switches patterns at every tag, and building them there made
/// each switch a dozen allocations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Literal text; ASCII letters match in either case.
    Lit(&'static str),
    /// The close tag's text given to [`Matcher::step`] (`</name`), matched as a literal.
    Close,
    /// Zero or more ASCII blanks (the next piece never starts with one).
    Blanks,
    /// One byte out of a set.
    OneOf(&'static [u8]),
}

/// A sequence of pieces; the first is always a literal or [`Piece::Close`] (which starts
/// with `<`).
pub type Pattern = &'static [Piece];

/// What a [`Matcher`] made of the byte it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Some pattern may still match.
    Alive,
    /// Pattern number `n` matched completely (the byte included).
    Done(usize),
    /// No pattern can match: the candidate (the byte not included) is text.
    Failed,
}

/// Matches several patterns at once from a start byte, one byte at a time, keeping each
/// pattern's progress so a long run of blanks is never rescanned.
#[derive(Debug, Default)]
pub struct Matcher {
    /// The bytes taken so far (they begin with a pattern's first byte).
    pub taken: Vec<u8>,
    progress: Vec<Option<(usize, usize)>>,
}

/// ASCII blanks.
pub const BLANKS: &[u8] = b" \t\r\n";

/// Whether `b` is one of [`BLANKS`], without a search of the list per byte.
#[must_use]
pub fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// `bytes` as text, invalid sequences replaced. Input bytes are almost always valid UTF-8,
/// and `from_utf8` checks them a word at a time where the lossy decoder goes chunk by chunk.
#[must_use]
pub fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

impl Matcher {
    /// True when no candidate is open.
    #[must_use]
    pub fn idle(&self) -> bool {
        self.taken.is_empty()
    }

    /// Whether byte `b` may start one of `patterns`.
    #[must_use]
    pub fn starts(patterns: &[Pattern], b: u8) -> bool {
        patterns.iter().any(|p| match p.first() {
            Some(Piece::Lit(s)) => s
                .as_bytes()
                .first()
                .is_some_and(|f| f.eq_ignore_ascii_case(&b)),
            Some(Piece::Close) => b == b'<',
            _ => false,
        })
    }

    /// Feeds the next byte (the first one must satisfy [`Matcher::starts`]); `close` is the
    /// text of [`Piece::Close`].
    pub fn step(&mut self, patterns: &[Pattern], close: &str, b: u8) -> Match {
        if self.taken.is_empty() {
            // Refilled in place: a candidate starts at every `<` of a value.
            self.progress.clear();
            self.progress.resize(patterns.len(), Some((0, 0)));
        }
        let mut alive = false;
        for (n, pattern) in patterns.iter().enumerate() {
            let Some((mut piece, mut off)) = self.progress.get(n).copied().flatten() else {
                continue;
            };
            let next = loop {
                let lit = match pattern.get(piece) {
                    Some(Piece::Lit(s)) => *s,
                    Some(Piece::Close) => close,
                    Some(Piece::Blanks) => {
                        if is_blank(b) {
                            break Some((piece, 0));
                        }
                        piece += 1;
                        continue;
                    }
                    Some(Piece::OneOf(set)) => break set.contains(&b).then_some((piece + 1, 0)),
                    None => break None,
                };
                let want = lit.as_bytes().get(off).copied().unwrap_or(0);
                if !want.eq_ignore_ascii_case(&b) {
                    break None;
                }
                off += 1;
                if off == lit.len() {
                    piece += 1;
                    off = 0;
                }
                break Some((piece, off));
            };
            if let Some(slot) = self.progress.get_mut(n) {
                *slot = next;
            }
            match next {
                Some((p, _)) if p == pattern.len() => {
                    self.taken.push(b);
                    return Match::Done(n);
                }
                Some(_) => alive = true,
                None => {}
            }
        }
        if alive {
            self.taken.push(b);
            Match::Alive
        } else {
            Match::Failed
        }
    }

    /// Takes the candidate's bytes and resets.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.taken)
    }
}

/// A parsed tag: `<name attr="v" …>` or `</name>`. Borrowed from the tag's text where it
/// can be: a parser reads a tag per value, and owned copies of every name, attribute name
/// and value were most of the allocations of a call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tag<'a> {
    /// A closing tag.
    pub close: bool,
    /// Ends with `/>`.
    pub self_closing: bool,
    /// The name as written.
    pub name: &'a str,
    /// Attributes with lower-case names and decoded values.
    attrs: Attrs<'a>,
}

/// An attribute: its lower-case name and decoded value.
type Attr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// A tag's attributes in order: the first kept inline, since most tags that have any have
/// one (`name`); a list for every such tag was an allocation and a free a tag (callgrind:
/// ~1,700 of an `xml_tool` reply's ~60,000 instructions).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Attrs<'a> {
    first: Option<Attr<'a>>,
    more: Vec<Attr<'a>>,
}

impl<'a> Attrs<'a> {
    fn push(&mut self, attr: Attr<'a>) {
        if self.first.is_none() {
            self.first = Some(attr);
        } else {
            self.more.push(attr);
        }
    }

    fn iter(&self) -> impl Iterator<Item = &Attr<'a>> {
        self.first.iter().chain(&self.more)
    }
}

impl Tag<'_> {
    /// The value of attribute `name` (lower case).
    #[must_use]
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_ref())
    }

    /// The name in lower case, for matching.
    #[must_use]
    pub fn lower(&self) -> String {
        self.name.to_ascii_lowercase()
    }
}

/// Where a tag or attribute name at the start of `s` ends: at the first whitespace (as
/// `char::is_whitespace` says) or `=`, else the end. Tag names are ASCII nearly always, and a
/// byte test per ASCII character costs a fraction of decoding each `char`.
fn name_end(s: &str) -> usize {
    for (i, b) in s.bytes().enumerate() {
        if !b.is_ascii() {
            // `i` follows ASCII bytes only, so it is a character boundary.
            return s[i..]
                .find(|c: char| c.is_whitespace() || c == '=')
                .map_or(s.len(), |k| i + k);
        }
        // The ASCII characters `char::is_whitespace` accepts (U+000B included).
        if matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' | b'=') {
            return i;
        }
    }
    s.len()
}

/// Parses the inside of a tag (between `<` and `>`). Attribute values may be single-, double-
/// or un-quoted.
#[must_use]
pub fn parse_tag(inner: &str) -> Tag<'_> {
    let mut tag = Tag::default();
    let mut s = inner.trim();
    if let Some(rest) = s.strip_prefix('/') {
        tag.close = true;
        s = rest.trim_start();
    }
    if let Some(rest) = s.strip_suffix('/') {
        tag.self_closing = true;
        s = rest.trim_end();
    }
    let end = name_end(s);
    tag.name = &s[..end];
    let mut rest = &s[end..];
    loop {
        rest = rest.trim_start();
        let key_end = name_end(rest);
        if key_end == 0 {
            // A stray `=`: skip it.
            match rest.strip_prefix('=') {
                Some(r) => {
                    rest = r;
                    continue;
                }
                None => break,
            }
        }
        let key = &rest[..key_end];
        let key = if key.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(key.to_ascii_lowercase())
        } else {
            Cow::Borrowed(key)
        };
        rest = rest[key_end..].trim_start();
        let Some(after) = rest.strip_prefix('=') else {
            tag.attrs.push((key, Cow::Borrowed("")));
            continue;
        };
        rest = after.trim_start();
        let value;
        if let Some(q @ ('"' | '\'')) = rest.chars().next() {
            let body = &rest[1..];
            let close = body.find(q).unwrap_or(body.len());
            value = &body[..close];
            rest = body.get(close + 1..).unwrap_or("");
        } else {
            let close = rest.find(char::is_whitespace).unwrap_or(rest.len());
            value = &rest[..close];
            rest = &rest[close..];
        }
        let value = if value.contains('&') {
            Cow::Owned(decode_all(value))
        } else {
            Cow::Borrowed(value)
        };
        tag.attrs.push((key, value));
    }
    tag
}

/// The text an entity body (between `&` and `;`) stands for, if it is one.
#[must_use]
pub fn entity(body: &str) -> Option<char> {
    match body {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let num = body.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// Decodes every entity in `text`; anything that is not one stays as written.
#[must_use]
pub fn decode_all(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest
            .get(1..)
            .and_then(|r| r.find(';').filter(|&n| n <= 10).map(|n| (n, &r[..n])))
            .and_then(|(n, body)| entity(body).map(|c| (n, c)));
        if let Some((n, c)) = decoded {
            out.push(c);
            rest = &rest[n + 2..];
        } else {
            out.push('&');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::name_end;

    proptest::proptest! {
        #[test]
        fn name_end_is_the_first_whitespace_or_equals(s in "[a-z=\t\u{b}\u{c}\r\n \u{85}\u{a0}\u{3000}é😀]*") {
            let naive = s.find(|c: char| c.is_whitespace() || c == '=').unwrap_or(s.len());
            proptest::prop_assert_eq!(name_end(&s), naive);
        }
    }
}
