//! The state machine that reads one invoke of a [`Tagged`] syntax; see the parent module.

use super::super::super::args_writer::ArgsWriter;
use super::super::super::events::SegmentKind;
use super::super::super::json_call::strict_or_repaired;
use super::super::super::{KnownTools, Outcome, SegmentParser, Sink, Step};
use super::super::json_read::JsonValue;
use super::super::json_shape::{read, Val};
use super::head::{skip_to, Choice, Head, Pick, Progress, MAX_HEAD};
use super::value::{ValueReader, DRIFTED};
use super::{first, rest, Tagged};

/// A tool name: no blanks, quotes, brackets or control characters.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 256
        && name
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"<>\"'{}[](),;=`".contains(c))
}

/// Where a [`Parser`] is.
#[derive(Debug, Clone)]
enum State {
    /// Blanks, then one of the literals that may come at `Point`.
    Expect {
        at: Point,
        choice: Choice,
        blanks: usize,
    },
    InvokeHead(Head),
    ParamHead(Head),
    Value(ValueReader),
    /// The invoke's closing literal was read; its further tokens follow.
    CloseRest(Head),
    /// A broken invoke: skipping to its closing literal.
    Recover {
        matched: usize,
    },
    /// Stray text (no tag) between parameters: skipped up to the next `<`.
    Stray,
    /// A JSON object standing for the parameters.
    JsonBody(JsonValue),
    /// `qwen3_coder`, after a closing tag that may have been written inside the value: blanks
    /// and the start of what follows (`held`, the tag included), to tell the value's end from
    /// value text. `at` says what may follow the tag: [`Point::Body`] after a `</parameter>`
    /// (exact or drifted), [`Point::After`] after a `</function>` that ended a value left
    /// without `</parameter>` inside a section.
    Confirm {
        value: ValueReader,
        held: String,
        choice: Choice,
        at: Point,
    },
    /// `qwen3_coder`, after a `<parameter=` inside a value: the name up to `>`, to tell a new
    /// parameter from a tag written inside the value. `closed` holds the `</parameter>` and
    /// blanks before it when it followed one (a closing tag that the name confirms or not).
    NextName {
        value: ValueReader,
        name: String,
        closed: Option<String>,
    },
    /// After an invoke opened without its section's tag (`<function=…>` with no
    /// `<tool_call>`): blanks, then the section's closing tag (`matched` bytes of it so far),
    /// which belongs to this call when it comes; anything else goes back to the text.
    BareTail {
        blanks: usize,
        matched: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Point {
    /// An invoke's opening literal.
    Invoke,
    /// A parameter or the invoke's closing literal.
    Body,
    /// Another invoke or the section's closing tag.
    After,
}

/// Reads one invoke (a segment); see the parent module.
pub(super) struct Parser {
    spec: &'static Tagged,
    state: State,
    in_section: bool,
    /// The closing tag of the section this parser's segment is in (or would be): the one
    /// paired with the opening tag that was read (see [`Tagged::alias`]).
    section_end: &'static str,
    /// Sure this is a call: a name was read, or a section already held one.
    committed: bool,
    name: Option<String>,
    args: ArgsWriter,
    key: String,
    repairs: Vec<&'static str>,
    malformed: Option<(&'static str, String)>,
    chain: bool,
    /// The segment's text after the marker, for messages.
    seen: String,
    /// The caller's tools (see [`Tagged::typed_values`]).
    known: KnownTools,
}

fn expect(at: Point) -> State {
    State::Expect {
        at,
        choice: Choice::default(),
        blanks: 0,
    }
}

/// `Done`, with `used` moved back to a character boundary (the bytes it moves over are given
/// back too).
fn done(input: &str, mut used: usize, mut give_back: usize, outcome: Outcome) -> Step {
    while used > 0 && !input.is_char_boundary(used) {
        used -= 1;
        give_back = give_back.saturating_sub(1);
    }
    Step::Done {
        used,
        give_back,
        outcome,
    }
}

impl Parser {
    /// The parser of a segment opened by a section's tag (`section`) or an invoke's;
    /// `section_end` closes the section.
    pub(super) fn new(
        spec: &'static Tagged,
        section: bool,
        section_end: &'static str,
        known: KnownTools,
    ) -> Self {
        Self::with(spec, section, false, section_end, known)
    }

    fn with(
        spec: &'static Tagged,
        section: bool,
        chained: bool,
        section_end: &'static str,
        known: KnownTools,
    ) -> Self {
        Self {
            spec,
            section_end,
            state: if section || chained {
                expect(Point::Invoke)
            } else {
                State::InvokeHead(Head::new(rest(spec.invoke_open)))
            },
            in_section: section || chained,
            committed: chained,
            name: None,
            args: ArgsWriter::new(),
            key: String::new(),
            repairs: Vec::new(),
            malformed: None,
            chain: false,
            seen: String::new(),
            known,
        }
    }

    fn candidates(&self, at: Point) -> [&'static str; 3] {
        let s = self.spec;
        // Inside a section, the section's end also closes an invoke left open.
        let section_end = if self.in_section {
            self.section_end
        } else {
            ""
        };
        match at {
            Point::Invoke => [first(s.invoke_open), "", ""],
            Point::Body => [first(s.param_open), first(s.invoke_close), section_end],
            Point::After => [first(s.invoke_open), self.section_end, s.between],
        }
    }

    fn repaired(&mut self, kind: &'static str) {
        if !self.repairs.contains(&kind) {
            self.repairs.push(kind);
        }
    }

    /// A broken invoke: an issue, or text while it may still not be a call at all.
    fn broken(&mut self, kind: &'static str, why: &str) -> Option<Step> {
        if !self.committed {
            return Some(Step::Reject);
        }
        if self.malformed.is_none() {
            let name = self.name.as_deref().unwrap_or("?");
            self.malformed = Some((kind, format!("invoke of {name}: {why}")));
        }
        self.state = State::Recover { matched: 0 };
        None
    }

    fn outcome(&mut self, sink: &mut Sink, issue: Option<(&'static str, String)>) -> Outcome {
        if let Some(m) = self.malformed.take() {
            return Outcome {
                call: None,
                issue: Some(m),
            };
        }
        let Some(name) = self.name.take() else {
            return Outcome {
                call: None,
                issue: Some(("no_name", "an invoke without a name".to_string())),
            };
        };
        let args = self.args.finish(sink);
        Outcome {
            call: Some((name, args, std::mem::take(&mut self.repairs))),
            issue,
        }
    }

    /// Runs the state machine over `input` from `i`; `None` means go on from the new state.
    #[allow(clippy::too_many_lines)]
    fn step(&mut self, input: &str, i: &mut usize, sink: &mut Sink) -> Option<Step> {
        let bytes = input.as_bytes();
        match std::mem::replace(&mut self.state, State::Recover { matched: 0 }) {
            State::Expect {
                at,
                mut choice,
                mut blanks,
            } => {
                while choice.n == 0 && bytes.get(*i).is_some_and(u8::is_ascii_whitespace) {
                    *i += 1;
                    blanks += 1;
                }
                if !self.committed && blanks > MAX_HEAD {
                    // Keeps what the engine replays after a rejected marker small.
                    return Some(Step::Reject);
                }
                let (j, pick) = choice.feed(&self.candidates(at), bytes, *i);
                *i = j;
                match (at, pick) {
                    (_, Pick::Going) => {
                        self.state = State::Expect { at, choice, blanks };
                        return Some(Step::NeedMore);
                    }
                    (Point::Invoke, Pick::Matched(_)) => {
                        self.state = State::InvokeHead(Head::new(rest(self.spec.invoke_open)));
                    }
                    (Point::Invoke, Pick::Fail) => {
                        return self.broken("bad_invoke", "no invoke tag")
                    }
                    (Point::Body, Pick::Matched(0)) => {
                        self.state = State::ParamHead(Head::new(rest(self.spec.param_open)));
                    }
                    (Point::Body, Pick::Matched(1)) => {
                        self.state = State::CloseRest(Head::new(rest(self.spec.invoke_close)));
                    }
                    (Point::Body, Pick::Matched(_)) => {
                        // The section ended with the invoke still open: both end here.
                        self.repaired("missing_invoke_end");
                        return Some(done(input, *i, 0, self.outcome(sink, None)));
                    }
                    (Point::Body, Pick::Fail)
                        if choice.n == 0
                            && bytes.get(*i) == Some(&b'{')
                            && self.args.is_empty() =>
                    {
                        // Some models write the arguments as one JSON object in the invoke.
                        self.state = State::JsonBody(JsonValue::default());
                    }
                    (Point::Body, Pick::Fail) if choice.n == 0 => {
                        // Text that is no tag (a model's aside) is skipped; the parameters
                        // around it still count.
                        self.repaired("stray_text");
                        self.state = State::Stray;
                    }
                    (Point::Body, Pick::Fail) => {
                        // A tag the syntax has no place for: the invoke is malformed (a value
                        // could be lost with it, so it is not skipped).
                        return self.broken("malformed", "unexpected tag between parameters");
                    }
                    (Point::After, Pick::Matched(0)) => {
                        // Another invoke: it is the next segment, from its opening literal.
                        self.chain = true;
                        let give_back = first(self.spec.invoke_open).len();
                        return Some(done(input, *i, give_back, self.outcome(sink, None)));
                    }
                    (Point::After, Pick::Matched(2)) => self.state = expect(Point::After),
                    (Point::After, Pick::Matched(_)) => {
                        return Some(done(input, *i, 0, self.outcome(sink, None)));
                    }
                    (Point::After, Pick::Fail) => {
                        let issue = self.missing_section_end();
                        let outcome = self.outcome(sink, Some(issue));
                        return Some(done(input, *i, blanks + choice.n, outcome));
                    }
                }
            }
            State::InvokeHead(mut h) => {
                let (j, progress) = h.feed(bytes, *i);
                *i = j;
                match progress {
                    Progress::Going => {
                        self.state = State::InvokeHead(h);
                        return Some(Step::NeedMore);
                    }
                    Progress::Fail => return self.broken("bad_invoke", "unreadable invoke tag"),
                    Progress::Complete => {
                        let name = h.name.unwrap_or_default();
                        if !valid_name(&name) {
                            return self.broken("no_name", "no valid tool name");
                        }
                        sink.start(SegmentKind::ToolCall, Some(&name), Vec::new());
                        self.name = Some(name);
                        self.committed = true;
                        if h.self_closing {
                            // `<invoke name="f"/>`: a call without parameters.
                            if !self.in_section {
                                return Some(done(input, *i, 0, self.outcome(sink, None)));
                            }
                            self.state = expect(Point::After);
                        } else {
                            self.state = expect(Point::Body);
                        }
                    }
                }
            }
            State::ParamHead(mut h) => {
                let (j, progress) = h.feed(bytes, *i);
                *i = j;
                match progress {
                    Progress::Going => {
                        self.state = State::ParamHead(h);
                        return Some(Step::NeedMore);
                    }
                    Progress::Fail => return self.broken("malformed", "unreadable parameter tag"),
                    Progress::Complete => {
                        let key = h.name.unwrap_or_default();
                        if key.is_empty() {
                            return self.broken("malformed", "a parameter without a name");
                        }
                        self.begin_param(key, h.json, sink);
                    }
                }
            }
            State::Value(mut value) => {
                let s = self.spec;
                let all = [s.param_close, first(s.param_open), first(s.invoke_close)];
                let ends = if s.open_values { &all[..] } else { &all[..1] };
                let Some((j, end)) = value.feed(ends, input, *i, &mut self.args, sink) else {
                    self.state = State::Value(value);
                    return Some(Step::NeedMore);
                };
                *i = j;
                if s.open_values && (end == 0 || end == DRIFTED) {
                    // A closing tag, exact or drifted, is confirmed by what follows it.
                    let held = if end == 0 {
                        s.param_close.to_string()
                    } else {
                        value.take_drifted()
                    };
                    self.state = State::Confirm {
                        value,
                        held,
                        choice: Choice::default(),
                        at: Point::Body,
                    };
                    return None;
                }
                if s.open_values && end == 1 {
                    self.state = State::NextName {
                        value,
                        name: String::new(),
                        closed: None,
                    };
                    return None;
                }
                if s.open_values && end == 2 && self.in_section {
                    self.state = State::Confirm {
                        value,
                        held: first(s.invoke_close).to_string(),
                        choice: Choice::default(),
                        at: Point::After,
                    };
                    return None;
                }
                value.finish(&self.key, &mut self.args, &mut self.repairs, sink);
                if end == 2 {
                    self.repaired("unclosed_parameter");
                }
                self.state = match end {
                    2 => State::CloseRest(Head::new(rest(s.invoke_close))),
                    _ => expect(Point::Body),
                };
            }
            State::Confirm {
                value,
                held,
                choice,
                at,
            } => return self.confirm(value, held, choice, at, input, i, sink),
            State::NextName {
                value,
                name,
                closed,
            } => return self.next_name(value, name, closed, input, i, sink),
            State::CloseRest(mut h) => {
                let (j, progress) = h.feed(bytes, *i);
                *i = j;
                match progress {
                    Progress::Going => {
                        self.state = State::CloseRest(h);
                        return Some(Step::NeedMore);
                    }
                    Progress::Complete if self.in_section => self.state = expect(Point::After),
                    Progress::Complete if !self.section_end.is_empty() => {
                        self.state = State::BareTail {
                            blanks: 0,
                            matched: 0,
                        };
                    }
                    Progress::Complete => {
                        return Some(done(input, *i, 0, self.outcome(sink, None)))
                    }
                    Progress::Fail => {
                        let issue = (
                            "missing_end_marker",
                            "the invoke's closing tag is incomplete".to_string(),
                        );
                        let outcome = self.outcome(sink, Some(issue));
                        return Some(done(input, *i, h.len, outcome));
                    }
                }
            }
            State::BareTail {
                mut blanks,
                mut matched,
            } => {
                // The section's closing tag the model wrote though it left out the opening
                // one: the call's, not content (it never opens anything).
                let end = self.section_end.as_bytes();
                while let Some(&b) = bytes.get(*i) {
                    if matched == 0 && b.is_ascii_whitespace() {
                        blanks += 1;
                    } else if b == end[matched] {
                        matched += 1;
                        if matched == end.len() {
                            *i += 1;
                            return Some(done(input, *i, 0, self.outcome(sink, None)));
                        }
                    } else {
                        let outcome = self.outcome(sink, None);
                        return Some(done(input, *i, blanks + matched, outcome));
                    }
                    *i += 1;
                }
                self.state = State::BareTail { blanks, matched };
                return Some(Step::NeedMore);
            }
            State::JsonBody(mut body) => {
                let n = match body.feed(input.get(*i..).unwrap_or_default()) {
                    Ok(Some(n)) => n,
                    Ok(None) => {
                        *i = bytes.len();
                        self.state = State::JsonBody(body);
                        return Some(Step::NeedMore);
                    }
                    Err(_) => return self.broken("too_deep", "JSON nested too deeply"),
                };
                *i += n;
                let members = strict_or_repaired(&body.text)
                    .ok()
                    .and_then(|(json, kinds)| {
                        let Some(Val::Obj(members)) = read(&json) else {
                            return None;
                        };
                        let members: Vec<(String, String)> = members
                            .into_iter()
                            .map(|(k, v)| (k.into_owned(), v.to_string()))
                            .collect();
                        Some((members, kinds))
                    });
                let Some((members, kinds)) = members else {
                    return self.broken("bad_arguments", "the invoke's JSON body is no object");
                };
                for (k, v) in &members {
                    self.args.json_value(k, v, sink);
                }
                for k in kinds {
                    self.repaired(k);
                }
                self.state = expect(Point::Body);
            }
            State::Stray => match memchr::memchr(b'<', bytes.get(*i..).unwrap_or_default()) {
                None => {
                    *i = bytes.len();
                    self.state = State::Stray;
                    return Some(Step::NeedMore);
                }
                Some(k) => {
                    *i += k;
                    self.state = expect(Point::Body);
                }
            },
            State::Recover { mut matched } => {
                let close = first(self.spec.invoke_close).as_bytes();
                match skip_to(close, bytes, *i, &mut matched) {
                    None => {
                        *i = bytes.len();
                        self.state = State::Recover { matched };
                        return Some(Step::NeedMore);
                    }
                    Some(j) => {
                        *i = j;
                        self.state = State::CloseRest(Head::new(rest(self.spec.invoke_close)));
                    }
                }
            }
        }
        None
    }

    /// See [`State::Confirm`]: a `</parameter>` closes the value only when blanks and a tag
    /// that may follow a parameter come after it (the next parameter, the function's end, the
    /// section's end); a `</function>` (see `at`) ends the invoke only when what may follow an
    /// invoke in a section comes after it (the section's end, another invoke). Otherwise the
    /// tag was written inside the value, which goes on.
    #[allow(clippy::too_many_arguments)]
    fn confirm(
        &mut self,
        value: ValueReader,
        mut held: String,
        mut choice: Choice,
        at: Point,
        input: &str,
        i: &mut usize,
        sink: &mut Sink,
    ) -> Option<Step> {
        match self.look_after(at, &mut held, &mut choice, input, i) {
            Pick::Going => {
                self.state = State::Confirm {
                    value,
                    held,
                    choice,
                    at,
                };
                Some(Step::NeedMore)
            }
            Pick::Fail => {
                self.resume_value(value, &held, choice.n, sink);
                None
            }
            Pick::Matched(k) if at == Point::After => self.function_ended(value, k, input, i, sink),
            Pick::Matched(0) if self.declares_parameters() => {
                // Only a declared name opens the next parameter (see `next_name`).
                let open = first(self.spec.param_open);
                held.truncate(held.len().saturating_sub(open.len()));
                self.state = State::NextName {
                    value,
                    name: String::new(),
                    closed: Some(held),
                };
                None
            }
            Pick::Matched(k) => {
                value.finish(&self.key, &mut self.args, &mut self.repairs, sink);
                let s = self.spec;
                match k {
                    0 => self.state = State::ParamHead(Head::new(rest(s.param_open))),
                    1 => self.state = State::CloseRest(Head::new(rest(s.invoke_close))),
                    _ => {
                        self.repaired("missing_invoke_end");
                        return Some(done(input, *i, 0, self.outcome(sink, None)));
                    }
                }
                None
            }
        }
    }

    /// After a closing tag being confirmed: blanks, then how far the tags that may follow at
    /// `at` match from byte `*i` of `input`; what was read is added to `held`.
    fn look_after(
        &self,
        at: Point,
        held: &mut String,
        choice: &mut Choice,
        input: &str,
        i: &mut usize,
    ) -> Pick {
        let bytes = input.as_bytes();
        let from = *i;
        while choice.n == 0 && bytes.get(*i).is_some_and(u8::is_ascii_whitespace) {
            *i += 1;
        }
        let (j, pick) = choice.feed(&self.candidates(at), bytes, *i);
        // Blanks and ASCII tag bytes only: `from..j` lies on character boundaries.
        held.push_str(input.get(from..j).unwrap_or_default());
        *i = j;
        pick
    }

    /// A closing tag turned out to be value text: `held` (the tag, blanks, and the `partial`
    /// bytes of a tag that then failed) goes back into the value, which goes on.
    fn resume_value(
        &mut self,
        mut value: ValueReader,
        held: &str,
        partial: usize,
        sink: &mut Sink,
    ) {
        // The tag's start that failed (`</` of a second `</parameter>`, say) may begin the
        // value's end: it is read again as value input, not pushed as text.
        let mut cut = held.len().saturating_sub(partial);
        while !held.is_char_boundary(cut) {
            cut -= 1;
        }
        let (text, start) = held.split_at(cut);
        value.push_text(text, &mut self.args, sink);
        let s = self.spec;
        let ends = [s.param_close, first(s.param_open), first(s.invoke_close)];
        // `start` holds one `<`, at its start, and is shorter than any end: no end completes
        // in it.
        let _ = value.feed(&ends, start, 0, &mut self.args, sink);
        self.state = State::Value(value);
    }

    /// A `</function>` that ended a value left without `</parameter>` was confirmed by
    /// candidate `k` of [`Point::After`] after it.
    fn function_ended(
        &mut self,
        value: ValueReader,
        k: usize,
        input: &str,
        i: &mut usize,
        sink: &mut Sink,
    ) -> Option<Step> {
        value.finish(&self.key, &mut self.args, &mut self.repairs, sink);
        self.repaired("unclosed_parameter");
        if k == 2 {
            self.state = expect(Point::After);
            return None;
        }
        // Another invoke is the next segment, from its opening literal.
        self.chain = k == 0;
        let give_back = if k == 0 {
            first(self.spec.invoke_open).len()
        } else {
            0
        };
        Some(done(input, *i, give_back, self.outcome(sink, None)))
    }

    /// Whether the call's tool is declared with its parameter names.
    fn declares_parameters(&self) -> bool {
        (self.known).declares_parameters(self.name.as_deref().unwrap_or_default())
    }

    /// See [`State::NextName`]: a `<parameter=NAME>` inside a value ends it (its
    /// `</parameter>` was left out) only when no parameter of that name was read yet and,
    /// when the tool's parameters are declared, NAME is one of them (vLLM's reading); after a
    /// `</parameter>` (`closed`) only the declaration counts. Otherwise it is value text (a
    /// file that shows the call syntax), with the `</parameter>` before it.
    fn next_name(
        &mut self,
        mut value: ValueReader,
        mut name: String,
        closed: Option<String>,
        input: &str,
        i: &mut usize,
        sink: &mut Sink,
    ) -> Option<Step> {
        let bytes = input.as_bytes();
        let rest = bytes.get(*i..).unwrap_or_default();
        let stop = rest.iter().position(|&c| matches!(c, b'>' | b'<' | b'\n'));
        let end = stop.map_or(bytes.len(), |k| *i + k);
        name.push_str(input.get(*i..end).unwrap_or_default());
        *i = end;
        let open = first(self.spec.param_open);
        let before = closed.as_deref().unwrap_or_default();
        let Some(k) = stop else {
            if name.len() > 256 {
                value.push_text(&format!("{before}{open}{name}"), &mut self.args, sink);
                self.state = State::Value(value);
                return None;
            }
            self.state = State::NextName {
                value,
                name,
                closed,
            };
            return Some(Step::NeedMore);
        };
        let key = name.trim();
        let tool = self.name.as_deref().unwrap_or_default();
        let declared = self.known.allows_parameter(tool, key);
        let new = rest[k] == b'>'
            && !key.is_empty()
            && declared
            && (closed.is_some() || (key != self.key && !self.args.has_key(key)));
        if !new {
            let tag = if rest[k] == b'>' { ">" } else { "" };
            *i += tag.len();
            value.push_text(&format!("{before}{open}{name}{tag}"), &mut self.args, sink);
            self.state = State::Value(value);
            return None;
        }
        *i += 1;
        value.finish(&self.key, &mut self.args, &mut self.repairs, sink);
        if closed.is_none() {
            self.repaired("unclosed_parameter");
        }
        let key = key.to_string();
        self.begin_param(key, false, sink);
        None
    }

    /// Starts reading the value of the parameter `key` (a JSON value if `json`).
    fn begin_param(&mut self, key: String, json: bool, sink: &mut Sink) {
        let (s, name) = (self.spec, self.name.as_deref().unwrap_or_default());
        let value = if !json && s.typed_values && !self.known.contains(name) {
            ValueReader::typed(&key, s.trim_newlines, s.open_values)
        } else {
            ValueReader::new(json, s.trim_newlines, s.open_values)
        };
        if !value.is_collected() {
            self.args.begin_string(&key, sink);
        }
        self.key = key;
        self.state = State::Value(value);
    }

    fn missing_section_end(&self) -> (&'static str, String) {
        let end = self.section_end;
        ("missing_end_marker", format!("no {end} after the call"))
    }
}

impl SegmentParser for Parser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let mut i = 0;
        loop {
            if let Some(step) = self.step(input, &mut i, sink) {
                // Only an open segment's text is kept (for `finish`): copying every input
                // made many short segments in one long feed quadratic.
                if step == Step::NeedMore {
                    self.seen.push_str(input);
                }
                return step;
            }
        }
    }

    fn cut_at_end(&mut self, sink: &mut Sink) -> Option<(usize, Outcome)> {
        // The stream ended in the blanks (or a part of the closing tag) after a bare invoke:
        // they are text again.
        let State::BareTail { blanks, matched } = self.state else {
            return None;
        };
        Some((blanks + matched, self.outcome(sink, None)))
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        match std::mem::replace(&mut self.state, State::Recover { matched: 0 }) {
            State::Confirm {
                value,
                at: Point::After,
                ..
            } => {
                // The stream ended after the `</function>`: it ended the invoke; the
                // section's end is missing.
                value.finish(&self.key, &mut self.args, &mut self.repairs, sink);
                self.repaired("unclosed_parameter");
                let issue = self.missing_section_end();
                return self.outcome(sink, Some(issue));
            }
            state => self.state = state,
        }
        match &self.state {
            State::BareTail { .. } => self.outcome(sink, None),
            State::Expect {
                at: Point::After, ..
            }
            | State::CloseRest(_) => {
                let issue = if matches!(self.state, State::CloseRest(_)) {
                    (
                        "missing_end_marker",
                        "the invoke's closing tag is incomplete".to_string(),
                    )
                } else {
                    self.missing_section_end()
                };
                self.outcome(sink, Some(issue))
            }
            _ => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("the stream ended inside the call: {}", self.seen),
                )),
            },
        }
    }

    fn chain(&mut self) -> Option<Box<dyn SegmentParser>> {
        std::mem::take(&mut self.chain).then(|| {
            Box::new(Parser::with(
                self.spec,
                false,
                true,
                self.section_end,
                self.known.clone(),
            )) as Box<dyn SegmentParser>
        })
    }
}
