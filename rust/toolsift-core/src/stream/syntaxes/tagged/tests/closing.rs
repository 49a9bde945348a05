//! `qwen3_coder`: a closing tag, exact or drifted, ends a value only when what follows it may
//! follow a parameter.

use super::{call, check};
use crate::stream::test_support::{calls, issues, prose};

#[test]
fn qwen3_drifted_tag_followed_by_value_text_stays_in_the_value() {
    let text = "<tool_call>\n<function=save>\n<parameter=body>\n<list>\n  <li>a</li>\n</parameters>\n</parameter>\n<parameter=n>\n2\n</parameter>\n</function>\n</tool_call>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "save",
            &serde_json::json!({"body": "<list>\n  <li>a</li>\n</parameters>", "n": "2"})
        )]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "");
}

#[test]
fn qwen3_closing_tag_then_another_closing_tag() {
    // The first `</parameter>` is followed by a second one, not by what follows a parameter:
    // it is value text, and the second closes the value.
    let text = "<function=f><parameter=a>p</parameter> </parameter>\n<parameter=b>q</parameter_x> </parameter></function>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "f",
            &serde_json::json!({"a": "p</parameter> ", "b": "q</parameter_x> "})
        )]
    );
    assert!(issues(&events).is_empty());
}

#[test]
fn qwen3_drifted_tag_before_the_next_parameter_still_closes() {
    let text =
        "<function=f><parameter=a>één</parameterr>\n<parameter=b>twee</parameter\n</function>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"a": "één", "b": "twee"}))]
    );
}
