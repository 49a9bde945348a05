//! Small incremental readers shared by the special-token syntaxes: literal tokens matched a
//! byte at a time, one JSON value read across chunks, and outcome helpers.

use super::super::json_call::strict_or_repaired;
use super::super::{Outcome, Sink, Step};
use crate::scanner::{JsonScanner, ScanOptions, Span};

/// The scanner is fed at most this many bytes at a time, so that after a value closes it has
/// looked at most this far past it: reading many values from one chunk stays linear.
const PIECE: usize = 256;

/// Longest name or header a parser reads before deciding its marker was text after all.
pub const MAX_HEADER: usize = 512;

/// ASCII blank (space, tab, newline, carriage return, form feed).
#[must_use]
pub fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace()
}

/// Which of several literal tokens the bytes seen so far spell, matched one byte at a time.
///
/// Every token begins with a byte that occurs nowhere else in it (`<` for `<|end|>`), so a
/// failed partial match never hides the start of another match inside the bytes already seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alts {
    /// Bytes matched so far (of every still-possible token).
    pub matched: usize,
    alive: u32,
}

/// What one more byte did to an [`Alts`] match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Still a proper prefix of some token.
    Partial,
    /// Token number `.0` is complete.
    Full(usize),
    /// No token: the bytes seen (this one included) are something else.
    Fail,
}

impl Alts {
    /// Feeds byte `b`, matching against `tokens` (at most 32).
    pub fn push(&mut self, tokens: &[&str], b: u8) -> Match {
        if self.matched == 0 {
            self.alive = u32::MAX;
        }
        let mut alive = 0;
        for (k, t) in tokens.iter().enumerate().take(32) {
            if self.alive & (1 << k) != 0 && t.as_bytes().get(self.matched) == Some(&b) {
                alive |= 1 << k;
            }
        }
        if alive == 0 {
            self.matched = 0;
            return Match::Fail;
        }
        self.matched += 1;
        self.alive = alive;
        for (k, t) in tokens.iter().enumerate().take(32) {
            if alive & (1 << k) != 0 && t.len() == self.matched {
                self.matched = 0;
                return Match::Full(k);
            }
        }
        Match::Partial
    }
}

/// Finds the first of several tokens in streamed text: [`Find::feed`] returns where a token
/// ends in `input` and which, or `None` after taking all of it (a partial match carries over to
/// the next input).
#[derive(Debug, Clone, Copy, Default)]
pub struct Find {
    alts: Alts,
}

impl Find {
    /// `(offset one past the token's end in input, token index)`, if one completes there.
    pub fn feed(&mut self, tokens: &[&str], input: &[u8]) -> Option<(usize, usize)> {
        for (i, &b) in input.iter().enumerate() {
            match self.alts.push(tokens, b) {
                Match::Full(k) => return Some((i + 1, k)),
                Match::Partial => {}
                Match::Fail => {
                    // A token's first byte occurs once in it: this byte may start a match.
                    if let Match::Full(k) = self.alts.push(tokens, b) {
                        return Some((i + 1, k));
                    }
                }
            }
        }
        None
    }
}

/// One JSON object or array read from its opening bracket, across chunks, with the resumable
/// scanner (brackets inside strings do not count).
#[derive(Debug, Clone)]
pub struct JsonValue {
    scanner: JsonScanner,
    spans: Vec<Span>,
    /// The value's text so far.
    pub text: String,
}

impl Default for JsonValue {
    fn default() -> Self {
        Self {
            scanner: JsonScanner::new(ScanOptions {
                single_quotes: true,
                ..ScanOptions::default()
            }),
            spans: Vec::new(),
            text: String::new(),
        }
    }
}

impl JsonValue {
    /// Feeds `input` (the first input starts with the opening bracket). `Ok(Some(n))`: the
    /// value ends after `n` bytes of it; `Ok(None)`: all taken, more needed; `Err`: nested
    /// too deeply.
    ///
    /// # Errors
    /// The scanner's error when the value nests deeper than its limit.
    pub fn feed(&mut self, input: &str) -> Result<Option<usize>, crate::Error> {
        let bytes = input.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let stop = (at + PIECE).min(bytes.len());
            let base = self.scanner.consumed();
            self.spans.clear();
            self.scanner.feed(&bytes[at..stop], &mut self.spans)?;
            if let Some(span) = self.spans.iter().find(|s| s.depth == 0) {
                let end = (at + span.end.saturating_sub(base)).min(bytes.len());
                self.text.push_str(&input[..end]);
                return Ok(Some(end));
            }
            at = stop;
        }
        self.text.push_str(input);
        Ok(None)
    }
}

