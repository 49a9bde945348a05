//! `xml_tool`: `<tool name="f"><arguments><arg name="k">v</arg></arguments></tool>` and the
//! shorthands `<write_file path="/a.py">RAW</write_file>` and `<run_bash>cmd</run_bash>`
//! (also spelled `<run_terminal_cmd>`, autobyteus's newer name, which becomes the call's name).
//!
//! Rules:
//! - Tag and attribute names match in any case; attribute values take single, double or no
//!   quotes. A `<` inside the call's own start tag, quoted or not, means it was no start tag:
//!   it stays text, and the calls after it are read (`<tool name="f"` left open, then prose
//!   with an apostrophe, swallowed them). `<arguments>` is optional; an argument is `<arg name="k">` or `<k>` (a bare
//!   `<arg>` is the key `arg`). A value whose first child is `<item>` is a list (one entry per
//!   item), one whose first child is `<arg …>` an object; otherwise it is text.
//! - Text values are whitespace-trimmed and entity-decoded; a `<` or `&` that starts no tag or
//!   entity is kept (`n <= 0`), and so is any other tag (`<div>`): a text value ends only at
//!   its own close tag (`</arg>`, `</k>`; blanks allowed before `>`). `<![CDATA[…]]>` is
//!   unwrapped there. `</tool>` or a new `<tool …` inside a text value means the call is
//!   malformed (an issue; the next call is still read).
//! - In `<tool name="write_file">` the `content` argument (`patch` in `patch_file`) is raw: not
//!   trimmed, not decoded, CDATA kept. If it starts (after blanks) with `__START_CONTENT__`
//!   (`__START_PATCH__`), one newline after that marker is dropped and the content ends at
//!   `__END_CONTENT__` followed by optional blanks and `</arg>`, so it may hold `</arg>`
//!   itself; without the end marker, `</arg>` followed by `</arguments>` or `</tool>` ends it.
//!   Such a call is a `write_file`/`patch_file` segment whose start waits for the `path`
//!   argument (metadata `path`), or for the content, whichever comes first.
//! - Any other argument of a `<tool>` that starts (after blanks) with `__START_CONTENT__` is
//!   raw the same way, up to `__END_CONTENT__` (autobyteus reads the markers in every
//!   argument); without the marker it is a value like any other.
//! - Shorthand bodies are raw up to `</write_file>` / `</run_bash>` (not trimmed, not decoded).
//! - A call unterminated at the end of the stream is an issue, never a call.

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::parser::{emptied, emptied_text};
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::line_flush::LineFlush;
use super::xml_bits::{text_of, BLANKS};
use super::xml_bits::{Matcher, Pattern, Piece};
use std::collections::VecDeque;

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec!["xml_tool"]
}

/// The start markers: the form each opens and whether the marker ends the open tag.
const MARKERS: &[(&str, Form, bool)] = &[
    ("<tool ", Form::Tool, false),
    ("<tool\n", Form::Tool, false),
    ("<tool\t", Form::Tool, false),
    ("<tool\r", Form::Tool, false),
    ("<write_file ", Form::WriteFile, false),
    ("<write_file\n", Form::WriteFile, false),
    ("<write_file\t", Form::WriteFile, false),
    ("<run_bash>", Form::RunBash, true),
    ("<run_bash ", Form::RunBash, false),
    // autobyteus's current name for `run_bash`.
    ("<run_terminal_cmd>", Form::RunTerminalCmd, true),
    ("<run_terminal_cmd ", Form::RunTerminalCmd, false),
];

/// The syntax called `name`, if it is this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == "xml_tool").then(|| Syntax {
        name: "xml_tool",
        markers: MARKERS
            .iter()
            .map(|(m, _, _)| ((*m).to_string(), false, true))
            .collect(),
        make: Box::new(|Opening { marker, .. }| {
            let (_, form, done) = MARKERS.get(marker).copied().unwrap_or(MARKERS[0]);
            Box::new(Parser::new(form, done))
        }),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Tool,
    WriteFile,
    RunBash,
    RunTerminalCmd,
}

