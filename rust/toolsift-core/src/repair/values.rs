//! Scalars other than quoted strings: numbers, literals, unquoted words, and `...`.

use super::chars::{
    eq_word, is_fence, is_slash_comment, is_ws, push_escaped, quote_at, skip_ws, utf8_len, Quote,
};
use super::parser::{Ctx, Frame, Parser};
use super::strings::ahead;
use super::RepairKind;

/// Words that stand for a JSON literal, lowercase, with what they become.
const WORDS: [(&[u8], &str, Option<RepairKind>); 8] = [
    (b"true", "true", None),
    (b"false", "false", None),
    (b"null", "null", None),
    (b"none", "null", Some(RepairKind::NonStandardLiteral)),
    (b"undefined", "null", Some(RepairKind::NonStandardLiteral)),
    (b"nan", "null", Some(RepairKind::NonFiniteNumber)),
    (b"infinity", "null", Some(RepairKind::NonFiniteNumber)),
    (b"inf", "null", Some(RepairKind::NonFiniteNumber)),
];

/// `word` (ASCII letters) is one of the literal words, in any case.
pub(super) fn is_literal_word(word: &[u8]) -> bool {
    WORDS.iter().any(|(w, _, _)| eq_word(word, w))
}

/// A tuple of JSON-like values opens at `i`: a `(` whose first value (after blanks) starts
/// with a quote, a digit, a sign, a bracket or a literal word, or that is `()`. At the top
/// level this tells a tuple from prose in parentheses (`(see below) {…}`).
pub(super) fn tuple_at(b: &[u8], i: usize) -> bool {
    if b.get(i) != Some(&b'(') {
        return false;
    }
    let k = skip_ws(b, i + 1);
    match b.get(k) {
        Some(b'"' | b'\'' | b'0'..=b'9' | b'-' | b'+' | b'.' | b'(' | b'[' | b'{' | b')') => true,
        Some(c) if c.is_ascii_alphabetic() => is_literal_word(&b[k..letters_end(b, k)]),
        _ => false,
    }
}

/// A call wrapping one scalar at `i` (`Name(` then a quote, a digit or a sign): where the
/// scalar starts.
pub(super) fn wrapped_scalar(b: &[u8], i: usize) -> Option<usize> {
    let name_end = i + b
        .get(i..)?
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
        .count();
    if name_end == i || b.get(name_end) != Some(&b'(') {
        return None;
    }
    let k = skip_ws(b, name_end + 1);
    matches!(b.get(k), Some(b'"' | b'\'' | b'0'..=b'9' | b'-')).then_some(k)
}

/// What the literal word `word` (ASCII letters) becomes: its text, and the repair to report
/// unless that text is the word itself. `None` when it is no literal word.
pub(super) fn literal(word: &[u8]) -> Option<(&'static str, Option<RepairKind>)> {
    let (w, text, kind) = WORDS.iter().find(|(w, _, _)| eq_word(word, w))?;
    Some(match kind {
        Some(kind) => (*text, Some(*kind)),
        None if word == *w => (*text, None),
        None => (*text, Some(RepairKind::NonStandardLiteral)),
    })
}

/// First offset at or after `i` that is not an ASCII digit.
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// First offset at or after `i` that is not an ASCII letter.
pub(super) fn letters_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    i
}

