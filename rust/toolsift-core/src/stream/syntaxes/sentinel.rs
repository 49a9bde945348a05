//! The `sentinel` syntax: `[[SEG_START {json header}]]BODY[[SEG_END]]`.
//!
//! The header is one JSON object, found with the resumable bracket scanner (so a `]]` or a
//! `}` inside a header string does not end it) and then read leniently; `]]` must follow it
//! after optional blanks. Its `type` says what the body is:
//! - `text`: content text (a text segment of this syntax; no call);
//! - `tool` / `tool_call`: a call named by the header's `tool_name` (or `name`) with the
//!   header's `arguments`; without them the body is read as a JSON call object (or, with a
//!   header name, as the arguments object) or as an XML `<tool name="f">` element (see
//!   `sentinel_xml.rs`);
//! - `write_file`, `run_bash` (or `run_terminal_cmd`), `patch_file`, `edit_file`: a call of
//!   that name (segment kinds `WriteFile`, `RunBash`, `PatchFile`) whose `content`, `command`
//!   or `patch` is the raw body, and whose `path` is the header's (a command takes none).
//!
//! Every header key but `type` is segment metadata (strings as they are, other values as
//! JSON text). A header that is not a JSON object with a known `type`, or is not followed by
//! `]]`, makes the marker text; so does one that closed only because a string in it never
//! closed and ran over later markers (`json_read::overran`): the segments after it are read
//! again from the replayed text. The body is raw: it ends at the first `[[SEG_END]]`, so a
//! body cannot contain that marker; everything else in it is kept exactly. Body text streams
//! a line at a time (deltas cut inside a line would depend on the chunking).

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::json_call::{read_call, strict_or_repaired, JsonCall};
use super::super::parser::{emptied, emptied_text};
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_read::overran;
use crate::scanner::{JsonScanner, ScanOptions, Span};

const START: &str = "[[SEG_START";
const END: &str = "[[SEG_END]]";
/// A rejected header longer than this is given back as plain text instead of being read
/// again, which keeps the work per byte bounded.
const REPLAY_LIMIT: usize = 4096;
const NAME_KEYS: &[&str] = &["tool_name", "name", "tool"];
const ARGS_KEYS: &[&str] = &["arguments", "args", "parameters", "params"];

/// The header types whose body is one raw argument: `(type, argument, segment kind)`; the
/// call's name is the type.
const FILE_TYPES: &[(&str, &str, SegmentKind)] = &[
    ("write_file", "content", SegmentKind::WriteFile),
    ("run_bash", "command", SegmentKind::RunBash),
    // autobyteus's current name for `run_bash`.
    ("run_terminal_cmd", "command", SegmentKind::RunBash),
    ("patch_file", "patch", SegmentKind::PatchFile),
    ("edit_file", "patch", SegmentKind::PatchFile),
];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec!["sentinel"]
}

/// The syntax called `name`, if it is `sentinel`.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == "sentinel").then(|| Syntax {
        name: "sentinel",
        markers: vec![(START.to_string(), false, false)],
        make: Box::new(|_| Box::new(SentinelParser::default())),
    })
}

/// What the body is, by the header's `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    Text,
    Tool,
    File(&'static str, &'static str),
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Blanks before the header's `{`.
    #[default]
    Before,
    Header,
    /// In the header, read by the bracket scanner.
    Scan,
    /// After the header: blanks, then `]]` (`matched` bytes of it seen).
    After(usize),
    Body(Body),
}

#[derive(Debug)]
struct SentinelParser {
    state: State,
    scanner: JsonScanner,
    spans: Vec<Span>,
    /// The header's text, then its strict JSON.
    header: String,
    /// Bytes taken in earlier feeds.
    consumed: usize,
    /// The body's current (incomplete) line.
    line: String,
    /// A `tool` body so far (a file body is the open argument of `args`).
    body: String,
    args: ArgsWriter,
    /// A `tool` header's own call, read once when the segment opens.
    header_call: Option<JsonCall>,
    /// A `tool` header's arguments as decoded strings, for a one-shot parse (see
    /// `header::read_flat`).
    header_flat: Option<header::Flat>,
    /// The header's members, when they were read while finding its end.
    read: Option<Vec<header::Member<'static>>>,
}

impl Default for SentinelParser {
    fn default() -> Self {
        Self::over(
            JsonScanner::new(ScanOptions {
                single_quotes: true,
                ..ScanOptions::default()
            }),
            Vec::new(),
            String::new(),
            String::new(),
            String::new(),
        )
    }
}

impl SentinelParser {
    /// A parser at its start over the memory of `scanner` (reset) and of the emptied buffers.
    fn over(
        mut scanner: JsonScanner,
        spans: Vec<Span>,
        header: String,
        line: String,
        body: String,
    ) -> Self {
        scanner.reset();
        Self {
            state: State::Before,
            scanner,
            spans,
            header,
            consumed: 0,
            line,
            body,
            args: ArgsWriter::new(),
            header_call: None,
            header_flat: None,
            read: None,
        }
    }
}

