//! Byte offsets to character offsets, for hosts (like Python) that index strings by code point.

/// Number of code points in UTF-8 `bytes` (a slice cut inside a character counts the
/// character's first byte): every byte but a continuation byte (`10xxxxxx`) starts a
/// character. Counted in blocks of [`BLOCK`] bytes into a `u8`, a shape the compiler turns
/// into a compare and a subtract of 16-byte vectors: the engine counts every byte it passes
/// over (prose and calls). Blocks of 255 bytes left 15 of each to a byte-at-a-time tail (0.58
/// instructions a byte of ASCII prose, 0.47 with blocks of 240); the eight-bytes-at-a-time
/// loop before those ran at a fifth of `memchr`'s speed.
///
/// Past [`COUNTER_MIN_BYTES`] it is the counter a host installed ([`use_char_counter`]), if
/// any.
#[must_use]
pub fn char_count(bytes: &[u8]) -> usize {
    if bytes.len() >= COUNTER_MIN_BYTES {
        if let Some(count) = COUNTER.get() {
            return count(bytes);
        }
    }
    portable_char_count(bytes)
}

/// A counter of code points a host installed (see [`use_char_counter`]).
static COUNTER: std::sync::OnceLock<fn(&[u8]) -> usize> = std::sync::OnceLock::new();

/// Inputs shorter than this are counted here: a call through the installed counter costs more
/// than its vectors save on a few bytes.
pub const COUNTER_MIN_BYTES: usize = 64;

/// Makes [`char_count`] count inputs of [`COUNTER_MIN_BYTES`] or more with `count`, which
/// must give what [`portable_char_count`] gives for every input; the first one installed
/// stays. For a host that can use wider vector instructions than the core is built for: the
/// core has no unsafe code, so it cannot pick them at run time itself, and it counts every
/// byte it passes over (the engine's character offsets), ~3% of a sentinel batch's
/// instructions at 0.47 a byte.
pub fn use_char_counter(count: fn(&[u8]) -> usize) {
    let _ = COUNTER.set(count);
}

/// [`char_count`] without an installed counter.
#[must_use]
pub fn portable_char_count(bytes: &[u8]) -> usize {
    bytes
        .chunks(BLOCK)
        .map(|block| {
            // `b as i8 >= -64`: not a continuation byte (`0x80..=0xBF`).
            #[allow(clippy::cast_possible_wrap)]
            let starts = block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b as i8 >= -64)));
            usize::from(starts)
        })
        .sum()
}

/// Bytes [`char_count`] counts into one `u8`: at most 255, and a multiple of 16.
const BLOCK: usize = 240;

/// Converts UTF-8 byte offsets of one text into code-point offsets.
///
/// Queries in ascending order cost O(total distance moved); an earlier offset restarts from
/// the beginning. ASCII text (the common case) converts in O(1).
#[derive(Debug)]
pub struct CharIndex<'a> {
    bytes: &'a [u8],
    ascii: bool,
    byte_pos: usize,
    char_pos: usize,
}

impl<'a> CharIndex<'a> {
    /// An index over `text`.
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Self {
            bytes: text.as_bytes(),
            ascii: text.is_ascii(),
            byte_pos: 0,
            char_pos: 0,
        }
    }

    /// The code-point offset of byte offset `byte` (clamped to the text's length). An offset
    /// inside a multi-byte character maps to the character after it.
    pub fn char_offset(&mut self, byte: usize) -> usize {
        let byte = byte.min(self.bytes.len());
        if self.ascii {
            return byte;
        }
        if byte < self.byte_pos {
            self.byte_pos = 0;
            self.char_pos = 0;
        }
        let between = &self.bytes[self.byte_pos..byte];
        // Every byte that is not a continuation byte (10xxxxxx) starts a character.
        self.char_pos += char_count(between);
        self.byte_pos = byte;
        self.char_pos
    }
}

#[cfg(test)]
mod tests {
    use super::{char_count, CharIndex};

    #[test]
    fn char_count_matches_chars_for_every_cut() {
        let text = "aé{x}😀[日本語] plain ascii text, and more é😀 at the end";
        for a in 0..=text.len() {
            for b in a..=text.len() {
                if text.is_char_boundary(a) && text.is_char_boundary(b) {
                    assert_eq!(
                        char_count(&text.as_bytes()[a..b]),
                        text[a..b].chars().count()
                    );
                }
            }
        }
    }

    #[test]
    fn char_count_over_many_blocks() {
        // Long enough for several blocks of lane sums, all of one byte kind or mixed.
        for piece in ["é", "日", "😀", "a", "aé😀日"] {
            let text = piece.repeat(3000);
            for cut in (0..text.len())
                .step_by(97)
                .filter(|&c| text.is_char_boundary(c))
            {
                assert_eq!(
                    char_count(&text.as_bytes()[cut..]),
                    text[cut..].chars().count()
                );
            }
        }
    }

    #[test]
    fn ascii_and_multibyte() {
        let mut ix = CharIndex::new("abc");
        assert_eq!(ix.char_offset(2), 2);
        let text = "é{x}😀[";
        let mut ix = CharIndex::new(text);
        assert_eq!(ix.char_offset(2), 1);
        assert_eq!(ix.char_offset(5), 4);
        assert_eq!(ix.char_offset(9), 5);
        assert_eq!(ix.char_offset(1), 1);
        assert_eq!(ix.char_offset(100), 6);
    }
}
