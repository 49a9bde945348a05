//! Syntaxes whose calls are bare JSON in the text: `json_openai`, `json_gemini`,
//! `json_default`, `llama3_json` and `xlam`.
//!
//! They have no unique marker: every `{` (and `[` where lists are allowed) starts a candidate,
//! plus the special tokens where they exist (`<|python_tag|>`; a ```` ```json ```` fence, with
//! the newline before it and its closing ```` ``` ````; `[TOOL_CALLS]` before an xLAM list). A
//! [`Tokenizer`] follows the value byte by byte (lenient JSON: single quotes, Python words,
//! trailing commas), so the parser knows where it ends without rescanning. The first byte that
//! cannot continue JSON makes everything taken so far plain text (`RejectAsText`, which costs
//! nothing more: brackets are never read twice). A run of `{` is one piece of text, less its
//! last `{` when that may open a call ([`Run`]). A complete value is a call only if it has the
//! syntax's shape ([`Shape`]: the name key, and for bare objects an arguments key too); anything
//! else is text. So prose `{"name": "Ann"}` or `[1, 2]` stays text. A value that holds neither
//! `name` nor `tool` as written ([`CALL_KEY_PARTS`]) is text without that read.
//!
//! A single call object is announced (`SegmentStart` with its name) as soon as its top level
//! shows a string `name` and an arguments key of the syntax, before the arguments stream in.
//! If its JSON then breaks off, the rest of the object is read to where its brackets balance
//! ([`Skip`]) and the whole object goes through the lenient repair, as a tagged syntax's
//! would: a call with its repairs, or a `not_json` issue over all of it (also when a blank
//! line, a new value on its level or the end of the stream comes first). It never turns back
//! into text once announced.
//!
//! Delimiters inside values: braces, brackets, `;`, fences and special tokens inside JSON
//! strings are string content and never end or start anything. Llama 3's `;` between calls
//! belongs to the call before it only when another `{` follows; otherwise it is text.
//!
//! A top-level list whose first element is a call (`json_gemini`, `json_default`, `xlam`)
//! goes element by element: each element is its own segment, announced when it closes, its
//! span running to the next element (the last one takes the `]`). Other multi-call values
//! (`json_openai` lists and `{"tool_calls": [...]}`) are known only when complete: the first
//! call carries the value's text and span, the others follow it with empty ones. A list cut
//! off keeps its complete calls (the last flagged `missing_end_marker`). At the end of the
//! stream a partial value that already shows a call's keys is an `unterminated` issue; one
//! that does not is text.

use super::super::events::SegmentKind;
use super::super::json_call::may_hold_key;
use super::super::{KnownTools, Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::broken_skip::{Skip, Stop};
use super::json_shape::{extract, BareJson, Shape, Tail, SPECS};
use super::json_tokenizer::{Tok, Tokenizer};
use super::lex::outcome_of;
use super::opener_run::Run;
use crate::scanner::{scan_json_spans, ScanOptions, Span, DEFAULT_MAX_DEPTH};

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    SPECS.iter().map(|s| s.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    let spec: &'static BareJson = SPECS.iter().find(|s| s.name == name)?;
    Some(Syntax {
        name: spec.name,
        markers: spec
            .markers
            .iter()
            .map(|m| ((*m).to_string(), false, false))
            .collect(),
        make: Box::new(
            move |Opening {
                      marker: index,
                      known,
                      ..
                  }| {
                let marker = spec.markers.get(index).copied().unwrap_or("{");
                Box::new(BareParser::new(spec, marker, known))
            },
        ),
    })
}

/// What every shape's call keys hold: `name` (an entry, Gemini's `functionCall`, a known
/// tool's bare name) or `tool` (`tool_calls`, `tools`, `json_default`'s `{"tool": …}`). A
/// value without either as written ([`may_hold_key`]) holds no call, whatever it reads as.
const CALL_KEY_PARTS: &[&str] = &["name", "tool"];

/// `[TOOL_CALLS]` may open an xLAM list: its tail after the `[` marker.
const TOOL_CALLS_REST: &[u8] = b"TOOL_CALLS]";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// After a token marker: blanks, then the value's first byte.
    Before,
    /// After `[`: maybe `TOOL_CALLS]` (`matched` bytes of it so far).
    ToolCalls { matched: usize },
    /// Inside the value.
    Value,
    /// In a run of `{` that is text (see [`Run`]).
    Run(Run),
    /// In an announced call object after its JSON broke off.
    Broken(Skip),
    /// After the value: its tail (`taken` bytes so far; `stage` 1 once `;` or part of the
    /// fence was seen).
    After { taken: usize, stage: usize },
}

