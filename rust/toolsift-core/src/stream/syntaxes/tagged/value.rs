//! Reading one parameter's value: raw text up to the parameter's closing tag, streamed as it
//! arrives (or collected, for a JSON value).
//!
//! A value that may be typed (see `Tagged::typed_values`) is collected while what has come
//! so far could still be the start of a JSON value other than a string (blanks, then a number,
//! a prefix of `true`, `false` or `null`, or anything opening with `{` or `[`), so that the
//! streamed string deltas never have to be taken back; from the first byte that rules that
//! out it streams as a string, the collected text first. At its end, the text that is one
//! strict JSON value (no repair: `{placeholder}` stays text) is that value.

use super::super::super::args_writer::ArgsWriter;
use super::super::super::json_call::strict_or_repaired;
use super::super::super::Sink;
use super::head::{Choice, Pick};
use crate::strict_json::is_strict_json;

/// Where a trimmed value stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Edge {
    /// Nothing seen yet: a leading newline is dropped.
    #[default]
    Start,
    /// In the middle.
    Middle,
    /// A newline is held back until we know whether the closing tag follows it.
    Newline,
}

/// How a value is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Kind {
    /// A string, streamed.
    #[default]
    Text,
    /// A JSON value (`string="false"`), collected in `text`.
    Json,
    /// Collected in `text` while it may be a typed JSON value; the key its string is written
    /// under if it turns out not to be.
    Typed(String),
}

/// Bytes a number or word is collected for at most (and leading blanks before any value).
const TYPED_PREFIX: usize = 64;

/// Whether `text`, the start of a value, may still be a JSON value other than a string. It
/// looks at no more than [`TYPED_PREFIX`] bytes of a number or word (and of leading blanks), so
/// calling it after every piece of a value costs linear time.
fn may_be_typed(text: &str) -> bool {
    let t = text.trim_start_matches([' ', '\t', '\n', '\r']);
    if text.len() - t.len() > TYPED_PREFIX {
        return false;
    }
    let core = t.trim_end_matches([' ', '\t', '\n', '\r']);
    match t.as_bytes().first() {
        None | Some(b'{' | b'[') => true,
        Some(b'-' | b'0'..=b'9') => {
            t.len() <= TYPED_PREFIX
                && core
                    .bytes()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        }
        Some(b't' | b'f' | b'n') => {
            t.len() <= TYPED_PREFIX
                && ["true", "false", "null"]
                    .iter()
                    .any(|w| w.starts_with(core))
        }
        Some(_) => false,
    }
}

/// One value being read; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct ValueReader {
    kind: Kind,
    /// Drop one leading and one trailing newline.
    trim: bool,
    text: String,
    /// Where trimming stands.
    edge: Edge,
    /// How much of an end tag has been seen.
    end: Choice,
    /// Whether a closing tag that drifted ends the value, and whether one is being read.
    drift: Drift,
    /// The drifted closing tag read last, kept in case it turns out to be value text.
    drifted: String,
}

/// What [`ValueReader::feed`] returns as the end it met for a drifted closing tag.
pub const DRIFTED: usize = usize::MAX;

/// Drifted closing tags (`</parameter1>`, `</parameter_x>`, `</parameter` and a line break).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Drift {
    /// They are value text.
    #[default]
    Off,
    /// They end the value.
    On,
    /// Inside one: skipping to its `>` (or the end of its line).
    Inside,
}

impl ValueReader {
    /// A reader for a JSON value or a string, trimming one newline at each end or not, and
    /// taking drifted closing tags as the closing tag or not.
    pub fn new(json: bool, trim: bool, drift: bool) -> Self {
        Self {
            kind: if json { Kind::Json } else { Kind::Text },
            trim,
            drift: if drift { Drift::On } else { Drift::Off },
            ..Self::default()
        }
    }

    /// A reader of `key`'s value that may be typed (see the module docs).
    pub fn typed(key: &str, trim: bool, drift: bool) -> Self {
        Self {
            kind: Kind::Typed(key.to_string()),
            ..Self::new(false, trim, drift)
        }
    }

    /// Whether the value is being collected (so it has not begun as a string).
    pub fn is_collected(&self) -> bool {
        self.kind != Kind::Text
    }

