//! Unit tests of the readings the repair takes from `json_repair` for text that is ambiguous:
//! an object whose `}` came too early, words before a quoted key, and the closers at the end
//! of a string the input left open.

use super::tests::{fixes, text};
use super::RepairKind;

#[test]
fn an_object_closed_too_early_goes_on() {
    fixes(
        r#"{"id": 7}, "name": "box"}"#,
        r#"{"id": 7, "name": "box"}"#,
        RepairKind::ExtraCloser,
        8,
    );
    // The member after the early `}` may lack its colon or its value, and more may follow.
    assert_eq!(
        text(r#"{"a": 1}, "b" "x", "c": 2}"#),
        r#"{"a": 1, "b": "x", "c": 2}"#
    );
    assert_eq!(text(r#"{"a": 1}, "b": }"#), r#"{"a": 1, "b": ""}"#);
    // Not a member after the comma: values of their own (an array of them), or trailing text.
    assert_eq!(text(r#"{"a": 1}, {"b": 2}"#), r#"[{"a": 1},{"b": 2}]"#);
    assert_eq!(text(r#"{"a": 1}, "just a remark""#), r#"{"a": 1}"#);
    assert_eq!(text(r#"[1], "b": 2}"#), "[1]");
}

#[test]
fn words_before_a_quoted_key_are_dropped() {
    fixes(
        r#"{"a": 1, NOTE "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        RepairKind::UnexpectedCharacter,
        9,
    );
    assert_eq!(
        text(r#"{"a": x, stray words here. "b": y}"#),
        r#"{"a": "x", "b": "y"}"#
    );
    // A word followed by something else than a quoted key is still an unquoted key.
    assert_eq!(text(r#"{a: 1, b "c"}"#), r#"{"a": 1, "b": "c"}"#);
}

#[test]
fn closers_at_the_end_of_an_open_string_close_the_containers() {
    fixes(
        r#"{"tags": ["red]}"#,
        r#"{"tags": ["red"]}"#,
        RepairKind::UnclosedString,
        16,
    );
    assert_eq!(text(r#"{"note": "all done }"#), r#"{"note": "all done" }"#);
    assert_eq!(text("{\"k\": \"v}```"), r#"{"k": "v"}"#);
    // Closers that do not match what is open, or a string holding an opener, keep them.
    assert_eq!(text(r#"{"k": "v]"#), r#"{"k": "v]"}"#);
    assert_eq!(text(r#"{"code": "x = {}"#), r#"{"code": "x = {}"}"#);
    assert_eq!(text(r#"["a", "b"#), r#"["a", "b"]"#);
}
