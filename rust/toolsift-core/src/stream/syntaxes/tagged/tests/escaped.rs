//! Blanks a model wrote as JSON escapes (`\n` as two characters) where the template has them.

use super::{call, check};
use crate::stream::test_support::{calls, issues, prose};

#[test]
fn glm45_escaped_newlines_around_the_name_and_keys() {
    let text = "a <tool_call>lookup\\n<arg_key>path</arg_key>\\n<arg_value>/tmp/x</arg_value>\n<arg_key>depth</arg_key>\\r\\n <arg_value>2</arg_value></tool_call> b";
    let events = check("glm45", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "lookup",
            &serde_json::json!({"path": "/tmp/x", "depth": 2})
        )]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "a  b");
}

#[test]
fn a_backslash_that_escapes_no_blank_still_breaks_the_tag() {
    let text = "<tool_call>f\n<arg_key>k</arg_key>\\x<arg_value>v</arg_value></tool_call><tool_call>g</tool_call>";
    let events = check("glm45", text);
    assert_eq!(calls(&events), vec![call("g", &serde_json::json!({}))]);
    assert_eq!(issues(&events)[0].0, "malformed");
}
