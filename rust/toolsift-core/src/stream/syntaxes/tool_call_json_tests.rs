//! The one-pass read of a whole strict object (`Parser::read_whole`) must give what the
//! bracket scan and `read_call` give when the same object arrives in pieces.

use super::super::super::events::{canonical, Event};
use super::super::super::test_support::{call_names, calls, issue_kinds, issues, prose};
use super::super::super::StreamEngine;
use super::syntax;

fn run(max_chars: usize, chunks: &[&str]) -> Vec<Event> {
    let mut engine = StreamEngine::new(vec![syntax("TOOL_CALL", max_chars)]);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(engine.feed(chunk));
    }
    events.extend(engine.finish());
    canonical(events)
}

/// One shot (the one-pass read) equals every 2-way split and one byte at a time (the
/// bracket scan, since the object never arrives whole).
fn same_however_chunked(max_chars: usize, text: &str) -> Vec<Event> {
    let whole = run(max_chars, &[text]);
    for cut in (1..text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            run(max_chars, &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}: {text}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(run(max_chars, &refs), whole, "per char: {text}");
    whole
}

#[test]
fn a_strict_object_followed_by_text_is_read_in_one_pass_with_the_same_result() {
    let events = same_however_chunked(
        8000,
        "Hi TOOL_CALL: {\"tool\": \"f\", \"args\": {\"q\": \"}{ é\", \"n\": [1, {\"x\": null}]}} bye {",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(calls(&events)[0].0, "f");
    assert_eq!(prose(&events), "Hi  bye {");
}

#[test]
fn fences_stringified_arguments_and_repairs_agree() {
    for text in [
        "TOOL_CALL\n```json\n{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": 1}\"}\n```\nafter",
        "TOOL_CALL: {'name': 'f', 'args': {'a': True,}} and more",
        "TOOL_CALL: {\"name\": \"f\", \"args\": [1]} TOOL_CALL: {\"x\": 1}",
        "TOOL_CALL: {\"name\": \"f\"}{\"name\": \"g\"}",
    ] {
        same_however_chunked(8000, text);
    }
}

#[test]
fn a_fence_holding_only_the_call_belongs_to_it() {
    for (text, left) in [
        ("a\n```json\n{\"tool_name\": \"f\"}\n```\nb", "a\n\nb"),
        (
            "a TOOL_CALL\n```json\n{\"tool_name\": \"f\"}\n``` b",
            "a  b",
        ),
        // Text before the closing fence: the fence stays in the content.
        ("```json\n{\"tool_name\": \"f\"} x\n```", " x\n```"),
    ] {
        let events = same_however_chunked(8000, text);
        assert_eq!(calls(&events).len(), 1, "{text:?}");
        assert_eq!(prose(&events), left, "{text:?}");
    }
}

#[test]
fn objects_and_code_in_prose_stay_text() {
    // Objects without a name key as written are text without being read (`may_hold_key`);
    // with one spelled otherwise (an escape, a concatenation) they are read as before.
    let text = "Code: { if (a) { g({k: i++}); } } and {\"a\": {\"b\": [1, {\"c\": 2}]}} end";
    let events = same_however_chunked(8000, text);
    assert!(calls(&events).is_empty() && issues(&events).is_empty());
    assert_eq!(prose(&events), text);
    for text in [
        "x {\"na\\u006de\": \"f\"} y",
        "x {\"na\" + \"me\": \"f\"} y",
    ] {
        let events = same_however_chunked(8000, text);
        assert_eq!(calls(&events).len(), 1, "{text:?}");
        assert_eq!(prose(&events), "x  y");
    }
}

#[test]
fn the_payload_limit_is_applied_at_the_same_character() {
    let object = "{\"name\": \"f\"}"; // 13 characters
    let text = format!("TOOL_CALL: {object} tail");
    let fits = same_however_chunked(13, &text);
    assert_eq!(calls(&fits).len(), 1);
    let over = same_however_chunked(12, &text);
    assert!(calls(&over).is_empty());
    assert_eq!(issues(&over)[0].0, "too_large");
}

#[test]
fn a_string_that_never_closes_does_not_swallow_the_next_call() {
    // The marker inside the open string is string content, so the value runs on; when the
    // stream ends with it open, the call ends at the next marker and the rest is read again.
    for text in [
        "TOOL_CALL: {\"tool_name\": \"a\", \"parameters\": {\"x\": \"oops}}\nTOOL_CALL: {\"tool_name\": \"b\", \"parameters\": {}}",
        "TOOL_CALL: {\"tool_name\": \"a\", \"parameters\": {\"x\": \"oops}}\nTOOL_CALL: {\"tool_name\": \"b\", \"parameters\": {\"q\": \"z\"}} done",
    ] {
        let events = same_however_chunked(8000, text);
        let got = calls(&events);
        let names: Vec<&str> = got.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, vec!["a", "b"], "{text:?}");
        // `a` is repaired from its own text only (its string closed at the line's end).
        assert_eq!(got[0].1["x"], serde_json::json!("oops}}"), "{text:?}");
        assert!(!got[1].1.to_string().contains("oops"));
    }
    // A marker inside a string that did close stays content of the call cut off.
    let text = "TOOL_CALL: {\"tool_name\": \"a\", \"parameters\": {\"x\": \"see TOOL_CALL: {\\\"tool_name\\\": \\\"b\\\"}\", \"y\": ";
    let events = same_however_chunked(8000, text);
    let got = calls(&events);
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].1["x"],
        serde_json::json!("see TOOL_CALL: {\"tool_name\": \"b\"}")
    );
}

