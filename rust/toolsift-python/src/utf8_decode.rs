//! UTF-8 decoded into code points as `CPython` stores them (1, 2 or 4 bytes each): the
//! decoder behind `pystr`, the reverse of `utf8_encode`.
//!
//! `CPython`'s own decoder does not know the width a text needs until it meets its widest
//! character: it decodes into one byte per code point, and at the first wider one copies
//! everything so far into a wider buffer and goes on there, its ASCII fast path only working
//! on aligned words. A sentinel file body (3.5% of its characters not ASCII, most texts with
//! one above U+FFFF) cost it ~4.8 instructions a byte. Here one pass first finds the width
//! and the length (the largest byte and the count of continuation bytes say both), and a
//! second writes each code point once at that width, sixteen ASCII bytes at a time.
#![allow(unsafe_code)]

/// The storage width a text needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Width {
    /// Every character is ASCII.
    Ascii,
    /// Every character is below U+0100.
    Latin1,
    /// Every character is below U+10000.
    Two,
    Four,
}

impl Width {
    /// The largest code point `PyUnicode_New` is told of.
    pub(crate) fn max_char(self) -> u32 {
        match self {
            Width::Ascii => 0x7F,
            Width::Latin1 => 0xFF,
            Width::Two => 0xFFFF,
            Width::Four => 0x10_FFFF,
        }
    }
}

/// A text's length in code points and the width it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) chars: usize,
    pub(crate) width: Width,
}

/// The [`Shape`] of `text`. In valid UTF-8 the largest byte says the width: continuation
/// bytes are `0x80..=0xBF`, so any byte from `0xC4` is a lead of a character from U+0100,
/// from `0xF0` of one from U+10000, and `0xC2`/`0xC3` lead the rest of Latin-1.
pub(crate) fn shape(text: &str) -> Shape {
    let (max, continuation) = scan(text.as_bytes());
    let width = match max {
        0..=0x7F => Width::Ascii,
        0x80..=0xC3 => Width::Latin1,
        0xC4..=0xEF => Width::Two,
        _ => Width::Four,
    };
    Shape {
        chars: text.len() - continuation,
        width,
    }
}

/// The largest byte of `bytes` and how many are continuation bytes.
fn scan(bytes: &[u8]) -> (u8, usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline; `scan_blocks` reads whole blocks only.
    let (mut max, mut continuation, done) = unsafe { simd::scan_blocks(bytes) };
    #[cfg(not(target_arch = "x86_64"))]
    let (mut max, mut continuation, done) = (0u8, 0usize, 0usize);
    for &b in &bytes[done..] {
        max = max.max(b);
        continuation += usize::from(b & 0xC0 == 0x80);
    }
    (max, continuation)
}

/// A code unit of a `str`'s storage that code points are written as.
pub(crate) trait Unit: Copy {
    /// `code` (which fits) as a unit.
    fn of(code: u32) -> Self;

    /// Writes the 16 bytes at `from`, each as one unit, at `to`.
    ///
    /// # Safety
    /// `from` must be readable for 16 bytes and `to` writable for 16 units.
    unsafe fn widen16(from: *const u8, to: *mut Self);
}

impl Unit for u8 {
    #[allow(clippy::cast_possible_truncation)] // the caller's width says it fits
    fn of(code: u32) -> Self {
        code as u8
    }
    unsafe fn widen16(from: *const u8, to: *mut Self) {
        std::ptr::copy_nonoverlapping(from, to, 16);
    }
}

impl Unit for u16 {
    #[allow(clippy::cast_possible_truncation)] // the caller's width says it fits
    fn of(code: u32) -> Self {
        code as u16
    }
    unsafe fn widen16(from: *const u8, to: *mut Self) {
        #[cfg(target_arch = "x86_64")]
        simd::widen16_to_2(from, to);
        #[cfg(not(target_arch = "x86_64"))]
        for k in 0..16 {
            *to.add(k) = u16::from(*from.add(k));
        }
    }
}

impl Unit for u32 {
    fn of(code: u32) -> Self {
        code
    }
    unsafe fn widen16(from: *const u8, to: *mut Self) {
        #[cfg(target_arch = "x86_64")]
        simd::widen16_to_4(from, to);
        #[cfg(not(target_arch = "x86_64"))]
        for k in 0..16 {
            *to.add(k) = u32::from(*from.add(k));
        }
    }
}

