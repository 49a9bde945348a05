//! The lenient `TOOL_CALL` syntax on the engine: a literal marker (default `TOOL_CALL`), then
//! optional blanks, a colon or a Markdown fence, then a JSON object holding the call.
//!
//! Rules, chosen so that streaming and batch agree:
//! - The marker is matched literally. A marker inside a JSON string is part of that value.
//! - After the marker only blanks, `:` and a fence (three backticks and a short label) may
//!   precede the `{`; anything else makes the marker an issue (`no_json_after_marker`) and the
//!   text after it stays text. A `[` there opens a list of call objects
//!   (`TOOL_CALL: [{...}, {...}]`), each object a segment of its own ([`Step::Split`]), so a bad
//!   one is reported and its siblings kept; the separator after an object belongs to it, the
//!   `]` (and a closing fence) to the last one. A list that breaks off ends at its last object
//!   (`missing_end_marker`), and the rest is text; a list whose first item is no object is
//!   the marker's issue, as before.
//! - A fence that holds nothing but the call belongs to the call, so it does not stay behind
//!   in the content.
//! - A JSON object with a name in prose counts as a call only until the first marker is seen
//!   in the stream: a reply that uses the marker uses it for all its calls, while a reply
//!   without any marker still has its bare calls read (the original parser's fallback). Such a
//!   bare object with a name whose arguments are no object is a `bad_arguments` issue, as
//!   after a marker; any other bare object that is no call is prose. One that holds no name
//!   key as written (nor a backslash or a `+` beside a quote, which could spell one:
//!   `json_call::may_hold_key`) is prose without being read.
//! - A `[` in prose, or right inside a fence, opens a list of calls without a marker when its
//!   first object is a call by the rule above: the list is then read as after a marker (brackets,
//!   separators and the fence belong to its calls, a later object that is no call is an issue).
//!   A `[` followed by anything but an object, or whose first object is no call, is text (the
//!   `[` and that object; an object after it is read as a bare object again).
//! - Names come from `tool_name`, `tool` or `name`; arguments from `parameters`, `params`,
//!   `arguments` or `args` (missing or null → `{}`). JSON is read leniently; an object cut off
//!   by the end of the stream is closed by repair and is still a call (with an `unterminated`
//!   issue), as the syntax's "missing closers" repair promises.
//! - An object longer than `max_payload_chars` (0: no limit) is an issue (`too_large`), and is
//!   not kept in memory while it streams.

use super::super::json_args::JsonArgsStream;
use super::super::json_call::{
    may_hold_key, read_call, read_leading_call, read_refused_call, JsonCall, Leading, NotACall,
};
use std::sync::Arc;

use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_read::{overran, restart_from};
use crate::scanner::{JsonScanner, ScanOptions, Span};

const NAME_KEYS: &[&str] = &["tool_name", "tool", "name"];
/// What every name key holds (`tool_name` holds both), looked for in a bare object before it
/// is read ([`may_hold_key`]).
const NAME_PARTS: &[&str] = &["tool", "name"];
const ARGS_KEYS: &[&str] = &["parameters", "params", "arguments", "args"];
/// `Sink::flags` bit: a marker has been seen in this stream.
const MARKER_SEEN: u32 = 1;
const FENCE: &[u8] = b"```";
const MAX_LABEL: usize = 16;

/// The syntax's name.
pub const NAME: &str = "tool_call_json";

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec![NAME]
}

/// The syntax with the default marker and payload limit.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == NAME).then(|| syntax("TOOL_CALL", 8000))
}

