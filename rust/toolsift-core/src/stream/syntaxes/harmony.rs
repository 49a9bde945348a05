//! `gpt_oss`: `OpenAI`'s Harmony message format.
//!
//! ```text
//! <|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{ARGS}<|call|>
//! <|channel|>analysis<|message|>reasoning…<|end|>
//! <|start|>assistant<|channel|>final<|message|>the answer…<|return|>
//! ```
//!
//! A message header runs from `<|start|>` (or a bare `<|channel|>`) to `<|message|>`; it names
//! the channel and, for a call, the recipient (`to=functions.NAME` in the role or the channel
//! part; the name is what follows `functions.`, dots included). A message with a recipient is a
//! call whose body is a JSON object (read with the JSON scanner, so Harmony tokens inside string
//! values are part of the value) ended by `<|call|>` (or `<|end|>`/`<|return|>`); an end or
//! start token met outside strings while the object is still open cuts it short (an
//! `unterminated` issue, with the call kept when only its closing brackets were missing, see
//! `lex::cut_short`; the next message is read as usual). An `analysis`
//! message is a reasoning segment that streams as text up to its end token (or up to the next
//! `<|start|>`/`<|channel|>`, which is given back to open the next message). Any other message
//! (`final`, or `commentary` without a recipient) is content: its header is framing, dropped, and
//! its body flows as ordinary text; the end tokens `<|end|>`, `<|return|>` and `<|call|>` met in
//! text are framing too. A message whose author is not the assistant (`<|start|>system`,
//! `developer`, `user`, a tool's `functions.NAME` answer) is the conversation the model was
//! given, not its output: header and body are framing, dropped, up to the message's end token
//! (a rendered conversation keeps only the assistant's messages, as vLLM reads it).

use super::super::events::SegmentKind;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_read::{overran, Args, ArgsRead};
use super::lex::{
    args_call, cut_short, framing, is_blank, issue, missing_end, unterminated, Alts, Find, Match,
    MAX_HEADER,
};

const NAME: &str = "gpt_oss";
const START: &str = "<|start|>";
const CHANNEL: &str = "<|channel|>";
const MESSAGE: &str = "<|message|>";
/// `<|message|>` ends a header; the other tokens mean it was not one.
const HEADER_ENDS: &[&str] = &[MESSAGE, "<|call|>", "<|end|>", "<|return|>", START];
/// Tokens that end a call message.
const CALL_ENDS: &[&str] = &["<|call|>", "<|end|>", "<|return|>"];
/// Tokens that end a reasoning message; the last two begin the next message.
const REASONING_ENDS: &[&str] = &["<|end|>", "<|return|>", "<|call|>", START, CHANNEL];
/// Tokens that end another author's message; the last begins the next message.
const CONTEXT_ENDS: &[&str] = &["<|end|>", "<|return|>", "<|call|>", START];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec![NAME]
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == NAME).then(|| {
        let mut markers = vec![START, CHANNEL];
        markers.extend_from_slice(CALL_ENDS);
        Syntax {
            name: NAME,
            markers: markers
                .into_iter()
                .map(|m| (m.to_string(), false, false))
                .collect(),
            make: Box::new(|opening| Box::new(Parser::new(opening))),
        }
    })
}

enum State {
    /// A stray end token: framing.
    Stray,
    /// Another author's message body, up to its end: framing.
    Context(Find),
    /// The header, up to `<|message|>`.
    Header(Find),
    /// An analysis message's text; `held` is a partial end token not yet known to be text.
    Reasoning {
        alts: Alts,
        held: String,
    },
    /// Blanks before a call's arguments.
    PreArgs,
    Args(Args),
    /// A call body that is not a JSON object, up to its end token.
    Junk(Find),
    /// After the arguments: blanks (`held`), then the end token.
    AfterArgs {
        held: usize,
        alts: Alts,
    },
}

struct Parser {
    /// The header began with `<|channel|>` (so it starts with the channel's name).
    bare_channel: bool,
    state: State,
    header: String,
    name: String,
    junk: String,
    /// Reasoning text read in this feed, sent as one delta at its end.
    text: String,
    outcome: Outcome,
    /// Nesting the arguments' scanner accepts.
    scan_depth: usize,
}

