//! Resource limits of the engine: what one response may cost, whatever the model writes.
//!
//! Every limit is checked where the engine already handles the data, so none adds a pass.
//! Exceeding one never drops a call silently: the segment ends with a `limit_exceeded` issue
//! that says which limit and by how much. A limit of `0` means no limit.

use super::args_writer::strings_json_len;
use super::Outcome;
use crate::strict_json::{has_long_digit_run, JsonEvent, StrictReader};

/// The issue kind of every exceeded limit.
pub const LIMIT_EXCEEDED: &str = "limit_exceeded";

/// Default [`Limits::max_depth`]: far beyond any real arguments, and below the recursion
/// limit of common JSON loaders (orjson stops at 1024).
pub const DEFAULT_MAX_DEPTH: usize = 1000;
/// Default [`Limits::max_call_bytes`]: 16 MiB of arguments JSON.
pub const DEFAULT_MAX_CALL_BYTES: usize = 16 << 20;
/// Default [`Limits::max_segment_bytes`]: 32 MiB buffered for one open segment.
pub const DEFAULT_MAX_SEGMENT_BYTES: usize = 32 << 20;
/// Default [`Limits::max_calls`]: calls in one stream (one response).
pub const DEFAULT_MAX_CALLS: usize = 10_000;
/// Digits of the longest integer a call's arguments may hold: the most `CPython` converts from
/// text by default (`sys.get_int_max_str_digits()`), a bound it sets because the conversion
/// costs quadratic time. A longer one makes the call a `limit_exceeded` issue, where loading
/// its arguments would raise (and one call's arguments would sink the whole parse).
pub const MAX_INTEGER_DIGITS: usize = 4300;

/// Per-stream resource limits; `0` disables a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of a call's arguments (the arguments object itself is depth 1). A
    /// deeper call becomes a `limit_exceeded` issue.
    pub max_depth: usize,
    /// Longest arguments JSON text of one call, in bytes. A longer call becomes a
    /// `limit_exceeded` issue.
    pub max_call_bytes: usize,
    /// Most bytes one open segment (a call, a reasoning block) may buffer, start marker
    /// included. Past it the segment ends at once with a `limit_exceeded` issue and what
    /// follows is read as text: this bounds a stream's memory when an end marker never comes.
    pub max_segment_bytes: usize,
    /// Most calls in one stream; each later call becomes a `limit_exceeded` issue.
    pub max_calls: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: DEFAULT_MAX_DEPTH,
            max_call_bytes: DEFAULT_MAX_CALL_BYTES,
            max_segment_bytes: DEFAULT_MAX_SEGMENT_BYTES,
            max_calls: DEFAULT_MAX_CALLS,
        }
    }
}

impl Limits {
    /// The depth a segment's JSON scanners accept under these limits: the scanner's default
    /// (100,000), or `max_depth` plus room for the brackets a syntax wraps around the arguments
    /// (the call object, a list of calls, a provider's envelope) if that is higher, and no
    /// bound at all with `max_depth` off. (The scanners' own bound keeps a flood of `{` from
    /// growing their stacks without end; with the limit off, `max_segment_bytes` bounds it.)
    #[must_use]
    pub fn scan_depth(&self) -> usize {
        /// More than any syntax's envelope nests (the `OpenAI` shape's is four deep).
        const ENVELOPE: usize = 16;
        if self.max_depth == 0 {
            usize::MAX
        } else {
            self.max_depth
                .saturating_add(ENVELOPE)
                .max(crate::scanner::DEFAULT_MAX_DEPTH)
        }
    }

    /// No limits at all.
    #[must_use]
    pub fn none() -> Self {
        Self {
            max_depth: 0,
            max_call_bytes: 0,
            max_segment_bytes: 0,
            max_calls: 0,
        }
    }

    /// Whether an open segment holding `buffered` bytes is over its limit.
    pub(crate) fn segment_over(&self, buffered: usize) -> bool {
        self.max_segment_bytes != 0 && buffered > self.max_segment_bytes
    }

    /// Where the input handed to a segment parser ends: at most one byte past the segment
    /// limit (rounded up to a character boundary), so the parser is stopped at the same byte
    /// however the text was chunked.
    pub(crate) fn segment_feed_end(&self, input: &str, from: usize, buffered: usize) -> usize {
        if self.max_segment_bytes == 0 {
            return input.len();
        }
        let budget = (self.max_segment_bytes + 1).saturating_sub(buffered).max(1);
        let mut end = from.saturating_add(budget).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        end
    }

    /// The outcome of a segment abandoned at the segment limit.
    #[cold]
    pub(crate) fn segment_outcome(&self) -> Outcome {
        Outcome {
            call: None,
            issue: Some((
                LIMIT_EXCEEDED,
                format!(
                    "segment longer than max_segment_bytes ({} bytes): abandoned, the text after \
                     it is read as text",
                    self.max_segment_bytes
                ),
            )),
        }
    }

