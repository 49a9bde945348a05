//! The sentinel header: its members read once, and the segment it opens announced.

use std::borrow::Cow;

use super::{Body, SentinelParser, State, ARGS_KEYS, FILE_TYPES, NAME_KEYS};
use crate::stream::events::SegmentKind;
use crate::stream::json_call::{read_call, strict_or_repaired};
use crate::stream::Sink;
use crate::strict_json::{JsonEvent, StrictReader};

/// A header member: `(key, value, is_string)`.
type Member<'a> = (Cow<'a, str>, Cow<'a, str>, bool);

/// The top-level members of a JSON object: `(key, value, is_string)`, string values decoded
/// and other values as JSON text; borrowed from `json` where they can be.
fn members(json: &str) -> Option<Vec<Member<'_>>> {
    let mut reader = StrictReader::new(json);
    if !matches!(reader.next_event(), Ok(Some(JsonEvent::StartObject))) {
        return None;
    }
    let mut out = Vec::new();
    while let Some(event) = reader.next_event().ok()? {
        let JsonEvent::Key(key) = event else { continue };
        let start = reader.position();
        let value = reader.next_event().ok()??;
        if matches!(value, JsonEvent::StartObject | JsonEvent::StartArray) {
            // Only where a nested value ends is wanted, not its events.
            reader.skip_to_depth(1).ok()?;
        }
        match value {
            JsonEvent::String(s) => out.push((key, s, true)),
            _ => out.push((
                key,
                Cow::Borrowed(json.get(start..reader.position())?.trim()),
                false,
            )),
        }
    }
    Some(out)
}

impl SentinelParser {
    /// Reads the complete header and announces the segment; `None` if it is not valid.
    pub(super) fn open(&mut self, sink: &mut Sink) -> Option<()> {
        // A header that is strict JSON as written (the usual case) is read once: reading its
        // members checks what `is_strict_json` checks, but for a lone surrogate escape, which
        // reading takes (as U+FFFD) and validation refuses, so such headers take the long way.
        let as_written = if self.header.contains("\\u") {
            None
        } else {
            members(&self.header)
        };
        let repaired = match as_written {
            Some(_) => None,
            None => Some(strict_or_repaired(&self.header).ok()?.0),
        };
        let members = match (as_written, &repaired) {
            (Some(members), _) => members,
            (None, Some(json)) => members(json)?,
            (None, None) => return None,
        };
        let json: &str = repaired.as_deref().unwrap_or(&self.header);
        let kind = members
            .iter()
            .find(|(k, _, s)| k == "type" && *s)
            .map(|m| m.1.as_ref())?;
        let body = match kind {
            "text" => Body::Text,
            "tool" | "tool_call" => Body::Tool,
            _ => FILE_TYPES
                .iter()
                .find(|t| t.0 == kind)
                .map(|t| Body::File(t.0, t.1))?,
        };
        let path = members
            .iter()
            .find(|m| m.0 == "path" && m.2)
            .map(|m| m.1.as_ref());
        // A one-shot parse never sees a segment's metadata: it is not copied out for one.
        let metadata: Vec<(String, String)> = if sink.one_shot() {
            Vec::new()
        } else {
            members
                .iter()
                .filter(|m| m.0 != "type")
                .map(|m| (m.0.to_string(), m.1.to_string()))
                .collect()
        };
        match body {
            Body::Text => sink.start(SegmentKind::Text, None, metadata),
            Body::Tool => {
                self.header_call = read_call(json, NAME_KEYS, ARGS_KEYS).ok();
                let name = self.header_call.as_ref().map(|c| c.0.clone());
                sink.start(SegmentKind::ToolCall, name, metadata);
            }
            Body::File(name, key) => {
                let seg = FILE_TYPES.iter().find(|t| t.0 == name).map(|t| t.2);
                sink.start(
                    seg.unwrap_or(SegmentKind::ToolCall),
                    Some(name.to_string()),
                    metadata,
                );
                // A command has no path (a header's `path` stays metadata).
                if key != "command" {
                    if let Some(path) = path {
                        self.args.string_value("path", path, sink);
                    }
                }
                self.args.begin_string(key, sink);
            }
        }
        if let Some(json) = repaired {
            self.header = json;
        }
        self.state = State::Body(body);
        Some(())
    }
}
