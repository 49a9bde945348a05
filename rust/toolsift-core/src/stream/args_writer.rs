//! Builds a call's arguments as JSON text while values stream, emitting the deltas.
//!
//! Syntaxes whose arguments are tags or lines (not JSON) write each value through an
//! [`ArgsWriter`]: the `ArgumentsJsonDelta` fragments it emits concatenate to exactly the JSON
//! that [`ArgsWriter::finish`] returns, and string values also stream as decoded
//! `ArgumentDelta` text. A key written twice becomes a list in the final JSON (as
//! `code_assistant_xml` repeats a param); only then does the final text differ from the
//! concatenated fragments, which is why `finish` returns the text to use.
//!
//! Without previews (a one-shot parse, where nobody sees the deltas) no JSON is written as
//! values come: [`ArgsWriter::finish`] writes it from the members, and
//! [`ArgsWriter::finish_strings`] hands string members over as pairs without writing it at all
//! (the host writes [`strings_json`] only if someone asks for the text).
//!
//! The JSON text of a string value is sent when the value closes (or the next member or the
//! end is written), not piece by piece: `ArgumentDelta` streams the value as it arrives, and
//! if both kinds streamed per chunk they would interleave differently for every chunking, so
//! the merged events of two chunkings of one text could not be equal.

use super::Sink;

/// See the module docs.
#[derive(Debug, Default, Clone)]
pub struct ArgsWriter {
    json: String,
    /// The members in order; the last one is still being written when `open`.
    members: Vec<Member>,
    /// The last member is a string value still open.
    open: bool,
    /// Bytes of `json` already sent as `ArgumentsJsonDelta`.
    sent: usize,
    /// A member that is not a string was written.
    typed: bool,
    /// No previews: `json` is not written as values come (see the module docs).
    lean: bool,
}

/// One member: its key, where its value's JSON text is in [`ArgsWriter::json`], and for a
/// string its decoded text (for [`ArgsWriter::finish_strings`]). Ranges, not copies: a value
/// is written once, where copies of its key and JSON text cost allocations per member.
#[derive(Debug, Default, Clone)]
struct Member {
    key: String,
    start: usize,
    end: usize,
    text: String,
    /// `text` is the value's JSON (a typed value of a lean writer), not a string's text.
    json: bool,
}

/// Appends `text` to `out` as the inside of a JSON string (quotes not included). Runs of
/// bytes that need no escape are found eight at a time (the strict reader's scan for the same
/// bytes) and copied whole: tagged syntaxes stream whole files through here, and pushing them
/// one character at a time cost more than the rest of the parse.
pub fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    // Room for the text and a few escapes, so the copies below rarely grow the string.
    out.reserve(text.len() + 16);
    let mut from = 0;
    loop {
        let at = crate::strict_json::next_special(bytes, from);
        // Every byte that needs an escape is ASCII, so `at` is a character boundary. Escapes
        // often come in pairs (a blank line, `\"` and a newline): no copy call for nothing.
        if at > from {
            out.push_str(&text[from..at]);
        }
        let Some(&b) = bytes.get(at) else {
            return;
        };
        // Two `push`es, not a `push_str` of the escape: each `push_str` here was a call to
        // `memcpy` for two bytes, and source code has an escape every few words.
        let letter = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'\n' => 'n',
            b'\r' => 'r',
            b'\t' => 't',
            _ => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{b:04x}");
                from = at + 1;
                continue;
            }
        };
        out.push('\\');
        out.push(letter);
        from = at + 1;
    }
}

impl ArgsWriter {
    /// An empty argument object.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends everything of `json` not sent yet.
    fn send(&mut self, sink: &mut Sink) {
        sink.arguments_json_delta(self.json.get(self.sent..).unwrap_or_default());
        self.sent = self.json.len();
    }

    /// Appends `text` and sends everything not sent yet.
    fn push(&mut self, text: &str, sink: &mut Sink) {
        self.json.push_str(text);
        self.send(sink);
    }

    /// Writes and sends `key`'s head; its value starts after it.
    fn key(&mut self, key: &str, sink: &mut Sink) {
        if self.members.is_empty() {
            self.lean = !sink.previews();
            // Most calls have a few members: growing from empty takes the slow path.
            self.members.reserve(4);
        }
        if self.lean {
            self.members.push(Member {
                key: key.to_string(),
                ..Member::default()
            });
            return;
        }
        if self.json.is_empty() {
            // Room for a few short members: growing from nothing took several reallocations.
            self.json.reserve(128);
        }
        self.json
            .push_str(if self.json.is_empty() { "{\"" } else { ", \"" });
        escape_into(&mut self.json, key);
        self.json.push_str("\": ");
        self.send(sink);
        let start = self.json.len();
        self.members.push(Member {
            key: key.to_string(),
            start,
            end: start,
            text: String::new(),
            json: false,
        });
    }