/// The close tag of the innermost value, blanks allowed before its `>`.
const CLOSE: Pattern = &[Piece::Close, Piece::Blanks, Piece::Lit(">")];
/// A raw value ends only at its close tag.
const PLAIN_RAW: &[Pattern] = &[CLOSE];
/// In `<![CDATA[`, only `]]>` ends the section.
const IN_CDATA: &[Pattern] = &[&[Piece::Lit("]]>")]];
/// A text value: its close tag, CDATA, or a `</tool>` or new `<tool …` that breaks the call.
const VALUE: &[Pattern] = &[
    CLOSE,
    &[Piece::Lit("<![CDATA[")],
    &[Piece::Lit("</tool"), Piece::Blanks, Piece::Lit(">")],
    &[Piece::Lit("<tool"), Piece::OneOf(BLANKS)],
];
/// A value not yet known to be text, a list or an object: as [`VALUE`], or its first child.
const UNDECIDED: &[Pattern] = &[
    VALUE[0],
    VALUE[1],
    VALUE[2],
    VALUE[3],
    &[Piece::Lit("<item"), Piece::OneOf(b" \t\r\n/>")],
    &[Piece::Lit("<arg"), Piece::OneOf(b" \t\r\n/>")],
];

/// The end patterns of a marked raw value (between the sentinels of `end`): 0 = the end
/// sentinel and the close tag, 1 = the close tag and `</arguments>`, 2 = the close tag and
/// `</tool>`.
macro_rules! marked {
    ($end:literal) => {
        &[
            &[
                Piece::Lit($end),
                Piece::Blanks,
                Piece::Close,
                Piece::Blanks,
                Piece::Lit(">"),
            ],
            &[
                Piece::Close,
                Piece::Lit(">"),
                Piece::Blanks,
                Piece::Lit("</arguments>"),
            ],
            &[
                Piece::Close,
                Piece::Lit(">"),
                Piece::Blanks,
                Piece::Lit("</tool>"),
            ],
        ]
    };
}

/// A `<tool name=…>` whose content argument is raw, with its sentinels.
struct Special {
    tool: &'static str,
    key: &'static str,
    start: &'static str,
    kind: SegmentKind,
    /// The end patterns of the value between the sentinels (see [`marked!`]).
    marked: &'static [Pattern],
    /// `marked`'s stops (see `stops_of`).
    marked_stops: Option<[u8; 3]>,
}

/// A set of end patterns and its stops.
type PatternSet = (&'static [Pattern], Option<[u8; 3]>);

const VALUE_SET: PatternSet = (VALUE, Parser::stops_of(VALUE));
const UNDECIDED_SET: PatternSet = (UNDECIDED, Parser::stops_of(UNDECIDED));
const PLAIN_RAW_SET: PatternSet = (PLAIN_RAW, Parser::stops_of(PLAIN_RAW));
const IN_CDATA_SET: PatternSet = (IN_CDATA, Parser::stops_of(IN_CDATA));
const GENERIC_MARKED_SET: PatternSet = (GENERIC_MARKED, Parser::stops_of(GENERIC_MARKED));

const SPECIALS: &[Special] = &[
    Special {
        tool: "write_file",
        key: "content",
        start: "__START_CONTENT__",
        kind: SegmentKind::WriteFile,
        marked: marked!("__END_CONTENT__"),
        marked_stops: Parser::stops_of(marked!("__END_CONTENT__")),
    },
    Special {
        tool: "patch_file",
        key: "patch",
        start: "__START_PATCH__",
        kind: SegmentKind::PatchFile,
        marked: marked!("__END_PATCH__"),
        marked_stops: Parser::stops_of(marked!("__END_PATCH__")),
    },
];

/// Longest tag read before it is taken for text.
const MAX_TAG: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    /// Looking for the start sentinel (`matched` bytes of it seen). `generic`: an argument
    /// of any tool, looking for [`GENERIC_START`], and a value like any other without it.
    Seek {
        matched: usize,
        generic: bool,
    },
    Plain,
    /// Between sentinels; `fresh` until the first byte (a newline there is dropped).
    Marked {
        fresh: bool,
        generic: bool,
    },
}

