//! `think`: reasoning blocks, `<think>…</think>` (Qwen3, DeepSeek-R1, GLM, `MiniMax`, Kimi and
//! most open reasoning models) and `<thinking>…</thinking>`, as `reasoning` segments.
//!
//! The block's text streams as it arrives, verbatim (no trimming: reasoning is shown to people,
//! and its exact bytes matter to nobody's arguments). Only a tail that may begin the closing tag
//! is held back. A block still open when the stream ends is reported `unterminated`: its text is
//! kept as reasoning, and nothing after it was lost.
//!
//! A call marker of another enabled syntax that is a tokenizer's special token (`<|…`, `<｜…`,
//! `[TOOL_CALLS]`: tokens no prose holds) also ends the block, before the marker, with a
//! `missing_end_marker` issue: Kimi-K2.5 writes its calls inside a `<think>` it never closes,
//! and reading the block to the end of the stream lost every call after it. Plain-text markers
//! (`<tool_call>`, `{`) do not: reasoning may quote them.

use std::sync::Arc;

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
        make: Box::new(|Opening { marker, breaks, .. }| {
            Box::new(Think {
                close: TAGS.get(marker).map_or(TAGS[0].1, |t| t.1),
                breaks,
                held: String::new(),
            })
        }),
    })
}

/// True for a start marker that is a tokenizer's special token (its leading blanks aside),
/// which ends an open reasoning block: `<|tool_calls_section_begin|>`, `<｜tool▁calls▁begin｜>`,
/// `<｜DSML｜function_calls>`, `[TOOL_CALLS]`.
#[must_use]
pub fn ends_reasoning(marker: &str) -> bool {
    let m = marker.trim_start();
    m.starts_with("<|") || m.starts_with("<｜") || m == "[TOOL_CALLS]"
}

/// One open reasoning block.
struct Think {
    close: &'static str,
    /// The other syntaxes' markers that end the block ([`ends_reasoning`]).
    breaks: Arc<[String]>,
    /// A tail of the text that may begin `close` or one of `breaks`.
    held: String,
}

impl SegmentParser for Think {
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        sink.start(SegmentKind::Reasoning, None, Vec::new());
        let held = self.held.len();
        let mut text = std::mem::take(&mut self.held);
        text.push_str(input);
        let close = memchr::memmem::find(text.as_bytes(), self.close.as_bytes());
        let upto = close.unwrap_or(text.len());
        let cut = self
            .breaks
            .iter()
            .filter_map(|b| {
                memchr::memmem::find(&text.as_bytes()[..upto], b.as_bytes()).map(|k| (k, b))
            })
            .min_by_key(|&(k, _)| k);
        if let Some((k, marker)) = cut {
            sink.text_delta(&text[..k]);
            // The marker may begin in bytes held from earlier feeds: those go back.
            return Step::Done {
                used: k.saturating_sub(held),
                give_back: held.saturating_sub(k),
                outcome: Outcome {
                    call: None,
                    issue: Some((
                        "missing_end_marker",
                        format!("no {} before {marker}", self.close),
                    )),
                },
            };
        }
        if let Some(k) = close {
            sink.text_delta(&text[..k]);
            // `k + close` bytes of held-then-input: the held bytes came from earlier feeds.
            let used = (k + self.close.len()).saturating_sub(held);
            return Step::Done {
                used,
                give_back: 0,
                outcome: Outcome::default(),
            };
        }
        let keep = self
            .breaks
            .iter()
            .map(|b| partial_suffix(&text, b))
            .fold(partial_suffix(&text, self.close), usize::max);
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

/// Length of the longest proper prefix of `tag` that `text` ends with, compared as bytes (a
/// prefix may end inside one of the tag's characters; where it matches, it starts on one of
/// `text`'s character boundaries, since `tag` does).
fn partial_suffix(text: &str, tag: &str) -> usize {
    let (text, tag) = (text.as_bytes(), tag.as_bytes());
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

    #[test]
    fn a_special_token_call_marker_ends_an_unclosed_block() {
        let kimi = "<think>Let me read it.<|tool_calls_section_begin|><|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{\"p\": \"é\"}<|tool_call_end|><|tool_calls_section_end|>after";
        let deepseek = "<think>hmm<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read<｜tool▁sep｜>{\"p\": \"é\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>after";
        for (names, text) in [
            (&[NAME, "kimi_k2"][..], kimi),
            (&[NAME, "deepseek_v31"][..], deepseek),
        ] {
            let whole = chunked(names, &[text]);
            for cut in (1..text.len()).filter(|&c| text.is_char_boundary(c)) {
                assert_eq!(
                    chunked(names, &[&text[..cut], &text[cut..]]),
                    whole,
                    "{cut}"
                );
            }
            let calls: Vec<_> = whole
                .iter()
                .filter_map(|e| match e {
                    Event::SegmentEnd { call: Some(c), .. } => Some(c.name.clone()),
                    _ => None,
                })
                .collect();
            assert_eq!(calls, vec!["read".to_string()], "{names:?}");
            let said: Vec<String> = texts(&whole).into_iter().map(|(_, t)| t).collect();
            assert_eq!(
                said.first().map(String::as_str),
                Some(if names[1] == "kimi_k2" {
                    "Let me read it."
                } else {
                    "hmm"
                })
            );
            assert_eq!(said.last().map(String::as_str), Some("after"));
            assert!(whole.iter().any(|e| matches!(
                e,
                Event::SegmentEnd { call: None, issue: Some(i), .. } if i.kind == "missing_end_marker"
            )));
        }
    }

    #[test]
    fn a_plain_text_call_marker_stays_reasoning() {
        let events = chunked(
            &[NAME, "hermes"],
            &["<think>I could write <tool_call>{\"name\": \"f\"}</tool_call>.</think>ok"],
        );
        assert!(!events
            .iter()
            .any(|e| matches!(e, Event::SegmentEnd { call: Some(_), .. })));
        assert_eq!(texts(&events).last().unwrap().1, "ok");
    }
}
