//! The top level: a lone scalar, or one or more containers followed by text to ignore.

use super::chars::{closing_quote_at, is_fence, is_ws, quote_at, skip_ws, string_opener_at};
use super::parser::{Ctx, Frame, Parser, State};
use super::values::letters_end;
use super::RepairKind;
use crate::error::Error;
use crate::strict_json::{JsonEvent, StrictReader};

impl Parser<'_> {
    /// Parses one top-level value at a `{`, `[` or `(` at `pos`, then any further values that
    /// are separated from it only by whitespace, commas and comments, then ignores trailing
    /// text. Several values become an array. Two are read as `json_repair` reads them (see
    /// [`Parser::join_two`]); three or more are a sequence (JSON Lines, a log of objects),
    /// each kept, empty ones too (jsonrepair's reading).
    pub(super) fn parse_top_containers(&mut self) -> Result<(), Error> {
        let first_out = self.out.len();
        self.parse_container()?;
        // Output ranges of the values, with whether a comma stood before each in the input.
        let mut values: Vec<(usize, usize, bool)> = vec![(first_out, self.out.len(), false)];
        loop {
            let ws_end = skip_ws(self.b, self.pos);
            let mut k = after_separators(self.b, ws_end);
            if let Some(next) = next_fenced_value(self.b, k) {
                // `` ```json {…} ``` more prose ```json […] ``` ``: each fenced block's value.
                k = next;
            }
            if ws_end < self.b.len()
                && values.len() == 1
                && self.b.get(ws_end) == Some(&b',')
                && self.object_goes_on(k)
            {
                self.reopen_object(ws_end)?;
                values[0].1 = self.out.len();
                continue;
            }
            if ws_end >= self.b.len() || !matches!(self.b.get(k), Some(b'{' | b'[')) {
                match values.as_slice() {
                    [_] => {}
                    &[first, second] => self.join_two(first, second),
                    _ => {
                        self.out.push(']');
                        self.out.insert_str(first_out, "[");
                    }
                }
                if ws_end < self.b.len() {
                    self.record(RepairKind::TrailingText, ws_end);
                    self.pos = self.b.len();
                } else {
                    self.copy(self.pos, ws_end);
                    self.pos = ws_end;
                }
                return Ok(());
            }
            self.record(RepairKind::ConcatenatedValues, k);
            let comma = self.b.get(ws_end..k).is_some_and(|s| s.contains(&b','));
            self.out.push(',');
            let start = self.out.len();
            self.pos = k;
            self.parse_container()?;
            values.push((start, self.out.len(), comma));
        }
    }

    /// The output holds exactly two top-level values, `first` and `second` (output ranges,
    /// with whether a comma stood before each), a `,` between them: as `json_repair` reads
    /// them, an empty value is dropped unless both are empty (`{"a":1}, []` → `{"a":1}`,
    /// `[]{}` → `[]`), and the second replaces the first when it has the same shape (same
    /// types, keys and lengths) and no comma stands between them (the model wrote the value
    /// again, corrected); otherwise they become an array.
    fn join_two(&mut self, first: (usize, usize, bool), second: (usize, usize, bool)) {
        let text = self.out.string_mut();
        let one = text.get(first.0..first.1).unwrap_or_default();
        let two = text.get(second.0..second.1).unwrap_or_default();
        if is_empty_container(two) {
            text.truncate(first.1);
        } else if is_empty_container(one) || (!second.2 && same_shape(one, two)) {
            let two = two.to_string();
            text.truncate(first.0);
            text.push_str(&two);
        } else {
            text.push(']');
            text.insert(first.0, '[');
        }
    }

    /// `{"a": 1}, "b": 2}`: the object just closed is followed, after a comma, by a quoted
    /// key and its `:` (or a second string, the colon missing) at `k`, so its `}` came too
    /// early and its members go on (`json_repair`'s reading). The lookahead is one string's
    /// length, charged to the budget.
    fn object_goes_on(&mut self, k: usize) -> bool {
        self.out.ends_with_byte(b'}') && self.quoted_key_at(k, true)
    }

    /// Whether a quoted key and its `:` (or, if `loose`, a second string: the colon missing)
    /// stand at `k`. The lookahead is one string's length, charged to the budget.
    pub(super) fn quoted_key_at(&mut self, k: usize, loose: bool) -> bool {
        let Some((q, len)) = quote_at(self.b, k) else {
            return false;
        };
        let mut i = k + len;
        let end = loop {
            match self.b.get(i) {
                None | Some(b'\n') => return false,
                Some(b'\\') => i += 2,
                Some(_) => match closing_quote_at(self.b, i, q) {
                    Some(close) => break i + close,
                    None => i += 1,
                },
            }
        };
        let after = skip_ws(self.b, end);
        if after - k > self.budget {
            return false;
        }
        self.budget -= after - k;
        self.b.get(after) == Some(&b':') || (loose && quote_at(self.b, after).is_some())
    }

    /// Takes back the `}` that closed the top-level object and goes on with its members from
    /// the comma at `comma`. An object that had no members reads that comma as a stray one
    /// before its first key (found by the `repair` fuzz target: `{}, "a": 1` was repaired to
    /// `{, "a": 1}`).
    fn reopen_object(&mut self, comma: usize) -> Result<(), Error> {
        self.record(RepairKind::ExtraCloser, self.pos.saturating_sub(1));
        self.out.pop_byte(b'}');
        self.stack.push(Frame::Object);
        self.open_objects += 1;
        self.value_end_out = self.out.len();
        let empty = self.out.string_mut().trim_end().ends_with('{');
        self.state = if empty {
            State::ObjFirstKey
        } else {
            State::ObjNext
        };
        self.pos = comma;
        self.run_container()
    }

    /// The word at `pos` is not `true`, `false` or `null` (nor a prefix of one cut off by the
    /// end), as written.
    fn top_word_is_foreign(&self) -> bool {
        let end = letters_end(self.b, self.pos);
        let word = self.b.get(self.pos..end).unwrap_or_default();
        let cut_off = end == self.b.len();
        ![&b"true"[..], b"false", b"null"]
            .iter()
            .any(|w| word == *w || (cut_off && w.starts_with(word)))
    }

    /// Parses a whole-input scalar at `pos` (after leading whitespace, already copied). True
    /// when it is a real scalar followed only by whitespace; otherwise nothing is kept.
    pub(super) fn parse_top_scalar(&mut self) -> bool {
        let (out_len, rep_len) = (self.out.len(), self.repairs.len());
        let c = self.b.get(self.pos).copied().unwrap_or(0);
        let ok = if let Some((q, len)) = string_opener_at(self.b, self.pos) {
            self.parse_string(q, len, Ctx::Top);
            true
        } else if self.escaped_string_at() {
            self.parse_escaped_string();
            true
        } else if matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.') {
            self.parse_number(Ctx::Top)
        } else if c.is_ascii_alphabetic() && self.parse_wrapped(Ctx::Top) {
            true
        } else {
            // Only JSON's own words: json_repair reads `True`, `None` and the like inside a
            // container, but a whole text of one such word is no JSON value to it.
            c.is_ascii_lowercase() && !self.top_word_is_foreign() && self.parse_word()
        };
        let rest = skip_ws(self.b, self.pos);
        if ok && rest >= self.b.len() {
            self.copy(self.pos, rest);
            self.pos = rest;
            return true;
        }
        if ok && self.b.get(rest) == Some(&b',') && skip_ws(self.b, rest + 1) >= self.b.len() {
            // `4,`: the trailing comma a container's last item may have, after a whole text
            // of one value (jsonrepair's reading; a comma after a container is dropped too).
            self.record(RepairKind::TrailingComma, rest);
            self.pos = self.b.len();
            return true;
        }
        self.out.truncate(out_len);
        self.repairs.truncate(rep_len);
        false
    }
}