/// Where the first end marker at or after `from` begins, found by one searcher made once:
/// `str::find` set up a searcher for every body chunk (a few bytes each in a stream), and a
/// `memchr` for the marker's `[` stopped at every bracket of a file's code (~4 a body).
fn find_end(bytes: &[u8], from: usize) -> Option<usize> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(END.as_bytes()));
    FINDER.find(bytes.get(from..)?).map(|at| from + at)
}

fn issue(kind: &'static str, message: String) -> Outcome {
    Outcome {
        call: None,
        issue: Some((kind, message)),
    }
}

impl SentinelParser {
    /// The header did not make a segment: the marker is text.
    fn reject(&self, used: usize) -> Step {
        if self.consumed + used <= REPLAY_LIMIT {
            Step::Reject
        } else {
            Step::RejectAsText { used, give_back: 0 }
        }
    }

    /// Body text known not to hold the end marker.
    fn emit(&mut self, text: &str, sink: &mut Sink) {
        // Only a `tool` body is read at the end; a file body is its open argument already.
        match self.state {
            State::Body(Body::Text) => sink.text_delta(text),
            State::Body(Body::File(..)) => self.args.string_text(text, sink),
            _ => self.body.push_str(text),
        }
    }

    /// Body bytes: complete lines are emitted one by one; the end marker ends the segment.
    fn body_feed(&mut self, input: &str, offset: usize, sink: &mut Sink) -> Step {
        let mut line = std::mem::take(&mut self.line);
        let before = line.len();
        // Only the last few bytes before this input can begin an end marker that ends in it.
        let mut from = before.saturating_sub(END.len() - 1);
        while !line.is_char_boundary(from) {
            from -= 1;
        }
        // Without a held line the input is read where it is: a one-shot parse hands over all
        // the rest of the text, and copying it cost more than the search.
        if before > 0 {
            line.push_str(input);
        }
        let text: &str = if before > 0 { &line } else { input };
        let end_at = find_end(text.as_bytes(), from);
        let limit = end_at.unwrap_or(text.len());
        let mut start = 0;
        // The kept line holds no newline, so newlines are searched in this input only. In a
        // one-shot parse all complete lines go as one piece: nobody sees the deltas, and each
        // piece costs an escape call and a copy.
        let whole = sink.one_shot();
        let mut pos = before;
        // With the end marker at hand, a one-shot parse emits the body below in one piece:
        // searching it for its last newline first (`rfind`, a byte at a time) was ~2% of a
        // sentinel batch.
        let lines = !(whole && end_at.is_some());
        let newline = |s: &str| {
            if whole {
                memchr::memrchr(b'\n', s.as_bytes())
            } else {
                memchr::memchr(b'\n', s.as_bytes())
            }
        };
        while let Some(nl) = text.get(pos..limit).filter(|_| lines).and_then(newline) {
            let stop = pos + nl + 1;
            self.emit(&text[start..stop], sink);
            start = stop;
            pos = stop;
        }
        if let Some(p) = end_at {
            self.emit(&text[start..p], sink);
            return Step::Done {
                used: offset + (p + END.len() - before),
                give_back: 0,
                outcome: self.outcome(true, sink),
            };
        }
        if before > 0 {
            line.drain(..start);
        } else {
            line.push_str(&input[start..]);
        }
        self.line = line;
        Step::NeedMore
    }

    /// The segment's call or issue; `complete` when its end marker was read.
    fn outcome(&mut self, complete: bool, sink: &mut Sink) -> Outcome {
        let State::Body(body) = self.state else {
            return issue(
                "unterminated",
                format!("the stream ended inside a sentinel header: {}", self.header),
            );
        };
        let mut outcome = match body {
            Body::Text => Outcome::default(),
            Body::File(name, _) if complete => {
                let (arguments, strings) = self.args.finish_strings(sink);
                sink.string_arguments(strings);
                Outcome {
                    call: Some((name.to_string(), arguments, Vec::new())),
                    issue: None,
                }
            }
            Body::File(name, _) => {
                return issue(
                    "unterminated",
                    format!(
                        "the stream ended inside {name}'s body: {}",
                        self.args.open_text()
                    ),
                )
            }
            Body::Tool => self.tool_call(complete, sink),
        };
        if !complete && outcome.issue.is_none() {
            outcome.issue = Some(("missing_end_marker", format!("no {END} after the segment")));
        }
        outcome
    }

