//! A pull reader of strict JSON with an explicit stack, for hosts that build their own values.
//!
//! Python's orjson refuses nesting deeper than 1024 and turns integers beyond 64 bits into
//! floats; the standard library recurses and overflows on deep input. This reader walks any
//! valid JSON in one pass without recursion and hands numbers over as text, so the host keeps
//! big integers exact and deep documents cost no stack.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};

mod digits;
pub use digits::has_long_digit_run;

/// One step of a JSON document.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonEvent<'a> {
    /// `{`
    StartObject,
    /// `}`
    EndObject,
    /// `[`
    StartArray,
    /// `]`
    EndArray,
    /// An object key, unescaped.
    Key(Cow<'a, str>),
    /// A string value, unescaped.
    String(Cow<'a, str>),
    /// A number as written; `integer` when it has no fraction or exponent.
    Number {
        /// The number's text.
        text: &'a str,
        /// True for integers.
        integer: bool,
    },
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Value,
    FirstValueOrEnd,
    FirstKeyOrEnd,
    Key,
    CommaOrEnd,
    Done,
}

/// Reads strict JSON event by event; see the module docs.
#[derive(Debug)]
pub struct StrictReader<'a> {
    text: &'a str,
    pos: usize,
    /// `true` for an object, `false` for an array.
    stack: Vec<bool>,
    expect: Expect,
    /// Check strings without decoding them (their events then carry an empty string).
    validate_only: bool,
}

fn invalid(why: &'static str, at: usize) -> Error {
    Error::new(ErrorKind::Unrepairable(why), at)
}

