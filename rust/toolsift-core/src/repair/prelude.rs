//! Double-escaped documents: `{\"a\": \"b\"}` (JSON that was stringified once more and pasted
//! without its outer quotes). It is unescaped one level and then repaired like any other input;
//! an offset map carries the repairs' offsets back to the original text.

use super::chars::skip_ws;
use super::parser::Parser;
use super::{Repair, RepairKind, Repaired};
use crate::error::Error;
use crate::strict_json::hex4;

/// The opener at `open` is followed (after whitespace, and any further `[` or `{`) by `\"`:
/// the document is double-escaped (`{\"a\": 1}`, `[{\"a\": 1}]`). Valid JSON never has a
/// backslash there, so this never fires on valid input. Looks at each byte once.
pub(super) fn is_double_escaped(b: &[u8], open: usize) -> bool {
    let mut k = skip_ws(b, open + 1);
    while matches!(b.get(k), Some(b'[' | b'{')) {
        k = skip_ws(b, k + 1);
    }
    b.get(k..k + 2) == Some(b"\\\"".as_slice())
}

/// Unescapes the input from `outer.pos` (an opener) one level and repairs the result.
/// `outer` holds what was already decided: leading whitespace or a leading-text repair.
pub(super) fn repair_double_escaped(
    outer: Parser<'_>,
    max_depth: usize,
) -> Result<Repaired, Error> {
    let start = outer.pos;
    let (text, map) = unescape(outer.src.get(start..).unwrap_or(""));
    let mut inner = Parser::new(&text, max_depth);
    inner
        .parse_top_containers()
        .map_err(|e| Error::new(e.kind, start + map.to_original(e.offset)))?;
    let mut out = outer.out;
    out.push_str(&inner.out.into_string());
    let mut repairs = outer.repairs;
    repairs.reserve(inner.repairs.len() + 1);
    repairs.push(Repair {
        kind: RepairKind::DoubleEscaped,
        offset: start,
    });
    repairs.extend(inner.repairs.iter().map(|r| Repair {
        kind: r.kind,
        offset: start + map.to_original(r.offset),
    }));
    Ok(Repaired {
        text: out.into_string(),
        repairs,
    })
}

/// Maps offsets in the unescaped text back to offsets in the escaped text: a sorted list of
/// `(unescaped, original)` points, one after each escape; between points the texts agree.
pub(super) struct OffsetMap(Vec<(usize, usize)>);

impl OffsetMap {
    fn to_original(&self, offset: usize) -> usize {
        let k = self.0.partition_point(|&(u, _)| u <= offset);
        let (u, o) = self.0.get(k.wrapping_sub(1)).copied().unwrap_or((0, 0));
        o + (offset - u)
    }
}

/// Removes one level of JSON string escaping from `s`. Escapes that do not decode (`\x`, a
/// lone surrogate) are kept as written.
pub(super) fn unescape(s: &str) -> (String, OffsetMap) {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut points = vec![(0, 0)];
    let mut run = 0;
    while let Some(k) = b.get(run..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let at = run + k;
        out.push_str(s.get(run..at).unwrap_or(""));
        let (ch, used) = match b.get(at + 1) {
            Some(b'"') => (Some('"'), 2),
            Some(b'\\') => (Some('\\'), 2),
            Some(b'/') => (Some('/'), 2),
            Some(b'n') => (Some('\n'), 2),
            Some(b't') => (Some('\t'), 2),
            Some(b'r') => (Some('\r'), 2),
            Some(b'b') => (Some('\u{8}'), 2),
            Some(b'f') => (Some('\u{c}'), 2),
            Some(b'u') => decode_u(b, at),
            _ => (None, 1),
        };
        match ch {
            Some(c) => out.push(c),
            None => out.push('\\'),
        }
        run = at + used;
        points.push((out.len(), run));
    }
    out.push_str(s.get(run..).unwrap_or(""));
    (out, OffsetMap(points))
}

/// Decodes `\uXXXX` (or a surrogate pair) at `at`; `(None, 1)` keeps the backslash as is.
fn decode_u(b: &[u8], at: usize) -> (Option<char>, usize) {
    let Some(hi) = hex4(b, at + 2) else {
        return (None, 1);
    };
    if (0xD800..0xDC00).contains(&hi) && b.get(at + 6..at + 8) == Some(b"\\u".as_slice()) {
        if let Some(lo) = hex4(b, at + 8).filter(|lo| (0xDC00..0xE000).contains(lo)) {
            let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            return char::from_u32(cp).map_or((None, 1), |c| (Some(c), 12));
        }
    }
    char::from_u32(hi).map_or((None, 1), |c| (Some(c), 6))
}
