//! The fast path: a run of tokens that are strict JSON, or carry one of the repairs that LLM
//! output needs most (single quotes, unquoted keys, Python-style literals), and whose meaning
//! needs no lookahead beyond the next structural byte, is handled here in a tight loop, with
//! exactly the effect that [`Parser::step`](super::parser) would have had on each of them.
//! Anything else (another repair, an unusual byte, a quote whose meaning needs lookahead, a
//! container too deep) ends the run before that token, with nothing done for it, and the
//! general step takes over for one token.

// The hot helpers are forced inline: left to the heuristics, the scan loop gets about 30%
// more instructions per input byte (measured with callgrind on the benchmark corpus).
#![allow(clippy::inline_always)]

use super::chars::{skip_ws, Quote};
use super::parser::{Frame, Parser, State};
use super::tokens::{closed_string, identifier_key, is_key_byte, plain_number_end, value_ends_at};
use super::values::{letters_end, literal};
use super::RepairKind;

/// Whether the fast path is taken. Tests turn it off to check it against the general step.
#[cfg(not(test))]
#[inline(always)]
pub(super) const fn enabled() -> bool {
    true
}

#[cfg(test)]
thread_local! {
    pub(super) static ENABLED: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

#[cfg(test)]
pub(super) fn enabled() -> bool {
    ENABLED.with(std::cell::Cell::get)
}

/// The input being copied to the output as it is, from `start` on. Up to where it is written,
/// the output is as long as the input plus `delta` (wrapping): the output length at input
/// offset `p` of the run is `p + delta`.
struct Run {
    start: usize,
    delta: usize,
}

impl Run {
    /// The output length at input offset `p` of the run.
    #[inline(always)]
    const fn out_len(&self, p: usize) -> usize {
        p.wrapping_add(self.delta)
    }
}

/// What handling a token gave: `Ok` with where to go on and the state there, or `Err` with
/// where the fast path stopped and the state there.
type Step = Result<(usize, State), (usize, State)>;

impl Parser<'_> {
    /// Handles tokens while the fast path can; stops (before a token) when it cannot, when the
    /// outermost container closes, or at the end of input.
    pub(super) fn run_fast(&mut self) {
        let b = self.b;
        let mut run = Run {
            start: self.pos,
            delta: self.out.len().wrapping_sub(self.pos),
        };
        let mut p = self.pos;
        let mut state = self.state;
        while state != State::Done {
            p = skip_ws(b, p);
            let Some(&c) = b.get(p) else {
                break;
            };
            let next = match (state, c) {
                (State::ObjFirstKey | State::ObjKey, _) => self.member(&mut run, p, c, state),
                (State::ObjColon, b':') => self.value_after(&mut run, p + 1),
                (State::ObjValue | State::ArrFirst | State::ArrValue, _) => {
                    self.value(&mut run, p, c, state)
                }
                (State::ObjNext | State::ArrNext, b',') => {
                    self.comma_out = run.out_len(p);
                    self.comma_off = p;
                    let next_state = if state == State::ObjNext {
                        State::ObjKey
                    } else {
                        State::ArrValue
                    };
                    Ok((p + 1, next_state))
                }
                (State::ObjNext, b'}') | (State::ArrNext, b']') => {
                    self.value_end_out = run.out_len(p + 1);
                    Ok((p + 1, self.pop_frame()))
                }
                _ => Err((p, state)),
            };
            match next {
                Ok((to, next_state)) => (p, state) = (to, next_state),
                Err((to, last_state)) => {
                    (p, state) = (to, last_state);
                    break;
                }
            }
        }
        self.copy(run.start, p);
        self.pos = p;
        self.state = state;
    }

    /// The member (or closing brace) at `p`, starting with `c`, where a key may be (`state`).
    /// The key and the colon and value after it are taken as far as the fast path can. `Ok`
    /// gives where to go on and the state there; `Err` where it stopped and the state there.
    #[inline(always)]
    fn member(&mut self, run: &mut Run, p: usize, c: u8, state: State) -> Step {
        let colon = if c == b'"' || c == b'\'' {
            let Some((close, next)) = self.quoted(run, p, c, true) else {
                return Err((p, state));
            };
            self.value_end_out = run.out_len(close + 1);
            if self.b.get(next) != Some(&b':') {
                return Ok((next, State::ObjColon));
            }
            next
        } else if is_key_byte(c) {
            let Some(colon) = self.identifier_key(run, p) else {
                return Err((p, state));
            };
            colon
        } else if c == b'}' && state == State::ObjFirstKey {
            self.value_end_out = run.out_len(p + 1);
            return Ok((p + 1, self.pop_frame()));
        } else {
            return Err((p, state));
        };
        self.value_after(run, colon + 1)
    }

    /// The value of a member, after its colon (which ends just before `p`).
    #[inline(always)]
    fn value_after(&mut self, run: &mut Run, p: usize) -> Step {
        let p = skip_ws(self.b, p);
        match self.b.get(p) {
            Some(&c) => self.value(run, p, c, State::ObjValue),
            None => Err((p, State::ObjValue)),
        }
    }

    /// The value at `p`, starting with `c`, where one may be (`state`: in an object, or in an
    /// array); with the comma after it, if there is one.
    #[inline(always)]
    fn value(&mut self, run: &mut Run, p: usize, c: u8, state: State) -> Step {
        if c == b'{' || c == b'[' {
            if self.stack.len() >= self.max_depth || skip_ws(self.b, p + 1) >= self.b.len() {
                // At the end of input, a list drops it (the general step).
                return Err((p, state));
            }
            return Ok((p + 1, self.push_frame(c)));
        }
        if c == b']' && state == State::ArrFirst {
            self.value_end_out = run.out_len(p + 1);
            return Ok((p + 1, self.pop_frame()));
        }
        let Some((end, next)) = self.scalar(run, p, c) else {
            return Err((p, state));
        };
        let in_object = state == State::ObjValue;
        // Only a number: reading one writes nothing yet (a single-quoted string was written
        // already, and the general step would write it again).
        if in_object
            && matches!(c, b'0'..=b'9' | b'-')
            && self.b.get(end) == Some(&b',')
            && self.b.get(end + 1).is_some_and(u8::is_ascii_digit)
        {
            // `{"a": 1,234}`: digits grouped by commas (the general step).
            return Err((p, state));
        }
        self.value_end_out = run.out_len(end);
        if self.b.get(next) == Some(&b',') {
            self.comma_out = run.out_len(next);
            self.comma_off = next;
            let after = if in_object {
                State::ObjKey
            } else {
                State::ArrValue
            };
            return Ok((next + 1, after));
        }
        let after = if in_object {
            State::ObjNext
        } else {
            State::ArrNext
        };
        Ok((next, after))
    }

    /// The string opened by `c` (`"` or `'`) at `p`, a key if `key`, when the fast path can
    /// take it (see [`closed_string`]): the offset of its closing quote, and of what follows.
    #[inline(always)]
    fn quoted(&mut self, run: &mut Run, p: usize, c: u8, key: bool) -> Option<(usize, usize)> {
        if c == b'"' {
            closed_string(self.b, p, Quote::Double, key)
        } else {
            self.single_quoted(run, p, key)
        }
    }

    /// The scalar starting with `c` at `p`, when the fast path can take it: just past it, and
    /// the offset of what follows it after whitespace.
    #[inline(always)]
    fn scalar(&mut self, run: &mut Run, p: usize, c: u8) -> Option<(usize, usize)> {
        let end = match c {
            b'"' | b'\'' => {
                let (close, next) = self.quoted(run, p, c, false)?;
                return Some((close + 1, next));
            }
            b'0'..=b'9' | b'-' => plain_number_end(self.b, p)?,
            _ if c.is_ascii_alphabetic() => {
                let end = letters_end(self.b, p);
                if !value_ends_at(self.b, end) {
                    return None;
                }
                if !matches!(self.b.get(p..end), Some(b"true" | b"false" | b"null")) {
                    self.other_literal(run, p, end)?;
                }
                end
            }
            _ => return None,
        };
        Some((end, skip_ws(self.b, end)))
    }

    /// Like [`Parser::quoted`] for a string in single quotes, which become double quotes.
    #[inline(never)]
    fn single_quoted(&mut self, run: &mut Run, p: usize, key: bool) -> Option<(usize, usize)> {
        let (close, next) = closed_string(self.b, p, Quote::Single, key)?;
        self.record(RepairKind::SingleQuotes, p);
        self.copy(run.start, p);
        self.out.push_quoted(p + 1, close);
        run.start = close + 1;
        Some((close, next))
    }

    /// The word `p..end` (ASCII letters, then a value end), when it is a literal that keeps
    /// its length (`True`, `None`, `FALSE`...), which is then written in its place.
    #[inline(never)]
    fn other_literal(&mut self, run: &mut Run, p: usize, end: usize) -> Option<()> {
        let word = self.b.get(p..end)?;
        let (text, kind) = literal(word)?;
        if let Some(kind) = kind {
            if text.len() != word.len() {
                return None;
            }
            self.record(kind, p);
            self.copy(run.start, p);
            self.out.push_str(text);
            run.start = end;
        }
        Some(())
    }

    /// An unquoted key at `p` made of ASCII letters, digits, `_` and `$`, followed (after
    /// spaces or tabs) by `:`, gets its quotes; returns the offset of the colon.
    #[inline(never)]
    fn identifier_key(&mut self, run: &mut Run, p: usize) -> Option<usize> {
        let (end, colon) = identifier_key(self.b, p)?;
        self.copy(run.start, p);
        self.record(RepairKind::UnquotedKey, p);
        self.out.push_quoted(p, end);
        run.start = end;
        run.delta = run.delta.wrapping_add(2);
        self.value_end_out = self.out.len();
        Some(colon)
    }

    /// Opens a container for the opener `c`; returns the state inside it.
    #[inline]
    fn push_frame(&mut self, c: u8) -> State {
        if c == b'{' {
            self.stack.push(Frame::Object);
            self.open_objects += 1;
            State::ObjFirstKey
        } else {
            self.stack.push(Frame::Array);
            self.open_arrays += 1;
            State::ArrFirst
        }
    }

    /// Closes the innermost container; returns the state after it.
    #[inline]
    fn pop_frame(&mut self) -> State {
        match self.stack.pop() {
            Some(Frame::Object) => self.open_objects -= 1,
            Some(Frame::Array) => self.open_arrays -= 1,
            None => {}
        }
        match self.stack.last() {
            Some(Frame::Object) => State::ObjNext,
            Some(Frame::Array) => State::ArrNext,
            None => State::Done,
        }
    }
}
