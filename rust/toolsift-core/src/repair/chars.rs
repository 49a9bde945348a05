//! Byte classes shared by the repair passes. Every accessor goes through `get`, so no input can
//! make them index out of bounds.

/// JSON whitespace (RFC 8259): the only bytes copied verbatim between tokens.
pub(super) const fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// First offset at or after `i` that is not JSON whitespace (or `b.len()`). The indentation
/// after a line break is skipped eight bytes at a time.
#[inline]
pub(super) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if !is_ws(c) {
            break;
        }
        i += 1;
        if c == b'\n' {
            i = skip_spaces(b, i);
        }
    }
    i
}

/// First offset at or after `i` that is not a space, or a little before it near the end.
#[inline]
fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let others = u64::from_le_bytes(word) ^ 0x2020_2020_2020_2020;
        if others != 0 {
            return i + (others.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// A markdown code fence (three backticks) starts at `i`.
pub(super) fn is_fence(b: &[u8], i: usize) -> bool {
    b.get(i..i.saturating_add(3)) == Some(b"```".as_slice())
}

/// `//` or `/*` starts at `i`.
pub(super) fn is_slash_comment(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b'/') && matches!(b.get(i + 1), Some(b'/' | b'*'))
}

/// The end of the run of ASCII letters, digits and `_` from `i` (a plain word).
pub(super) fn word_end(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    {
        i += 1;
    }
    i
}

/// A byte that may start an unquoted key or word: ASCII alphanumerics, `_`, `$`, and any
/// non-ASCII byte (callers have already taken smart quotes and Unicode spaces out).
pub(super) const fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// Length in bytes of the UTF-8 character whose lead byte is `lead` (1 for a stray byte).
pub(super) const fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The kinds of quote that can open a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quote {
    /// `"`
    Double,
    /// `'`
    Single,
    /// U+201C or U+201D
    SmartDouble,
    /// U+2018 or U+2019
    SmartSingle,
    /// A backtick U+0060 or an acute accent U+00B4 (jsonrepair's "special quotes"), read as a
    /// single quote; any of `'` `‘` `’` `` ` `` `´` closes it. Only where a key or value
    /// starts ([`string_opener_at`]).
    Backtick,
}

/// The quote (and its length in bytes) that starts at `i`, if any.
pub(super) fn quote_at(b: &[u8], i: usize) -> Option<(Quote, usize)> {
    match b.get(i)? {
        b'"' => Some((Quote::Double, 1)),
        b'\'' => Some((Quote::Single, 1)),
        0xE2 => match (b.get(i + 1), b.get(i + 2)) {
            (Some(0x80), Some(0x9C | 0x9D)) => Some((Quote::SmartDouble, 3)),
            (Some(0x80), Some(0x98 | 0x99)) => Some((Quote::SmartSingle, 3)),
            _ => None,
        },
        _ => None,
    }
}

/// A backtick (not one of a fence's three) or an acute accent at `i`: its length in bytes.
fn backtick_at(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'`' if !is_fence(b, i) => Some(1),
        0xC2 if b.get(i + 1) == Some(&0xB4) => Some(2),
        _ => None,
    }
}

/// The quote that opens a string where a key or value starts: any [`quote_at`], or a single
/// backtick or acute accent ([`Quote::Backtick`]; a run of three backticks is a fence).
#[inline]
pub(super) fn string_opener_at(b: &[u8], i: usize) -> Option<(Quote, usize)> {
    quote_at(b, i).or_else(|| Some((Quote::Backtick, backtick_at(b, i)?)))
}

/// Length of the quote at `i` if it can close a string opened with `open`.
pub(super) fn closing_quote_at(b: &[u8], i: usize, open: Quote) -> Option<usize> {
    if open == Quote::Backtick {
        return match quote_at(b, i) {
            Some((Quote::Single | Quote::SmartSingle, len)) => Some(len),
            Some(_) => None,
            None => match b.get(i)? {
                b'`' => Some(1),
                _ => backtick_at(b, i),
            },
        };
    }
    let (q, len) = quote_at(b, i)?;
    (q == open).then_some(len)
}

/// A number or word may end at `i`: end of input, whitespace, a structural byte, a quote, a
/// comment or a fence. (`:` is deliberately absent so `18:35` stays inside a token.)
#[inline]
pub(super) fn is_value_end(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        None => true,
        Some(&c) => {
            is_ws(c)
                || matches!(c, b',' | b'}' | b']' | b'{' | b'[' | b'"' | b'\'')
                || is_slash_comment(b, i)
                || is_fence(b, i)
                || quote_at(b, i).is_some()
        }
    }
}

/// Bytes that need attention inside a string opened by each kind of quote: the quote itself,
/// `"` (must be escaped in the output), `\`, and raw control characters.
pub(super) struct SpecialTable {
    table: [bool; 256],
    /// The one special byte besides `"`, `\` and controls (the quote or its lead byte).
    extra: u8,
}

