//! A one-shot parse: the whole text fed at once, reduced to what a batch caller keeps (the
//! content outside segments and each segment's end). Both `parse` and the batch API use it,
//! so their results cannot differ.

use std::borrow::Cow;

pub use super::content::Content;
use super::content::Pieces;
use super::events::{Call, Event, Issue, SegmentId};
use super::StreamEngine;

/// One segment that ended with a call or an issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    /// The syntax that opened the segment (`text` when unknown).
    pub syntax: &'static str,
    /// The segment id (`call_0`, `reasoning_1`, …), shared with the engine's events.
    pub id: SegmentId,
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
    let lean = parse_lean(engine, text);
    OneShot {
        content: lean.content.unwrap_or_else(|| text.to_owned()),
        ends: lean.ends,
    }
}

/// What [`parse_lean`] keeps: a [`OneShot`] whose content is `None` when it is all of the
/// text (no segment in it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lean {
    /// The text of the text segments, in order, unless it is the whole input (or given as
    /// `content_runs`).
    pub content: Option<String>,
    /// The content as the character ranges of the input it is made of, when
    /// [`parse_lean_runs`] was asked for them and could give them (`content` is then `None`).
    pub content_runs: Option<Vec<(usize, usize)>>,
    /// Segments that ended with a call or an issue, in order.
    pub ends: Vec<End>,
}

/// Like [`parse_all`], without copying the content of a text that holds no segment: most
/// texts of a corpus hold no call, and a host that still has the input (the batch API holds
/// the caller's `str` objects) hands that back instead.
pub fn parse_lean(engine: &mut StreamEngine, text: &str) -> Lean {
    parse_lean_runs(engine, text, None)
}

/// [`parse_lean`], giving the content as character ranges of `text` (`content_runs`) when it
/// is made of `text`'s own characters, at least `runs_from` bytes of them, and is not all of
/// `text`: a host that holds `text` in its own form (the batch API holds the caller's `str`)
/// builds it from those when it is read, where copying it here cost ~1.5% of a sentinel
/// batch's instructions, most of it for content nobody read. `None`: never.
pub fn parse_lean_runs(engine: &mut StreamEngine, text: &str, runs_from: Option<usize>) -> Lean {
    // Runs only for content that is not one run (that one is borrowed, not copied).
    let ((content, content_runs), ends) =
        fold_with(engine, text, Ends::Gathered(Vec::new()), |pieces| {
            let runs = runs_from
                .filter(|_| pieces.pieces() > 1)
                .and_then(|min| pieces.char_runs(min));
            if runs.is_some() {
                return (None, runs);
            }
            match pieces.resolve(text).text {
                Cow::Borrowed(whole) if whole.len() == text.len() => (None, None),
                other => (Some(other.into_owned()), None),
            }
        });
    let ends = match ends {
        Ends::Gathered(ends) => ends,
        Ends::Handed(_) => Vec::new(),
    };
    Lean {
        content,
        content_runs,
        ends,
    }
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
/// and `ends`. A host that turns ends into objects of its own then never holds them all at
/// once: millions of ends gathered first were a large block of fresh memory per parse. The
/// content borrows `text` when it is one run of it (all of it for a text without segments),
/// so the host can hand back its own input instead of a copy.
pub fn parse_each<'t>(
    engine: &mut StreamEngine,
    text: &'t str,
    ends: Box<dyn EndSink>,
) -> (Content<'t>, Box<dyn EndSink>) {
    let (content, ends) = fold(engine, text, Ends::Handed(ends));
    let ends: Box<dyn EndSink> = match ends {
        Ends::Handed(ends) => ends,
        Ends::Gathered(ends) => Box::new(ends),
    };
    (content, ends)
}

/// Runs the one-shot parse of `text`, its ends going to `ends`. The fold is the engine's spare
/// one when it has one: making it (a box and two vectors) was three of the allocations of a
/// short text's parse.
fn fold<'t>(engine: &mut StreamEngine, text: &'t str, ends: Ends) -> (Content<'t>, Ends) {
    fold_with(engine, text, ends, |pieces| pieces.resolve(text))
}

/// [`fold`], the content gathered handed to `finish`, whose answer it returns.
fn fold_with<R>(
    engine: &mut StreamEngine,
    text: &str,
    ends: Ends,
    finish: impl FnOnce(&Pieces) -> R,
) -> (R, Ends) {
    let mut fold = engine.spare_fold.take().unwrap_or_else(|| {
        Box::new(Fold {
            content: Pieces::over(text),
            open: Vec::with_capacity(2),
            ends: Ends::Gathered(Vec::new()),
        })
    });
    fold.content.restart(text);
    fold.open.clear();
    fold.ends = ends;
    engine.sink.fold = Some(fold);
    // Both hand back nothing: their events went to the fold.
    engine.feed(text);
    engine.finish();
    let fold = engine.sink.fold.take();
    engine.reset();
    match fold {
        Some(mut fold) => {
            let content = finish(&fold.content);
            let ends = std::mem::replace(&mut fold.ends, Ends::Gathered(Vec::new()));
            engine.spare_fold = Some(fold);
            (content, ends)
        }
        None => (finish(&Pieces::over(text)), Ends::Gathered(Vec::new())),
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
    content: Pieces,
    /// Open segments and their syntaxes; a segment's start always comes before its end, and
    /// few are open at once.
    open: Vec<(SegmentId, &'static str)>,
    ends: Ends,
}

impl std::fmt::Debug for Fold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fold")
            .field("content", &self.content)
            .finish_non_exhaustive()
    }
}

