//! Decoding a string value that holds escapes.
//!
//! The one-character escapes (`\n`, `\"`, ...) are written as their byte here, not through
//! [`decode_escape`] and a `char` push: ~40k of the ~430k instructions the escaped file
//! contents of 305 sentinel replies took. Writing the runs between escapes a word at a time
//! instead of one copy each saved a little more, but the output then needed a UTF-8 check
//! (`String::from_utf8`, 104k), which the core, with no unsafe code, cannot skip.

use super::{decode_escape, invalid, next_special};
use crate::error::Error;

/// Decodes the rest of a string whose text starts at `start` (after the opening quote at
/// `open`) and whose first escape is at `first`, with no control byte before it. Returns
/// the text and where it ends (after its closing quote), or the error
/// [`StrictReader::string`](super::StrictReader) gives: `bad escape` at the escape,
/// `control character in string` at the start of the run that holds one, `unterminated
/// string` at `open`.
pub(super) fn decode(
    text: &str,
    open: usize,
    start: usize,
    first: usize,
) -> Result<(String, usize), Error> {
    let b = text.as_bytes();
    // Room for the rest of the text up to 4 KB (decoding only shrinks it).
    let room = (b.len() - start).min((first - start + 16).max(4096));
    let mut out = String::with_capacity(room);
    out.push_str(&text[start..first]);
    let mut i = first;
    loop {
        match b.get(i) {
            None => return Err(invalid("unterminated string", open)),
            Some(b'"') => return Ok((out, i + 1)),
            Some(b'\\') => {
                let byte = match b.get(i + 1) {
                    Some(b'n') => Some(b'\n'),
                    Some(b'"') => Some(b'"'),
                    Some(b'\\') => Some(b'\\'),
                    Some(b't') => Some(b'\t'),
                    Some(b'r') => Some(b'\r'),
                    Some(b'/') => Some(b'/'),
                    Some(b'b') => Some(0x08),
                    Some(b'f') => Some(0x0C),
                    _ => None,
                };
                if let Some(byte) = byte {
                    out.push(char::from(byte));
                    i += 2;
                } else {
                    let (ch, used) = decode_escape(b, i).ok_or_else(|| invalid("bad escape", i))?;
                    out.push(ch);
                    i += used;
                }
            }
            Some(_) => return Err(invalid("control character in string", i)),
        }
        let next = next_special(b, i);
        if b.get(next).is_some_and(|&c| c < 0x20) {
            return Err(invalid("control character in string", i));
        }
        // The run ends before an ASCII byte (or at the end), so on a character boundary.
        out.push_str(&text[i..next]);
        i = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A plain reading of the same rules for a string opened at byte 0: byte by byte, each
    /// escape through `decode_escape`, a control byte reported where its run began (the
    /// opening quote's next byte for the first run, which the caller checked already).
    fn reference(text: &str, first: usize) -> Result<(String, usize), Error> {
        let b = text.as_bytes();
        let mut decoded = text[1..first].to_string();
        let (mut at, mut run) = (first, first);
        while let Some(&c) = b.get(at) {
            if c == b'"' {
                return Ok((decoded, at + 1));
            }
            if c < 0x20 {
                return Err(invalid("control character in string", run));
            }
            if c == b'\\' {
                let (ch, used) = decode_escape(b, at).ok_or_else(|| invalid("bad escape", at))?;
                decoded.push(ch);
                at += used;
                run = at;
                continue;
            }
            let width = text[at..].chars().next().map_or(1, char::len_utf8);
            decoded.push_str(&text[at..at + width]);
            at += width;
        }
        Err(invalid("unterminated string", 0))
    }

    /// Pieces a string body is made of: text of every UTF-8 length, every escape (good,
    /// truncated and bad), quotes and control bytes.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z ]{0,12}",
            "[é日😀a]{1,6}",
            Just(r"\n".to_string()),
            Just(r#"\""#.to_string()),
            Just(r"\\".to_string()),
            Just(r"\t\r\/\b\f".to_string()),
            Just(r"\u00e9".to_string()),
            Just(r"\ud83d\ude00".to_string()),
            Just(r"\ud800x".to_string()),
            Just(r"\u12".to_string()),
            Just(r"\x".to_string()),
            Just("\"".to_string()),
            Just("\u{1}".to_string()),
            Just("\n".to_string()),
        ]
    }

    proptest! {
        /// The decoder and the byte-at-a-time reference give the same text, end and errors.
        #[test]
        fn decodes_as_one_at_a_time(
            pieces in prop::collection::vec(piece(), 0..24),
            lead in "[a-z]{0,10}",
        ) {
            let text = format!("\"{lead}\\n{}", pieces.concat());
            let first = 1 + lead.len();
            prop_assert_eq!(decode(&text, 0, 1, first), reference(&text, first));
        }
    }

    #[test]
    fn an_escaped_file_body_decodes_whole() {
        let text = r#""def f():\n    return \"ok\"\n\tpath = \"C:\\\\tmp\" # é 日本\n" tail"#;
        let first = text.find('\\').unwrap_or(0);
        let (out, end) = decode(text, 0, 1, first).unwrap_or_default();
        assert_eq!(
            out,
            "def f():\n    return \"ok\"\n\tpath = \"C:\\\\tmp\" # é 日本\n"
        );
        assert_eq!(&text[end..], " tail");
    }
}