impl SpecialTable {
    const fn new(extra: u8) -> Self {
        let mut t = [false; 256];
        let mut i = 0;
        while i < 0x20 {
            t[i] = true;
            i += 1;
        }
        t[b'"' as usize] = true;
        t[b'\\' as usize] = true;
        t[extra as usize] = true;
        Self { table: t, extra }
    }

    /// True when `c` needs attention.
    pub(super) const fn get(&self, c: u8) -> bool {
        self.table[c as usize]
    }

    /// A mask of the bytes of the 8 packed in `x` (little-endian) that need attention: the
    /// lowest set bit is the high bit of the first such byte (bits above it may be spurious).
    #[inline(always)]
    const fn word_mask(&self, x: u64) -> u64 {
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        // With `v` below 0x80, `(x - v*LO) & !x & HI` flags the bytes below `v`, and
        // `((x ^ v*LO) - LO) & !x & HI` the bytes equal to `v`, exactly up to the first one
        // flagged (a borrow can only spoil the bytes above a true match).
        let ascii = x.wrapping_sub(LO * 0x20)
            | (x ^ (LO * b'"' as u64)).wrapping_sub(LO)
            | (x ^ (LO * b'\\' as u64)).wrapping_sub(LO);
        let e = x ^ (LO * self.extra as u64);
        if self.extra < 0x80 {
            (ascii | e.wrapping_sub(LO)) & !x & HI
        } else {
            ((ascii & !x) | (e.wrapping_sub(LO) & !e)) & HI
        }
    }

    /// The table for strings opened by `q`.
    pub(super) const fn for_quote(q: Quote) -> &'static Self {
        match q {
            Quote::Double => &DOUBLE,
            Quote::Single => &SINGLE,
            Quote::SmartDouble | Quote::SmartSingle => &SMART,
            Quote::Backtick => &BACKTICK,
        }
    }
}

static DOUBLE: SpecialTable = SpecialTable::new(b'"');
static SINGLE: SpecialTable = SpecialTable::new(b'\'');
static SMART: SpecialTable = SpecialTable::new(0xE2);
/// For [`Quote::Backtick`]: the lead bytes of all its closing quotes. Its `extra` is `'` only,
/// so it is read with [`find_special_bytewise`], not the word-at-a-time scan.
static BACKTICK: SpecialTable = {
    let mut t = SpecialTable::new(b'\'');
    t.table[b'`' as usize] = true;
    t.table[0xC2] = true;
    t.table[0xE2] = true;
    t
};

/// [`find_special`] a byte at a time: for tables with more special bytes than `extra`.
pub(super) fn find_special_bytewise(b: &[u8], i: usize, table: &SpecialTable) -> usize {
    b.get(i..)
        .and_then(|tail| tail.iter().position(|&c| table.get(c)))
        .map_or(b.len(), |p| i + p)
}

/// First offset at or after `i` whose byte is special in `table` (or `b.len()`). Looks at
/// eight bytes at a time.
#[inline]
pub(super) fn find_special(b: &[u8], mut i: usize, table: &SpecialTable) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let mask = table.word_mask(u64::from_le_bytes(word));
        if mask != 0 {
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    b.get(i..)
        .and_then(|tail| tail.iter().position(|&c| table.get(c)))
        .map_or(b.len(), |p| i + p)
}

/// Pushes `s` to `out` as the contents of a JSON string (without the quotes), escaping `"`,
/// `\` and control characters. Returns true when a control character had to be escaped.
pub(super) fn push_escaped(out: &mut String, s: &str) -> bool {
    let b = s.as_bytes();
    let mut run = 0;
    let mut saw_control = false;
    let mut i = find_special(b, 0, &DOUBLE);
    while let Some(&c) = b.get(i) {
        out.push_str(s.get(run..i).unwrap_or(""));
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            _ => {
                push_control_escape(out, c);
                saw_control = true;
            }
        }
        run = i + 1;
        i = find_special(b, run, &DOUBLE);
    }
    out.push_str(s.get(run..).unwrap_or(""));
    saw_control
}

/// Pushes the JSON escape for control byte `c`.
pub(super) fn push_control_escape(out: &mut String, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match c {
        b'\n' => out.push_str("\\n"),
        b'\r' => out.push_str("\\r"),
        b'\t' => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0C => out.push_str("\\f"),
        _ => {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(c >> 4)]));
            out.push(char::from(HEX[usize::from(c & 0xF)]));
        }
    }
}

/// ASCII-case-insensitive equality of a token with a lowercase word.
pub(super) fn eq_word(token: &[u8], lower: &[u8]) -> bool {
    token.len() == lower.len()
        && token
            .iter()
            .zip(lower)
            .all(|(a, b)| a.to_ascii_lowercase() == *b)
}