/// The word after `key` in `header`, up to a blank or `<`.
fn word_after<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(key)? + key.len();
    let rest = header.get(at..)?.trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(rest.len());
    rest.get(..end)
}

impl Parser {
    fn new(
        Opening {
            marker, scan_depth, ..
        }: Opening,
    ) -> Self {
        Self {
            scan_depth,
            bare_channel: marker == 1,
            state: if marker < 2 {
                State::Header(Find::default())
            } else {
                State::Stray
            },
            header: String::new(),
            name: String::new(),
            junk: String::new(),
            text: String::new(),
            outcome: Outcome::default(),
        }
    }

    /// Reads the complete header: the next state, or `None` when the message is content.
    fn open(&mut self, sink: &mut Sink) -> Option<State> {
        let header = self.header.as_str();
        let author = header
            .split(|c: char| c.is_whitespace() || c == '<')
            .next()
            .unwrap_or("");
        if !self.bare_channel && !author.is_empty() && author != "assistant" {
            return Some(State::Context(Find::default()));
        }
        let recipient = word_after(header, "to=").unwrap_or("");
        if !recipient.is_empty() {
            self.name = recipient
                .strip_prefix("functions.")
                .unwrap_or(recipient)
                .to_string();
            sink.start(SegmentKind::ToolCall, Some(&self.name), Vec::new());
            return Some(State::PreArgs);
        }
        let channel = if self.bare_channel {
            word_after(header, "")
        } else {
            word_after(header, CHANNEL)
        };
        if channel == Some("analysis") {
            sink.start(SegmentKind::Reasoning, None, Vec::new());
            return Some(State::Reasoning {
                alts: Alts::default(),
                held: String::new(),
            });
        }
        None
    }

