//! Syntaxes whose calls sit in a section of special tokens, each call a header (the name) and a
//! JSON object of arguments: Kimi K2 and `DeepSeek` V3 / V3.1.
//!
//! ```text
//! kimi_k2:      <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{ARGS}<|tool_call_end|><|tool_calls_section_end|>
//! deepseek_v3:  <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME⏎```json⏎{ARGS}⏎```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! deepseek_v31: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{ARGS}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! ```
//!
//! Each call is its own segment. Both the section's and the call's begin tokens are markers, so
//! after a call ends (with the next call's begin token taken provisionally and given back) the
//! engine opens the next call at its own marker; blanks between calls belong to the call before
//! them, and the section's end token to the last call. The arguments are read with the JSON
//! scanner, so the end tokens inside string values are part of the value; outside strings, the
//! object ends at its closing brace, and a call or section token met outside strings before
//! that cuts an object left open short: an object that lacks only its closing brackets is
//! closed and kept as a call with an `unterminated` issue, one cut inside a value is that
//! issue alone (see `lex::cut_short`); the calls after it survive. The `DeepSeek` parsers accept both forms: when the
//! text after `<｜tool▁sep｜>` (up to a newline, fence or brace) is blank, the name is the text
//! before it. Kimi's name is everything between `functions.` and `:IDX`, dots included; an id with
//! the prefix and no `:IDX` is a `bad_call_id` issue. A Kimi header with `:IDX` is the call's
//! id (see [`Sink::start_with_id`]).
//! Text between the section's begin token and the first call's (at most [`MAX_HEADER`] bytes)
//! belongs to the first call's segment, not to content, as vLLM reads it; a section's token
//! followed by anything else is text.

use super::super::events::SegmentKind;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_read::{overran, Args, ArgsRead};
use super::lex::{
    args_call, cut_short, framing, is_blank, issue, missing_end, unterminated, Alts, Find, Match,
    MAX_HEADER,
};

/// Whether `id` ends with `:IDX`, a colon and digits.
fn has_index(id: &str) -> bool {
    id.rsplit_once(':')
        .is_some_and(|(_, i)| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
}

/// The data that defines one token-section syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenCalls {
    /// The syntax's name.
    pub name: &'static str,
    /// Opens the section of calls (marker 0).
    pub section_begin: &'static str,
    /// Opens one call (marker 1).
    pub call_begin: &'static str,
    /// Ends the call's header.
    pub sep: &'static str,
    /// Ends one call.
    pub call_end: &'static str,
    /// Ends the section.
    pub section_end: &'static str,
    /// The name may follow `sep` on its own line (`DeepSeek` V3: `function<sep>NAME⏎`).
    pub name_after_sep: bool,
    /// Prefix dropped from the name (`functions.`).
    pub name_prefix: &'static str,
    /// Drop a `:DIGITS` suffix from the name (Kimi's call index).
    pub strip_index: bool,
}

const DEEPSEEK: TokenCalls = TokenCalls {
    name: "deepseek_v3",
    section_begin: "<｜tool▁calls▁begin｜>",
    call_begin: "<｜tool▁call▁begin｜>",
    sep: "<｜tool▁sep｜>",
    call_end: "<｜tool▁call▁end｜>",
    section_end: "<｜tool▁calls▁end｜>",
    name_after_sep: true,
    name_prefix: "",
    strip_index: false,
};

/// Every token-section syntax.
pub const SPECS: &[TokenCalls] = &[
    TokenCalls {
        name: "kimi_k2",
        section_begin: "<|tool_calls_section_begin|>",
        call_begin: "<|tool_call_begin|>",
        sep: "<|tool_call_argument_begin|>",
        call_end: "<|tool_call_end|>",
        section_end: "<|tool_calls_section_end|>",
        name_after_sep: false,
        name_prefix: "functions.",
        strip_index: true,
    },
    DEEPSEEK,
    TokenCalls {
        name: "deepseek_v31",
        ..DEEPSEEK
    },
];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    SPECS.iter().map(|s| s.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    let spec: &'static TokenCalls = SPECS.iter().find(|s| s.name == name)?;
    Some(Syntax {
        name: spec.name,
        markers: vec![
            (spec.section_begin.to_string(), false, false),
            (spec.call_begin.to_string(), false, false),
        ],
        make: Box::new(move |opening| Box::new(Parser::new(spec, &opening))),
    })
}

