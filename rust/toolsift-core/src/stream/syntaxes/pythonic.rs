//! The `pythonic` syntax: a Python list of calls, `[f(a=1, b='x'), pkg.g()]`, bare or wrapped
//! in Llama 4's `<|python_start|>`…`<|python_end|>`.
//!
//! Every `[` is a candidate. A call is a name (letters, digits, `_`, `.`, `-`) then `(`, keyword
//! arguments only, and `)`; values are Python literals read by [`Lit`] (never evaluated) and
//! typed by their literal. Until the first call's `)` any byte that does not fit makes the
//! text taken so far plain text (`[1, 2]`, `[see above]`, `[f(x)]` with a positional
//! argument), at no extra cost. Each call is announced at its `)` and its arguments written
//! through an [`ArgsWriter`]; calls of one list become one segment each (`Step::Split`).
//!
//! Delimiters inside values: brackets, parentheses, commas and `<|python_end|>` inside a quoted
//! string are part of the string. A later call in a list that is malformed is reported as an
//! issue and skipped up to its `)`, so the calls around it survive. A list left open at the end
//! of the stream keeps its complete calls (the last with `missing_end_marker`).

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::py_literal::{Lit, LitStatus};

const START: &str = "<|python_start|>";
const END: &[u8] = b"<|python_end|>";

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec!["pythonic"]
}

/// The syntax called `name`, if it is `pythonic`.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == "pythonic").then(|| Syntax {
        name: "pythonic",
        markers: vec![
            (START.to_string(), false, false),
            ("[".to_string(), false, false),
        ],
        make: Box::new(|Opening { marker, .. }| Box::new(Pythonic::new(marker == 0))),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum P {
    /// After `<|python_start|>`: blanks, then `[`.
    Before,
    /// Where a call's name may start (`first`: right after `[`).
    CallStart,
    Name,
    /// After `(` or an argument's `,`: blanks, a keyword or `)`.
    ArgStart,
    Key,
    /// After a keyword: blanks, then `=`.
    Eq,
    Value,
    /// After a value: `,` or `)`.
    AfterArg,
    /// After a call's `)`: `,` or `]`.
    AfterCall,
    /// After `,` following a call: another call or `]`.
    AfterComma,
    /// After `]` of a wrapped list: blanks, then `<|python_end|>` (`matched` bytes of it).
    End {
        matched: usize,
    },
    /// Skipping a malformed call up to its `)` (`depth` brackets open, `quote` if in a string).
    Skip {
        depth: usize,
        quote: u8,
    },
}

struct Pythonic {
    wrapped: bool,
    state: P,
    name: String,
    key: String,
    args: Vec<(String, String, Option<String>)>,
    lit: Lit,
    /// The finished call not yet reported.
    pending: Option<Outcome>,
    /// Calls (or malformed calls) ended in this list so far.
    ended: usize,
    /// A call's shape was seen (`name(` then a keyword's `=` or `)`).
    shaped: bool,
    /// Bytes taken after the last call that go back if the list does not go on.
    taken: usize,
    /// The current call's text, for messages.
    partial: String,
}

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

impl Pythonic {
    fn new(wrapped: bool) -> Self {
        Self {
            wrapped,
            state: if wrapped { P::Before } else { P::CallStart },
            name: String::new(),
            key: String::new(),
            args: Vec::new(),
            lit: Lit::new(),
            pending: None,
            ended: 0,
            shaped: false,
            taken: 0,
            partial: String::new(),
        }
    }

    /// The current call's `)`: announce it and write its arguments.
    fn end_call(&mut self, sink: &mut Sink) {
        sink.start(SegmentKind::ToolCall, Some(&self.name), Vec::new());
        let mut w = ArgsWriter::new();
        for (key, json, text) in std::mem::take(&mut self.args) {
            match text {
                Some(t) => w.string_value(&key, &t, sink),
                None => w.json_value(&key, &json, sink),
            }
        }
        let arguments = w.finish(sink);
        self.pending = Some(Outcome {
            call: Some((std::mem::take(&mut self.name), arguments, Vec::new())),
            issue: None,
        });
        self.after_end();
    }

