//! The runs of bytes the `xml_tool` byte loop takes at once instead of one by one: plain
//! value text, tags and the blanks between them, and a value's close tag.

use super::{Kind, Parser, Raw, State, CLOSE, MAX_TAG};
use crate::stream::syntaxes::xml_bits::{is_blank, Pattern, Piece};

impl Parser {
    /// How many bytes at the start of `bytes` [`Parser::value_byte`] would take one by one as
    /// plain value text (no pattern or entity can start there): they are taken at once, so a
    /// long value costs a `memchr` pass, not a dispatch per byte.
    pub(super) fn plain_run(&self, bytes: &[u8]) -> usize {
        if self.state != State::Value || !self.matcher.idle() || !self.replay.is_empty() {
            return 0;
        }
        if let Some(Kind::Raw(Raw::Seek { .. } | Raw::Marked { fresh: true, .. })) =
            self.frames.last().map(|f| &f.kind)
        {
            return 0;
        }
        match self.stops {
            Some([a, b, c]) => memchr::memchr3(a, b, c, bytes).unwrap_or(bytes.len()),
            None => 0,
        }
    }

    /// The bytes that may begin an entity or one of `patterns` (each pattern's first byte, in
    /// either case), for [`Parser::plain_run`]; `None` when too many to search at once (then
    /// values go byte by byte).
    // A `const fn` so each fixed set's stops are found once, by the compiler: `set_patterns`
    // runs at every tag, and values and undecided values alternate (the `xml_tool` replies:
    // ~2,000 instructions a reply finding them again).
    pub(super) const fn stops_of(patterns: &[Pattern]) -> Option<[u8; 3]> {
        let mut stops = [b'&'; 3];
        let mut n = 1;
        let mut p = 0;
        while p < patterns.len() {
            let first = match patterns[p].first() {
                Some(Piece::Lit(lit)) => lit.as_bytes().first().copied(),
                Some(Piece::Close) => Some(b'<'),
                _ => None,
            };
            p += 1;
            let Some(first) = first else {
                continue;
            };
            let cases = [first.to_ascii_lowercase(), first.to_ascii_uppercase()];
            let mut c = 0;
            while c < cases.len() {
                let mut seen = false;
                let mut k = 0;
                while k < n {
                    seen |= stops[k] == cases[c];
                    k += 1;
                }
                if !seen {
                    if n == stops.len() {
                        return None;
                    }
                    stops[n] = cases[c];
                    n += 1;
                }
                c += 1;
            }
        }
        Some(stops)
    }

    /// How many bytes at the start of `bytes` [`Parser::byte`] would only add to the tag being
    /// read (quotes included), or skip between children, and the quote open after them: they
    /// are taken at once, as [`Parser::plain_run`] takes value text, since tags and the blanks
    /// between them are most of a call's bytes.
    pub(super) fn tag_run(&self, bytes: &[u8]) -> (usize, Option<u8>) {
        if !self.replay.is_empty() {
            return (0, self.quote);
        }
        match self.state {
            State::Between => (
                memchr::memchr(b'<', bytes).unwrap_or(bytes.len()),
                self.quote,
            ),
            State::OpenTag | State::Tag => {
                // The byte that takes the tag past `MAX_TAG` goes through `byte`.
                let room = MAX_TAG.saturating_sub(self.buf.len());
                let bytes = &bytes[..bytes.len().min(room)];
                let mut quote = self.quote;
                let open_tag = self.state == State::OpenTag;
                for (k, &b) in bytes.iter().enumerate() {
                    match quote {
                        Some(q) if b == q => quote = None,
                        // A `<` in a quoted value of the call's own tag ends it (see `byte`).
                        Some(_) if b == b'<' && open_tag => return (k, quote),
                        None if b == b'>' || b == b'<' => return (k, quote),
                        None if b == b'"' || b == b'\'' => quote = Some(b),
                        _ => {}
                    }
                }
                (bytes.len(), quote)
            }
            State::Value | State::Entity => (0, self.quote),
        }
    }

    /// The length of the innermost value's close tag (`</name`, blanks, `>`) when `bytes`
    /// start with all of it, the matcher idle: the matcher, fed those bytes one by one, would
    /// end with its pattern 0 (`CLOSE`), as no other pattern of a set that starts with it can
    /// match a text that starts with `</` first. Every value ends so, and stepping all the
    /// patterns byte by byte cost more than the rest of the value.
    pub(super) fn close_ahead(&self, bytes: &[u8]) -> Option<usize> {
        if self.state != State::Value
            || self.in_cdata
            || !self.matcher.idle()
            || !self.replay.is_empty()
            || self.patterns.first() != Some(&CLOSE)
            || bytes.first() != Some(&b'<')
        {
            return None;
        }
        if let Some(Kind::Raw(Raw::Seek { .. } | Raw::Marked { .. })) =
            self.frames.last().map(|f| &f.kind)
        {
            return None;
        }
        let close = self.close.as_bytes();
        let tag = bytes.get(..close.len())?;
        if !tag.eq_ignore_ascii_case(close) {
            return None;
        }
        let blanks = bytes[close.len()..]
            .iter()
            .take_while(|&&b| is_blank(b))
            .count();
        let end = close.len() + blanks;
        (bytes.get(end) == Some(&b'>')).then_some(end + 1)
    }
}
