//! Streams a string value through an [`ArgsWriter`] one line at a time.
//!
//! `ArgumentDelta` and `ArgumentsJsonDelta` events alternate, so adjacent-delta merging
//! cannot make chunk-sized pieces of a value equal to one whole piece. Flushing at content
//! boundaries instead (after each newline, and when the value ends) makes the events the same
//! for every chunking while values still stream line by line.

use super::super::args_writer::ArgsWriter;
use super::super::Sink;

/// Value text waiting for the end of its line; see the module docs.
#[derive(Debug, Default)]
pub struct LineFlush {
    pending: String,
}

impl LineFlush {
    /// Adds decoded text of the open string value, writing out every completed line.
    pub fn push(&mut self, mut text: &str, args: &mut ArgsWriter, sink: &mut Sink) {
        while let Some(nl) = text.find('\n') {
            self.pending.push_str(&text[..=nl]);
            args.string_text(&self.pending, sink);
            self.pending.clear();
            text = &text[nl + 1..];
        }
        self.pending.push_str(text);
    }

    /// Writes out what is pending (call before the value ends).
    pub fn flush(&mut self, args: &mut ArgsWriter, sink: &mut Sink) {
        args.string_text(&self.pending, sink);
        self.pending.clear();
    }

    /// Forgets what is pending.
    pub fn clear(&mut self) {
        self.pending.clear();
    }
}
