//! `think`: reasoning blocks, `<think>…</think>` (Qwen3, DeepSeek-R1, GLM, `MiniMax`, Kimi and
//! most open reasoning models) and `<thinking>…</thinking>`, as `reasoning` segments.
//!
//! The block's text streams as it arrives, verbatim (no trimming: reasoning is shown to people,
//! and its exact bytes matter to nobody's arguments). Only a tail that may begin the closing tag
//! is held back. A block still open when the stream ends is reported `unterminated`: its text is
//! kept as reasoning, and nothing after it was lost.

use super::super::events::SegmentKind;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};

/// The syntax's name.
pub const NAME: &str = "think";

/// `(open, close)` tags.
const TAGS: [(&str, &str); 2] = [("<think>", "</think>"), ("<thinking>", "</thinking>")];

/// Names this module runs.
#[must_use]
pub fn names() -> Vec<&'static str> {
    vec![NAME]
}

/// The syntax called `name`, if this module runs it.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    (name == NAME).then(|| Syntax {
        name: NAME,
        markers: TAGS
            .iter()
            .map(|(open, _)| ((*open).to_string(), false, false))
            .collect(),
        make: Box::new(|Opening { marker, .. }| {
            Box::new(Think {
                close: TAGS.get(marker).map_or(TAGS[0].1, |t| t.1),
                held: String::new(),
            })
        }),
    })
}

/// One open reasoning block.
struct Think {
    close: &'static str,
    /// A tail of the text that may begin `close`.
    held: String,
}

impl SegmentParser for Think {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        sink.start(SegmentKind::Reasoning, None, Vec::new());
        let held = self.held.len();
        let mut text = std::mem::take(&mut self.held);
        text.push_str(input);
        if let Some(k) = memchr::memmem::find(text.as_bytes(), self.close.as_bytes()) {
            sink.text_delta(&text[..k]);
            // `k + close` bytes of held-then-input: the held bytes came from earlier feeds.
            let used = (k + self.close.len()).saturating_sub(held);
            return Step::Done {
                used,
                give_back: 0,
                outcome: Outcome::default(),
            };
        }
        let keep = partial_suffix(&text, self.close);
        sink.text_delta(&text[..text.len() - keep]);
        self.held = text[text.len() - keep..].to_string();
        Step::NeedMore
    }

    fn finish(&mut self, sink: &mut Sink) -> Outcome {
        sink.start(SegmentKind::Reasoning, None, Vec::new());
        sink.text_delta(&std::mem::take(&mut self.held));
        Outcome {
            call: None,
            issue: Some((
                "unterminated",
                format!("no {} before the end of the stream", self.close),
            )),
        }
    }
}

/// Length of the longest proper prefix of `tag` that `text` ends with.
fn partial_suffix(text: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| text.ends_with(&tag[..n]))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::super::super::events::Event;
    use super::super::super::tests::chunked;
    use super::*;

    fn run(chunks: &[&str]) -> Vec<Event> {
        chunked(&[NAME], chunks)
    }

    fn texts(events: &[Event]) -> Vec<(String, String)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::TextDelta { id, text } => Some((id.to_string(), text.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn reasoning_then_content_for_any_split() {
        let text = "<think>\nI should call f. a < b </thin k</think>\n\nDone.";
        let whole = run(&[text]);
        assert_eq!(
            texts(&whole),
            vec![
                (
                    "reasoning_0".to_string(),
                    "\nI should call f. a < b </thin k".to_string()
                ),
                ("text_0".to_string(), "\n\nDone.".to_string()),
            ]
        );
        for cut in 1..text.len() {
            if text.is_char_boundary(cut) {
                assert_eq!(run(&[&text[..cut], &text[cut..]]), whole, "cut at {cut}");
            }
        }
    }

    #[test]
    fn thinking_tag_closes_only_on_its_own_tag() {
        let events = run(&["<thinking>x</think>y</thinking>z"]);
        assert_eq!(
            texts(&events),
            vec![
                ("reasoning_0".to_string(), "x</think>y".to_string()),
                ("text_0".to_string(), "z".to_string()),
            ]
        );
    }

    #[test]
    fn unterminated_block_keeps_its_text_and_says_so() {
        let events = run(&["<think>still going </thi"]);
        assert_eq!(
            texts(&events),
            vec![("reasoning_0".to_string(), "still going </thi".to_string())]
        );
        assert!(events.iter().any(|e| matches!(
            e,
            Event::SegmentEnd { issue: Some(i), .. } if i.kind == "unterminated"
        )));
    }
}
