//! The encoder's step for a block of code points that are not all ASCII but all below
//! U+10000 (and not surrogates): eight at a time written as UTF-8 with AVX2, without a
//! branch per code point; sixteen at a time when all are below U+0800 (see [`two16`]).
//!
//! The scalar step it replaced wrote each wide code point in turn, with a branch on its
//! length and one to leave the loop: in text that mixes `é` and `日` those branches go either
//! way, and callgrind's branch simulation put a fifth of a sentinel batch's mispredicted
//! branches in the encoder (1.5 a wide code point). Here each of eight 32-bit lanes gets its
//! code point's UTF-8 bytes (one to three) and each half of four lanes is packed by a byte
//! shuffle picked from a table by which lanes are 2 and 3 bytes long.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_ps, _mm256_castsi256_si128,
    _mm256_cmpeq_epi16, _mm256_cmpeq_epi32, _mm256_cmpgt_epi16, _mm256_cmpgt_epi32,
    _mm256_cvtepu16_epi32, _mm256_cvtepu8_epi16, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_min_epu32, _mm256_movemask_epi8, _mm256_movemask_ps, _mm256_or_si256,
    _mm256_packs_epi16, _mm256_packus_epi16, _mm256_packus_epi32, _mm256_permute4x64_epi64,
    _mm256_permutevar8x32_epi32, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_slli_epi16, _mm256_slli_epi32, _mm256_srli_epi16, _mm256_srli_epi32, _mm256_testz_si256,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_shuffle_epi8, _mm_storeu_si128,
};

/// For the lanes of one 128-bit half, each of whose UTF-8 lengths an index gives (see
/// [`Lanes`]), the shuffle that packs each lane's first bytes one after another, and the
/// count of bytes packed.
struct Pack {
    shuffles: [[u8; 16]; 256],
    lengths: [u8; 256],
}

/// How an index of a [`Pack`] gives its lanes' lengths.
#[derive(Clone, Copy)]
enum Lanes {
    /// Four 32-bit lanes: bit `k` set when lane `k` is 2 bytes or more, bit `4 + k` when 3
    /// (never without bit `k`).
    Four,
    /// Eight 16-bit lanes: bit `k` set when lane `k` is ASCII (1 byte), else 2 bytes.
    EightAscii,
}

impl Lanes {
    /// Lanes in a half, and bytes from one lane's start to the next.
    const fn shape(self) -> (usize, usize) {
        match self {
            Lanes::Four => (4, 4),
            Lanes::EightAscii => (8, 2),
        }
    }

    /// The UTF-8 length of lane `lane` under `index`.
    const fn length(self, index: usize, lane: usize) -> usize {
        match self {
            Lanes::Four => 1 + ((index >> lane) & 1) + ((index >> (4 + lane)) & 1),
            Lanes::EightAscii => 2 - ((index >> lane) & 1),
        }
    }
}

static PACK: Pack = pack(Lanes::Four);
static PACK2: Pack = pack(Lanes::EightAscii);

const fn pack(lanes: Lanes) -> Pack {
    let mut table = Pack {
        shuffles: [[0x80; 16]; 256],
        lengths: [0; 256],
    };
    let (count, stride) = lanes.shape();
    let mut index = 0;
    while index < 256 {
        let mut out = 0;
        let mut lane = 0;
        while lane < count {
            let mut j = 0;
            while j < lanes.length(index, lane) {
                // At most 16 bytes in a half (4 lanes of 3 bytes, or 8 of 2): `out` stays
                // below 16, each byte below 16.
                table.shuffles[index][out] = (stride * lane + j) as u8;
                out += 1;
                j += 1;
            }
            lane += 1;
        }
        table.lengths[index] = out as u8;
        index += 1;
    }
    table
}

/// Each 128-bit half of `word` packed by `table`'s shuffle for its index (`low`, `high`) and
/// written at `to`, one after the other; returns the bytes written. Writes 16 bytes at each
/// of two places, the second at most 16 bytes past `to`.
///
/// # Safety
/// The CPU must have AVX2; `to` writable for 32 bytes; `low` and `high` below 256.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_packed(word: __m256i, table: &Pack, low: usize, high: usize, to: *mut u8) -> usize {
    let order = |index: usize| _mm_loadu_si128(table.shuffles[index].as_ptr().cast());
    _mm_storeu_si128(
        to.cast(),
        _mm_shuffle_epi8(_mm256_castsi256_si128(word), order(low)),
    );
    let n = usize::from(table.lengths[low]);
    _mm_storeu_si128(
        to.add(n).cast(),
        _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(word), order(high)),
    );
    n + usize::from(table.lengths[high])
}

