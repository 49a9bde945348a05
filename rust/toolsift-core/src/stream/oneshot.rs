//! A one-shot parse: the whole text fed at once, reduced to what a batch caller keeps (the
//! content outside segments and each segment's end). Both `parse` and the batch API use it,
//! so their results cannot differ.

use super::events::{Call, Event, Issue, SegmentId};
use super::StreamEngine;

/// One segment that ended with a call or an issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    /// The syntax that opened the segment (`text` when unknown).
    pub syntax: &'static str,
    /// The segment id (`call_0`, `reasoning_1`, …).
    pub id: String,
    /// The call, when the segment is one.
    pub call: Option<Call>,
    /// The issue, when something went wrong or was odd.
    pub issue: Option<Issue>,
}

/// What a one-shot parse keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OneShot {
    /// The text of the text segments, in order.
    pub content: String,
    /// Segments that ended with a call or an issue, in order.
    pub ends: Vec<End>,
}

/// Feeds all of `text` to `engine`, finishes, and resets the engine for the next text.
///
/// ```
/// use toolsift_core::stream::{oneshot, syntaxes, StreamEngine};
/// let mut engine = StreamEngine::new(vec![syntaxes::by_name("hermes").unwrap()]);
/// let out = oneshot::parse_all(&mut engine, r#"Hi<tool_call>{"name": "f", "arguments": {}}</tool_call>"#);
/// assert_eq!(out.content, "Hi");
/// assert_eq!(out.ends[0].call.as_ref().unwrap().name, "f");
/// ```
pub fn parse_all(engine: &mut StreamEngine, text: &str) -> OneShot {
    match fold(engine, text, Ends::Gathered(Vec::new())) {
        (content, Ends::Gathered(ends)) => OneShot {
            content: content.text,
            ends,
        },
        (content, Ends::Handed(_)) => OneShot {
            content: content.text,
            ends: Vec::new(),
        },
    }
}

/// The content of a one-shot parse, and where it comes from in the text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Content {
    /// The text of the text segments, in order.
    pub text: String,
    /// The character ranges of the parsed text that `text` is made of, in order (adjacent
    /// ones merged); `None` when some of it is not the text's own characters (a syntax's own
    /// text segment may leave its framing out). A host that holds the text in its own form
    /// can then build the content from its slices rather than from `text`.
    pub spans: Option<Vec<(usize, usize)>>,
}

/// Receives the ends of a one-shot parse as the engine makes them.
pub trait EndSink: Send + Sync {
    /// One segment's end with a call or an issue, in order.
    fn end(&mut self, end: End);
}

impl EndSink for Vec<End> {
    fn end(&mut self, end: End) {
        self.push(end);
    }
}

/// Like [`parse_all`], but hands each end to `ends` as soon as it is made; returns the content
/// (with its spans) and `ends`. A host that turns ends into objects of its own then never
/// holds them all at once: millions of ends gathered first were a large block of fresh memory
/// per parse.
pub fn parse_each(
    engine: &mut StreamEngine,
    text: &str,
    ends: Box<dyn EndSink>,
) -> (Content, Box<dyn EndSink>) {
    match fold(engine, text, Ends::Handed(ends)) {
        (content, Ends::Handed(ends)) => (content, ends),
        (content, Ends::Gathered(ends)) => (content, Box::new(ends)),
    }
}

fn fold(engine: &mut StreamEngine, text: &str, ends: Ends) -> (Content, Ends) {
    engine.sink.fold = Some(Box::new(Fold {
        content: Content {
            text: String::new(),
            spans: Some(Vec::new()),
        },
        open: Vec::new(),
        ends,
    }));
    // Both hand back nothing: their events went to the fold.
    engine.feed(text);
    engine.finish();
    let fold = engine.sink.fold.take();
    engine.reset();
    match fold {
        Some(fold) => (fold.content, fold.ends),
        None => (Content::default(), Ends::Gathered(Vec::new())),
    }
}

/// Where a fold's ends go.
enum Ends {
    Gathered(Vec<End>),
    Handed(Box<dyn EndSink>),
}

/// A one-shot result gathered event by event, as the engine makes them (see [`Sink`]).
///
/// [`Sink`]: super::Sink
pub(crate) struct Fold {
    content: Content,
    /// Open segments and their syntaxes; a segment's start always comes before its end, and
    /// few are open at once.
    open: Vec<(SegmentId, &'static str)>,
    ends: Ends,
}

impl std::fmt::Debug for Fold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fold")
            .field("content", &self.content.text.len())
            .finish_non_exhaustive()
    }
}

impl Fold {
    /// Text of a text segment of the engine's own: characters `start..end` of the text.
    pub(crate) fn text_at(&mut self, start: usize, end: usize, text: &str) {
        self.content.text.push_str(text);
        if let Some(spans) = &mut self.content.spans {
            match spans.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => spans.push((start, end)),
            }
        }
    }

    pub(crate) fn take(&mut self, event: Event) {
        match event {
            Event::TextDelta { id, text } if id.starts_with("text_") => {
                self.content.text.push_str(&text);
                self.content.spans = None;
            }
            Event::SegmentStart { id, syntax, .. } => self.open.push((id, syntax)),
            Event::SegmentEnd { id, call, issue } => {
                let syntax = match self.open.iter().rposition(|(open, _)| *open == id) {
                    Some(at) => self.open.swap_remove(at).1,
                    None => "text",
                };
                if call.is_some() || issue.is_some() {
                    let end = End {
                        syntax,
                        id: id.to_string(),
                        call,
                        issue,
                    };
                    match &mut self.ends {
                        Ends::Gathered(ends) => ends.push(end),
                        Ends::Handed(sink) => sink.end(end),
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::syntaxes;

    fn engine(names: &[&str]) -> StreamEngine {
        StreamEngine::new(names.iter().filter_map(|n| syntaxes::by_name(n)).collect())
    }

    #[test]
    fn keeps_content_calls_and_issues_and_resets() {
        let mut e = engine(&["hermes"]);
        let text =
            "a<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": 1}}</tool_call>b<tool_call>{oops";
        let first = parse_all(&mut e, text);
        assert_eq!(first.content, "ab");
        assert_eq!(first.ends.len(), 2);
        assert_eq!(first.ends[0].syntax, "hermes");
        assert_eq!(
            first.ends[0].call.as_ref().map(|c| c.name.as_str()),
            Some("f")
        );
        assert!(first.ends[1].issue.is_some());
        // The engine was reset: the same text gives the same ids and offsets again.
        assert_eq!(parse_all(&mut e, text), first);
    }

    #[test]
    fn plain_text_has_no_ends() {
        let mut e = engine(&["hermes", "tool_call_json"]);
        let out = parse_all(&mut e, "just prose, {\"not\": \"a call\"}");
        assert_eq!(out.content, "just prose, {\"not\": \"a call\"}");
        assert!(out.ends.is_empty());
    }
}
