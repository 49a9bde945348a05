//! Lenient JSON repair: turns the almost-JSON that language models write into strict RFC 8259
//! JSON, and reports every change with the byte offset (into the original input) where it was
//! made.
//!
//! The repair is one forward pass with an explicit stack of open containers (no recursion, so
//! nesting is bounded only by [`RepairOptions::max_depth`]). Lookahead is used only to decide
//! whether a quote ends a string; every lookahead is charged to a budget proportional to the
//! input length, so the whole pass is linear on any input. Valid JSON is returned byte-for-byte
//! unchanged with no repairs, and the output of a repair is valid JSON, so repairing twice
//! changes nothing.
//!
//! ```
//! use toolsift_core::repair::{repair_json, RepairKind, RepairOptions};
//! let r = repair_json("{'a': True, b: [1, 2,]", &RepairOptions::default()).unwrap();
//! assert_eq!(r.text, r#"{"a": true, "b": [1, 2]}"#);
//! assert!(r.repairs.iter().any(|x| x.kind == RepairKind::TrailingComma));
//! ```
//!
//! Behaviour worth knowing:
//! - Numbers with leading zeros (`007`, `-01.5`) become strings (`"007"`), because they are
//!   usually identifiers (zip codes, phone numbers) that a numeric conversion would corrupt.
//! - A top-level scalar (`"text"`, `42`, `true`) is accepted only when nothing but whitespace
//!   follows it; otherwise the input is treated as prose and repair starts at the first `{` or
//!   `[`. If there is none, the error is [`ErrorKind::NoJsonValue`] at the end of input.
//! - A line comment (`//` or `#`) ends at the end of its line, or earlier just before a `}`
//!   or `]` that closes the container the comment is in, when that closer is followed (after
//!   spaces) by `,`, another closer or the end of input (`{"k": 1 # note }, "k2": 2}`).
//! - A top-level quoted string ends at the first quote followed by anything but a letter.
//! - A markdown fence (three backticks) in a structural position ends the document.
//! - Lone surrogate escapes such as `\ud800` are replaced by `\ufffd`, even in otherwise valid
//!   JSON, so that strict parsers accept the output.

mod chars;
mod containers;
mod escaped_string;
// Plain tokens and the most common repairs, taken in a tight loop with the same effect as
// the general step in `parser` (which handles everything else).
mod fast;
mod out;
mod parser;
mod prelude;
mod python_literals;
mod strings;
mod tokens;
mod top;
mod values;
// A quick proof that a text is not strict JSON, for hosts that try a strict parser first.
mod verdict;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_readings;
#[cfg(test)]
mod tests_structure;
#[cfg(test)]
mod tests_verdict;

use crate::error::{Error, ErrorKind};
use crate::strict_json::is_strict_json;
use chars::skip_ws;
use parser::Parser;
pub use python_literals::python_literal_value;
pub use verdict::surely_not_json;

/// Repair settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepairOptions {
    /// Deepest nesting accepted; a deeper opener is an error at its offset.
    pub max_depth: usize,
}

impl Default for RepairOptions {
    fn default() -> Self {
        Self { max_depth: 100_000 }
    }
}