/// Eight code points below U+10000, none a surrogate, one per 32-bit lane of `v`, written at
/// `to` as UTF-8; returns the bytes written (8 to 24). Writes 16 bytes at each of two places,
/// the second at most 12 bytes past `to`: `to` must be writable for 28 bytes.
///
/// # Safety
/// The CPU must have AVX2; `to` writable for 28 bytes.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_sign_loss)] // movemask of 8 lanes: 0..=255
pub(crate) unsafe fn bmp8(v: __m256i, to: *mut u8) -> usize {
    let ones = |k: i32| _mm256_set1_epi32(k);
    let two = _mm256_cmpgt_epi32(v, ones(0x7F));
    let three = _mm256_cmpgt_epi32(v, ones(0x7FF));
    let low6 = _mm256_and_si256(v, ones(0x3F));
    let mid6 = _mm256_and_si256(_mm256_srli_epi32::<6>(v), ones(0x3F));
    // The first byte: the code point itself, `110xxxxx` or `1110xxxx`.
    let lead2 = _mm256_or_si256(_mm256_srli_epi32::<6>(v), ones(0xC0));
    let lead3 = _mm256_or_si256(_mm256_srli_epi32::<12>(v), ones(0xE0));
    let lead = _mm256_blendv_epi8(_mm256_blendv_epi8(v, lead2, two), lead3, three);
    // The continuation bytes, read only for lanes that long.
    let second = _mm256_or_si256(_mm256_blendv_epi8(low6, mid6, three), ones(0x80));
    let third = _mm256_or_si256(low6, ones(0x80));
    let word = _mm256_or_si256(
        lead,
        _mm256_or_si256(
            _mm256_slli_epi32::<8>(second),
            _mm256_slli_epi32::<16>(third),
        ),
    );
    let two = _mm256_movemask_ps(_mm256_castsi256_ps(two)) as usize;
    let three = _mm256_movemask_ps(_mm256_castsi256_ps(three)) as usize;
    let low = (two & 0xF) | ((three & 0xF) << 4);
    let high = (two >> 4) | (three & 0xF0);
    store_packed(word, &PACK, low, high, to)
}

/// Sixteen code points below U+0800, one per 16-bit lane of `v` in order, written at `to` as
/// UTF-8 (one or two bytes each); returns the bytes written (16 to 32). Each lane gets its
/// two-byte form (or the code point itself when ASCII) and each half of eight lanes is
/// packed by a byte shuffle picked by which lanes are ASCII: ~20 instructions where two
/// [`bmp8`] steps took ~100 (Latin text with accents, 55% of a sentinel batch's blocks below
/// U+10000). Writes 16 bytes at each of two places, the second at most 16 bytes past `to`.
///
/// # Safety
/// The CPU must have AVX2; `to` writable for 32 bytes.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_sign_loss)] // movemask: its bits, not a signed value
pub(crate) unsafe fn two16(v: __m256i, to: *mut u8) -> usize {
    let ones = |k: i16| _mm256_set1_epi16(k);
    let ascii = _mm256_cmpgt_epi16(ones(0x80), v);
    // `110xxxxx` then `10xxxxxx`, as the low and high byte of each lane.
    let lead = _mm256_or_si256(_mm256_srli_epi16::<6>(v), ones(0xC0));
    let next = _mm256_or_si256(_mm256_and_si256(v, ones(0x3F)), ones(0x80));
    let two = _mm256_or_si256(lead, _mm256_slli_epi16::<8>(next));
    let word = _mm256_blendv_epi8(two, v, ascii);
    // Per 128-bit half, a byte per lane saying ASCII (each half's eight twice).
    let mask = _mm256_movemask_epi8(_mm256_packs_epi16(ascii, ascii)) as u32;
    let (low, high) = ((mask & 0xFF) as usize, ((mask >> 16) & 0xFF) as usize);
    store_packed(word, &PACK2, low, high, to)
}

