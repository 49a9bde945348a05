//! Properties of the engine over every syntax: arbitrary text never panics, and any chunking
//! gives the same canonical events as one shot.

use proptest::prelude::*;
use toolsift_core::stream::events::{canonical, Event};
use toolsift_core::stream::{oneshot, syntaxes, StreamEngine};

/// Pieces that mean something to some syntax, so random texts reach deep parser states.
const PIECES: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    "\\",
    ":",
    ",",
    "\n",
    " ",
    "é",
    "😀",
    "TOOL_CALL",
    "[RUN_MODULE]",
    "[/RUN_MODULE]",
    "<tool name=\"f\">",
    "</tool>",
    "<arg name=\"k\">",
    "</arg>",
    "<tool:f>",
    "</tool:f>",
    "<param:k>",
    "</param:k>",
    "^^^f\n",
    "^^^\n",
    "---\n",
    "k: v\n",
    "[[SEG_START {\"type\":\"tool\",\"tool_name\":\"f\"}]]",
    "[[SEG_END]]",
    "<function_calls>",
    "<invoke name=\"f\">",
    "<parameter name=\"k\">",
    "</parameter>",
    "</invoke>",
    "</function_calls>",
    "<function=f>",
    "<parameter=k>",
    "</function>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.f:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|start|>assistant<|channel|>commentary to=functions.f",
    "<|message|>",
    "<|call|>",
    "<thinking>",
    "</thinking>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<|action_start|>",
    "<|plugin|>",
    "<|action_end|>",
    "<write_file path=\"/a\">",
    "</write_file>",
    "__START_CONTENT__",
    "__END_CONTENT__",
    "true",
    "123",
    // DeepSeek's tokens, one cut short, and characters that share the first byte of theirs
    // (`｜` EF BD 9C, `▁` E2 96 81): a byte-by-byte token match then stops inside a character.
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "<｜tool▁call▁end",
    "<｜tool",
    "\u{FFFD}",
    "！",
    "▂",
];

fn run(name: &str, chunks: &[&str]) -> Vec<Event> {
    let mut engine = StreamEngine::new(vec![syntaxes::by_name(name).expect("syntax")]);
    let mut events = Vec::new();
    for c in chunks {
        events.extend(engine.feed(c));
    }
    events.extend(engine.finish());
    canonical(events)
}

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(PIECES).prop_map(str::to_string),
            1 => "\\PC{0,3}",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_chunking_equals_one_shot_for_every_syntax(text in text_strategy(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let mut points: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).filter(|&p| text.is_char_boundary(p)).collect();
        points.sort_unstable();
        points.dedup();
        let mut chunks = Vec::new();
        let mut prev = 0;
        for p in points.into_iter().chain(std::iter::once(text.len())) {
            chunks.push(&text[prev..p]);
            prev = p;
        }
        for name in syntaxes::names() {
            let whole = run(name, &[&text]);
            prop_assert_eq!(run(name, &chunks), whole, "syntax {}", name);
        }
    }

    /// Hosts slice a call's `raw` out of their own copy of the text by its span.
    #[test]
    fn a_calls_raw_is_the_text_at_its_span(text in text_strategy()) {
        let chars: Vec<char> = text.chars().collect();
        for name in syntaxes::names() {
            let mut engine = StreamEngine::new(vec![syntaxes::by_name(name).expect("syntax")]);
            for call in oneshot::parse_all(&mut engine, &text).ends.into_iter().filter_map(|e| e.call) {
                let at: String = chars[call.start..call.end].iter().collect();
                prop_assert_eq!(at, call.raw, "syntax {}", name);
            }
        }
    }

    /// Hosts slice the content out of their own copy of the text when it is one run of it.
    #[test]
    fn a_content_run_is_the_content(text in text_strategy()) {
        let chars: Vec<char> = text.chars().collect();
        let all: Vec<&str> = syntaxes::names();
        for names in all.iter().map(|n| vec![*n]).chain([all.clone()]) {
            let enabled = names.iter().filter_map(|n| syntaxes::by_name(n)).collect();
            let mut engine = StreamEngine::new(enabled);
            let (content, _) = oneshot::parse_each(&mut engine, &text, Box::new(Vec::new()));
            if let Some((a, b)) = content.run {
                let run: String = chars[a..b].iter().collect();
                prop_assert_eq!(run, content.text, "syntaxes {:?}", names);
            }
        }
    }

    #[test]
    fn all_syntaxes_at_once_never_panic(text in text_strategy()) {
        let all = syntaxes::names().into_iter().filter_map(syntaxes::by_name).collect();
        let mut engine = StreamEngine::new(all);
        for c in text.as_bytes().chunks(5) {
            let _ = engine.feed(&String::from_utf8_lossy(c));
        }
        let _ = engine.finish();
    }
}