/// Ends a segment that was framing only (nothing started, no call, no issue): the engine
/// drops its text without reporting a segment.
#[must_use]
pub fn framing(used: usize) -> Step {
    Step::Done {
        used,
        give_back: 0,
        outcome: Outcome::default(),
    }
}

/// Watches JSON text for tokens outside double-quoted strings (tokens never hold `"`).
#[derive(Debug, Clone, Copy, Default)]
struct TokenWatch {
    in_string: bool,
    escaped: bool,
    alts: Alts,
}

impl TokenWatch {
    /// `(offset one past the token, token index)` of the first token outside strings.
    fn feed(&mut self, tokens: &[&str], bytes: &[u8]) -> Option<(usize, usize)> {
        for (k, &b) in bytes.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            let mut step = self.alts.push(tokens, b);
            if step == Match::Fail {
                // A token's first byte occurs once in it: this byte may start a match.
                step = self.alts.push(tokens, b);
            }
            match step {
                Match::Full(t) => return Some((k + 1, t)),
                Match::Fail if b == b'"' => self.in_string = true,
                _ => {}
            }
        }
        None
    }
}

/// What [`Args::feed`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgsRead {
    /// All taken; the object goes on.
    More,
    /// The object closed after this many bytes.
    Closed(usize),
    /// Token `token` met outside a string before the object closed, ending `used` bytes in:
    /// the arguments are cut short (unterminated) and the token is what follows them.
    Cut {
        /// Bytes of the input up to the token's end.
        used: usize,
        /// Index of the token met.
        token: usize,
    },
    /// Nested too deeply.
    TooDeep,
}

/// A call's arguments object, streamed as JSON deltas, which stops at a syntax's own tokens
/// met outside strings: an object left open cannot swallow the calls after it, while a token
/// inside a string value is part of the value.
#[derive(Debug, Clone, Default)]
pub struct Args {
    /// The object read so far.
    pub value: JsonValue,
    watch: TokenWatch,
    /// Bytes of the object sent as JSON deltas.
    sent: usize,
}

impl Args {
    /// Feeds `input` (the first input starts with `{`), watching for `tokens`. The JSON
    /// deltas hold back a partial token, so they are the same however the text is split.
    pub fn feed(&mut self, tokens: &[&str], input: &str, sink: &mut Sink) -> ArgsRead {
        let base = self.value.text.len();
        let cut = self.watch.feed(tokens, input.as_bytes());
        let Ok(found) = self.value.feed(input) else {
            return ArgsRead::TooDeep;
        };
        let (read, upto) = match (cut, found) {
            (Some((used, token)), _)
                if found.is_none_or(|n| base + used < base + n + tokens[token].len()) =>
            {
                // The token starts with an ASCII byte: a char boundary.
                let start = (base + used).saturating_sub(tokens[token].len());
                self.value
                    .text
                    .truncate(start.max(self.sent).min(self.value.text.len()));
                (ArgsRead::Cut { used, token }, self.value.text.len())
            }
            (_, Some(n)) => (ArgsRead::Closed(n), self.value.text.len()),
            _ => (
                ArgsRead::More,
                self.value
                    .text
                    .len()
                    .saturating_sub(self.watch.alts.matched),
            ),
        };
        if let Some(delta) = self.value.text.get(self.sent..upto) {
            sink.arguments_json_delta(delta);
            self.sent = upto;
        }
        read
    }
}

/// One element of a JSON list: an object or array (read with [`JsonValue`]), or a scalar
/// (which is not a call, but must be stepped over to reach its siblings).
#[derive(Debug, Clone)]
pub enum ListElem {
    /// An object or array.
    Json(JsonValue),
    /// A quoted scalar: its quote, whether the last byte was a backslash, its text so far.
    Quoted(u8, bool, String),
    /// A bare scalar (number, literal, junk) up to `,`, `]` or a blank.
    Bare(String),
}

impl ListElem {
    /// The element whose first byte is `first`.
    #[must_use]
    pub fn new(first: u8) -> Self {
        match first {
            b'{' | b'[' => Self::Json(JsonValue::default()),
            b'"' | b'\'' => Self::Quoted(first, false, String::new()),
            _ => Self::Bare(String::new()),
        }
    }