    /// Starts the string value of `key`.
    pub fn begin_string(&mut self, key: &str, sink: &mut Sink) {
        self.end_string(sink);
        self.key(key, sink);
        if !self.lean {
            self.push("\"", sink);
        }
        self.open = true;
    }

    /// More text of the open string value (decoded text; it is escaped here).
    pub fn string_text(&mut self, text: &str, sink: &mut Sink) {
        let (true, Some(member)) = (self.open, self.members.last_mut()) else {
            return;
        };
        if text.is_empty() {
            return;
        }
        sink.argument_delta(&member.key, text);
        member.text.push_str(text);
        if !self.lean {
            // Sent with the closing quote; see the module docs.
            escape_into(&mut self.json, text);
        }
    }

    /// The decoded text of the open string value so far (empty when none is open).
    #[must_use]
    pub fn open_text(&self) -> &str {
        match (self.open, self.members.last()) {
            (true, Some(member)) => &member.text,
            _ => "",
        }
    }

    /// Closes the open string value, if any.
    pub fn end_string(&mut self, sink: &mut Sink) {
        if std::mem::take(&mut self.open) && !self.lean {
            self.push("\"", sink);
            if let Some(member) = self.members.last_mut() {
                member.end = self.json.len();
            }
        }
    }

    /// Writes `key` with a complete JSON value (a number, an object, …).
    pub fn json_value(&mut self, key: &str, value: &str, sink: &mut Sink) {
        self.end_string(sink);
        self.key(key, sink);
        self.typed = true;
        if self.lean {
            if let Some(member) = self.members.last_mut() {
                member.text = value.to_string();
                member.json = true;
            }
            return;
        }
        self.push(value, sink);
        if let Some(member) = self.members.last_mut() {
            member.end = self.json.len();
        }
    }

    /// Writes `key` with a whole string value at once.
    pub fn string_value(&mut self, key: &str, value: &str, sink: &mut Sink) {
        self.begin_string(key, sink);
        self.string_text(value, sink);
        self.end_string(sink);
    }

    /// Whether a member named `key` has been written (or is being written).
    #[must_use]
    pub fn has_key(&self, key: &str) -> bool {
        self.members.iter().any(|m| m.key == key)
    }

    /// True when no member has been written.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// A key written twice.
    fn repeated(&self) -> bool {
        let m = &self.members;
        (1..m.len()).any(|i| m[..i].iter().any(|x| x.key == m[i].key))
    }

    /// [`ArgsWriter::finish`], and the members as decoded `(key, value)` strings when every
    /// value is a string and no key repeats (else `None`): the same object, which a host can
    /// build without decoding the JSON again.
    /// A lean writer (no previews) returns an empty text with the pairs: their JSON is
    /// [`strings_json`] of them, left for the host to write if it is ever read.
    pub fn finish_strings(&mut self, sink: &mut Sink) -> (String, Option<Vec<(String, String)>>) {
        self.end_string(sink);
        if self.lean && !self.typed && !self.repeated() {
            let pairs = std::mem::take(&mut self.members)
                .into_iter()
                .map(|m| (m.key, m.text))
                .collect();
            return (String::new(), Some(pairs));
        }
        let json = self.finish(sink);
        let strings = (!self.typed && !self.repeated()).then(|| {
            std::mem::take(&mut self.members)
                .into_iter()
                .map(|m| (m.key, m.text))
                .collect()
        });
        (json, strings)
    }

    /// Closes the object and returns its final JSON text (keys written twice become lists).
    pub fn finish(&mut self, sink: &mut Sink) -> String {
        self.end_string(sink);
        if self.lean && !self.repeated() {
            return self.lean_json();
        }
        if self.lean {
            let values: Vec<(&str, String)> = self
                .members
                .iter()
                .map(|m| {
                    (
                        m.key.as_str(),
                        if m.json {
                            m.text.clone()
                        } else {
                            json_string(&m.text)
                        },
                    )
                })
                .collect();
            return json_object(values.iter().map(|(k, v)| (*k, v.as_str())));
        }
        if self.json.is_empty() {
            self.push("{", sink);
        }
        self.push("}", sink);
        if !self.repeated() {
            return self.json.clone();
        }
        json_object(self.members.iter().map(|m| {
            (
                m.key.as_str(),
                self.json.get(m.start..m.end).unwrap_or_default(),
            )
        }))
    }