    /// A `tool` segment's call: from the header, else from the body.
    fn tool_call(&mut self, complete: bool, sink: &mut Sink) -> Outcome {
        let body = self.body.trim();
        let header = self.header_call.take();
        let call = match header {
            Some(call) if call.1 != "{}" || body.is_empty() => {
                // The same object as the JSON, which the host then need not load.
                sink.string_arguments(self.header_flat.take());
                Ok(call)
            }
            _ if !complete => Err((
                "unterminated",
                format!("the stream ended inside the tool body: {}", self.body),
            )),
            _ if body.starts_with('<') => xml::read(body, header.as_ref().map(|c| c.0.as_str()))
                .map(|(name, args)| (name, args, Vec::new()))
                .map_err(|why| ("bad_body", format!("the XML body is not a call: {why}"))),
            Some((name, _, _)) => match read_call(body, NAME_KEYS, ARGS_KEYS) {
                Ok((_, args, repairs)) => Ok((name, args, repairs)),
                Err(_) => match strict_or_repaired(body) {
                    Ok((args, repairs)) if args.trim_start().starts_with('{') => {
                        Ok((name, args, repairs))
                    }
                    _ => Err(("bad_body", format!("the body of {name:?} is not JSON"))),
                },
            },
            None => read_call(body, NAME_KEYS, ARGS_KEYS),
        };
        match call {
            Ok(call) => Outcome {
                call: Some(call),
                issue: None,
            },
            Err((kind, message)) => issue(kind, message),
        }
    }
}

impl SegmentParser for SentinelParser {
    fn recycle(&mut self, _opening: &Opening) -> bool {
        // A new parser, but for the old one's emptied buffers and its scanner's stack (a new
        // scanner's was an allocation a segment: a sentinel batch's Rust allocations 16.5 ->
        // 15.0 a reply, `benches/batch_instructions.py --allocations sentinel`).
        let scanner = std::mem::replace(&mut self.scanner, JsonScanner::idle());
        *self = Self::over(
            scanner,
            emptied(&mut self.spans),
            emptied_text(&mut self.header),
            emptied_text(&mut self.line),
            emptied_text(&mut self.body),
        );
        true
    }

    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let bytes = input.as_bytes();
        let mut i = 0;
        loop {
            match self.state {
                State::Before => {
                    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                        i += 1;
                    }
                    match bytes.get(i) {
                        None => break,
                        Some(b'{') => self.state = State::Header,
                        Some(_) => return self.reject(i),
                    }
                }
                State::Header if self.header.is_empty() && self.scanner.consumed() == 0 => {
                    // A strict header that arrived whole is read once, end and members
                    // together; any other goes to the scanner, which then starts here.
                    let Some((mut read, end)) = header::leading(&input[i..], sink.one_shot())
                    else {
                        self.state = State::Scan;
                        continue;
                    };
                    if let Some(close) = header::closing(&bytes[i + end..]) {
                        // Its `]]` came too (always, in a one-shot parse): the segment opens
                        // from the members as they lie in the input. Copying the header and
                        // its members was five allocations of the segment's twenty.
                        i += end + close;
                        if self.open_members(&mut read, sink).is_none() {
                            return self.reject(i);
                        }
                        continue;
                    }
                    self.header.push_str(&input[i..i + end]);
                    self.read = Some(header::owned(read));
                    i += end;
                    self.state = State::After(0);
                }
                State::Header | State::Scan => {
                    let base = self.scanner.consumed();
                    self.spans.clear();
                    if self
                        .scanner
                        .feed_until_closed(&bytes[i..], &mut self.spans)
                        .is_err()
                    {
                        return self.reject(i);
                    }
                    let Some(end) = self
                        .spans
                        .iter()
                        .find(|s| s.depth == 0)
                        .map(|s| s.end - base)
                    else {
                        self.header.push_str(&input[i..]);
                        break;
                    };
                    self.header.push_str(&input[i..i + end]);
                    i += end;
                    if overran(&self.header, &[START, END], sink).is_some() {
                        // A header string that never closed ran over the markers after it and
                        // closed in a later header, whose brackets then balanced this one: it
                        // is not a header (SYNTAXES.md: an invalid header is text), and the
                        // segments after it are read again from the replayed text.
                        return self.reject(i);
                    }
                    self.state = State::After(0);
                }
                State::After(mut matched) => {
                    while let Some(&b) = bytes.get(i) {
                        i += 1;
                        if matched == 0 && b.is_ascii_whitespace() {
                            continue;
                        }
                        if b != b']' {
                            return self.reject(i - 1);
                        }
                        matched += 1;
                        if matched == 2 {
                            break;
                        }
                    }
                    if matched < 2 {
                        self.state = State::After(matched);
                        break;
                    }
                    if self.open(sink).is_none() {
                        return self.reject(i);
                    }
                }
                State::Body(_) => return self.body_feed(&input[i..], i, sink),
            }
        }
        self.consumed += input.len();
        Step::NeedMore
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        if let State::Body(_) = self.state {
            let rest = std::mem::take(&mut self.line);
            self.emit(&rest, sink);
        }
        self.outcome(false, sink)
    }
}

#[path = "sentinel_header.rs"]
mod header;
#[cfg(test)]
#[path = "sentinel_tests.rs"]
mod tests;
#[path = "sentinel_xml.rs"]
mod xml;
