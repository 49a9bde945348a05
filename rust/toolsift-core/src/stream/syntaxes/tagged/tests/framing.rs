//! Tokens and blanks a chat template writes around a section's invokes belong to the calls.

use super::{call, check};
use crate::stream::test_support::{calls, issues, prose};

const BLOCK: &str = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"ping\">\n<｜DSML｜parameter name=\"host\" string=\"true\">db1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";

#[test]
fn dsml_template_blank_lines_before_the_section_are_not_content() {
    for (before, content) in [
        ("Checking.\n\n", "Checking."),
        ("Checking.\n", "Checking.\n"),
        ("Checking.\n\n\n", "Checking.\n"),
        ("Checking. ", "Checking. "),
        ("\n\n", ""),
    ] {
        let text = format!("{before}{BLOCK}\n\nafter\n\n");
        let events = check("deepseek_dsml", &text);
        assert_eq!(
            calls(&events),
            vec![call("ping", &serde_json::json!({"host": "db1"}))],
            "{before:?}"
        );
        assert_eq!(
            prose(&events),
            format!("{content}\n\nafter\n\n"),
            "{before:?}"
        );
    }
}

#[test]
fn blank_lines_before_prose_that_is_no_section_stay_text() {
    let text = "one\n\ntwo\n\n<｜DSML｜function_calls> is the tag\n\n";
    let events = check("deepseek_dsml", text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
}

#[test]
fn step3_separator_tokens_between_invokes_are_skipped() {
    let one = |n: &str| {
        format!("<｜tool_call_begin｜><steptml:invoke name=\"{n}\"><steptml:parameter name=\"id\">{n}1</steptml:parameter></steptml:invoke><｜tool_call_end｜>")
    };
    let text = format!(
        "go<｜tool_calls_begin｜>{}<｜tool_sep｜>{}\n<｜tool_sep｜><｜tool_sep｜>\n{}<｜tool_calls_end｜>end",
        one("a"),
        one("b"),
        one("c")
    );
    let events = check("step3", &text);
    assert_eq!(
        calls(&events),
        vec![
            call("a", &serde_json::json!({"id": "a1"})),
            call("b", &serde_json::json!({"id": "b1"})),
            call("c", &serde_json::json!({"id": "c1"})),
        ]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "goend");
}
