//! The state machine: one forward pass over the input with an explicit stack of open
//! containers. Only the innermost container's state is kept in a variable; a parent is always
//! "after a value" when its child closes, so the stack holds just the container kinds.

use super::chars::{
    is_fence, is_ident_byte, is_slash_comment, skip_ws, string_opener_at, word_end,
};
use super::out::Out;
use super::{Repair, RepairKind, Repaired};
use crate::error::Error;

/// An open container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Frame {
    Object,
    Array,
}

/// Where the innermost container is in its grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// After `{`.
    ObjFirstKey,
    /// After a comma in an object (the comma is pending: removed if a closer follows).
    ObjKey,
    /// After a key.
    ObjColon,
    /// After a colon.
    ObjValue,
    /// After a member's value.
    ObjNext,
    /// After `[`.
    ArrFirst,
    /// After a comma in an array (pending, like [`State::ObjKey`]).
    ArrValue,
    /// After an item.
    ArrNext,
    /// No container is open.
    Done,
}

/// A list opened by `(`: written as `[`, unwrapped when it closes holding one value and no
/// comma (`(1)` → `1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Paren {
    /// The stack's height with its frame on it.
    pub(super) depth: usize,
    /// Output index of its `[`.
    pub(super) open_out: usize,
    /// Commas taken at its own level.
    pub(super) commas: usize,
}