struct BareParser {
    spec: &'static BareJson,
    /// The caller's tools: a name-only object naming one is a call.
    known: KnownTools,
    state: State,
    tok: Tokenizer,
    /// The value's text so far.
    body: String,
    /// Calls of a complete value not yet reported (the last one ends the segment), each with
    /// the id its object gives it.
    queue: Vec<(Outcome, Option<String>)>,
    /// A top-level list whose first element is a call: each element is its own segment,
    /// announced when the element closes and ended when the next one opens.
    listed: bool,
    /// Where the current list element starts in `body`.
    element_start: usize,
    /// The segment was announced before its value was complete.
    announced: bool,
    /// What closes the value's wrapper ([`Tail::Fence`]): `</tool_call>` after that tag,
    /// otherwise a fence's closing backticks.
    closer: &'static str,
    /// How the value ends: the syntax's [`Tail`], or [`Tail::Fence`] when a fence opened it.
    tail: Tail,
}

impl BareParser {
    fn new(spec: &'static BareJson, marker: &str, known: KnownTools) -> Self {
        let mut parser = Self {
            spec,
            known,
            state: State::Before,
            tok: Tokenizer::new(),
            body: String::new(),
            queue: Vec::new(),
            listed: false,
            element_start: 0,
            announced: false,
            closer: "```",
            tail: spec.tail,
        };
        parser.start(marker);
        parser
    }

    /// Sets every field but the spec and the known tools to the start of a segment `marker`
    /// opened, in place: the buffers keep their memory, and nothing is moved (rebuilding the
    /// parser whole and moving it in took as long as making a new one).
    fn start(&mut self, marker: &str) {
        self.state = State::Before;
        self.tok.reset();
        self.body.clear();
        self.queue.clear();
        self.listed = false;
        self.element_start = 0;
        self.announced = false;
        self.closer = if marker == "<tool_call>" {
            "</tool_call>"
        } else {
            "```"
        };
        self.tail = if marker.trim_start().starts_with("```") {
            Tail::Fence
        } else {
            self.spec.tail
        };
        match marker {
            "{" => self.open(b'{'),
            "[" if self.spec.shape == Shape::Xlam => {
                self.state = State::ToolCalls { matched: 0 };
            }
            "[" => self.open(b'['),
            _ => {}
        }
    }

    /// Starts the value with its first byte.
    fn open(&mut self, b: u8) {
        self.tok.announce_keys = match self.spec.shape {
            Shape::Default => &[],
            Shape::Gemini => &[b"args", b"arguments"],
            Shape::OpenAi | Shape::Xlam | Shape::Llama3 => &[b"arguments", b"parameters"],
        };
        // Lists of single calls go element by element (an `OpenAI` element may hold several).
        self.tok.elements = b == b'[' && self.spec.shape != Shape::OpenAi;
        self.tok.open(b);
        self.body.push(char::from(b));
        self.state = State::Value;
    }

    /// The value is complete: its calls, or `None` when it is not a call.
    fn complete(&mut self) -> bool {
        if !may_hold_key(&self.body, CALL_KEY_PARTS) {
            // No call key as written: prose, without reading it (JSON or code in a reply).
            return false;
        }
        match extract(self.spec.shape, &self.known, &self.body) {
            Some(calls) if !calls.is_empty() => {
                self.queue = calls
                    .into_iter()
                    .map(|(found, id)| (outcome_of(found), id))
                    .collect();
                self.queue.reverse();
                true
            }
            _ => false,
        }
    }

    /// Announces the next queued call.
    fn announce(&self, sink: &mut Sink) {
        if let Some((o, id)) = self.queue.last() {
            let name = o.call.as_ref().map(|c| c.0.as_str());
            sink.start_with_id(SegmentKind::ToolCall, name, Vec::new(), id.as_deref());
        }
    }

