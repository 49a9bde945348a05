//! The [`Sink`] a segment parser reports to: its segment's announcement and streamed
//! arguments become events, or go straight into a one-shot parse's fold.

use std::collections::HashSet;

use super::events::{Event, SegmentId, SegmentKind};
use super::oneshot;

/// Lets a segment parser announce its segment and stream its arguments.
#[derive(Debug, Default)]
pub struct Sink {
    pub(crate) events: Vec<Event>,
    /// Set during a one-shot parse: events are folded into its result as they are made, so a
    /// text with millions of segments never holds millions of events at once.
    pub(super) fold: Option<Box<oneshot::Fold>>,
    pub(super) id: Option<SegmentId>,
    pub(super) syntax: &'static str,
    /// Segments started so far: reasoning, calls, text segments a syntax marks as text.
    pub(super) kind_counts: [usize; 3],
    /// Per-stream notes a syntax keeps across its segments (reset with the stream); for
    /// example, `tool_call_json` notes that a marker has been seen.
    pub flags: u32,
    /// Calls cut at an end token their arguments ran over (see `json_read::overran`), so far
    /// in this stream: each gives text back to be read again, so their number is bounded.
    pub overruns: u32,
    /// No argument previews wanted (a one-shot parse): parsers may skip that work.
    pub(super) quiet: bool,
    /// The decoded arguments of the call the segment is about to end with (see
    /// [`Sink::string_arguments`]).
    pub(super) string_arguments: Option<Vec<(String, String)>>,
    /// The first ids made, by slot (see `kind_counts`) and number, kept across resets: every
    /// text of a batch numbers its segments from 0, so its ids are the previous text's, and a
    /// shared one costs a count where a new one cost an allocation (and its free). Per engine,
    /// so two threads never count on one id.
    pub(super) made: [Vec<SegmentId>; 3],
    /// Ids the text gave its calls so far in this stream (Kimi's `functions.NAME:IDX`,
    /// Mistral's `[CALL_ID]`): a repeated one falls back to the engine's id, so ids stay
    /// unique.
    pub(super) given: HashSet<SegmentId>,
}

impl Sink {
    /// Empties it for the next stream: as a new sink, but for `quiet`, the kept ids and the
    /// room of its buffers. Making a new one drew a hash seed for `given` and dropped the old
    /// one, ~200 instructions a text of a batch. Every field is named here, so a new one
    /// cannot be missed.
    pub(super) fn restart(&mut self) {
        let Sink {
            events,
            fold,
            id,
            syntax,
            kind_counts,
            flags,
            overruns,
            quiet: _,
            string_arguments,
            made: _,
            given,
        } = self;
        events.clear();
        *fold = None;
        *id = None;
        *syntax = "";
        *kind_counts = [0; 3];
        *flags = 0;
        *overruns = 0;
        *string_arguments = None;
        // A set grown by a stream that named many ids is let go rather than kept.
        if given.capacity() > 64 {
            *given = HashSet::default();
        } else {
            given.clear();
        }
    }
}

/// Longest id taken from the text; a longer one is the engine's `call_N` instead.
pub const MAX_GIVEN_ID: usize = 128;

/// How many ids of each slot [`Sink::made`] keeps.
const KEPT_IDS: usize = 64;

impl Sink {
    /// Announces the segment (once; later calls are ignored). A parser calls this as soon as it
    /// is sure the text is a segment, so consumers see the call's name while it streams.
    /// The name is borrowed: a one-shot parse never sees it, and a copy per call was one of
    /// the allocations a short segment paid for.
    pub fn start(
        &mut self,
        kind: SegmentKind,
        name: Option<&str>,
        metadata: Vec<(String, String)>,
    ) {
        self.start_with_id(kind, name, metadata, None);
    }