/// The syntax with a given marker (an empty marker means bare JSON only) and payload limit in
/// characters (0: none).
#[must_use]
pub fn syntax(marker: &str, max_payload_chars: usize) -> Syntax {
    let marker = marker.to_string();
    let mut markers = vec![
        ("```".to_string(), false, false),
        ("{".to_string(), false, false),
        ("[".to_string(), false, false),
    ];
    if !marker.is_empty() {
        markers.insert(0, (marker.clone(), false, false));
    }
    let has_marker = !marker.is_empty();
    // Shared by every segment: a marker repeated a million times is a million segments, and
    // a copy and a formatted message each were most of their cost.
    let message: Arc<str> = format!("{marker} is not followed by a JSON object").into();
    let marker: Arc<str> = marker.into();
    Syntax {
        name: NAME,
        markers,
        make: Box::new(
            move |Opening {
                      marker: index,
                      scan_depth,
                      ..
                  }| {
                let opened = opened_by(has_marker, index);
                Box::new(Parser::new(
                    Arc::clone(&marker),
                    Arc::clone(&message),
                    max_payload_chars,
                    opened,
                    scan_depth,
                ))
            },
        ),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opened {
    Marker,
    Fence,
    Bare,
    /// A `[` in prose: maybe a list of call objects.
    BareList,
}

/// What the syntax's marker `index` opens: the marker (when there is one), a fence, `{` or
/// `[`.
fn opened_by(has_marker: bool, index: usize) -> Opened {
    match index + usize::from(!has_marker) {
        0 => Opened::Marker,
        1 => Opened::Fence,
        2 => Opened::Bare,
        _ => Opened::BareList,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// After an opening fence: its label, up to the newline.
    FenceLabel { len: usize },
    /// Inside a fence, before the marker or the object; `matched` bytes of the marker seen.
    FenceInner { matched: usize },
    /// After the marker: blanks, `:`, or a fence, then `{`.
    AfterMarker,
    /// The label of a fence that follows the marker.
    InnerLabel { len: usize },
    /// After the marker's `[`: blanks, then the first object of a list of calls.
    ListStart,
    /// Inside the JSON object.
    Body,
    /// After an object of a list of calls: `blanks`, then `,` or `]`.
    ListAfter { blanks: usize },
    /// After the `,` of a list of calls: blanks, then the next object (or `]`).
    ListComma,
    /// After the object, looking for a closing fence: `blanks` then `matched` backticks.
    Closing { blanks: usize, matched: usize },
}

struct Parser {
    marker: Arc<str>,
    /// The `no_json_after_marker` issue's message.
    no_json: Arc<str>,
    max_chars: usize,
    opened: Opened,
    state: State,
    /// A fence was opened before the object, so a closing fence may follow it.
    fenced: bool,
    /// Bytes taken after the marker before the object (given back when no object follows).
    taken: usize,
    /// Backticks in a row after the marker.
    ticks: usize,
    scanner: JsonScanner,
    spans: Vec<Span>,
    body: String,
    chars: usize,
    preview: JsonArgsStream,
    /// The call, when the whole object arrived in one input as strict JSON and was read
    /// there in one pass (then `body` stays empty).
    read: Option<Result<JsonCall, NotACall>>,
    /// The one-pass strict read refused the text from the object's first byte, this many bytes
    /// long: a `body` no longer than that is a prefix of it, so it is not strict JSON and goes
    /// straight to repair. (A longer one grew past what the reader saw, as when the object
    /// arrives in pieces: the refusal may have been only the end of the input.)
    refused: Option<usize>,
    /// Nesting the scanner and the one-pass read accept.
    scan_depth: usize,
    /// The marker opened a list of calls: each object is a segment of its own.
    listing: bool,
    /// A list without a marker (bare or in a fence) whose first object was a call: the
    /// objects after it are its calls, reported as after a marker when they are none.
    established: bool,
    /// A listed object's call or issue, until what follows it ends its segment.
    pending: Option<Outcome>,
}

impl Parser {
    fn new(
        marker: Arc<str>,
        no_json: Arc<str>,
        max_chars: usize,
        opened: Opened,
        scan_depth: usize,
    ) -> Self {
        let mut parser = Self {
            marker,
            no_json,
            max_chars,
            opened,
            state: State::Body,
            fenced: false,
            taken: 0,
            ticks: 0,
            scanner: scanner(scan_depth),
            scan_depth,
            spans: Vec::new(),
            body: String::new(),
            chars: 0,
            preview: JsonArgsStream::new(NAME_KEYS, ARGS_KEYS),
            read: None,
            refused: None,
            listing: false,
            established: false,
            pending: None,
        };
        parser.start(opened);
        parser
    }

    /// Sets the parser to the start of a segment that `opened` opened, keeping its options and
    /// the memory of its buffers.
    fn start(&mut self, opened: Opened) {
        self.opened = opened;
        self.state = match opened {
            Opened::Marker => State::AfterMarker,
            Opened::Fence => State::FenceLabel { len: 0 },
            Opened::Bare => State::Body,
            Opened::BareList => State::ListStart,
        };
        self.fenced = opened == Opened::Fence;
        self.ticks = 0;
        self.new_object();
        self.listing = opened == Opened::BareList;
        self.established = false;
        self.pending = None;
        if opened == Opened::Bare {
            // The `{` that opened the segment is part of the object.
            let _ = self.scanner.feed(b"{", &mut self.spans);
            self.take_body("{", &mut Sink::default());
        }
    }

    fn too_large(&self) -> bool {
        self.max_chars > 0 && self.chars > self.max_chars
    }

    fn take_body(&mut self, text: &str, sink: &mut Sink) {
        let before = self.chars;
        self.chars += crate::offsets::char_count(text.as_bytes());
        if self.too_large() {
            if before <= self.max_chars && self.opened == Opened::Marker && sink.previews() {
                // The preview sees the first `max_chars` characters whatever the chunking (a
                // name announced from them stays announced), then nothing more.
                let fits = self.max_chars - before;
                let cut = text
                    .char_indices()
                    .nth(fits)
                    .map_or(text.len(), |(at, _)| at);
                self.preview.feed(&text[..cut], sink);
            }
            self.body.clear();
        } else {
            self.body.push_str(text);
            // Only a marker makes the object surely a call; a bare object may turn out to be
            // prose, and a segment announced cannot be taken back, so it is not previewed.
            if self.opened == Opened::Marker && sink.previews() {
                self.preview.feed(text, sink);
            }
        }
    }

    fn outcome(&mut self, sink: &Sink, closed: bool) -> Option<Outcome> {
        if self.too_large() {
            let message = format!(
                "payload of {} characters exceeds max_payload_chars={}",
                self.chars, self.max_chars
            );
            return Some(issue("too_large", message));
        }
        let bare = self.bare();
        if bare && self.read.is_none() && !may_hold_key(&self.body, NAME_PARTS) {
            // No name key written in it: prose, whatever else it holds.
            return None;
        }
        let read = match self.read.take() {
            Some(read) => read,
            None if self.refused.is_some_and(|seen| self.body.len() <= seen) => {
                read_refused_call(&self.body, NAME_KEYS, ARGS_KEYS)
            }
            None => read_call(&self.body, NAME_KEYS, ARGS_KEYS),
        };
        let mut outcome = match read {
            Ok(call) => Outcome {
                call: Some(call),
                issue: None,
            },
            // Prose JSON that is not a call is text, not an issue; but an object with a name
            // and arguments that are no object is a call gone wrong, as after a marker.
            Err(e) if bare && e.0 != "bad_arguments" => return None,
            Err(e) => Outcome {
                call: None,
                issue: Some(e),
            },
        };
        if bare && sink.flags & MARKER_SEEN != 0 {
            return None;
        }
        if !closed {
            if let Some(call) = &mut outcome.call {
                call.2.insert(0, "unterminated_call");
                outcome.issue = Some((
                    "unterminated",
                    "the stream ended inside the call's JSON; closed by repair".to_string(),
                ));
            }
        }
        Some(outcome)
    }
}

/// The bracket scanner an object is read with (single quotes allowed, as the repair reads).
fn scanner(max_depth: usize) -> JsonScanner {
    JsonScanner::new(ScanOptions {
        single_quotes: true,
        max_depth,
    })
}

fn issue(kind: &'static str, message: String) -> Outcome {
    Outcome {
        call: None,
        issue: Some((kind, message)),
    }
}

impl SegmentParser for Parser {
    #[allow(clippy::too_many_lines)] // one match over the states reads best whole
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let b = input.as_bytes();
        let mut i = 0;
        if self.opened == Opened::Marker {
            sink.flags |= MARKER_SEEN;
        }
        loop {
            match self.state {
                State::FenceLabel { len } => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if c == b'\n' {
                        self.state = State::FenceInner { matched: 0 };
                    } else if c.is_ascii_alphanumeric() && len < MAX_LABEL {
                        self.state = State::FenceLabel { len: len + 1 };
                    } else if c != b' ' && c != b'\r' {
                        return Step::Reject;
                    }
                    i += 1;
                }
                State::FenceInner { matched } => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    let m = self.marker.as_bytes();
                    if matched == 0 && c.is_ascii_whitespace() {
                        i += 1;
                    } else if matched == 0 && c == b'{' && sink.flags & MARKER_SEEN == 0 {
                        self.state = State::Body;
                    } else if matched == 0
                        && c == b'['
                        && sink.flags & MARKER_SEEN == 0
                        && !self.marker.starts_with('[')
                    {
                        i += 1;
                        self.listing = true;
                        self.state = State::ListStart;
                    } else if matched < m.len() && c == m[matched] {
                        i += 1;
                        if matched + 1 == m.len() {
                            sink.flags |= MARKER_SEEN;
                            self.opened = Opened::Marker;
                            self.state = State::AfterMarker;
                        } else {
                            self.state = State::FenceInner {
                                matched: matched + 1,
                            };
                        }
                    } else {
                        return Step::Reject;
                    }
                }
                State::AfterMarker => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if c.is_ascii_whitespace() || c == b':' || c == b'`' {
                        i += 1;
                        self.taken += 1;
                        // Counted, not looked back for: the backticks may arrive in pieces.
                        self.ticks = if c == b'`' { self.ticks + 1 } else { 0 };
                        if self.ticks == FENCE.len() && !self.fenced {
                            self.fenced = true;
                            self.state = State::InnerLabel { len: 0 };
                        }
                    } else if c == b'{' {
                        self.state = State::Body;
                    } else if c == b'[' {
                        i += 1;
                        self.taken += 1;
                        self.listing = true;
                        self.state = State::ListStart;
                    } else {
                        return Step::Done {
                            used: i,
                            give_back: self.taken,
                            outcome: issue("no_json_after_marker", self.no_json.to_string()),
                        };
                    }
                }
                State::ListStart => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if self.opened != Opened::Marker && sink.flags & MARKER_SEEN != 0 {
                        // After a marker, a list without one is prose, as an object is.
                        return Step::Reject;
                    }
                    if c.is_ascii_whitespace() {
                        i += 1;
                        self.taken += 1;
                    } else if c == b'{' {
                        self.state = State::Body;
                    } else if self.opened != Opened::Marker {
                        // `[1]`, `[see below]`: prose.
                        return Step::Reject;
                    } else {
                        // `TOOL_CALL: [1, 2]` or `[]`: no call, and the text after the marker
                        // is read again as text.
                        return Step::Done {
                            used: i,
                            give_back: self.taken,
                            outcome: issue("no_json_after_marker", self.no_json.to_string()),
                        };
                    }
                }
                State::ListAfter { blanks } => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if c.is_ascii_whitespace() {
                        self.state = State::ListAfter { blanks: blanks + 1 };
                        i += 1;
                    } else if c == b',' {
                        i += 1;
                        self.state = State::ListComma;
                    } else if c == b']' {
                        i += 1;
                        if let Some(step) = self.list_closed(i, sink) {
                            return step;
                        }
                    } else if c == b'{' {
                        // A comma left out: the next object is read all the same.
                        return self.next_element(i);
                    } else {
                        // The list breaks off: its last call ends here, the rest is text.
                        return self.cut_list(i, blanks);
                    }
                }
                State::ListComma => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if c.is_ascii_whitespace() {
                        i += 1;
                    } else if c == b'{' {
                        return self.next_element(i);
                    } else if c == b']' {
                        // A trailing comma.
                        i += 1;
                        if let Some(step) = self.list_closed(i, sink) {
                            return step;
                        }
                    } else {
                        return self.cut_list(i, 0);
                    }
                }
                State::InnerLabel { len } => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if c.is_ascii_alphanumeric() && len < MAX_LABEL {
                        self.state = State::InnerLabel { len: len + 1 };
                        i += 1;
                        self.taken += 1;
                    } else {
                        self.state = State::AfterMarker;
                    }
                }
                State::Body => {
                    let end = if let Some(end) = self.read_whole(&input[i..], sink) {
                        end
                    } else {
                        let base = self.scanner.consumed();
                        self.spans.clear();
                        if let Err(e) = self.scanner.feed_until_closed(&b[i..], &mut self.spans) {
                            // The segment takes the text up to the opener past the limit: ending
                            // it before would read the same brackets again from every opener
                            // inside.
                            return Step::Done {
                                used: (i + e.offset.saturating_sub(base) + 1).min(b.len()),
                                give_back: 0,
                                outcome: issue("too_deep", "JSON nested too deeply".to_string()),
                            };
                        }
                        let end = self
                            .spans
                            .iter()
                            .find(|s| s.depth == 0)
                            .map(|s| s.end - base);
                        let Some(end) = end else {
                            self.take_body(&input[i..], sink);
                            return Step::NeedMore;
                        };
                        self.take_body(&input[i..i + end], sink);
                        end
                    };
                    i += end;
                    if self.read.is_none() && !self.marker.is_empty() {
                        if let Some((at, _)) = overran(&self.body, &[&self.marker], sink) {
                            // A string that never closed ran over the next call's marker and
                            // closed at a later quote, whose brackets then balanced this
                            // object: the call is what came before that marker, repaired as a
                            // call the stream cut off, and the rest is read again.
                            let give_back = self.body.len() - at;
                            self.body.truncate(at);
                            return self.done(i, give_back, sink, false);
                        }
                    }
                    if self.listing {
                        let first = self.bare();
                        self.pending = self.outcome(sink, true);
                        if first {
                            if self.pending.is_none() {
                                // A list in prose whose first object is no call: the `[` and
                                // that object are text, and what follows is read on.
                                return Step::RejectAsText {
                                    used: i,
                                    give_back: 0,
                                };
                            }
                            self.established = true;
                        }
                        self.state = State::ListAfter { blanks: 0 };
                        continue;
                    }
                    if !self.fenced {
                        return self.done(i, 0, sink, true);
                    }
                    self.state = State::Closing {
                        blanks: 0,
                        matched: 0,
                    };
                }
                State::Closing { blanks, matched } => {
                    let Some(&c) = b.get(i) else {
                        return Step::NeedMore;
                    };
                    if matched == 0 && c.is_ascii_whitespace() {
                        self.state = State::Closing {
                            blanks: blanks + 1,
                            matched,
                        };
                    } else if c == b'`' {
                        if matched + 1 == FENCE.len() {
                            return self.done(i + 1, 0, sink, true);
                        }
                        self.state = State::Closing {
                            blanks,
                            matched: matched + 1,
                        };
                    } else {
                        return self.done(i, blanks + matched, sink, true);
                    }
                    i += 1;
                }
            }
        }
    }

    fn recycle(&mut self, opening: &Opening) -> bool {
        // Most bare objects in prose are no call, so one parser serves them all in turn.
        if opening.scan_depth != self.scan_depth {
            return false;
        }
        self.start(opened_by(!self.marker.is_empty(), opening.marker));
        true
    }

    fn restart_back(&self) -> Option<usize> {
        if self.state != State::Body {
            return None;
        }
        // The scanner has read the whole object so far (the body is emptied past the payload
        // limit), which ends the segment's text.
        let from = restart_from(&self.body, self.scanner.open_string_start())?;
        Some(self.scanner.consumed().saturating_sub(from))
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        match self.state {
            State::Body => self.outcome(sink, false).unwrap_or_default(),
            State::Closing { .. } => self
                .pending
                .take()
                .or_else(|| self.outcome(sink, true))
                .unwrap_or_default(),
            State::ListAfter { .. } | State::ListComma => self.unclosed_list(),
            State::ListStart if self.opened != Opened::Marker => Outcome::default(),
            State::AfterMarker | State::InnerLabel { .. } | State::ListStart => {
                issue("no_json_after_marker", self.no_json.to_string())
            }
            State::FenceLabel { .. } | State::FenceInner { .. } => Outcome::default(),
        }
    }
}