impl Fold {
    /// Text of a text segment of the engine's own: characters `start..end` of the text.
    pub(crate) fn text_at(&mut self, start: usize, end: usize, text: &str) {
        self.content.push(text, (start, end));
    }

    /// A segment opened: its start always comes before its end, few are open at once.
    pub(crate) fn open(&mut self, id: SegmentId, syntax: &'static str) {
        self.open.push((id, syntax));
    }

    pub(crate) fn take(&mut self, event: Event) {
        match event {
            // Owned text: not a slice of the input, so its character range is never used.
            Event::TextDelta { id, text } if id.starts_with("text_") => {
                self.content.push(&text, (0, 0));
            }
            Event::SegmentStart { id, syntax, .. } => self.open(id, syntax),
            Event::SegmentEnd { id, call, issue } => {
                let syntax = match self.open.iter().rposition(|(open, _)| *open == id) {
                    Some(at) => self.open.swap_remove(at).1,
                    None => "text",
                };
                if call.is_some() || issue.is_some() {
                    let end = End {
                        syntax,
                        id,
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
    fn lean_leaves_out_content_that_is_the_whole_text() {
        let mut e = engine(&["hermes"]);
        let plain = parse_lean(&mut e, "no call here");
        assert_eq!(plain.content, None);
        assert!(plain.ends.is_empty());
        let text = "a<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        let with_call = parse_lean(&mut e, text);
        assert_eq!(with_call.content.as_deref(), Some("a"));
        assert_eq!(with_call.ends, parse_all(&mut e, text).ends);
        assert_eq!(parse_lean(&mut e, "").content, None);
    }

    #[test]
    fn ids_count_from_zero_in_every_text_past_the_kept_ones() {
        // The engine keeps its first ids and hands them out again (see `Sink::made`): every
        // text still numbers from `call_0`, and numbers past the kept ones are made afresh.
        let mut e = engine(&["hermes"]);
        let call = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        let want: Vec<String> = (0..70).map(|n| format!("call_{n}")).collect();
        for calls in [70, 3, 70] {
            let out = parse_all(&mut e, &call.repeat(calls));
            let ids: Vec<&str> = out.ends.iter().map(|end| &*end.id).collect();
            assert_eq!(ids, want[..calls], "{calls} calls");
        }
    }

    #[test]
    fn plain_text_has_no_ends() {
        let mut e = engine(&["hermes", "tool_call_json"]);
        let out = parse_all(&mut e, "just prose, {\"not\": \"a call\"}");
        assert_eq!(out.content, "just prose, {\"not\": \"a call\"}");
        assert!(out.ends.is_empty());
    }

    /// The content of `lean` as text: its own, or its runs of `text`'s characters.
    fn content_of(lean: &Lean, text: &str) -> Option<String> {
        let chars: Vec<char> = text.chars().collect();
        match (&lean.content, &lean.content_runs) {
            (Some(content), None) => Some(content.clone()),
            (None, Some(runs)) => Some(runs.iter().flat_map(|&(a, b)| &chars[a..b]).collect()),
            (None, None) => None,
            (Some(_), Some(_)) => panic!("content given twice"),
        }
    }

    #[test]
    fn lean_gives_content_as_runs_of_the_input_when_asked() {
        let mut e = engine(&["hermes"]);
        let call = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        let text = format!("héllo {call} wörld {call}<tool_call>{{oops");
        let copied = parse_lean(&mut e, &text);
        let runs = parse_lean_runs(&mut e, &text, Some(0));
        assert_eq!(runs.content, None);
        assert_eq!(runs.content_runs.as_ref().map(Vec::len), Some(2));
        assert_eq!(content_of(&runs, &text), copied.content);
        assert_eq!(runs.ends, copied.ends);
        // Shorter than asked: copied as before.
        assert_eq!(parse_lean_runs(&mut e, &text, Some(100)), copied);
        // One run is borrowed, not copied; all of the text is left out either way.
        let one = format!("héllo {call}");
        assert_eq!(
            parse_lean_runs(&mut e, &one, Some(0)),
            parse_lean(&mut e, &one)
        );
        let plain = parse_lean_runs(&mut e, "no call", Some(0));
        assert_eq!((plain.content, plain.content_runs), (None, None));
    }

    proptest::proptest! {
        #[test]
        fn runs_give_the_copied_content(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "é", "prose ", "<tool_call>", "</tool_call>", "{\"name\": \"f\", \"arguments\": {}}",
                    "<tool_", "{", "日本", "\n",
                ]),
                0..16,
            ),
        ) {
            let text: String = pieces.concat();
            let mut e = engine(&["hermes"]);
            let copied = parse_lean(&mut e, &text);
            let runs = parse_lean_runs(&mut e, &text, Some(0));
            proptest::prop_assert_eq!(content_of(&runs, &text), content_of(&copied, &text));
            proptest::prop_assert_eq!(runs.ends, copied.ends);
        }
    }
}