    /// [`Sink::start`] for a segment whose text gives its id (`given`): the segment's id is
    /// that, unless it is empty, longer than [`MAX_GIVEN_ID`], holds a control character,
    /// has the form of an engine call id (`call_3`, which a later call may get), starts as a
    /// text or reasoning segment's (`text_`, `reasoning_`) or was given before in this
    /// stream; then it is the engine's. Either way the engine's count moves
    /// on, so the ids of the calls without one do not depend on the others.
    pub fn start_with_id(
        &mut self,
        kind: SegmentKind,
        name: Option<&str>,
        metadata: Vec<(String, String)>,
        given: Option<&str>,
    ) {
        if self.id.is_some() {
            return;
        }
        let given = given.map(str::trim).filter(|g| {
            !g.is_empty()
                && g.len() <= MAX_GIVEN_ID
                && !g.chars().any(char::is_control)
                && !engine_shaped(g)
                && !self.given.contains(*g)
        });
        let (slot, prefix) = match kind {
            SegmentKind::Reasoning => (0, kind.id_prefix()),
            // A syntax's own text segment (a sentinel `text` block): its id must not clash
            // with the engine's `text_N` ids, and still starts with `text_` (it is content).
            SegmentKind::Text => (2, "text_seg_"),
            _ => (1, kind.id_prefix()),
        };
        let n = self.kind_counts[slot];
        self.kind_counts[slot] += 1;
        let made = &mut self.made[slot];
        let id = if let Some(g) = given {
            let id: SegmentId = g.into();
            self.given.insert(id.clone());
            id
        } else if let Some(id) = made.get(n) {
            id.clone()
        } else {
            let id = segment_id(prefix, n);
            if n == made.len() && n < KEPT_IDS {
                made.push(id.clone());
            }
            id
        };
        match &mut self.fold {
            Some(fold) => fold.open(id.clone(), self.syntax),
            None => self.events.push(Event::SegmentStart {
                id: id.clone(),
                kind,
                syntax: self.syntax,
                name: name.map(str::to_string),
                metadata,
            }),
        }
        self.id = Some(id);
    }

    pub(super) fn push(&mut self, event: Event) {
        match &mut self.fold {
            Some(fold) => fold.take(event),
            None => self.events.push(event),
        }
    }

    /// Names the open segment's syntax: a parser that picks among syntaxes sharing a marker
    /// calls this before the chosen syntax's parser starts the segment.
    pub fn set_syntax(&mut self, name: &'static str) {
        self.syntax = name;
    }

    /// Whether argument previews (`ArgumentDelta`, `ArgumentsJsonDelta`) are wanted; parsers
    /// may skip the work of producing them when not.
    #[must_use]
    pub fn previews(&self) -> bool {
        !self.quiet
    }

    /// The decoded form of the arguments JSON of the call the open segment ends with, as
    /// [`Call::string_arguments`](super::events::Call::string_arguments). A parser calls this
    /// only right before it returns that call's outcome, with pairs that encode to exactly its
    /// arguments (as [`ArgsWriter::finish_strings`](super::args_writer::ArgsWriter::finish_strings)
    /// gives them).
    pub fn string_arguments(&mut self, pairs: Option<Vec<(String, String)>>) {
        self.string_arguments = pairs;
    }

    /// True during a one-shot parse: no event is seen one by one, so a parser may report its
    /// text in fewer, larger pieces than a stream's chunking would give.
    #[must_use]
    pub fn one_shot(&self) -> bool {
        self.fold.is_some()
    }

    /// Decoded text of a string argument.
    pub fn argument_delta(&mut self, key: &str, text: &str) {
        if self.quiet {
            return;
        }
        if let (Some(id), false) = (&self.id, text.is_empty()) {
            self.push(Event::ArgumentDelta {
                id: id.clone(),
                key: key.to_string(),
                text: text.to_string(),
            });
        }
    }

    /// A fragment of the arguments' JSON text.
    pub fn arguments_json_delta(&mut self, text: &str) {
        if self.quiet {
            return;
        }
        if let (Some(id), false) = (&self.id, text.is_empty()) {
            self.push(Event::ArgumentsJsonDelta {
                id: id.clone(),
                text: text.to_string(),
            });
        }
    }

    /// Text of a reasoning segment.
    pub fn text_delta(&mut self, text: &str) {
        if let (Some(id), false) = (&self.id, text.is_empty()) {
            self.push(Event::TextDelta {
                id: id.clone(),
                text: text.to_string(),
            });
        }
    }
}

/// Whether a given id must not be taken: one of the form of a call id the engine makes
/// (`call_3`, which a later call may get), or one starting as a text or reasoning segment's
/// (`text_`, `reasoning_`), which readers of the events tell those segments apart by.
fn engine_shaped(id: &str) -> bool {
    id.starts_with("text_")
        || id.starts_with("reasoning_")
        || id
            .strip_prefix("call_")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The id `{prefix}{n}`, written without the formatting machinery: every segment gets one,
/// and `format!` cost more than the rest of a short segment's bookkeeping.
pub(super) fn segment_id(prefix: &'static str, n: usize) -> SegmentId {
    // The longest prefix (`reasoning_`) and the digits of a `u64` fit.
    let mut buf = [0u8; 40];
    let mut at = buf.len();
    let mut rest = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let from = at.saturating_sub(prefix.len());
    buf[from..at].copy_from_slice(&prefix.as_bytes()[..at - from]);
    // ASCII digits after a whole `&str` prefix: always UTF-8.
    std::str::from_utf8(&buf[from..]).unwrap_or_default().into()
}