    /// Announces a single-object call as soon as its name and an arguments key are known.
    fn announce_early(&mut self, sink: &mut Sink) {
        if self.announced || self.listed {
            return;
        }
        if let Some(name) = self.tok.announceable() {
            sink.start(SegmentKind::ToolCall, Some(name), Vec::new());
            self.announced = true;
        }
    }

    /// An announced call whose JSON breaks off.
    fn broken(&self) -> Outcome {
        Outcome {
            call: None,
            issue: Some((
                "not_json",
                format!("the call's JSON breaks off: {}", self.body.trim_end()),
            )),
        }
    }

    /// A list element closed: with a call first, the list goes element by element.
    fn element_end(&mut self, sink: &mut Sink) {
        let text = self.body.get(self.element_start..).unwrap_or_default();
        // Read once: after the first element the list is either listed or judged whole.
        let first = self.listed
            || self
                .body
                .get(1..self.element_start)
                .is_some_and(|before| before.trim().is_empty());
        let found = extract(self.spec.shape, &self.known, text).and_then(|mut v| v.pop());
        if !self.listed {
            if !(first && matches!(found, Some((Ok(_), _)))) {
                // Not a list of calls from its start: it is judged whole when it is complete,
                // and its elements are no longer reported (each is looked at once at most).
                self.tok.elements = false;
                return;
            }
            self.listed = true;
        }
        self.queue.push(match found {
            Some((found, id)) => (outcome_of(found), id),
            None => (not_a_call(), None),
        });
        self.announce(sink);
    }