impl Parser {
    /// The object being read may be prose: no marker opened it, and it is not an object after
    /// the first of a list of calls.
    fn bare(&self) -> bool {
        !self.established && self.opened != Opened::Marker
    }

    /// The common case in one pass: when nothing of the object has been taken yet and `input`
    /// opens with the whole object as strict JSON within the payload limit, reads the call
    /// there and returns the object's length. The bracket scan would find the same end and
    /// `read_call` the same call, so the result does not depend on how the text was chunked.
    fn read_whole(&mut self, input: &str, sink: &mut Sink) -> Option<usize> {
        if self.chars != 0 {
            return None;
        }
        let (call, end) = match read_leading_call(input, NAME_KEYS, ARGS_KEYS, self.scan_depth) {
            Leading::Read(call, end) => (call, end),
            Leading::Refused => {
                self.refused = Some(input.len());
                return None;
            }
            Leading::Unknown => return None,
        };
        let text = &input[..end];
        let chars = crate::offsets::char_count(text.as_bytes());
        if self.max_chars > 0 && chars > self.max_chars {
            return None;
        }
        self.chars = chars;
        if self.opened == Opened::Marker && sink.previews() {
            self.preview.feed(text, sink);
        }
        self.read = Some(call);
        Some(end)
    }

    /// The object of a list of calls that starts at `at` opens a segment of its own; the one
    /// before it ends there.
    fn next_element(&mut self, at: usize) -> Step {
        let outcome = self.pending.take().unwrap_or_default();
        self.new_object();
        self.state = State::Body;
        Step::Split { used: at, outcome }
    }

