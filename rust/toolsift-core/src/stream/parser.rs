//! What a syntax plugs into the engine: its [`SegmentParser`], how a segment ended
//! ([`Outcome`]) and how far a feed got ([`Step`]), and the [`Syntax`] that names it.

use super::KnownTools;
use super::Sink;
use std::sync::Arc;

/// How a segment ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    /// `(name, arguments JSON text, repair kinds)` when the segment is a call.
    pub call: Option<(String, String, Vec<&'static str>)>,
    /// `(kind, message)` when something went wrong or was odd.
    pub issue: Option<(&'static str, String)>,
}

/// What a segment parser did with its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// It consumed all the input and needs more.
    NeedMore,
    /// The segment ended after `used` bytes of this input, less the last `give_back` bytes
    /// the parser had taken provisionally (say, blanks it hoped an end marker would follow),
    /// which the engine reads again as what follows the segment. A segment that never called
    /// [`Sink::start`] and ends with neither call nor issue was framing only: it is dropped
    /// without a trace (neither text nor a segment).
    Done {
        /// Bytes of this input taken by the segment.
        used: usize,
        /// Bytes at the end of the segment's text that are not part of it after all.
        give_back: usize,
        /// The call or issue.
        outcome: Outcome,
    },
    /// It was not a segment after all: its first character is text, and the engine reads
    /// everything after that character again (bounded by how early parsers decide).
    Reject,
    /// It was not a segment, and everything it consumed (plus `used` bytes of this input) is
    /// plain text that holds no marker (for example a JSON object that is not a call), less
    /// the last `give_back` bytes, which the engine reads again (a run of `{` is text except
    /// its last one, which may open a call).
    RejectAsText {
        /// Bytes of this input that belong to the rejected text.
        used: usize,
        /// Bytes at the end of the segment's text that are read again (never its first
        /// character).
        give_back: usize,
    },
    /// The segment ended after `used` bytes of this input (like `Done` without `give_back`),
    /// and the same parser goes on at once with a new segment, which starts right there and
    /// has no marker of its own (so the parser must not `Reject` it): one segment per element
    /// of a JSON array of calls.
    Split {
        /// Bytes of this input taken by the ending segment.
        used: usize,
        /// The ending segment's call or issue.
        outcome: Outcome,
    },
}

impl Step {
    /// This step with its `used` and `give_back` counts mapped by `f` (`give_back` is 0 for a
    /// `Split`, which has none): for a parser that feeds another one input that starts
    /// elsewhere than its own (see `sniff`, `json_block`).
    #[must_use]
    pub(crate) fn map_counts(self, f: impl FnOnce(usize, usize) -> (usize, usize)) -> Self {
        match self {
            Step::Done {
                used,
                give_back,
                outcome,
            } => {
                let (used, give_back) = f(used, give_back);
                Step::Done {
                    used,
                    give_back,
                    outcome,
                }
            }
            Step::RejectAsText { used, give_back } => {
                let (used, give_back) = f(used, give_back);
                Step::RejectAsText { used, give_back }
            }
            Step::Split { used, outcome } => Step::Split {
                used: f(used, 0).0,
                outcome,
            },
            Step::NeedMore | Step::Reject => self,
        }
    }
}

