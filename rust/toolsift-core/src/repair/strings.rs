//! Quoted strings: escapes, raw control characters, and the decision whether a quote ends the
//! string or is an unescaped quote inside it.
//!
//! A quote ends a string when what follows it (after whitespace) can follow a string in its
//! context: `:` after a key; `,` `}` `]` after a value; the end of input or a code fence
//! anywhere. A few more shapes end it too, because they are a missing comma or colon rather
//! than an inner quote: in an object value, a quote followed by another string that is itself
//! followed by `:` (`"a""b": 1`), or by whitespace and an unquoted `key:`; in an array, a quote
//! followed by another string, a container, or a scalar followed by `,` `]` or the end. At top
//! level a quote ends the string unless a word follows it directly.
//! The lookahead that takes is charged to [`Parser::budget`].

use super::chars::{
    closing_quote_at, find_special, find_special_bytewise, is_fence, is_ident_byte,
    is_slash_comment, is_ws, push_control_escape, quote_at, skip_ws, word_end, Quote, SpecialTable,
};
use super::parser::{Ctx, Frame, Parser};
use super::RepairKind;
use crate::strict_json::hex4;

/// The brackets a string's text opens and leaves open, followed once the string holds an
/// inner quote: `{"x": "the answer is {"a": "b"}, not a string"}`. A quote followed by the
/// closer of the last one still open is text, not the string's end (`json_repair`'s reading).
struct Brackets {
    /// The text is read up to here.
    scanned: usize,
    /// The openers still open, innermost last.
    open: Vec<u8>,
}

impl Brackets {
    /// For the text starting at `content`.
    const fn new(content: usize) -> Self {
        Self {
            scanned: content,
            open: Vec::new(),
        }
    }

    /// Whether the quote at `i` (`len` bytes) is followed, after blanks, by the closer of the
    /// innermost bracket the text before it leaves open. Each byte of the text is read once.
    fn closer_after(&mut self, b: &[u8], i: usize, len: usize) -> bool {
        let opener = match b.get(skip_ws(b, i + len)) {
            Some(b'}') => b'{',
            Some(b']') => b'[',
            _ => return false,
        };
        for &c in b.get(self.scanned..i).unwrap_or_default() {
            match c {
                b'{' | b'[' => self.open.push(c),
                b'}' if self.open.last() == Some(&b'{') => _ = self.open.pop(),
                b']' if self.open.last() == Some(&b'[') => _ = self.open.pop(),
                _ => {}
            }
        }
        self.scanned = self.scanned.max(i);
        self.open.last() == Some(&opener)
    }
}

/// What follows a string's closing quote when it is a `+`.
enum Joined {
    /// Another string: where its opening quote is, its kind and its length.
    Next(usize, Quote, usize),
    /// Nothing to join (`,` `}` `]` or the end next): where the `+` is.
    Dangling(usize),
}

/// `b` from `from` on, as far as a lookahead `budget` reaches: a look reads no more than it
/// may charge (reading past it, then failing to charge, made every look after the budget ran
/// out read the rest of the input again: quadratic).
pub(super) fn ahead(b: &[u8], from: usize, budget: usize) -> &[u8] {
    let end = from.saturating_add(budget).min(b.len());
    b.get(from..end).unwrap_or_default()
}

/// The first byte at or after `i` that needs attention in a string opened by `q`.
#[inline]
fn next_special(b: &[u8], i: usize, q: Quote, table: &SpecialTable) -> usize {
    if q == Quote::Backtick {
        find_special_bytewise(b, i, table)
    } else {
        find_special(b, i, table)
    }
}

