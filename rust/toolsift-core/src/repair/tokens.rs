//! Scanners for the tokens the fast path takes: each recognizes a token whose handling by the
//! general step is known in advance (no lookahead budget, no repair inside), and returns
//! `None` for anything else.

// The hot helpers are forced inline: left to the heuristics, the scan loop gets about 30%
// more instructions per input byte (measured with callgrind on the benchmark corpus).
#![allow(clippy::inline_always)]

use super::chars::{find_special, is_value_end, skip_ws, Quote, SpecialTable};
use crate::strict_json::hex4;

/// Just past the valid escape (not `\'`, not a lone surrogate) at `i`, if it is one.
#[inline]
fn valid_escape_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
        b'u' => {
            let cp = hex4(b, i + 2)?;
            (!(0xD800..0xE000).contains(&cp)).then_some(i + 6)
        }
        _ => None,
    }
}

/// The offset of the quote `q` (`"` or `'`) that ends the string opened at `start`, when the
/// string needs no repair inside: only valid escapes, no raw control characters, and no `"`
/// in a single-quoted string.
#[inline(always)]
fn plain_close(b: &[u8], start: usize, q: Quote) -> Option<usize> {
    let table = SpecialTable::for_quote(q);
    let mut i = start + 1;
    loop {
        i = find_special(b, i, table);
        match *b.get(i)? {
            b'\\' => i = valid_escape_end(b, i)?,
            b'"' if q == Quote::Double => return Some(i),
            b'\'' if q == Quote::Single => return Some(i),
            _ => return None,
        }
    }
}

/// What may follow a token whose end needs no lookahead: `,` `}` `]`, and `:` after a key.
#[inline(always)]
const fn surely_follows(c: u8, key: bool) -> bool {
    matches!(c, b',' | b'}' | b']') || (key && c == b':')
}

/// For the string at `start` (opened by `q`, a key if `key`) that needs no repair inside and
/// whose closing quote surely ends it (what follows, after whitespace, is the end of input or
/// [surely follows](surely_follows)): the offset of the closing quote, and of what follows.
#[inline(always)]
pub(super) fn closed_string(b: &[u8], start: usize, q: Quote, key: bool) -> Option<(usize, usize)> {
    let close = plain_close(b, start, q)?;
    let next = skip_ws(b, close + 1);
    if key && close > start + 1 && b.get(close - 1) == Some(&b':') && b.get(next) != Some(&b':') {
        // `{"key:"value"}`: the colon inside the key may be its end (the general step decides).
        return None;
    }
    b.get(next)
        .is_none_or(|&c| surely_follows(c, key))
        .then_some((close, next))
}

/// First offset at or after `i` that is not an ASCII digit. Looks at eight bytes at a time.
#[inline]
fn digits_end(b: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // Digits become 0..=9; `(a + 0x76) | a` has its high bit set exactly for the other
        // bytes, up to the first one (a carry only spoils the bytes above it).
        let a = u64::from_le_bytes(word) ^ (LO * 0x30);
        let others = (a.wrapping_add(LO * 0x76) | a) & (LO * 0x80);
        if others != 0 {
            return i + (others.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// A number or word may end at `i` (see [`is_value_end`]); the usual cases first.
#[inline(always)]
pub(super) fn value_ends_at(b: &[u8], i: usize) -> bool {
    matches!(
        b.get(i),
        None | Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
    ) || is_value_end(b, i)
}

/// End of the strict JSON number at `start`, when it also ends where a number may end.
#[inline]
pub(super) fn plain_number_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + usize::from(b.get(start) == Some(&b'-'));
    match *b.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = digits_end(b, i + 1),
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        let end = digits_end(b, i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut k = i + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        i = digits_end(b, k);
        if i == k {
            return None;
        }
    }
    value_ends_at(b, i).then_some(i)
}

/// The ASCII bytes that can make up an unquoted key taken by the fast path: letters, digits,
/// `_` and `$`.
static KEY_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        c += 1;
    }
    t
};

/// `c` can be part of an unquoted key taken by the fast path.
#[inline(always)]
pub(super) fn is_key_byte(c: u8) -> bool {
    KEY_BYTES[usize::from(c)]
}

/// For an unquoted key of ASCII letters, digits, `_` and `$` at `start` that is followed (after
/// spaces or tabs) by `:`: the end of the key, and the offset of the colon.
#[inline]
pub(super) fn identifier_key(b: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut end = start;
    while b.get(end).is_some_and(|&c| is_key_byte(c)) {
        end += 1;
    }
    let mut colon = end;
    while matches!(b.get(colon), Some(b' ' | b'\t')) {
        colon += 1;
    }
    (end > start && b.get(colon) == Some(&b':')).then_some((end, colon))
}
