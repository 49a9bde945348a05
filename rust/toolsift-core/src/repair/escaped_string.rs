//! A string escaped one level too many where a value starts: `{"k": \"hello\"}`, or a whole
//! text `\"hello\"` (a model copying JSON out of a JSON string literal). Before, its `\` and
//! `"` were read as a word and a string of their own (`{"k": "\\", "hello\"": ""}`).

use super::chars::skip_ws;
use super::parser::Parser;
use super::prelude::unescape;
use super::RepairKind;
use crate::stream::args_writer::json_string;

impl Parser<'_> {
    /// Whether an escaped string opens at `pos`: a backslash, then a quote.
    pub(super) fn escaped_string_at(&self) -> bool {
        self.b.get(self.pos) == Some(&b'\\') && self.b.get(self.pos + 1) == Some(&b'"')
    }

    /// Reads the escaped string at `pos` (see [`Parser::escaped_string_at`]). It ends at the
    /// next `\"` (an escaped backslash `\\` before a quote belongs to the text), at a plain
    /// `"` followed by `,` `}` `]` `:` or the end (`\"hello"`), or at the end of the input (a lone
    /// backslash there is dropped). Its text is unescaped one level (`\\` becomes `\`) and
    /// then read as a JSON string's text (as a double-escaped document is, see `prelude`); the
    /// value written is that text as a JSON string.
    /// Each byte is read once.
    pub(super) fn parse_escaped_string(&mut self) {
        self.record(RepairKind::DoubleEscaped, self.pos);
        let b = self.b;
        let mut body = String::new();
        let mut run = self.pos + 2;
        // Runs between the ASCII bytes looked at are copied whole: the input is UTF-8 and a
        // run never ends inside a character.
        let text = |from: usize, to: usize| {
            let run = b.get(from..to).unwrap_or_default();
            std::str::from_utf8(run).unwrap_or_default()
        };
        let after = loop {
            let Some(k) = b
                .get(run..)
                .and_then(|rest| memchr::memchr2(b'\\', b'"', rest))
            else {
                body.push_str(text(run, b.len()));
                break b.len();
            };
            let i = run + k;
            body.push_str(text(run, i));
            if b[i] == b'"' {
                // A plain quote ends it only where a value may end: the next `\"` is its end
                // otherwise (`\"say \\"hi\\"\"` holds two).
                if matches!(
                    b.get(skip_ws(b, i + 1)),
                    None | Some(b',' | b'}' | b']' | b':')
                ) {
                    break i + 1;
                }
                body.push('"');
                run = i + 1;
                continue;
            }
            match b.get(i + 1) {
                Some(b'"') => break i + 2,
                None => break i + 1,
                Some(b'\\') => {
                    body.push('\\');
                    run = i + 2;
                }
                Some(_) => {
                    body.push('\\');
                    run = i + 1;
                }
            }
        };
        self.out.push_str(&json_string(&unescape(&body).0));
        self.pos = after;
    }
}
