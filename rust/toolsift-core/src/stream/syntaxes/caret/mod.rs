//! The `caret` syntax: a block fenced by `^^^NAME` and `^^^` lines.
//!
//! ```text
//! ^^^write_file
//! path: src/lib.rs
//! tags: [
//! a
//! ]
//! ---
//! content: |
//!   body
//! ^^^
//! ```
//!
//! Rules, line by line (a line is read only once; the parser keeps the current line's
//! undecided bytes and the block's state, never the block's text):
//! - The opener `^^^NAME` must sit at column 0 (a line-start marker) and be alone on its line;
//!   NAME is `[A-Za-z0-9_]+`. Anything else after `^^^` makes the marker text (a `Reject`
//!   within the opener line, which is at most 128 bytes).
//! - The block closes at a line that is exactly `^^^` (blanks after it tolerated); that line
//!   and its newline belong to the block. A fence line inside a multi-line value is part of
//!   the value: only `--- KEY` ends one. A `^^^NAME` line where a header line is expected
//!   ends an unclosed block (a complete header is then a call flagged `missing_end_marker`)
//!   and opens the next block. A line `^^^` followed by other text where a header line (or a
//!   block scalar's next key) is expected is a closing fence whose line break was left out:
//!   the block closes after the `^^^`, with a `text_after_fence` issue beside its call, and
//!   the rest of the line is text again (it is not at column 0, so it opens nothing).
//! - Header lines: `key: value` (value: a string, leading blanks dropped, kept exactly
//!   otherwise; a repeated key makes a list); `key:` followed by indented `- item` lines (a
//!   list of trimmed items); `key: [` then one item per line up to `]` (items trimmed,
//!   blank lines dropped); `KEY ---` … `--- KEY` (raw lines joined with `\n`, no trailing
//!   newline); blank lines are skipped. Any other line makes the block an issue.
//! - v0: a `---` line ends the header. If the body's first non-blank line is `KEY: |` or
//!   `KEY: |-`, the body is YAML block scalars (the first line's indentation removed from all
//!   lines, trailing blank lines dropped, `|` keeps one final newline, `|-` none); otherwise
//!   the raw body, without the newline before the closing fence, is `content` (an issue if
//!   the header already set `content`).
//!
//! Lines may end with `\r\n`: raw values keep their `\r\n` breaks, block scalars use `\n`.
//!
//! Values stream a line at a time: each complete line of a multi-line value, block scalar or
//! raw body is one delta as soon as its newline arrives. (Deltas cut inside a line would
//! depend on the chunking, and the events must not.)

mod header;
mod lines;
#[cfg(test)]
mod tests;

use super::super::args_writer::ArgsWriter;
use super::super::events::SegmentKind;
use super::super::{Outcome, SegmentParser, Sink, Step, Syntax};
use super::lex::flagged;
use lines::{fence_then_text, is_fence, may_become, opener, scalar_head};

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec!["caret"]
}

/// The syntax called `name`, if it is `caret`.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == "caret").then(|| Syntax {
        name: "caret",
        markers: vec![("^^^".to_string(), true, false)],
        make: Box::new(|_| Box::new(CaretParser::default())),
    })
}

/// Where in the block the parser is.
#[derive(Debug, Default)]
enum Mode {
    /// The opener line: the tool's name.
    #[default]
    Name,
    /// Header lines.
    Header,
    /// After `key:` with no value: indented `- item` lines may follow.
    AfterKey(String),
    /// `- item` lines of a header list.
    Dashes(String, Vec<String>),
    /// Lines of a `key: [` list.
    Bracket(String, Vec<String>),
    /// A `KEY ---` raw value, streaming by lines; ends at `--- KEY`.
    Multi(String),
    /// After the `---` line, before the body's first non-blank line (blank lines counted).
    BodyStart(usize),
    /// A YAML block scalar, streaming by lines.
    Scalar {
        keep: bool,
        indent: Option<usize>,
        newlines: usize,
        content: bool,
    },
    /// A raw body, streaming by lines as `content`.
    Raw,
    /// After a malformed line: skip to the closing fence.
    Skip,
}

