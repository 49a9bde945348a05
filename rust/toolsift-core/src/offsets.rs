//! Byte offsets to character offsets, for hosts (like Python) that index strings by code point.

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
        self.char_pos += between.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        self.byte_pos = byte;
        self.char_pos
    }
}

#[cfg(test)]
mod tests {
    use super::CharIndex;

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
