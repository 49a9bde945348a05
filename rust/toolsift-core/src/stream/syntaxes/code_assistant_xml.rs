//! `code_assistant_xml`: `<tool:NAME>` … `<param:KEY>VALUE</param:KEY>` … `</tool:NAME>`,
//! plus optional `<thinking>…</thinking>` reasoning.
//!
//! Rules (after the reference's stream processor):
//! - A value is raw: no entities, no trimming except that ONE newline right after
//!   `<param:KEY>` and ONE right before `</param:KEY>` are dropped (the tags usually sit on
//!   their own lines). `<`, `&`, HTML and any other tag stay in the value.
//! - A value ends only at its own `</param:KEY>`. Inside a value, `<tool:`, `</tool:…>`,
//!   `<param:` and `</param:OTHER>` are strict-mode errors (nested tool, unclosed param, nested
//!   param, mismatched param), so a value cannot contain those four exact openings.
//! - Between params only `<param:…>` and `</tool:NAME>` may appear (other text is ignored);
//!   another tag is a stray-tag error, `</tool:OTHER>` a mismatched close, `<tool:` a nested
//!   tool. An error makes the segment an issue without a call; the rest of the tool is
//!   swallowed up to its `</tool:…>`, except that a nested `<tool:` is given back so the next
//!   call is read.
//! - A repeated param becomes a list. Values stay strings (schema typing happens later).
//! - `<thinking>` opens a reasoning segment ending at `</thinking>` (one leading and one
//!   trailing newline dropped, like values).

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::line_flush::LineFlush;

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec!["code_assistant_xml"]
}

/// The syntax called `name`, if it is this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == "code_assistant_xml").then(|| Syntax {
        name: "code_assistant_xml",
        markers: vec![
            ("<tool:".to_string(), false, false),
            ("<thinking>".to_string(), false, false),
        ],
        make: Box::new(|Opening { marker, .. }| Box::new(Parser::new(marker == 1))),
    })
}

/// Longest tool or param name, and longest tag read between params, before giving up.
const MAX_NAME: usize = 200;

/// Tag openings that mean something inside a value (anything else there is text).
const VALUE_TAGS: [&str; 4] = ["<tool:", "</tool:", "<param:", "</param:"];

enum State {
    /// Reading the tool name after `<tool:`.
    Name,
    /// Between params.
    Body,
    /// A tag between params, after its `<`.
    Tag(String),
    /// Inside a param value or a thinking block; `cand` holds a possible tag.
    Value { key: String, cand: String },
    /// After a strict-mode error: swallowing up to `</tool:…>`.
    Skip { cand: String },
}

struct Parser {
    thinking: bool,
    state: State,
    name: String,
    args: ArgsWriter,
    lines: LineFlush,
    /// No text of the value seen yet (its first newline is dropped).
    at_start: bool,
    /// A newline held back: it is dropped if the value ends right after it.
    held_nl: bool,
    error: Option<String>,
    /// Everything consumed, for the message of an unterminated segment.
    seen: String,
}

enum Found {
    /// The candidate may still grow into a tag.
    Keep,
    /// The candidate is text after all (the current byte not included).
    Text,
    /// A complete tag: the candidate including the current byte.
    Tag,
}

impl Parser {
    fn new(thinking: bool) -> Self {
        Self {
            thinking,
            state: if thinking {
                State::Value {
                    key: String::new(),
                    cand: String::new(),
                }
            } else {
                State::Name
            },
            name: String::new(),
            args: ArgsWriter::new(),
            lines: LineFlush::default(),
            at_start: true,
            held_nl: false,
            error: None,
            seen: String::new(),
        }
    }

    /// Text of the current value or thinking block, trimming one newline at each end.
    fn text(&mut self, mut s: &str, sink: &mut Sink) {
        if s.is_empty() {
            return;
        }
        if self.at_start {
            self.at_start = false;
            s = s.strip_prefix('\n').unwrap_or(s);
            if s.is_empty() {
                return;
            }
        }
        if self.held_nl {
            self.held_nl = false;
            self.out("\n", sink);
        }
        if let Some(rest) = s.strip_suffix('\n') {
            self.held_nl = true;
            s = rest;
        }
        self.out(s, sink);
    }

    fn out(&mut self, s: &str, sink: &mut Sink) {
        if self.thinking {
            sink.text_delta(s);
        } else {
            self.lines.push(s, &mut self.args, sink);
        }
    }

