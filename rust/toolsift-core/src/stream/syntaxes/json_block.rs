//! Syntaxes whose call is one JSON object between a start marker and an end marker.
//!
//! They differ only in data (markers and key aliases), so each is a [`JsonBlock`] constant.
//! The object is found with the resumable bracket scanner, so braces inside strings and a
//! marker split across chunks change nothing. Blanks after the start marker are skipped;
//! anything else there means the marker was text after all. A missing end marker is reported
//! as an issue of the call, not a lost call. A Markdown fence may wrap the object inside the
//! block (```` <tool_call>⏎```json⏎{…}⏎```⏎</tool_call> ````, as small models write it): the
//! opening fence is skipped with the blanks, and a closing fence alone before the end marker
//! belongs to the block without a `trailing_text` issue.
//!
//! Inside one block, more call objects may follow the first (blanks or a comma between): each
//! is a call of its own ([`Step::Split`]), as parallel calls written in one block. Other text
//! after the object is the block's only while the end marker comes within [`MAX_TRAIL`] bytes
//! (with no other tag before it): the call is kept with a `trailing_text` issue, and neither
//! that text nor the end marker is content. Otherwise the end marker is missing and the text
//! after the object is content, as before.

use super::super::json_args::JsonArgsStream;
use super::super::json_call::read_call;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_list::{self, JsonList};
use super::json_read::overran;
use super::lex::{flagged, issue, missing_end, outcome_of};
use crate::scanner::{JsonScanner, ScanOptions, Span};

/// The data that defines one JSON-block syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonBlock {
    /// The syntax's name.
    pub name: &'static str,
    /// The start marker.
    pub start: &'static str,
    /// A second token that must follow the start marker, after optional blanks (empty for
    /// none): `InternLM` writes `<|action_start|> <|plugin|>`.
    pub then: &'static str,
    /// The end marker.
    pub end: &'static str,
    /// Keys that may hold the tool's name, by priority.
    pub name_keys: &'static [&'static str],
    /// Keys that may hold the arguments, by priority.
    pub args_keys: &'static [&'static str],
    /// An array of call objects may stand in for the object, one call per element, read by
    /// `json_list`'s parser as this list syntax (`hermes`: Qwen models write parallel calls
    /// as `<tool_call>[{...}, {...}]</tool_call>`).
    pub array: Option<&'static JsonList>,
}

/// Every JSON-block syntax.
pub const BLOCKS: &[JsonBlock] = &[
    JsonBlock {
        name: "run_module",
        start: "[RUN_MODULE]",
        then: "",
        end: "[/RUN_MODULE]",
        name_keys: &["module", "name"],
        args_keys: &["args", "arguments", "parameters"],
        array: None,
    },
    JsonBlock {
        name: "hermes",
        start: "<tool_call>",
        then: "",
        end: "</tool_call>",
        name_keys: &["name"],
        args_keys: &["arguments", "parameters"],
        array: Some(&json_list::HERMES_ARRAY),
    },
    JsonBlock {
        name: "internlm",
        start: "<|action_start|>",
        then: "<|plugin|>",
        end: "<|action_end|>",
        name_keys: &["name"],
        args_keys: &["parameters", "arguments"],
        array: None,
    },
];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    BLOCKS.iter().map(|b| b.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    BLOCKS
        .iter()
        .find(|b| b.name == name)
        .map(JsonBlock::syntax)
}

impl JsonBlock {
    /// This syntax, for an engine.
    #[must_use]
    pub fn syntax(&'static self) -> Syntax {
        Syntax {
            name: self.name,
            markers: vec![(self.start.to_string(), false, false)],
            make: Box::new(move |opening: Opening| {
                Box::new(BlockParser::new(self, opening.scan_depth))
            }),
        }
    }
}

/// At most this much of a non-JSON body is kept for its issue's message.
const MAX_JUNK: usize = 512;