    /// The JSON object of a lean writer's members, no key twice: what `json_object` writes
    /// for them, written at once into a string made big enough up front (a string per value,
    /// a vector per member and the growing object were most of a typed call's allocations).
    fn lean_json(&self) -> String {
        // Escapes past the texts' own bytes are left to `escape_into`'s own room.
        let size: usize = (self.members.iter())
            .map(|m| m.key.len() + m.text.len() + ", \"\": \"\"".len())
            .sum();
        let mut out = String::with_capacity(size + 2 + 16);
        out.push('{');
        for (i, m) in self.members.iter().enumerate() {
            out.push_str(if i == 0 { "\"" } else { ", \"" });
            escape_into(&mut out, &m.key);
            out.push_str("\": ");
            if m.json {
                out.push_str(&m.text);
            } else {
                out.push('"');
                escape_into(&mut out, &m.text);
                out.push('"');
            }
        }
        out.push('}');
        out
    }
}

/// `text` as a JSON string literal, quotes included.
#[must_use]
pub fn json_string(text: &str) -> String {
    // Room for `escape_into`'s own reserve after the opening quote, so it never grows it.
    let mut out = String::with_capacity(text.len() + 2 + 16);
    out.push('"');
    escape_into(&mut out, text);
    out.push('"');
    out
}

/// The JSON object of `(key, value JSON)` members, as [`ArgsWriter`] streams it (`{"k": v,
/// "k2": v2}`); a key given more than once gets the list of its values, in order of first
/// appearance.
pub fn json_object<'a>(members: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (key, value) in members {
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, values)) => values.push(value),
            None => groups.push((key, vec![value])),
        }
    }
    let mut out = String::from("{");
    for (i, (k, values)) in groups.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('"');
        escape_into(&mut out, k);
        out.push_str("\": ");
        if let [one] = values.as_slice() {
            out.push_str(one);
        } else {
            out.push('[');
            out.push_str(&values.join(", "));
            out.push(']');
        }
    }
    out.push('}');
    out
}

/// The JSON text of an object of string members with distinct keys, exactly as an
/// [`ArgsWriter`] writes it: what a call whose arguments came as pairs
/// ([`ArgsWriter::finish_strings`]) would have had.
pub fn strings_json<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in pairs.into_iter().enumerate() {
        out.push_str(if i == 0 { "\"" } else { ", \"" });
        escape_into(&mut out, key);
        out.push_str("\": \"");
        escape_into(&mut out, value);
        out.push('"');
    }
    out.push('}');
    out
}

/// The length of [`strings_json`] of `pairs`, counted without writing it.
#[must_use]
pub fn strings_json_len(pairs: &[(String, String)]) -> usize {
    let members: usize = pairs
        .iter()
        .map(|(k, v)| escaped_len(k) + escaped_len(v) + "\"\": \"\"".len())
        .sum();
    "{}".len() + members + ", ".len() * pairs.len().saturating_sub(1)
}

