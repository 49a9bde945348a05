//! The rest of a bare JSON call that broke off after it was announced (see `bare_json`): read
//! to where its brackets balance, so the whole object is repaired (or reported) as one.
//!
//! Why: the value's tokenizer stops at the first byte that cannot be JSON (`{"q": "say "hi"
//! now"}`, `{"a": 1 "b": 2}`, `{invalid json}`). Ending the segment there put the object's
//! tail (`hi" now"}}`) in the text, and lost a call the lenient repair reads, as it does in
//! every tagged syntax. From the break on only brackets and `"` strings are followed, byte by
//! byte (so any chunking gives the same result), until the object closes.
//!
//! It stops early, before what cannot be part of the object, so one broken call never takes
//! its siblings or the prose after it with it: at a blank line (a paragraph: JSON a model
//! writes has none outside strings, and a stray quote must not take the rest of the reply),
//! and at a `{` or `[` inside an object that is not a member's value (one comes after `:`, or
//! after a key whose colon was left out): another call, or prose. `SGLang`'s suite pins the
//! second: `{"name": "f", "parameters": {{"name": "f", "parameters": {}}` is the inner call.
//! Inside a list a bracket always nests.

/// Where the reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every byte was taken; the object goes on.
    More,
    /// The object closed with the last of these many bytes.
    Closed(usize),
    /// The object cannot go on at this byte (not taken): a new value on its level.
    Before(usize),
    /// A blank line: the object ends before the line break at `at - give_back` (`at` bytes
    /// taken, the last `give_back` of them the line break and the blanks after it).
    Paragraph { at: usize, give_back: usize },
}

/// Follows the rest of a broken object; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skip {
    /// Open brackets, the call object's own included.
    depth: usize,
    /// Bit `k`: container `k` (from the outermost) is an object. Deeper than 128 containers
    /// the kind is not kept, and a bracket there nests.
    objects: u128,
    in_string: bool,
    escaped: bool,
    /// The last byte outside strings that was not a blank.
    last: u8,
    /// Bytes since a line break with only blanks after it (the break included), if any.
    line: Option<usize>,
}

impl Skip {
    /// The reading of an object broken inside `open` (its open brackets, outermost first),
    /// `last` its last byte that was not a blank.
    #[must_use]
    pub fn new(open: &[u8], last: u8) -> Self {
        let objects = (open.iter().take(128).enumerate())
            .filter(|(_, &b)| b == b'{')
            .fold(0, |bits, (k, _)| bits | 1u128 << k);
        Self {
            depth: open.len(),
            objects,
            in_string: false,
            escaped: false,
            last,
            line: None,
        }
    }

    /// Reads `bytes`.
    pub fn feed(&mut self, bytes: &[u8]) -> Stop {
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                if let Some(n) = self.line {
                    return Stop::Paragraph {
                        at: i,
                        give_back: n,
                    };
                }
                self.line = Some(1);
                // A string never runs across a line break it does not escape, as far as
                // this reading goes: the break ends an escape.
                self.escaped = false;
                continue;
            }
            match &mut self.line {
                Some(n) if b.is_ascii_whitespace() => {
                    *n += 1;
                    continue;
                }
                _ => self.line = None,
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    self.last = b;
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' if self.in_object() && !matches!(self.last, b':' | b'"') => {
                    return Stop::Before(i);
                }
                b'{' | b'[' => {
                    if b == b'{' && self.depth < 128 {
                        self.objects |= 1u128 << self.depth;
                    } else if self.depth < 128 {
                        self.objects &= !(1u128 << self.depth);
                    }
                    self.depth += 1;
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Stop::Closed(i + 1);
                    }
                }
                _ => {}
            }
            if !b.is_ascii_whitespace() {
                self.last = b;
            }
        }
        Stop::More
    }

    /// Whether the innermost open container is an object.
    fn in_object(&self) -> bool {
        match self.depth.checked_sub(1) {
            Some(k) if k < 128 => self.objects & (1u128 << k) != 0,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Skip, Stop};

    /// `depth` open objects.
    fn run(depth: usize, last: u8, text: &str) -> Stop {
        Skip::new(&b"{".repeat(depth), last).feed(text.as_bytes())
    }

    #[test]
    fn closes_where_the_brackets_balance_outside_strings() {
        assert_eq!(run(2, b'"', "hi\" now\"}} tail"), Stop::Closed(10));
        assert_eq!(run(2, b'1', "\"b\": \"}{\"}} x"), Stop::Closed(11));
        assert_eq!(run(1, b'}', "oops} x"), Stop::Closed(5));
        assert_eq!(run(0, b'}', "x"), Stop::More);
    }

    #[test]
    fn stops_before_a_new_value_on_the_object_s_level() {
        assert_eq!(run(1, b'}', "; {\"name\": 1}"), Stop::Before(2));
        assert_eq!(run(1, b'}', " and [1]"), Stop::Before(5));
        // A member's value, or one whose colon was left out, is read on.
        assert_eq!(run(1, b':', " {\"a\": 1}}"), Stop::Closed(10));
        assert_eq!(run(1, b'"', " {\"a\": 1}}"), Stop::Closed(10));
        // Where a key must come, deeper too; in a list, brackets nest.
        assert_eq!(run(2, b'{', "{\"n\": {}}"), Stop::Before(0));
        assert_eq!(run(3, b'1', ", [1]}}}"), Stop::Before(2));
        let mut skip = Skip::new(b"{[", b',');
        assert_eq!(skip.feed(b" [1, {}] }"), Stop::More);
        assert_eq!(skip.feed(b"}"), Stop::Closed(1));
    }

    #[test]
    fn a_blank_line_ends_it_even_inside_a_string() {
        assert_eq!(
            run(2, b'x', "it\"s done\n  \nNext"),
            Stop::Paragraph {
                at: 12,
                give_back: 3
            }
        );
        assert_eq!(run(2, b'x', "a\nb\nc"), Stop::More);
    }

    #[test]
    fn any_chunking_stops_at_the_same_byte() {
        let text = "x\"}{\\\"]\" } ; \n [ \n\n tail";
        let whole = run(2, b'x', text);
        for cut in 0..=text.len() {
            let mut skip = Skip::new(b"{{", b'x');
            let got = match skip.feed(&text.as_bytes()[..cut]) {
                Stop::More => match skip.feed(&text.as_bytes()[cut..]) {
                    Stop::More => Stop::More,
                    Stop::Closed(n) => Stop::Closed(n + cut),
                    Stop::Before(n) => Stop::Before(n + cut),
                    Stop::Paragraph { at, give_back } => Stop::Paragraph {
                        at: at + cut,
                        give_back,
                    },
                },
                early => early,
            };
            assert_eq!(got, whole, "cut {cut}");
        }
    }
}
