//! A streaming reader of one Python literal, written out as JSON while it is read.
//!
//! It takes what a model writes as a keyword argument: strings in `'` or `"` (Python escapes
//! decoded), numbers (`_` separators, `.5`, `5.`, hex/octal/binary integers), `True`, `False`,
//! `None` (and their JSON spellings), lists, tuples (as lists) and dicts (non-string keys become
//! their JSON text as a string). Nothing is evaluated. Nesting uses an explicit stack, so depth
//! costs no call stack, and every byte is looked at once.

use super::super::args_writer::escape_into;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum L {
    /// A value must come (`or_close`: or the container's closer).
    Item { or_close: bool },
    /// Inside a string; `esc` holds an escape being read (backslash excluded).
    Str { quote: u8 },
    /// Inside a number or word.
    Token,
    /// After an item: `,`, `:` (after a dict key) or the closer.
    AfterItem,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    close: u8,
    /// In a dict: the next item is a key.
    key_next: bool,
    count: usize,
}

/// What [`Lit::feed`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LitStatus {
    /// All bytes taken; the value goes on.
    NeedMore,
    /// The value ended; the byte at the returned index is not part of it.
    Complete,
    /// The byte at the returned index cannot continue the value.
    Invalid,
    /// The value is Python but has no JSON form (a bytes literal `b'…'`, a number beyond a
    /// float): the call is malformed, while the text around it still reads as calls.
    Unsupported,
}

/// See the module docs.
#[derive(Debug, Clone)]
pub struct Lit {
    stack: Vec<Frame>,
    state: L,
    /// The value as JSON text.
    pub json: String,
    /// The decoded text when the whole value is one string.
    pub text: Option<String>,
    token: String,
    esc: Option<String>,
    /// Where the dict key being read starts in `json`, and whether it is a string.
    key_mark: Option<(usize, bool)>,
}

impl Default for Lit {
    fn default() -> Self {
        Self::new()
    }
}

impl Lit {
    /// A reader before the value.
    #[must_use]
    pub fn new() -> Self {
        Self {
            stack: Vec::new(),
            state: L::Item { or_close: false },
            json: String::new(),
            text: None,
            token: String::new(),
            esc: None,
            key_mark: None,
        }
    }