    fn done(&mut self, used: usize, give_back: usize, sink: &mut Sink) -> Step {
        let outcome = match self.error.take() {
            Some(message) => Outcome {
                call: None,
                issue: Some(("malformed", message)),
            },
            None if self.thinking => Outcome::default(),
            None => Outcome {
                call: Some((self.name.clone(), self.args.finish(sink), Vec::new())),
                issue: None,
            },
        };
        Step::Done {
            used,
            give_back,
            outcome,
        }
    }

    /// Starts swallowing the rest of the tool after a strict-mode error.
    fn fail(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(message);
        }
        self.state = State::Skip {
            cand: String::new(),
        };
    }
}

/// Whether `cand` (which starts with `<` and ends with the byte just read) may still become,
/// or now is, one of `tags`. A tag of the form `</…:` takes a name up to `>` (`</tool:NAME>`);
/// the others are literal.
fn classify(cand: &str, tags: &[&str]) -> Found {
    let mut keep = false;
    for tag in tags {
        let named = tag.starts_with("</") && tag.ends_with(':');
        if tag.starts_with(cand) {
            if cand.len() == tag.len() && !named {
                return Found::Tag;
            }
            keep = true;
        } else if let (true, Some(name)) = (named, cand.strip_prefix(tag)) {
            // Name bytes before the last were checked when they arrived.
            match name.as_bytes().last() {
                Some(b'>') if name.len() > 1 => return Found::Tag,
                Some(&b) if b.is_ascii_graphic() && b != b'<' && b != b'>' => {
                    keep |= name.len() <= MAX_NAME;
                }
                _ => {}
            }
        }
    }
    if keep {
        Found::Keep
    } else {
        Found::Text
    }
}

impl Parser {
    /// A complete tag read inside a value.
    fn value_tag(&mut self, key: &str, tag: &str, used: usize, sink: &mut Sink) -> Option<Step> {
        if self.thinking {
            return Some(self.done(used, 0, sink));
        }
        let close = tag
            .strip_prefix("</param:")
            .and_then(|s| s.strip_suffix('>'));
        if close == Some(key) {
            self.lines.flush(&mut self.args, sink);
            self.args.end_string(sink);
            self.state = State::Body;
        } else if let Some(other) = close {
            let name = self.name.clone();
            self.fail(format!(
                "mismatching parameter names {key} vs {other} in tool {name}"
            ));
        } else if tag == "<tool:" {
            self.error = Some(format!(
                "nested tool: a tool starts inside parameter {key} of {}",
                self.name
            ));
            return Some(self.done(used, tag.len(), sink));
        } else if tag == "<param:" {
            let name = self.name.clone();
            self.fail(format!(
                "nested parameter inside parameter {key} of tool {name}"
            ));
        } else {
            self.error = Some(format!(
                "unclosed parameter {key} in tool {}: missing </param:{key}>",
                self.name
            ));
            return Some(self.done(used, 0, sink));
        }
        None
    }

    /// A complete tag read between params.
    fn body_tag(&mut self, tag: &str, used: usize, sink: &mut Sink) -> Option<Step> {
        if let Some(key) = tag.strip_prefix("param:") {
            self.args.begin_string(key, sink);
            self.at_start = true;
            self.held_nl = false;
            self.state = State::Value {
                key: key.to_string(),
                cand: String::new(),
            };
        } else if let Some(close) = tag.strip_prefix("/tool:") {
            if close != self.name {
                self.error = Some(format!(
                    "mismatching tool names {} vs {close}: expected </tool:{}>",
                    self.name, self.name
                ));
            }
            return Some(self.done(used, 0, sink));
        } else if let Some(other) = tag.strip_prefix("tool:") {
            self.error = Some(format!(
                "nested tool: {other} starts before {} is closed",
                self.name
            ));
            return Some(self.done(used, tag.len() + 2, sink));
        } else if !tag.starts_with("/param:") {
            let name = self.name.clone();
            self.fail(format!("unexpected tag <{tag}> inside tool {name}"));
        }
        None
    }
}

