//! A quick one-sided check for hosts that try a strict parser before repairing: it proves most
//! malformed documents are not strict JSON, so the strict attempt (and the exception it would
//! raise, which in Python costs more than the repair) can be skipped.
//!
//! It tokenizes just enough to follow strings and nesting: outside strings only whitespace,
//! structure and the bytes of numbers and `true`/`false`/`null` may appear; a string may not
//! hold a raw control character; each token may follow the one before it (no comma before a
//! closer, no colon after anything but a string, no two values in a row); nesting never goes
//! below zero and ends at zero; there is one top-level value. Every strict JSON text passes,
//! so a failure is proof; passing proves nothing (`{"a": [1}]` and `[tru]` pass).

// The scan loop's helpers are forced inline for the same reason as the fast path's.
#![allow(clippy::inline_always)]

use super::chars::{find_special, skip_ws, Quote, SpecialTable};

/// Byte classes outside strings.
const OTHER: u8 = 0;
const WS: u8 = 1;
const QUOTE: u8 = 2;
const OPEN: u8 = 3;
const CLOSE: u8 = 4;
const COMMA: u8 = 5;
const COLON: u8 = 6;
/// Digits, `-+.eE` and the letters of `true`, `false` and `null`.
const SCALAR: u8 = 7;
/// Not a byte class: the state after the top-level value, which nothing may follow.
const DONE: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[b'\r' as usize] = WS;
    t[b'"' as usize] = QUOTE;
    t[b'{' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'}' as usize] = CLOSE;
    t[b']' as usize] = CLOSE;
    t[b',' as usize] = COMMA;
    t[b':' as usize] = COLON;
    let scalar = b"0123456789-+.eEtruefalsn";
    let mut i = 0;
    while i < scalar.len() {
        t[scalar[i] as usize] = SCALAR;
        i += 1;
    }
    t
};

/// `FOLLOWS[prev][class]`: a token of `class` may come right after one of class `prev`
/// (`OTHER` for the start, `DONE` after the top-level value). A value (string, opener, number
/// or literal) comes first or after an opener, comma or colon; a closer, comma or colon comes
/// after a value or a closer (a closer also right after an opener), and a colon only after a
/// string. Nothing comes after the top-level value.
static FOLLOWS: [[bool; 9]; 9] = {
    let mut t = [[false; 9]; 9];
    let starts = [OTHER, OPEN, COMMA, COLON];
    let mut i = 0;
    while i < starts.len() {
        t[starts[i] as usize][QUOTE as usize] = true;
        t[starts[i] as usize][OPEN as usize] = true;
        t[starts[i] as usize][SCALAR as usize] = true;
        i += 1;
    }
    let values = [QUOTE, SCALAR, CLOSE];
    let mut i = 0;
    while i < values.len() {
        t[values[i] as usize][CLOSE as usize] = true;
        t[values[i] as usize][COMMA as usize] = true;
        i += 1;
    }
    t[OPEN as usize][CLOSE as usize] = true;
    t[QUOTE as usize][COLON as usize] = true;
    t
};

/// True when `text` is certainly not strict JSON (see the module docs).
///
/// The tokens are checked as far as offset `limit` (to the end of the token there); how the
/// text ends is always checked: its last token must be able to end a JSON text (a closer with
/// no comma before it, a string, a number, `true`, `false` or `null`). The limit bounds the
/// cost on valid JSON, which a host pays on every document. The breakages language models make
/// are mostly near the start (prose, a fence, the quote or key style, a comment) or at the end
/// (truncation, a trailing comma), and both are checked.
///
/// ```
/// use toolsift_core::repair::surely_not_json;
/// assert!(surely_not_json(b"{'a': 1}", 64));
/// assert!(surely_not_json(b"[1, 2,]", 64));
/// assert!(surely_not_json(br#"{"a": [1, 2, "#, 4));
/// assert!(!surely_not_json(br#"{"a": [1, 2]}"#, 64));
/// ```
#[must_use]
pub fn surely_not_json(text: &[u8], limit: usize) -> bool {
    !ends_like_json(text)
        || !tokens_like_json(text, limit)
        || (limit > 0 && !line_breaks_like_json(text))
}

