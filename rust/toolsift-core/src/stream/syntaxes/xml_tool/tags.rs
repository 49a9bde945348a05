//! Tags and frames of the `xml_tool` parser: open tags, tags between values, and handing a
//! finished value to its parent.

use super::run::Flow;
use super::{Form, Frame, Kind, Parser, Pending, Raw, State, SPECIALS};
use crate::stream::args_writer::{json_object, json_string};
use crate::stream::syntaxes::xml_bits::{parse_tag, text_of};
use crate::stream::{Outcome, Sink};

impl Parser {
    pub(super) fn open_tag(&mut self, sink: &mut Sink) -> Flow {
        let head = open_text(&std::mem::take(&mut self.buf));
        let tag = parse_tag(&head);
        match self.form {
            Form::Tool => {
                let Some(name) = tag.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
                    return Flow::Reject;
                };
                self.name = name.to_string();
                self.special = SPECIALS.iter().find(|s| s.tool.eq_ignore_ascii_case(name));
                if self.special.is_none() {
                    self.start(Vec::new(), sink);
                }
                self.frames.push(new_frame(
                    "tool".to_string(),
                    String::new(),
                    Kind::Object(Vec::new()),
                ));
                self.state = State::Between;
                if tag.self_closing {
                    return self.finish_call(sink);
                }
            }
            Form::WriteFile | Form::RunBash | Form::RunTerminalCmd => {
                let (name, tag_name, key) = match self.form {
                    Form::WriteFile => ("write_file", "write_file", "content"),
                    Form::RunTerminalCmd => ("run_terminal_cmd", "run_terminal_cmd", "command"),
                    _ => ("run_bash", "run_bash", "command"),
                };
                self.name = name.to_string();
                let mut meta = Vec::new();
                if self.form == Form::WriteFile {
                    let Some(path) = tag.attr("path") else {
                        return Flow::Reject;
                    };
                    meta.push(("path".to_string(), path.to_string()));
                }
                self.start(meta.clone(), sink);
                for (k, v) in &meta {
                    self.args.string_value(k, v, sink);
                }
                self.args.begin_string(key, sink);
                let mut frame =
                    new_frame(tag_name.to_string(), key.to_string(), Kind::Raw(Raw::Plain));
                frame.streamed = true;
                self.frames.push(frame);
                self.state = State::Value;
                self.set_patterns();
                if tag.self_closing {
                    self.close_frame(sink);
                    return self.finish_call(sink);
                }
            }
        }
        Flow::Go
    }

    pub(super) fn structural_tag(&mut self, inner: &[u8], sink: &mut Sink) -> Flow {
        self.state = State::Between;
        let text = text_of(inner);
        if text.starts_with(['!', '?']) {
            return Flow::Go;
        }
        let tag = parse_tag(&text);
        let depth = self.frames.len();
        // Names compared without case; a lower-case copy is made only for a frame to keep
        // (a copy for every tag, closing ones too, was an allocation a tag).
        let is = |name: &str| tag.name.eq_ignore_ascii_case(name);
        if tag.close {
            if depth > 1 && self.frames.last().is_some_and(|f| is(&f.tag)) {
                self.close_frame(sink);
            } else if is("tool") {
                if depth == 1 {
                    return self.finish_call(sink);
                }
                let open = self
                    .frames
                    .last()
                    .map(|f| f.tag.clone())
                    .unwrap_or_default();
                return Flow::Done {
                    give_back: 0,
                    outcome: Self::issue(
                        "malformed",
                        format!("unclosed <{open}> in <tool name=\"{}\">", self.name),
                    ),
                };
            }
            return Flow::Go;
        }
        if is("tool") && tag.attr("name").is_some() {
            return Flow::Done {
                give_back: inner.len() + 2,
                outcome: Self::issue(
                    "malformed",
                    format!(
                        "<tool name=\"{}\"> is not closed before the next <tool>",
                        self.name
                    ),
                ),
            };
        }
        if depth == 1 && is("arguments") {
            return Flow::Go;
        }
        let in_list = matches!(self.frames.last().map(|f| &f.kind), Some(Kind::List(_)));
        let key = if in_list {
            String::new()
        } else if is("arg") {
            tag.attr("name").unwrap_or("arg").to_string()
        } else {
            tag.name.to_string()
        };
        let raw = depth == 1 && self.special.is_some_and(|s| s.key == key);
        let kind = if raw {
            Kind::Raw(Raw::Seek {
                matched: 0,
                generic: false,
            })
        } else if depth == 1 && self.form == Form::Tool {
            Kind::Raw(Raw::Seek {
                matched: 0,
                generic: true,
            })
        } else {
            Kind::Undecided
        };
        if raw && !self.started {
            self.start(Vec::new(), sink);
        }
        if raw {
            self.args.begin_string(&key, sink);
        }
        let mut frame = new_frame(tag.lower(), key, kind);
        frame.streamed = raw;
        self.frames.push(frame);
        self.leaf_empty = true;
        self.ws_hold.clear();
        self.buf.clear();
        self.in_cdata = false;
        if tag.self_closing {
            self.close_frame(sink);
            return Flow::Go;
        }
        self.state = State::Value;
        self.set_patterns();
        Flow::Go
    }

    /// Ends the innermost frame and hands its value to its parent.
    pub(super) fn close_frame(&mut self, sink: &mut Sink) {
        self.flush_out(sink);
        self.ws_hold.clear();
        self.in_cdata = false;
        self.state = State::Between;
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if frame.streamed {
            self.lines.flush(&mut self.args, sink);
            self.args.end_string(sink);
        }
        // The value's JSON and text are made only where they are used: most values stream,
        // and making both for every value was two allocations and an escape pass each.
        let nested = self.frames.len() > 1;
        match self.frames.last_mut().map(|p| &mut p.kind) {
            Some(Kind::List(items)) => items.push(frame_json(&frame)),
            Some(Kind::Object(members)) if nested => {
                let json = frame_json(&frame);
                members.push((frame.key, json));
            }
            Some(_) if frame.streamed => {}
            Some(_) if self.started => match frame_text(&frame) {
                Some(t) => self.args.string_value(&frame.key, t, sink),
                None => self.args.json_value(&frame.key, &frame_json(&frame), sink),
            },
            Some(_) => {
                let text = frame_text(&frame).map(str::to_string);
                let is_path = frame.key == "path" && text.is_some();
                self.pending.push((
                    frame.key.clone(),
                    match &text {
                        Some(t) => Pending::Text(t.clone()),
                        None => Pending::Json(frame_json(&frame)),
                    },
                ));
                if is_path {
                    let path = text.unwrap_or_default();
                    self.start(vec![("path".to_string(), path)], sink);
                }
            }
            None => {}
        }
        if !self.frames.is_empty() {
            self.set_patterns();
        }
    }

    pub(super) fn finish_call(&mut self, sink: &mut Sink) -> Flow {
        if !self.started {
            self.start(Vec::new(), sink);
        }
        let (arguments, strings) = self.args.finish_strings(sink);
        sink.string_arguments(strings);
        Flow::Done {
            give_back: 0,
            outcome: Outcome {
                call: Some((self.name.clone(), arguments, Vec::new())),
                issue: None,
            },
        }
    }
}

/// JSON for a finished frame.
fn frame_json(frame: &Frame) -> String {
    match &frame.kind {
        Kind::Undecided | Kind::Leaf | Kind::Raw(_) => json_string(frame_text(frame).unwrap_or("")),
        Kind::List(items) => format!("[{}]", items.join(", ")),
        Kind::Object(members) => json_object(members.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
    }
}

/// A finished frame's text, when it is a string.
fn frame_text(frame: &Frame) -> Option<&str> {
    match &frame.kind {
        Kind::Undecided => Some(""),
        Kind::Leaf | Kind::Raw(_) => Some(&frame.text),
        Kind::List(_) | Kind::Object(_) => None,
    }
}

/// A frame for the value of the lower-case tag `tag`.
fn new_frame(tag: String, key: String, kind: Kind) -> Frame {
    Frame {
        tag,
        key,
        kind,
        text: String::new(),
        streamed: false,
    }
}

/// The text of an open tag whose name was matched already, read as a tag named `x`.
fn open_text(attrs: &[u8]) -> String {
    format!("x {}", text_of(attrs))
}