impl Parser {
    // One arm per state keeps the byte loop (and its `run` bookkeeping) in one place.
    #[allow(clippy::too_many_lines)]
    fn feed_bytes(&mut self, input: &str, sink: &mut Sink) -> Step {
        if self.thinking {
            sink.start(SegmentKind::Reasoning, None, Vec::new());
        }
        let bytes = input.as_bytes();
        let mut i = 0;
        // Start of the run of value text not yet emitted.
        let mut run = 0;
        while let Some(&b) = bytes.get(i) {
            // The state is taken out so the helpers may borrow `self`; every arm puts one back.
            match std::mem::replace(&mut self.state, State::Body) {
                State::Name => {
                    if b == b'>' && !self.name.is_empty() {
                        sink.start(SegmentKind::ToolCall, Some(&self.name), Vec::new());
                    } else if (b.is_ascii_alphanumeric() || b"_-.".contains(&b))
                        && self.name.len() < MAX_NAME
                    {
                        self.name.push(char::from(b));
                        self.state = State::Name;
                    } else {
                        return Step::Reject;
                    }
                    i += 1;
                }
                State::Body => {
                    if b == b'<' {
                        self.state = State::Tag(String::new());
                    }
                    i += 1;
                }
                State::Tag(mut buf) => {
                    if b == b'>' {
                        i += 1;
                        if let Some(step) = self.body_tag(&buf, i, sink) {
                            return step;
                        }
                        run = i;
                    } else if buf.len() >= MAX_NAME || b == b'<' {
                        // Not a tag: stray text between params is ignored; a `<` is read again.
                        i += usize::from(b != b'<');
                    } else {
                        let c = input.get(i..).and_then(|s| s.chars().next()).unwrap_or(' ');
                        buf.push(c);
                        i += c.len_utf8();
                        self.state = State::Tag(buf);
                    }
                }
                State::Value { key, mut cand } => {
                    if cand.is_empty() {
                        if b == b'<' {
                            self.text(&input[run..i], sink);
                            cand.push('<');
                        }
                        i += 1;
                        self.state = State::Value { key, cand };
                        continue;
                    }
                    cand.push(char::from(b));
                    let tags: &[&str] = if self.thinking {
                        &["</thinking>"]
                    } else {
                        &VALUE_TAGS
                    };
                    match classify(&cand, tags) {
                        Found::Keep => {
                            i += 1;
                            self.state = State::Value { key, cand };
                        }
                        Found::Text => {
                            // The candidate minus this byte is text; this byte is read again.
                            cand.pop();
                            self.state = State::Value {
                                key,
                                cand: String::new(),
                            };
                            self.text(&cand, sink);
                            run = i;
                        }
                        Found::Tag => {
                            i += 1;
                            if let Some(step) = self.value_tag(&key, &cand, i, sink) {
                                return step;
                            }
                        }
                    }
                }
                State::Skip { mut cand } => {
                    if cand.is_empty() {
                        if b == b'<' {
                            cand.push('<');
                        }
                        i += 1;
                        self.state = State::Skip { cand };
                        continue;
                    }
                    cand.push(char::from(b));
                    match classify(&cand, &["<tool:", "</tool:"]) {
                        Found::Keep => {
                            i += 1;
                            self.state = State::Skip { cand };
                        }
                        // This byte is read again: it may open a tag.
                        Found::Text => {
                            self.state = State::Skip {
                                cand: String::new(),
                            };
                        }
                        Found::Tag => {
                            let give_back = if cand == "<tool:" { cand.len() } else { 0 };
                            return self.done(i + 1, give_back, sink);
                        }
                    }
                }
            }
        }
        if let State::Value { cand, .. } = &self.state {
            if cand.is_empty() {
                self.text(&input[run..], sink);
            }
        }
        Step::NeedMore
    }
}

impl SegmentParser for Parser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let step = self.feed_bytes(input, sink);
        // Only an open segment's text is kept (for `finish`): copying every input made many
        // short segments in one long feed quadratic.
        if step == Step::NeedMore {
            self.seen.push_str(input);
        }
        step
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        if let State::Name = self.state {
            // Only the marker and a partial name: not a tool after all, but the engine cannot
            // take it back at the end, so it is an issue.
            return Outcome {
                call: None,
                issue: Some(("unterminated", format!("<tool:{}", self.seen))),
            };
        }
        if self.thinking {
            sink.start(SegmentKind::Reasoning, None, Vec::new());
            if let State::Value { cand, .. } = &mut self.state {
                let text = std::mem::take(cand);
                self.text(&text, sink);
            }
            return Outcome {
                call: None,
                issue: Some(("unterminated", "no </thinking> before the end".to_string())),
            };
        }
        let message = match (&self.state, self.error.take()) {
            (_, Some(message)) => message,
            (State::Value { key, .. }, None) => format!(
                "unclosed parameter {key} in tool {}: missing </param:{key}>",
                self.name
            ),
            _ => format!("unclosed tool {}: missing </tool:{}>", self.name, self.name),
        };
        Outcome {
            call: None,
            issue: Some((
                "unterminated",
                format!("{message}; partial text: <tool:{}", self.seen),
            )),
        }
    }
}

#[cfg(test)]
#[path = "code_assistant_xml_tests.rs"]
mod tests;
