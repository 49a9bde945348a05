//! Tests of the JSON-block syntaxes (`hermes`, `run_module`, `internlm`): what may follow a
//! call's object inside its block.

use super::json_block::MAX_TRAIL;
use super::token_tests::{calls, invariant, issues, prose};
use serde_json::json;

const A: &str = r#"{"name": "a", "arguments": {}}"#;
const B: &str = r#"{"name": "b", "arguments": {"x": 1}}"#;

#[test]
fn more_objects_in_one_block_are_calls_of_their_own() {
    for sep in ["", ", ", ",", "\n", " ,\n "] {
        let text = format!("Hi <tool_call>{A}{sep}{B} </tool_call> bye");
        let events = invariant(&["hermes"], &text);
        assert_eq!(
            calls(&events),
            vec![("a".into(), json!({})), ("b".into(), json!({"x": 1}))],
            "{text:?}"
        );
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), "Hi  bye", "{text:?}");
    }
    // A comma before the end marker is the block's too.
    let events = invariant(&["hermes"], &format!("<tool_call>{A},</tool_call>x"));
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), "x");
}

#[test]
fn a_broken_second_object_keeps_the_first_call() {
    let text = format!("<tool_call>{A}\n{{\"x\": 1}}</tool_call>");
    let events = invariant(&["hermes"], &text);
    assert_eq!(calls(&events), vec![("a".into(), json!({}))]);
    assert_eq!(issues(&events), vec!["no_name"]);
    assert_eq!(prose(&events), "");
}

#[test]
fn text_before_the_end_marker_is_the_blocks_with_an_issue() {
    for (junk, name) in [(" junk", "hermes"), ("}\n", "hermes"), ("] ", "run_module")] {
        let (start, end) = match name {
            "hermes" => ("<tool_call>", "</tool_call>"),
            _ => ("[RUN_MODULE]", "[/RUN_MODULE]"),
        };
        let text = format!("x {start}{A}{junk}{end} y");
        let events = invariant(&[name], &text);
        assert_eq!(calls(&events), vec![("a".into(), json!({}))], "{text:?}");
        assert_eq!(issues(&events), vec!["trailing_text"], "{text:?}");
        assert_eq!(prose(&events), "x  y", "{text:?}");
    }
}

#[test]
fn without_an_end_marker_soon_the_text_after_the_call_is_prose() {
    // Prose with no end marker, another tag, and a marker past the bound: the end marker is
    // missing and the text after the object stays text.
    let far = format!("{}</tool_call>", "z".repeat(MAX_TRAIL + 1));
    for after in [
        "\nI will wait.".to_string(),
        " see <b>this</b></tool_call>".to_string(),
        format!("\nthen <tool_call>{B}</tool_call>"),
        far,
    ] {
        let text = format!("<tool_call>{A}{after}");
        let events = invariant(&["hermes"], &text);
        assert_eq!(issues(&events)[0], "missing_end_marker", "{text:?}");
        assert_eq!(calls(&events)[0], ("a".into(), json!({})), "{text:?}");
        let expected = after.replace(&format!("<tool_call>{B}</tool_call>"), "");
        assert_eq!(prose(&events), expected, "{text:?}");
    }
}

#[test]
fn a_fence_around_the_object_is_the_blocks() {
    // Small models fence the JSON inside the block; the fences are framing, not text.
    for (names, open, close) in [
        (&["hermes"][..], "```json\n", "\n```\n"),
        (&["hermes"][..], "\n```\n", "\n```"),
        (&["auto"][..], "```json\n", "\n```\n"),
        (&["run_module"][..], "```JSON ", " ``` "),
    ] {
        let (start, end) = match names[0] {
            "run_module" => ("[RUN_MODULE]", "[/RUN_MODULE]"),
            _ => ("<tool_call>", "</tool_call>"),
        };
        let text = format!("x {start}{open}{A}{close}{end} y");
        let events = invariant(names, &text);
        assert_eq!(calls(&events), vec![("a".into(), json!({}))], "{text:?}");
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), "x  y", "{text:?}");
    }
    // Without an opening fence, a closing one is trailing text; a fence that is not one
    // (two backticks, or words after its tag on the line) leaves the marker text.
    let events = invariant(&["hermes"], &format!("<tool_call>{A}\n```</tool_call>"));
    assert_eq!(issues(&events), vec!["trailing_text"]);
    for text in [
        "<tool_call>``json {} </tool_call>",
        "<tool_call>```json see {}</tool_call>",
    ] {
        let events = invariant(&["hermes"], text);
        assert!(calls(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), text, "{text:?}");
    }
}