impl<'a> StrictReader<'a> {
    /// A reader over one JSON document.
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            pos: 0,
            stack: Vec::new(),
            expect: Expect::Value,
            validate_only: false,
        }
    }

    fn skip_ws(&mut self) {
        let b = self.text.as_bytes();
        while matches!(b.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Byte offset of the next unread byte.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Current nesting depth (1 inside the outermost container).
    #[must_use]
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The next event, `Ok(None)` after the document ends, or an error with its offset.
    pub fn next_event(&mut self) -> Result<Option<JsonEvent<'a>>, Error> {
        self.skip_ws();
        let b = self.text.as_bytes();
        let Some(&c) = b.get(self.pos) else {
            return if self.expect == Expect::Done {
                Ok(None)
            } else {
                Err(invalid("unexpected end of JSON", self.pos))
            };
        };
        match self.expect {
            Expect::Done => Err(invalid("text after the JSON value", self.pos)),
            Expect::CommaOrEnd => {
                let object = self.stack.last().copied().unwrap_or(false);
                match c {
                    b',' => {
                        self.pos += 1;
                        self.expect = if object { Expect::Key } else { Expect::Value };
                        self.next_event()
                    }
                    b'}' if object => Ok(Some(self.close(JsonEvent::EndObject))),
                    b']' if !object => Ok(Some(self.close(JsonEvent::EndArray))),
                    _ => Err(invalid("expected ',' or a closer", self.pos)),
                }
            }
            Expect::FirstKeyOrEnd if c == b'}' => Ok(Some(self.close(JsonEvent::EndObject))),
            Expect::FirstKeyOrEnd | Expect::Key => {
                if c != b'"' {
                    return Err(invalid("expected a key", self.pos));
                }
                let key = self.string()?;
                self.skip_ws();
                if b.get(self.pos) != Some(&b':') {
                    return Err(invalid("expected ':'", self.pos));
                }
                self.pos += 1;
                self.expect = Expect::Value;
                Ok(Some(JsonEvent::Key(key)))
            }
            Expect::FirstValueOrEnd if c == b']' => Ok(Some(self.close(JsonEvent::EndArray))),
            Expect::Value | Expect::FirstValueOrEnd => self.value(c).map(Some),
        }
    }

    fn close(&mut self, event: JsonEvent<'a>) -> JsonEvent<'a> {
        self.pos += 1;
        self.stack.pop();
        self.after_value();
        event
    }

    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::Done
        } else {
            Expect::CommaOrEnd
        };
    }

    fn value(&mut self, c: u8) -> Result<JsonEvent<'a>, Error> {
        let event = match c {
            b'{' => {
                self.pos += 1;
                self.stack.push(true);
                self.expect = Expect::FirstKeyOrEnd;
                return Ok(JsonEvent::StartObject);
            }
            b'[' => {
                self.pos += 1;
                self.stack.push(false);
                self.expect = Expect::FirstValueOrEnd;
                return Ok(JsonEvent::StartArray);
            }
            b'"' => JsonEvent::String(self.string()?),
            b't' => self.literal("true", JsonEvent::Bool(true))?,
            b'f' => self.literal("false", JsonEvent::Bool(false))?,
            b'n' => self.literal("null", JsonEvent::Null)?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return Err(invalid("expected a JSON value", self.pos)),
        };
        self.after_value();
        Ok(event)
    }

    fn literal(
        &mut self,
        word: &'static str,
        event: JsonEvent<'a>,
    ) -> Result<JsonEvent<'a>, Error> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(event)
        } else {
            Err(invalid("invalid literal", self.pos))
        }
    }

    fn number(&mut self) -> Result<JsonEvent<'a>, Error> {
        let b = self.text.as_bytes();
        let start = self.pos;
        let mut end = start;
        let mut integer = true;
        while let Some(&d) = b.get(end) {
            match d {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => integer = false,
                _ => break,
            }
            end += 1;
        }
        self.pos = end;
        let text = &self.text[start..end];
        if !is_json_number(text.as_bytes()) {
            return Err(invalid("invalid number", start));
        }
        Ok(JsonEvent::Number { text, integer })
    }

    /// Reads a string starting at the opening quote; borrows when it holds no escape.
    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        let b = self.text.as_bytes();
        let start = self.pos + 1;
        let Some(k) = b
            .get(start..)
            .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
        else {
            return Err(invalid("unterminated string", self.pos));
        };
        let mut i = start + k;
        if has_control(&b[start..i]) {
            return Err(invalid("control character in string", start));
        }
        if b[i] == b'"' {
            self.pos = i + 1;
            return Ok(Cow::Borrowed(&self.text[start..i]));
        }
        if self.validate_only {
            return self.skip_escaped_string(i);
        }
        // Escapes present: decode into an owned string.
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(&self.text[start..i]);
        loop {
            let Some(&c) = b.get(i) else {
                return Err(invalid("unterminated string", self.pos));
            };
            match c {
                b'"' => {
                    self.pos = i + 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    let (ch, used) = decode_escape(b, i).ok_or_else(|| invalid("bad escape", i))?;
                    out.push(ch);
                    i += used;
                }
                _ => {
                    let next = memchr::memchr2(b'"', b'\\', &b[i..]).map_or(b.len(), |k| i + k);
                    if has_control(&b[i..next]) {
                        return Err(invalid("control character in string", i));
                    }
                    out.push_str(&self.text[i..next]);
                    i = next;
                }
            }
        }
    }
}

impl StrictReader<'_> {
    /// Checks the rest of a string from its first backslash at `i` without decoding it.
    fn skip_escaped_string(&mut self, mut i: usize) -> Result<Cow<'static, str>, Error> {
        let b = self.text.as_bytes();
        loop {
            let Some(k) = b
                .get(i..)
                .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
            else {
                return Err(invalid("unterminated string", self.pos));
            };
            if has_control(&b[i..i + k]) {
                return Err(invalid("control character in string", i));
            }
            i += k;
            if b[i] == b'"' {
                self.pos = i + 1;
                return Ok(Cow::Borrowed(""));
            }
            let (_, used) = decode_escape(b, i).ok_or_else(|| invalid("bad escape", i))?;
            // Strict parsers refuse a lone surrogate escape, so it does not validate either.
            if used == 6 && hex4(b, i + 2).is_some_and(|u| (0xD800..0xE000).contains(&u)) {
                return Err(invalid("lone surrogate escape", i));
            }
            i += used;
        }
    }
}