/// How far after a call's object the end marker is looked for past text that is neither
/// blank nor another object (`{...}} </tool_call>`, `{...} junk</tool_call>`). Bounded so
/// that a block whose end marker never comes holds back at most this much of the prose after
/// it, streamed.
pub(crate) const MAX_TRAIL: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Blanks after the start marker, then the `then` token (`matched` bytes of it seen).
    Then { matched: usize },
    /// Blanks before the object.
    Before,
    /// An opening fence before the object: `ticks` backticks, then `lang` bytes of its
    /// language tag.
    Fence { ticks: u8, lang: usize },
    /// Inside the JSON object.
    Body,
    /// After the object: blanks and at most one comma (`taken` bytes), then the end marker
    /// (`matched` bytes of it seen so far) or another object.
    After {
        taken: usize,
        comma: bool,
        matched: usize,
    },
    /// After the object, text that is neither blank nor an object: `taken` bytes since the
    /// object, looked through for the end marker (`matched` bytes of it seen so far).
    Trail { taken: usize, matched: usize },
    /// After both start tokens, something that is not an object: read up to the end marker
    /// and reported (two special tokens in a row are a call, not prose).
    Junk { matched: usize },
}

struct BlockParser {
    spec: &'static JsonBlock,
    state: State,
    /// The parser of an array that stands in for the object (see [`JsonBlock::array`]), which
    /// reads the rest of the segment once it has begun.
    array: Option<Box<dyn SegmentParser>>,
    /// Nesting the scanners accept.
    scan_depth: usize,
    scanner: JsonScanner,
    spans: Vec<Span>,
    body: String,
    /// The text after the object in [`State::Trail`], for the issue's message.
    trail: String,
    preview: JsonArgsStream,
    /// An opening fence was skipped before the object.
    fenced: bool,
}

/// The longest language tag an opening fence may carry (`json`, `javascript`, …).
const MAX_LANG: usize = 16;

impl BlockParser {
    fn new(spec: &'static JsonBlock, max_depth: usize) -> Self {
        Self {
            spec,
            state: if spec.then.is_empty() {
                State::Before
            } else {
                State::Then { matched: 0 }
            },
            array: None,
            scan_depth: max_depth,
            scanner: JsonScanner::new(ScanOptions {
                single_quotes: true,
                max_depth,
            }),
            spans: Vec::new(),
            body: String::new(),
            trail: String::new(),
            preview: JsonArgsStream::new(spec.name_keys, spec.args_keys),
            fenced: false,
        }
    }

    fn call(&self) -> Outcome {
        outcome_of(read_call(
            &self.body,
            self.spec.name_keys,
            self.spec.args_keys,
        ))
    }

    /// Arguments that are not an object, up to the end marker.
    fn junk(&self) -> Outcome {
        let text = self.body.trim_end();
        let text = text.strip_suffix(self.spec.end).unwrap_or(text).trim();
        Outcome {
            call: None,
            issue: Some((
                "not_json",
                format!(
                    "the call after {} is not a JSON object: {text}",
                    self.spec.then
                ),
            )),
        }
    }

    /// An array where the object was expected (see [`JsonBlock::array`]): `rest` (from its
    /// `[`, `skipped` bytes into this feed's input) and the rest of the segment go to the list
    /// parser.
    fn open_array(&mut self, rest: &str, skipped: usize, sink: &mut Sink) -> Step {
        let Some(spec) = self.spec.array else {
            return Step::Reject;
        };
        let array = self.array.insert(json_list::parser(spec, self.scan_depth));
        array
            .feed(rest, sink)
            .map_counts(|used, give_back| (used + skipped, give_back))
    }

    /// The call, with the text between its object and the end marker (`trail`) reported,
    /// unless that text is the closing fence of an opening one.
    fn trailing(&self) -> Outcome {
        let text = self
            .trail
            .strip_suffix(self.spec.end)
            .unwrap_or(&self.trail);
        if self.fenced && text.trim() == "```" {
            return self.call();
        }
        flagged(self.call(), "trailing_text", || {
            format!(
                "text after the call's JSON, before {}: {}",
                self.spec.end,
                text.trim()
            )
        })
    }

    /// Ready for the next object of the same block, which starts a segment of its own.
    fn next_object(&mut self) {
        *self = Self::new(self.spec, self.scan_depth);
    }

    fn missing_end(&self) -> Outcome {
        missing_end(self.call(), self.spec.end)
    }
}