impl Parser<'_> {
    /// Parses a number at `pos` (which holds a digit, `-`, `+` or `.`). Leniencies: a leading
    /// `+` is dropped, `.5` becomes `0.5`, a trailing `.` is completed (`1.` → `1.0`), an
    /// exponent without digits is dropped, a lone sign becomes `null` (not at top level), `-Infinity`/`NaN` become `null`,
    /// and leading zeros make the token a string. Returns false, writing nothing, when the
    /// token does not end where a number could (`1/3`, a date, a UUID): the caller then
    /// treats it as an unquoted string.
    pub(super) fn parse_number(&mut self, ctx: Ctx) -> bool {
        if self.underscored_number() {
            return true;
        }
        let b = self.b;
        let start = self.pos;
        let sign = b.get(start).copied().filter(|c| matches!(c, b'-' | b'+'));
        let int_start = start + usize::from(sign.is_some());
        let int_end = digits_end(b, int_start);
        let mut i = int_end;
        let leading_dot = int_end == int_start;
        if leading_dot && !(b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            return sign.is_some() && self.sign_without_digits(int_start, ctx);
        }
        let (mut frac, mut dot_dropped) = (None, false);
        if b.get(i) == Some(&b'.') {
            let frac_end = digits_end(b, i + 1);
            if frac_end > i + 1 {
                frac = Some((i, frac_end));
                i = frac_end;
            } else {
                dot_dropped = true;
                i += 1;
            }
        }
        let (mut exp, mut exp_dropped) = (None, false);
        if matches!(b.get(i), Some(b'e' | b'E')) {
            let mut k = i + 1;
            if matches!(b.get(k), Some(b'+' | b'-')) {
                k += 1;
            }
            let exp_end = digits_end(b, k);
            if exp_end > k {
                exp = Some((i, exp_end));
                i = exp_end;
            } else {
                exp_dropped = true;
                i = k;
            }
        }
        if ctx == Ctx::ObjValue {
            if let Some(end) = self.comma_grouped(i) {
                // `{"a": 1,234,567}`: digits grouped by commas with no key after them, one
                // value written with separators, kept as its text (json_repair's reading).
                self.emit_unquoted(end, RepairKind::UnquotedString);
                return true;
            }
        }
        if !self.ends_value(i) {
            return false;
        }
        if int_end - int_start > 1 && b.get(int_start) == Some(&b'0') {
            self.record(RepairKind::LeadingZeros, start);
            self.out.push('"');
            self.copy(start, i);
            self.out.push('"');
        } else if sign != Some(b'+') && !leading_dot && !dot_dropped && !exp_dropped {
            self.copy(start, i);
        } else {
            self.record(RepairKind::NumberFormat, start);
            if sign == Some(b'-') {
                self.out.push('-');
            }
            if leading_dot {
                self.out.push('0');
            } else {
                self.copy(int_start, int_end);
            }
            if let Some((from, to)) = frac {
                self.copy(from, to);
            }
            // `1.` was cut off after a float's integer part: still a float (`1.0`), as both
            // reference suites read it. An exponent without digits is dropped (`1e` → `1`,
            // json_repair's reading; jsonrepair writes `1e0`).
            if dot_dropped {
                self.out.push_str(".0");
            }
            if let Some((from, to)) = exp {
                self.copy(from, to);
            }
        }
        self.pos = i;
        true
    }

    /// The number ending at `i` goes on in groups of a comma and digits (no blank after the
    /// comma) up to `,` `}` or the end: where the last group ends. `None` otherwise: a comma
    /// then a blank or a key is a member's end, and `1,2: 3` is read as before. The look is
    /// charged to the budget: a run that is refused is looked at again from each of its
    /// values (`{"a": 1,2,3,…,9 x`, where `,2` is a key and `,3` its value).
    fn comma_grouped(&mut self, i: usize) -> Option<usize> {
        // Read no further than the budget allows, so a refused run costs what it charges.
        let window = i + ahead(self.b, i, self.budget).len();
        let b = self.b.get(..window).unwrap_or_default();
        let mut end = i;
        while b.get(end) == Some(&b',') && b.get(end + 1).is_some_and(u8::is_ascii_digit) {
            end = digits_end(b, end + 1);
            if b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit) {
                end = digits_end(b, end + 1);
            }
        }
        let next = skip_ws(b, end);
        let fits = next < window || window == self.b.len();
        (end > i
            && self.charge(next - i)
            && fits
            && matches!(self.b.get(next), None | Some(b',' | b'}')))
        .then_some(end)
    }

    /// A number written with Python's digit separators (`82_461_110`, `1_234.5_6`): each `_`
    /// stands between two digits. It is written without them; false (nothing written) for any
    /// other token.
    fn underscored_number(&mut self) -> bool {
        let b = self.b;
        let start = self.pos;
        let mut i = start + usize::from(b.get(start) == Some(&b'-'));
        let mut underscores = false;
        let mut dot = false;
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => {}
                b'_' if i > start
                    && b[i - 1].is_ascii_digit()
                    && b.get(i + 1).is_some_and(u8::is_ascii_digit) =>
                {
                    underscores = true;
                }
                b'.' if !dot && i > start && b[i - 1].is_ascii_digit() => dot = true,
                _ => break,
            }
            i += 1;
        }
        let digits = b.get(start..i).unwrap_or_default();
        if !underscores || !self.ends_value(i) || digits.last() == Some(&b'.') {
            return false;
        }
        self.record(RepairKind::NumberFormat, start);
        let text: String = digits
            .iter()
            .filter(|&&c| c != b'_')
            .map(|&c| char::from(c))
            .collect();
        if text.trim_start_matches('-').starts_with('0')
            && text.trim_start_matches('-').len() > 1
            && !text.trim_start_matches('-').starts_with("0.")
        {
            // Leading zeros: an identifier, kept as written (see `LeadingZeros`).
            self.out.push('"');
            self.copy(start, i);
            self.out.push('"');
        } else {
            self.out.push_str(&text);
        }
        self.pos = i;
        true
    }

    /// A sign at `pos` with no digits after it; `i` is just past the sign.
    fn sign_without_digits(&mut self, i: usize, ctx: Ctx) -> bool {
        let word_end = letters_end(self.b, i);
        if word_end > i {
            let word = self.b.get(i..word_end).unwrap_or_default();
            let non_finite = [b"infinity".as_slice(), b"inf", b"nan"];
            if !self.ends_value(word_end) || !non_finite.iter().any(|w| eq_word(word, w)) {
                return false;
            }
            self.record(RepairKind::NonFiniteNumber, self.pos);
            self.out.push_str("null");
            self.pos = word_end;
            return true;
        }
        if ctx == Ctx::Top || !self.ends_value(i) {
            return false;
        }
        if ctx == Ctx::ObjValue {
            // No number after all: a missing value, as json_repair reads it.
            self.record(RepairKind::MissingValue, self.pos);
            self.out.push_str("\"\"");
        } else {
            self.record(RepairKind::NumberFormat, self.pos);
            self.out.push_str("null");
        }
        self.pos = i;
        true
    }

    /// At `pos` in a list: an item the end of input cut off before it held anything (a lone
    /// opening quote, sign or `{`; a lone `[` stays a list, as deep nesting reads), which is
    /// dropped, as `json_repair` drops it: `[1, "` is
    /// `[1]`, not `[1, ""]`. Returns whether one was dropped.
    pub(super) fn drop_empty_last_item(&mut self) -> bool {
        let lone = matches!(
            self.b.get(self.pos),
            Some(b'"' | b'\'' | b'-' | b'+' | b'{')
        );
        if !lone || skip_ws(self.b, self.pos + 1) < self.b.len() {
            return false;
        }
        self.record(RepairKind::UnclosedContainer, self.pos);
        self.pos = self.b.len();
        true
    }

    /// Parses a literal word at `pos` (an ASCII letter): `true`, `false`, `null` in any case,
    /// `None`, `undefined`, `NaN`, `Infinity`, or a prefix of `true`/`false`/`null` cut off by
    /// the end of input. Returns false, writing nothing, for any other word.
    pub(super) fn parse_word(&mut self) -> bool {
        let start = self.pos;
        let end = letters_end(self.b, start);
        let word = self.b.get(start..end).unwrap_or_default();
        if !self.ends_value(end) {
            return false;
        }
        if let Some((text, kind)) = literal(word) {
            if let Some(kind) = kind {
                self.record(kind, start);
                self.out.push_str(text);
            } else {
                self.copy(start, end);
            }
        } else if end == self.b.len() && !word.is_empty() {
            let Some((_, text, _)) = WORDS.iter().take(3).find(|(w, _, _)| {
                word.len() < w.len() && w.get(..word.len()).is_some_and(|p| eq_word(word, p))
            }) else {
                return false;
            };
            self.record(RepairKind::TruncatedLiteral, start);
            self.out.push_str(text);
        } else {
            return false;
        }
        self.pos = end;
        true
    }

    /// `ObjectId("5f1")`, `NumberLong(2)`, `ISODate("…")`: a call wrapping one string or
    /// number (`MongoDB` shell and JSONP style) is that value. False (nothing written) when no
    /// such call is at `pos`.
    pub(super) fn parse_wrapped(&mut self, ctx: Ctx) -> bool {
        let Some(inner) = wrapped_scalar(self.b, self.pos) else {
            return false;
        };
        self.record(RepairKind::Wrapper, self.pos);
        self.pos = inner;
        self.in_wrapper = true;
        if let Some((q, len)) = quote_at(self.b, self.pos) {
            self.parse_string(q, len, ctx);
        } else if !self.parse_number(ctx) {
            self.parse_unquoted_value();
        }
        self.in_wrapper = false;
        let close = skip_ws(self.b, self.pos);
        if self.b.get(close) == Some(&b')') {
            self.pos = close + 1;
        }
        true
    }

    /// An unquoted value at `pos` becomes a string. It runs to the next `,` `}` `]` `"`, line
    /// break, code fence, or comment after whitespace; trailing whitespace is left out.
    pub(super) fn parse_unquoted_value(&mut self) {
        let stops: &[u8] = if self.parens.is_empty() && !self.in_wrapper {
            b",}]\"\n\r"
        } else {
            b",}])\"\n\r"
        };
        let mut end = self.unquoted_end(stops);
        if self.stack.last() == Some(&Frame::Object) && self.b.get(end) == Some(&b',') {
            end = self.closing_quote_later(end);
        }
        self.emit_unquoted(end, RepairKind::UnquotedString);
    }

    /// `{"a": x, y, z.", "b": 1}`: an object's unquoted value that stops at the comma at `at`,
    /// but whose closing quote comes later on the line (a `"` before `,` or `}`, with no `:`,
    /// quote or bracket before it), runs to that quote, which the next step drops as the
    /// closing quote of a word that lacked its opening one. Otherwise `at`. The look is
    /// charged to the budget.
    fn closing_quote_later(&mut self, at: usize) -> usize {
        // Read no further than the budget allows, and charge what was read even when no stop
        // came: uncharged, a rest with no stop was read again from each value before it, and
        // a comma before a number taken for a colon makes every other word a value
        // (`{"a": _.1,2_.1,2_.1,…` was quadratic, found by a search for such inputs).
        let rest = ahead(self.b, at, self.budget);
        let stop = rest
            .iter()
            .position(|c| matches!(c, b'"' | b':' | b'\n' | b'{' | b'[' | b'}' | b']' | b'\''));
        let Some(k) = stop else {
            self.budget -= rest.len();
            return at;
        };
        self.budget -= k;
        let after = skip_ws(self.b, at + k + 1);
        if rest[k] == b'"' && matches!(self.b.get(after), Some(b',' | b'}')) {
            let mut end = at + k;
            while end > at && is_ws(self.b[end - 1]) {
                end -= 1;
            }
            return end;
        }
        at
    }

    /// An unquoted key at `pos` becomes a string. It runs to the next `:` `,` a bracket, `"`,
    /// line break, code fence, or comment after whitespace; trailing whitespace is left out.
    ///
    /// Words followed by a quoted key and its colon (`{"a": 1, NOTE "b": 2}`) are stray text
    /// before that key, not a key: they are dropped and the quoted key is read (`json_repair`'s
    /// reading).
    pub(super) fn parse_unquoted_key(&mut self) {
        let mut end = self.unquoted_end(b":,{}[]\"\n\r");
        // `{a 'b'}`: a blank and an opening quote of any kind end the key (its colon is
        // missing), as `"` already does.
        // Each blank run is skipped once, so the look costs the key's length.
        let mut k = self.pos;
        while k < end {
            if !self.b.get(k).is_some_and(|&c| is_ws(c)) {
                k += 1;
                continue;
            }
            let after = skip_ws(self.b, k);
            if quote_at(self.b, after).is_some() {
                end = k;
                break;
            }
            k = after;
        }
        let next = skip_ws(self.b, end);
        if let Some((q, len)) = quote_at(self.b, next) {
            if q == Quote::Double && self.string_then_colon(next + len, q) {
                self.record(RepairKind::UnexpectedCharacter, self.pos);
                self.pos = next;
                self.parse_string(q, len, Ctx::Key);
                return;
            }
        }
        self.emit_unquoted(end, RepairKind::UnquotedKey);
    }

    /// `{"a": abc", "b": 1}`, `[a", "b"]`, `{a": 1}`, `[12", 3]`: the `"` at `pos` comes
    /// right after an unquoted token or a number and is followed by one of `delims` (or the
    /// end), so it closes a string that lacked its opening quote, and is dropped; read as the
    /// start of a string it would swallow the structure after it.
    ///
    /// A quote right after the same quote that closed a string (`"5""`, `''x''`) is the
    /// second half of a doubled closing quote, and is dropped the same way.
    pub(super) fn stray_closing_quote(&self, delims: &[u8]) -> bool {
        let quote = self.b.get(self.pos).copied();
        let after_token = self.pos > 0
            && self.b.get(self.pos - 1).is_some_and(|&c| {
                c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-') || Some(c) == quote
            });
        let next = skip_ws(self.b, self.pos + 1);
        after_token && self.b.get(next).is_none_or(|c| delims.contains(c))
    }

    /// Where an unquoted token starting at `pos` ends (trailing whitespace trimmed). Always
    /// past `pos` when `pos` is not at the end, so the caller makes progress.
    fn unquoted_end(&self, stops: &[u8]) -> usize {
        let b = self.b;
        let start = self.pos;
        let mut i = start;
        // Brackets opened inside the token (`words{in braces}m`) close inside it too: a closer
        // ends the token only when none of them is open (the token is not JSON, so this
        // counts, and does not check kinds).
        let mut inner = 0usize;
        while let Some(&c) = b.get(i) {
            if matches!(c, b'}' | b']') && inner > 0 {
                inner -= 1;
            } else if stops.contains(&c)
                || is_fence(b, i)
                || (i > start && is_slash_comment(b, i) && b.get(i - 1).is_some_and(|&p| is_ws(p)))
            {
                break;
            } else if matches!(c, b'{' | b'[') {
                inner += 1;
            }
            i += 1;
        }
        while i > start
            && b.get(i - 1)
                .is_some_and(|&c| is_ws(c) || c == 0x0B || c == 0x0C)
        {
            i -= 1;
        }
        if i == start {
            i = (start + b.get(start).map_or(1, |&c| utf8_len(c))).min(b.len());
        }
        i
    }

    fn emit_unquoted(&mut self, end: usize, kind: RepairKind) {
        let start = self.pos;
        self.record(kind, start);
        self.out.push('"');
        let text = self.src.get(start..end).unwrap_or("");
        if push_escaped(self.out.string_mut(), text) {
            self.record(RepairKind::ControlCharacter, start);
        }
        self.out.push('"');
        self.pos = end;
    }

    /// Skips a `...` (or `…`) placeholder at `pos`; false when there is none.
    #[inline]
    pub(super) fn skip_ellipsis(&mut self) -> bool {
        matches!(self.b.get(self.pos), Some(b'.' | 0xE2)) && self.skip_ellipsis_slow()
    }

    fn skip_ellipsis_slow(&mut self) -> bool {
        let rest = self.b.get(self.pos..).unwrap_or_default();
        let len = if rest.starts_with(b"...") {
            rest.iter().take_while(|&&c| c == b'.').count()
        } else if rest.starts_with("\u{2026}".as_bytes()) {
            3
        } else {
            return false;
        };
        if !self.ends_value(self.pos + len) {
            return false;
        }
        self.record(RepairKind::Ellipsis, self.pos);
        self.pos += len;
        true
    }
}