#[test]
fn a_string_closed_by_a_later_call_is_cut_at_the_next_marker() {
    // `b`'s escaped quote closes `a`'s broken string and `b`'s braces balance `a`'s object,
    // which then holds `TOOL_CALL`: `a` ends at that marker (repaired from its own text, with
    // an `unterminated` issue) and `b` and `c` are read again, whole.
    let text = "TOOL_CALL: {\"tool_name\": \"a\", \"parameters\": {\"x\": \"oops}}\nTOOL_CALL: {\"tool_name\": \"b\", \"parameters\": {\"y\": \"\\\"\"}}\nTOOL_CALL: {\"tool_name\": \"c\", \"parameters\": {}}";
    let events = same_however_chunked(8000, text);
    assert_eq!(
        calls(&events),
        vec![
            ("a".to_string(), serde_json::json!({"x": "oops}}"})),
            ("b".to_string(), serde_json::json!({"y": "\""})),
            ("c".to_string(), serde_json::json!({})),
        ]
    );
    let kinds = issue_kinds(&events);
    assert_eq!(kinds, vec!["unterminated"]);
    assert_eq!(prose(&events), "\n");
}

#[test]
fn a_bare_object_with_a_name_and_bad_arguments_is_reported() {
    // With no marker, an object with a name whose arguments are no object is a call gone
    // wrong (`bad_arguments`), as after a marker; an object with no name stays prose, and
    // after a marker a bare object is prose whatever it holds.
    let events = same_however_chunked(8000, "a {\"tool_name\": \"f\", \"arguments\": 123} b");
    assert!(calls(&events).is_empty());
    let kinds = issue_kinds(&events);
    assert_eq!(kinds, vec!["bad_arguments"]);
    assert_eq!(prose(&events), "a  b");
    let text = "a {\"arguments\": 5} b";
    let events = same_however_chunked(8000, text);
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), text);
    let events = same_however_chunked(
        8000,
        "TOOL_CALL {\"tool\": \"a\"} then {\"name\": \"x\", \"arguments\": 5}",
    );
    assert_eq!(calls(&events).len(), 1);
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), " then {\"name\": \"x\", \"arguments\": 5}");
}