    /// Streams value text up to the first of `ends` (each starts with its only `<`); returns
    /// the index just past it and which one it was, or `None` when `input` ended first.
    pub fn feed(
        &mut self,
        ends: &[&str],
        input: &str,
        mut i: usize,
        args: &mut ArgsWriter,
        sink: &mut Sink,
    ) -> Option<(usize, usize)> {
        let bytes = input.as_bytes();
        loop {
            if self.drift == Drift::Inside {
                let rest = bytes.get(i..)?;
                let Some(k) = memchr::memchr2(b'>', b'\n', rest) else {
                    self.drifted.push_str(input.get(i..).unwrap_or_default());
                    return None;
                };
                let end = i + k + usize::from(rest[k] == b'>');
                self.drifted.push_str(input.get(i..end).unwrap_or_default());
                self.drift = Drift::On;
                return Some((end, DRIFTED));
            }
            if self.end.n == 0 {
                let Some(k) = memchr::memchr(b'<', bytes.get(i..)?) else {
                    self.text(input.get(i..).unwrap_or_default(), args, sink);
                    return None;
                };
                self.text(input.get(i..i + k).unwrap_or_default(), args, sink);
                i += k;
            }
            let (j, pick) = self.end.feed(ends, bytes, i);
            match pick {
                Pick::Going => return None,
                Pick::Matched(k) => {
                    self.end = Choice::default();
                    return Some((j, k));
                }
                Pick::Fail => {}
            }
            let hard = ends.first().copied().unwrap_or_default();
            if self.drift == Drift::On && self.end.alive(0) && self.end.n + 1 == hard.len() {
                // `</parameter` and not its `>`: a drifted closing tag, which ends the value.
                self.end = Choice::default();
                self.drift = Drift::Inside;
                self.drifted.clear();
                self.drifted
                    .push_str(hard.get(..hard.len() - 1).unwrap_or_default());
                i = j;
                continue;
            }
            // Not an end: what matched is value text (every end still alive shares it). A
            // partial character of it is read again from the input (a character never spans
            // two chunks); the byte that failed is read again too, as it may start an end.
            let held = ends
                .iter()
                .enumerate()
                .find(|(k, _)| self.end.alive(*k))
                .map_or("", |(_, e)| *e);
            let mut k = self.end.n.min(held.len());
            while !held.is_char_boundary(k) {
                k -= 1;
            }
            let back = self.end.n - k;
            i = j;
            if back <= i && input.is_char_boundary(i - back) {
                i -= back;
            }
            self.end = Choice::default();
            self.text(held.get(..k).unwrap_or_default(), args, sink);
        }
    }

    /// The drifted closing tag just read (see [`DRIFTED`]), as written.
    pub fn take_drifted(&mut self) -> String {
        std::mem::take(&mut self.drifted)
    }

    /// Text that looked like an end but belongs to the value after all.
    pub fn push_text(&mut self, t: &str, args: &mut ArgsWriter, sink: &mut Sink) {
        self.text(t, args, sink);
    }

    /// Value text, trimmed at the ends if asked.
    fn text(&mut self, mut t: &str, args: &mut ArgsWriter, sink: &mut Sink) {
        if t.is_empty() {
            return;
        }
        if self.trim {
            match self.edge {
                Edge::Start => {
                    t = t.strip_prefix('\n').unwrap_or(t);
                    if t.is_empty() {
                        self.edge = Edge::Middle;
                        return;
                    }
                }
                Edge::Newline => self.write("\n", args, sink),
                Edge::Middle => {}
            }
            self.edge = Edge::Middle;
            if let Some(s) = t.strip_suffix('\n') {
                self.edge = Edge::Newline;
                t = s;
            }
        }
        self.write(t, args, sink);
    }

    fn write(&mut self, t: &str, args: &mut ArgsWriter, sink: &mut Sink) {
        match &self.kind {
            Kind::Text => args.string_text(t, sink),
            Kind::Json => self.text.push_str(t),
            Kind::Typed(key) => {
                self.text.push_str(t);
                if !may_be_typed(&self.text) {
                    args.begin_string(key, sink);
                    args.string_text(&self.text, sink);
                    self.text = String::new();
                    self.kind = Kind::Text;
                }
            }
        }
    }

    /// The closing tag was read: writes the value of `key` (a held-back newline is dropped).
    pub fn finish(
        self,
        key: &str,
        args: &mut ArgsWriter,
        repairs: &mut Vec<&'static str>,
        sink: &mut Sink,
    ) {
        match self.kind {
            Kind::Text => {
                args.end_string(sink);
                return;
            }
            Kind::Typed(_) => {
                let text = self.text.trim();
                // A JSON string stays the text as written, quotes included.
                if !text.is_empty() && !text.starts_with('"') && is_strict_json(text) {
                    args.json_value(key, text, sink);
                    return;
                }
                args.string_value(key, &self.text, sink);
                return;
            }
            Kind::Json => {}
        }
        let text = self.text.trim();
        match strict_or_repaired(text) {
            Ok((json, kinds)) if !text.is_empty() => {
                args.json_value(key, &json, sink);
                for k in kinds {
                    if !repairs.contains(&k) {
                        repairs.push(k);
                    }
                }
            }
            // Not JSON after all: keep the text as a string.
            _ => args.string_value(key, &self.text, sink),
        }
    }
}