impl SegmentParser for BlockParser {
    fn chain(&mut self) -> Option<Box<dyn SegmentParser>> {
        // The list of calls standing in for the object goes on in a segment of its own.
        let array = self.array.as_mut()?.chain()?;
        let mut next = BlockParser::new(self.spec, self.scan_depth);
        next.array = Some(array);
        Some(Box::new(next))
    }

    fn finish_is_framing(&self) -> bool {
        self.array.as_ref().is_some_and(|a| a.finish_is_framing())
    }

    fn cut_at_end(&mut self, sink: &mut Sink) -> Option<(usize, Outcome)> {
        if let State::Trail { taken, matched } = self.state {
            // The end marker never came: the text after the object is text again.
            return Some((taken + matched, self.missing_end()));
        }
        self.array.as_mut()?.cut_at_end(sink)
    }

    #[allow(clippy::too_many_lines)] // one loop over the states reads best whole
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        if let Some(array) = &mut self.array {
            return array.feed(input, sink);
        }
        let bytes = input.as_bytes();
        let mut i = 0;
        loop {
            match self.state {
                State::Then { mut matched } => {
                    let then = self.spec.then.as_bytes();
                    while i < bytes.len() && matched < then.len() {
                        if matched == 0 && bytes[i].is_ascii_whitespace() {
                            i += 1;
                        } else if bytes[i] == then[matched] {
                            matched += 1;
                            i += 1;
                        } else {
                            return Step::Reject;
                        }
                    }
                    if matched < then.len() {
                        self.state = State::Then { matched };
                        return Step::NeedMore;
                    }
                    self.state = State::Before;
                }
                State::Before => {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    match bytes.get(i) {
                        None => return Step::NeedMore,
                        Some(b'{') => self.state = State::Body,
                        Some(b'`') if !self.fenced => {
                            self.state = State::Fence { ticks: 0, lang: 0 }
                        }
                        Some(b'[') if self.spec.array.is_some() => {
                            return self.open_array(&input[i..], i, sink);
                        }
                        Some(_) if !self.spec.then.is_empty() => {
                            self.state = State::Junk { matched: 0 };
                        }
                        Some(_) => return Step::Reject,
                    }
                }
                State::Fence {
                    mut ticks,
                    mut lang,
                } => {
                    while let Some(&b) = bytes.get(i) {
                        if ticks < 3 {
                            if b != b'`' {
                                return Step::Reject;
                            }
                            ticks += 1;
                        } else if lang < MAX_LANG && (b.is_ascii_alphanumeric() || b == b'_') {
                            lang += 1;
                        } else {
                            break;
                        }
                        i += 1;
                    }
                    if i == bytes.len() {
                        self.state = State::Fence { ticks, lang };
                        return Step::NeedMore;
                    }
                    // The fence is framing; the object follows after blanks.
                    self.fenced = true;
                    self.state = State::Before;
                }
                State::Body => {
                    let base = self.scanner.consumed();
                    self.spans.clear();
                    if let Err(e) = self.scanner.feed_until_closed(&bytes[i..], &mut self.spans) {
                        // The segment takes the text up to the opener past the limit: ending it
                        // before would read the same brackets again from every opener inside.
                        return Step::Done {
                            used: (i + e.offset.saturating_sub(base) + 1).min(bytes.len()),
                            give_back: 0,
                            outcome: Outcome {
                                call: None,
                                issue: Some(("too_deep", "JSON nested too deeply".to_string())),
                            },
                        };
                    }
                    let Some(end) = self
                        .spans
                        .iter()
                        .find(|s| s.depth == 0)
                        .map(|s| s.end - base)
                    else {
                        self.body.push_str(&input[i..]);
                        if sink.previews() {
                            self.preview.feed(&input[i..], sink);
                        }
                        return Step::NeedMore;
                    };
                    self.body.push_str(&input[i..i + end]);
                    if sink.previews() {
                        self.preview.feed(&input[i..i + end], sink);
                    }
                    i += end;
                    if let Some((at, after)) = overran(&self.body, &[self.spec.end], sink) {
                        // A string that never closed ran over this call's end marker and
                        // closed at a later call's quote, whose brackets then balanced this
                        // object: the call ends at its end marker, cut inside a value (an
                        // `unterminated` issue, never a call), and the rest is read again.
                        let partial = self.body[..at].trim_end();
                        return Step::Done {
                            used: i,
                            give_back: self.body.len() - after,
                            outcome: issue(
                                "unterminated",
                                format!(
                                    "the call's JSON is still open at {}: {partial}",
                                    self.spec.end
                                ),
                            ),
                        };
                    }
                    self.state = State::After {
                        taken: 0,
                        comma: false,
                        matched: 0,
                    };
                }
                State::After {
                    mut taken,
                    mut comma,
                    mut matched,
                } => {
                    let end = self.spec.end.as_bytes();
                    while i < bytes.len() {
                        let b = bytes[i];
                        if matched == 0 && b.is_ascii_whitespace() {
                            taken += 1;
                        } else if b == end[matched] {
                            matched += 1;
                            if matched == end.len() {
                                return Step::Done {
                                    used: i + 1,
                                    give_back: 0,
                                    outcome: self.call(),
                                };
                            }
                        } else if matched == 0 && b == b',' && !comma {
                            comma = true;
                            taken += 1;
                        } else if matched == 0 && b == b'{' {
                            // The next call of the block, in a segment of its own from here.
                            let outcome = self.call();
                            self.next_object();
                            return Step::Split { used: i, outcome };
                        } else if matched == 0 {
                            // Text: the block's while its end marker comes soon.
                            self.state = State::Trail { taken, matched: 0 };
                            break;
                        } else {
                            // A partial end marker that is not one: the call ends with its
                            // object, and what followed it goes back to the text.
                            return Step::Done {
                                used: i,
                                give_back: taken + matched,
                                outcome: self.missing_end(),
                            };
                        }
                        i += 1;
                    }
                    if i == bytes.len() {
                        self.state = State::After {
                            taken,
                            comma,
                            matched,
                        };
                        return Step::NeedMore;
                    }
                }
                State::Trail {
                    mut taken,
                    mut matched,
                } => {
                    let end = self.spec.end.as_bytes();
                    let from = i;
                    while i < bytes.len() {
                        let b = bytes[i];
                        if b == end[matched] {
                            matched += 1;
                            if matched == end.len() {
                                self.trail.push_str(&input[from..=i]);
                                return Step::Done {
                                    used: i + 1,
                                    give_back: 0,
                                    outcome: self.trailing(),
                                };
                            }
                        } else if matched > 0 || taken >= MAX_TRAIL {
                            // Another tag, or no end marker soon enough: the end marker is
                            // missing, and everything after the object is text again.
                            return Step::Done {
                                used: i,
                                give_back: taken + matched,
                                outcome: self.missing_end(),
                            };
                        } else {
                            taken += 1;
                        }
                        i += 1;
                    }
                    self.trail.push_str(&input[from..]);
                    self.state = State::Trail { taken, matched };
                    return Step::NeedMore;
                }
                State::Junk { mut matched } => {
                    let end = self.spec.end.as_bytes();
                    let from = i;
                    while i < bytes.len() && matched < end.len() {
                        // The end marker's first byte occurs once in it, so a failed partial
                        // match restarts at this byte.
                        if bytes[i] == end[matched] {
                            matched += 1;
                        } else {
                            matched = usize::from(bytes[i] == end[0]);
                        }
                        i += 1;
                    }
                    if self.body.len() < MAX_JUNK {
                        let mut upto = i.min(from + MAX_JUNK);
                        while !input.is_char_boundary(upto) {
                            upto -= 1;
                        }
                        self.body.push_str(&input[from..upto]);
                    }
                    if matched < end.len() {
                        self.state = State::Junk { matched };
                        return Step::NeedMore;
                    }
                    return Step::Done {
                        used: i,
                        give_back: 0,
                        outcome: self.junk(),
                    };
                }
            }
        }
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        if let Some(array) = &mut self.array {
            return array.finish(sink);
        }
        match self.state {
            State::Then { .. } | State::Before | State::Fence { .. } => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("{} with nothing after it", self.spec.start),
                )),
            },
            State::Body => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("the stream ended inside the call's JSON: {}", self.body),
                )),
            },
            State::After { .. } | State::Trail { .. } => self.missing_end(),
            State::Junk { .. } => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("{} with no {} after it", self.spec.then, self.spec.end),
                )),
            },
        }
    }
}
