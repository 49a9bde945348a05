//! The byte loop of the `xml_tool` parser: tags, values and frames.

use super::{Form, Kind, Parser, Raw, State, GENERIC_START, MAX_TAG};
use crate::stream::syntaxes::xml_bits::{entity, is_blank, text_of, Match, Matcher};
use crate::stream::{Outcome, Sink, Step};

/// What handling one byte led to.
pub(super) enum Flow {
    Go,
    Done { give_back: usize, outcome: Outcome },
    Reject,
}

impl Parser {
    pub(super) fn run(&mut self, input: &str, sink: &mut Sink) -> Step {
        let step = self.run_bytes(input, sink);
        // Only an open segment's text is kept (for `finish`): copying every input made many
        // short segments in one long feed quadratic.
        if step == Step::NeedMore {
            self.seen.push_str(input);
        }
        step
    }

    fn run_bytes(&mut self, input: &str, sink: &mut Sink) -> Step {
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
            let run = self.plain_run(bytes.get(i..).unwrap_or_default());
            if run > 0 {
                self.text_bytes(&bytes[i..i + run], sink);
                i += run;
                continue;
            }
            let (run, quote) = self.tag_run(bytes.get(i..).unwrap_or_default());
            if run > 0 {
                if self.state != State::Between {
                    self.buf.extend_from_slice(&bytes[i..i + run]);
                    self.quote = quote;
                }
                i += run;
                continue;
            }
            let flow = if let Some(n) = self.close_ahead(bytes.get(i..).unwrap_or_default()) {
                i += n;
                let raw = self.frames.last().and_then(|f| match f.kind {
                    Kind::Raw(r) => Some(r),
                    _ => None,
                });
                self.pattern_done(0, &bytes[i - n..i], raw, sink)
            } else if let Some(b) = self.replay.pop_front() {
                self.byte(b, sink)
            } else if let Some(&b) = bytes.get(i) {
                i += 1;
                self.byte(b, sink)
            } else {
                break;
            };
            match flow {
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
                    } else if b == b'<' {
                        // No attribute value holds a `<` (XML forbids it): the quote was
                        // prose (`<tool name="f"` left unclosed, then `Let's …`), and read as
                        // an open value it swallowed every call after it.
                        return Flow::Reject;
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
                    return self.tag_done(sink);
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
                    let body = text_of(&self.buf).into_owned();
                    self.state = State::Value;
                    if let Some(c) = entity(&body) {
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

    /// The tag in `buf` is complete: it is read, and the buffer kept for the next one (a
    /// buffer per tag was an allocation per tag).
    fn tag_done(&mut self, sink: &mut Sink) -> Flow {
        let mut tag = std::mem::take(&mut self.buf);
        let flow = self.structural_tag(&tag, sink);
        if self.buf.is_empty() {
            tag.clear();
            self.buf = tag;
        }
        flow
    }

    /// Text bytes of the innermost value.
    fn text_bytes(&mut self, bytes: &[u8], sink: &mut Sink) {
        // Only an undecided value looks at its text (the check is per byte).
        let undecided = matches!(self.frames.last().map(|f| &f.kind), Some(Kind::Undecided));
        if undecided && bytes.iter().any(|&b| !is_blank(b)) {
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
            Some(Raw::Seek { matched, generic }) => {
                return self.seek_byte(b, matched, generic, sink)
            }
            Some(Raw::Marked {
                fresh: true,
                generic,
            }) => {
                self.set_raw(Raw::Marked {
                    fresh: false,
                    generic,
                });
                if b == b'\n' {
                    return Flow::Go;
                }
            }
            _ => {}
        }
        if self.matcher.idle() && !Matcher::starts(self.patterns, b) {
            if b == b'&' && raw.is_none() && !self.in_cdata {
                self.state = State::Entity;
                self.buf.clear();
            } else {
                self.text_bytes(&[b], sink);
            }
            return Flow::Go;
        }
        match self.matcher.step(self.patterns, &self.close, b) {
            Match::Alive => Flow::Go,
            Match::Failed => {
                let taken = self.matcher.take();
                // Text up to the next byte that may start a pattern; the rest is read again.
                let k = taken
                    .iter()
                    .skip(1)
                    .position(|&c| Matcher::starts(self.patterns, c))
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

    fn seek_byte(&mut self, b: u8, matched: usize, generic: bool, sink: &mut Sink) -> Flow {
        let start = if generic {
            GENERIC_START
        } else {
            self.special.map_or("", |s| s.start)
        };
        let start = start.as_bytes();
        if matched == 0 && is_blank(b) {
            self.buf.push(b);
        } else if start.get(matched) == Some(&b) {
            self.buf.push(b);
            if matched + 1 == start.len() {
                self.buf.clear();
                self.set_raw(Raw::Marked {
                    fresh: true,
                    generic,
                });
                if generic {
                    self.stream_marked(sink);
                }
            } else {
                self.set_raw(Raw::Seek {
                    matched: matched + 1,
                    generic,
                });
            }
        } else if generic {
            // No sentinel: a value like any other, which reads what was held again.
            if let Some(frame) = self.frames.last_mut() {
                frame.kind = Kind::Undecided;
            }
            self.set_patterns();
            self.replay.push_front(b);
            for &c in std::mem::take(&mut self.buf).iter().rev() {
                self.replay.push_front(c);
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

    /// A generic argument's start sentinel was read: once the call has started, its value
    /// streams from here as a raw string (before that, it is kept until the call starts).
    fn stream_marked(&mut self, sink: &mut Sink) {
        if !self.started {
            return;
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.streamed = true;
            self.args.begin_string(&frame.key, sink);
        }
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
                    return self.tag_done(sink);
                }
                Flow::Go
            }
        }
    }
}
