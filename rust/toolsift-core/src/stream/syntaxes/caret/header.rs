//! Header lines of a caret block (and the values they leave pending).

use super::lines::{dash_item, is_fence, key_value, multi_head, string_array};
use super::{CaretParser, Flow, Mode};
use crate::stream::Sink;

impl CaretParser {
    /// Ends a pending header value (`key:`, a list) before another line or the fence.
    pub(super) fn end_pending(&mut self, sink: &mut Sink) {
        if let Mode::Scalar { .. } = self.mode {
            self.end_scalar(sink);
            self.mode = Mode::Header;
            return;
        }
        match std::mem::replace(&mut self.mode, Mode::Header) {
            Mode::AfterKey(key) => self.args.string_value(&key, "", sink),
            Mode::Dashes(key, items) | Mode::Bracket(key, items) => {
                self.args.json_value(&key, &string_array(&items), sink);
            }
            Mode::BodyStart(blanks) => {
                self.start_raw(blanks, sink);
                self.args.end_string(sink);
            }
            other => self.mode = other,
        }
    }

    /// One complete header line (or a line after `key:` or inside a list).
    pub(super) fn header_line(&mut self, line: &str, sink: &mut Sink) -> Flow {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if is_fence(line) {
            return Flow::Close;
        }
        match &mut self.mode {
            Mode::AfterKey(key) => {
                if let Some(item) = dash_item(line) {
                    self.mode = Mode::Dashes(std::mem::take(key), vec![item.to_string()]);
                    return Flow::Continue;
                }
            }
            Mode::Dashes(_, items) => {
                if let Some(item) = dash_item(line) {
                    items.push(item.to_string());
                    return Flow::Continue;
                }
            }
            Mode::Bracket(_, items) => {
                if line.trim() != "]" {
                    if !line.trim().is_empty() {
                        items.push(line.trim().to_string());
                    }
                    return Flow::Continue;
                }
                self.end_pending(sink);
                return Flow::Continue;
            }
            _ => {}
        }
        self.end_pending(sink);
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        if line.trim_end() == "---" {
            self.mode = Mode::BodyStart(0);
        } else if let Some(key) = multi_head(line) {
            self.content_in_header |= key == "content";
            self.args.begin_string(key, sink);
            self.sep = None;
            self.mode = Mode::Multi(key.to_string());
        } else if let Some((key, value)) = key_value(line) {
            self.content_in_header |= key == "content";
            match value.trim_end() {
                "[" => self.mode = Mode::Bracket(key.to_string(), Vec::new()),
                "" => self.mode = Mode::AfterKey(key.to_string()),
                _ => self.args.string_value(key, value, sink),
            }
        } else {
            return self.bad_line(line);
        }
        Flow::Continue
    }
}
