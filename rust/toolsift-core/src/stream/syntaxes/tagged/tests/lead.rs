//! Blanks a chat template writes before a section belong to the call.

use super::{call, check};
use crate::stream::test_support::{calls, prose};

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