/// The start sentinel that makes any argument of any `<tool>` raw (autobyteus's generic
/// tool parser honours it in every `<arg>`, and its tests use it in a tool named `write`).
const GENERIC_START: &str = "__START_CONTENT__";
/// The end patterns of a generic marked value (see [`marked!`]).
const GENERIC_MARKED: &[Pattern] = marked!("__END_CONTENT__");

enum Kind {
    Undecided,
    Leaf,
    Raw(Raw),
    List(Vec<String>),
    Object(Vec<(String, String)>),
}

struct Frame {
    /// Lower-case tag name, for the close tag.
    tag: String,
    key: String,
    kind: Kind,
    /// Text not streamed (nested values, or any value before a deferred start).
    text: String,
    /// The value streams through the arguments writer.
    streamed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    OpenTag,
    /// In a container, between children.
    Between,
    /// A tag in a container, after its `<`.
    Tag,
    /// In the value of the innermost frame.
    Value,
    /// After `&` in a text value.
    Entity,
}

enum Pending {
    Text(String),
    Json(String),
}

// The flags are independent facts about the open segment, not a hidden state enum.
#[allow(clippy::struct_excessive_bools)]
struct Parser {
    form: Form,
    open_done: bool,
    state: State,
    name: String,
    special: Option<&'static Special>,
    frames: Vec<Frame>,
    args: ArgsWriter,
    lines: LineFlush,
    started: bool,
    pending: Vec<(String, Pending)>,
    buf: Vec<u8>,
    quote: Option<u8>,
    matcher: Matcher,
    patterns: &'static [Pattern],
    /// What [`Parser::plain_run`] searches for with `patterns`.
    stops: Option<[u8; 3]>,
    /// `</` and the innermost value's tag: the text of [`Piece::Close`].
    close: String,
    in_cdata: bool,
    /// Text bytes of the value not yet written (flushed at the end of each feed).
    out: Vec<u8>,
    /// No non-blank text of the value written yet (leading blanks are dropped).
    leaf_empty: bool,
    /// Trailing blanks held back (dropped if the value ends).
    ws_hold: String,
    /// Bytes taken but to be read again.
    replay: VecDeque<u8>,
    seen: String,
}

mod run;
mod runs;
mod tags;

impl Parser {
    fn new(form: Form, open_done: bool) -> Self {
        Self {
            form,
            open_done,
            state: State::OpenTag,
            name: String::new(),
            special: None,
            frames: Vec::new(),
            args: ArgsWriter::new(),
            lines: LineFlush::default(),
            started: false,
            pending: Vec::new(),
            buf: Vec::new(),
            quote: None,
            matcher: Matcher::default(),
            patterns: &[],
            stops: Some([b'&'; 3]),
            close: String::new(),
            in_cdata: false,
            out: Vec::new(),
            leaf_empty: true,
            ws_hold: String::new(),
            replay: VecDeque::new(),
            seen: String::new(),
        }
    }

    fn start(&mut self, metadata: Vec<(String, String)>, sink: &mut Sink) {
        let kind = match (self.form, self.special) {
            (Form::WriteFile, _) => SegmentKind::WriteFile,
            (Form::RunBash | Form::RunTerminalCmd, _) => SegmentKind::RunBash,
            (Form::Tool, Some(s)) => s.kind,
            (Form::Tool, None) => SegmentKind::ToolCall,
        };
        sink.start(kind, Some(&self.name), metadata);
        self.started = true;
        for (key, value) in std::mem::take(&mut self.pending) {
            match value {
                Pending::Text(t) => self.args.string_value(&key, &t, sink),
                Pending::Json(j) => self.args.json_value(&key, &j, sink),
            }
        }
    }

