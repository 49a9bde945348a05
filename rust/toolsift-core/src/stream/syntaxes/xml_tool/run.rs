//! The byte loop of the `xml_tool` parser: tags, values and frames.

use super::{
    decode_entity, frame_json, lower_eq, new_frame, parse_open, Form, Kind, Parser, Pending, Raw,
    State, MAX_TAG, SPECIALS,
};
use crate::stream::syntaxes::xml_bits::{parse_tag, Match, Matcher, BLANKS};
use crate::stream::{Outcome, Sink, Step};

/// What handling one byte led to.
enum Flow {
    Go,
    Done { give_back: usize, outcome: Outcome },
    Reject,
}

impl Parser {
    pub(super) fn run(&mut self, input: &str, sink: &mut Sink) -> Step {
        self.seen.push_str(input);
        if self.open_done {
            self.open_done = false;
            if let Flow::Done { give_back, outcome } = self.open_tag(sink) {
                return Step::Done {
                    used: 0,
                    give_back,
                    outcome,
                };
            }
        }
        let bytes = input.as_bytes();
        let mut i = 0;
        loop {
            let b = if let Some(b) = self.replay.pop_front() {
                b
            } else if let Some(&b) = bytes.get(i) {
                i += 1;
                b
            } else {
                break;
            };
            match self.byte(b, sink) {
                Flow::Go => {}
                Flow::Reject => return Step::Reject,
                Flow::Done { give_back, outcome } => {
                    // Value text so far is written as at the end of a feed, whatever the chunking.
                    self.flush_out(sink);
                    let give_back = give_back + self.replay.len();
                    self.replay.clear();
                    return Step::Done {
                        used: i,
                        give_back,
                        outcome,
                    };
                }
            }
        }
        self.flush_out(sink);
        Step::NeedMore
    }

    fn byte(&mut self, b: u8, sink: &mut Sink) -> Flow {
        match self.state {
            State::OpenTag => {
                if let Some(q) = self.quote {
                    if b == q {
                        self.quote = None;
                    }
                } else if b == b'>' {
                    return self.open_tag(sink);
                } else if b == b'<' {
                    return Flow::Reject;
                } else if b == b'"' || b == b'\'' {
                    self.quote = Some(b);
                }
                self.buf.push(b);
                if self.buf.len() > MAX_TAG {
                    return Flow::Reject;
                }
                Flow::Go
            }
            State::Between => {
                if b == b'<' {
                    self.state = State::Tag;
                    self.buf.clear();
                    self.quote = None;
                }
                Flow::Go
            }
            State::Tag => {
                if let Some(q) = self.quote {
                    if b == q {
                        self.quote = None;
                    }
                } else if b == b'>' {
                    let tag = std::mem::take(&mut self.buf);
                    return self.structural_tag(&tag, sink);
                } else if b == b'<' {
                    // Not a tag: stray text in a container is ignored; the `<` is read again.
                    self.state = State::Between;
                    self.replay.push_front(b);
                    return Flow::Go;
                } else if b == b'"' || b == b'\'' {
                    self.quote = Some(b);
                }
                self.buf.push(b);
                if self.buf.len() > MAX_TAG {
                    self.state = State::Between;
                }
                Flow::Go
            }
            State::Entity => {
                if b == b';' {
                    let body = String::from_utf8_lossy(&self.buf).into_owned();
                    self.state = State::Value;
                    if let Some(c) = decode_entity(&body) {
                        let mut tmp = [0u8; 4];
                        self.text_bytes(c.encode_utf8(&mut tmp).as_bytes(), sink);
                    } else {
                        let raw = format!("&{body};");
                        self.text_bytes(raw.as_bytes(), sink);
                    }
                } else if (b.is_ascii_alphanumeric() || b == b'#') && self.buf.len() < 10 {
                    self.buf.push(b);
                } else {
                    let mut raw = vec![b'&'];
                    raw.extend_from_slice(&self.buf);
                    self.state = State::Value;
                    self.text_bytes(&raw, sink);
                    self.replay.push_front(b);
                }
                Flow::Go
            }
            State::Value => self.value_byte(b, sink),
        }
    }

