//! Code points as `CPython` stores them (1, 2 or 4 bytes each) written as UTF-8: the encoder
//! behind `pywide`.
//!
//! Most of any text is ASCII, so the work is a loop over sixteen code points at a time that
//! narrows them to bytes and says which were not ASCII. On x86-64 that is a handful of SSE2
//! instructions (part of the x86-64 baseline, so no CPU check): a block with a wide code point
//! writes the ASCII ones before it, then that one code point, and the next block starts right
//! after it. The scalar encoder this replaced checked a block, then either copied it or wrote
//! all sixteen code points one by one: on the sentinel texts (3.5% of their characters not
//! ASCII, 23% of their blocks holding one) it took 0.71 us a text, this one 0.58 us; on the
//! `TOOL_CALL` replies 0.34 -> 0.23 us (`/tmp` bench over the benchmark corpora, best of 30).
//! Where the CPU has AVX2 (checked at run time), runs of ASCII go 32 code points at a time.
//! With AVX2 each block of sixteen is written whole when its code points are all ASCII or all
//! below U+10000 (and not surrogates), eight at a time without a branch per code point (see
//! `utf8_bmp`), and a 32-unit ASCII step is tried only after two ASCII blocks in a row:
//! marker-free sentinel texts 0.91 -> 0.80 ms a thousand (`parse_many`, best of 300,
//! alternating builds; 0.83 with the BMP step behind the 16-unit narrowing).
#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
use crate::utf8_bmp::Block;

/// A code unit of a `str`'s storage: one byte, two or four.
pub(crate) trait Unit: Copy + Into<u32> {
    /// Reads 16 units at `from`, writes each as a byte at `to` (the low 7 bits when not
    /// ASCII, which the caller overwrites), and returns a mask with bit `k` set when unit `k`
    /// is not ASCII.
    ///
    /// # Safety
    /// `from` must be readable for 16 units and `to` writable for 16 bytes.
    unsafe fn narrow16(from: *const Self, to: *mut u8) -> u32;

    /// With AVX2: when the 32 units at `from` are all ASCII, writes them as bytes at `to`
    /// and returns `true`; else writes nothing and returns `false`.
    ///
    /// # Safety
    /// The CPU must have AVX2; `from` must be readable for 32 units and `to` writable for 32
    /// bytes.
    unsafe fn ascii32(from: *const Self, to: *mut u8) -> bool;

    /// With AVX2: the 16 units at `from` written at `to` when they are all ASCII or all
    /// below U+10000 and no surrogate (see [`crate::utf8_bmp::Block`]).
    ///
    /// # Safety
    /// The CPU must have AVX2; `from` must be readable for 16 units and `to` writable for
    /// 56 bytes (48 for 1-byte units).
    #[cfg(target_arch = "x86_64")]
    unsafe fn block16(from: *const Self, to: *mut u8) -> crate::utf8_bmp::Block;
}

