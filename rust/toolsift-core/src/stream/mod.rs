//! The streaming engine: one incremental state machine for every syntax.
//!
//! In text mode the engine looks for the start markers of every enabled syntax
//! ([`markers::MarkerSet`]) and emits text as soon as it cannot begin a marker. A marker hands
//! the stream to that syntax's [`SegmentParser`], which consumes bytes until its segment ends
//! and reports a call or an issue. Work per chunk is proportional to the chunk: text is
//! scanned once, a segment parser sees each byte once, and the only state kept is the open
//! segment's (its raw text, for the call's `raw`, and the parser's own). A one-shot parse is
//! `feed(all)` then `finish()`, so batch and streaming results cannot differ.

pub mod args_preview;
pub mod args_writer;
pub(crate) mod content;
pub mod events;
pub mod json_args;
pub mod json_call;
pub mod known_tools;
pub mod limits;
pub mod markers;
pub mod oneshot;
mod parser;
mod sink;
pub mod syntaxes;

use std::borrow::Cow;
use std::sync::Arc;

use events::{Call, Event, Issue, SegmentId, SegmentKind};
pub use known_tools::KnownTools;
use limits::Limits;
use markers::{Found, Marker, MarkerSet};
pub use parser::{Opening, Outcome, SegmentParser, Step, Syntax};
use sink::segment_id;
pub use sink::Sink;

enum Mode {
    Text,
    Segment {
        parser: Box<dyn SegmentParser>,
        syntax: &'static str,
        /// Character offset of the marker.
        start: usize,
        /// The segment's text so far, marker included.
        raw: String,
    },
}

/// Unterminated segments cut at their own next start marker at the end of one stream.
const MAX_RESTARTS: usize = 16;

/// The engine; see the module docs.
pub struct StreamEngine {
    syntaxes: Vec<Syntax>,
    markers: MarkerSet,
    mode: Mode,
    /// Text held back because it may begin a marker.
    held: String,
    /// The byte before `held` (for line-start markers).
    before: Option<u8>,
    /// Characters finalised so far (emitted as text or taken into a segment).
    chars: usize,
    text_id: Option<SegmentId>,
    text_count: usize,
    sink: Sink,
    limits: Limits,
    /// The caller's tool names, handed to every parser (see [`KnownTools`]).
    known: KnownTools,
    /// The start markers that end an open reasoning block ([`Opening::breaks`]).
    breaks: Arc<[String]>,
    /// Calls accepted so far in this stream (for [`Limits::max_calls`]).
    calls: usize,
    /// The last one-shot parse's fold, emptied, for the next one to fill (see `oneshot`).
    spare_fold: Option<Box<oneshot::Fold>>,
    /// By syntax, the parser of its last finished segment, to recycle for its next one
    /// (see [`SegmentParser::recycle`]).
    spare_parsers: Vec<Option<Box<dyn SegmentParser>>>,
    /// The emptied text buffer of the last segment that turned out to be text
    /// ([`StreamEngine::keep_raw`]).
    spare_raw: String,
    /// The syntax whose `make` gave the open segment's parser (`None`: a parser another one
    /// chained, which may be of another type).
    made_by: Option<usize>,
    /// Parsers are recycled (off only in tests that compare the two).
    recycling: bool,
}

impl std::fmt::Debug for StreamEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamEngine")
            .field("syntaxes", &self.syntaxes)
            .field("chars", &self.chars)
            .finish_non_exhaustive()
    }
}

/// Most bytes handed to a segment parser at once. A parser that copies or rescans its input
/// then costs at most this much per segment, however long the rest of a one-shot input is.
const FEED_SLICE: usize = 16 * 1024;

/// Bytes of prose searched for a marker at once (see `run`): well inside the L2 cache.
const TEXT_WINDOW: usize = 64 * 1024;

/// Where the next slice for a segment parser ends (on a character boundary).
fn slice_end(input: &str, from: usize) -> usize {
    let mut end = from.saturating_add(FEED_SLICE).min(input.len());
    while !input.is_char_boundary(end) {
        end += 1;
    }
    end
}

fn char_count(s: &str) -> usize {
    crate::offsets::char_count(s.as_bytes())
}

