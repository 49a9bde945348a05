//! A pull reader of strict JSON with an explicit stack, for hosts that build their own values.
//!
//! Python's orjson refuses nesting deeper than 1024 and turns integers beyond 64 bits into
//! floats; the standard library recurses and overflows on deep input. This reader walks any
//! valid JSON in one pass without recursion and hands numbers over as text, so the host keeps
//! big integers exact and deep documents cost no stack.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};

mod digits;
mod nesting;
mod skip;
mod unescape;
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
    stack: nesting::Nesting,
    expect: Expect,
    /// Check strings without decoding them (their events then carry an empty string).
    validate_only: bool,
    /// Like `validate_only`, but accepting what decoding accepts (a lone surrogate escape,
    /// which decodes to U+FFFD): for a caller that skips values it does not need.
    skip_strings: bool,
    /// The deepest nesting reached so far.
    deepest: usize,
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
            stack: nesting::Nesting::default(),
            expect: Expect::Value,
            validate_only: false,
            skip_strings: false,
            deepest: 0,
        }
    }

    /// While on, strings with escapes are checked as decoding checks them but not decoded:
    /// their events carry an empty string. Saves building strings the caller skips.
    pub(crate) fn set_skip_strings(&mut self, on: bool) {
        self.skip_strings = on;
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

    /// The deepest nesting reached so far.
    #[must_use]
    pub fn deepest(&self) -> usize {
        self.deepest
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
                let object = self.stack.last().unwrap_or(false);
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
                self.deepest = self.deepest.max(self.stack.len());
                self.expect = Expect::FirstKeyOrEnd;
                return Ok(JsonEvent::StartObject);
            }
            b'[' => {
                self.pos += 1;
                self.stack.push(false);
                self.deepest = self.deepest.max(self.stack.len());
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
        let start = self.pos;
        let (end, integer) = self.number_end()?;
        Ok(JsonEvent::Number {
            text: &self.text[start..end],
            integer,
        })
    }

    /// Reads the number at `pos` (one pass of the grammar, see [`number_grammar`]); returns
    /// where it ends and whether it is an integer. Refuses it, as a check of the whole run of
    /// number bytes would, when a number byte follows what the grammar took (`01`, `1.5.3`).
    fn number_end(&mut self) -> Result<(usize, bool), Error> {
        let b = self.text.as_bytes();
        let start = self.pos;
        match number_grammar(b, start) {
            Some((end, integer)) if !b.get(end).is_some_and(|&c| is_number_byte(c)) => {
                self.pos = end;
                Ok((end, integer))
            }
            _ => Err(self.bad_number(start)),
        }
    }

    /// The error of a bad number at `start`; the reader stops after its run of number bytes.
    #[cold]
    fn bad_number(&mut self, start: usize) -> Error {
        let b = self.text.as_bytes();
        self.pos = b[start..]
            .iter()
            .position(|&c| !is_number_byte(c))
            .map_or(b.len(), |k| start + k);
        invalid("invalid number", start)
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
        let i = start + k;
        if has_control(&b[start..i]) {
            return Err(invalid("control character in string", start));
        }
        if b[i] == b'"' {
            self.pos = i + 1;
            return Ok(Cow::Borrowed(&self.text[start..i]));
        }
        if self.validate_only || self.skip_strings {
            return self.skip_escaped_string(i);
        }
        // Escapes present: decoded into an owned string (see `unescape`).
        let (out, end) = unescape::decode(self.text, self.pos, start, i)?;
        self.pos = end;
        Ok(Cow::Owned(out))
    }
}

impl StrictReader<'_> {
    /// Checks the rest of a string from its first backslash at `i` without decoding it.
    fn skip_escaped_string(&mut self, mut i: usize) -> Result<Cow<'static, str>, Error> {
        let b = self.text.as_bytes();
        loop {
            let k = next_special(b, i);
            match b.get(k) {
                None => return Err(invalid("unterminated string", self.pos)),
                Some(b'"') => {
                    self.pos = k + 1;
                    return Ok(Cow::Borrowed(""));
                }
                Some(b'\\') => {
                    let (_, used) = decode_escape(b, k).ok_or_else(|| invalid("bad escape", k))?;
                    // Strict parsers refuse a lone surrogate escape, so it does not validate
                    // either (decoding, and so skipping, turns it into U+FFFD).
                    if self.validate_only
                        && used == 6
                        && hex4(b, k + 2).is_some_and(|u| (0xD800..0xE000).contains(&u))
                    {
                        return Err(invalid("lone surrogate escape", k));
                    }
                    i = k + used;
                }
                Some(_) => return Err(invalid("control character in string", k)),
            }
        }
    }
}