    /// Applies the call limits to a segment's outcome; `calls` counts the calls accepted so
    /// far in this stream and grows when this one is accepted.
    /// `flat`: the arguments as string pairs, when the syntax gave them: an object one level
    /// deep, so their depth is not measured (a file's content full of brackets made that a
    /// walk of it all), and when their JSON was left unwritten (empty `arguments`, see
    /// [`Call::arguments_json`](super::events::Call::arguments_json)) its length is counted.
    pub(crate) fn check_call(
        &self,
        outcome: &mut Outcome,
        calls: &mut usize,
        flat: Option<&[(String, String)]>,
    ) {
        let Some((name, arguments, _)) = &outcome.call else {
            return;
        };
        let json_len = || match flat {
            Some(pairs) if arguments.is_empty() => strings_json_len(pairs),
            _ => arguments.len(),
        };
        // Unwritten JSON is counted only when it may be too long: an escape is at most six
        // bytes for one, so short pairs are settled by their own length.
        let too_long = |max: usize| match flat {
            Some(pairs) if arguments.is_empty() => {
                let raw: usize = pairs.iter().map(|(k, v)| k.len() + v.len() + 8).sum();
                raw.saturating_add(2).saturating_mul(6) > max && json_len() > max
            }
            _ => arguments.len() > max,
        };
        let problem = if self.max_calls != 0 && *calls >= self.max_calls {
            Some(format!(
                "call {name:?} is past max_calls ({}) for one response",
                self.max_calls
            ))
        } else if self.max_call_bytes != 0 && too_long(self.max_call_bytes) {
            Some(format!(
                "call {name:?} has {} bytes of arguments, more than max_call_bytes ({})",
                json_len(),
                self.max_call_bytes
            ))
        } else if self.max_depth != 0
            && flat.is_none()
            && too_deep(arguments.as_bytes(), self.max_depth)
        {
            Some(format!(
                "call {name:?} nests its arguments deeper than max_depth ({})",
                self.max_depth
            ))
        } else {
            let digits = flat.is_none().then(|| longest_integer(arguments)).flatten();
            digits.map(|digits| {
                format!(
                    "call {name:?} has an integer of {digits} digits in its arguments, more \
                     than {MAX_INTEGER_DIGITS} (the most Python converts from text)"
                )
            })
        };
        match problem {
            Some(message) => {
                outcome.call = None;
                outcome.issue = Some((LIMIT_EXCEEDED, message));
            }
            None => *calls += 1,
        }
    }
}

/// The digit count of the longest integer in the arguments `json` when it is over
/// [`MAX_INTEGER_DIGITS`]. A run of 19 digits is looked for first, in strides (see
/// `has_long_digit_run`), then one of that many digits; both are rare (strings hold them
/// too), and only then is the JSON read to find its integers.
fn longest_integer(json: &str) -> Option<usize> {
    // Shorter arguments cannot hold one: nearly every call is settled by its length.
    if json.len() <= MAX_INTEGER_DIGITS || !has_long_digit_run(json.as_bytes()) {
        return None;
    }
    let mut run = 0;
    let long = json.bytes().any(|b| {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        run > MAX_INTEGER_DIGITS
    });
    if !long {
        return None;
    }
    let mut reader = StrictReader::new(json);
    let mut longest = 0;
    while let Ok(Some(event)) = reader.next_event() {
        if let JsonEvent::Number {
            text,
            integer: true,
        } = event
        {
            longest = longest.max(text.trim_start_matches('-').len());
        }
    }
    (longest > MAX_INTEGER_DIGITS).then_some(longest)
}

/// Whether strict JSON text nests deeper than `max_depth`. Nesting needs one opening bracket
/// per level, so text with no more opening brackets than that (nearly every call) is settled
/// by counting them, without the byte-by-byte walk of [`json_depth`] (and text no longer than
/// that, by its length).
fn too_deep(json: &[u8], max_depth: usize) -> bool {
    json.len() > max_depth && more_openers_than(json, max_depth) && json_depth(json) > max_depth
}

/// Whether `json` holds more than `n` opening brackets. Counted in blocks of 255 bytes into a
/// byte-wide counter (`[` and `{` differ only in bit 0x20), a loop the compiler turns into
/// sixteen bytes per step; memchr's iterator, which stops at every bracket, cost ~1,000
/// instructions on a 1 KB argument object.
fn more_openers_than(json: &[u8], n: usize) -> bool {
    let mut seen = 0;
    for block in json.chunks(255) {
        let here = block
            .iter()
            .fold(0u8, |count, &b| count + u8::from(b | 0x20 == b'{'));
        seen += usize::from(here);
        if seen > n {
            return true;
        }
    }
    false
}