/// How many raw line breaks [`surely_not_json`] checks (with a limit above zero), wherever
/// they are: a value with a raw line break (a model writing a file's lines as they are) shows
/// at its first one, which in a compact document is the first of the text, and in an indented
/// one comes after a few line breaks of indentation. On the benchmark's malformed corpus the
/// first 4 catch 26 of the 54 documents the token check passes without a Python literal in
/// them (8: 38, 16: 44), each sparing a strict attempt that builds the document up to there
/// and then raises. Valid JSON pays a byte search and a few byte checks per line break:
/// callgrind, `lenient_loads` over the valid corpus, +0.8% of orjson's instructions with 3,
/// +1.7% with 8, for -0.9% and -1.3% on the malformed corpus.
const LINE_BREAKS: usize = 4;

/// The first [`LINE_BREAKS`] raw line breaks of `b` could each be blanks between two tokens:
/// in strict JSON a raw line break is never inside a string, so the nearest bytes that are not
/// blanks around it must end a token (or be a `{`, `[`, `,` or `:`) before, and start one (or
/// be a closer, `,` or `:`) after.
fn line_breaks_like_json(b: &[u8]) -> bool {
    let mut from = 0;
    for _ in 0..LINE_BREAKS {
        let Some(at) = b.get(from..).and_then(|rest| memchr::memchr(b'\n', rest)) else {
            return true;
        };
        let at = from + at;
        let before = last_token_at(b, at).map(|p| b[p]);
        if before.is_some_and(|c| {
            !matches!(
                c,
                b'{' | b'[' | b',' | b':' | b'}' | b']' | b'"' | b'e' | b'l' | b'0'..=b'9'
            )
        }) {
            return false;
        }
        let after = b.get(skip_ws(b, at + 1)).copied();
        if after.is_some_and(|c| {
            !matches!(
                c,
                b'{' | b'[' | b',' | b':' | b'}' | b']' | b'"' | b'-' | b't' | b'f' | b'n' | b'0'
                    ..=b'9'
            )
        }) {
            return false;
        }
        from = at + 1;
    }
    true
}

/// The last token of `b` can end a strict JSON text.
fn ends_like_json(b: &[u8]) -> bool {
    let Some(last) = last_token_at(b, b.len()) else {
        return false;
    };
    match b.get(last) {
        Some(b'}' | b']') => last_token_at(b, last).is_none_or(|p| b.get(p) != Some(&b',')),
        Some(&c) => c == b'"' || c == b'e' || c == b'l' || c.is_ascii_digit(),
        None => false,
    }
}

/// The offset of the last byte before `end` that is not JSON whitespace.
fn last_token_at(b: &[u8], end: usize) -> Option<usize> {
    b.get(..end)?
        .iter()
        .rposition(|&c| CLASS[usize::from(c)] != WS)
}

/// The tokens of `b` up to `limit` break none of the rules in the module docs.
fn tokens_like_json(b: &[u8], limit: usize) -> bool {
    let mut depth = 0usize;
    // The class of the last token, `OTHER` before the first one, `DONE` after the last one.
    let mut prev = OTHER;
    let mut i = 0;
    loop {
        i = skip_ws(b, i);
        let Some(&c) = b.get(i) else {
            return prev == DONE;
        };
        if i > limit {
            return true;
        }
        let class = CLASS[usize::from(c)];
        if !FOLLOWS[usize::from(prev)][usize::from(class)] {
            return false;
        }
        match class {
            QUOTE => match string_end(b, i) {
                Some(end) => i = end,
                None => return false,
            },
            OPEN => {
                depth += 1;
                i += 1;
            }
            CLOSE => {
                // Never zero here: a closer follows a token inside a container.
                depth = depth.saturating_sub(1);
                i += 1;
            }
            COMMA | COLON => i += 1,
            _ => i = scalar_end(b, i),
        }
        prev = if depth == 0 { DONE } else { class };
    }
}

/// Just past the closing quote of the string whose opening quote is at `start`, or `None` if
/// the string holds a raw control character or is not closed. An escape is skipped as two
/// bytes: in strict JSON a `\u` escape's hex digits are ordinary string bytes.
#[inline(always)]
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let table = SpecialTable::for_quote(Quote::Double);
    let mut i = start + 1;
    loop {
        i = find_special(b, i, table);
        match *b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// First offset at or after `i` whose byte is not a scalar byte.
#[inline(always)]
fn scalar_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| CLASS[usize::from(c)] == SCALAR) {
        i += 1;
    }
    i
}