/// The code point that starts at `bytes[i]` and its length in bytes; `bytes` is valid UTF-8
/// and `i` a character boundary.
#[inline]
fn decode_one(bytes: &[u8], i: usize) -> (u32, usize) {
    let b0 = u32::from(bytes[i]);
    let next = |k: usize| u32::from(bytes[i + k] & 0x3F);
    match b0 {
        0..=0x7F => (b0, 1),
        0x80..=0xDF => (((b0 & 0x1F) << 6) | next(1), 2),
        0xE0..=0xEF => (((b0 & 0x0F) << 12) | (next(1) << 6) | next(2), 3),
        _ => (
            ((b0 & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3),
            4,
        ),
    }
}

/// Writes the code points of `text` at `out`, one unit each.
///
/// # Safety
/// `out` must be writable for `chars` units, where `chars` is `shape(text).chars`, and `U`
/// must be wide enough for every code point of `text` (`shape(text).width`).
pub(crate) unsafe fn decode_into<U: Unit>(text: &str, out: *mut U, chars: usize) {
    let bytes = text.as_bytes();
    let (mut i, mut o) = (0, 0);
    // A block is written whole (sixteen units) when sixteen bytes are left to read and
    // sixteen units to write; the units past its ASCII run are written again after.
    while i + 16 <= bytes.len() && o + 16 <= chars {
        let from = bytes.as_ptr().add(i);
        U::widen16(from, out.add(o));
        let ascii = ascii_run16(from);
        i += ascii;
        o += ascii;
        if ascii < 16 {
            let (code, len) = decode_one(bytes, i);
            *out.add(o) = U::of(code);
            i += len;
            o += 1;
        }
    }
    while i < bytes.len() {
        let (code, len) = decode_one(bytes, i);
        *out.add(o) = U::of(code);
        i += len;
        o += 1;
    }
    debug_assert_eq!(o, chars);
}

/// How many of the 16 bytes at `from` are ASCII before the first that is not (16: all).
///
/// # Safety
/// `from` must be readable for 16 bytes.
#[inline]
unsafe fn ascii_run16(from: *const u8) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        simd::high_bits16(from).trailing_zeros().min(16) as usize
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..16).find(|&k| *from.add(k) >= 0x80).unwrap_or(16)
    }
}

