//! A string escaped one level too many where a value starts: `{"k": \"hello\"}`, or a whole
//! text `\"hello\"` (a model copying JSON out of a JSON string literal). Before, its `\` and
//! `"` were read as a word and a string of their own (`{"k": "\\", "hello\"": ""}`).

use super::chars::{skip_ws, utf8_len};
use super::parser::Parser;
use super::RepairKind;
use crate::stream::args_writer::json_string;
use crate::strict_json::hex4;

impl Parser<'_> {
    /// Whether an escaped string opens at `pos`: a backslash, then a quote.
    pub(super) fn escaped_string_at(&self) -> bool {
        self.b.get(self.pos) == Some(&b'\\') && self.b.get(self.pos + 1) == Some(&b'"')
    }

    /// Reads the escaped string at `pos` (see [`Parser::escaped_string_at`]). It ends at the
    /// next `\"` (an escaped backslash `\\` before a quote belongs to the text), at a plain
    /// `"` followed by `,` `}` `]` `:` or the end (`\"hello"`), or at the end of the input (a lone
    /// backslash there is dropped). Its text is unescaped one level (`\\` becomes `\`) and
    /// then read as a JSON string's text; the value written is that text as a JSON string.
    /// Each byte is read once.
    pub(super) fn parse_escaped_string(&mut self) {
        self.record(RepairKind::DoubleEscaped, self.pos);
        let b = self.b;
        let mut body = String::new();
        let mut i = self.pos + 2;
        let after = loop {
            match b.get(i) {
                None => break i,
                Some(b'\\') => match b.get(i + 1) {
                    Some(b'"') => break i + 2,
                    None => break i + 1,
                    Some(b'\\') => {
                        body.push('\\');
                        i += 2;
                    }
                    Some(_) => {
                        body.push('\\');
                        i += 1;
                    }
                },
                // A plain quote ends it only where a value may end: the next `\"` is its end
                // otherwise (`\"say \\"hi\\"\"` holds two).
                Some(b'"')
                    if matches!(
                        b.get(skip_ws(b, i + 1)),
                        None | Some(b',' | b'}' | b']' | b':')
                    ) =>
                {
                    break i + 1
                }
                Some(&c) => {
                    let end = (i + utf8_len(c)).min(b.len());
                    body.push_str(&String::from_utf8_lossy(&b[i..end]));
                    i = end;
                }
            }
        };
        self.out.push_str(&json_string(&unescape(&body)));
        self.pos = after;
    }
}

/// The text of a JSON string body read leniently: the escapes JSON defines are decoded (a
/// lone surrogate becomes U+FFFD), any other backslash is kept as it is.
fn unescape(body: &str) -> String {
    let b = body.as_bytes();
    let mut out = String::with_capacity(body.len());
    let mut run = 0;
    let mut i = 0;
    while let Some(k) = b.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let at = i + k;
        let simple = match b.get(at + 1) {
            Some(b'"') => Some('"'),
            Some(b'\\') => Some('\\'),
            Some(b'/') => Some('/'),
            Some(b'b') => Some('\u{8}'),
            Some(b'f') => Some('\u{c}'),
            Some(b'n') => Some('\n'),
            Some(b'r') => Some('\r'),
            Some(b't') => Some('\t'),
            _ => None,
        };
        let Some((c, len)) = simple.map(|c| (c, 2)).or_else(|| unicode_escape(b, at)) else {
            i = at + 1;
            continue;
        };
        out.push_str(&body[run..at]);
        out.push(c);
        i = at + len;
        run = i;
    }
    out.push_str(&body[run..]);
    out
}

/// The character of the `\u` escape at `at` (a surrogate pair taken whole, a lone surrogate
/// read as U+FFFD) and the escape's length; `None` when no four hex digits follow.
fn unicode_escape(b: &[u8], at: usize) -> Option<(char, usize)> {
    if b.get(at + 1) != Some(&b'u') {
        return None;
    }
    let cp = hex4(b, at + 2)?;
    if (0xD800..0xDC00).contains(&cp) && b.get(at + 6..at + 8) == Some(b"\\u".as_slice()) {
        if let Some(lo) = hex4(b, at + 8).filter(|lo| (0xDC00..0xE000).contains(lo)) {
            let c = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            return Some((char::from_u32(c).unwrap_or('\u{FFFD}'), 12));
        }
    }
    Some((char::from_u32(cp).unwrap_or('\u{FFFD}'), 6))
}