/// What a complete line did.
enum Flow {
    Continue,
    Close,
    Reject,
    /// A new opener line (`^^^NAME`, this many bytes with its newline) ends an unclosed
    /// block: the line goes back to the engine, which opens the next block with it.
    Reopen(usize),
    /// A closing fence followed by text on its line: the block closes after the `^^^`, and
    /// this many bytes (the text and its newline) go back to the engine as text.
    CloseBefore(usize),
}

/// A line that opens a block (`^^^NAME`).
fn is_opener(line: &str) -> bool {
    line.strip_prefix("^^^")
        .is_some_and(|rest| opener(rest).is_ok_and(|name| !name.is_empty()))
}

#[derive(Debug, Default)]
struct CaretParser {
    mode: Mode,
    name: String,
    /// The current line so far.
    line: String,
    /// The current line is skipped (a malformed block is being read to its fence).
    skipping: bool,
    /// The line break that ended the value's last line, written before its next line
    /// (`None` before the value's first line).
    sep: Option<&'static str>,
    args: ArgsWriter,
    content_in_header: bool,
    issue: Option<(&'static str, String)>,
    /// The block's text so far, for the message of an unterminated block.
    seen: String,
}

impl CaretParser {
    /// Text of the current line that arrived in this feed (no newline).
    fn piece(&mut self, piece: &str) -> Option<Step> {
        if self.skipping {
            return None;
        }
        self.line.push_str(piece);
        match &self.mode {
            // Bounded lookahead: the opener line decides within 128 bytes.
            Mode::Name if opener(&self.line).is_err() => return Some(Step::Reject),
            // A skipped line that cannot be the fence need not be kept.
            Mode::Skip if !may_become(&self.line, "^^^") => {
                self.line.clear();
                self.skipping = true;
            }
            _ => {}
        }
        None
    }

    /// One more line of a raw value, after the line break that ended the previous one (`\n`,
    /// or `\r\n` when the previous line ended with `\r`). Values stream a line at a time:
    /// deltas cut at line ends are the same however the text is chunked.
    fn value_line(&mut self, line: &str, sink: &mut Sink) {
        let (line, crlf) = match line.strip_suffix('\r') {
            Some(l) => (l, true),
            None => (line, false),
        };
        let mut text = String::with_capacity(line.len() + 2);
        if let Some(sep) = self.sep {
            text.push_str(sep);
        }
        text.push_str(line);
        self.sep = Some(if crlf { "\r\n" } else { "\n" });
        self.args.string_text(&text, sink);
    }