/// What [`block16_u8`] and its kin did with a block of 16 code points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    /// All ASCII: written as 16 bytes.
    Ascii,
    /// All below U+10000 and none a surrogate: written as this many bytes of UTF-8.
    Bmp(usize),
    /// Some code point from U+10000, or a surrogate: nothing written.
    Other,
}

/// The 16 one-byte units at `from` written at `to` (every one is below U+0100).
///
/// # Safety
/// The CPU must have AVX2; `from` readable for 16 units, `to` writable for 48 bytes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn block16_u8(from: *const u8, to: *mut u8) -> Block {
    let v = _mm_loadu_si128(from.cast());
    if _mm_movemask_epi8(v) == 0 {
        _mm_storeu_si128(to.cast(), v);
        return Block::Ascii;
    }
    // Every one-byte unit is below U+0100.
    Block::Bmp(two16(_mm256_cvtepu8_epi16(v), to))
}

/// The 16 two-byte units at `from` written at `to`, unless one is a surrogate.
///
/// # Safety
/// The CPU must have AVX2; `from` readable for 16 units, `to` writable for 56 bytes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn block16_u16(from: *const u16, to: *mut u8) -> Block {
    let v = _mm256_loadu_si256(from.cast());
    let wide = |k: u16| _mm256_set1_epi16(i16::from_ne_bytes(k.to_ne_bytes()));
    if _mm256_testz_si256(v, wide(0xFF80)) == 1 {
        // Packed per 128-bit lane (each lane's units twice); the first copy of each put
        // together.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(v, v));
        _mm_storeu_si128(to.cast(), _mm256_castsi256_si128(packed));
        return Block::Ascii;
    }
    if _mm256_testz_si256(v, wide(0xF800)) == 1 {
        return Block::Bmp(two16(v, to));
    }
    let surrogate = _mm256_cmpeq_epi16(_mm256_and_si256(v, wide(0xF800)), wide(0xD800));
    if _mm256_testz_si256(surrogate, surrogate) == 0 {
        return Block::Other;
    }
    let n = bmp8(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)), to);
    let high = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(v));
    Block::Bmp(n + bmp8(high, to.add(n)))
}

/// The 16 four-byte units at `from` written at `to`, unless one is from U+10000 or a
/// surrogate.
///
/// # Safety
/// The CPU must have AVX2; `from` readable for 16 units, `to` writable for 56 bytes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn block16_u32(from: *const u32, to: *mut u8) -> Block {
    let (x, y) = (
        _mm256_loadu_si256(from.cast()),
        _mm256_loadu_si256(from.add(8).cast()),
    );
    let ones = |k: i32| _mm256_set1_epi32(k);
    if _mm256_testz_si256(_mm256_or_si256(x, y), ones(!0x7F)) == 1 {
        // Per 128-bit lane the packs leave four units of x, then four of y (twice); the
        // 32-bit groups x0-3, x4-7, y0-3, y4-7 are put first.
        let packed = _mm256_packus_epi16(_mm256_packus_epi32(x, y), _mm256_packus_epi32(x, y));
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let packed = _mm256_permutevar8x32_epi32(packed, order);
        _mm_storeu_si128(to.cast(), _mm256_castsi256_si128(packed));
        return Block::Ascii;
    }
    if _mm256_testz_si256(_mm256_or_si256(x, y), ones(!0x7FF)) == 1 {
        // Per 128-bit lane the pack leaves four units of x, then four of y; the 64-bit
        // groups x0-3, x4-7, y0-3, y4-7 are put in order.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(x, y));
        return Block::Bmp(two16(packed, to));
    }
    let bad = |v: __m256i| {
        // Unsigned: units past `i32::MAX` (not from `CPython`, but checked) are too wide.
        let wide = _mm256_cmpeq_epi32(_mm256_min_epu32(v, ones(0x1_0000)), ones(0x1_0000));
        let surrogate = _mm256_cmpeq_epi32(_mm256_and_si256(v, ones(!0x7FF)), ones(0xD800));
        _mm256_or_si256(wide, surrogate)
    };
    let any = _mm256_or_si256(bad(x), bad(y));
    if _mm256_testz_si256(any, any) == 0 {
        return Block::Other;
    }
    let n = bmp8(x, to);
    Block::Bmp(n + bmp8(y, to.add(n)))
}