impl StreamEngine {
    /// An engine running `syntaxes` at once.
    #[must_use]
    pub fn new(syntaxes: Vec<Syntax>) -> Self {
        let mut all = Vec::new();
        for (index, s) in syntaxes.iter().enumerate() {
            for (text, line_start, ignore_case) in &s.markers {
                all.push(Marker {
                    text: text.clone(),
                    line_start: *line_start,
                    ignore_case: *ignore_case,
                    syntax: index,
                });
            }
        }
        let mut breaks: Vec<String> = all
            .iter()
            .map(|m| m.text.trim_start())
            .filter(|m| syntaxes::think::ends_reasoning(m))
            .map(String::from)
            .collect();
        breaks.sort_unstable();
        breaks.dedup();
        Self {
            breaks: breaks.into(),
            syntaxes,
            markers: MarkerSet::new(all),
            mode: Mode::Text,
            held: String::new(),
            before: None,
            chars: 0,
            text_id: None,
            text_count: 0,
            sink: Sink::default(),
            limits: Limits::default(),
            known: KnownTools::default(),
            calls: 0,
            spare_fold: None,
            spare_parsers: Vec::new(),
            spare_raw: String::new(),
            made_by: None,
            recycling: true,
        }
    }

    /// Turns argument previews on or off (on by default). A one-shot parse, which only wants
    /// the calls, turns them off.
    pub fn set_previews(&mut self, on: bool) {
        self.sink.quiet = !on;
    }

    /// Sets the resource limits (the defaults are [`Limits::default`]).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Declares the caller's tool names, which the bare-JSON syntaxes read a name-only object
    /// against (see [`KnownTools`]); none by default.
    pub fn set_known_tools(&mut self, known: KnownTools) {
        self.known = known;
    }

    /// Forgets the stream, keeping the syntaxes and settings.
    pub fn reset(&mut self) {
        self.calls = 0;
        self.mode = Mode::Text;
        self.held.clear();
        self.before = None;
        self.chars = 0;
        self.text_id = None;
        self.text_count = 0;
        self.sink.restart();
    }

    /// Consumes the next chunk; returns the events it produced.
    pub fn feed(&mut self, chunk: &str) -> Vec<Event> {
        self.push(chunk);
        std::mem::take(&mut self.sink.events)
    }