    /// A list of calls ends early (bad JSON or the end of the stream).
    fn cut_list(&mut self) -> Outcome {
        match self.queue.pop() {
            Some((mut outcome, _)) => {
                if outcome.issue.is_none() {
                    outcome.issue = Some(("missing_end_marker", "no ] after the call".to_string()));
                }
                outcome
            }
            None => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!(
                        "the list's call ends early: {}",
                        self.body.get(self.element_start..).unwrap_or_default()
                    ),
                )),
            },
        }
    }

    /// The value cannot go on at `next` (byte `i` of the input): how the segment ends, or
    /// `None` when a run of `{` begins there.
    fn not_json(&mut self, next: Option<&u8>, i: usize, sink: &mut Sink) -> Option<Step> {
        let outcome = if self.listed {
            self.cut_list()
        } else if self.announced {
            let last = self.body.trim_end().bytes().last().unwrap_or(b'{');
            self.state = State::Broken(Skip::new(self.tok.open_containers(), last));
            return None;
        } else if self.calls_before_break() {
            // Its calls end their segments one by one (see `feed`), the issue last.
            self.state = State::After { taken: 0, stage: 0 };
            self.announce(sink);
            let outcome = self.last();
            return Some(Step::Split { used: i, outcome });
        } else if let Some(run) = Run::after(&self.body, next) {
            self.state = State::Run(run);
            return None;
        } else {
            return Some(Step::RejectAsText {
                used: i,
                give_back: 0,
            });
        };
        Some(Step::Done {
            used: i,
            give_back: 0,
            outcome,
        })
    }

    /// A list judged whole (`json_openai`) whose JSON breaks off after complete elements, the
    /// first of them a call: queues those elements' calls (or issues), then a `not_json` issue
    /// for the rest, and returns true. One broken element does not make the calls before it
    /// text. Each byte of the list is scanned once more, once.
    fn calls_before_break(&mut self) -> bool {
        if !self.body.starts_with('[') {
            return false;
        }
        let options = ScanOptions {
            single_quotes: true,
            max_depth: DEFAULT_MAX_DEPTH,
        };
        let Ok(scan) = scan_json_spans(self.body.as_bytes(), &options) else {
            return false;
        };
        let elements: Vec<&Span> = scan.spans.iter().filter(|s| s.depth == 1).collect();
        let mut queue = Vec::new();
        for (k, span) in elements.iter().enumerate() {
            let text = self.body.get(span.start..span.end).unwrap_or_default();
            match extract(self.spec.shape, &self.known, text) {
                Some(calls) if !calls.is_empty() => {
                    queue.extend(calls.into_iter().map(|(f, id)| (outcome_of(f), id)));
                }
                _ if k == 0 => return false,
                _ => queue.push((not_a_call(), None)),
            }
        }
        if !queue.iter().any(|(o, _)| o.call.is_some()) {
            return false;
        }
        let rest = elements.last().map_or(0, |s| s.end);
        queue.push((
            Outcome {
                call: None,
                issue: Some((
                    "not_json",
                    format!(
                        "the list's JSON breaks off after its complete calls: {}",
                        self.body.get(rest..).unwrap_or_default()
                    ),
                )),
            },
            None,
        ));
        queue.reverse();
        self.queue = queue;
        true
    }

    /// Inside a run of `{`, from byte `i` of `bytes`.
    fn in_run(&mut self, mut run: Run, bytes: &[u8], i: usize) -> Step {
        let step = run.feed(bytes, i);
        self.state = State::Run(run);
        step.unwrap_or(Step::NeedMore)
    }

    /// After `[`, maybe `TOOL_CALLS]` (`matched` bytes of it so far), from byte `*i` of
    /// `bytes`: the step to return, if any (else `*i` is where the list's value goes on).
    fn in_tool_calls(&mut self, mut matched: usize, bytes: &[u8], i: &mut usize) -> Option<Step> {
        while *i < bytes.len() && matched < TOOL_CALLS_REST.len() {
            if bytes[*i] == TOOL_CALLS_REST[matched] {
                matched += 1;
                *i += 1;
            } else if matched == 0 {
                break;
            } else {
                return Some(Step::Reject);
            }
        }
        if matched == TOOL_CALLS_REST.len() {
            self.state = State::Before;
        } else if *i == bytes.len() {
            if matched > 0 {
                self.state = State::ToolCalls { matched };
            }
            return Some(Step::NeedMore);
        } else {
            self.open(b'[');
        }
        None
    }

    /// Inside an announced call after its JSON broke off, from byte `*i` of `input`: the step
    /// that ends the segment, if any (else `*i` is where the tail after the closed object
    /// starts).
    fn in_broken(
        &mut self,
        mut skip: Skip,
        input: &str,
        i: &mut usize,
        sink: &mut Sink,
    ) -> Option<Step> {
        let at = *i;
        let stop = skip.feed(&input.as_bytes()[at..]);
        self.state = State::Broken(skip);
        // Every stop is at an ASCII byte, so a character boundary.
        let (n, give_back) = match stop {
            Stop::More => {
                self.body.push_str(&input[at..]);
                return Some(Step::NeedMore);
            }
            Stop::Closed(n) => {
                self.body.push_str(&input[at..at + n]);
                *i = at + n;
                if !self.complete() {
                    self.queue = vec![(self.broken(), None)];
                }
                self.announce(sink);
                self.state = State::After { taken: 0, stage: 0 };
                if self.queue.len() > 1 {
                    let outcome = self.last();
                    return Some(Step::Split { used: *i, outcome });
                }
                return None;
            }
            Stop::Before(n) => (n, 0),
            Stop::Paragraph { at: n, give_back } => (n, give_back),
        };
        self.body.push_str(&input[at..at + n]);
        Some(Step::Done {
            used: at + n,
            give_back,
            outcome: self.broken(),
        })
    }

    fn last(&mut self) -> Outcome {
        self.queue.pop().map(|(o, _)| o).unwrap_or_default()
    }

    /// After the value: its tail, from byte `i` of `bytes`.
    fn after(&mut self, bytes: &[u8], mut i: usize, mut taken: usize, mut stage: usize) -> Step {
        let done = |used, give_back, me: &mut Self| Step::Done {
            used,
            give_back,
            outcome: me.last(),
        };
        match self.tail {
            Tail::None => return done(i, 0, self),
            Tail::Semicolon => {
                while let Some(&b) = bytes.get(i) {
                    if b.is_ascii_whitespace() {
                    } else if b == b';' && stage == 0 {
                        stage = 1;
                    } else if b == b'{' && stage == 1 {
                        return done(i, 0, self);
                    } else {
                        return done(i, taken, self);
                    }
                    taken += 1;
                    i += 1;
                }
            }
            Tail::Fence => {
                let closer = self.closer.as_bytes();
                while let Some(&b) = bytes.get(i) {
                    if b.is_ascii_whitespace() && stage == 0 {
                    } else if closer.get(stage) == Some(&b) {
                        stage += 1;
                        if stage == closer.len() {
                            return done(i + 1, 0, self);
                        }
                    } else {
                        return done(i, taken, self);
                    }
                    taken += 1;
                    i += 1;
                }
            }
        }
        self.state = State::After { taken, stage };
        Step::NeedMore
    }
}

