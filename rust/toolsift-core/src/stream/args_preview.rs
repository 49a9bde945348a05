//! Live previews of an arguments object that arrives in fragments outside any text syntax: the
//! `arguments` strings of provider-native tool calls (`OpenAI` `delta.tool_calls[i]`, `Anthropic`
//! `input_json_delta`). The same tokenizer as the text syntaxes decodes the string members, so
//! a consumer sees the same `ArgumentDelta`s whichever way the call arrived.
//!
//! ```
//! use toolsift_core::stream::args_preview::ArgsPreview;
//! let mut p = ArgsPreview::new();
//! // An escape split across fragments is decoded once it is complete.
//! assert_eq!(p.feed(r#"{"path": "a.py", "content": "line\"#), vec![
//!     ("path".to_string(), "a.py".to_string()),
//!     ("content".to_string(), "line".to_string()),
//! ]);
//! assert_eq!(p.feed(r#"n2"}"#), vec![("content".to_string(), "\n2".to_string())]);
//! ```

use super::events::{Event, SegmentKind};
use super::json_args::JsonArgsStream;
use super::Sink;

/// Decodes the string members of one arguments object as its JSON text streams in.
#[derive(Debug)]
pub struct ArgsPreview {
    json: JsonArgsStream,
    sink: Sink,
}

impl Default for ArgsPreview {
    fn default() -> Self {
        Self::new()
    }
}

impl ArgsPreview {
    /// A preview of a fresh arguments object.
    #[must_use]
    pub fn new() -> Self {
        let mut sink = Sink::default();
        sink.start(SegmentKind::ToolCall, None, Vec::new());
        let mut json = JsonArgsStream::new(&["name"], &["arguments"]);
        // The fragments are the value of an `arguments` member: open the object around them.
        json.feed("{\"arguments\":", &mut sink);
        sink.events.clear();
        Self { json, sink }
    }

    /// Feeds the next fragment of the arguments' JSON text; returns `(key, decoded text)` for
    /// each string member it advanced. Input that is not strict JSON stops the preview.
    pub fn feed(&mut self, fragment: &str) -> Vec<(String, String)> {
        self.json.feed(fragment, &mut self.sink);
        self.sink
            .events
            .drain(..)
            .filter_map(|e| match e {
                Event::ArgumentDelta { key, text, .. } => Some((key, text)),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::ArgsPreview;

    #[test]
    fn escapes_split_across_fragments_decode_once() {
        let mut p = ArgsPreview::new();
        let mut got = String::new();
        for part in ["{\"s\": \"a\\", "u00e9", "\\ud83d", "\\ude00b\"}"] {
            for (_, text) in p.feed(part) {
                got.push_str(&text);
            }
        }
        assert_eq!(got, "a\u{e9}\u{1f600}b");
    }

    #[test]
    fn non_json_stops_without_panicking() {
        let mut p = ArgsPreview::new();
        let _ = p.feed("{'a': 'b'");
        assert!(p.feed("}}}]]]\"\"").iter().all(|(k, _)| k.len() < 10));
    }
}
