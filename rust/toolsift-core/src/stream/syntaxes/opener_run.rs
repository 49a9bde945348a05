//! A run of `{` (blanks between them allowed) read as one piece of text by the bare-JSON
//! syntaxes, whose start marker is `{` itself.
//!
//! A `{` followed by another `{` cannot begin a call object (a key or `}` must come first), so
//! it is text; read one at a time, each of them would open a segment of its own, and a million
//! `{` would make a million candidate segments, each ending a text segment and starting the
//! next (three events apiece, kept in memory until a one-shot parse ends). The run is instead
//! one segment, rejected as text in one step. Only its last `{` may still open a call: when
//! the byte after it (and its blanks) could continue an object, that `{` and its blanks are
//! given back and read again. The decision depends only on the bytes, never on how the text
//! was chunked, so streaming and one-shot parses give the same events.

use super::super::Step;

/// Bytes one run takes at most before the rest is read as a new run: the run is buffered as
/// the open segment's text, which must stay far below the engine's segment limit.
pub const MAX_RUN: usize = 1 << 20;

/// Where a run stands: bytes since its last `{` (blanks after it) and bytes taken in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Blanks after the run's last `{`.
    pub since_last: usize,
    /// Bytes of the run so far, its first `{` included.
    pub taken: usize,
}

/// Whether `b` may follow a `{` (after blanks) in a call object: a key's quote or `}`.
fn continues_object(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'}')
}

impl Run {
    /// The run that begins when a value read so far as `body` (a `{` and blanks) cannot go
    /// on at `next` because it is another `{`; `None` for any other value or byte.
    #[must_use]
    pub fn after(body: &str, next: Option<&u8>) -> Option<Self> {
        let blanks = body.strip_prefix('{')?;
        (next == Some(&b'{') && blanks.bytes().all(|b| b.is_ascii_whitespace())).then_some(Self {
            since_last: blanks.len(),
            taken: body.len(),
        })
    }

    /// Reads `bytes` from `i`: the step that ends the run, or `None` when all were taken.
    pub fn feed(&mut self, bytes: &[u8], mut i: usize) -> Option<Step> {
        while let Some(&b) = bytes.get(i) {
            if b == b'{' {
                if self.taken >= MAX_RUN {
                    // The `{` before this one is text; this one starts the next run.
                    return Some(Step::RejectAsText {
                        used: i,
                        give_back: 0,
                    });
                }
                self.since_last = 0;
            } else if b.is_ascii_whitespace() {
                self.since_last += 1;
            } else {
                // The last `{` may open a call only if this byte could continue it.
                let give_back = if continues_object(b) {
                    self.since_last + 1
                } else {
                    0
                };
                return Some(Step::RejectAsText { used: i, give_back });
            }
            self.taken += 1;
            i += 1;
        }
        None
    }
}