/// Where a string or scalar sits, which decides what may follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    Key,
    ObjValue,
    Array,
    Top,
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) b: &'a [u8],
    pub(super) pos: usize,
    pub(super) out: Out<'a>,
    pub(super) repairs: Vec<Repair>,
    /// Bytes of lookahead still allowed; keeps the pass linear whatever the input.
    pub(super) budget: usize,
    pub(super) stack: Vec<Frame>,
    pub(super) open_objects: usize,
    pub(super) open_arrays: usize,
    pub(super) state: State,
    /// Output index of the pending comma, and its input offset.
    pub(super) comma_out: usize,
    pub(super) comma_off: usize,
    /// Output length right after the last complete value (where a missing comma goes).
    pub(super) value_end_out: usize,
    pub(super) max_depth: usize,
    /// Open lists that `(` opened, innermost last.
    pub(super) parens: Vec<Paren>,
    /// Reading the scalar inside a wrapper call (`ObjectId("…")`): its `)` ends it.
    pub(super) in_wrapper: bool,
    /// The input's last byte that is not a blank (0 when there is none).
    pub(super) last_byte: usize,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str, max_depth: usize) -> Self {
        Self {
            src,
            b: src.as_bytes(),
            pos: 0,
            out: Out::new(src),
            repairs: Vec::new(),
            budget: src.len().saturating_mul(4).saturating_add(4096),
            stack: Vec::new(),
            open_objects: 0,
            open_arrays: 0,
            state: State::Done,
            comma_out: 0,
            comma_off: 0,
            value_end_out: 0,
            max_depth,
            parens: Vec::new(),
            in_wrapper: false,
            last_byte: src
                .as_bytes()
                .iter()
                .rposition(|c| !c.is_ascii_whitespace())
                .unwrap_or(0),
        }
    }

    #[inline]
    pub(super) fn record(&mut self, kind: RepairKind, offset: usize) {
        if self.repairs.capacity() == 0 {
            // A document that needs one repair often needs many more.
            self.repairs.reserve((self.b.len() / 32).clamp(8, 1024));
        }
        self.repairs.push(Repair { kind, offset });
    }

    pub(super) fn finish(self) -> Repaired {
        Repaired {
            text: self.out.into_string(),
            repairs: self.repairs,
        }
    }

    /// Pushes the input bytes `from..to` (both on character boundaries).
    #[inline]
    pub(super) fn copy(&mut self, from: usize, to: usize) {
        self.out.copy(from, to);
    }

    /// Parses a value at a `{` or `[` at `pos` until it is closed (or the input ends).
    pub(super) fn parse_container(&mut self) -> Result<(), Error> {
        self.open_container()?;
        self.run_container()
    }

    /// Parses on until every open container is closed (or the input ends).
    pub(super) fn run_container(&mut self) -> Result<(), Error> {
        loop {
            // Tuples count their commas, which the fast path does not see.
            if super::fast::enabled() && self.parens.is_empty() {
                self.run_fast();
            }
            if self.stack.is_empty() {
                return Ok(());
            }
            self.step()?;
        }
    }

    /// Advances by at least one byte, or changes state so that the next step will.
    fn step(&mut self) -> Result<(), Error> {
        let ws_end = skip_ws(self.b, self.pos);
        self.copy(self.pos, ws_end);
        self.pos = ws_end;
        let Some(&c) = self.b.get(self.pos) else {
            self.close_all_at_eof();
            return Ok(());
        };
        if c == b'#' || is_slash_comment(self.b, self.pos) {
            self.skip_comment();
            return Ok(());
        }
        if c == b'`' && is_fence(self.b, self.pos) {
            self.record(RepairKind::TrailingText, self.pos);
            self.pos = self.b.len();
            self.close_all_at_eof();
            return Ok(());
        }
        if c < 0x20 || c == 0x7F || (c >= 0x80 && self.is_unicode_space()) {
            self.drop_char();
            return Ok(());
        }
        match self.state {
            State::ObjFirstKey | State::ObjKey => self.step_object_key(c),
            State::ObjColon => self.step_object_colon(c),
            State::ObjValue => self.step_object_value(c)?,
            State::ObjNext => self.step_object_next(c),
            State::ArrFirst | State::ArrValue => self.step_array_value(c)?,
            State::ArrNext => self.step_array_next(c),
            State::Done => self.pos = self.b.len(),
        }
        Ok(())
    }

    fn step_object_key(&mut self, c: u8) {
        match c {
            b'}' => self.close_matching(),
            b']' => self.mismatched_closer(Frame::Array),
            b',' => {
                self.record(RepairKind::ExtraComma, self.pos);
                self.pos += 1;
            }
            b'[' if self.state == State::ObjKey && self.list_goes_on() => {}
            b'{' if self.state == State::ObjKey && self.in_list_item() => self.next_item_opens(),
            b':' | b'{' | b'[' => self.drop_char(),
            // `{"a": 1, ...}`: a placeholder for members left out, as in arrays.
            b'.' | 0xE2 if self.skip_ellipsis() => {}
            _ => {
                if let Some((q, len)) = string_opener_at(self.b, self.pos) {
                    self.parse_string(q, len, Ctx::Key);
                } else {
                    self.parse_unquoted_key();
                }
                self.value_end_out = self.out.len();
                self.state = State::ObjColon;
            }
        }
    }

    fn step_object_colon(&mut self, c: u8) {
        match c {
            b'"' | b'\'' if self.stray_closing_quote(b":") => self.drop_char(),
            b':' => {
                self.copy(self.pos, self.pos + 1);
                self.pos += 1;
                self.state = State::ObjValue;
            }
            b'}' => self.close_matching(),
            b']' => self.mismatched_closer(Frame::Array),
            b',' if self.set_as_list() => {}
            b',' if self.value_after_comma() => {
                // `{"key", 105}`: a comma typed for the colon, a value and no key after it.
                self.record(RepairKind::MissingColon, self.pos);
                self.insert_after_last(":");
                self.pos += 1;
                self.state = State::ObjValue;
            }
            b',' => {
                self.record(RepairKind::MissingValue, self.pos);
                self.insert_after_last(":\"\"");
                self.state = State::ObjNext;
            }
            _ => {
                self.record(RepairKind::MissingColon, self.pos);
                self.insert_after_last(":");
                self.state = State::ObjValue;
            }
        }
    }

    fn step_object_value(&mut self, c: u8) -> Result<(), Error> {
        match c {
            b'}' => self.close_matching(),
            b']' => self.mismatched_closer(Frame::Array),
            b',' => {
                self.record(RepairKind::MissingValue, self.pos);
                self.out.push_str("\"\"");
                self.end_value();
            }
            b':' => self.drop_char(),
            _ => {
                if !self.skip_ellipsis() {
                    self.parse_value(Ctx::ObjValue)?;
                }
            }
        }
        Ok(())
    }

    fn step_object_next(&mut self, c: u8) {
        match c {
            b'"' | b'\'' if self.stray_closing_quote(b",}") => self.drop_char(),
            b',' => self.take_comma(State::ObjKey),
            b'}' => self.close_matching(),
            b']' => self.mismatched_closer(Frame::Array),
            b'{' if self.in_list_item() => self.next_item_opens(),
            _ if is_ident_byte(c) && self.stray_word_before_closer(self.pos) => {
                self.record(RepairKind::UnexpectedCharacter, self.pos);
                self.pos = word_end(self.b, self.pos);
            }
            _ if is_ident_byte(c) || string_opener_at(self.b, self.pos).is_some() => {
                self.insert_missing_comma(State::ObjKey);
            }
            _ => {
                if !self.skip_ellipsis() {
                    self.drop_char();
                }
            }
        }
    }

    fn step_array_value(&mut self, c: u8) -> Result<(), Error> {
        if self.drop_empty_last_item() {
            return Ok(());
        }
        match c {
            b']' => self.close_matching(),
            b')' => self.close_paren(),
            b'}' => self.mismatched_closer(Frame::Object),
            b',' => {
                self.record(RepairKind::ExtraComma, self.pos);
                self.pos += 1;
            }
            b':' => self.drop_char(),
            _ => {
                if !self.skip_ellipsis() {
                    self.parse_value(Ctx::Array)?;
                }
            }
        }
        Ok(())
    }

    fn step_array_next(&mut self, c: u8) {
        match c {
            b'"' | b'\'' if self.stray_closing_quote(b",])") => self.drop_char(),
            b',' => self.take_comma(State::ArrValue),
            b']' => self.close_matching(),
            b')' => self.close_paren(),
            b'}' => self.mismatched_closer(Frame::Object),
            b':' if self.key_in_list() => {}
            b':' => self.drop_char(),
            _ => {
                if !self.skip_ellipsis() {
                    self.insert_missing_comma(State::ArrValue);
                }
            }
        }
    }

    /// Parses a value (container or scalar) at `pos` inside a container.
    pub(super) fn parse_value(&mut self, ctx: Ctx) -> Result<(), Error> {
        let Some(&c) = self.b.get(self.pos) else {
            return Ok(());
        };
        if c == b'{' || c == b'[' || c == b'(' {
            return self.open_container();
        }
        if c.is_ascii_alphabetic() && self.parse_wrapped(ctx) {
            self.end_value();
            return Ok(());
        }
        if let Some((q, len)) = string_opener_at(self.b, self.pos) {
            self.parse_string(q, len, ctx);
        } else if self.escaped_string_at() {
            self.parse_escaped_string();
        } else if matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.') {
            if !self.parse_number(ctx) {
                self.parse_unquoted_value();
            }
        } else if !(c.is_ascii_alphabetic() && self.parse_word()) {
            self.parse_unquoted_value();
        }
        self.end_value();
        Ok(())
    }

    /// A scalar (or the `null` standing for a missing value) has just been written.
    pub(super) fn end_value(&mut self) {
        self.value_end_out = self.out.len();
        self.state = self.after_value_state();
    }

    fn after_value_state(&self) -> State {
        match self.stack.last() {
            Some(Frame::Object) => State::ObjNext,
            Some(Frame::Array) => State::ArrNext,
            None => State::Done,
        }
    }
}