enum State {
    /// After the section's begin token: blanks, then a call's begin token (or the section's end).
    Section { blanks: usize, alts: Alts },
    /// Text between the section's begin token and the first call's (`seen` bytes so far).
    Noise { seen: usize, find: Find },
    /// The call's header, up to `sep` (or `call_end`: a call without arguments).
    Head(Find),
    /// `DeepSeek` V3: the name line after `sep`.
    Tail,
    /// Blanks and a ```` ```json ```` fence before the arguments (`fence`: right after the
    /// backticks or inside their info string).
    PreArgs { fence: bool },
    /// Inside the arguments object.
    Args(Args),
    /// Arguments that are not an object, up to `call_end`.
    Junk(Find),
    /// After the arguments: blanks and a closing fence, then `call_end`.
    AfterArgs { held: usize, alts: Alts },
    /// After `call_end`: blanks, then the section's end or the next call.
    AfterCall { held: usize, alts: Alts },
}

struct Parser {
    spec: &'static TokenCalls,
    state: State,
    head: String,
    tail: String,
    name: String,
    /// Kimi: the id has the `functions.` prefix but no `:IDX` after the name.
    bad_id: bool,
    junk: String,
    outcome: Outcome,
    /// Nesting the arguments' scanner accepts.
    scan_depth: usize,
}

impl Parser {
    fn new(spec: &'static TokenCalls, opening: &Opening) -> Self {
        Self {
            spec,
            scan_depth: opening.scan_depth,
            state: if opening.marker == 0 {
                State::Section {
                    blanks: 0,
                    alts: Alts::default(),
                }
            } else {
                State::Head(Find::default())
            },
            head: String::new(),
            tail: String::new(),
            name: String::new(),
            bad_id: false,
            junk: String::new(),
            outcome: Outcome::default(),
        }
    }

    /// The name is known: the segment starts.
    fn start(&mut self, sink: &mut Sink) {
        self.name = self.resolve_name();
        self.bad_id = self.spec.strip_index && {
            // `functions.NAME:IDX` names the function; an id with the prefix and no index
            // (`functions.invalid.0`) is malformed, and where NAME ends is unknown: vLLM's and
            // SGLang's readers skip such a call too. Ids without the prefix (`0`, `call_3`)
            // are the bare counters `_call_reshape` names from the tools.
            let id = self.head.trim();
            id.starts_with(self.spec.name_prefix) && !has_index(id)
        };
        // Kimi's `functions.NAME:IDX` (or `NAME:IDX`) is the call's id, which the reply to
        // the call names; a bare counter (`0`, `call_3`) is not one.
        let head = self.head.trim();
        let given = (self.spec.strip_index && !self.bad_id && has_index(head)).then_some(head);
        sink.start_with_id(SegmentKind::ToolCall, Some(&self.name), Vec::new(), given);
    }

    fn resolve_name(&self) -> String {
        let from = if self.spec.name_after_sep && !self.tail.trim().is_empty() {
            &self.tail
        } else {
            &self.head
        };
        let mut name = from.trim();
        if let Some(rest) = name.strip_prefix(self.spec.name_prefix) {
            name = rest;
        }
        if self.spec.strip_index && has_index(name) {
            if let Some((before, _)) = name.rsplit_once(':') {
                name = before;
            }
        }
        name.trim().to_string()
    }

    fn finish_args(&mut self, body: &str) -> Outcome {
        if self.name.is_empty() {
            issue("no_name", "a call without a tool name".to_string())
        } else if self.bad_id {
            issue(
                "bad_call_id",
                format!(
                    "the call id {:?} is not functions.NAME:IDX",
                    self.head.trim()
                ),
            )
        } else {
            args_call(&self.name, body)
        }
    }
}