/// The issue of an element of a list of calls that is not a call.
fn not_a_call() -> Outcome {
    Outcome {
        call: None,
        issue: Some((
            "no_name",
            "an element of the list is not a call".to_string(),
        )),
    }
}

impl SegmentParser for BareParser {
    fn recycle(&mut self, opening: &Opening) -> bool {
        // Every `{` of the prose opens a segment, most of them text: one parser serves them.
        let marker = self
            .spec
            .markers
            .get(opening.marker)
            .copied()
            .unwrap_or("{");
        self.known = opening.known.clone();
        self.start(marker);
        true
    }

    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let bytes = input.as_bytes();
        let mut i = 0;
        // Calls of a multi-call value: each but the last ends its own segment.
        if self.queue.len() > 1 && matches!(self.state, State::After { .. }) {
            self.announce(sink);
            let outcome = self.last();
            return Step::Split { used: 0, outcome };
        }
        loop {
            match self.state {
                State::Before => {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    match bytes.get(i) {
                        None => return Step::NeedMore,
                        Some(&b) if b == b'{' || (b == b'[' && self.spec.shape.lists()) => {
                            self.open(b);
                            i += 1;
                        }
                        Some(_) => return Step::Reject,
                    }
                }
                State::ToolCalls { matched } => {
                    if let Some(step) = self.in_tool_calls(matched, bytes, &mut i) {
                        return step;
                    }
                }
                State::Value => {
                    let (n, status) = self.tok.feed(&bytes[i..]);
                    self.body.push_str(&input[i..i + n]);
                    i += n;
                    self.announce_early(sink);
                    match status {
                        Tok::More => return Step::NeedMore,
                        Tok::ElementStart => {
                            self.element_start = self.body.len();
                            if self.listed {
                                if let Some((outcome, _)) = self.queue.pop() {
                                    return Step::Split { used: i, outcome };
                                }
                            }
                        }
                        Tok::ElementEnd => self.element_end(sink),
                        Tok::NotJson => {
                            if let Some(step) = self.not_json(bytes.get(i), i, sink) {
                                return step;
                            }
                        }
                        Tok::Done => {
                            if !self.listed && !self.complete() {
                                if !self.announced {
                                    return Step::RejectAsText {
                                        used: i,
                                        give_back: 0,
                                    };
                                }
                                self.queue = vec![(
                                    Outcome {
                                        call: None,
                                        issue: Some((
                                            "no_name",
                                            format!("not a {} call: {}", self.spec.name, self.body),
                                        )),
                                    },
                                    None,
                                )];
                            }
                            self.announce(sink);
                            self.state = State::After { taken: 0, stage: 0 };
                            if self.queue.len() > 1 {
                                let outcome = self.last();
                                return Step::Split { used: i, outcome };
                            }
                        }
                    }
                }
                State::Run(run) => return self.in_run(run, bytes, i),
                State::Broken(skip) => {
                    if let Some(step) = self.in_broken(skip, input, &mut i, sink) {
                        return step;
                    }
                }
                State::After { taken, stage } => return self.after(bytes, i, taken, stage),
            }
        }
    }

    fn finish(&mut self, _sink: &mut Sink) -> Outcome {
        match self.state {
            State::After { .. } => self.last(),
            State::Broken(_) => self.broken(),
            State::Value if self.listed => self.cut_list(),
            State::Value if self.tok.looks_like_call() => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("the stream ended inside the call's JSON: {}", self.body),
                )),
            },
            // A marker or a partial value without a call's keys: plain text.
            _ => Outcome::default(),
        }
    }
}

#[cfg(test)]
#[path = "bare_json_tests.rs"]
mod tests;