/// Parses one segment, from just after its start marker.
pub trait SegmentParser: Send + Sync {
    /// Consumes `input` (the next bytes of the stream).
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step;
    /// The stream ended inside the segment. An empty outcome (no call, no issue) from a parser
    /// that never announced its segment means its text was plain text after all.
    fn finish(&mut self, sink: &mut Sink) -> Outcome;
    /// Asked after [`Step::Done`]: the parser of a segment that begins right where this one
    /// ended, without a start marker of its own (the next call of a section that holds several,
    /// like a second `<invoke>` in `<function_calls>`). `None` (the default) returns to text.
    fn chain(&mut self) -> Option<Box<dyn SegmentParser>> {
        None
    }
    /// Asked when the stream ends inside the segment: how many bytes back from the end of
    /// the segment's text lies the place past which any start marker of the syntax opens a
    /// new call (see `json_read::restart_from`; a parser inside a JSON value counts back
    /// from the value's end, which is the text's end). The engine ends the segment at the
    /// first such marker and reads the rest again, so a string that never closes cannot
    /// swallow the calls after it. `None` (the default): only a single-marker syntax restarts,
    /// at any marker of its own past the one that opened the segment.
    fn restart_back(&self) -> Option<usize> {
        None
    }
    /// Asked first when the stream ends inside the segment: `(back, outcome)` when the
    /// segment ends `back` bytes before the end of its text with `outcome`, and the parser
    /// [`SegmentParser::chain`] then gives reads those bytes again (a list of calls whose
    /// broken element's string never closed and ran into the next element). `None` (the
    /// default): [`SegmentParser::restart_back`] and [`SegmentParser::finish`] decide.
    fn cut_at_end(&mut self, _sink: &mut Sink) -> Option<(usize, Outcome)> {
        None
    }
    /// Asked of a parser that [`Syntax::make`] gave once its segment ended with
    /// [`Step::Done`]: become the parser `make(opening)` would give now, keeping the memory
    /// of its buffers, and say `true`; `false` (the default) when it cannot, and the engine
    /// makes a new one. A batch opens a segment for every call, and a parser made anew grew
    /// each of its buffers from nothing every time (the `xml_tool` replies: ~20 growths of a
    /// buffer a reply, ~3,000 instructions).
    fn recycle(&mut self, _opening: &Opening) -> bool {
        false
    }
    /// When the stream ends in a segment that never started and reports nothing, its text is
    /// plain text, unless this says it is framing (Harmony's stray `<|end|>`, an empty section
    /// of calls), which is not content.
    fn finish_is_framing(&self) -> bool {
        false
    }
}

/// A syntax the engine can run: its name, start markers and parser factory.
pub struct Syntax {
    /// Stable name (`run_module`, `hermes`, …).
    pub name: &'static str,
    /// Start markers: `(text, line_start, ignore_case)`.
    pub markers: Vec<(String, bool, bool)>,
    /// Makes the parser for a segment opened as `Opening` says.
    pub make: Box<dyn Fn(Opening) -> Box<dyn SegmentParser> + Send + Sync>,
}

/// What a syntax's parser factory is told about the segment it opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The start marker that opened it: an index into [`Syntax::markers`].
    pub marker: usize,
    /// The deepest nesting its JSON scanners accept: the scanner's default, or no bound when
    /// the engine's `max_depth` limit is off (`0`), so that switching the limit off lifts every
    /// depth bound, not only the check of a finished call.
    pub scan_depth: usize,
    /// The caller's tool names (see [`KnownTools`]).
    pub known: KnownTools,
    /// The engine's start markers that end an open reasoning block (see
    /// `syntaxes::think::ends_reasoning`), leading blanks trimmed.
    pub breaks: Arc<[String]>,
}

impl Opening {
    /// The same segment opened by `marker` instead.
    #[must_use]
    pub fn with_marker(self, marker: usize) -> Self {
        Self { marker, ..self }
    }
}

impl std::fmt::Debug for Syntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Syntax")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A buffer's memory is kept for a recycled parser's next segment only up to this size (see
/// [`SegmentParser::recycle`]): one huge value should not hold its memory for the life of the
/// engine.
const KEEP_BYTES: usize = 64 * 1024;

/// `buffer`, emptied, with its memory when that is at most [`KEEP_BYTES`].
pub(crate) fn emptied<T>(buffer: &mut Vec<T>) -> Vec<T> {
    let mut kept = std::mem::take(buffer);
    kept.clear();
    if kept.capacity().saturating_mul(size_of::<T>()) > KEEP_BYTES {
        return Vec::new();
    }
    kept
}

/// [`emptied`] for a `String`.
pub(crate) fn emptied_text(text: &mut String) -> String {
    let mut kept = std::mem::take(text);
    kept.clear();
    if kept.capacity() > KEEP_BYTES {
        return String::new();
    }
    kept
}
