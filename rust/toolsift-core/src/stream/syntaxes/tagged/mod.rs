//! Syntaxes whose calls are tags: an optional section wrapper holding one or more invokes, a
//! name in a tag, an attribute or after a marker, and parameters as tag pairs around raw text.
//!
//! They differ only in data, so each is a [`Tagged`] constant of token patterns ([`Tok`]).
//! Each invoke is one segment: the first carries the section's opening tag, the blanks between
//! invokes go with the call before them (they are not content), and the section's closing tag
//! goes with the last call. A later invoke of a section starts its own segment through
//! [`SegmentParser::chain`], so it needs no start marker of its own.
//!
//! Values are raw text, kept exactly (no entity decoding, no trimming), except that
//! `qwen3_coder` drops one leading and one trailing newline, and `deepseek_dsml` values marked
//! `string="false"` are JSON. **A value ends at the first closing tag of a parameter**
//! (`</parameter>`, `</arg_value>`, `</｜DSML｜parameter>`, `</steptml:parameter>`): a value may
//! hold anything else, the invoke's and section's closing tags included, but never its own
//! closing tag. Tags are case-sensitive; attribute values may be quoted with `"` or `'` or
//! bare (up to a blank or `>`).
//!
//! A start marker followed by something else within the first tag (prose mentioning
//! `<function_calls>`, say) is text. Once a call's name is known, a broken parameter makes that
//! invoke an issue; reading resumes after its closing tag, so the calls around it survive.

mod head;
#[cfg(test)]
mod tests;

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::json_call::strict_or_repaired;
use super::super::{Outcome, SegmentParser, Sink, Step, Syntax};
use head::{skip_to, Choice, Head, Pick, Progress, Tok};

/// The data that defines one tagged syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tagged {
    /// The syntax's name.
    pub name: &'static str,
    /// The section's opening and closing tags, if the syntax has a section.
    pub section: Option<(&'static str, &'static str)>,
    /// Whether an invoke's first literal also opens a call without a section.
    pub bare: bool,
    /// An invoke's opening: a literal, then tokens that give the name.
    pub invoke_open: &'static [Tok],
    /// An invoke's closing: a literal, then optional further tokens.
    pub invoke_close: &'static [Tok],
    /// A parameter's opening: a literal, then tokens that give the key.
    pub param_open: &'static [Tok],
    /// A parameter's closing tag; it starts with `<` and holds no other `<`.
    pub param_close: &'static str,
    /// Drop one leading and one trailing newline of each value.
    pub trim_newlines: bool,
}

use Tok::{Attrs, Lit, Skip, Text, Ws};

/// Every tagged syntax.
pub const SYNTAXES: &[Tagged] = &[
    Tagged {
        name: "anthropic_xml",
        section: Some(("<function_calls>", "</function_calls>")),
        bare: false,
        invoke_open: &[Lit("<invoke"), Attrs],
        invoke_close: &[Lit("</invoke>")],
        param_open: &[Lit("<parameter"), Attrs],
        param_close: "</parameter>",
        trim_newlines: false,
    },
    Tagged {
        name: "minimax_m2",
        section: Some(("<minimax:tool_call>", "</minimax:tool_call>")),
        bare: false,
        invoke_open: &[Lit("<invoke"), Attrs],
        invoke_close: &[Lit("</invoke>")],
        param_open: &[Lit("<parameter"), Attrs],
        param_close: "</parameter>",
        trim_newlines: false,
    },
    Tagged {
        name: "qwen3_coder",
        section: Some(("<tool_call>", "</tool_call>")),
        bare: true,
        invoke_open: &[Lit("<function="), Text(b'>'), Lit(">")],
        invoke_close: &[Lit("</function>")],
        param_open: &[Lit("<parameter="), Text(b'>'), Lit(">")],
        param_close: "</parameter>",
        trim_newlines: true,
    },
    Tagged {
        name: "glm45",
        section: None,
        bare: true,
        invoke_open: &[Lit("<tool_call>"), Text(b'<')],
        invoke_close: &[Lit("</tool_call>")],
        param_open: &[
            Lit("<arg_key>"),
            Text(b'<'),
            Lit("</arg_key>"),
            Ws,
            Lit("<arg_value>"),
        ],
        param_close: "</arg_value>",
        trim_newlines: false,
    },
    Tagged {
        name: "deepseek_dsml",
        section: Some(("<｜DSML｜function_calls>", "</｜DSML｜function_calls>")),
        bare: false,
        invoke_open: &[Lit("<｜DSML｜invoke"), Attrs],
        invoke_close: &[Lit("</｜DSML｜invoke>")],
        param_open: &[Lit("<｜DSML｜parameter"), Attrs],
        param_close: "</｜DSML｜parameter>",
        trim_newlines: false,
    },
    Tagged {
        name: "step3",
        section: Some(("<｜tool_calls_begin｜>", "<｜tool_calls_end｜>")),
        bare: false,
        // The text between `<｜tool_sep｜>` and the invoke tag (a copy of the name) is ignored:
        // the name is the invoke's attribute.
        invoke_open: &[
            Lit("<｜tool_call_begin｜>"),
            Ws,
            Lit("function"),
            Ws,
            Lit("<｜tool_sep｜>"),
            Skip(b'<'),
            Lit("<steptml:invoke"),
            Attrs,
        ],
        invoke_close: &[Lit("</steptml:invoke>"), Ws, Lit("<｜tool_call_end｜>")],
        param_open: &[Lit("<steptml:parameter"), Attrs],
        param_close: "</steptml:parameter>",
        trim_newlines: false,
    },
];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    SYNTAXES.iter().map(|s| s.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    SYNTAXES.iter().find(|s| s.name == name).map(Tagged::syntax)
}