/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, the RFC 8259 number grammar.
fn is_json_number(b: &[u8]) -> bool {
    let digits = |from: usize| {
        b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    let int = digits(i);
    if int == 0 || (int > 1 && b[i] == b'0') {
        return false;
    }
    i += int;
    if b.get(i) == Some(&b'.') {
        let frac = digits(i + 1);
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

/// Raw control characters are not allowed inside JSON strings.
#[inline]
fn has_control(bytes: &[u8]) -> bool {
    bytes.iter().any(|&c| c < 0x20)
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let digits = b.get(at..at + 4)?;
    let s = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// Decodes the escape at `b[i] == b'\\'`: the character and the bytes it used.
fn decode_escape(b: &[u8], i: usize) -> Option<(char, usize)> {
    let ch = match *b.get(i + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(b, i + 2)?;
            if (0xD800..0xDC00).contains(&hi) && b.get(i + 6..i + 8) == Some(b"\\u") {
                let lo = hex4(b, i + 8)?;
                if (0xDC00..0xE000).contains(&lo) {
                    let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return Some((char::from_u32(code)?, 12));
                }
            }
            // A lone surrogate cannot be a Rust char; it becomes U+FFFD.
            return Some((char::from_u32(hi).unwrap_or('\u{FFFD}'), 6));
        }
        _ => return None,
    };
    Some((ch, 2))
}

/// True when `text` is one strict JSON value (RFC 8259), checked without building anything.
#[must_use]
pub fn is_strict_json(text: &str) -> bool {
    let mut reader = StrictReader::new(text);
    reader.validate_only = true;
    loop {
        match reader.next_event() {
            Ok(Some(_)) => {}
            Ok(None) => return true,
            Err(_) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Result<Vec<JsonEvent<'_>>, Error> {
        let mut r = StrictReader::new(text);
        let mut out = Vec::new();
        while let Some(e) = r.next_event()? {
            out.push(e);
        }
        Ok(out)
    }

    #[test]
    fn reads_a_document() {
        let got = events(
            r#" {"a": [1, -2.5e3, "x\"\u00e9\ud83d\ude00"], "b": {}, "c": [], "d": [true, null]} "#,
        )
        .unwrap();
        assert_eq!(got.len(), 19);
        assert_eq!(got[1], JsonEvent::Key(Cow::Borrowed("a")));
        assert_eq!(got[5], JsonEvent::String(Cow::Owned("x\"é😀".to_string())));
        assert_eq!(
            got[4],
            JsonEvent::Number {
                text: "-2.5e3",
                integer: false
            }
        );
        assert_eq!(got[9], JsonEvent::EndObject);
        assert_eq!(got[11], JsonEvent::StartArray);
        assert_eq!(got[12], JsonEvent::EndArray);
    }

    #[test]
    fn deep_documents_need_no_stack() {
        let n = 200_000;
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(events(&text).unwrap().len(), 2 * n);
    }

    #[test]
    fn rejects_invalid_json_with_offsets() {
        assert_eq!(events("[1,]").unwrap_err().offset, 3);
        assert_eq!(events(r#"{"a" 1}"#).unwrap_err().offset, 5);
        assert!(events("[1] x").is_err());
        assert!(events("").is_err());
        assert!(events("[-]").is_err());
    }

    #[test]
    fn validation_matches_strict_json() {
        assert!(is_strict_json(r#"{"a": ["x\n", 1.5, {}, []], "b": null}"#));
        assert!(!is_strict_json("{\"a\": \"x\ny\"}"));
        assert!(!is_strict_json(r#"{"a": "\q"}"#));
        assert!(!is_strict_json(r#"["\ud800"]"#));
        assert!(is_strict_json(r#"["\ud83d\ude00 \u00e9"]"#));
        assert!(!is_strict_json("{'a': 1}"));
        assert!(!is_strict_json(r#"{"a": 1,}"#));
        assert!(!is_strict_json(r#"{"a": 1} {}"#));
        for bad in ["01", "1.", "-", "1e", "1e+", "--1", "1.5.2", "+1"] {
            assert!(!is_strict_json(bad), "{bad}");
        }
        for good in ["0", "-0", "10", "1.5", "-1.5e-3", "2E+10", "0.0"] {
            assert!(is_strict_json(good), "{good}");
        }
    }
}
