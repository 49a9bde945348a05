//! Whether a JSON text may hold an integer too big for 64 bits, for hosts whose fast parser
//! turns such integers into floats.

/// True when `text` has a run of at least 19 ASCII digits: an integer that may not fit 64
/// bits. Checks eight bytes at a time, twelve bytes apart: a run of 19 digits holds a whole
/// 8-byte window starting at any of its first 12 offsets, so one of the windows falls in it.
#[must_use]
pub fn has_long_digit_run(text: &[u8]) -> bool {
    const MIN_RUN: usize = 19;
    const STRIDE: usize = MIN_RUN + 1 - 8;
    let all_digits = |w: u64| {
        (w & 0xF0F0_F0F0_F0F0_F0F0) == 0x3030_3030_3030_3030
            && ((w.wrapping_add(0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0)
                == 0x3030_3030_3030_3030
    };
    let is_digit = |b: &u8| b.is_ascii_digit();
    let mut at = 0;
    while let Some(chunk) = text.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if all_digits(u64::from_le_bytes(word)) {
            let left = text[..at].iter().rev().take_while(|b| is_digit(b)).count();
            let right = text[at..].iter().take_while(|b| is_digit(b)).count();
            if left + right >= MIN_RUN {
                return true;
            }
            // The byte after this run is not a digit: the next run starts after it.
            at += right + 1;
        } else {
            at += STRIDE;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_digit_runs() {
        assert!(has_long_digit_run(b"{\"n\": 1234567890123456789}"));
        assert!(!has_long_digit_run(b"{\"n\": 123456789012345678}"));
        assert!(has_long_digit_run(b"x123456789012345678901234567890"));
        assert!(!has_long_digit_run(b"12345678 12345678 12345678"));
        for shift in 0..40 {
            let prefix = "12 ".repeat(shift);
            for len in [8, 18, 19, 25] {
                for tail in ["", " ", "x1234567"] {
                    let text = format!("{}-{}{tail}", &prefix[..shift], "9".repeat(len));
                    assert_eq!(has_long_digit_run(text.as_bytes()), len >= 19, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn long_digit_runs_match_a_plain_count() {
        // Mostly digits, so that runs of every length and position come up.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..3000 {
            let mut text = Vec::new();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            for _ in 0..(state >> 58) + (state >> 60) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                text.push(if state >> 60 < 14 { b'7' } else { b',' });
            }
            let plain = text
                .split(|c| !c.is_ascii_digit())
                .any(|run| run.len() >= 19);
            assert_eq!(
                has_long_digit_run(&text),
                plain,
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}