    fn after_end(&mut self) {
        self.ended += 1;
        self.partial.clear();
        self.taken = 0;
        self.state = P::AfterCall;
    }

    /// A byte that does not fit at `i`: text before the first call, else a malformed call.
    fn bad(&mut self, i: usize) -> Option<Step> {
        if self.ended == 0 {
            return Some(Step::RejectAsText {
                used: i,
                give_back: 0,
            });
        }
        self.skip_call();
        None
    }

    /// Skips the rest of the current call, which is then reported as malformed.
    fn skip_call(&mut self) {
        self.args.clear();
        self.state = P::Skip { depth: 0, quote: 0 };
    }

    /// The list ends without its closer: the pending call, flagged.
    fn cut(&mut self, used: usize) -> Step {
        Step::Done {
            used,
            give_back: self.taken,
            outcome: self.missing_end(),
        }
    }

    fn push_arg(&mut self) {
        let lit = std::mem::take(&mut self.lit);
        self.args
            .push((std::mem::take(&mut self.key), lit.json, lit.text));
        self.state = P::AfterArg;
    }

    fn malformed(&mut self) -> Outcome {
        let name = std::mem::take(&mut self.name);
        Outcome {
            call: None,
            issue: Some((
                "bad_call",
                format!("not a pythonic call {name:?}: {}", self.partial),
            )),
        }
    }

    fn missing_end(&mut self) -> Outcome {
        let mut outcome = self.pending.take().unwrap_or_default();
        if outcome.issue.is_none() {
            let want = if matches!(self.state, P::End { .. }) {
                "<|python_end|>"
            } else {
                "]"
            };
            outcome.issue = Some(("missing_end_marker", format!("no {want} after the call")));
        }
        outcome
    }
}

impl SegmentParser for Pythonic {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        // The current call's text is kept for messages: `mark` is where the part of this
        // input not yet kept starts.
        let mut mark = 0;
        let step = self.step(input, sink, &mut mark);
        let used = match &step {
            Step::NeedMore => input.len(),
            Step::Done { used, .. } | Step::Split { used, .. } => *used,
            Step::Reject | Step::RejectAsText { .. } => 0,
        };
        self.partial
            .push_str(input.get(mark..used.max(mark)).unwrap_or_default());
        step
    }

    fn finish(&mut self, _sink: &mut Sink) -> Outcome {
        match self.state {
            P::AfterCall | P::AfterComma | P::End { .. } => self.missing_end(),
            _ if self.ended > 0 || self.shaped => Outcome {
                call: None,
                issue: Some((
                    "unterminated",
                    format!("the stream ended inside the call: {}", self.partial),
                )),
            },
            _ => Outcome::default(),
        }
    }
}