    /// Text bytes of the innermost value.
    fn text_bytes(&mut self, bytes: &[u8], sink: &mut Sink) {
        if bytes.iter().any(|b| !BLANKS.contains(b)) {
            self.decide_leaf(sink);
        }
        self.out.extend_from_slice(bytes);
    }

    fn value_byte(&mut self, b: u8, sink: &mut Sink) -> Flow {
        let raw = match self.frames.last().map(|f| &f.kind) {
            Some(Kind::Raw(r)) => Some(*r),
            _ => None,
        };
        match raw {
            Some(Raw::Seek { matched }) => return self.seek_byte(b, matched),
            Some(Raw::Marked { fresh: true }) => {
                self.set_raw(Raw::Marked { fresh: false });
                if b == b'\n' {
                    return Flow::Go;
                }
            }
            _ => {}
        }
        if self.matcher.idle() && !Matcher::starts(&self.patterns, b) {
            if b == b'&' && raw.is_none() && !self.in_cdata {
                self.state = State::Entity;
                self.buf.clear();
            } else {
                self.text_bytes(&[b], sink);
            }
            return Flow::Go;
        }
        match self.matcher.step(&self.patterns, b) {
            Match::Alive => Flow::Go,
            Match::Failed => {
                let taken = self.matcher.take();
                // Text up to the next byte that may start a pattern; the rest is read again.
                let k = taken
                    .iter()
                    .skip(1)
                    .position(|&c| Matcher::starts(&self.patterns, c))
                    .map_or(taken.len(), |p| p + 1);
                self.replay.push_front(b);
                for &c in taken[k..].iter().rev() {
                    self.replay.push_front(c);
                }
                self.text_bytes(&taken[..k], sink);
                Flow::Go
            }
            Match::Done(n) => {
                let taken = self.matcher.take();
                self.pattern_done(n, &taken, raw, sink)
            }
        }
    }

    fn set_raw(&mut self, raw: Raw) {
        if let Some(frame) = self.frames.last_mut() {
            frame.kind = Kind::Raw(raw);
        }
        self.set_patterns();
    }

    fn seek_byte(&mut self, b: u8, matched: usize) -> Flow {
        let start = self.special.map_or("", |s| s.start).as_bytes();
        if matched == 0 && BLANKS.contains(&b) {
            self.buf.push(b);
        } else if start.get(matched) == Some(&b) {
            self.buf.push(b);
            if matched + 1 == start.len() {
                self.buf.clear();
                self.set_raw(Raw::Marked { fresh: true });
            } else {
                self.set_raw(Raw::Seek {
                    matched: matched + 1,
                });
            }
        } else {
            // No sentinel: what was held is content, and this byte is read again.
            self.set_raw(Raw::Plain);
            let held = std::mem::take(&mut self.buf);
            self.out.extend_from_slice(&held);
            self.replay.push_front(b);
        }
        Flow::Go
    }

    fn pattern_done(&mut self, n: usize, taken: &[u8], raw: Option<Raw>, sink: &mut Sink) -> Flow {
        if let Some(r) = raw {
            // Plain: the close tag. Marked: 0 = end sentinel and close tag, 1 = close tag and
            // `</arguments>`, 2 = close tag and `</tool>`.
            self.close_frame(sink);
            if self.form != Form::Tool || (matches!(r, Raw::Marked { .. }) && n == 2) {
                return self.finish_call(sink);
            }
            return Flow::Go;
        }
        if self.in_cdata {
            // `]]>` ends a CDATA section.
            self.in_cdata = false;
            self.set_patterns();
            return Flow::Go;
        }
        match n {
            0 => {
                self.close_frame(sink);
                Flow::Go
            }
            1 => {
                self.decide_leaf(sink);
                self.in_cdata = true;
                self.set_patterns();
                Flow::Go
            }
            2 | 3 => {
                let tag = self
                    .frames
                    .last()
                    .map(|f| f.tag.clone())
                    .unwrap_or_default();
                Flow::Done {
                    give_back: if n == 3 { taken.len() } else { 0 },
                    outcome: Self::issue(
                        "malformed",
                        format!("unclosed <{tag}> in <tool name=\"{}\">", self.name),
                    ),
                }
            }
            _ => {
                // `<item` or `<arg` opens the first child: the value is a list or an object.
                if let Some(frame) = self.frames.last_mut() {
                    frame.kind = if n == 4 {
                        Kind::List(Vec::new())
                    } else {
                        Kind::Object(Vec::new())
                    };
                }
                self.out.clear();
                self.buf = taken.get(1..).unwrap_or_default().to_vec();
                self.state = State::Tag;
                self.quote = None;
                if self.buf.last() == Some(&b'>') {
                    self.buf.pop();
                    let tag = std::mem::take(&mut self.buf);
                    return self.structural_tag(&tag, sink);
                }
                Flow::Go
            }
        }
    }