    /// The current line ended (its newline was read).
    fn line_end(&mut self, sink: &mut Sink) -> Flow {
        let skipped = std::mem::replace(&mut self.skipping, false);
        let line = std::mem::take(&mut self.line);
        match &mut self.mode {
            Mode::Name => {
                let name = opener(&line).unwrap_or("");
                if name.is_empty() {
                    return Flow::Reject;
                }
                self.name = name.to_string();
                sink.start(SegmentKind::ToolCall, Some(&self.name), Vec::new());
                self.mode = Mode::Header;
            }
            Mode::Multi(key) => {
                if line.trim_end() == format!("--- {key}") {
                    self.args.end_string(sink);
                    self.mode = Mode::Header;
                } else {
                    self.value_line(&line, sink);
                }
            }
            Mode::Raw | Mode::Skip if is_fence(&line) && !skipped => return Flow::Close,
            Mode::Raw => self.value_line(&line, sink),
            Mode::Skip => {}
            Mode::Scalar { newlines, .. } if line.trim().is_empty() => *newlines += 1,
            Mode::Scalar {
                indent,
                newlines,
                content,
                ..
            } if line.starts_with(' ') => {
                let spaces = line.bytes().take_while(|&b| b == b' ').count();
                let drop = (*indent.get_or_insert(spaces)).min(spaces);
                let mut text = "\n".repeat(std::mem::replace(newlines, 1));
                let line = line.strip_suffix('\r').unwrap_or(&line);
                text.push_str(line.get(drop..).unwrap_or(""));
                *content = true;
                self.args.string_text(&text, sink);
            }
            Mode::Scalar { .. } => {
                self.end_scalar(sink);
                return self.body_line(&line, sink);
            }
            Mode::BodyStart(blanks) => {
                if line.trim().is_empty() {
                    *blanks += 1;
                    return Flow::Continue;
                }
                let blanks = *blanks;
                if scalar_head(&line).is_some() {
                    return self.body_line(&line, sink);
                }
                self.start_raw(blanks, sink);
                if is_fence(&line) {
                    return Flow::Close;
                }
                self.value_line(&line, sink);
            }
            Mode::Header | Mode::AfterKey(_) | Mode::Dashes(..) | Mode::Bracket(..) => {
                if is_opener(&line) {
                    return Flow::Reopen(line.len() + 1);
                }
                if let Some(text) = self.fence_then_text(&line) {
                    return Flow::CloseBefore(text.len() + 1);
                }
                return self.header_line(&line, sink);
            }
        }
        Flow::Continue
    }

    /// The raw body starts, after `blanks` blank lines.
    fn start_raw(&mut self, blanks: usize, sink: &mut Sink) {
        self.args.begin_string("content", sink);
        self.sep = None;
        for _ in 0..blanks {
            self.value_line("", sink);
        }
        self.mode = Mode::Raw;
    }

    /// A column-0 line of a block-scalar body: the fence, the next scalar or a bad line.
    fn body_line(&mut self, line: &str, sink: &mut Sink) -> Flow {
        if is_fence(line) {
            return Flow::Close;
        }
        if let Some(text) = fence_then_text(line) {
            return Flow::CloseBefore(text.len() + 1);
        }
        if let Some((key, keep)) = scalar_head(line) {
            self.args.begin_string(key, sink);
            self.mode = Mode::Scalar {
                keep,
                indent: None,
                newlines: 0,
                content: false,
            };
            return Flow::Continue;
        }
        self.bad_line(line)
    }

    /// [`fence_then_text`] where a header line is expected; not inside a `key: [` list,
    /// whose lines are items.
    fn fence_then_text<'a>(&self, line: &'a str) -> Option<&'a str> {
        if matches!(self.mode, Mode::Bracket(..)) {
            return None;
        }
        fence_then_text(line)
    }

    /// The block closed at a fence that text follows on its line.
    fn close_before_text(&mut self, text: &str, sink: &mut Sink) -> Outcome {
        let outcome = self.close(sink);
        flagged(outcome, "text_after_fence", || {
            format!(
                "^^^{}: text after the closing ^^^ on its line: {}",
                self.name,
                text.trim()
            )
        })
    }

    fn bad_line(&mut self, line: &str) -> Flow {
        self.issue = Some((
            "bad_line",
            format!("^^^{}: line {line:?} is not part of the syntax", self.name),
        ));
        self.mode = Mode::Skip;
        Flow::Continue
    }

    /// Ends a block scalar: `|` keeps one final newline.
    fn end_scalar(&mut self, sink: &mut Sink) {
        if let Mode::Scalar {
            keep: true,
            content: true,
            ..
        } = self.mode
        {
            self.args.string_text("\n", sink);
        }
        self.args.end_string(sink);
    }

    /// The closing fence was read: the call, or the issue that spoils it.
    fn close(&mut self, sink: &mut Sink) -> Outcome {
        let raw = matches!(self.mode, Mode::Raw | Mode::BodyStart(_));
        self.end_pending(sink);
        let arguments = self.args.finish(sink);
        if let Some(issue) = self.issue.take() {
            return Outcome {
                call: None,
                issue: Some(issue),
            };
        }
        if raw && self.content_in_header {
            return Outcome {
                call: None,
                issue: Some((
                    "duplicate_content",
                    format!(
                        "^^^{}: the header sets content and a raw body follows",
                        self.name
                    ),
                )),
            };
        }
        Outcome {
            call: Some((self.name.clone(), arguments, Vec::new())),
            issue: None,
        }
    }

    /// The block ended without its fence: a call flagged `missing_end_marker` when its
    /// header is complete, else `unterminated`.
    fn missing_end(&mut self, sink: &mut Sink) -> Outcome {
        if !matches!(
            self.mode,
            Mode::Header | Mode::AfterKey(_) | Mode::Dashes(..)
        ) {
            return self.unterminated();
        }
        let mut outcome = self.close(sink);
        if outcome.call.is_some() {
            outcome.issue = Some((
                "missing_end_marker",
                format!("no closing ^^^ after ^^^{}", self.name),
            ));
        }
        outcome
    }

    fn unterminated(&self) -> Outcome {
        Outcome {
            call: None,
            issue: Some((
                "unterminated",
                format!("the stream ended inside a caret block: ^^^{}", self.seen),
            )),
        }
    }
}