    /// Reads from byte `i` of `input`; returns where it stopped and why.
    pub fn feed(&mut self, input: &str, mut i: usize) -> (usize, LitStatus) {
        let bytes = input.as_bytes();
        while let Some(&b) = bytes.get(i) {
            match self.state {
                L::Str { quote } => {
                    i = self.string(input, i, quote);
                    if self.state == L::AfterItem && self.stack.is_empty() {
                        return (i, LitStatus::Complete);
                    }
                    continue;
                }
                L::Token if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'+' | b'-') => {
                    self.token.push(char::from(b));
                }
                L::Token if matches!(b, b'\'' | b'"') && is_bytes_prefix(&self.token) => {
                    return (i, LitStatus::Unsupported);
                }
                L::Token => {
                    if beyond_a_float(&self.token) {
                        return (i, LitStatus::Unsupported);
                    }
                    if !self.end_token() {
                        return (i, LitStatus::Invalid);
                    }
                    if self.stack.is_empty() {
                        return (i, LitStatus::Complete);
                    }
                    continue;
                }
                _ if b.is_ascii_whitespace() => {}
                L::Item { or_close } => {
                    if or_close && self.stack.last().is_some_and(|f| f.close == b) {
                        if self.close() {
                            return (i + 1, LitStatus::Complete);
                        }
                    } else if !self.item(b) {
                        return (i, LitStatus::Invalid);
                    }
                }
                L::AfterItem => {
                    let Some(top) = self.stack.last_mut() else {
                        return (i, LitStatus::Complete);
                    };
                    match b {
                        b',' if !top.key_next || top.close != b'}' => {
                            // In a dict, a key follows the comma.
                            top.key_next = top.close == b'}';
                            self.state = L::Item { or_close: true };
                        }
                        b':' if top.close == b'}' && top.key_next => {
                            top.key_next = false;
                            self.end_key();
                            self.state = L::Item { or_close: false };
                            i += 1;
                            continue;
                        }
                        _ if b == top.close && (top.close != b'}' || !top.key_next) => {
                            if self.close() {
                                return (i + 1, LitStatus::Complete);
                            }
                        }
                        _ => return (i, LitStatus::Invalid),
                    }
                }
            }
            i += 1;
        }
        (i, LitStatus::NeedMore)
    }

    /// The value ended with the input: a number or word at the end is complete.
    pub fn finish(&mut self) -> bool {
        match self.state {
            L::Token => !beyond_a_float(&self.token) && self.end_token() && self.stack.is_empty(),
            L::AfterItem => self.stack.is_empty(),
            _ => false,
        }
    }

    /// Starts an item with byte `b`; false when no value starts so.
    fn item(&mut self, b: u8) -> bool {
        if let Some(top) = self.stack.last_mut() {
            if top.count > 0 && (top.close != b'}' || top.key_next) {
                self.json.push_str(", ");
            }
            top.count += 1;
            if top.close == b'}' && top.key_next {
                self.key_mark = Some((self.json.len(), matches!(b, b'\'' | b'"')));
            }
        }
        match b {
            b'[' | b'(' | b'{' => {
                self.json.push(if b == b'{' { '{' } else { '[' });
                self.stack.push(Frame {
                    close: match b {
                        b'[' => b']',
                        b'(' => b')',
                        _ => b'}',
                    },
                    key_next: b == b'{',
                    count: 0,
                });
                self.state = L::Item { or_close: true };
            }
            b'\'' | b'"' => {
                self.json.push('"');
                if self.stack.is_empty() {
                    self.text = Some(String::new());
                }
                self.state = L::Str { quote: b };
            }
            _ if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'+' | b'-') => {
                self.token.clear();
                self.token.push(char::from(b));
                self.state = L::Token;
            }
            _ => return false,
        }
        true
    }

    fn close(&mut self) -> bool {
        let frame = self.stack.pop();
        self.json.push(if frame.is_some_and(|f| f.close == b'}') {
            '}'
        } else {
            ']'
        });
        self.state = L::AfterItem;
        self.stack.is_empty()
    }

    /// A dict key ended: a non-string key becomes a string of its JSON text.
    fn end_key(&mut self) {
        if let Some((mark, false)) = self.key_mark.take() {
            let raw = self.json.split_off(mark.min(self.json.len()));
            self.json.push('"');
            escape_into(&mut self.json, &raw);
            self.json.push('"');
        }
        self.json.push_str(": ");
    }

    fn end_token(&mut self) -> bool {
        let word = match self.token.as_str() {
            "True" | "true" => Some("true".to_string()),
            "False" | "false" => Some("false".to_string()),
            "None" | "null" => Some("null".to_string()),
            t => py_number(t),
        };
        let Some(word) = word else { return false };
        self.json.push_str(&word);
        self.state = L::AfterItem;
        true
    }

    fn push_text(&mut self, s: &str) {
        escape_into(&mut self.json, s);
        if let Some(t) = &mut self.text {
            t.push_str(s);
        }
    }

    /// String bytes from `i`; returns the index after what it took.
    fn string(&mut self, input: &str, i: usize, quote: u8) -> usize {
        let bytes = input.as_bytes();
        if let Some(mut esc) = self.esc.take() {
            // An escape in progress: take one more char.
            let c = input[i..].chars().next().unwrap_or('\u{fffd}');
            esc.push(c);
            let step = c.len_utf8();
            match decode_escape(&esc) {
                Escape::More => self.esc = Some(esc),
                Escape::Text(t) => self.push_text(&t),
            }
            return i + step;
        }
        let rest = &bytes[i..];
        match memchr::memchr2(quote, b'\\', rest) {
            None => {
                self.push_text(&input[i..]);
                bytes.len()
            }
            Some(k) => {
                self.push_text(&input[i..i + k]);
                if rest[k] == b'\\' {
                    self.esc = Some(String::new());
                } else {
                    self.json.push('"');
                    self.state = L::AfterItem;
                }
                i + k + 1
            }
        }
    }
}

enum Escape {
    More,
    Text(String),
}