    fn open_tag(&mut self, sink: &mut Sink) -> Flow {
        let tag = parse_open(&std::mem::take(&mut self.buf));
        match self.form {
            Form::Tool => {
                let Some(name) = tag.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
                    return Flow::Reject;
                };
                self.name = name.to_string();
                self.special = SPECIALS.iter().find(|s| lower_eq(s.tool, name));
                if self.special.is_none() {
                    self.start(Vec::new(), sink);
                }
                self.frames
                    .push(new_frame("tool", String::new(), Kind::Object(Vec::new())));
                self.state = State::Between;
                if tag.self_closing {
                    return self.finish_call(sink);
                }
            }
            Form::WriteFile | Form::RunBash => {
                let (name, tag_name, key) = if self.form == Form::WriteFile {
                    ("write_file", "write_file", "content")
                } else {
                    ("run_bash", "run_bash", "command")
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
                let mut frame = new_frame(tag_name, key.to_string(), Kind::Raw(Raw::Plain));
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

    fn structural_tag(&mut self, inner: &[u8], sink: &mut Sink) -> Flow {
        self.state = State::Between;
        let text = String::from_utf8_lossy(inner).into_owned();
        if text.starts_with(['!', '?']) {
            return Flow::Go;
        }
        let tag = parse_tag(&text);
        let lname = tag.lower();
        let depth = self.frames.len();
        if tag.close {
            if depth > 1 && self.frames.last().is_some_and(|f| f.tag == lname) {
                self.close_frame(sink);
            } else if lname == "tool" {
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
        if lname == "tool" && tag.attr("name").is_some() {
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
        if depth == 1 && lname == "arguments" {
            return Flow::Go;
        }
        let in_list = matches!(self.frames.last().map(|f| &f.kind), Some(Kind::List(_)));
        let key = if in_list {
            String::new()
        } else if lname == "arg" {
            tag.attr("name").unwrap_or("arg").to_string()
        } else {
            tag.name.clone()
        };
        let raw = depth == 1 && self.special.is_some_and(|s| s.key == key);
        let kind = if raw {
            Kind::Raw(Raw::Seek { matched: 0 })
        } else {
            Kind::Undecided
        };
        if raw && !self.started {
            self.start(Vec::new(), sink);
        }
        let mut frame = new_frame(&lname, key.clone(), kind);
        if raw {
            frame.streamed = true;
            self.args.begin_string(&key, sink);
        }
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
    fn close_frame(&mut self, sink: &mut Sink) {
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
        let (json, text) = frame_json(&frame);
        let nested = self.frames.len() > 1;
        match self.frames.last_mut().map(|p| &mut p.kind) {
            Some(Kind::List(items)) => items.push(json),
            Some(Kind::Object(members)) if nested => {
                members.push((frame.key, json));
            }
            Some(_) if frame.streamed => {}
            Some(_) if self.started => match text {
                Some(t) => self.args.string_value(&frame.key, &t, sink),
                None => self.args.json_value(&frame.key, &json, sink),
            },
            Some(_) => {
                let is_path = frame.key == "path" && text.is_some();
                self.pending.push((
                    frame.key.clone(),
                    match &text {
                        Some(t) => Pending::Text(t.clone()),
                        None => Pending::Json(json),
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

    fn finish_call(&mut self, sink: &mut Sink) -> Flow {
        if !self.started {
            self.start(Vec::new(), sink);
        }
        let arguments = self.args.finish(sink);
        Flow::Done {
            give_back: 0,
            outcome: Outcome {
                call: Some((self.name.clone(), arguments, Vec::new())),
                issue: None,
            },
        }
    }
}
