//! Reading one parameter's value: raw text up to the parameter's closing tag, streamed as it
//! arrives (or collected, for a JSON value).

use super::super::super::args_writer::ArgsWriter;
use super::super::super::json_call::strict_or_repaired;
use super::super::super::Sink;

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

/// One value being read; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct ValueReader {
    /// A JSON value (`string="false"`), collected in `text`; otherwise a streamed string.
    json: bool,
    /// Drop one leading and one trailing newline.
    trim: bool,
    text: String,
    /// Where trimming stands.
    edge: Edge,
    /// Bytes of the closing tag seen so far.
    matched: usize,
}

impl ValueReader {
    /// A reader for a JSON value or a string, trimming one newline at each end or not.
    pub fn new(json: bool, trim: bool) -> Self {
        Self {
            json,
            trim,
            ..Self::default()
        }
    }

    /// Whether the value is JSON (so it has not begun as a string).
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Streams value text up to `close` (which starts with its only `<`); returns the index
    /// just past it, or `None` when `input` ended first.
    pub fn feed(
        &mut self,
        close: &str,
        input: &str,
        mut i: usize,
        args: &mut ArgsWriter,
        sink: &mut Sink,
    ) -> Option<usize> {
        let bytes = input.as_bytes();
        loop {
            if self.matched > 0 {
                let b = *bytes.get(i)?;
                if close.as_bytes().get(self.matched) == Some(&b) {
                    self.matched += 1;
                    i += 1;
                    if self.matched == close.len() {
                        self.matched = 0;
                        return Some(i);
                    }
                    continue;
                }
                // Not the closing tag: what matched is value text. A partial character of the
                // tag is read again from the input (a character never spans two chunks).
                let mut k = self.matched;
                while !close.is_char_boundary(k) {
                    k -= 1;
                }
                let back = self.matched - k;
                if back <= i && input.is_char_boundary(i - back) {
                    i -= back;
                }
                self.matched = 0;
                self.text(close.get(..k).unwrap_or_default(), args, sink);
                continue;
            }
            match memchr::memchr(b'<', bytes.get(i..)?) {
                None => {
                    self.text(input.get(i..).unwrap_or_default(), args, sink);
                    return None;
                }
                Some(k) => {
                    self.text(input.get(i..i + k).unwrap_or_default(), args, sink);
                    i += k + 1;
                    self.matched = 1;
                }
            }
        }
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
        if self.json {
            self.text.push_str(t);
        } else {
            args.string_text(t, sink);
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
        if !self.json {
            args.end_string(sink);
            return;
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
