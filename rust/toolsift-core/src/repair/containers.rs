//! Opening and closing containers, commas, comments and dropped characters.

use super::chars::{is_value_end, quote_at, skip_ws, utf8_len};
use super::parser::{Frame, Paren, Parser, State};
use super::RepairKind;
use crate::error::{Error, ErrorKind};

/// Where the string written just before output index `end` opens (its `"`), when the output
/// ends with a string there. Walks back over it once.
fn string_start(bytes: &[u8], end: usize) -> Option<usize> {
    if end == 0 || end > bytes.len() || bytes[end - 1] != b'"' {
        return None;
    }
    let mut i = end - 1;
    loop {
        if i == 0 {
            return None;
        }
        i -= 1;
        if bytes[i] == b'"' {
            let slashes = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count();
            if slashes % 2 == 0 {
                return Some(i);
            }
        }
    }
}

/// After a closer inside a line comment at `i`: only spaces, then `,` `}` `]` or the end.
fn ends_line_structure(b: &[u8], mut i: usize) -> bool {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    matches!(b.get(i), None | Some(b',' | b'}' | b']'))
}

impl Parser<'_> {
    pub(super) fn open_container(&mut self) -> Result<(), Error> {
        if self.stack.len() >= self.max_depth {
            return Err(Error::new(
                ErrorKind::DepthLimitExceeded {
                    limit: self.max_depth,
                },
                self.pos,
            ));
        }
        let c = self.b.get(self.pos).copied();
        if c == Some(b'{') {
            self.stack.push(Frame::Object);
            self.open_objects += 1;
            self.state = State::ObjFirstKey;
        } else {
            self.stack.push(Frame::Array);
            self.open_arrays += 1;
            self.state = State::ArrFirst;
        }
        if c == Some(b'(') {
            // A Python tuple (json_repair reads them as lists).
            self.record(RepairKind::Parentheses, self.pos);
            self.parens.push(Paren {
                depth: self.stack.len(),
                open_out: self.out.len(),
                commas: 0,
            });
            self.out.push('[');
        } else {
            self.copy(self.pos, self.pos + 1);
        }
        self.pos += 1;
        Ok(())
    }

    /// The `)` at `pos` closes the innermost list: a tuple becomes a list, or the one value it
    /// groups when it holds one and no comma; a list opened by `[` is closed as by `]`.
    pub(super) fn close_paren(&mut self) {
        let own = self
            .parens
            .last()
            .copied()
            .filter(|p| p.depth == self.stack.len());
        match own {
            Some(p) if p.commas == 0 && self.state == State::ArrNext => {
                self.parens.pop();
                self.stack.pop();
                self.open_arrays -= 1;
                self.out.remove_ascii(p.open_out, b'[');
                self.end_value();
            }
            Some(_) => self.close_innermost(false),
            None => {
                self.record(RepairKind::MismatchedCloser, self.pos);
                self.close_innermost(false);
            }
        }
        self.pos += 1;
    }

    /// A number or word may end at `i` ([`is_value_end`]); in a list, so may it at a `)`,
    /// which closes the list (`(1, 2)`, and `[1, 2)`).
    pub(super) fn ends_value(&self, i: usize) -> bool {
        is_value_end(self.b, i)
            || (self.b.get(i) == Some(&b')')
                && (self.in_wrapper || self.stack.last() == Some(&Frame::Array)))
    }

    /// Closes the innermost container, first fixing what its state left incomplete. With
    /// `verbatim`, the closer is the matching one at `pos` in the input.
    pub(super) fn close_innermost(&mut self, verbatim: bool) {
        match self.state {
            State::ObjKey | State::ArrValue => {
                self.out.remove_ascii(self.comma_out, b',');
                self.record(RepairKind::TrailingComma, self.comma_off);
            }
            // A missing value is an empty string: json_repair's convention, followed where the
            // two reference suites disagree (jsonrepair writes null).
            State::ObjColon => {
                self.record(RepairKind::MissingValue, self.pos);
                self.insert_after_last(":\"\"");
            }
            State::ObjValue => {
                self.record(RepairKind::MissingValue, self.pos);
                self.out.push_str("\"\"");
            }
            _ => {}
        }
        let popped = self.stack.pop();
        while self
            .parens
            .last()
            .is_some_and(|p| p.depth > self.stack.len())
        {
            self.parens.pop();
        }
        let closer = match popped {
            Some(Frame::Object) => {
                self.open_objects -= 1;
                '}'
            }
            Some(Frame::Array) => {
                self.open_arrays -= 1;
                ']'
            }
            None => return,
        };
        if verbatim {
            self.copy(self.pos, self.pos + 1);
        } else {
            self.out.push(closer);
        }
        self.end_value();
    }

    /// The closer at `pos` matches the innermost container.
    pub(super) fn close_matching(&mut self) {
        self.close_innermost(true);
        self.pos += 1;
    }

    /// The closer at `pos` (closing a `kind`) does not match the innermost container: it
    /// closes the innermost container instead when some open container is a `kind`, and is
    /// dropped otherwise. When the container it then stands in is a `kind` and what follows
    /// the closer cannot go on in that container, the closer closes it too: the model left
    /// out the innermost closer, not mistyped this one (`{"p": ["a"}, {"q": 1}` inside a
    /// list: an object takes no `{` after a comma; `[{"a": 1], "b": 2}`: a list takes no
    /// `"key":`).
    pub(super) fn mismatched_closer(&mut self, kind: Frame) {
        let open = match kind {
            Frame::Object => self.open_objects,
            Frame::Array => self.open_arrays,
        };
        if open > 0 {
            self.record(RepairKind::MismatchedCloser, self.pos);
            self.close_innermost(false);
            if self.stack.last() == Some(&kind) && self.cannot_go_on(kind) {
                self.close_innermost(false);
            }
        } else {
            self.record(RepairKind::ExtraCloser, self.pos);
        }
        self.pos += 1;
    }

    /// Whether what follows the closer at `pos` is a comma and then something a container of
    /// `kind` cannot hold next: a container where an object needs a key, a `"key":` in a list.
    fn cannot_go_on(&mut self, kind: Frame) -> bool {
        let i = skip_ws(self.b, self.pos + 1);
        if self.b.get(i) != Some(&b',') {
            return false;
        }
        let j = skip_ws(self.b, i + 1);
        match kind {
            Frame::Object => matches!(self.b.get(j), Some(b'{' | b'[')),
            Frame::Array => self.quoted_key_at(j, false),
        }
    }

    pub(super) fn close_all_at_eof(&mut self) {
        self.pos = self.b.len();
        if self.state == State::ObjColon {
            self.drop_cut_off_key();
        } else if self.state == State::ObjValue {
            // Cut off after the colon: the value never came, so it is null (jsonrepair's
            // reading; json_repair's suite has no case of it). A value left out before a
            // `,` or `}` is still `""`, as json_repair's suite wants.
            self.record(RepairKind::MissingValue, self.pos);
            self.out.push_str("null");
            self.state = State::ObjNext;
        }
        while !self.stack.is_empty() {
            self.record(RepairKind::UnclosedContainer, self.pos);
            self.close_innermost(false);
        }
    }

    /// Drops a key that the end of input cut off before its colon, with the comma before it,
    /// as `json_repair` does: giving it a `""` value could overwrite an earlier member of the
    /// same name (`{"key": "v", "key` would lose `"v"`). The key is the last string written
    /// (ending at `value_end_out`), so it is found by walking back over it: the cost is the
    /// key's length, once.
    fn drop_cut_off_key(&mut self) {
        let end = self.value_end_out;
        let text = self.out.string_mut();
        let bytes = text.as_bytes();
        let Some(start) = string_start(bytes, end) else {
            return;
        };
        let mut j = start;
        while j > 0 && bytes[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        let cut = match bytes.get(j.wrapping_sub(1)) {
            Some(b',') => j - 1,
            Some(b'{') => start,
            _ => return,
        };
        text.truncate(cut);
        self.value_end_out = cut;
        self.state = State::ObjNext;
        self.record(RepairKind::TruncatedKey, self.pos);
    }

    /// `["key": "value"]`: the string item just written, followed by the `:` at `pos`, is a
    /// key; an object opens before it, inside the list. False (nothing done) when the last
    /// item is no string.
    pub(super) fn key_in_list(&mut self) -> bool {
        let end = self.value_end_out;
        let Some(start) = string_start(self.out.string_mut().as_bytes(), end) else {
            return false;
        };
        if self.stack.len() >= self.max_depth {
            return false;
        }
        self.record(RepairKind::KeyInList, self.pos);
        self.out.insert_str(start, "{");
        self.stack.push(Frame::Object);
        self.open_objects += 1;
        self.copy(self.pos, self.pos + 1);
        self.pos += 1;
        self.state = State::ObjValue;
        true
    }

    /// `{'a', 'b'}`: the object's first key is followed by a comma and another string that is
    /// no key, so the braces hold a set, read as a list. False (nothing done) otherwise.
    pub(super) fn set_as_list(&mut self) -> bool {
        let next = skip_ws(self.b, self.pos + 1);
        if quote_at(self.b, next).is_none() || self.quoted_key_at(next, false) {
            return false;
        }
        let end = self.value_end_out;
        let text = self.out.string_mut();
        let Some(start) = string_start(text.as_bytes(), end) else {
            return false;
        };
        let open = text.as_bytes()[..start]
            .iter()
            .rposition(|c| !c.is_ascii_whitespace());
        let Some(open) = open.filter(|&k| text.as_bytes()[k] == b'{') else {
            return false;
        };
        text.replace_range(open..=open, "[");
        self.record(RepairKind::SetAsList, self.pos);
        if let Some(top) = self.stack.last_mut() {
            *top = Frame::Array;
        }
        self.open_objects -= 1;
        self.open_arrays += 1;
        self.state = State::ArrNext;
        true
    }

    /// After a key, the `,` at `pos` is followed by a value that cannot be a key: a number, a
    /// list, an object or a literal (`true`, `None`), not itself followed by `:`. Then the
    /// comma stood for the colon (`{"key", 105}`, `json_repair`'s reading); a string or a
    /// word there stays the next key. The look is charged to the budget.
    pub(super) fn value_after_comma(&mut self) -> bool {
        let p = skip_ws(self.b, self.pos + 1);
        let Some(&c) = self.b.get(p) else {
            return false;
        };
        if matches!(c, b'{' | b'[') {
            return true;
        }
        let word = c.is_ascii_alphabetic()
            && super::values::literal(
                self.b
                    .get(p..super::values::letters_end(self.b, p))
                    .unwrap_or_default(),
            )
            .is_some();
        (word
            || c.is_ascii_digit()
            || (c == b'-' && self.b.get(p + 1).is_some_and(u8::is_ascii_digit)))
            && !self.ident_then_colon(p)
    }

    /// `{"k": [1], [2], "n": 3}`: a list where a key should follow a member whose value is a
    /// list continues that list (its items join it, and its `]` closes it). False (nothing
    /// done) when the member's value is no list.
    pub(super) fn list_goes_on(&mut self) -> bool {
        let end = self.value_end_out;
        let closed = end > 0 && self.out.string_mut().as_bytes().get(end - 1) == Some(&b']');
        if !closed || self.stack.len() >= self.max_depth {
            return false;
        }
        self.record(RepairKind::SplitList, self.pos);
        let text = self.out.string_mut().as_bytes();
        let empty = text[..end - 1]
            .iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .is_some_and(|k| text[k] == b'[');
        self.out.remove_ascii(end - 1, b']');
        self.comma_out = self.comma_out.saturating_sub(1);
        if empty {
            // `{"k": [], [2]}`: the comma after the member would lead the list's items.
            self.out.remove_ascii(self.comma_out, b',');
        }
        self.stack.push(Frame::Array);
        self.open_arrays += 1;
        self.pos += 1;
        self.state = State::ArrValue;
        true
    }

    /// Whether the innermost container is an object that is an item of a list.
    pub(super) fn in_list_item(&self) -> bool {
        let n = self.stack.len();
        n >= 2 && self.stack[n - 1] == Frame::Object && self.stack[n - 2] == Frame::Array
    }

    /// `[{"i": 1 {"i": 2}]`: a `{` where an object in a list needs a key or its `}` is the
    /// next item; the object's `}` was left out. It closes here, and the `{` is read again
    /// in the list (after the missing comma). Before, the `{` was dropped and the next
    /// object's members overwrote this one's.
    pub(super) fn next_item_opens(&mut self) {
        self.record(RepairKind::UnclosedContainer, self.pos);
        self.close_innermost(false);
    }

    /// A comma at the level of the innermost tuple makes it a list for sure.
    fn count_tuple_comma(&mut self) {
        let depth = self.stack.len();
        if let Some(p) = self.parens.last_mut().filter(|p| p.depth == depth) {
            p.commas += 1;
        }
    }

    pub(super) fn take_comma(&mut self, next: State) {
        self.count_tuple_comma();
        self.comma_out = self.out.len();
        self.comma_off = self.pos;
        self.copy(self.pos, self.pos + 1);
        self.pos += 1;
        self.state = next;
    }

    /// Inserts a comma right after the last value (before the whitespace that followed it).
    pub(super) fn insert_missing_comma(&mut self, next: State) {
        self.count_tuple_comma();
        self.record(RepairKind::MissingComma, self.pos);
        self.comma_out = self.insert_after_last(",");
        self.comma_off = self.pos;
        self.state = next;
    }

    /// Inserts `s` right after the last key or value, before the whitespace that followed it
    /// (only whitespace can follow it in the output, so the shift is paid for by the input
    /// consumed). Returns where `s` went.
    pub(super) fn insert_after_last(&mut self, s: &str) -> usize {
        let at = self.out.insert_str(self.value_end_out, s);
        self.value_end_out = at + s.len();
        at
    }

    /// Skips a `//`, `#` or `/* */` comment at `pos`.
    ///
    /// A line comment ends at the end of the line, or just before a closer of the innermost
    /// container that is followed (after spaces) by `,`, another closer, or the end of input:
    /// in `{"k": "v" # note }, "k2": 1}` the `}` closes the object, while in
    /// `// see {x} below` the braces stay in the comment. Every byte scanned before the end
    /// found is part of the comment, so the scan is paid for by the bytes it consumes.
    pub(super) fn skip_comment(&mut self) {
        self.record(RepairKind::Comment, self.pos);
        let rest = self.b.get(self.pos..).unwrap_or_default();
        let end = if rest.starts_with(b"/*") {
            memchr::memmem::find(rest.get(2..).unwrap_or_default(), b"*/")
                .map_or(rest.len(), |k| k + 4)
        } else {
            let closer = match self.stack.last() {
                Some(Frame::Object) => b'}',
                Some(Frame::Array) => b']',
                None => b'\n',
            };
            let mut from = 0;
            loop {
                let tail = rest.get(from..).unwrap_or_default();
                let Some(k) = memchr::memchr3(b'\n', b'\r', closer, tail) else {
                    break rest.len();
                };
                let at = from + k;
                if rest.get(at) != Some(&closer) || ends_line_structure(rest, at + 1) {
                    break at;
                }
                from = at + 1;
            }
        };
        self.pos += end;
    }

    /// Removes the character at `pos`.
    pub(super) fn drop_char(&mut self) {
        self.record(RepairKind::UnexpectedCharacter, self.pos);
        let len = self.b.get(self.pos).map_or(1, |&c| utf8_len(c));
        self.pos = (self.pos + len).min(self.b.len());
    }

    /// The non-ASCII character at `pos` is whitespace (or a byte-order mark).
    pub(super) fn is_unicode_space(&self) -> bool {
        self.src
            .get(self.pos..)
            .and_then(|s| s.chars().next())
            .is_some_and(|ch| ch.is_whitespace() || ch == '\u{FEFF}')
    }
}