impl SegmentParser for CaretParser {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let mut i = 0;
        while let Some(rest) = input.get(i..).filter(|r| !r.is_empty()) {
            let (piece, newline) = match rest.find('\n') {
                Some(p) => (&rest[..p], true),
                None => (rest, false),
            };
            self.seen.push_str(piece);
            if let Some(step) = self.piece(piece) {
                return step;
            }
            i += piece.len();
            if newline {
                i += 1;
                self.seen.push('\n');
                match self.line_end(sink) {
                    Flow::Continue => {}
                    Flow::Reject => return Step::Reject,
                    Flow::Reopen(give_back) => {
                        return Step::Done {
                            used: i,
                            give_back,
                            outcome: self.missing_end(sink),
                        }
                    }
                    Flow::Close => {
                        return Step::Done {
                            used: i,
                            give_back: 0,
                            outcome: self.close(sink),
                        }
                    }
                    Flow::CloseBefore(give_back) => {
                        let text = self.seen[self.seen.len() - give_back..].to_string();
                        return Step::Done {
                            used: i,
                            give_back,
                            outcome: self.close_before_text(&text, sink),
                        };
                    }
                }
            }
        }
        Step::NeedMore
    }

    fn cut_at_end(&mut self, sink: &mut Sink) -> Option<(usize, Outcome)> {
        // The stream ends on a closing fence followed by text (no line break after it).
        let header = matches!(
            self.mode,
            Mode::Header | Mode::AfterKey(_) | Mode::Dashes(..) | Mode::Scalar { .. }
        );
        if self.skipping || !header || is_opener(&self.line) {
            return None;
        }
        let text = fence_then_text(&self.line)?.to_string();
        Some((text.len(), self.close_before_text(&text, sink)))
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        let fence = !self.skipping && is_fence(&self.line);
        match self.mode {
            // `^^^` and no name before the end of the stream: the fence opens nothing, its
            // text is text (a name cut off is a block cut off).
            Mode::Name if !opener(&self.line).is_ok_and(|name| !name.is_empty()) => {
                Outcome::default()
            }
            Mode::Name | Mode::Multi(_) | Mode::Bracket(..) => self.unterminated(),
            _ if fence => self.close(sink),
            Mode::Header | Mode::AfterKey(_) | Mode::Dashes(..) => {
                let line = std::mem::take(&mut self.line);
                // A last line that would open a block cannot be given back here: dropped.
                if !is_opener(&line) {
                    if let Flow::Close = self.header_line(&line, sink) {
                        return self.close(sink);
                    }
                }
                self.missing_end(sink)
            }
            _ => self.unterminated(),
        }
    }
}
