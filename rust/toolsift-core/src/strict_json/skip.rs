//! Skipping the rest of a container without building its events.

use super::{invalid, next_special, Expect, StrictReader};
use crate::error::Error;

impl StrictReader<'_> {
    /// Reads on until the nesting is back at `depth`, accepting and refusing exactly what
    /// calling [`StrictReader::next_event`] until then would, and leaving the reader in the
    /// same state, but building no events: a caller that only wants where a value ends (the
    /// arguments of a call, most of its text) paid for an event per token, more than the
    /// checking itself. Strings are checked as skipped ones are (see `set_skip_strings`).
    pub(crate) fn skip_to_depth(&mut self, depth: usize) -> Result<(), Error> {
        let skip = std::mem::replace(&mut self.skip_strings, true);
        let done = self.skip_loop(depth);
        self.skip_strings = skip;
        done
    }

    fn skip_loop(&mut self, depth: usize) -> Result<(), Error> {
        let b = self.text.as_bytes();
        while self.stack.len() > depth {
            self.skip_ws();
            let Some(&c) = b.get(self.pos) else {
                return Err(invalid("unexpected end of JSON", self.pos));
            };
            match self.expect {
                // Not reached with a container open; kept as `next_event` answers it.
                Expect::Done => return Err(invalid("text after the JSON value", self.pos)),
                Expect::CommaOrEnd => {
                    let object = self.stack.last().unwrap_or(false);
                    match c {
                        b',' => {
                            self.pos += 1;
                            self.expect = if object { Expect::Key } else { Expect::Value };
                        }
                        b'}' if object => self.close_quietly(),
                        b']' if !object => self.close_quietly(),
                        _ => return Err(invalid("expected ',' or a closer", self.pos)),
                    }
                }
                Expect::FirstKeyOrEnd if c == b'}' => self.close_quietly(),
                Expect::FirstValueOrEnd if c == b']' => self.close_quietly(),
                Expect::FirstKeyOrEnd | Expect::Key if c != b'"' => {
                    return Err(invalid("expected a key", self.pos));
                }
                // One call site for keys and string values, so that it is inlined here.
                _ if c == b'"' => {
                    self.skip_string()?;
                    if matches!(self.expect, Expect::FirstKeyOrEnd | Expect::Key) {
                        self.skip_ws();
                        if b.get(self.pos) != Some(&b':') {
                            return Err(invalid("expected ':'", self.pos));
                        }
                        self.pos += 1;
                        self.expect = Expect::Value;
                    } else {
                        self.after_value();
                    }
                }
                Expect::FirstKeyOrEnd | Expect::Key | Expect::Value | Expect::FirstValueOrEnd => {
                    self.skip_value(c)?;
                }
            }
        }
        Ok(())
    }

    /// What `value` does for a value that is not a string, without building its event (the
    /// event, returned through memory, cost more than checking a short number).
    fn skip_value(&mut self, c: u8) -> Result<(), Error> {
        match c {
            b'{' | b'[' => return self.value(c).map(drop),
            b't' => self.skip_literal(b"true")?,
            b'f' => self.skip_literal(b"false")?,
            b'n' => self.skip_literal(b"null")?,
            b'-' | b'0'..=b'9' => {
                self.number_end()?;
            }
            _ => return Err(invalid("expected a JSON value", self.pos)),
        }
        self.after_value();
        Ok(())
    }

    fn skip_literal(&mut self, word: &[u8]) -> Result<(), Error> {
        if self.text.as_bytes()[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(invalid("invalid literal", self.pos))
        }
    }

    /// Skips the string whose opening quote is at `pos`, checking it as `string` does with
    /// `skip_strings` on. Most strings of an argument object are short, and one word-at-a-time
    /// pass that stops at a quote, backslash or control character beats `string`'s memchr call
    /// and separate control check there; a string longer than the first window is left to
    /// `string`, whose memchr is the faster on long text.
    fn skip_string(&mut self) -> Result<(), crate::error::Error> {
        const WINDOW: usize = 32;
        let b = self.text.as_bytes();
        let start = self.pos + 1;
        let window = &b[..b.len().min(start + WINDOW)];
        let k = next_special(window, start);
        match window.get(k) {
            Some(b'"') => {
                self.pos = k + 1;
                Ok(())
            }
            Some(b'\\') => self.skip_escaped_string(k).map(drop),
            Some(_) => Err(invalid("control character in string", start)),
            None => self.string().map(drop),
        }
    }

    fn close_quietly(&mut self) {
        self.pos += 1;
        self.stack.pop();
        self.after_value();
    }
}

#[cfg(test)]
mod tests {
    use super::super::JsonEvent;
    use super::StrictReader;
    use proptest::prelude::*;

    /// Skips every container the events open, once with `skip_to_depth` and once event by
    /// event; both must agree at every step.
    fn both_ways(text: &str) -> Result<(), TestCaseError> {
        let (mut fast, mut slow) = (StrictReader::new(text), StrictReader::new(text));
        fast.set_skip_strings(true);
        slow.set_skip_strings(true);
        loop {
            let (a, b) = (fast.next_event(), slow.next_event());
            prop_assert_eq!(a.is_ok(), b.is_ok());
            let Ok(Some(event)) = a else { return Ok(()) };
            if !matches!(event, JsonEvent::StartObject | JsonEvent::StartArray) {
                continue;
            }
            let depth = fast.depth() - 1;
            let skipped = fast.skip_to_depth(depth);
            let mut stepped = Ok(());
            while slow.depth() > depth {
                if let Err(e) = slow.next_event() {
                    stepped = Err(e);
                    break;
                }
            }
            prop_assert_eq!(skipped.is_ok(), stepped.is_ok(), "{:?}", text);
            if skipped.is_err() {
                return Ok(());
            }
            prop_assert_eq!(fast.position(), slow.position());
            prop_assert_eq!(fast.depth(), slow.depth());
            prop_assert_eq!(fast.deepest(), slow.deepest());
            prop_assert_eq!(fast.expect, slow.expect);
        }
    }

    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"k\"",
            "\"a\\\"b\"",
            "\"\\q\"",
            "\"\\ud800\"",
            "\"x\ty\"",
            "\"\\u+041\"",
            "\"\\ud83d\\ude00\"",
            "1",
            "-2.5e3",
            "01",
            "true",
            "tru",
            "null",
            "\"é\"",
            "'s'",
            // Past the word-at-a-time window, with an escape, a control character or no end.
            "\"a string long enough to run past the first window\"",
            "\"a string long enough to run past the first window \\n\\q\"",
            "\"a string long enough to run past the first window \t\"",
            "\"a string long enough to run past the first window",
        ])
    }

    #[test]
    fn skips_a_call_like_object() {
        let text = r#"{"name": "f", "args": {"a": [1, {"b": "c\"d"}], "e": null}, "x": []}"#;
        both_ways(text).unwrap();
    }

    proptest! {
        #[test]
        fn skipping_agrees_with_reading_every_event(pieces in prop::collection::vec(piece(), 1..30)) {
            both_ways(&format!("{{{}", pieces.concat()))?;
            both_ways(&pieces.concat())?;
        }
    }
}