impl SegmentParser for Parser {
    #[allow(clippy::too_many_lines)]
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let bytes = input.as_bytes();
        let spec = self.spec;
        let mut i = 0;
        while i < bytes.len() {
            match &mut self.state {
                State::Section { blanks, alts } => {
                    let b = bytes[i];
                    i += 1;
                    if alts.matched == 0 && is_blank(b) {
                        *blanks += 1;
                        if *blanks > MAX_HEADER {
                            return Step::Reject;
                        }
                        continue;
                    }
                    match alts.push(&[spec.call_begin, spec.section_end], b) {
                        Match::Partial => {}
                        Match::Full(0) => self.state = State::Head(Find::default()),
                        // An empty section is framing only.
                        Match::Full(_) => return framing(i),
                        Match::Fail => {
                            // Text before the first call (vLLM drops it): read again as noise.
                            i -= 1;
                            self.state = State::Noise {
                                seen: 0,
                                find: Find::default(),
                            };
                        }
                    }
                }
                State::Noise { seen, find } => {
                    let tokens = [spec.call_begin, spec.section_end];
                    let found = find.feed(&tokens, &bytes[i..]);
                    let end = found.map_or(bytes.len(), |(end, _)| i + end);
                    *seen += end - i;
                    i = end;
                    // The noise's length without the token (or the part of one matched so
                    // far), so that the limit holds at the same byte however it is chunked.
                    let noise = match found {
                        Some((_, k)) => *seen - tokens[k].len(),
                        None => *seen - find.pending(),
                    };
                    match found {
                        // Prose that merely mentions the token, or a section of prose only.
                        _ if noise > MAX_HEADER => return Step::Reject,
                        Some((_, 1)) => return Step::Reject,
                        None => {}
                        Some(_) => self.state = State::Head(Find::default()),
                    }
                }
                State::Head(find) => {
                    let tokens = [spec.sep, spec.call_end];
                    let found = find.feed(&tokens, &bytes[i..]);
                    let end = found.map_or(bytes.len(), |(end, _)| i + end);
                    self.head.push_str(&input[i..end]);
                    i = end;
                    // The head's length without the token (or the part of one matched so
                    // far): a head over the limit is no header however it is chunked.
                    let head = match found {
                        Some((_, k)) => self.head.len() - tokens[k].len(),
                        None => self.head.len() - find.pending(),
                    };
                    match found {
                        _ if head > MAX_HEADER => return Step::Reject,
                        None => {}
                        Some((_, 0)) => {
                            self.head.truncate(self.head.len() - spec.sep.len());
                            // Only V3's literal call type `function` puts the name after
                            // `sep`; any other head is the name itself (V3.1).
                            if spec.name_after_sep && self.head.trim() == "function" {
                                self.state = State::Tail;
                            } else {
                                self.start(sink);
                                self.state = State::PreArgs { fence: false };
                            }
                        }
                        Some(_) => {
                            // `call_end` right after the name: a call without arguments.
                            self.head.truncate(self.head.len() - spec.call_end.len());
                            self.start(sink);
                            self.outcome = self.finish_args("{}");
                            self.state = State::AfterCall {
                                held: 0,
                                alts: Alts::default(),
                            };
                        }
                    }
                }
                State::Tail => {
                    let stop = bytes[i..]
                        .iter()
                        .position(|&b| matches!(b, b'\n' | b'`' | b'{' | b'<'))
                        .map_or(bytes.len(), |k| i + k);
                    self.tail.push_str(&input[i..stop]);
                    i = stop;
                    if self.tail.len() > MAX_HEADER {
                        return Step::Reject;
                    }
                    if i < bytes.len() {
                        self.start(sink);
                        self.state = State::PreArgs { fence: false };
                    }
                }
                State::PreArgs { fence } => {
                    let b = bytes[i];
                    if b == b'{' {
                        self.state = State::Args(Args::new(self.scan_depth));
                    } else if is_blank(b) || b == b'`' || (*fence && b.is_ascii_alphabetic()) {
                        // A fence's info string (`json`) follows its backticks directly.
                        *fence = b == b'`' || (*fence && b.is_ascii_alphabetic());
                        i += 1;
                    } else {
                        self.state = State::Junk(Find::default());
                    }
                }
                State::Args(args) => {
                    let tokens = [spec.call_end, spec.call_begin, spec.section_end];
                    match args.feed(&tokens, &input[i..], sink) {
                        ArgsRead::More => i = bytes.len(),
                        ArgsRead::Closed(n) => {
                            i += n;
                            let body = std::mem::take(&mut args.value.text);
                            if let Some((at, after)) = overran(&body, &[spec.call_end], sink) {
                                return Step::Done {
                                    used: i,
                                    give_back: body.len() - after,
                                    outcome: cut_short(&self.name, spec.call_end, &body[..at]),
                                };
                            }
                            self.outcome = self.finish_args(&body);
                            self.state = State::AfterArgs {
                                held: 0,
                                alts: Alts::default(),
                            };
                        }
                        ArgsRead::Cut { used, token } => {
                            // An object left open: closed by repair and reported (see
                            // `cut_short`), and the calls after it survive.
                            i += used;
                            let outcome = cut_short(&self.name, tokens[token], &args.value.text);
                            if token == 0 {
                                self.outcome = outcome;
                                self.state = State::AfterCall {
                                    held: 0,
                                    alts: Alts::default(),
                                };
                            } else {
                                let give_back = if token == 1 { tokens[1].len() } else { 0 };
                                return Step::Done {
                                    used: i,
                                    give_back,
                                    outcome,
                                };
                            }
                        }
                        ArgsRead::TooDeep => {
                            return Step::Done {
                                used: i,
                                give_back: 0,
                                outcome: issue("too_deep", "JSON nested too deeply".to_string()),
                            }
                        }
                    }
                }
                State::Junk(find) => {
                    let found = find.feed(&[spec.call_end], &bytes[i..]);
                    let end = found.map_or(bytes.len(), |(end, _)| i + end);
                    self.junk.push_str(&input[i..end]);
                    i = end;
                    if found.is_some() {
                        self.junk.truncate(self.junk.len() - spec.call_end.len());
                        self.outcome = if self.junk.trim().is_empty() {
                            self.finish_args("{}")
                        } else {
                            issue(
                                "not_json",
                                format!("arguments of {:?} are not JSON: {}", self.name, self.junk),
                            )
                        };
                        self.state = State::AfterCall {
                            held: 0,
                            alts: Alts::default(),
                        };
                    }
                }
                State::AfterArgs { held, alts } => {
                    let b = bytes[i];
                    if alts.matched == 0 && (is_blank(b) || b == b'`') {
                        // A closing fence belongs to the call; blanks are provisional.
                        *held = if b == b'`' { 0 } else { *held + 1 };
                        i += 1;
                        continue;
                    }
                    match alts.push(&[spec.call_end], b) {
                        Match::Partial => {
                            *held += 1;
                            i += 1;
                        }
                        Match::Full(_) => {
                            i += 1;
                            self.state = State::AfterCall {
                                held: 0,
                                alts: Alts::default(),
                            };
                        }
                        Match::Fail => {
                            return Step::Done {
                                used: i,
                                give_back: *held,
                                outcome: missing_end(
                                    std::mem::take(&mut self.outcome),
                                    spec.call_end,
                                ),
                            }
                        }
                    }
                }
                State::AfterCall { held, alts } => {
                    let b = bytes[i];
                    if alts.matched == 0 && is_blank(b) {
                        *held += 1;
                        i += 1;
                        continue;
                    }
                    let outcome = match alts.push(&[spec.section_end, spec.call_begin], b) {
                        Match::Partial => {
                            *held += 1;
                            i += 1;
                            continue;
                        }
                        Match::Full(k) => (i + 1, if k == 0 { 0 } else { spec.call_begin.len() }),
                        Match::Fail => (i, *held),
                    };
                    // The next call's begin token goes back to the engine, which opens it.
                    return Step::Done {
                        used: outcome.0,
                        give_back: outcome.1,
                        outcome: std::mem::take(&mut self.outcome),
                    };
                }
            }
        }
        Step::NeedMore
    }

    fn restart_back(&self) -> Option<usize> {
        match &self.state {
            State::Args(args) => args.value.restart_back(),
            _ => None,
        }
    }

    fn finish(&mut self, _sink: &mut Sink) -> Outcome {
        match &self.state {
            // Only text after the section's token: plain text.
            State::Noise { .. } => Outcome::default(),
            State::Section { .. } | State::Head(_) | State::Tail | State::PreArgs { .. } => {
                unterminated("a call's header", &format!("{}{}", self.head, self.tail))
            }
            State::Args(args) => unterminated("the call's JSON", &args.value.text),
            State::Junk(_) => unterminated("the call's arguments", &self.junk),
            State::AfterArgs { .. } => {
                missing_end(std::mem::take(&mut self.outcome), self.spec.call_end)
            }
            State::AfterCall { .. } => std::mem::take(&mut self.outcome),
        }
    }
}