    #[allow(clippy::too_many_lines)]
    fn step(&mut self, input: &str, sink: &mut Sink) -> Step {
        let bytes = input.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match &mut self.state {
                State::Stray => return framing(0),
                State::Context(find) => {
                    let found = find.feed(CONTEXT_ENDS, &bytes[i..]);
                    let Some((end, k)) = found else {
                        return Step::NeedMore;
                    };
                    return Step::Done {
                        used: i + end,
                        give_back: if k == 3 { START.len() } else { 0 },
                        outcome: Outcome::default(),
                    };
                }
                State::Header(find) => {
                    let found = find.feed(HEADER_ENDS, &bytes[i..]);
                    let end = found.map_or(bytes.len(), |(end, _)| i + end);
                    self.header.push_str(&input[i..end]);
                    i = end;
                    // The header's length without the token that ends it (or the part of one
                    // matched so far): over the limit it is no header however it is chunked.
                    let header = match found {
                        Some((_, k)) => self.header.len() - HEADER_ENDS[k].len(),
                        None => self.header.len() - find.pending(),
                    };
                    if header > MAX_HEADER {
                        return Step::Reject;
                    }
                    if found.is_none() {
                        continue;
                    }
                    if found.is_some_and(|(_, k)| k > 0) {
                        // An end or a new start before `<|message|>`: not a header.
                        return Step::Reject;
                    }
                    self.header.truncate(self.header.len() - MESSAGE.len());
                    match self.open(sink) {
                        Some(state) => self.state = state,
                        // Content: the header is framing and the body is read as text.
                        None => return framing(i),
                    }
                }
                State::Reasoning { alts, held } => {
                    let b = bytes[i];
                    if alts.matched == 0 && b != b'<' {
                        let stop = memchr::memchr(b'<', &bytes[i..]).map_or(bytes.len(), |k| i + k);
                        self.text.push_str(&input[i..stop]);
                        i = stop;
                        continue;
                    }
                    i += 1;
                    match alts.push(REASONING_ENDS, b) {
                        Match::Partial => held.push(char::from(b)),
                        Match::Full(k) => {
                            let give_back = if k >= 3 { REASONING_ENDS[k].len() } else { 0 };
                            return Step::Done {
                                used: i,
                                give_back,
                                outcome: Outcome::default(),
                            };
                        }
                        Match::Fail => {
                            // The held bytes were text; this byte may start a token.
                            self.text.push_str(held);
                            held.clear();
                            if alts.push(REASONING_ENDS, b) == Match::Partial {
                                held.push(char::from(b));
                            } else {
                                // Not `<`: an ASCII byte or the start of a UTF-8 char, which is
                                // text (the run loop above sends whole chars).
                                i -= 1;
                            }
                        }
                    }
                }
                State::PreArgs => {
                    let b = bytes[i];
                    if is_blank(b) {
                        i += 1;
                    } else if b == b'{' {
                        self.state = State::Args(Args::new(self.scan_depth));
                    } else {
                        self.state = State::Junk(Find::default());
                    }
                }
                State::Args(args) => {
                    let tokens = [CALL_ENDS[0], CALL_ENDS[1], CALL_ENDS[2], START, CHANNEL];
                    match args.feed(&tokens, &input[i..], sink) {
                        ArgsRead::More => i = bytes.len(),
                        ArgsRead::Closed(n) => {
                            i += n;
                            let body = &args.value.text;
                            if let Some((at, after)) = overran(body, CALL_ENDS, sink) {
                                return Step::Done {
                                    used: i,
                                    give_back: body.len() - after,
                                    outcome: cut_short(&self.name, CALL_ENDS[0], &body[..at]),
                                };
                            }
                            self.outcome = args_call(&self.name, &args.value.text);
                            self.state = State::AfterArgs {
                                held: 0,
                                alts: Alts::default(),
                            };
                        }
                        ArgsRead::Cut { used, token } => {
                            // An object left open: closed by repair and reported (see `cut_short`); a
                            // next message is given back.
                            return Step::Done {
                                used: i + used,
                                give_back: if token >= 3 { tokens[token].len() } else { 0 },
                                outcome: cut_short(&self.name, tokens[token], &args.value.text),
                            };
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
                    let found = find.feed(CALL_ENDS, &bytes[i..]);
                    let end = found.map_or(bytes.len(), |(end, _)| i + end);
                    self.junk.push_str(&input[i..end]);
                    i = end;
                    if let Some((_, k)) = found {
                        self.junk.truncate(self.junk.len() - CALL_ENDS[k].len());
                        return Step::Done {
                            used: i,
                            give_back: 0,
                            outcome: self.body_outcome(),
                        };
                    }
                }
                State::AfterArgs { held, alts } => {
                    let b = bytes[i];
                    if alts.matched == 0 && is_blank(b) {
                        *held += 1;
                        i += 1;
                        continue;
                    }
                    match alts.push(CALL_ENDS, b) {
                        Match::Partial => {
                            *held += 1;
                            i += 1;
                        }
                        Match::Full(_) => {
                            return Step::Done {
                                used: i + 1,
                                give_back: 0,
                                outcome: std::mem::take(&mut self.outcome),
                            }
                        }
                        Match::Fail => {
                            return Step::Done {
                                used: i,
                                give_back: *held,
                                outcome: missing_end(
                                    std::mem::take(&mut self.outcome),
                                    CALL_ENDS[0],
                                ),
                            }
                        }
                    }
                }
            }
        }
        Step::NeedMore
    }

    fn body_outcome(&self) -> Outcome {
        if self.junk.trim().is_empty() {
            args_call(&self.name, "{}")
        } else {
            issue(
                "not_json",
                format!("arguments of {:?} are not JSON: {}", self.name, self.junk),
            )
        }
    }
}

impl SegmentParser for Parser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let step = self.step(input, sink);
        sink.text_delta(&self.text);
        self.text.clear();
        step
    }

    fn restart_back(&self) -> Option<usize> {
        match &self.state {
            State::Args(args) => args.value.restart_back(),
            _ => None,
        }
    }

    fn finish_is_framing(&self) -> bool {
        matches!(
            self.state,
            State::Stray | State::Reasoning { .. } | State::Context(_)
        )
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        match &mut self.state {
            State::Stray | State::Context(_) => Outcome::default(),
            State::Header(_) => unterminated("a message header", &self.header),
            State::Reasoning { held, .. } => {
                // A reasoning message cut off is still reasoning.
                sink.text_delta(held);
                Outcome::default()
            }
            State::PreArgs => unterminated("the call's arguments", ""),
            State::Args(args) => unterminated("the call's JSON", &args.value.text),
            State::Junk(_) => unterminated("the call's arguments", &self.junk),
            State::AfterArgs { .. } => missing_end(std::mem::take(&mut self.outcome), CALL_ENDS[0]),
        }
    }
}