impl Parser<'_> {
    /// Parses the string whose opening quote (`q`, `qlen` bytes) is at `pos`.
    pub(super) fn parse_string(&mut self, mut q: Quote, qlen: usize, ctx: Ctx) {
        self.open_string(q);
        let mut table = SpecialTable::for_quote(q);
        let content = self.pos + qlen;
        let content_out = self.out.len();
        let mut i = content;
        // Where the text of the string's last part starts (`"a" + "b`: at `b`). What is read
        // back from the end of input maps input bytes to output bytes one to one, which holds
        // within a part only (a joined string's quotes and `+` are not written): reading back
        // from the whole string's start cut `{"d":1,':'+'` to `{"d":":"+"}` (found by the
        // `repair` fuzz target).
        let mut part = content;
        // An inner quote was kept in the string: then the brackets its text opens are followed.
        let mut inner: Option<Brackets> = None;
        // The string's own text needed a repair (a raw control character, an inner quote):
        // its end is then a guess, and trailing blanks before it are dropped (below).
        let mut malformed = false;
        // In a list, where the string would end if its closing quote was left out at its first
        // line break (input offset of what follows it, and the output length there).
        let mut line_cut: Option<(usize, usize)> = None;
        let mut line_seen = false;
        loop {
            let run = i;
            i = next_special(self.b, i, q, table);
            self.copy(run, i);
            let Some(&c) = self.b.get(i) else {
                if let Some(cut) = line_cut {
                    self.end_at_line(part, cut, content_out);
                    return;
                }
                self.end_at_eof(content, part, content_out, ctx);
                return;
            };
            if let Some(len) = closing_quote_at(self.b, i, q) {
                match self.concatenated_after(i + len) {
                    Some(Joined::Next(next, q2, len2)) => {
                        // `"a" + "b"`: JavaScript joins the strings; so does the repair.
                        self.record(RepairKind::StringConcatenation, i);
                        (q, table, i) = (q2, SpecialTable::for_quote(q2), next + len2);
                        part = i;
                        continue;
                    }
                    Some(Joined::Dangling(plus)) => return self.close_before_plus(i, q, plus),
                    None => {}
                }
                // `""value"`: an empty string that cannot end here is a doubled opening quote
                // (CSV style), not an empty string and an inner quote.
                // `["a" b", "c"]`: in a string with no inner quote yet, a quote followed by a
                // word and a separator closes it (the word lacks its opening quote).
                let closes = (self.closes_string(i + len, ctx, inner.is_some())
                    || (ctx == Ctx::Array
                        && inner.is_none()
                        && self.word_missing_its_opening_quote(i + len)))
                    && !(ctx != Ctx::Key
                        && inner
                            .as_mut()
                            .is_some_and(|br| br.closer_after(self.b, i, len)));
                if i == content && !closes {
                    self.record(RepairKind::UnexpectedCharacter, i);
                    i += len;
                    continue;
                }
                if closes && ctx == Ctx::Key && self.colon_ends_key(content, i, len) {
                    // `{"key:"value"}`: the key's colon was written inside it, and this quote
                    // opens the value.
                    self.out.pop_byte(b':');
                    self.out.push('"');
                    self.pos = i;
                    return;
                }
                if closes {
                    if ctx == Ctx::Key
                        && malformed
                        && self.out.ends_with_newline_escape(content_out)
                    {
                        // A key ending in a raw line break: the break and blanks around it
                        // belong to the layout (json_repair's reading). A value keeps them:
                        // json_repair drops them there too, but a file's content written with
                        // raw line breaks then loses its last one.
                        self.out.trim_string_end(content_out);
                    }
                    self.write_closing_quote(i, q, i + len);
                    return;
                }
                if ctx == Ctx::ObjValue && self.ends_before_comma(part, i, len, q) {
                    return;
                }
                if let Some(cut) = line_cut {
                    // `["abc,⏎"def"]`: a quote that cannot close the string, after the line
                    // break where it could have ended: it ended there.
                    self.end_at_line(content, cut, content_out);
                    return;
                }
                self.keep_inner_quote(i, len, q);
                inner.get_or_insert(Brackets::new(content));
                malformed = true;
                i += len;
                continue;
            }
            match c {
                b'\\' => i = self.parse_escape(i),
                b'"' => {
                    self.out.push_str("\\\"");
                    i += 1;
                }
                0xE2 | 0xC2 => {
                    // Another character with a quote's lead byte: copy it whole.
                    let end = (i + if c == 0xE2 { 3 } else { 2 }).min(self.b.len());
                    self.copy(i, end);
                    i = end;
                }
                _ => {
                    if c == b'\n' && ctx == Ctx::Array && !line_seen {
                        line_seen = true;
                        line_cut = self.line_end_cut(part, i);
                    }
                    self.record(RepairKind::ControlCharacter, i);
                    push_control_escape(self.out.string_mut(), c);
                    malformed = true;
                    i += 1;
                }
            }
        }
    }

    /// The quote at `i` (`len` bytes) does not end the string quoted by `q`: it is text.
    fn keep_inner_quote(&mut self, i: usize, len: usize, q: Quote) {
        if q == Quote::Double {
            self.record(RepairKind::UnescapedQuote, i);
            self.out.push_str("\\\"");
        } else {
            self.copy(i, i + len);
        }
    }

    /// `"a" +}`: the quote at `i` closes the string, and the `+` at `plus`, which no string
    /// follows, is dropped.
    fn close_before_plus(&mut self, i: usize, q: Quote, plus: usize) {
        self.record(RepairKind::StringConcatenation, plus);
        self.write_closing_quote(i, q, plus + 1);
    }

    /// Writes the `"` that closes a string quoted by `q`, for the closing quote at `i`; reading
    /// goes on at `next`.
    fn write_closing_quote(&mut self, i: usize, q: Quote, next: usize) {
        if q == Quote::Double {
            self.copy(i, i + 1);
        } else {
            self.out.push('"');
        }
        self.pos = next;
    }

    /// Writes the `"` that opens a string quoted by `q` at `pos`.
    fn open_string(&mut self, q: Quote) {
        match q {
            Quote::Double => {}
            Quote::Single => self.record(RepairKind::SingleQuotes, self.pos),
            Quote::SmartDouble | Quote::SmartSingle | Quote::Backtick => {
                self.record(RepairKind::SmartQuotes, self.pos);
            }
        }
        if q == Quote::Double {
            self.copy(self.pos, self.pos + 1);
        } else {
            self.out.push('"');
        }
    }

    /// The first raw line break of a string in a list, at `nl` (the string's text starts at
    /// `content`): where the string ends if its closing quote was left out there, as
    /// jsonrepair reads it. Before a `,` or `]` that ends the line (`"abc,⏎`), or at the
    /// break when the next line starts with `]` (`"abc⏎]`). The blanks between were copied
    /// as they are, so the output length there is known.
    fn line_end_cut(&self, content: usize, nl: usize) -> Option<(usize, usize)> {
        let mut d = nl;
        // Only spaces: they were copied byte for byte (a tab or CR was escaped into two).
        while d > content && self.b[d - 1] == b' ' {
            d -= 1;
        }
        if d > content && matches!(self.b[d - 1], b',' | b']') {
            return Some((d - 1, self.out.len() - (nl - (d - 1))));
        }
        let next = skip_ws(self.b, nl + 1);
        (self.b.get(next) == Some(&b']')).then(|| (nl, self.out.len() - (nl - d)))
    }

    /// Ends the string at `cut` (see [`Parser::line_end_cut`]); reading goes on from there.
    fn end_at_line(&mut self, content: usize, (at, out_len): (usize, usize), content_out: usize) {
        self.record(RepairKind::UnclosedString, at);
        self.out.truncate(out_len);
        self.drop_dangling_plus(content, at, content_out);
        self.out.trim_string_end(content_out);
        self.out.push('"');
        self.pos = at;
    }

    /// The string whose text starts at input offset `content` (output `content_out`), its last
    /// part at `part` (see `parse_string`), runs to the end of input: it is closed there, or
    /// before the closers that end it.
    fn end_at_eof(&mut self, content: usize, part: usize, content_out: usize, ctx: Ctx) {
        self.record(RepairKind::UnclosedString, self.b.len());
        // A key joined from parts (`'k' + 'a:b`) is not one written without its closing quote.
        let colon = (part == content)
            .then(|| self.colon_in_open_key(content, ctx))
            .flatten();
        if let Some(colon) = colon {
            // `{"key:value}`: the key ends at its colon; the rest is its value.
            self.out.truncate(self.out.len() - (self.b.len() - colon));
            self.out.push('"');
            self.pos = colon;
            return;
        }
        let tail = self.closers_after_string(content, part);
        self.out.truncate(self.out.len() - tail);
        self.drop_dangling_plus(part, self.b.len() - tail, content_out);
        // Cut off by the end: blanks before the cut are no part of the value (as json_repair
        // reads it).
        self.out.trim_string_end(content_out);
        self.out.push('"');
        self.pos = self.b.len() - tail;
    }

    /// The text `content..end` of a string left open ends in blanks and a `+` (`"hello +`):
    /// the text was cut off in a concatenation, and that `+` is dropped from the output
    /// (whose string, from `content_out`, holds the text as it was read). The blanks around it
    /// are the caller's to trim.
    fn drop_dangling_plus(&mut self, content: usize, end: usize, content_out: usize) {
        let text = self.b.get(content..end).unwrap_or_default();
        let kept = text.len() - text.iter().rev().take_while(|&&c| is_ws(c)).count();
        if kept >= 2 && text[kept - 1] == b'+' && is_ws(text[kept - 2]) {
            self.out.trim_string_end(content_out);
            self.out.pop_byte(b'+');
            self.record(RepairKind::StringConcatenation, content + kept - 1);
        }
    }

    /// After a string's closing quote at `after`: a `+` and another string (blanks and
    /// comments around the `+`)? Where that string's opening quote is, its kind and length.
    /// Or a `+` with no string after it, before `,` `}` `]` or the end: where that `+` is.
    fn concatenated_after(&mut self, after: usize) -> Option<Joined> {
        if !matches!(
            self.b.get(after),
            Some(b'+' | b' ' | b'\t' | b'\n' | b'\r' | b'/')
        ) {
            return None;
        }
        // The look past blanks and comments is charged to the budget: quotes inside a long
        // comment would otherwise each scan it again.
        let plus = self.skip_blanks_and_comments(after);
        if plus - after > self.budget {
            return None;
        }
        self.budget -= plus - after;
        if self.b.get(plus) != Some(&b'+') {
            return None;
        }
        let next = self.skip_blanks_and_comments(plus + 1);
        if !self.charge(next - plus) {
            return None;
        }
        if matches!(self.b.get(next), None | Some(b',' | b'}' | b']')) {
            return Some(Joined::Dangling(plus));
        }
        let (q, len) = quote_at(self.b, next)?;
        Some(Joined::Next(next, q, len))
    }

    /// The end of the blanks and `/* */` or `//` comments from `i` on.
    fn skip_blanks_and_comments(&self, mut i: usize) -> usize {
        loop {
            i = skip_ws(self.b, i);
            let rest = self.b.get(i..).unwrap_or_default();
            if rest.starts_with(b"/*") {
                i = memchr::memmem::find(&rest[2..], b"*/").map_or(self.b.len(), |k| i + 2 + k + 2);
            } else if rest.starts_with(b"//") {
                i = memchr::memchr(b'\n', rest).map_or(self.b.len(), |k| i + k);
            } else {
                return i;
            }
        }
    }

    /// A key left open by the end of input whose text (from `content`) holds a `:`: where the
    /// first one is, when every byte of the text was copied as it is (so the output can be cut
    /// back to it).
    fn colon_in_open_key(&self, content: usize, ctx: Ctx) -> Option<usize> {
        let text = self.b.get(content..)?;
        if ctx != Ctx::Key || text.iter().any(|&c| c < 0x20 || c == b'\\' || c == b'"') {
            return None;
        }
        memchr::memchr(b':', text).map(|k| content + k)
    }

    /// The key closing at the quote at `i` ends with `:` and no colon follows the quote: the
    /// colon was the key's end (`{"key:"value"}`).
    fn colon_ends_key(&self, content: usize, i: usize, len: usize) -> bool {
        i > content
            && self.b.get(i - 1) == Some(&b':')
            && self.b.get(skip_ws(self.b, i + len)) != Some(&b':')
    }

    /// A string left open by the end of input, its text from `content` on: the length of a
    /// tail of spaces, closers and backticks that closes what is open (`{"a": ["v]}`,
    /// or `}` and a fence), which then ends the string and closes the containers, as `json_repair`
    /// reads it; 0 when there is none. A string holding a `{` or `[` keeps its tail: there the
    /// closers more likely belong to the text (`"x = {}`). Every byte looked at is the string's.
    /// The tail is looked for in the string's last part, from `part` (the one part whose
    /// output is its input byte for byte), brackets in all of its text from `content`.
    fn closers_after_string(&self, content: usize, part: usize) -> usize {
        let text = self.b.get(part..).unwrap_or_default();
        let mut start = text.len();
        while start > 0 && matches!(text[start - 1], b' ' | b'}' | b']' | b'`') {
            start -= 1;
        }
        let tail = &text[start..];
        let mut open = self.stack.iter().rev();
        for &c in tail.iter().filter(|&&c| c == b'}' || c == b']') {
            let wanted = match open.next() {
                Some(Frame::Object) => b'}',
                Some(Frame::Array) => b']',
                None => return 0,
            };
            if c != wanted {
                return 0;
            }
        }
        let closes = tail.iter().any(|&c| c == b'}' || c == b']');
        let fenced = tail.windows(3).any(|w| w == b"```");
        let before = self.b.get(content..part + start).unwrap_or_default();
        if !(closes || fenced) || before.iter().any(|&c| c == b'{' || c == b'[') {
            return 0;
        }
        tail.len()
    }

    /// `{"a": "b, "c": 1}`: the quote at `i` (not a closing one) opens the next key right
    /// after `, `, so the string lacks its closing quote before that comma. If so, closes the
    /// string there (the comma and spaces were copied verbatim, so they are cut from the
    /// output) and continues from the comma.
    fn ends_before_comma(&mut self, content: usize, i: usize, qlen: usize, q: Quote) -> bool {
        let mut j = i;
        while j > content && self.b.get(j - 1) == Some(&b' ') {
            j -= 1;
        }
        if j <= content || self.b.get(j - 1) != Some(&b',') || !self.string_then_colon(i + qlen, q)
        {
            return false;
        }
        let comma = j - 1;
        self.out.truncate(self.out.len().saturating_sub(i - comma));
        self.out.push('"');
        self.record(RepairKind::UnclosedString, comma);
        self.pos = comma;
        true
    }

    /// Handles the backslash at `i`; returns the offset to continue from.
    fn parse_escape(&mut self, i: usize) -> usize {
        match self.b.get(i + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.copy(i, i + 2);
                i + 2
            }
            Some(b'u') => match hex4(self.b, i + 2) {
                Some(cp) if (0xD800..0xDC00).contains(&cp) => {
                    let low = (self.b.get(i + 6..i + 8) == Some(b"\\u".as_slice()))
                        .then(|| hex4(self.b, i + 8))
                        .flatten();
                    if low.is_some_and(|lo| (0xDC00..0xE000).contains(&lo)) {
                        self.copy(i, i + 12);
                        i + 12
                    } else {
                        self.record(RepairKind::LoneSurrogate, i);
                        self.out.push_str("\\ufffd");
                        i + 6
                    }
                }
                Some(cp) if (0xDC00..0xE000).contains(&cp) => {
                    self.record(RepairKind::LoneSurrogate, i);
                    self.out.push_str("\\ufffd");
                    i + 6
                }
                Some(_) => {
                    self.copy(i, i + 6);
                    i + 6
                }
                // `"caf\u00` cut off by the end of input: the escape was never finished, so
                // no character of it is kept (as a cut-off literal is completed, not quoted).
                // (The string's end then reports `unclosed_string`.)
                None if self.b[i + 2..].iter().all(u8::is_ascii_hexdigit) => self.b.len(),
                None => self.literal_backslash(i),
            },
            Some(b'\'') => {
                self.record(RepairKind::InvalidEscape, i);
                self.out.push('\'');
                i + 2
            }
            _ => self.literal_backslash(i),
        }
    }

    /// An invalid escape keeps its backslash as a character; what follows is read normally.
    fn literal_backslash(&mut self, i: usize) -> usize {
        self.record(RepairKind::InvalidEscape, i);
        self.out.push_str("\\\\");
        i + 1
    }

    /// Decides whether the quote just before `after` ends a string in context `ctx`; `inner`:
    /// the string already holds a quote kept as text.
    fn closes_string(&mut self, after: usize, ctx: Ctx, inner: bool) -> bool {
        // `"5""`: a doubled closing quote before a delimiter (its second half is dropped
        // after the string).
        if let Some(&q) = self.b.get(after - 1).filter(|&&q| q == b'"' || q == b'\'') {
            if self.b.get(after) == Some(&q) {
                let k = skip_ws(self.b, after + 1);
                if matches!(self.b.get(k), None | Some(b',' | b'}' | b']' | b':')) {
                    return true;
                }
            }
        }
        let p = skip_ws(self.b, after);
        let Some(&c) = self.b.get(p) else {
            return true;
        };
        let spaced = p > after;
        if c == b',' && ctx == Ctx::ObjValue && inner {
            // `"lorem "ipsum", sic." }`: the string's quotes are already in doubt, so a quote
            // and a comma end it only where the next member (or the object's end) follows.
            return self.member_after_comma(p + 1);
        }
        if matches!(c, b',' | b'}' | b']')
            || (c == b')' && (self.in_wrapper || !self.parens.is_empty()))
            || is_fence(self.b, p)
            || is_slash_comment(self.b, p)
            || (spaced && c == b'#')
        {
            return true;
        }
        match ctx {
            Ctx::Key => {
                c == b':'
                    || c == b'{'
                    || c == b'['
                    || quote_at(self.b, p).is_some()
                    || !self.quote_then_colon(after)
            }
            Ctx::ObjValue => {
                if let Some((q, len)) = quote_at(self.b, p) {
                    self.string_then_colon(p + len, q)
                } else {
                    spaced
                        && is_ident_byte(c)
                        && (self.ident_then_colon(p)
                            // `"value "tail" more}`: with a quote already kept as text, the
                            // words up to the `}` are the string's too (json_repair's
                            // reading); without one they are stray text (`"x" note}`).
                            || (!inner && self.stray_word_before_closer(p)))
                }
            }
            // At top level a quote ends the string unless a word follows it directly, or
            // follows it after blanks when the text ends with the same quote later: then the
            // string runs to that one (`"The TV has a 24" screen"`, jsonrepair's reading).
            Ctx::Top => {
                let quote = self.b.get(after - 1).copied();
                if spaced && is_ident_byte(c) && matches!(quote, Some(b'"' | b'\'')) {
                    !(self.last_byte > p && self.b.get(self.last_byte).copied() == quote)
                } else {
                    spaced || !is_ident_byte(c)
                }
            }
            Ctx::Array => {
                c == b':'
                    || c == b'{'
                    || c == b'['
                    || (quote_at(self.b, p).is_some()
                        && !(spaced && self.quote_closes_after(after, p)))
                    || self.scalar_then_separator(p)
            }
        }
    }

    /// Array context: the `"` closing a string (just before `after`) was followed by blanks and
    /// the `"` at `p`, which
    /// is followed (after blanks) by `,` or `]`: the first quote was text, and this one ends the
    /// string (`["say "hi" ", "b"]`, `json_repair`'s reading).
    fn quote_closes_after(&mut self, after: usize, p: usize) -> bool {
        if self.b.get(p) != Some(&b'"') || self.b.get(after.wrapping_sub(1)) != Some(&b'"') {
            return false;
        }
        let k = skip_ws(self.b, p + 1);
        self.charge(k - p) && matches!(self.b.get(k), Some(b',' | b']'))
    }

    /// Takes `n` bytes of lookahead from the budget; false when it is spent.
    pub(super) fn charge(&mut self, n: usize) -> bool {
        if n > self.budget {
            self.budget = 0;
            return false;
        }
        self.budget -= n;
        true
    }

    /// Is `:` (after whitespace) at or after `i`? Charges the whitespace skipped.
    fn colon_at(&mut self, i: usize) -> bool {
        let k = skip_ws(self.b, i);
        self.charge(k - i) && self.b.get(k) == Some(&b':')
    }

    /// Key context: does a `"` later on this line end a key (is it followed by `:`)? If so,
    /// the quote before `from` was inside the key.
    fn quote_then_colon(&mut self, from: usize) -> bool {
        // Any later quote on the line may be the key's end (`{"k"e"y": 1}` has two inside).
        let mut from = from;
        loop {
            let rest = ahead(self.b, from, self.budget);
            let Some(k) = memchr::memchr3(b'"', b'\n', b'\'', rest) else {
                self.charge(rest.len());
                return false;
            };
            if !self.charge(k + 1) || rest.get(k) == Some(&b'\n') {
                return false;
            }
            // A doubled closing quote (`""answer"":`) ends the key as one would.
            let at = from + k;
            let after = at + 1 + usize::from(self.b.get(at + 1) == self.b.get(at));
            if self.colon_at(after) {
                return true;
            }
            from = after;
        }
    }

    /// Object-value context: is the string opened just before `from` (by `q`) followed by
    /// `:`? Then it is the next key and a comma is missing.
    pub(super) fn string_then_colon(&mut self, from: usize, q: Quote) -> bool {
        let mut i = from;
        let limit = from.saturating_add(self.budget);
        loop {
            if i >= limit && i < self.b.len() {
                // The budget is spent before the string's end: no key, as when charged.
                self.charge(i - from);
                return false;
            }
            match self.b.get(i) {
                None | Some(b'\n') => {
                    self.charge(i - from);
                    return false;
                }
                Some(b'\\') => i += 2,
                Some(_) => {
                    if let Some(len) = closing_quote_at(self.b, i, q) {
                        return self.charge(i - from) && self.colon_at(i + len);
                    }
                    i += 1;
                }
            }
        }
    }

    /// Object-value context, after the `,` that ends at `from`: does a member (a quoted or
    /// bare key and its `:`), the object's end or the end of input follow? Spent lookahead
    /// budget says yes: the comma ends the string, as it does in a string with no inner quote.
    fn member_after_comma(&mut self, from: usize) -> bool {
        let p = skip_ws(self.b, from);
        if !self.charge(p - from) {
            return true;
        }
        match self.b.get(p) {
            None | Some(b'}' | b']') => true,
            Some(&c) => match quote_at(self.b, p) {
                Some((q, len)) => self.string_then_colon(p + len, q) || self.budget == 0,
                None => is_ident_byte(c) && (self.ident_then_colon(p) || self.budget == 0),
            },
        }
    }

    /// Object-value context: is an unquoted `key:` at `p`?
    pub(super) fn ident_then_colon(&mut self, p: usize) -> bool {
        let mut k = p;
        while matches!(self.b.get(k), Some(&c) if is_ident_byte(c) || c == b'-' || c == b'.') {
            if quote_at(self.b, k).is_some() {
                break;
            }
            k += 1;
        }
        if !self.charge(k - p) {
            return false;
        }
        let mut j = k;
        while matches!(self.b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        self.charge(j - k) && self.b.get(j) == Some(&b':')
    }

    /// Object context: is the word at `p` followed (after blanks) by the object's `}`? Then it
    /// is stray text after a value (`{"a": "x" note}`), dropped by the object's next step.
    pub(super) fn stray_word_before_closer(&mut self, p: usize) -> bool {
        let k = word_end(self.b, p);
        let j = skip_ws(self.b, k);
        self.charge(j - p) && k > p && self.b.get(j) == Some(&b'}')
    }

    /// Array context: after blanks from `after`, is a word, perhaps with a closing quote but no
    /// opening one, followed by `,` or `]` (`["a" b", "c"]`, `["a" b]`)? Then the quote before it closed
    /// its string, and the word is the next item (its comma and opening quote missing).
    fn word_missing_its_opening_quote(&mut self, after: usize) -> bool {
        let p = skip_ws(self.b, after);
        if p == after {
            return false;
        }
        let k = word_end(self.b, p);
        let end = k + usize::from(self.b.get(k) == Some(&b'"'));
        let j = skip_ws(self.b, end);
        self.charge(j - p) && k > p && matches!(self.b.get(j), Some(b',' | b']'))
    }

    /// Array context: is a number or literal at `p`, followed by `,` `]` `}`, the end, or the
    /// start of another value other than a word (`"a" 1 2` lacks commas; `"6 feet"` does not)?
    fn scalar_then_separator(&mut self, p: usize) -> bool {
        let first = self.b.get(p).copied().unwrap_or(0);
        let mut k = p;
        if first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.') {
            while matches!(self.b.get(k), Some(c) if c.is_ascii_digit() || b"+-.eE".contains(c)) {
                k += 1;
            }
        } else if first.is_ascii_alphabetic() {
            while matches!(self.b.get(k), Some(c) if c.is_ascii_alphabetic()) {
                k += 1;
            }
            let word = self.b.get(p..k).unwrap_or_default();
            if !super::values::is_literal_word(word) {
                self.charge(k - p);
                return false;
            }
        } else {
            return false;
        }
        let j = skip_ws(self.b, k);
        self.charge(j - p)
            && k > p
            && match self.b.get(j) {
                None => true,
                Some(&c) => {
                    matches!(c, b',' | b']' | b'}' | b'{' | b'[' | b'-')
                        || c.is_ascii_digit()
                        || quote_at(self.b, j).is_some()
                }
            }
    }
}