/// The length of what [`escape_into`] appends for `text`.
fn escaped_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut len = bytes.len();
    let mut from = 0;
    loop {
        let at = crate::strict_json::next_special(bytes, from);
        let Some(&b) = bytes.get(at) else {
            return len;
        };
        // Two bytes for a short escape, six for `\u00XX`.
        len += if matches!(b, b'"' | b'\\' | b'\n' | b'\r' | b'\t') {
            1
        } else {
            5
        };
        from = at + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::events::{Event, SegmentKind};

    fn sink() -> Sink {
        let mut s = Sink::default();
        s.start(SegmentKind::ToolCall, Some("f"), Vec::new());
        s
    }

    fn json_deltas(s: &Sink) -> String {
        s.events
            .iter()
            .filter_map(|e| match e {
                Event::ArgumentsJsonDelta { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn deltas_concatenate_to_the_final_json() {
        let mut s = sink();
        let mut w = ArgsWriter::new();
        w.begin_string("path", &mut s);
        w.string_text("/a \"b\"\n", &mut s);
        w.string_text("é\u{1}", &mut s);
        w.json_value("n", "3", &mut s);
        let json = w.finish(&mut s);
        assert_eq!(json, "{\"path\": \"/a \\\"b\\\"\\né\\u0001\", \"n\": 3}");
        assert_eq!(json_deltas(&s), json);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["path"], "/a \"b\"\né\u{1}");
        assert!(s.events.iter().any(|e| matches!(e, Event::ArgumentDelta { key, text, .. } if key == "path" && text == "é\u{1}")));
    }

    proptest::proptest! {
        #[test]
        fn escaped_text_decodes_back_to_itself(text in "(\\PC|[\"\\\\\u{0}-\u{1f}\u{7f}é€😀])*") {
            let mut out = String::from("\"");
            escape_into(&mut out, &text);
            out.push('"');
            let back: String = serde_json::from_str(&out).expect("valid JSON string");
            proptest::prop_assert_eq!(back, text);
        }
    }

    #[test]
    fn a_strings_json_is_sent_when_it_closes() {
        let mut s = sink();
        let mut w = ArgsWriter::new();
        w.begin_string("k", &mut s);
        w.string_text("ab", &mut s);
        w.string_text("c", &mut s);
        assert_eq!(json_deltas(&s), "{\"k\": \"");
        w.end_string(&mut s);
        assert_eq!(json_deltas(&s), "{\"k\": \"abc\"");
    }

    /// What `finish_strings` returns.
    type Finished = (String, Option<Vec<(String, String)>>);

    /// The same members written by a writer with previews and by a lean one.
    fn both(write: impl Fn(&mut ArgsWriter, &mut Sink)) -> [Finished; 2] {
        [false, true].map(|lean| {
            let mut s = sink();
            s.quiet = lean;
            let mut w = ArgsWriter::new();
            write(&mut w, &mut s);
            w.finish_strings(&mut s)
        })
    }

    #[test]
    fn a_lean_writer_leaves_string_json_unwritten_and_the_pairs_stand_for_it() {
        let [streamed, lean] = both(|w, s| {
            w.begin_string("path", s);
            w.string_text("a \"b\"\n", s);
            w.string_text("\u{1}é", s);
            w.string_value("mode", "x", s);
        });
        assert_eq!(lean.0, "");
        assert_eq!(lean.1, streamed.1);
        let pairs = lean.1.expect("pairs");
        let written = strings_json(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        assert_eq!(written, streamed.0);
        assert_eq!(strings_json_len(&pairs), written.len());
        assert_eq!(strings_json([]), "{}");
    }

    #[test]
    fn a_lean_writer_writes_typed_and_repeated_members_as_the_streamed_json() {
        let typed = both(|w, s| {
            w.string_value("a", "1\t", s);
            w.json_value("n", "[1, 2]", s);
        });
        let repeated = both(|w, s| {
            w.string_value("path", "a", s);
            w.json_value("n", "3", s);
            w.string_value("path", "b\"", s);
        });
        for [streamed, lean] in [typed, repeated] {
            assert_eq!(lean, streamed);
            assert_eq!(lean.1, None);
        }
    }

    proptest::proptest! {
        /// Any members, typed or not, repeated or not: the lean writer's JSON is the streamed
        /// one's.
        #[test]
        fn lean_and_streamed_writers_agree(members in proptest::collection::vec(
            ("[ab\"\\\\\n]{0,3}", proptest::option::of("(\\PC|[\"\\\\\u{0}-\u{1f}é😀]){0,40}")),
            0..6,
        )) {
            let [streamed, lean] = both(|w, s| {
                for (key, text) in &members {
                    match text {
                        Some(text) => w.string_value(key, text, s),
                        None => w.json_value(key, "[1, {\"x\": null}]", s),
                    }
                }
            });
            // Pairs stand for their JSON (left unwritten); typed or repeated members are written.
            let written = lean.1.as_ref().map_or(lean.0, |pairs| {
                strings_json(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            });
            proptest::prop_assert_eq!(written, streamed.0);
        }

        #[test]
        fn escaped_len_is_the_length_escape_into_writes(text in "(\\PC|[\"\\\\\u{0}-\u{1f}\u{7f}é😀])*") {
            let mut out = String::new();
            escape_into(&mut out, &text);
            proptest::prop_assert_eq!(escaped_len(&text), out.len());
        }
    }

    #[test]
    fn empty_and_repeated_keys() {
        let mut s = sink();
        assert_eq!(ArgsWriter::new().finish(&mut s), "{}");
        let mut w = ArgsWriter::new();
        w.string_value("path", "a", &mut s);
        w.string_value("x", "y", &mut s);
        w.string_value("path", "b", &mut s);
        assert_eq!(w.finish(&mut s), r#"{"path": ["a", "b"], "x": "y"}"#);
    }
}
