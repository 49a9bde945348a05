//! The content of a one-shot parse (the text outside segments), kept as byte ranges of the
//! input wherever the engine hands over slices of it, which is nearly always: text it held
//! back (a possible marker that was not one) is the only text copied. A response without
//! calls, the common case in a corpus, is then never copied at all: the host can hand back
//! its own input object. Copying it used to cost three passes over the text (the `String`
//! grown by doubling, then the host's string built from it), and on a 24 MB response those
//! passes ran from memory rather than cache, 8x the time of a 6 MB one.

use std::borrow::Cow;

/// One run of content.
#[derive(Debug)]
enum Piece {
    /// Bytes `start..end` of the input.
    Input(usize, usize),
    /// Text that did not come from the input's own bytes.
    Owned(String),
}

impl Piece {
    fn text<'a>(&'a self, input: &'a str) -> &'a str {
        match self {
            Piece::Input(a, b) => input.get(*a..*b).unwrap_or_default(),
            Piece::Owned(s) => s,
        }
    }
}

/// Content gathered from slices, most of them the input's own.
#[derive(Debug)]
pub(crate) struct Content {
    /// Address and length of the input, to tell its slices from other text. Only compared,
    /// never dereferenced: the bytes are read back from the input itself in [`Self::resolve`].
    base: usize,
    len: usize,
    pieces: Vec<Piece>,
}

impl Content {
    pub(crate) fn over(input: &str) -> Self {
        Self {
            base: input.as_ptr() as usize,
            len: input.len(),
            pieces: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let at = (text.as_ptr() as usize).wrapping_sub(self.base);
        // The input is borrowed for the whole parse, so no other live buffer can share its
        // addresses: a slice inside its range is a slice of it.
        if at < self.len && text.len() <= self.len - at {
            let end = at + text.len();
            if let Some(Piece::Input(_, last)) = self.pieces.last_mut() {
                if *last == at {
                    *last = end;
                    return;
                }
            }
            self.pieces.push(Piece::Input(at, end));
        } else if let Some(Piece::Owned(last)) = self.pieces.last_mut() {
            last.push_str(text);
        } else {
            self.pieces.push(Piece::Owned(text.to_owned()));
        }
    }

    /// The content, given the input it was gathered over; borrowed when it is one run of the
    /// input (all of it when the text held no segment), else built once at its exact size.
    pub(crate) fn resolve(self, input: &str) -> Cow<'_, str> {
        match self.pieces.as_slice() {
            [] => Cow::Borrowed(""),
            [Piece::Input(a, b)] => Cow::Borrowed(input.get(*a..*b).unwrap_or_default()),
            pieces => {
                let size = pieces.iter().map(|p| p.text(input).len()).sum();
                let mut out = String::with_capacity(size);
                for p in pieces {
                    out.push_str(p.text(input));
                }
                Cow::Owned(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_the_input_are_borrowed_and_merged() {
        let input = "hello world";
        let mut c = Content::over(input);
        c.push(&input[..5]);
        c.push(&input[5..]);
        assert!(matches!(c.resolve(input), Cow::Borrowed("hello world")));
    }

    #[test]
    fn other_text_is_copied_in_order() {
        let input = "ab<x>cd";
        let held = String::from("<y");
        let mut c = Content::over(input);
        c.push(&input[..2]);
        c.push(&held);
        c.push(&input[5..]);
        c.push("");
        assert_eq!(c.resolve(input), "ab<ycd");
        assert_eq!(Content::over(input).resolve(input), "");
    }

    #[test]
    fn a_gap_in_the_input_is_two_pieces() {
        let input = "a<x>b";
        let mut c = Content::over(input);
        c.push(&input[..1]);
        c.push(&input[4..]);
        assert_eq!(c.resolve(input), "ab");
    }
}
