//! A recycled parser (see `SegmentParser::recycle`) reads exactly as a new one: in the same
//! text, in the next text of a batch, and however the text is chunked.

use super::events::Event;
use super::{oneshot, syntaxes, StreamEngine};
use proptest::prelude::*;

/// Pieces of the syntaxes whose parsers recycle, to reach their states at a segment's end (or
/// at its rejection: a parser of a segment that turned out to be text is kept too).
const PIECES: &[&str] = &[
    "[[SEG_START {\"type\": \"tool\", \"tool_name\": \"f\", \"arguments\": {\"a\": 1}}]]",
    "[[SEG_START {\"type\": \"write_file\", \"path\": \"a.py\"}]]",
    "[[SEG_START {\"type\": \"tool\"}]]",
    "[[SEG_START {\"type\": \"text\"}]]",
    "[[SEG_START {'type': 'run_bash'}]]",
    "[[SEG_END]]",
    "<tool name=\"f\">",
    "<tool name=\"write_file\">",
    "<arguments>",
    "</arguments>",
    "<arg name=\"k\">",
    "<arg name=\"content\">",
    "</arg>",
    "<item>",
    "</item>",
    "</tool>",
    "<write_file path=\"/a\">",
    "</write_file>",
    "<run_bash>",
    "</run_bash>",
    "__START_CONTENT__",
    "__END_CONTENT__",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&",
    "{\"name\": \"f\"}",
    "TOOL_CALL: ",
    "TOOL_CALL: [",
    "{\"tool_name\": \"f\", \"parameters\": {\"a\": [1]}}",
    "{\"tool\": \"g\", \"args\": 7}",
    "{'x': 1}",
    "{ if (a) { g({k: i++}); } }",
    "{\"name\": \"f\", \"arguments\": {\"a\": 1}}",
    "{\"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": \"{}\"}}]}",
    "[{\"name\": \"f\", \"parameters\": {}}",
    "<|python_tag|>",
    "; ",
    "[1, 2]",
    "{\"name\": \"f\", \"arguments\": {\"a\": ",
    "\n\n",
    "```json\n",
    "```",
    "}",
    ", ",
    "]",
    "{",
    "\"",
    "\n",
    " ",
    "é",
    "😀",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(PIECES).prop_map(str::to_string),
            1 => "\\PC{0,3}",
        ],
        0..30,
    )
    .prop_map(|parts| parts.concat())
}

fn engine(name: &str, recycling: bool) -> StreamEngine {
    let mut engine = StreamEngine::new(vec![syntaxes::by_name(name).expect("syntax")]);
    engine.recycling = recycling;
    engine
}

fn streamed(engine: &mut StreamEngine, chunks: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for c in chunks {
        events.extend(engine.feed(c));
    }
    events.extend(engine.finish());
    events
}

#[test]
fn a_recycled_parser_keeps_nothing_of_its_last_segment() {
    // The first call leaves a marked raw value, an open list and a held blank behind.
    let text = "<tool name=\"write_file\"><arg name=\"content\">__START_CONTENT__\nx \
                __END_CONTENT__</arg><arg name=\"k\"><item>a</item></arg></tool> \
                <tool name=\"g\"><arg name=\"k\">v</arg></tool>";
    let mut fresh = engine("xml_tool", false);
    let mut recycled = engine("xml_tool", true);
    assert_eq!(
        oneshot::parse_all(&mut recycled, text),
        oneshot::parse_all(&mut fresh, text)
    );
    assert_eq!(oneshot::parse_all(&mut recycled, text).ends.len(), 2);
}

#[test]
fn a_recycled_tool_call_json_parser_keeps_nothing_of_its_last_segment() {
    // A fenced call, a list after the marker, and prose objects, each followed by what the
    // state it leaves behind would read differently (a fence, a comma, a `]`).
    for text in [
        "```json\n{\"tool_name\": \"f\"}\n``` {\"tool_name\": \"g\"}\n```",
        "TOOL_CALL: [{\"tool_name\": \"f\"}] {\"x\": 1}, {\"y\": 2}]",
        "{ if (a) { g({k: i++}); } } TOOL_CALL: {\"tool\": \"h\"}```",
    ] {
        let mut fresh = engine("tool_call_json", false);
        let mut recycled = engine("tool_call_json", true);
        let _ = oneshot::parse_all(&mut recycled, text);
        assert_eq!(
            oneshot::parse_all(&mut recycled, text),
            oneshot::parse_all(&mut fresh, text),
            "{text:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn recycled_parsers_read_as_new_ones(
        first in text(),
        second in text(),
        cut in any::<prop::sample::Index>(),
    ) {
        for name in ["xml_tool", "sentinel", "tool_call_json", "json_openai", "llama3_json", "json_gemini"] {
            let mut fresh = engine(name, false);
            let mut recycled = engine(name, true);
            // The next text of a batch, after parsers were left by the one before.
            let _ = oneshot::parse_all(&mut recycled, &first);
            prop_assert_eq!(
                oneshot::parse_all(&mut recycled, &second),
                oneshot::parse_all(&mut fresh, &second),
                "syntax {}", name
            );
            // A stream, cut anywhere.
            let mut at = cut.index(second.len() + 1);
            while !second.is_char_boundary(at) {
                at -= 1;
            }
            let chunks = [&second[..at], &second[at..]];
            let mut fresh = engine(name, false);
            let mut recycled = engine(name, true);
            prop_assert_eq!(
                streamed(&mut recycled, &chunks),
                streamed(&mut fresh, &chunks),
                "syntax {}", name
            );
        }
    }
}