/// Deepest bracket nesting of strict JSON text (brackets inside strings do not count); one
/// pass, no recursion. Inside a string it jumps eight bytes at a time to the next quote or
/// backslash, so a call whose arguments are mostly one long string (a file's content) costs
/// little more than a read of it, not a branch per byte: this runs at the end of every call, on the whole arguments text.
#[must_use]
pub fn json_depth(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while i < json.len() {
        match json[i] {
            b'"' => {
                i += 1;
                loop {
                    let k = crate::strict_json::next_special(json, i);
                    match json.get(k) {
                        None => return deepest,
                        Some(b'"') => {
                            i = k + 1;
                            break;
                        }
                        Some(b'\\') => i = k + 2,
                        Some(_) => i = k + 1,
                    }
                }
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

#[cfg(test)]
mod integer_tests {
    use super::{longest_integer, MAX_INTEGER_DIGITS};

    #[test]
    fn only_an_integer_over_the_bound_counts() {
        let long = "7".repeat(MAX_INTEGER_DIGITS + 1);
        assert_eq!(
            longest_integer(&format!("{{\"n\": -{long}}}")),
            Some(MAX_INTEGER_DIGITS + 1)
        );
        assert_eq!(longest_integer(&format!("{{\"s\": \"{long}\"}}")), None);
        assert_eq!(longest_integer(&format!("{{\"f\": {long}.5}}")), None);
        let at_bound = "7".repeat(MAX_INTEGER_DIGITS);
        assert_eq!(longest_integer(&format!("[{at_bound}]")), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openers_are_counted_across_blocks() {
        let text = format!("{}{}", "x".repeat(4095), "[{a]}".repeat(3));
        for n in 0..8 {
            let brackets = memchr::memchr2_iter(b'{', b'[', text.as_bytes()).count();
            assert_eq!(more_openers_than(text.as_bytes(), n), brackets > n);
        }
    }

    fn call(arguments: &str) -> Outcome {
        Outcome {
            call: Some(("f".into(), arguments.into(), Vec::new())),
            issue: None,
        }
    }

    #[test]
    fn depth_ignores_brackets_in_strings() {
        assert_eq!(json_depth(br#"{"a": "[[{\"", "b": [[1]]}"#), 3);
        assert_eq!(json_depth(b"{}"), 1);
        assert_eq!(json_depth(b"\"x\""), 0);
        // An escaped backslash ends its escape; the quote after it closes the string.
        assert_eq!(json_depth(br#"{"a": "x\\", "b": [[1]], "c": "\\\"[{"}"#), 3);
        assert_eq!(json_depth(br#"{"a": "unterminated \"#), 1);
    }

    #[test]
    fn too_deep_agrees_with_the_depth_walk() {
        // Brackets in strings count toward the quick bound but not toward the depth.
        let strings = br#"{"a": "[[[[[[", "b": [1]}"#;
        assert!(!too_deep(strings, 2));
        assert!(too_deep(strings, 1));
        assert!(too_deep(br#"{"a": [[1]]}"#, 2));
        assert!(!too_deep(br#"{"a": [[1]]}"#, 3));
        assert!(!too_deep(b"{}", 1));
    }

    #[test]
    fn each_call_limit_turns_the_call_into_an_issue() {
        let limits = Limits {
            max_depth: 2,
            max_call_bytes: 12,
            max_segment_bytes: 0,
            max_calls: 2,
        };
        let mut calls = 0;
        for (args, ok) in [
            (r#"{"a": [1]}"#, true),
            (r#"{"a": [[1]]}"#, false),
            (r#"{"a": "0123456789"}"#, false),
            ("{}", true),
            ("{}", false),
        ] {
            let mut outcome = call(args);
            limits.check_call(&mut outcome, &mut calls, None);
            assert_eq!(outcome.call.is_some(), ok, "{args}");
            if !ok {
                assert_eq!(outcome.issue.as_ref().map(|i| i.0), Some(LIMIT_EXCEEDED));
            }
        }
        assert_eq!(calls, 2);
    }

    #[test]
    fn unwritten_string_arguments_count_the_json_they_stand_for() {
        // `{"k": "a\nb"}` is 13 bytes (the newline escaped), though its pairs hold 4.
        let pairs = vec![("k".to_string(), "a\nb".to_string())];
        let json = super::super::args_writer::strings_json([("k", "a\nb")]);
        assert_eq!(
            (json.as_str(), strings_json_len(&pairs)),
            ("{\"k\": \"a\\nb\"}", 13)
        );
        for (max, ok) in [(12, false), (13, true)] {
            let limits = Limits {
                max_call_bytes: max,
                ..Limits::none()
            };
            let (mut calls, mut outcome) = (0, call(""));
            limits.check_call(&mut outcome, &mut calls, Some(&pairs));
            assert_eq!(outcome.call.is_some(), ok, "max {max}");
        }
    }

    #[test]
    fn feed_end_stops_one_byte_past_the_limit_on_a_char_boundary() {
        let limits = Limits {
            max_segment_bytes: 4,
            ..Limits::none()
        };
        assert_eq!(limits.segment_feed_end("abcdefgh", 0, 2), 3);
        assert_eq!(limits.segment_feed_end("aéé", 0, 3), 3);
        assert_eq!(limits.segment_feed_end("ab", 0, 0), 2);
        assert_eq!(Limits::none().segment_feed_end("abcdefgh", 1, 100), 8);
    }
}