/// The end of the commas, blanks and comments from `i` on: what may separate top-level
/// values (`{"a": 1}, /* next */ {"b": 2}`). Each byte is looked at once.
fn after_separators(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(&c) if c == b',' || is_ws(c) => i += 1,
            Some(b'#') => i = line_end(b, i),
            Some(b'/') if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            Some(b'/') if b.get(i + 1) == Some(&b'*') => {
                let rest = b.get(i + 2..).unwrap_or_default();
                i = memchr::memmem::find(rest, b"*/").map_or(b.len(), |k| i + 2 + k + 2);
            }
            _ => return i,
        }
    }
}

/// When a code fence closes at `i` and a later fence opens on a JSON container (after an
/// optional language word): where that container starts.
fn next_fenced_value(b: &[u8], i: usize) -> Option<usize> {
    if !is_fence(b, i) {
        return None;
    }
    let from = i + 3;
    let open = from + memchr::memmem::find(b.get(from..)?, b"```")? + 3;
    let k = skip_ws(b, letters_end(b, open));
    matches!(b.get(k), Some(b'{' | b'[')).then_some(k)
}

/// Where the line holding `i` ends (its line break, or the end of the input).
fn line_end(b: &[u8], i: usize) -> usize {
    let rest = b.get(i..).unwrap_or_default();
    memchr::memchr2(b'\n', b'\r', rest).map_or(b.len(), |k| i + k)
}

/// Whether the strict JSON `text` is `{}` or `[]` (blanks allowed inside).
fn is_empty_container(text: &str) -> bool {
    let t = text.trim();
    (t.starts_with('{') || t.starts_with('['))
        && t.len() >= 2
        && t[1..t.len() - 1].trim().is_empty()
}

/// Whether two strict JSON texts have the same shape: the same types (an integer is not a
/// float), the same keys in the same order and the same lengths, whatever the scalars' values.
fn same_shape(first: &str, second: &str) -> bool {
    let mut left = StrictReader::new(first);
    let mut right = StrictReader::new(second);
    loop {
        match (left.next_event(), right.next_event()) {
            (Ok(None), Ok(None)) => return true,
            (Ok(Some(one)), Ok(Some(other))) => {
                let alike = match (&one, &other) {
                    (JsonEvent::Key(k1), JsonEvent::Key(k2)) => k1 == k2,
                    (
                        JsonEvent::Number { integer: int1, .. },
                        JsonEvent::Number { integer: int2, .. },
                    ) => int1 == int2,
                    _ => std::mem::discriminant(&one) == std::mem::discriminant(&other),
                };
                if !alike {
                    return false;
                }
            }
            _ => return false,
        }
    }
}