/// Decodes a Python escape (without its backslash) once it is complete.
fn decode_escape(esc: &str) -> Escape {
    let mut chars = esc.chars();
    let Some(first) = chars.next() else {
        return Escape::More;
    };
    let hex_len = match first {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        _ => 0,
    };
    if hex_len > 0 {
        let digits = &esc[1..];
        if digits.chars().any(|c| !c.is_ascii_hexdigit()) {
            // Not a valid escape: keep it as written.
            return Escape::Text(format!("\\{esc}"));
        }
        if digits.len() < hex_len {
            return Escape::More;
        }
        let c = u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32)
            .unwrap_or('\u{fffd}');
        return Escape::Text(c.to_string());
    }
    Escape::Text(
        match first {
            'n' => "\n",
            't' => "\t",
            'r' => "\r",
            '0' => "\0",
            'a' => "\u{7}",
            'b' => "\u{8}",
            'f' => "\u{c}",
            'v' => "\u{b}",
            '\n' => "",
            '\\' | '\'' | '"' => return Escape::Text(first.to_string()),
            _ => return Escape::Text(format!("\\{first}")),
        }
        .to_string(),
    )
}

/// A string prefix that makes a bytes literal (`b'x'`, `rb"x"`).
fn is_bytes_prefix(token: &str) -> bool {
    matches!(token.to_ascii_lowercase().as_str(), "b" | "rb" | "br")
}

/// A Python number as JSON text, or `None`.
fn py_number(token: &str) -> Option<String> {
    let t: String = token.chars().filter(|&c| c != '_').collect();
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => ("-", &t[1..]),
        Some(b'+') => ("", &t[1..]),
        _ => ("", t.as_str()),
    };
    let lower = body.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            return i128::from_str_radix(digits, radix)
                .ok()
                .filter(|_| !digits.starts_with(['+', '-']))
                .map(|n| format!("{sign}{n}"));
        }
    }
    let (mantissa, exponent) = match lower.find('e') {
        Some(k) => (&lower[..k], Some(&lower[k + 1..])),
        None => (lower.as_str(), None),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(k) => (&mantissa[..k], Some(&mantissa[k + 1..])),
        None => (mantissa, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(int) || (int.is_empty() && frac.is_some_and(digits))) {
        return None;
    }
    if frac.is_some_and(|f| !f.is_empty() && !digits(f)) {
        return None;
    }
    let mut out = String::from(sign);
    let int = int.trim_start_matches('0');
    out.push_str(if int.is_empty() { "0" } else { int });
    if let Some(f) = frac {
        out.push('.');
        out.push_str(if f.is_empty() { "0" } else { f });
    }
    if let Some(e) = exponent {
        let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
        if !digits(unsigned) {
            return None;
        }
        out.push('e');
        out.push_str(e);
    }
    Some(out)
}

/// A token that is a Python number but no JSON one: `1e999` is infinity once decoded, which
/// JSON cannot hold (a strict encoder refuses it).
fn beyond_a_float(token: &str) -> bool {
    py_number(token).is_some_and(|n| n.parse::<f64>().is_ok_and(f64::is_infinite))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> Option<String> {
        let mut l = Lit::new();
        match l.feed(text, 0) {
            (n, LitStatus::Complete) if n == text.len() => Some(l.json),
            (_, LitStatus::NeedMore) if l.finish() => Some(l.json),
            _ => None,
        }
    }

    #[test]
    fn literals_become_json() {
        assert_eq!(lit("'a \\'b\\' \\n é'").unwrap(), r#""a 'b' \n é""#);
        assert_eq!(
            lit("[1, 2.5, -.5, 5., 1_000, 0x1F, True, None]").unwrap(),
            "[1, 2.5, -0.5, 5.0, 1000, 31, true, null]"
        );
        assert_eq!(
            lit("{'a': (1,), 2: {\"b\": []}}").unwrap(),
            r#"{"a": [1], "2": {"b": []}}"#
        );
        assert_eq!(lit("'\\x41\\u00e9\\d'").unwrap(), r#""Aé\\d""#);
        assert_eq!(lit("1e-5").unwrap(), "1e-5");
        for bad in ["see", "1-2", "{1, 2}", "[1 2]", "'x' 'y'", "0x", "--1"] {
            assert!(lit(bad).is_none(), "{bad}");
        }
    }
}
