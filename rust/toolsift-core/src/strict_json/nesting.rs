//! The reader's stack: whether each open level is an object or an array.

/// Levels kept as bits of one word.
const BITS: usize = 128;

/// Object (`true`) or array per open level, innermost last. The first [`BITS`] levels are bits
/// of one word, deeper ones a vector: every reader made a vector for its stack, and a
/// sentinel header or a small call is read by a reader of its own, so that was an allocation
/// (and a free) per segment for documents that rarely nest past a few levels.
#[derive(Debug, Default, Clone)]
pub(super) struct Nesting {
    bits: u128,
    len: usize,
    deeper: Vec<bool>,
}

impl Nesting {
    /// Open levels.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Opens a level: an object when `object`, else an array.
    pub(super) fn push(&mut self, object: bool) {
        if self.len < BITS {
            let bit = 1u128 << self.len;
            self.bits = if object {
                self.bits | bit
            } else {
                self.bits & !bit
            };
        } else {
            self.deeper.push(object);
        }
        self.len += 1;
    }

    /// Closes the innermost level (none: nothing happens).
    pub(super) fn pop(&mut self) {
        if self.len == 0 {
            return;
        }
        self.len -= 1;
        if self.len >= BITS {
            self.deeper.pop();
        }
    }

    /// Whether the innermost level is an object (`None`: no level is open).
    pub(super) fn last(&self) -> Option<bool> {
        let top = self.len.checked_sub(1)?;
        if top < BITS {
            Some((self.bits >> top) & 1 == 1)
        } else {
            self.deeper.last().copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Nesting;
    use proptest::prelude::*;

    proptest! {
        /// Any run of opens and closes, across the word's end: what a vector would say.
        #[test]
        fn behaves_as_a_vector(ops in prop::collection::vec(
            prop_oneof![3 => any::<bool>().prop_map(Some), 1 => Just(None)], 0..400)
        ) {
            let (mut nesting, mut vector) = (Nesting::default(), Vec::new());
            for op in ops {
                if let Some(object) = op {
                    nesting.push(object);
                    vector.push(object);
                } else {
                    nesting.pop();
                    vector.pop();
                }
                prop_assert_eq!(nesting.len(), vector.len());
                prop_assert_eq!(nesting.is_empty(), vector.is_empty());
                prop_assert_eq!(nesting.last(), vector.last().copied());
            }
        }
    }

    #[test]
    fn a_level_past_the_word_and_back() {
        let mut nesting = Nesting::default();
        for k in 0..300 {
            nesting.push(k % 3 == 0);
        }
        for k in (0..300).rev() {
            assert_eq!(nesting.last(), Some(k % 3 == 0), "level {k}");
            nesting.pop();
        }
        assert_eq!(nesting.last(), None);
        nesting.pop();
        assert!(nesting.is_empty());
    }
}