impl Pythonic {
    #[allow(clippy::too_many_lines)] // one state machine, one byte at a time
    fn step(&mut self, input: &str, sink: &mut Sink, mark: &mut usize) -> Step {
        let bytes = input.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let blank = b.is_ascii_whitespace();
            match self.state {
                P::Before if blank => {}
                P::Before if b == b'[' => self.state = P::CallStart,
                P::Before => return Step::Reject,
                P::CallStart | P::ArgStart | P::Eq | P::AfterArg | P::AfterCall if blank => {
                    if self.state == P::AfterCall {
                        self.taken += 1;
                    }
                }
                P::AfterComma if blank => self.taken += 1,
                P::CallStart | P::AfterComma if b.is_ascii_alphabetic() || b == b'_' => {
                    // A new call: its text starts here.
                    self.partial.clear();
                    *mark = i;
                    if let Some(outcome) = self.pending.take() {
                        self.state = P::Name;
                        return Step::Split { used: i, outcome };
                    }
                    self.name.push(char::from(b));
                    self.state = P::Name;
                }
                P::AfterComma if b == b']' => {
                    self.state = P::AfterCall;
                    continue;
                }
                P::Name if name_byte(b) => self.name.push(char::from(b)),
                P::Name if b == b'(' => self.state = P::ArgStart,
                P::ArgStart if b == b')' => {
                    self.shaped = true;
                    self.end_call(sink);
                }
                P::ArgStart if b.is_ascii_alphabetic() || b == b'_' => {
                    self.key.clear();
                    self.key.push(char::from(b));
                    self.state = P::Key;
                }
                P::Key if b.is_ascii_alphanumeric() || b == b'_' => self.key.push(char::from(b)),
                P::Key if blank => self.state = P::Eq,
                P::Key | P::Eq if b == b'=' => {
                    self.shaped = true;
                    self.lit = Lit::new();
                    self.state = P::Value;
                }
                P::Value => {
                    let (next, status) = self.lit.feed(input, i);
                    i = next;
                    match status {
                        LitStatus::NeedMore => {}
                        LitStatus::Complete => self.push_arg(),
                        LitStatus::Invalid => {
                            if let Some(step) = self.bad(i) {
                                return step;
                            }
                        }
                        // Python, so the list is calls; only this one is malformed.
                        LitStatus::Unsupported => self.skip_call(),
                    }
                    continue;
                }
                P::AfterArg if b == b',' => self.state = P::ArgStart,
                P::AfterArg if b == b')' => self.end_call(sink),
                P::AfterCall if b == b',' => {
                    self.taken += 1;
                    self.state = P::AfterComma;
                }
                P::AfterCall if b == b']' => {
                    if self.wrapped {
                        self.taken = 0;
                        self.state = P::End { matched: 0 };
                    } else {
                        return Step::Done {
                            used: i + 1,
                            give_back: 0,
                            outcome: self.pending.take().unwrap_or_default(),
                        };
                    }
                }
                P::AfterCall | P::AfterComma => return self.cut(i),
                P::End { matched } => {
                    if matched == 0 && blank {
                        self.taken += 1;
                    } else if END.get(matched) == Some(&b) {
                        self.taken += 1;
                        if matched + 1 == END.len() {
                            return Step::Done {
                                used: i + 1,
                                give_back: 0,
                                outcome: self.pending.take().unwrap_or_default(),
                            };
                        }
                        self.state = P::End {
                            matched: matched + 1,
                        };
                    } else {
                        return self.cut(i);
                    }
                }
                P::Skip { depth, quote } => {
                    self.state = skip(depth, quote, b);
                    if self.state == P::AfterCall || (b == b']' && depth == 0 && quote == 0) {
                        self.partial
                            .push_str(input.get(*mark..=i).unwrap_or_default());
                        *mark = i + 1;
                    }
                    if self.state == P::AfterCall {
                        self.pending = Some(self.malformed());
                        self.after_end();
                    } else if b == b']' && depth == 0 && quote == 0 {
                        return Step::Done {
                            used: i + 1,
                            give_back: 0,
                            outcome: self.malformed(),
                        };
                    }
                }
                _ => {
                    if let Some(step) = self.bad(i) {
                        return step;
                    }
                    continue;
                }
            }
            i += 1;
        }
        Step::NeedMore
    }
}

/// One byte of a malformed call being skipped: `AfterCall` once its `)` is found.
fn skip(depth: usize, quote: u8, b: u8) -> P {
    match (quote, b) {
        (0, b'\'' | b'"') => P::Skip { depth, quote: b },
        (0, b'(' | b'[' | b'{') => P::Skip {
            depth: depth + 1,
            quote: 0,
        },
        (0, b')') if depth == 0 => P::AfterCall,
        (0, b')' | b']' | b'}') => P::Skip {
            depth: depth.saturating_sub(1),
            quote: 0,
        },
        (q, _) if q == b => P::Skip { depth, quote: 0 },
        _ => P::Skip { depth, quote },
    }
}

#[cfg(test)]
#[path = "pythonic_tests.rs"]
mod tests;
