//! Counting the code points of UTF-8 with AVX2, installed as the core's counter
//! (`toolsift_core::offsets::use_char_counter`) when the CPU has it: the core counts every byte
//! the engine passes over, prose and calls, with 16-byte vectors (0.47 instructions a byte);
//! this counts 64 bytes a step, and the last bytes in one masked step.
#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_extract_epi64, _mm256_loadu_si256,
    _mm256_sad_epu8, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_sub_epi8,
};

use toolsift_core::offsets::portable_char_count;

/// Installs [`count`] as the core's counter when the CPU has AVX2.
pub(crate) fn install() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        toolsift_core::offsets::use_char_counter(count);
    }
}

/// The code points of `bytes`, as `portable_char_count` counts them.
pub(crate) fn count(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above; the check is cached by `std`).
        return unsafe { count_avx2(bytes) };
    }
    portable_char_count(bytes)
}

/// Masks for the last bytes of an input: `TAIL[k..k + 32]` keeps the last `k` of 32 lanes.
#[cfg(target_arch = "x86_64")]
static TAIL: [u8; 64] = {
    let mut mask = [0u8; 64];
    let mut k = 32;
    while k < 64 {
        mask[k] = 0xFF;
        k += 1;
    }
    mask
};

/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_ptr_alignment)] // the loads are unaligned ones
unsafe fn count_avx2(bytes: &[u8]) -> usize {
    let n = bytes.len();
    if n < 32 {
        return portable_char_count(bytes);
    }
    // A byte starts a code point unless it is a continuation byte, `0x80..=0xBF`: as a signed
    // byte, greater than -65. A compare gives -1 where true: subtracting it adds one.
    let first = _mm256_set1_epi8(-65);
    let starts = |at: usize| {
        // SAFETY: the callers below read 32 bytes from `at` within `bytes`.
        let v = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(at).cast::<__m256i>()) };
        _mm256_cmpgt_epi8(v, first)
    };
    let mut total = 0;
    let mut lanes = _mm256_setzero_si256();
    let mut at = 0;
    // Runs of up to 127 steps of 64 bytes: a lane gains at most two a step, so it stays
    // below 256 within a run.
    while at + 64 <= n {
        let steps = ((n - at) / 64).min(127);
        let (mut a, mut b) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for _ in 0..steps {
            a = _mm256_sub_epi8(a, starts(at));
            b = _mm256_sub_epi8(b, starts(at + 32));
            at += 64;
        }
        total += lane_sum(a) + lane_sum(b);
    }
    if at + 32 <= n {
        lanes = _mm256_sub_epi8(lanes, starts(at));
        at += 32;
    }
    let left = n - at;
    if left > 0 {
        // The last 32 bytes again, only the `left` not counted yet kept.
        // SAFETY: `TAIL` has 64 bytes and `left < 32`.
        let keep = unsafe { _mm256_loadu_si256(TAIL.as_ptr().add(left).cast::<__m256i>()) };
        lanes = _mm256_sub_epi8(lanes, _mm256_and_si256(starts(n - 32), keep));
    }
    total + lane_sum(lanes)
}

/// The sum of the 32 byte lanes of `lanes`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lane_sum(lanes: __m256i) -> usize {
    let sums = _mm256_sad_epu8(lanes, _mm256_setzero_si256());
    let four = [
        _mm256_extract_epi64::<0>(sums),
        _mm256_extract_epi64::<1>(sums),
        _mm256_extract_epi64::<2>(sums),
        _mm256_extract_epi64::<3>(sums),
    ];
    // Each at most 8 * 255.
    four.iter().map(|&s| usize::try_from(s).unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes of every kind, valid UTF-8 or not (the count is defined for any bytes).
    fn byte() -> impl Strategy<Value = u8> {
        prop_oneof![4 => 0u8..0x80, 2 => 0x80u8..0xC0, 1 => 0xC0u8..=0xFF]
    }

    proptest! {
        // Inputs up to 20 KB, past two runs of 127 steps: fewer cases than the default 256.
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn counts_as_the_core_does(bytes in prop::collection::vec(byte(), 0..20_000)) {
            prop_assert_eq!(count(&bytes), portable_char_count(&bytes));
            for cut in [1, 31, 32, 33, 63, 64, 65, 96, 127 * 64, 127 * 64 + 33] {
                let part = &bytes[..bytes.len().min(cut)];
                prop_assert_eq!(count(part), portable_char_count(part));
            }
        }
    }

    #[test]
    fn long_runs_of_one_kind() {
        // Past 127 steps, each lane at its most.
        for text in ["a", "é", "日", "😀"] {
            let text = text.repeat(30_000);
            assert_eq!(count(text.as_bytes()), text.chars().count());
        }
        let continuation = vec![0x80u8; 20_000];
        assert_eq!(count(&continuation), 0);
    }
}