    /// Like [`JsonValue::feed`]: `Ok(Some(n))` when the element ends after `n` bytes.
    ///
    /// # Errors
    /// The scanner's error when an object or array nests deeper than its limit.
    pub fn feed(&mut self, input: &str) -> Result<Option<usize>, crate::Error> {
        let bytes = input.as_bytes();
        let found = match self {
            Self::Json(value) => return value.feed(input),
            Self::Quoted(quote, escaped, text) => {
                let mut found = None;
                for (k, &c) in bytes.iter().enumerate() {
                    // The opening quote is the element's first byte.
                    if !text.is_empty() || k > 0 {
                        if !*escaped && c == *quote {
                            found = Some(k + 1);
                            break;
                        }
                        *escaped = !*escaped && c == b'\\';
                    }
                }
                found
            }
            Self::Bare(_) => bytes
                .iter()
                .position(|&c| matches!(c, b',' | b']') || is_blank(c)),
        };
        if let Self::Quoted(_, _, text) | Self::Bare(text) = self {
            text.push_str(&input[..found.unwrap_or(bytes.len())]);
        }
        Ok(found)
    }

    /// The element's text so far.
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            Self::Json(value) => &value.text,
            Self::Quoted(_, _, text) | Self::Bare(text) => text,
        }
    }
}

/// A call outcome.
#[must_use]
pub fn call(name: String, arguments: String, repairs: Vec<&'static str>) -> Outcome {
    Outcome {
        call: Some((name, arguments, repairs)),
        issue: None,
    }
}

/// An outcome that is only an issue.
#[must_use]
pub fn issue(kind: &'static str, message: String) -> Outcome {
    Outcome {
        call: None,
        issue: Some((kind, message)),
    }
}

/// The call of `name` whose arguments are the JSON object `body` (repaired when needed).
#[must_use]
pub fn args_call(name: &str, body: &str) -> Outcome {
    match strict_or_repaired(body) {
        Ok((json, repairs)) if json.trim_start().starts_with('{') => {
            call(name.to_string(), json, repairs)
        }
        Ok(_) => issue(
            "bad_arguments",
            format!("arguments of {name:?} aren't an object"),
        ),
        Err((kind, message)) => issue(kind, message),
    }
}

/// `outcome` with a `missing_end_marker` issue added when it is a call.
#[must_use]
pub fn missing_end(mut outcome: Outcome, end: &str) -> Outcome {
    if outcome.call.is_some() && outcome.issue.is_none() {
        outcome.issue = Some(("missing_end_marker", format!("no {end} after the call")));
    }
    outcome
}

/// The issue for a stream that ended inside a call's JSON.
#[must_use]
pub fn unterminated(what: &str, partial: &str) -> Outcome {
    issue(
        "unterminated",
        format!("the stream ended inside {what}: {partial}"),
    )
}

/// The issue for arguments cut short by `token` (see [`ArgsRead::Cut`]).
#[must_use]
pub fn cut_short(token: &str, partial: &str) -> Outcome {
    issue(
        "unterminated",
        format!("the call's JSON is still open at {token}: {partial}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alts_and_find() {
        let toks = ["<|end|>", "<|call|>"];
        let mut a = Alts::default();
        let got: Vec<Match> = "<|call|>".bytes().map(|b| a.push(&toks, b)).collect();
        assert_eq!(got.last(), Some(&Match::Full(1)));
        assert_eq!(a.push(&toks, b'x'), Match::Fail);
        let mut f = Find::default();
        assert_eq!(f.feed(&["<|m|>"], b"ab<|m"), None);
        assert_eq!(f.feed(&["<|m|>"], b"|>z"), Some((2, 0)));
        assert_eq!(Find::default().feed(&["<|m|>"], b"<<|m|>"), Some((6, 0)));
    }

    #[test]
    fn json_value_across_pieces() {
        let text = format!("{{\"a\": \"{}}}\"}} tail", "x".repeat(700));
        let mut v = JsonValue::default();
        let end = v.feed(&text).unwrap().unwrap();
        assert_eq!(&text[end..], " tail");
        let mut v = JsonValue::default();
        assert_eq!(v.feed(&text[..300]).unwrap(), None);
        assert_eq!(v.feed(&text[300..]).unwrap(), Some(end - 300));
        assert_eq!(v.text, text[..end]);
    }
}