/// What a repair changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RepairKind {
    /// A `'…'` string became `"…"`.
    SingleQuotes,
    /// A string delimited by typographic quotes (U+201C/U+201D, U+2018/U+2019), or opened by
    /// a backtick or an acute accent (U+0060, U+00B4), became `"…"`.
    SmartQuotes,
    /// A raw control character inside a string was escaped.
    ControlCharacter,
    /// A `"` inside a string that did not end it was escaped.
    UnescapedQuote,
    /// An invalid escape: `\'` became `'`, any other `\X` kept its backslash as `\\`.
    InvalidEscape,
    /// A `\u` escape of a lone UTF-16 surrogate became `\ufffd`.
    LoneSurrogate,
    /// A string still open at the end of input (or at `, "next":`) was closed.
    UnclosedString,
    /// An unquoted object key was quoted.
    UnquotedKey,
    /// An unquoted value (or a token that only starts like a number) became a string.
    UnquotedString,
    /// A comma was inserted between two members or items.
    MissingComma,
    /// A colon was inserted between a key and its value.
    MissingColon,
    /// A key without a value (or a value cut off by a comma or the end) got `null`.
    MissingValue,
    /// A comma before a closer or the end of input was removed.
    TrailingComma,
    /// A comma where no member or item could follow was removed.
    ExtraComma,
    /// A container still open at the end of input was closed.
    UnclosedContainer,
    /// A closer of the wrong kind closed the innermost container in its place.
    MismatchedCloser,
    /// A closer that matched no open container was removed.
    ExtraCloser,
    /// A `//`, `/* */` or `#` comment was removed.
    Comment,
    /// `True`, `FALSE`, `None`, `undefined` and similar became `true`, `false` or `null`.
    NonStandardLiteral,
    /// `NaN`, `Infinity` or `-Infinity` became `null`.
    NonFiniteNumber,
    /// A literal cut off by the end of input (`tr`, `fals`, `nul`) was completed.
    TruncatedLiteral,
    /// A number was normalised: `+1`, `.5`, `1.`, `1e`, or a lone `-` (which became `null`).
    NumberFormat,
    /// A number with leading zeros became a string.
    LeadingZeros,
    /// A `...` placeholder was removed.
    Ellipsis,
    /// A character that cannot appear between tokens was removed.
    UnexpectedCharacter,
    /// Text before the JSON value (prose, a code fence) was skipped.
    LeadingText,
    /// Text after the JSON value (prose, a code fence) was ignored.
    TrailingText,
    /// Several top-level values were wrapped into one array.
    ConcatenatedValues,
    /// A document with all its quotes backslash-escaped was unescaped one level.
    DoubleEscaped,
    /// A key cut off by the end of input (no colon, no value) was dropped.
    TruncatedKey,
    /// A parenthesised tuple `(a, b)` became a list; a group of one value `(a)`, that value.
    Parentheses,
    /// A `"key": value` inside a list became an object in the list.
    KeyInList,
    /// Braces holding a set of strings (`{'a', 'b'}`) became a list.
    SetAsList,
    /// A list closed too early went on where a key should follow (`"k": [1], [2]`).
    SplitList,
    /// Strings joined with `+` (`"a" + "b"`) became one.
    StringConcatenation,
    /// A call wrapping a value (`ObjectId("…")`, JSONP `callback({…});`) became the value.
    Wrapper,
    /// An object's opening `{` was left out (`"a": 1}`) and was put back.
    MissingOpeningBrace,
}

impl RepairKind {
    /// The `snake_case` name of the kind, stable across releases.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SingleQuotes => "single_quotes",
            Self::SmartQuotes => "smart_quotes",
            Self::ControlCharacter => "control_character",
            Self::UnescapedQuote => "unescaped_quote",
            Self::InvalidEscape => "invalid_escape",
            Self::LoneSurrogate => "lone_surrogate",
            Self::UnclosedString => "unclosed_string",
            Self::UnquotedKey => "unquoted_key",
            Self::UnquotedString => "unquoted_string",
            Self::MissingComma => "missing_comma",
            Self::MissingColon => "missing_colon",
            Self::MissingValue => "missing_value",
            Self::TrailingComma => "trailing_comma",
            Self::ExtraComma => "extra_comma",
            Self::UnclosedContainer => "unclosed_container",
            Self::MismatchedCloser => "mismatched_closer",
            Self::ExtraCloser => "extra_closer",
            Self::Comment => "comment",
            Self::NonStandardLiteral => "non_standard_literal",
            Self::NonFiniteNumber => "non_finite_number",
            Self::TruncatedLiteral => "truncated_literal",
            Self::NumberFormat => "number_format",
            Self::LeadingZeros => "leading_zeros",
            Self::Ellipsis => "ellipsis",
            Self::UnexpectedCharacter => "unexpected_character",
            Self::LeadingText => "leading_text",
            Self::TrailingText => "trailing_text",
            Self::ConcatenatedValues => "concatenated_values",
            Self::DoubleEscaped => "double_escaped",
            Self::TruncatedKey => "truncated_key",
            Self::Parentheses => "parentheses",
            Self::KeyInList => "key_in_list",
            Self::SetAsList => "set_as_list",
            Self::SplitList => "split_list",
            Self::StringConcatenation => "string_concatenation",
            Self::Wrapper => "wrapper",
            Self::MissingOpeningBrace => "missing_opening_brace",
        }
    }
}

/// One change, at a byte offset into the original input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair {
    /// What changed.
    pub kind: RepairKind,
    /// Byte offset into the original input where the change was made.
    pub offset: usize,
}

/// The repaired JSON text and the list of changes, in input order of discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    /// Strict RFC 8259 JSON.
    pub text: String,
    /// Every change made; empty when the input was already valid JSON.
    pub repairs: Vec<Repair>,
}

