//! Small incremental readers shared by the special-token syntaxes: literal tokens matched a
//! byte at a time, and outcome helpers.

use super::super::json_call::{strict_or_repaired, JsonCall, NotACall};
use super::super::{Outcome, Step};

/// Longest name or header a parser reads before deciding its marker was text after all.
pub const MAX_HEADER: usize = 512;

/// ASCII blank (space, tab, newline, carriage return, form feed).
#[must_use]
pub fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace()
}

/// Which of several literal tokens the bytes seen so far spell, matched one byte at a time.
///
/// Every token begins with a byte that occurs nowhere else in it (`<` for `<|end|>`), so a
/// failed partial match never hides the start of another match inside the bytes already seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alts {
    /// Bytes matched so far (of every still-possible token).
    pub matched: usize,
    alive: u32,
}

/// What one more byte did to an [`Alts`] match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Still a proper prefix of some token.
    Partial,
    /// Token number `.0` is complete.
    Full(usize),
    /// No token: the bytes seen (this one included) are something else.
    Fail,
}

impl Alts {
    /// Feeds byte `b`, matching against `tokens` (at most 32).
    pub fn push(&mut self, tokens: &[&str], b: u8) -> Match {
        if self.matched == 0 {
            self.alive = u32::MAX;
        }
        let mut alive = 0;
        for (k, t) in tokens.iter().enumerate().take(32) {
            if self.alive & (1 << k) != 0 && t.as_bytes().get(self.matched) == Some(&b) {
                alive |= 1 << k;
            }
        }
        if alive == 0 {
            self.matched = 0;
            return Match::Fail;
        }
        self.matched += 1;
        self.alive = alive;
        for (k, t) in tokens.iter().enumerate().take(32) {
            if alive & (1 << k) != 0 && t.len() == self.matched {
                self.matched = 0;
                return Match::Full(k);
            }
        }
        Match::Partial
    }
}

/// Finds the first of several tokens in streamed text: [`Find::feed`] returns where a token
/// ends in `input` and which, or `None` after taking all of it (a partial match carries over to
/// the next input).
#[derive(Debug, Clone, Copy, Default)]
pub struct Find {
    alts: Alts,
}

impl Find {
    /// Bytes of a token matched so far at the end of the input taken: they may yet turn out
    /// not to be one.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.alts.matched
    }

    /// `(offset one past the token's end in input, token index)`, if one completes there.
    pub fn feed(&mut self, tokens: &[&str], input: &[u8]) -> Option<(usize, usize)> {
        for (i, &b) in input.iter().enumerate() {
            match self.alts.push(tokens, b) {
                Match::Full(k) => return Some((i + 1, k)),
                Match::Partial => {}
                Match::Fail => {
                    // A token's first byte occurs once in it: this byte may start a match.
                    if let Match::Full(k) = self.alts.push(tokens, b) {
                        return Some((i + 1, k));
                    }
                }
            }
        }
        None
    }
}

/// Ends a segment that was framing only (nothing started, no call, no issue): the engine
/// drops its text without reporting a segment.
#[must_use]
pub fn framing(used: usize) -> Step {
    Step::Done {
        used,
        give_back: 0,
        outcome: Outcome::default(),
    }
}

/// A call outcome.
#[must_use]
pub fn call(name: String, arguments: String, repairs: Vec<&'static str>) -> Outcome {
    Outcome {
        call: Some((name, arguments, repairs)),
        issue: None,
    }
}

/// An outcome that is only an issue.
#[must_use]
pub fn issue(kind: &'static str, message: String) -> Outcome {
    Outcome {
        call: None,
        issue: Some((kind, message)),
    }
}

/// A call read from JSON, or why the JSON is not one, as an outcome.
#[must_use]
pub fn outcome_of(found: Result<JsonCall, NotACall>) -> Outcome {
    match found {
        Ok(c) => Outcome {
            call: Some(c),
            issue: None,
        },
        Err(i) => Outcome {
            call: None,
            issue: Some(i),
        },
    }
}

/// The call of `name` whose arguments are the JSON object `body` (repaired when needed).
#[must_use]
pub fn args_call(name: &str, body: &str) -> Outcome {
    match strict_or_repaired(body) {
        Ok((json, repairs)) if json.trim_start().starts_with('{') => {
            call(name.to_string(), json, repairs)
        }
        Ok(_) => issue(
            "bad_arguments",
            format!("arguments of {name:?} aren't an object"),
        ),
        Err((kind, message)) => issue(kind, message),
    }
}

/// `outcome` with the issue `kind` (its message made by `message`) beside its call, when it
/// is a call: a call kept though something around it was off.
#[must_use]
pub fn flagged(
    mut outcome: Outcome,
    kind: &'static str,
    message: impl FnOnce() -> String,
) -> Outcome {
    if outcome.call.is_some() {
        outcome.issue = Some((kind, message()));
    }
    outcome
}

/// `outcome` with a `missing_end_marker` issue added when it is a call.
#[must_use]
pub fn missing_end(mut outcome: Outcome, end: &str) -> Outcome {
    if outcome.call.is_some() && outcome.issue.is_none() {
        outcome.issue = Some(("missing_end_marker", format!("no {end} after the call")));
    }
    outcome
}

/// The issue for a stream that ended inside a call's JSON.
#[must_use]
pub fn unterminated(what: &str, partial: &str) -> Outcome {
    issue(
        "unterminated",
        format!("the stream ended inside {what}: {partial}"),
    )
}

/// Arguments of the call `name` cut short by `token` (see [`ArgsRead::Cut`]). When all they
/// lack is their closing brackets (`{"city": "Beijing"<|tool_call_end|>`: the model ended the
/// call and forgot the brace), they are closed by repair and the call is kept, with an
/// `unterminated` issue, as vLLM keeps it. Cut inside a value (`{"a": <|tool_call_end|>`,
/// `{"a": [1, ` …) or without a name, it is only that issue: a call missing part of what it
/// was going to say is never run.
#[must_use]
pub fn cut_short(name: &str, token: &str, partial: &str) -> Outcome {
    let message = format!("the call's JSON is still open at {token}: {partial}");
    if !name.is_empty() {
        let mut outcome = args_call(name, partial);
        let only_closed = outcome
            .call
            .as_ref()
            .is_some_and(|(_, _, repairs)| repairs.iter().all(|r| *r == "unclosed_container"));
        if only_closed && outcome.issue.is_none() {
            outcome.issue = Some(("unterminated", message));
            return outcome;
        }
    }
    issue("unterminated", message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alts_and_find() {
        let toks = ["<|end|>", "<|call|>"];
        let mut a = Alts::default();
        let got: Vec<Match> = "<|call|>".bytes().map(|b| a.push(&toks, b)).collect();
        assert_eq!(got.last(), Some(&Match::Full(1)));
        assert_eq!(a.push(&toks, b'x'), Match::Fail);
        let mut f = Find::default();
        assert_eq!(f.feed(&["<|m|>"], b"ab<|m"), None);
        assert_eq!(f.feed(&["<|m|>"], b"|>z"), Some((2, 0)));
        assert_eq!(Find::default().feed(&["<|m|>"], b"<<|m|>"), Some((6, 0)));
    }
}