    /// The end patterns of the innermost value, by its kind, and its close tag's text.
    fn set_patterns(&mut self) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        // The buffer is reused: this runs at every tag.
        self.close.clear();
        self.close.push_str("</");
        self.close.push_str(&frame.tag);
        // Each set with its stops, found by the compiler (see `stops_of`).
        let (patterns, stops) = match &frame.kind {
            Kind::Raw(Raw::Marked { generic: true, .. }) => GENERIC_MARKED_SET,
            Kind::Raw(Raw::Marked { .. }) => self
                .special
                .map_or(PLAIN_RAW_SET, |s| (s.marked, s.marked_stops)),
            Kind::Raw(_) => PLAIN_RAW_SET,
            _ if self.in_cdata => IN_CDATA_SET,
            Kind::Undecided => UNDECIDED_SET,
            _ => VALUE_SET,
        };
        self.patterns = patterns;
        self.stops = stops;
    }

    /// The innermost value gets non-blank text: it is a text value from now on.
    fn decide_leaf(&mut self, sink: &mut Sink) {
        let top = self.frames.len() == 2;
        let started = self.started;
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !matches!(frame.kind, Kind::Undecided) {
            return;
        }
        frame.kind = Kind::Leaf;
        if top && started {
            frame.streamed = true;
            self.args.begin_string(&frame.key, sink);
        }
        self.set_patterns();
    }

    /// Writes out the value text gathered in `out` (trimming text values).
    fn flush_out(&mut self, sink: &mut Sink) {
        if self.out.is_empty() {
            return;
        }
        let mut bytes = std::mem::take(&mut self.out);
        self.flush_bytes(&bytes, sink);
        // The buffer goes back, emptied: this runs for every chunk of a value, and a new
        // buffer per chunk was an allocation per chunk.
        bytes.clear();
        if self.out.is_empty() {
            self.out = bytes;
        }
    }

    fn flush_bytes(&mut self, bytes: &[u8], sink: &mut Sink) {
        let text = text_of(bytes);
        let raw = matches!(self.frames.last().map(|f| &f.kind), Some(Kind::Raw(_)));
        if raw {
            self.emit(&text, sink);
            return;
        }
        let mut s: &str = &text;
        if self.leaf_empty {
            s = s.trim_start();
            if s.is_empty() {
                return;
            }
            self.leaf_empty = false;
        }
        let body = s.trim_end();
        if !body.is_empty() {
            let mut held = std::mem::take(&mut self.ws_hold);
            self.emit(&held, sink);
            self.emit(body, sink);
            held.clear();
            self.ws_hold = held;
        }
        self.ws_hold.push_str(&s[body.len()..]);
    }

    fn emit(&mut self, text: &str, sink: &mut Sink) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.streamed && sink.one_shot() {
            // Lines matter only to the events of a stream (see `line_flush`); held back, a
            // value was copied once more.
            self.args.string_text(text, sink);
        } else if frame.streamed {
            self.lines.push(text, &mut self.args, sink);
        } else {
            frame.text.push_str(text);
        }
    }

    fn issue(kind: &'static str, message: String) -> Outcome {
        Outcome {
            call: None,
            issue: Some((kind, message)),
        }
    }
}

impl SegmentParser for Parser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        self.run(input, sink)
    }

    fn recycle(&mut self, opening: &Opening) -> bool {
        let (_, form, done) = MARKERS.get(opening.marker).copied().unwrap_or(MARKERS[0]);
        // A new parser, then the old one's emptied buffers: every other field starts as
        // `make` would start it.
        let mut fresh = Parser::new(form, done);
        fresh.frames = emptied(&mut self.frames);
        fresh.pending = emptied(&mut self.pending);
        fresh.buf = emptied(&mut self.buf);
        fresh.out = emptied(&mut self.out);
        fresh.close = emptied_text(&mut self.close);
        fresh.ws_hold = emptied_text(&mut self.ws_hold);
        fresh.seen = emptied_text(&mut self.seen);
        fresh.name = emptied_text(&mut self.name);
        *self = fresh;
        true
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        if self.started {
            self.flush_out(sink);
        }
        let what = match self.form {
            Form::Tool if self.name.is_empty() => "<tool".to_string(),
            Form::Tool => format!("<tool name=\"{}\">", self.name),
            Form::WriteFile => "<write_file>".to_string(),
            Form::RunBash => "<run_bash>".to_string(),
            Form::RunTerminalCmd => "<run_terminal_cmd>".to_string(),
        };
        Self::issue(
            "unterminated",
            format!(
                "incomplete {what}: the stream ended before its close tag; partial text: {}",
                self.seen
            ),
        )
    }
}

#[cfg(test)]
#[path = "xml_tool_tests.rs"]
mod tests;