/// `"a": 1, "b": [2]}`: an object whose `{` was left out, with that brace put back, when the
/// text then is strict JSON as a whole (`json_repair`'s reading). Only then: a quoted string
/// that opens prose, a member list with anything else wrong (`"a": 1`, `"a": 1,}`, a second
/// value after the `}`) read as before. One strict pass, and a copy only for a text that
/// starts with `"` and ends with `}`.
fn missing_opening_brace(input: &str, first: usize) -> Option<Repaired> {
    let b = input.as_bytes();
    let last = b.iter().rposition(|&c| !chars::is_ws(c))?;
    if b.get(first) != Some(&b'"') || b[last] != b'}' {
        return None;
    }
    let mut text = String::with_capacity(input.len() + 1);
    text.push_str(input.get(..first)?);
    text.push('{');
    text.push_str(input.get(first..)?);
    is_strict_json(&text).then(|| Repaired {
        text,
        repairs: vec![Repair {
            kind: RepairKind::MissingOpeningBrace,
            offset: first,
        }],
    })
}

/// A whole document that is one call, `name(ARG)` with only blanks and `;` after the `)`
/// (JSONP, `MongoDB` shell values): the range of `ARG` (one level is peeled, so the cost stays
/// linear).
fn call_wrapper(b: &[u8], first: usize) -> Option<(usize, usize)> {
    let name_end = first
        + b.get(first..)?
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
            .count();
    if name_end == first || !b[first].is_ascii_alphabetic() || b.get(name_end) != Some(&b'(') {
        return None;
    }
    let mut end = b.len();
    while end > name_end && (b[end - 1].is_ascii_whitespace() || b[end - 1] == b';') {
        end -= 1;
    }
    if end <= name_end + 1 || b[end - 1] != b')' {
        return None;
    }
    Some((skip_ws(b, name_end + 1), end - 1))
}

/// Where the first container after prose starts: the first `{` or `[`, or a tuple opening a
/// code fence's body if that comes first.
fn first_container(b: &[u8], from: usize) -> Option<usize> {
    let rest = b.get(from..)?;
    let bracket = memchr::memchr2(b'{', b'[', rest).map(|k| from + k);
    let fenced = memchr::memmem::find(rest, b"```").and_then(|k| {
        let line = from + k + 3;
        let body = memchr::memchr(b'\n', b.get(line..)?).map(|n| skip_ws(b, line + n))?;
        values::tuple_at(b, body).then_some(body)
    });
    match (bracket, fenced) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Repairs `input` into strict JSON.
///
/// Fails with [`ErrorKind::NoJsonValue`] when the input holds no JSON value (empty, only
/// whitespace, or prose without any `{` or `[`), and with [`ErrorKind::DepthLimitExceeded`]
/// at the offset of the first opener nested deeper than `options.max_depth`.
pub fn repair_json(input: &str, options: &RepairOptions) -> Result<Repaired, Error> {
    repair_document(input, *options, true)
}

/// [`repair_json`]; `peel` allows one call wrapper around the whole document to be peeled.
fn repair_document(input: &str, options: RepairOptions, peel: bool) -> Result<Repaired, Error> {
    let b = input.as_bytes();
    let first = skip_ws(b, 0);
    if first >= b.len() {
        return Err(Error::new(ErrorKind::NoJsonValue, b.len()));
    }
    if let Some(braced) = missing_opening_brace(input, first) {
        return Ok(braced);
    }
    if let Some((from, to)) = call_wrapper(b, first).filter(|_| peel) {
        // `callback({…});`, `NumberLong("2")`: the document is the call's argument.
        let mut inner = repair_document(&input[from..to], options, false).map_err(|mut e| {
            e.offset += from;
            e
        })?;
        for r in &mut inner.repairs {
            r.offset += from;
        }
        inner.repairs.insert(
            0,
            Repair {
                kind: RepairKind::Wrapper,
                offset: first,
            },
        );
        return Ok(inner);
    }
    if values::tuple_at(b, first) {
        // A tuple is the document only when nothing but blanks follows it: `(1) Keep this
        // note …` opens a numbered note, and the JSON comes after.
        let mut t = Parser::new(input, options.max_depth);
        t.copy(0, first);
        t.pos = first;
        t.parse_top_containers()?;
        if !t.repairs.iter().any(|r| r.kind == RepairKind::TrailingText) {
            return Ok(t.finish());
        }
    }
    let mut p = Parser::new(input, options.max_depth);
    p.copy(0, first);
    p.pos = first;
    if !matches!(b.get(first), Some(b'{' | b'[')) {
        if p.parse_top_scalar() {
            return Ok(p.finish());
        }
        let Some(start) = first_container(b, first) else {
            return Err(Error::new(ErrorKind::NoJsonValue, b.len()));
        };
        p = Parser::new(input, options.max_depth);
        p.record(RepairKind::LeadingText, 0);
        p.pos = start;
    }
    if prelude::is_double_escaped(b, p.pos) {
        return prelude::repair_double_escaped(p, options.max_depth);
    }
    p.parse_top_containers()?;
    Ok(p.finish())
}
