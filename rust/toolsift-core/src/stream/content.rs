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
    /// Bytes `.0` and characters `.1` of the input (`start..end` each).
    Input((usize, usize), (usize, usize)),
    /// Text that did not come from the input's own bytes.
    Owned(String),
}

impl Piece {
    fn text<'a>(&'a self, input: &'a str) -> &'a str {
        match self {
            Piece::Input((a, b), _) => input.get(*a..*b).unwrap_or_default(),
            Piece::Owned(s) => s,
        }
    }
}

/// The content of a one-shot parse of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content<'t> {
    /// The text of the text segments, in order; borrowed when it is one run of the input.
    pub text: Cow<'t, str>,
    /// The character range of the input that `text` is, when it is one run of it: a host
    /// holding the text in its own form can slice it rather than convert `text`.
    pub run: Option<(usize, usize)>,
}

/// Content gathered from slices, most of them the input's own.
#[derive(Debug)]
pub(crate) struct Pieces {
    /// Address and length of the input, to tell its slices from other text. Only compared,
    /// never dereferenced: the bytes are read back from the input itself in [`Self::resolve`].
    base: usize,
    len: usize,
    runs: Vec<Piece>,
}

impl Pieces {
    pub(crate) fn over(input: &str) -> Self {
        Self {
            base: input.as_ptr() as usize,
            len: input.len(),
            // A text with calls has a run before and after each: room for a few up front
            // (growing a vector from empty takes its slow path).
            runs: Vec::with_capacity(4),
        }
    }

    /// Empties it for a parse of `input`, keeping its room.
    pub(crate) fn restart(&mut self, input: &str) {
        self.base = input.as_ptr() as usize;
        self.len = input.len();
        self.runs.clear();
    }

    /// Appends `text`, which is characters `chars` of the input if it is a slice of it.
    pub(crate) fn push(&mut self, text: &str, chars: (usize, usize)) {
        if text.is_empty() {
            return;
        }
        let at = (text.as_ptr() as usize).wrapping_sub(self.base);
        // The input is borrowed for the whole parse, so no other live buffer can share its
        // addresses: a slice inside its range is a slice of it.
        if at < self.len && text.len() <= self.len - at {
            let end = at + text.len();
            if let Some(Piece::Input(bytes, run)) = self.runs.last_mut() {
                if bytes.1 == at {
                    bytes.1 = end;
                    run.1 = chars.1;
                    return;
                }
            }
            self.runs.push(Piece::Input((at, end), chars));
        } else if let Some(Piece::Owned(last)) = self.runs.last_mut() {
            last.push_str(text);
        } else {
            self.runs.push(Piece::Owned(text.to_owned()));
        }
    }

    /// How many runs the content is made of so far.
    pub(crate) fn pieces(&self) -> usize {
        self.runs.len()
    }

    /// The character ranges of the input the content is made of, when it is made of the
    /// input's own text only (no text the engine held back and gave up) and spans at least
    /// `min_bytes`; `None` otherwise. A host that holds the input in its own form can then
    /// build the content from those ranges, when it is read, instead of copying it now.
    pub(crate) fn char_runs(&self, min_bytes: usize) -> Option<Vec<(usize, usize)>> {
        let mut bytes = 0;
        let mut runs = Vec::with_capacity(self.runs.len());
        for piece in &self.runs {
            match piece {
                Piece::Input((a, b), chars) => {
                    bytes += b - a;
                    runs.push(*chars);
                }
                Piece::Owned(_) => return None,
            }
        }
        (bytes >= min_bytes).then_some(runs)
    }

    /// The content, given the input it was gathered over; borrowed when it is one run of the
    /// input (all of it when the text held no segment), else built once at its exact size.
    pub(crate) fn resolve<'t>(&self, input: &'t str) -> Content<'t> {
        match self.runs.as_slice() {
            [] => Content {
                text: Cow::Borrowed(""),
                run: None,
            },
            [Piece::Input((a, b), run)] => Content {
                text: Cow::Borrowed(input.get(*a..*b).unwrap_or_default()),
                run: Some(*run),
            },
            pieces => {
                let size = pieces.iter().map(|p| p.text(input).len()).sum();
                let mut out = String::with_capacity(size);
                for p in pieces {
                    out.push_str(p.text(input));
                }
                Content {
                    text: Cow::Owned(out),
                    run: None,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_the_input_are_borrowed_and_merged() {
        let input = "héllo world";
        let mut c = Pieces::over(input);
        c.push(&input[..6], (0, 5));
        c.push(&input[6..], (5, 11));
        let content = c.resolve(input);
        assert!(matches!(content.text, Cow::Borrowed("héllo world")));
        assert_eq!(content.run, Some((0, 11)));
    }

    #[test]
    fn other_text_is_copied_in_order() {
        let input = "ab<x>cd";
        let held = String::from("<y");
        let mut c = Pieces::over(input);
        c.push(&input[..2], (0, 2));
        c.push(&held, (2, 4));
        c.push(&input[5..], (5, 7));
        c.push("", (7, 7));
        let content = c.resolve(input);
        assert_eq!((content.text.as_ref(), content.run), ("ab<ycd", None));
        assert_eq!(Pieces::over(input).resolve(input).text, "");
    }

    #[test]
    fn a_gap_in_the_input_is_two_pieces() {
        let input = "a<x>b";
        let mut c = Pieces::over(input);
        c.push(&input[..1], (0, 1));
        c.push(&input[4..], (4, 5));
        assert_eq!(c.resolve(input).text, "ab");
    }
}