    /// Forgets the object read so far (and what was taken before it), for the next one.
    fn new_object(&mut self) {
        self.taken = 0;
        self.scanner.reset();
        self.spans.clear();
        self.body.clear();
        self.chars = 0;
        self.preview = JsonArgsStream::new(NAME_KEYS, ARGS_KEYS);
        self.read = None;
        self.refused = None;
    }

    /// The list's `]` ends before `used`: its last object's segment ends there, or, in a
    /// fence, once the closing fence is looked for (`None`: reading goes on).
    fn list_closed(&mut self, used: usize, sink: &Sink) -> Option<Step> {
        if !self.fenced {
            return Some(self.done(used, 0, sink, true));
        }
        self.state = State::Closing {
            blanks: 0,
            matched: 0,
        };
        None
    }

    /// The last listed call, with `missing_end_marker` when it has no issue of its own.
    fn unclosed_list(&mut self) -> Outcome {
        let mut outcome = self.pending.take().unwrap_or_default();
        if outcome.call.is_some() && outcome.issue.is_none() {
            outcome.issue = Some(("missing_end_marker", "no ] after the call".to_string()));
        }
        outcome
    }

    /// The list breaks off at `at` (after `blanks` blanks, given back): its last object's
    /// segment ends, and the rest is read as text.
    fn cut_list(&mut self, at: usize, blanks: usize) -> Step {
        Step::Done {
            used: at,
            give_back: blanks,
            outcome: self.unclosed_list(),
        }
    }

    fn done(&mut self, used: usize, give_back: usize, sink: &Sink, closed: bool) -> Step {
        if let Some(outcome) = self.pending.take() {
            return Step::Done {
                used,
                give_back,
                outcome,
            };
        }
        match self.outcome(sink, closed) {
            Some(outcome) => Step::Done {
                used,
                give_back,
                outcome,
            },
            None => Step::RejectAsText { used, give_back: 0 },
        }
    }
}

#[cfg(test)]
#[path = "tool_call_json_tests.rs"]
mod tests;