#[test]
fn a_list_of_calls_after_the_marker_is_one_segment_per_object() {
    let events = same_however_chunked(
        8000,
        "Go TOOL_CALL: [{\"tool\": \"a\", \"args\": {\"q\": \"],[\"}}, {\"tool\": \"b\"} ,\n{\"name\": \"c\", \"params\": {}},] done",
    );
    let names = call_names(&events);
    assert_eq!(names, vec!["a", "b", "c"]);
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "Go  done");
    // In a fence, with a comma left out; a bad object is reported and its siblings kept.
    let events = same_however_chunked(
        8000,
        "TOOL_CALL\n```json\n[{\"tool\": \"a\"} {\"args\": {}}, {\"tool\": \"b\", \"args\": 5}, {\"tool\": \"c\"}]\n```\nafter",
    );
    let names = call_names(&events);
    assert_eq!(names, vec!["a", "c"]);
    let kinds = issue_kinds(&events);
    assert_eq!(kinds, vec!["no_name", "bad_arguments"]);
    assert_eq!(prose(&events), "\nafter");
}

#[test]
fn a_list_that_breaks_off_or_holds_no_object() {
    // Cut off by the end, or by text: the last call has `missing_end_marker`, the rest is text.
    let events = same_however_chunked(8000, "TOOL_CALL: [{\"tool\": \"a\"}, {\"tool\": \"b\"}");
    let names = call_names(&events);
    assert_eq!(names, vec!["a", "b"]);
    let kinds = issue_kinds(&events);
    assert_eq!(kinds, vec!["missing_end_marker"]);
    let events = same_however_chunked(8000, "TOOL_CALL: [{\"tool\": \"a\"} and so on]");
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), " and so on]");
    // No object first: the marker is an issue and what follows it is text, as before.
    for text in ["TOOL_CALL: [1, 2]", "TOOL_CALL: []"] {
        let events = same_however_chunked(8000, text);
        assert!(calls(&events).is_empty(), "{text}");
        let kinds = issue_kinds(&events);
        assert_eq!(kinds, vec!["no_json_after_marker"], "{text}");
        assert_eq!(prose(&events), &text["TOOL_CALL".len()..], "{text}");
    }
}

#[test]
fn a_list_of_calls_without_a_marker_leaves_no_brackets_behind() {
    // Bare, with a separator left out and a trailing comma; in a fence, which goes with it.
    for (text, names, left) in [
        (
            "Sure. [{\"tool\": \"a\", \"args\": {\"q\": \"[x], {y}\"}}, {\"tool\": \"b\"} {\"name\": \"c\"},] done",
            vec!["a", "b", "c"],
            "Sure.  done",
        ),
        (
            "Plan:\n```json\n[ {\"tool_name\": \"a\"},\n  {\"tool\": \"b\", \"params\": {}} ]\n```\nok",
            vec!["a", "b"],
            "Plan:\n\nok",
        ),
    ] {
        let events = same_however_chunked(8000, text);
        let found = call_names(&events);
        assert_eq!(found, names, "{text:?}");
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), left, "{text:?}");
    }
    // Once the first object is a call, an object after it that is none is reported, and text
    // that breaks the list off ends it (its last call flagged), as after a marker.
    let events = same_however_chunked(
        8000,
        "[{\"tool\": \"a\"}, {\"x\": 1}, {\"tool\": \"b\"}, 5]",
    );
    let found = call_names(&events);
    assert_eq!(found, vec!["a", "b"]);
    let kinds = issue_kinds(&events);
    assert_eq!(kinds, vec!["no_name", "missing_end_marker"]);
    assert_eq!(prose(&events), "5]");
}

#[test]
fn brackets_in_prose_stay_text() {
    // No object first, a first object that is no call, nothing after the `[`: all text, and a
    // call later in the list is still found as a bare object.
    for text in [
        "see [1] and [a, b] and [] and [ ] and [{\"x\": 1}] and [",
        "```\n[1, 2]\n```",
        "[{\"x\": [1]}, {\"y\": 2}]",
    ] {
        let events = same_however_chunked(8000, text);
        assert!(
            calls(&events).is_empty() && issues(&events).is_empty(),
            "{text:?}"
        );
        assert_eq!(prose(&events), text);
    }
    let events = same_however_chunked(8000, "[{\"x\": 1}, {\"tool\": \"b\"}]");
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), "[{\"x\": 1}, ]");
    // After a marker, a list without one is prose, as a bare object is.
    let text = "TOOL_CALL: {\"tool\": \"a\"} then [{\"tool\": \"b\"}]";
    let events = same_however_chunked(8000, text);
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), " then [{\"tool\": \"b\"}]");
}