/// Decodes `text` into a vector of `U`, for the tests.
#[cfg(test)]
pub(crate) fn decode_vec<U: Unit + Default>(text: &str) -> Vec<U> {
    let chars = shape(text).chars;
    let mut out = vec![U::default(); chars];
    // SAFETY: `out` holds `chars` units; the tests pick a width that fits.
    unsafe { decode_into(text, out.as_mut_ptr(), chars) };
    out
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::{
        _mm_cmpgt_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_sad_epu8, _mm_set1_epi8,
        _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi8,
        _mm_unpacklo_epi16, _mm_unpacklo_epi8,
    };

    /// The top bits of the 16 bytes at `from`, bit `k` for byte `k`.
    #[inline]
    pub(super) unsafe fn high_bits16(from: *const u8) -> u32 {
        crate::utf8_encode::simd::top_bits(_mm_loadu_si128(from.cast()))
    }

    /// The largest byte and the count of continuation bytes of the whole 16-byte blocks
    /// at the start of `bytes`, and how many bytes those blocks hold.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub(super) unsafe fn scan_blocks(bytes: &[u8]) -> (u8, usize, usize) {
        let blocks = bytes.len() / 16;
        let zero = _mm_setzero_si128();
        // Bytes 0x80..=0xBF are the signed bytes -128..=-65, exactly those below -64.
        let limit = _mm_set1_epi8(-64);
        let mut max = zero;
        let mut count = 0usize;
        let mut k = 0;
        while k < blocks {
            // Each lane of `lanes` counts up to 255 blocks before it is summed.
            let run = (blocks - k).min(255);
            let mut lanes = zero;
            for j in k..k + run {
                let v = _mm_loadu_si128(bytes.as_ptr().add(j * 16).cast());
                max = _mm_max_epu8(max, v);
                lanes = _mm_sub_epi8(lanes, _mm_cmpgt_epi8(limit, v));
            }
            let sums: [u64; 2] = std::mem::transmute(_mm_sad_epu8(lanes, zero));
            count += (sums[0] + sums[1]) as usize;
            k += run;
        }
        let lanes: [u8; 16] = std::mem::transmute(max);
        let top = lanes.iter().copied().max().unwrap_or(0);
        (top, count, blocks * 16)
    }

    /// The 16 bytes at `from` as 16 two-byte units at `to`.
    #[inline]
    pub(super) unsafe fn widen16_to_2(from: *const u8, to: *mut u16) {
        let v = _mm_loadu_si128(from.cast());
        let zero = _mm_setzero_si128();
        _mm_storeu_si128(to.cast(), _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128(to.add(8).cast(), _mm_unpackhi_epi8(v, zero));
    }

    /// The 16 bytes at `from` as 16 four-byte units at `to`.
    #[inline]
    pub(super) unsafe fn widen16_to_4(from: *const u8, to: *mut u32) {
        let v = _mm_loadu_si128(from.cast());
        let zero = _mm_setzero_si128();
        let (lo, hi) = (_mm_unpacklo_epi8(v, zero), _mm_unpackhi_epi8(v, zero));
        _mm_storeu_si128(to.cast(), _mm_unpacklo_epi16(lo, zero));
        _mm_storeu_si128(to.add(4).cast(), _mm_unpackhi_epi16(lo, zero));
        _mm_storeu_si128(to.add(8).cast(), _mm_unpacklo_epi16(hi, zero));
        _mm_storeu_si128(to.add(12).cast(), _mm_unpackhi_epi16(hi, zero));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(text: &str) -> Result<(), TestCaseError> {
        let codes: Vec<u32> = text.chars().map(u32::from).collect();
        let top = codes.iter().copied().max().unwrap_or(0);
        let want = match top {
            0..=0x7F => Width::Ascii,
            0x80..=0xFF => Width::Latin1,
            0x100..=0xFFFF => Width::Two,
            _ => Width::Four,
        };
        prop_assert_eq!(
            shape(text),
            Shape {
                chars: codes.len(),
                width: want
            }
        );
        prop_assert_eq!(decode_vec::<u32>(text), codes.clone());
        if top <= 0xFFFF {
            let two: Vec<u32> = decode_vec::<u16>(text).into_iter().map(u32::from).collect();
            prop_assert_eq!(two, codes.clone());
        }
        if top <= 0xFF {
            let one: Vec<u32> = decode_vec::<u8>(text).into_iter().map(u32::from).collect();
            prop_assert_eq!(one, codes);
        }
        Ok(())
    }

    #[test]
    fn a_wide_character_in_any_lane_and_at_the_very_end() {
        for lane in 0..20 {
            for wide in ['é', 'ÿ', 'Ā', '—', '日', '\u{FFFF}', '😀', '\u{10FFFF}'] {
                let mut text = "a".repeat(lane);
                text.push(wide);
                text.push_str(&"b".repeat(40 - lane));
                text.push(wide);
                check(&text).unwrap();
                check(&text[..text.len() - wide.len_utf8()]).unwrap();
            }
        }
        check("").unwrap();
    }

    #[test]
    fn continuation_counts_survive_many_blocks() {
        // More than 255 blocks of continuation bytes, where a lane's byte counter wraps.
        let text = "日".repeat(16 * 300);
        check(&text).unwrap();
    }

    fn character() -> impl Strategy<Value = char> {
        prop_oneof![
            12 => (0u32..0x80).prop_map(|c| char::from_u32(c).unwrap_or('a')),
            2 => (0x80u32..0x100).prop_map(|c| char::from_u32(c).unwrap_or('a')),
            2 => (0x100u32..0xD800).prop_map(|c| char::from_u32(c).unwrap_or('a')),
            1 => (0xE000u32..0x1_0000).prop_map(|c| char::from_u32(c).unwrap_or('a')),
            1 => (0x1_0000u32..0x11_0000).prop_map(|c| char::from_u32(c).unwrap_or('a')),
        ]
    }

    proptest! {
        #[test]
        fn decodes_as_rust_reads_chars(chars in prop::collection::vec(character(), 0..120)) {
            check(&chars.into_iter().collect::<String>())?;
        }

        #[test]
        fn latin1_and_two_byte_texts(
            chars in prop::collection::vec((0u32..0x200).prop_map(|c| char::from_u32(c).unwrap_or('a')), 0..120)
        ) {
            check(&chars.into_iter().collect::<String>())?;
        }
    }
}