    /// Consumes the next chunk like [`StreamEngine::feed`], handing its events out by draining
    /// the engine's own buffer, so a host that converts them one by one reuses that buffer
    /// instead of allocating a new one per chunk.
    pub fn feed_drain(&mut self, chunk: &str) -> std::vec::Drain<'_, Event> {
        self.push(chunk);
        self.sink.events.drain(..)
    }

    fn push(&mut self, chunk: &str) {
        // Most chunks are read straight from the caller's text; only held-back bytes (a
        // possible marker cut by the chunking) need an owned copy joined with the chunk.
        let input = if self.held.is_empty() {
            Cow::Borrowed(chunk)
        } else {
            let mut s = std::mem::take(&mut self.held);
            s.push_str(chunk);
            Cow::Owned(s)
        };
        self.run(input, false);
    }

    /// Ends the stream: flushes held text and closes any open segment.
    pub fn finish(&mut self) -> Vec<Event> {
        let input = std::mem::take(&mut self.held);
        self.run(Cow::Owned(input), true);
        // Each restart re-reads the rest of the text once; a bound keeps adversarial input
        // (a marker repeated after every broken call) linear.
        let mut restarts = 0;
        while let Mode::Segment { .. } = self.mode {
            let Mode::Segment {
                mut parser,
                syntax,
                start,
                raw,
            } = std::mem::replace(&mut self.mode, Mode::Text)
            else {
                unreachable!("checked above")
            };
            self.sink.syntax = syntax;
            if restarts < MAX_RESTARTS {
                if let Some((back, outcome)) = parser.cut_at_end(&mut self.sink) {
                    restarts += 1;
                    // The segment ends before the text its parser gives back, which the
                    // parser that goes on after it reads again, or else the text reading
                    // (which then finds a start marker there).
                    let mut cut = raw.len().saturating_sub(back);
                    while !raw.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    let (head, tail) = raw.split_at(cut);
                    let framing = parser.finish_is_framing();
                    self.close_open_segment(start, head, outcome, framing);
                    self.before = head.as_bytes().last().copied();
                    if let Some(next) = parser.chain() {
                        self.made_by = None;
                        self.mode = Mode::Segment {
                            parser: next,
                            syntax,
                            start: self.chars,
                            raw: String::new(),
                        };
                    }
                    self.run(Cow::Borrowed(tail), true);
                    continue;
                }
            }
            let restart = if restarts < MAX_RESTARTS {
                self.own_restart(syntax, &raw, parser.restart_back())
            } else {
                None
            };
            if let Some((cut, opener)) = restart {
                restarts += 1;
                // The segment never closed and its own syntax starts again inside it: it
                // swallowed the calls after it (a string that never closes, say). It ends
                // where the next one starts, and the rest is read again.
                let (head, tail) = raw.split_at(cut);
                let outcome = self.reread(opener, head);
                self.close_open_segment(start, head, outcome, false);
                self.before = head.as_bytes().last().copied();
                self.run(Cow::Borrowed(tail), true);
                continue;
            }
            let outcome = parser.finish(&mut self.sink);
            let framing = parser.finish_is_framing();
            self.close_open_segment(start, &raw, outcome, framing);
        }
        self.close_text();
        std::mem::take(&mut self.sink.events)
    }

    /// Ends the segment that was open at the end of the stream with `outcome`.
    fn close_open_segment(&mut self, start: usize, raw: &str, outcome: Outcome, framing: bool) {
        if outcome == Outcome::default() && self.sink.id.is_none() && !framing {
            // Never announced and nothing to report: the text was prose.
            self.chars = start;
            self.emit_text(raw);
        } else {
            self.chars = start + char_count(raw);
            self.end_segment(start, raw, outcome);
        }
    }

    /// Where, inside the unterminated segment `raw` of `syntax`, that syntax's start marker
    /// begins again, with the syntax's index and the marker `raw` opens with. Without
    /// `back` (see [`SegmentParser::restart_back`]) only syntaxes with a single start marker
    /// take part: there the marker only ever opens a call, while in the others some markers
    /// also continue or end a segment (`DeepSeek`'s call marker inside its section, Harmony's
    /// channel tokens, caret's closing fence); with it, any marker in the last `back` bytes
    /// does. Markers that may be ordinary JSON or prose punctuation (under three
    /// bytes, a fence) never count.
    fn own_restart(
        &self,
        syntax: &str,
        raw: &str,
        back: Option<usize>,
    ) -> Option<(usize, (usize, usize))> {
        let (index, entry) = self
            .syntaxes
            .iter()
            .enumerate()
            .find(|(_, s)| s.name == syntax && (s.markers.len() == 1 || back.is_some()))?;
        let (within, opener) = entry
            .markers
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                raw.len() >= m.0.len()
                    && if m.2 {
                        raw.as_bytes()[..m.0.len()].eq_ignore_ascii_case(m.0.as_bytes())
                    } else {
                        raw.starts_with(m.0.as_str())
                    }
            })
            .max_by_key(|(_, m)| m.0.len())?;
        let from = back
            .map_or(0, |k| raw.len().saturating_sub(k))
            .max(opener.0.len());
        let rest = raw.get(from..)?;
        entry
            .markers
            .iter()
            // Line-start markers (caret's `^^^`) are left out: its closing fence is the same.
            .filter(|m| m.0.len() >= 3 && !m.0.starts_with(['`', '\n', ' ']) && !m.1 && !m.2)
            .filter_map(|m| memchr::memmem::find(rest.as_bytes(), m.0.as_bytes()).map(|k| from + k))
            .min()
            .map(|cut| (cut, (index, within)))
    }

    /// The outcome of `head` (a segment's text, opened by marker `within` of syntax `index`)
    /// read alone by a fresh parser and finished; previews are not repeated.
    fn reread(&mut self, (index, within): (usize, usize), head: &str) -> Outcome {
        let Some(entry) = self.syntaxes.get(index) else {
            return Outcome::default();
        };
        let Some(marker) = entry.markers.get(within) else {
            return Outcome::default();
        };
        let mut parser = (entry.make)(self.opening(within));
        let quiet = std::mem::replace(&mut self.sink.quiet, true);
        // The events are sifted below before a one-shot parse may see them.
        let fold = self.sink.fold.take();
        let mark = self.sink.events.len();
        let body = head.get(marker.0.len()..).unwrap_or_default();
        let outcome = match parser.feed(body, &mut self.sink) {
            Step::NeedMore => parser.finish(&mut self.sink),
            Step::Done { outcome, .. } | Step::Split { outcome, .. } => outcome,
            Step::Reject | Step::RejectAsText { .. } => Outcome::default(),
        };
        self.sink.quiet = quiet;
        self.sink.fold = fold;
        // The segment's text was streamed already: keep only a start it had not announced.
        let again = self.sink.events.split_off(mark);
        for start in again
            .into_iter()
            .filter(|e| matches!(e, Event::SegmentStart { .. }))
        {
            self.sink.push(start);
        }
        outcome
    }

    /// Processes `input`; `at_end` when no more text will come.
    #[allow(clippy::too_many_lines)] // one match over the modes and steps reads best whole
    fn run(&mut self, mut input: Cow<'_, str>, at_end: bool) {
        let mut i = 0;
        // Set after a `Step::Split`: the parser is fed again even if no input is left.
        let mut again = false;
        // How many bytes at the end of the open segment's text are `input[i - here..i]`: bytes
        // a parser gives back or rejects are then re-read by stepping `i` back, not by copying
        // the rest of the input (which made many small segments in one big feed quadratic).
        let mut here = 0;
        while i < input.len() || std::mem::take(&mut again) {
            match &mut self.mode {
                Mode::Text => {
                    // Prose is searched a window at a time, and each window's characters are
                    // counted (`emit_text`) while it is still in the cache: one pass over
                    // memory where the count used to re-read the whole run after the search
                    // (24 MB without a marker: 0.26 ns/B against 0.18 for 6 MB).
                    let mut limit = input.len().min(i + TEXT_WINDOW);
                    while !input.is_char_boundary(limit) {
                        limit += 1;
                    }
                    let before = self.before_at(&input, i);
                    let found =
                        self.markers
                            .find_within(input.as_bytes(), i, limit, before, at_end);
                    match found {
                        Found::Marker { at, marker } => {
                            self.emit_text(&input[i..at]);
                            self.open_segment(&input, at, marker);
                            here = self.markers.markers()[marker].text.len();
                            i = at + here;
                        }
                        Found::Partial { at } => {
                            self.emit_text(&input[i..at]);
                            if at > 0 {
                                self.before = input.as_bytes().get(at - 1).copied();
                            }
                            self.held = input[at..].to_string();
                            return;
                        }
                        Found::Nothing if limit < input.len() => {
                            self.emit_text(&input[i..limit]);
                            i = limit;
                        }
                        Found::Nothing => {
                            self.emit_text(&input[i..]);
                            return;
                        }
                    }
                }
                Mode::Segment {
                    parser,
                    raw,
                    syntax,
                    ..
                } => {
                    if self.limits.segment_over(raw.len()) {
                        self.abandon_segment();
                        continue;
                    }
                    self.sink.syntax = syntax;
                    // The parser never sees more than the segment limit allows, so it stops at
                    // the same byte however the text was chunked.
                    let end = self
                        .limits
                        .segment_feed_end(&input, i, raw.len())
                        .min(slice_end(&input, i));
                    let step = parser.feed(&input[i..end], &mut self.sink);
                    // A parser that picks among syntaxes sharing a marker names the one it chose.
                    *syntax = self.sink.syntax;
                    match step {
                        Step::NeedMore => {
                            raw.push_str(&input[i..end]);
                            here += end - i;
                            i = end;
                            if self.limits.segment_over(raw.len()) {
                                self.abandon_segment();
                                continue;
                            }
                            if i < input.len() {
                                continue;
                            }
                            self.before = input.as_bytes().last().copied();
                            return;
                        }
                        Step::Done {
                            used,
                            give_back,
                            outcome,
                        } => {
                            // A parser matching a token byte by byte may stop inside a character
                            // (its first byte matched, the next did not): the segment ends before
                            // that character, whose bytes it held back as text anyway.
                            let cut = used.min(end - i);
                            let used = char_floor(&input, i + cut) - i;
                            let give_back = give_back.saturating_sub(cut - used);
                            raw.push_str(&input[i..i + used]);
                            i += used;
                            here += used;
                            let Mode::Segment {
                                start,
                                mut raw,
                                mut parser,
                                syntax,
                            } = std::mem::replace(&mut self.mode, Mode::Text)
                            else {
                                unreachable!("in segment mode")
                            };
                            let mut keep = raw.len().saturating_sub(give_back);
                            while !raw.is_char_boundary(keep) {
                                keep -= 1;
                            }
                            let mut returned = raw.split_off(keep);
                            if returned.len() <= here {
                                i -= returned.len();
                                returned.clear();
                            }
                            here = 0;
                            // A parser may finish on the one byte past the limit it is fed
                            // (see `segment_feed_end`): the segment is then over the limit.
                            let over = self.limits.segment_over(raw.len());
                            let outcome = if over {
                                self.limits.segment_outcome()
                            } else {
                                outcome
                            };
                            // Line-start markers right after the segment need its last byte.
                            self.before = raw.as_bytes().last().copied();
                            self.chars = start + char_count(&raw);
                            self.end_segment(start, raw, outcome);
                            if let Some(next) = parser.chain().filter(|_| !over) {
                                // The next segment starts here, with the bytes given back.
                                self.made_by = None;
                                self.mode = Mode::Segment {
                                    parser: next,
                                    syntax,
                                    start: self.chars,
                                    raw: String::new(),
                                };
                            } else {
                                self.keep_made(parser);
                            }
                            if !returned.is_empty() {
                                // Given back across a feed boundary: at most once per feed.
                                let mut rest = returned;
                                rest.push_str(&input[i..]);
                                input = Cow::Owned(rest);
                                i = 0;
                            }
                        }
                        Step::Reject => {
                            let Mode::Segment {
                                start, raw, parser, ..
                            } = std::mem::replace(&mut self.mode, Mode::Text)
                            else {
                                unreachable!("in segment mode")
                            };
                            self.keep_made(parser);
                            // The marker's first character is text; the rest is read again.
                            let first = raw.chars().next().map_or(0, char::len_utf8);
                            self.chars = start;
                            self.emit_text(&raw[..first]);
                            let replay = raw.len() - first;
                            if replay <= here {
                                i -= replay;
                            } else {
                                // Rejected across a feed boundary: at most once per feed.
                                let mut text = raw[first..].to_string();
                                text.push_str(&input[i..]);
                                input = Cow::Owned(text);
                                i = 0;
                            }
                            here = 0;
                            self.keep_raw(raw);
                        }
                        Step::RejectAsText { used, give_back } => {
                            let cut = used.min(end - i);
                            let used = char_floor(&input, i + cut) - i;
                            let give_back = give_back.saturating_sub(cut - used);
                            let Mode::Segment {
                                start,
                                mut raw,
                                parser,
                                ..
                            } = std::mem::replace(&mut self.mode, Mode::Text)
                            else {
                                unreachable!("in segment mode")
                            };
                            self.keep_made(parser);
                            raw.push_str(&input[i..i + used]);
                            i += used;
                            here += used;
                            // The first character always stays text, so nothing is read forever.
                            let first = raw.chars().next().map_or(0, char::len_utf8);
                            let mut keep = raw.len().saturating_sub(give_back).max(first);
                            while !raw.is_char_boundary(keep) {
                                keep += 1;
                            }
                            let returned = raw.split_off(keep);
                            self.chars = start;
                            self.emit_text(&raw);
                            self.keep_raw(raw);
                            if returned.len() <= here {
                                i -= returned.len();
                            } else if !returned.is_empty() {
                                // Given back across a feed boundary: at most once per feed.
                                let mut rest = returned;
                                rest.push_str(&input[i..]);
                                input = Cow::Owned(rest);
                                i = 0;
                            }
                            here = 0;
                        }
                        Step::Split { used, outcome } => {
                            let used = used.min(end - i);
                            raw.push_str(&input[i..i + used]);
                            i += used;
                            here = 0;
                            self.split_segment(outcome);
                            again = true;
                        }
                    }
                }
            }
        }
    }

    /// Keeps the text buffer of a segment that turned out to be text for the next segment's
    /// (a call keeps its own): a segment at every `{` of the prose allocated one each. A
    /// buffer grown past [`RAW_ROOM`] is let go, so a long rejected segment is not held.
    fn keep_raw(&mut self, mut raw: String) {
        if raw.capacity() <= RAW_ROOM {
            raw.clear();
            self.spare_raw = raw;
        }
    }

    /// Keeps the open segment's parser, when its syntax's `make` gave it, for that syntax's
    /// next segment: after a segment that ended, and after one that turned out to be text
    /// (the bare-JSON syntaxes open a segment at every `{` of the prose, and made a new parser
    /// for each: a fifth of reading prose full of JSON objects under `tool_call_json`).
    fn keep_made(&mut self, parser: Box<dyn SegmentParser>) {
        if let Some(slot) = self.made_by.take() {
            self.keep_spare(slot, parser);
        }
    }

    /// Keeps `parser`, made by syntax `slot`'s `make`, for that syntax's next segment.
    fn keep_spare(&mut self, slot: usize, parser: Box<dyn SegmentParser>) {
        if !self.recycling {
            return;
        }
        if self.spare_parsers.len() <= slot {
            self.spare_parsers
                .resize_with(self.syntaxes.len().max(slot + 1), || None);
        }
        self.spare_parsers[slot] = Some(parser);
    }

    /// Ends the open segment at the segment limit with a `limit_exceeded` issue; what follows
    /// is read as text.
    #[cold]
    fn abandon_segment(&mut self) {
        let Mode::Segment { start, raw, .. } = std::mem::replace(&mut self.mode, Mode::Text) else {
            return;
        };
        self.chars = start + char_count(&raw);
        let outcome = self.limits.segment_outcome();
        self.before = raw.as_bytes().last().copied();
        self.end_segment(start, raw, outcome);
    }

    /// Ends the open segment with `outcome` and opens the next one with the same parser.
    fn split_segment(&mut self, outcome: Outcome) {
        let Mode::Segment {
            parser,
            syntax,
            start,
            raw,
        } = std::mem::replace(&mut self.mode, Mode::Text)
        else {
            return;
        };
        self.chars = start + char_count(&raw);
        self.end_segment(start, raw, outcome);
        self.mode = Mode::Segment {
            parser,
            syntax,
            start: self.chars,
            raw: String::new(),
        };
    }

    fn before_at(&self, input: &str, i: usize) -> Option<u8> {
        if i == 0 {
            self.before
        } else {
            input.as_bytes().get(i - 1).copied()
        }
    }

    /// How a segment opened by marker `within` of its syntax is made under these limits.
    fn opening(&self, within: usize) -> Opening {
        Opening {
            marker: within,
            scan_depth: self.limits.scan_depth(),
            known: self.known.clone(),
            breaks: Arc::clone(&self.breaks),
        }
    }

    fn open_segment(&mut self, input: &str, at: usize, marker: usize) {
        self.close_text();
        let m = &self.markers.markers()[marker];
        let syntax = &self.syntaxes[m.syntax];
        let within = self.markers.markers()[..marker]
            .iter()
            .filter(|x| x.syntax == m.syntax)
            .count();
        let text = &input[at..at + m.text.len()];
        let start = self.chars;
        let opening = self.opening(within);
        self.sink.id = None;
        self.sink.string_arguments = None;
        let spare = self.spare_parsers.get_mut(m.syntax).and_then(Option::take);
        let parser = match spare {
            Some(mut spare) => {
                if spare.recycle(&opening) {
                    spare
                } else {
                    (syntax.make)(opening)
                }
            }
            None => (syntax.make)(opening),
        };
        self.made_by = Some(m.syntax);
        let raw = if self.spare_raw.capacity() >= m.text.len() {
            let mut raw = std::mem::take(&mut self.spare_raw);
            raw.push_str(text);
            raw
        } else {
            // A one-shot parse hands its calls' raw texts over to be read at once, and its
            // segments are longer than a stream's first ones: more room up front.
            let room = if self.sink.fold.is_some() {
                ONE_SHOT_RAW_ROOM
            } else {
                RAW_ROOM
            };
            raw_with_room(text, (input.len() - at).min(room))
        };
        self.mode = Mode::Segment {
            parser,
            syntax: syntax.name,
            start,
            raw,
        };
    }

    /// Ends the segment `raw` that started at character `start`; `chars` is its end. A caller
    /// that owns `raw` hands it over, and a call keeps it without a copy.
    fn end_segment(
        &mut self,
        start: usize,
        raw: impl Into<String> + AsRef<str>,
        mut outcome: Outcome,
    ) {
        if self.sink.id.is_none() && outcome.call.is_none() && outcome.issue.is_none() {
            // Framing only (Harmony's `<|start|>assistant<|channel|>final<|message|>`, an
            // empty section of calls): nothing to report, and its text is not content.
            return;
        }
        let flat = self.sink.string_arguments.as_deref();
        self.limits.check_call(&mut outcome, &mut self.calls, flat);
        if self.sink.id.is_none() {
            let name = outcome.call.as_ref().map(|c| c.0.as_str());
            self.sink.start(SegmentKind::ToolCall, name, Vec::new());
        }
        let id = self.sink.id.take().unwrap_or_default();
        // Every caller has just set `chars` to the segment's end, counting `raw` once.
        let end = self.chars;
        debug_assert_eq!(end, start + char_count(raw.as_ref()));
        let string_arguments = self.sink.string_arguments.take();
        let call = outcome.call.map(|(name, arguments, repairs)| Call {
            name,
            arguments,
            repairs,
            start,
            end,
            raw: raw.into(),
            string_arguments,
        });
        let issue = outcome.issue.map(|(kind, message)| Issue {
            kind,
            message,
            start,
            end,
        });
        self.sink.push(Event::SegmentEnd { id, call, issue });
    }

    fn emit_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let start = self.chars;
        self.chars += char_count(text);
        self.before = text.as_bytes().last().copied();
        if let Some(fold) = &mut self.sink.fold {
            // A one-shot parse keeps the text only: its segments' ids and events are unseen.
            fold.text_at(start, self.chars, text);
            return;
        }
        let id = if let Some(id) = &self.text_id {
            id.clone()
        } else {
            let id = segment_id("text_", self.text_count);
            self.text_count += 1;
            self.sink.events.push(Event::SegmentStart {
                id: id.clone(),
                kind: SegmentKind::Text,
                syntax: "text",
                name: None,
                metadata: Vec::new(),
            });
            self.text_id = Some(id.clone());
            id
        };
        // Adjacent deltas of one segment within a feed are merged into one event.
        if let Some(Event::TextDelta { id: last, text: t }) = self.sink.events.last_mut() {
            if *last == id {
                t.push_str(text);
                return;
            }
        }
        self.sink.events.push(Event::TextDelta {
            id,
            text: text.to_string(),
        });
    }

    fn close_text(&mut self) {
        if let Some(id) = self.text_id.take() {
            self.sink.push(Event::SegmentEnd {
                id,
                call: None,
                issue: None,
            });
        }
    }
}

#[cfg(test)]
mod recycle_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

/// The last character boundary of `text` at or before byte `at`.
fn char_floor(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A segment's raw text so far (its marker), with room for `rest` more bytes (the rest of the
/// input, up to [`RAW_ROOM`] or [`ONE_SHOT_RAW_ROOM`]): grown from the marker's size, the
/// first append after it reallocated.
fn raw_with_room(marker: &str, rest: usize) -> String {
    let mut raw = String::with_capacity(rest.max(marker.len()));
    raw.push_str(marker);
    raw
}

/// See [`raw_with_room`]; a call keeps its raw text, so the room is kept small.
const RAW_ROOM: usize = 512;

/// [`RAW_ROOM`] in a one-shot parse, whose hosts read a call's raw text once and drop it (or
/// keep it trimmed): growing past 512 bytes reallocated a sixth of a sentinel batch's calls,
/// ~0.7% of its instructions.
const ONE_SHOT_RAW_ROOM: usize = 4096;