/// Index of the first `"`, backslash or control character in `b` from `i` on (`b.len()` when
/// none). Eight bytes at a time: in escaped text (source code with `\n` and `\"` every few
/// words) this beats a `memchr` call per escape plus a separate pass for control characters.
pub(crate) fn next_special(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const QUOTES: u64 = ONES * b'"' as u64;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    const SPACES: u64 = ONES * 0x20;
    while let Some(word) = b.get(i..i + 8) {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let x = u64::from_le_bytes(eight);
        let (quote, slash) = (x ^ QUOTES, x ^ BACKSLASHES);
        // The high bit of a byte is set where it is zero (a quote or backslash in x), or below
        // 0x20 in x; bytes past the first hit may be flagged wrongly.
        let hit = (quote.wrapping_sub(ONES) & !quote)
            | (slash.wrapping_sub(ONES) & !slash)
            | (x.wrapping_sub(SPACES) & !x);
        if hit & HIGH != 0 {
            // The lowest flagged byte is always a true hit (a borrow only runs upwards).
            return i + (hit & HIGH).trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if matches!(c, b'"' | b'\\' | 0..=0x1F) {
            return i;
        }
        i += 1;
    }
    b.len()
}

/// A byte that may be part of a number's text.
fn is_number_byte(c: u8) -> bool {
    matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, the RFC 8259 number grammar, read
/// greedily from `i`: where the number ends and whether it is an integer (no fraction or
/// exponent), or `None` when no number starts there. The grammar decides at each byte what
/// may come next, so the greedy read is the only one.
fn number_grammar(b: &[u8], mut i: usize) -> Option<(usize, bool)> {
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits_end(b, i + 1),
        _ => return None,
    }
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        let end = digits_end(b, i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
        integer = false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits_end(b, i);
        if end == i {
            return None;
        }
        i = end;
        integer = false;
    }
    Some((i, integer))
}

/// Where the run of ASCII digits from `i` ends.
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// Whether any byte is below 0x20, eight bytes at a time with the has-less-than word test
/// (`(w - 0x20 * ones) & !w & 0x80 * ones` is nonzero exactly when some byte of `w` is below
/// 0x20): strings are checked for raw control characters on every read, so this is hot.
#[inline]
fn has_control(bytes: &[u8]) -> bool {
    const LOW: u64 = 0x2020_2020_2020_2020;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    for w in words.by_ref() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(w);
        let x = u64::from_le_bytes(eight);
        if x.wrapping_sub(LOW) & !x & HIGH != 0 {
            return true;
        }
    }
    words.remainder().iter().any(|&c| c < 0x20)
}

/// The value of the four hex digits at `at`; `None` unless all four are hex digits (a sign
/// included: `from_str_radix`, used here before, took `\u+041` as an escape that no strict
/// parser accepts). Repair reads escapes with it too.
pub(crate) fn hex4(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at.checked_add(4)?)?
        .iter()
        .try_fold(0u32, |acc, &d| Some(acc * 16 + char::from(d).to_digit(16)?))
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
    use proptest::prelude::*;

    /// The number check the reader made before it read numbers in one pass: the whole run
    /// of number bytes against the grammar, digits counted separately.
    fn whole_run_is_number(b: &[u8]) -> bool {
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

    proptest! {
        /// The one-pass number read accepts exactly the runs of number bytes that match the
        /// grammar as a whole, with the same integer flag, and stops where the run does.
        #[test]
        fn numbers_read_in_one_pass_as_whole_runs(run in "[-+.eE0-9]{1,8}", tail in "[ ,\\]}x]?") {
            let valid_run = whole_run_is_number(run.as_bytes());
            let text = format!("{run}{tail}");
            let mut reader = StrictReader::new(&text);
            let read = reader.number();
            prop_assert_eq!(read.is_ok(), valid_run);
            prop_assert_eq!(reader.position(), run.len());
            if let Ok(JsonEvent::Number { text: t, integer }) = read {
                prop_assert_eq!(t, run.as_str());
                prop_assert_eq!(integer, !run.contains(['.', 'e', 'E']));
            }
        }
    }

    #[test]
    fn a_unicode_escape_takes_four_hex_digits_and_no_sign() {
        assert!(is_strict_json(r#""\u0041\u00e9""#));
        for bad in [r#""\u+041""#, r#""\u-041""#, r#""\u 041""#, r#""\u04""#] {
            assert!(!is_strict_json(bad), "{bad}");
        }
    }

    #[test]
    fn has_control_matches_the_byte_test_at_every_position() {
        for bad in [0u8, 0x0A, 0x1F] {
            for ok in [0x20u8, b'a', 0x7F, 0x80, 0xC3, 0xFF] {
                for len in 0..20 {
                    for at in 0..len {
                        let mut bytes = vec![ok; len];
                        assert!(!has_control(&bytes));
                        bytes[at] = bad;
                        assert!(
                            has_control(&bytes),
                            "{bad:#x} at {at} of {len} among {ok:#x}"
                        );
                    }
                }
            }
        }
    }

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

    #[test]
    fn next_special_finds_the_first_quote_backslash_or_control_byte() {
        let text = "abcdefgh\u{7f}é日本😀ijklmnopq\"r\\s\tt\u{1f}u ~!#$%&'()*+,-./:;<=>?@[]^_`{|}";
        let b = text.as_bytes();
        for from in 0..=b.len() {
            let naive = (from..b.len())
                .find(|&k| matches!(b[k], b'"' | b'\\' | 0..=0x1F))
                .unwrap_or(b.len());
            assert_eq!(next_special(b, from), naive, "from {from}");
        }
    }
}
