//! A segment parser that picks among syntaxes sharing a start marker by the first bytes after
//! it, then hands the segment to the chosen syntax's own parser.
//!
//! `<tool_call>` opens a Hermes call (`{`), a Granite 3.1 list (`[`), a Qwen3-Coder call
//! (`<function=`) or a GLM call (a bare name); `DeepSeek` V3 and V3.1 share every marker. Auto-
//! detection runs one marker for each such group and lets the bytes decide, instead of taking
//! whichever syntax was listed first. The chosen syntax names the segment (its `SegmentStart`
//! and the calls report it). Bytes are buffered only until the rule decides, and a rule looks
//! at a bounded window, so this adds no per-byte work after the first few bytes.

use super::super::{Opening, Outcome, SegmentParser, Sink, Step};
use super::by_name;

/// Decides which alternative the bytes after the marker (leading ASCII blanks removed) belong
/// to: `Some(index)`, or `None` while more bytes could change the answer. With `at_end` it must
/// decide.
pub type Rule = fn(&[u8], bool) -> Option<usize>;

/// Longest blank-stripped window a rule may ask for; past it, the default (alternative 0) wins.
const WINDOW: usize = 64;

/// The parser; `alts` are `(syntax name, index of the shared marker in that syntax)`.
pub struct Sniffer {
    alts: &'static [(&'static str, usize)],
    rule: Rule,
    /// Bytes seen before the rule decided (handed to the chosen parser first).
    buf: String,
    /// End of the leading blanks in `buf`.
    blanks: usize,
    chosen: Option<Box<dyn SegmentParser>>,
    /// How the segment was opened (the chosen parser is made the same way).
    opening: Opening,
}

impl Sniffer {
    /// A parser choosing among `alts` by `rule`.
    #[must_use]
    pub fn new(alts: &'static [(&'static str, usize)], rule: Rule, opening: Opening) -> Self {
        Self {
            alts,
            rule,
            buf: String::new(),
            blanks: 0,
            chosen: None,
            opening,
        }
    }

    /// Makes the parser of alternative `k` and names the segment after it.
    fn choose(&mut self, k: usize, sink: &mut Sink) -> Option<&mut Box<dyn SegmentParser>> {
        let (name, marker) = self.alts.get(k).or_else(|| self.alts.first())?;
        let syntax = by_name(name)?;
        sink.set_syntax(syntax.name);
        self.chosen = Some((syntax.make)(self.opening.clone().with_marker(*marker)));
        self.chosen.as_mut()
    }

    fn decide(&mut self, at_end: bool) -> Option<usize> {
        let bytes = self.buf.as_bytes();
        while self.blanks < bytes.len() && bytes[self.blanks].is_ascii_whitespace() {
            self.blanks += 1;
        }
        let rest = &bytes[self.blanks..];
        if rest.len() > WINDOW {
            return Some((self.rule)(rest, true).unwrap_or(0));
        }
        (self.rule)(rest, at_end).or(at_end.then_some(0))
    }
}

/// Turns a step over `earlier` buffered bytes followed by this feed's input into a step over
/// the input alone (the engine already holds the buffered bytes in the segment's text).
fn shift(step: Step, earlier: usize) -> Step {
    step.map_counts(|used, give_back| {
        (
            used.saturating_sub(earlier),
            give_back + earlier.saturating_sub(used),
        )
    })
}

impl SegmentParser for Sniffer {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        if let Some(parser) = self.chosen.as_mut() {
            return parser.feed(input, sink);
        }
        let earlier = self.buf.len();
        self.buf.push_str(input);
        let Some(k) = self.decide(false) else {
            return Step::NeedMore;
        };
        let buf = std::mem::take(&mut self.buf);
        match self.choose(k, sink) {
            Some(parser) => shift(parser.feed(&buf, sink), earlier),
            None => Step::Reject,
        }
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        if self.chosen.is_none() {
            let k = self.decide(true).unwrap_or(0);
            let buf = std::mem::take(&mut self.buf);
            let Some(parser) = self.choose(k, sink) else {
                return Outcome::default();
            };
            match parser.feed(&buf, sink) {
                // Only blanks and a cut-off token were buffered, so the chosen parser cannot
                // end its segment inside them and leave bytes unread.
                Step::Done { outcome, .. } | Step::Split { outcome, .. } => return outcome,
                // Not a segment: an empty outcome makes the engine keep its text as prose.
                Step::Reject | Step::RejectAsText { .. } => return Outcome::default(),
                Step::NeedMore => {}
            }
        }
        self.chosen
            .as_mut()
            .map_or_else(Outcome::default, |p| p.finish(sink))
    }

    fn chain(&mut self) -> Option<Box<dyn SegmentParser>> {
        self.chosen.as_mut().and_then(|p| p.chain())
    }

    fn cut_at_end(&mut self, sink: &mut Sink) -> Option<(usize, Outcome)> {
        self.chosen.as_mut()?.cut_at_end(sink)
    }

    fn finish_is_framing(&self) -> bool {
        self.chosen.as_ref().is_some_and(|p| p.finish_is_framing())
    }
}