/// [`Unit::narrow16`] one unit at a time: the encoder off x86-64, and what the SIMD versions
/// are tested against.
///
/// # Safety
/// As for [`Unit::narrow16`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
unsafe fn narrow16_scalar<U: Unit>(from: *const U, to: *mut u8) -> u32 {
    let mut wide = 0;
    for k in 0..16 {
        let u: u32 = (*from.add(k)).into();
        // Only the low 7 bits: what the SIMD versions write for a wide unit.
        *to.add(k) = (u & 0x7F) as u8;
        wide |= u32::from(u >= 0x80) << k;
    }
    wide
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod simd {
    use crate::utf8_bmp as bmp;
    use std::arch::x86_64::{
        __m128i, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_packus_epi16,
        _mm256_packus_epi32, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32,
        _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_storeu_si256,
        _mm256_testz_si256, _mm_and_si128, _mm_cmpeq_epi16, _mm_cmpeq_epi32, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi16,
        _mm_set1_epi32, _mm_setzero_si128, _mm_shuffle_epi8, _mm_storeu_si128,
    };

    /// The 16 bytes at `at`.
    ///
    /// # Safety
    /// `at` must be readable for 16 bytes.
    #[inline]
    pub(crate) unsafe fn load16(at: *const u8) -> __m128i {
        _mm_loadu_si128(at.cast())
    }

    /// Bytes `lane..16` of `v` written at `to`, then zeros (16 bytes written).
    ///
    /// # Safety
    /// The CPU must have AVX2 (SSSE3's shuffle); `lane` at most 16; `to` writable for 16
    /// bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn store_from(v: __m128i, lane: usize, to: *mut u8) {
        // Shuffle indices `lane..`: 0x80 past 15 writes a zero.
        static FROM: [u8; 32] = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80,
            0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        ];
        let order = _mm_loadu_si128(FROM.as_ptr().add(lane).cast());
        _mm_storeu_si128(to.cast(), _mm_shuffle_epi8(v, order));
    }

    /// The top bits of the 16 bytes of `v`, bit `k` for byte `k` (the decoder reads its
    /// ASCII runs with it too).
    #[inline]
    #[allow(clippy::cast_sign_loss)] // the mask is 16 bits, 0..=0xFFFF
    pub(crate) unsafe fn top_bits(v: __m128i) -> u32 {
        _mm_movemask_epi8(v) as u32
    }

    /// The 16 lanes' "is ASCII" flags (0 or -1 per byte) as a mask of the wide ones.
    #[inline]
    unsafe fn wide_mask(ascii: __m128i) -> u32 {
        !top_bits(ascii) & 0xFFFF
    }

    impl super::Unit for u8 {
        #[inline]
        unsafe fn narrow16(from: *const u8, to: *mut u8) -> u32 {
            let a = _mm_loadu_si128(from.cast());
            _mm_storeu_si128(to.cast(), _mm_and_si128(a, _mm_set1_epi16(0x7F7F)));
            // The top bit of each byte is set exactly for the bytes above 0x7F.
            top_bits(a)
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn ascii32(from: *const u8, to: *mut u8) -> bool {
            let a = _mm256_loadu_si256(from.cast());
            if _mm256_movemask_epi8(a) != 0 {
                return false;
            }
            _mm256_storeu_si256(to.cast(), a);
            true
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn block16(from: *const u8, to: *mut u8) -> bmp::Block {
            bmp::block16_u8(from, to)
        }
    }

    impl super::Unit for u16 {
        #[inline]
        unsafe fn narrow16(from: *const u16, to: *mut u8) -> u32 {
            let a = _mm_loadu_si128(from.cast());
            let b = _mm_loadu_si128(from.add(8).cast());
            let (high, low) = (_mm_set1_epi16(!0x7F), _mm_set1_epi16(0x7F));
            let zero = _mm_setzero_si128();
            let ascii = _mm_packs_epi16(
                _mm_cmpeq_epi16(_mm_and_si128(a, high), zero),
                _mm_cmpeq_epi16(_mm_and_si128(b, high), zero),
            );
            let bytes = _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
            _mm_storeu_si128(to.cast(), bytes);
            wide_mask(ascii)
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn ascii32(from: *const u16, to: *mut u8) -> bool {
            let a = _mm256_loadu_si256(from.cast());
            let b = _mm256_loadu_si256(from.add(16).cast());
            if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(!0x7F)) == 0 {
                return false;
            }
            // Packed per 128-bit lane: a's low half, b's low half, a's high half, b's high
            // half; the 64-bit groups put back in order.
            let packed = _mm256_packus_epi16(a, b);
            _mm256_storeu_si256(to.cast(), _mm256_permute4x64_epi64::<0b11_01_10_00>(packed));
            true
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn block16(from: *const u16, to: *mut u8) -> bmp::Block {
            bmp::block16_u16(from, to)
        }
    }

    impl super::Unit for u32 {
        #[inline]
        unsafe fn narrow16(from: *const u32, to: *mut u8) -> u32 {
            let [a, b, c, d] = [0, 4, 8, 12].map(|k| _mm_loadu_si128(from.add(k).cast()));
            let (high, low) = (_mm_set1_epi32(!0x7F), _mm_set1_epi32(0x7F));
            let zero = _mm_setzero_si128();
            let is_ascii = |v| _mm_cmpeq_epi32(_mm_and_si128(v, high), zero);
            let ascii = _mm_packs_epi16(
                _mm_packs_epi32(is_ascii(a), is_ascii(b)),
                _mm_packs_epi32(is_ascii(c), is_ascii(d)),
            );
            // Masked to 7 bits first, so the signed packs saturate nothing.
            let bytes = _mm_packus_epi16(
                _mm_packs_epi32(_mm_and_si128(a, low), _mm_and_si128(b, low)),
                _mm_packs_epi32(_mm_and_si128(c, low), _mm_and_si128(d, low)),
            );
            _mm_storeu_si128(to.cast(), bytes);
            wide_mask(ascii)
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn ascii32(from: *const u32, to: *mut u8) -> bool {
            let [a, b, c, d] = [0, 8, 16, 24].map(|k| _mm256_loadu_si256(from.add(k).cast()));
            let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
            if _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) == 0 {
                return false;
            }
            // Per 128-bit lane the packs leave four units of a, b, c, d in turn (a0-3 b0-3
            // c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7); the 32-bit groups are put back in order.
            let bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
            let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
            _mm256_storeu_si256(to.cast(), _mm256_permutevar8x32_epi32(bytes, order));
            true
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn block16(from: *const u32, to: *mut u8) -> bmp::Block {
            bmp::block16_u32(from, to)
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod scalar {
    impl super::Unit for u8 {
        unsafe fn narrow16(from: *const u8, to: *mut u8) -> u32 {
            super::narrow16_scalar(from, to)
        }
        unsafe fn ascii32(_: *const u8, _: *mut u8) -> bool {
            false
        }
    }
    impl super::Unit for u16 {
        unsafe fn narrow16(from: *const u16, to: *mut u8) -> u32 {
            super::narrow16_scalar(from, to)
        }
        unsafe fn ascii32(_: *const u16, _: *mut u8) -> bool {
            false
        }
    }
    impl super::Unit for u32 {
        unsafe fn narrow16(from: *const u32, to: *mut u8) -> u32 {
            super::narrow16_scalar(from, to)
        }
        unsafe fn ascii32(_: *const u32, _: *mut u8) -> bool {
            false
        }
    }
}

/// Writes `units` into `out` (cleared first) as UTF-8, a surrogate (or anything not a
/// character) as U+FFFD; returns whether any was replaced.
pub(crate) fn encode<U: Unit>(out: &mut String, units: &[U]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { encode_avx2(out, units) };
    }
    // SAFETY: `AVX2` is false: no AVX2 step is taken.
    unsafe { encode_with::<U, false>(out, units) }
}

/// [`encode`] taking 32 units at a time while they are ASCII (most of most texts): a check
/// and a store for 32 units where the 16-unit step narrows and masks each half (the
/// sentinel replies: ~1,000 fewer instructions a text).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn encode_avx2<U: Unit>(out: &mut String, units: &[U]) -> bool {
    encode_with::<U, true>(out, units)
}

/// [`encode`], with the AVX2 step when `AVX2`.
///
/// # Safety
/// With `AVX2`, the CPU must have AVX2.
// Always inlined: only inside `encode_avx2` is its code compiled for AVX2, so that the
// 32-unit step inlines.
#[allow(clippy::inline_always)]
#[inline(always)]
unsafe fn encode_with<U: Unit, const AVX2: bool>(out: &mut String, units: &[U]) -> bool {
    // At most 4 bytes per code point (3 for any below U+10000, U+FFFD included), and room
    // for a block's 16 bytes written past the last code point.
    let most = units.len() * if size_of::<U>() == 1 { 2 } else { 4 } + 16;
    let mut replaced = false;
    let len = units.len();
    let from = units.as_ptr();
    // SAFETY: reads stay within `units` (a block is read only when 16 units are left) and
    // `block` (16 bytes from a lane below 17); writes stay within the `most` bytes reserved,
    // since at most 16 bytes are written past `n` and `n` grows by at most 4 per unit read.
    // Only whole UTF-8 sequences end up below `n` (ASCII bytes, or `write_wide`'s), and the
    // length is set to `n`.
    unsafe {
        let bytes = out.as_mut_vec();
        bytes.clear();
        if bytes.capacity() < most {
            // A new buffer rather than `reserve`: growing the old one copies all it held,
            // though nothing of it is kept (~2,500 instructions a time on the sentinel
            // replies, once in seven texts).
            *bytes = Vec::with_capacity(most.max(2 * bytes.capacity()));
        }
        let to = bytes.as_mut_ptr();
        let (mut i, mut n) = (0, 0);
        // A block with a wide unit is kept aside in `block`: the ASCII lanes between its wide
        // ones are copied from there after each wide one is written (a copy of up to 16 bytes,
        // the extra ones written again later), so it is not narrowed again from that unit on
        // (`encode_into` on the sentinel replies: 1.40M -> 1.27M instructions with the earlier
        // change that wrote runs of wide units at once).
        let mut block = [0u8; 32];
        // ASCII blocks in a row so far: only after two is a 32-unit step tried (in text with
        // a wide character every few dozen, most such steps would fail).
        let mut ascii_blocks = 2;
        while i + 16 <= len {
            #[cfg(target_arch = "x86_64")]
            if AVX2 {
                // 32 units read and at most 32 bytes written, as the `most` bytes reserved
                // allow (`n` is at most 4 per unit read before `i`, and `i + 32 <= len`).
                if ascii_blocks >= 2 && i + 32 <= len && U::ascii32(from.add(i), to.add(n)) {
                    i += 32;
                    n += 32;
                    continue;
                }
                // A block below U+10000 is written eight code points at a time, without a
                // branch for each (see `utf8_bmp`); it writes at most 52 bytes from `n`, and
                // `n` stays within 4 bytes per unit read (2 for 1-byte units): within the
                // `most` bytes reserved.
                match U::block16(from.add(i), to.add(n)) {
                    Block::Ascii => {
                        i += 16;
                        n += 16;
                        ascii_blocks += 1;
                        continue;
                    }
                    Block::Bmp(written) => {
                        i += 16;
                        n += written;
                        ascii_blocks = 0;
                        continue;
                    }
                    Block::Other => ascii_blocks = 0,
                }
            }
            let mut wide = U::narrow16(from.add(i), to.add(n));
            if wide == 0 {
                // All ASCII (most blocks): written in place.
                i += 16;
                n += 16;
                continue;
            }
            #[cfg(target_arch = "x86_64")]
            if AVX2 {
                // The block stays in a register, each run of it shifted into place by a
                // byte shuffle: reloaded from `block` at a lane other than 0, it was a load
                // straddling the store just made, which the CPU cannot forward (perf: the
                // copies after that load were a fifth of the encoder's time; the UCS-4
                // sentinel texts 0.70 -> 0.65 us each).
                let v = simd::load16(to.add(n));
                let mut lane = 0;
                while wide != 0 {
                    let k = wide.trailing_zeros() as usize;
                    simd::store_from(v, lane, to.add(n));
                    n += k - lane;
                    n += write_wide(to.add(n), (*from.add(i + k)).into(), &mut replaced);
                    lane = k + 1;
                    wide &= wide - 1;
                }
                simd::store_from(v, lane, to.add(n));
                n += 16 - lane;
                i += 16;
                continue;
            }
            std::ptr::copy_nonoverlapping(to.add(n), block.as_mut_ptr(), 16);
            let mut lane = 0;
            while wide != 0 {
                let k = wide.trailing_zeros() as usize;
                std::ptr::copy_nonoverlapping(block.as_ptr().add(lane), to.add(n), 16);
                n += k - lane;
                n += write_wide(to.add(n), (*from.add(i + k)).into(), &mut replaced);
                lane = k + 1;
                wide &= wide - 1;
            }
            std::ptr::copy_nonoverlapping(block.as_ptr().add(lane), to.add(n), 16);
            n += 16 - lane;
            i += 16;
        }
        for k in i..len {
            let u: u32 = (*from.add(k)).into();
            if u < 0x80 {
                *to.add(n) = u as u8;
                n += 1;
            } else {
                n += write_wide(to.add(n), u, &mut replaced);
            }
        }
        bytes.set_len(n);
    }
    replaced
}

/// Writes code point `u`, not ASCII, at `at` as UTF-8 (U+FFFD when it is a surrogate or
/// beyond U+10FFFF); returns the bytes written.
///
/// # Safety
/// `at` must be writable for 4 bytes.
#[inline]
unsafe fn write_wide(at: *mut u8, u: u32, replaced: &mut bool) -> usize {
    // Two and three bytes written directly (most wide code points of text): through
    // `char::encode_utf8` each took ~20 instructions of checks and length branches.
    if u < 0x800 {
        at.cast::<[u8; 2]>()
            .write_unaligned([0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
        return 2;
    }
    if u < 0x1_0000 && !(0xD800..0xE000).contains(&u) {
        at.cast::<[u8; 3]>().write_unaligned([
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ]);
        return 3;
    }
    let c = char::from_u32(u).unwrap_or_else(|| {
        *replaced = true;
        '\u{FFFD}'
    });
    c.encode_utf8(std::slice::from_raw_parts_mut(at, 4)).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `encode` must write: each unit a `char`, or U+FFFD.
    fn expected(units: &[u32]) -> (String, bool) {
        let chars: Vec<Option<char>> = units.iter().map(|&u| char::from_u32(u)).collect();
        let text = chars.iter().map(|c| c.unwrap_or('\u{FFFD}')).collect();
        (text, chars.contains(&None))
    }

    /// `encode` (with AVX2 where the CPU has it) and the 16-unit steps alone.
    fn check<U: Unit>(units: &[U]) -> Result<(), TestCaseError> {
        let wide: Vec<u32> = units.iter().map(|&u| u.into()).collect();
        let mut out = String::from("left over");
        let replaced = encode(&mut out, units);
        prop_assert_eq!((out, replaced), expected(&wide));
        let mut out = String::from("left over");
        // SAFETY: without `AVX2` no AVX2 step is taken.
        let replaced = unsafe { encode_with::<U, false>(&mut out, units) };
        prop_assert_eq!((out, replaced), expected(&wide));
        Ok(())
    }

    /// [`check`] of `units` stored at each width (each unit cut to it).
    fn check_every_width(units: &[u32]) -> Result<(), TestCaseError> {
        check(units)?;
        let narrow: Vec<u16> = units.iter().map(|&u| u as u16).collect();
        check(&narrow)?;
        let latin1: Vec<u8> = units.iter().map(|&u| u as u8).collect();
        check(&latin1)
    }

    /// Runs of ASCII long enough for the 32-unit step, each ended by one other unit.
    fn runs() -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec((0usize..70, unit()), 0..6).prop_map(|runs| {
            let mut units = Vec::new();
            for (len, end) in runs {
                units.extend((0..len).map(|k| u32::try_from(k % 0x80).unwrap_or(0)));
                units.push(end);
            }
            units
        })
    }

    /// The block step of this target against the scalar one.
    fn check_block<U: Unit>(units: &[U]) -> Result<(), TestCaseError> {
        let (mut fast, mut slow) = ([0u8; 16], [0u8; 16]);
        // SAFETY: both read 16 units and write 16 bytes.
        let (a, b) = unsafe {
            (
                U::narrow16(units.as_ptr(), fast.as_mut_ptr()),
                narrow16_scalar(units.as_ptr(), slow.as_mut_ptr()),
            )
        };
        prop_assert_eq!(a, b);
        // Only the ASCII lanes' bytes are kept by `encode`.
        for k in (0..16).filter(|k| a & (1 << k) == 0) {
            prop_assert_eq!(fast[k], slow[k]);
        }
        Ok(())
    }

    #[test]
    fn units_become_utf8_and_surrogates_the_replacement_character() {
        let units: [u32; 6] = [0x61, 0xE9, 0x65E5, 0xD800, 0x1F600, 0xDFFF];
        let mut out = String::new();
        assert!(encode(&mut out, &units));
        assert_eq!(out, "aé日\u{FFFD}😀\u{FFFD}");
    }

    /// `encode` of `units` stored as `U`, when every one fits, against what it must write.
    fn encodes_at<U: Unit + TryFrom<u32>>(units: &[u32], what: &str) {
        let Ok(stored) = units
            .iter()
            .map(|&u| U::try_from(u))
            .collect::<Result<Vec<U>, _>>()
        else {
            return;
        };
        let mut out = String::new();
        let replaced = encode(&mut out, &stored);
        assert_eq!((out, replaced), expected(units), "{what}");
    }

    #[test]
    fn a_wide_unit_in_any_lane_of_a_block() {
        for lane in 0..16 {
            for wide in [
                0x80u32, 0xE9, 0xFF, 0x7FF, 0x800, 0x65E5, 0xD800, 0xDFFF, 0xE000, 0xFFFF,
                0x1_0000, 0x10_FFFF, 0x11_0000,
            ] {
                let mut units = vec![u32::from(b'a') + lane; 40];
                units[lane as usize] = wide;
                units[lane as usize + 17] = wide;
                // At every storage width the code point fits: each width has its own block
                // step (see `utf8_bmp`).
                let what = format!("lane {lane} {wide:#x}");
                encodes_at::<u32>(&units, &what);
                encodes_at::<u16>(&units, &what);
                encodes_at::<u8>(&units, &what);
            }
        }
    }

    /// Code points mostly ASCII (so whole blocks take the fast path), some wide, some
    /// surrogates, some the widest, some beyond U+10FFFF (not from `CPython`, but checked).
    fn unit() -> impl Strategy<Value = u32> {
        prop_oneof![
            12 => 0u32..0x80,
            2 => 0x80u32..0x800,
            2 => 0x800u32..0x1_0000,
            1 => 0x1_0000u32..0x11_0000,
            1 => 0x11_0000u32..=u32::MAX,
        ]
    }

    /// Code points below U+10000 and not surrogates, of every UTF-8 length: the blocks the
    /// eight-at-a-time step takes (see `utf8_bmp`).
    fn bmp_unit() -> impl Strategy<Value = u32> {
        prop_oneof![
            4 => 0u32..0x80,
            2 => 0x80u32..0x800,
            1 => 0x800u32..0xD800,
            1 => 0xE000u32..0x1_0000,
        ]
    }

    /// Code points below U+0800, one or two bytes of UTF-8: the blocks the sixteen-at-a-time
    /// step takes (see `utf8_bmp::two16`).
    fn two_byte_unit() -> impl Strategy<Value = u32> {
        prop_oneof![3 => 0u32..0x80, 1 => 0x80u32..0x100, 1 => 0x100u32..0x800]
    }

    proptest! {
        #[test]
        fn blocks_below_u0800_encode_as_rust_does(
            units in prop::collection::vec(two_byte_unit(), 16..100),
        ) {
            check_every_width(&units)?;
        }

        #[test]
        fn blocks_below_u10000_encode_as_rust_does(
            units in prop::collection::vec(bmp_unit(), 16..100),
        ) {
            check_every_width(&units)?;
        }

        #[test]
        fn every_width_encodes_as_rust_does(units in prop::collection::vec(unit(), 0..80)) {
            check_every_width(&units)?;
        }

        #[test]
        fn long_ascii_runs_encode_as_rust_does(units in runs()) {
            check_every_width(&units)?;
        }

        #[test]
        fn a_block_step_agrees_with_the_scalar_one(units in prop::collection::vec(unit(), 16)) {
            check_block(&units)?;
            let narrow: Vec<u16> = units.iter().map(|&u| u as u16).collect();
            check_block(&narrow)?;
            let latin1: Vec<u8> = units.iter().map(|&u| u as u8).collect();
            check_block(&latin1)?;
        }
    }
}