fn first(toks: &[Tok]) -> &'static str {
    match toks.first() {
        Some(Tok::Lit(s)) => s,
        _ => "",
    }
}

fn rest(toks: &'static [Tok]) -> &'static [Tok] {
    toks.get(1..).unwrap_or_default()
}

/// A tool name: no blanks, quotes, brackets or control characters.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 256
        && name
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"<>\"'{}[](),;=`".contains(c))
}

impl Tagged {
    /// This syntax, for an engine.
    #[must_use]
    pub fn syntax(&'static self) -> Syntax {
        let mut markers = Vec::new();
        if let Some((open, _)) = self.section {
            markers.push((open.to_string(), false, false));
        }
        if self.bare {
            markers.push((first(self.invoke_open).to_string(), false, false));
        }
        Syntax {
            name: self.name,
            markers,
            make: Box::new(move |m| {
                let section = self.section.is_some() && m == 0;
                Box::new(Parser::new(self, section, false))
            }),
        }
    }
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
    Value {
        matched: usize,
    },
    /// The invoke's closing literal was read; its further tokens follow.
    CloseRest(Head),
    /// A broken invoke: skipping to its closing literal.
    Recover {
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

/// The value being read.
#[derive(Debug, Default)]
struct Value {
    /// A JSON value (`string="false"`), collected in `text`; otherwise a streamed string.
    json: bool,
    text: String,
    /// Some text was seen (so a leading newline is no longer dropped).
    started: bool,
    /// A trailing newline held back.
    newline: bool,
}

struct Parser {
    spec: &'static Tagged,
    state: State,
    in_section: bool,
    /// Sure this is a call: a name was read, or a section already held one.
    committed: bool,
    name: Option<String>,
    args: ArgsWriter,
    key: String,
    value: Value,
    repairs: Vec<&'static str>,
    malformed: Option<(&'static str, String)>,
    chain: bool,
    /// The segment's text after the marker, for messages.
    seen: String,
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
    fn new(spec: &'static Tagged, section: bool, chained: bool) -> Self {
        Self {
            spec,
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
            value: Value::default(),
            repairs: Vec::new(),
            malformed: None,
            chain: false,
            seen: String::new(),
        }
    }

    fn candidates(&self, at: Point) -> [&'static str; 2] {
        let s = self.spec;
        match at {
            Point::Invoke => [first(s.invoke_open), ""],
            Point::Body => [first(s.param_open), first(s.invoke_close)],
            Point::After => [first(s.invoke_open), s.section.map_or("", |x| x.1)],
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

    /// Value text (trimmed for syntaxes that trim one newline at each end).
    fn text(&mut self, mut t: &str, sink: &mut Sink) {
        if t.is_empty() {
            return;
        }
        if self.spec.trim_newlines {
            if !self.value.started {
                self.value.started = true;
                t = t.strip_prefix('\n').unwrap_or(t);
                if t.is_empty() {
                    return;
                }
            }
            if std::mem::take(&mut self.value.newline) {
                self.write("\n", sink);
            }
            if let Some(s) = t.strip_suffix('\n') {
                // Held back until we know whether the closing tag follows.
                self.value.newline = true;
                t = s;
            }
        }
        self.write(t, sink);
    }

    fn write(&mut self, t: &str, sink: &mut Sink) {
        if self.value.json {
            self.value.text.push_str(t);
        } else {
            self.args.string_text(t, sink);
        }
    }

    fn end_value(&mut self, sink: &mut Sink) {
        self.value.newline = false;
        self.value.started = false;
        if !self.value.json {
            self.args.end_string(sink);
            return;
        }
        let text = std::mem::take(&mut self.value.text);
        match strict_or_repaired(text.trim()) {
            Ok((json, kinds)) if !text.trim().is_empty() => {
                self.args.json_value(&self.key, &json, sink);
                for k in kinds {
                    if !self.repairs.contains(&k) {
                        self.repairs.push(k);
                    }
                }
            }
            // Not JSON after all: keep the text as a string.
            _ => self.args.string_value(&self.key, &text, sink),
        }
    }

    /// Streams value text up to the parameter's closing tag; returns the index past it.
    fn value(
        &mut self,
        input: &str,
        mut i: usize,
        matched: &mut usize,
        sink: &mut Sink,
    ) -> Option<usize> {
        let close = self.spec.param_close;
        let bytes = input.as_bytes();
        loop {
            if *matched > 0 {
                let b = *bytes.get(i)?;
                if close.as_bytes().get(*matched) == Some(&b) {
                    *matched += 1;
                    i += 1;
                    if *matched == close.len() {
                        *matched = 0;
                        return Some(i);
                    }
                    continue;
                }
                // Not the closing tag: what matched is value text. A partial character of
                // the tag is read again from the input (a character never spans chunks).
                let mut k = *matched;
                while !close.is_char_boundary(k) {
                    k -= 1;
                }
                let back = *matched - k;
                if back <= i && input.is_char_boundary(i - back) {
                    i -= back;
                }
                *matched = 0;
                self.text(close.get(..k).unwrap_or_default(), sink);
                continue;
            }
            match memchr::memchr(b'<', bytes.get(i..)?) {
                None => {
                    self.text(input.get(i..).unwrap_or_default(), sink);
                    return None;
                }
                Some(k) => {
                    self.text(input.get(i..i + k).unwrap_or_default(), sink);
                    i += k + 1;
                    *matched = 1;
                }
            }
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
                    (Point::Body, Pick::Matched(_)) => {
                        self.state = State::CloseRest(Head::new(rest(self.spec.invoke_close)));
                    }
                    (Point::Body, Pick::Fail) => {
                        return self.broken("malformed", "unexpected text between parameters")
                    }
                    (Point::After, Pick::Matched(0)) => {
                        // Another invoke: it is the next segment, from its opening literal.
                        self.chain = true;
                        let give_back = first(self.spec.invoke_open).len();
                        return Some(done(input, *i, give_back, self.outcome(sink, None)));
                    }
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
                        sink.start(SegmentKind::ToolCall, Some(name.clone()), Vec::new());
                        self.name = Some(name);
                        self.committed = true;
                        self.state = expect(Point::Body);
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
                        self.value.json = h.json;
                        if !self.value.json {
                            self.args.begin_string(&key, sink);
                        }
                        self.key = key;
                        self.state = State::Value { matched: 0 };
                    }
                }
            }
            State::Value { mut matched } => match self.value(input, *i, &mut matched, sink) {
                None => {
                    self.state = State::Value { matched };
                    return Some(Step::NeedMore);
                }
                Some(j) => {
                    *i = j;
                    self.end_value(sink);
                    self.state = expect(Point::Body);
                }
            },
            State::CloseRest(mut h) => {
                let (j, progress) = h.feed(bytes, *i);
                *i = j;
                match progress {
                    Progress::Going => {
                        self.state = State::CloseRest(h);
                        return Some(Step::NeedMore);
                    }
                    Progress::Complete if self.in_section => self.state = expect(Point::After),
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

    fn missing_section_end(&self) -> (&'static str, String) {
        let end = self.spec.section.map_or("", |s| s.1);
        ("missing_end_marker", format!("no {end} after the call"))
    }
}

impl SegmentParser for Parser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        self.seen.push_str(input);
        let mut i = 0;
        loop {
            if let Some(step) = self.step(input, &mut i, sink) {
                return step;
            }
        }
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        match &self.state {
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
        std::mem::take(&mut self.chain)
            .then(|| Box::new(Parser::new(self.spec, false, true)) as Box<dyn SegmentParser>)
    }
}
