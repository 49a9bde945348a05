//! JSON read across chunks by the special-token syntaxes: one value, a call's arguments (cut
//! short at the syntax's own tokens met outside strings), one element of a list of calls.

use super::super::Sink;
use super::lex::{is_blank, Alts, Match};
use crate::scanner::{JsonScanner, ScanOptions, Span};

/// The scanner is fed at most this many bytes at a time, so that after a value closes it has
/// looked at most this far past it: reading many values from one chunk stays linear.
const PIECE: usize = 256;

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
        Self::new(crate::scanner::DEFAULT_MAX_DEPTH)
    }
}

impl JsonValue {
    /// A value that may nest `max_depth` deep (see [`crate::stream::Opening::scan_depth`]).
    #[must_use]
    pub fn new(max_depth: usize) -> Self {
        Self {
            scanner: JsonScanner::new(ScanOptions {
                single_quotes: true,
                max_depth,
            }),
            spans: Vec::new(),
            text: String::new(),
        }
    }

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
            self.scanner
                .feed_until_closed(&bytes[at..stop], &mut self.spans)?;
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

    /// Where in [`JsonValue::text`] the string still open at its end began, if one is.
    fn open_string_start(&self) -> Option<usize> {
        self.scanner.open_string_start()
    }

    /// For a value still open at the end of the stream: [`restart_from`] as bytes back from
    /// the end of its text.
    #[must_use]
    pub fn restart_back(&self) -> Option<usize> {
        let from = restart_from(&self.text, self.open_string_start())?;
        Some(self.text.len().saturating_sub(from))
    }
}

/// For a call's JSON value `text` still open when the stream ended (`open_string`: where a
/// string still open at its end began, see [`JsonValue::open_string_start`]): from where in
/// it a start marker of the syntax opens a new call (see `SegmentParser::restart_back`).
/// Where `text` stops being JSON before its end, a string closed too late (at a quote of
/// the next call) and any marker after the value's start counts; otherwise only one inside
/// the string that never closed, so a marker in a closed string of a call cut off stays
/// content.
///
/// When the brackets balance before the stream ends (a later value's escaped quote or
/// bracket), [`overran`] cuts the call instead, in the syntaxes that use it.
#[must_use]
pub fn restart_from(text: &str, open_string: Option<usize>) -> Option<usize> {
    // Only the text before the string left open is judged: that string is cut off, not bad.
    let head = text
        .get(..open_string.unwrap_or(text.len()))
        .unwrap_or(text);
    let mut reader = crate::strict_json::StrictReader::new(head);
    loop {
        match reader.next_event() {
            Ok(Some(_)) => {}
            Ok(None) => return open_string,
            Err(e) => {
                // An error at the end of the text read, or in its last token (a literal or
                // number cut off) with nothing after it, is the cut itself; one with structure
                // after it, or a token right before the string left open, is JSON that broke.
                let rest = head.get(e.offset..).unwrap_or_default();
                let broke = rest.bytes().any(|b| b"{}[],:\"".contains(&b))
                    || (open_string.is_some() && e.offset < head.len());
                return if broke { Some(0) } else { open_string };
            }
        }
    }
}

/// How many calls of one stream [`overran`] may cut: each gives back text to be read again.
pub const MAX_OVERRUNS: u32 = 16;

/// For a call's arguments `text` that closed (their brackets balanced) but are not strict
/// JSON and hold one of the call's end tokens `ends` (inside a string, or it would have cut
/// them short): where the first such token begins. A string that never closed ran over the
/// end token and closed at a quote of a later call, whose brackets then balanced this call's:
/// the call ends at that token, and what follows it is read again. Strict JSON arguments keep
/// an end token in a string as content. The token's start and end; `None` once `sink`
/// counted [`MAX_OVERRUNS`] such cuts.
pub fn overran(text: &str, ends: &[&str], sink: &mut Sink) -> Option<(usize, usize)> {
    if sink.overruns >= MAX_OVERRUNS {
        return None;
    }
    let (at, len) = ends
        .iter()
        .filter_map(|end| {
            super::super::json_call::find_token(text.as_bytes(), end.as_bytes())
                .map(|k| (k, end.len()))
        })
        .min()?;
    if crate::strict_json::is_strict_json(text) {
        return None;
    }
    sink.overruns += 1;
    Some((at, at + len))
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
    /// Arguments that may nest `max_depth` deep.
    #[must_use]
    pub fn new(max_depth: usize) -> Self {
        Self {
            value: JsonValue::new(max_depth),
            ..Self::default()
        }
    }

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
    /// The element whose first byte is `first`, nesting at most `max_depth` deep.
    #[must_use]
    pub fn new(first: u8, max_depth: usize) -> Self {
        match first {
            b'{' | b'[' => Self::Json(JsonValue::new(max_depth)),
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

    /// For an element still open at the end of the stream: [`restart_from`] as bytes back
    /// from the end of its text.
    #[must_use]
    pub fn restart_back(&self) -> Option<usize> {
        let open_string = match self {
            Self::Json(value) => return value.restart_back(),
            Self::Quoted(..) => Some(0),
            Self::Bare(_) => None,
        };
        let from = restart_from(self.text(), open_string)?;
        Some(self.text().len().saturating_sub(from))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restart_from_tells_a_cut_value_from_a_broken_one() {
        // Cut off: the JSON so far is good (a token may be cut): only the open string counts.
        assert_eq!(restart_from(r#"{"a": 1, "n": "#, None), None);
        assert_eq!(restart_from(r#"{"a": tru"#, None), None);
        assert_eq!(restart_from(r#"{"a": "x", "b": "yz"#, Some(15)), Some(15));
        // Broken before its end: a string closed at the next call's quote.
        assert_eq!(
            restart_from(r#"{"x": "oops<t>{"city": 0}<t>"#, Some(20)),
            Some(0)
        );
        assert_eq!(
            restart_from(r#"{"x": "oops}<t>{"y": "z"}"#, Some(21)),
            Some(0)
        );
        assert_eq!(restart_from(r#"{"x": "oops}<t>{"name": 1}"#, None), Some(0));
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
