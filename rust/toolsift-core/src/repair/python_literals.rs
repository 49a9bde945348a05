//! A probe for Python's `True`, `False` and `None` where a JSON value would be: the breakage
//! of a model that writes a Python dict, which [`surely_not_json`](super::surely_not_json)
//! sees only in the opening bytes it tokenizes. A strict parser that meets one deep in the
//! document has built everything before it for nothing, then raises; in Python that refusal
//! cost 7.8 us a document on the benchmark corpus, against 4.5 us for the repair and load.
//!
//! Unlike the quick check this is not a proof: a JSON string may hold `"x: True, y"`. A hit
//! sends the document to repair, which gives a valid document's value unchanged, so a wrong
//! hit costs time, never a different value.

use memchr::memchr3_iter;

/// True when `text` has `True`, `False` or `None` as a whole word right after `:`, `,` or
/// `[` (blanks between allowed): where a JSON value starts, outside a string if the text is
/// JSON. Each capital `T`, `F` or `N` is found with a vectorized search and checked in a few
/// bytes around it, so the cost is a fraction of a strict parse of the same text.
#[must_use]
pub fn python_literal_value(text: &[u8]) -> bool {
    memchr3_iter(b'T', b'F', b'N', text).any(|at| literal_value_at(text, at))
}

/// `text[at..]` starts a Python literal in value position (see [`python_literal_value`]).
fn literal_value_at(text: &[u8], at: usize) -> bool {
    let rest = text.get(at..).unwrap_or_default();
    let word = [b"True".as_slice(), b"False", b"None"]
        .into_iter()
        .find(|w| rest.starts_with(w));
    let Some(word) = word else {
        return false;
    };
    if rest
        .get(word.len())
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return false;
    }
    let before = text.get(..at).unwrap_or_default();
    let last = before
        .iter()
        .rposition(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
    last.is_some_and(|p| matches!(before[p], b':' | b',' | b'['))
}

#[cfg(test)]
mod tests {
    use super::python_literal_value;

    #[test]
    fn finds_literals_in_value_position() {
        for text in [
            "{\"a\": True}",
            "{\"a\":False, \"b\": 1}",
            "[1,\n  None]",
            "[None]",
            "{\"a\": 1, \"b\": [true, False ]}",
        ] {
            assert!(python_literal_value(text.as_bytes()), "{text:?}");
        }
    }

    #[test]
    fn ignores_other_words_and_positions() {
        for text in [
            "{\"a\": true, \"b\": null}",
            "{\"a\": \"The end\", \"Note\": \"Nonetheless\"}",
            "{\"a\": \"x Truely\"}",
            "[Trues, None_x, Falsey]",
            "{\"a\": \"is None\"}",
            "Truе", // a Cyrillic e: not the word
            "None", // nothing before it: a lone value is the top-level scalar, not a member
            "",
        ] {
            assert!(!python_literal_value(text.as_bytes()), "{text:?}");
        }
    }
}
