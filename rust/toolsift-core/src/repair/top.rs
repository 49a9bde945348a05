//! The top level: a lone scalar, or one or more containers followed by text to ignore.

use super::chars::{is_ws, quote_at, skip_ws};
use super::parser::{Ctx, Parser};
use super::RepairKind;
use crate::error::Error;

impl Parser<'_> {
    /// Parses one top-level value at a `{` or `[` at `pos`, then any further values that are
    /// separated from it only by whitespace and commas (wrapped into an array), then ignores
    /// trailing text.
    pub(super) fn parse_top_containers(&mut self) -> Result<(), Error> {
        let first_out = self.out.len();
        self.parse_container()?;
        let mut wrapped = false;
        loop {
            let ws_end = skip_ws(self.b, self.pos);
            if ws_end >= self.b.len() {
                if wrapped {
                    self.out.push(']');
                }
                self.copy(self.pos, ws_end);
                self.pos = ws_end;
                return Ok(());
            }
            let mut k = ws_end;
            while matches!(self.b.get(k), Some(&c) if c == b',' || is_ws(c)) {
                k += 1;
            }
            if !matches!(self.b.get(k), Some(b'{' | b'[')) {
                self.record(RepairKind::TrailingText, ws_end);
                self.pos = self.b.len();
                if wrapped {
                    self.out.push(']');
                }
                return Ok(());
            }
            if !wrapped {
                self.out.insert_str(first_out, "[");
                wrapped = true;
            }
            self.record(RepairKind::ConcatenatedValues, k);
            self.out.push(',');
            self.pos = k;
            self.parse_container()?;
        }
    }

    /// Parses a whole-input scalar at `pos` (after leading whitespace, already copied). True
    /// when it is a real scalar followed only by whitespace; otherwise nothing is kept.
    pub(super) fn parse_top_scalar(&mut self) -> bool {
        let (out_len, rep_len) = (self.out.len(), self.repairs.len());
        let c = self.b.get(self.pos).copied().unwrap_or(0);
        let ok = if let Some((q, len)) = quote_at(self.b, self.pos) {
            self.parse_string(q, len, Ctx::Top);
            true
        } else if matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.') {
            self.parse_number(Ctx::Top)
        } else {
            c.is_ascii_alphabetic() && self.parse_word()
        };
        let rest = skip_ws(self.b, self.pos);
        if ok && rest >= self.b.len() {
            self.copy(self.pos, rest);
            self.pos = rest;
            return true;
        }
        self.out.truncate(out_len);
        self.repairs.truncate(rep_len);
        false
    }
}
