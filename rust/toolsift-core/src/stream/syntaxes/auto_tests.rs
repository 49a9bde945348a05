//! `auto`: shared markers go to the syntax the bytes after them belong to, calls name their
//! syntax, prose-like text stays prose, and chunking never changes the result.

use super::super::events::Event;
use super::super::test_support::{calls, prose};
use super::super::tests::chunked;
use super::auto;
use serde_json::json;

fn run(chunks: &[&str]) -> Vec<Event> {
    chunked(&[auto::NAME], chunks)
}

fn named(events: &[Event]) -> Vec<(&'static str, String)> {
    let mut of = std::collections::HashMap::new();
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::SegmentStart { id, syntax, .. } => {
                of.insert(id.clone(), *syntax);
            }
            Event::SegmentEnd {
                id, call: Some(c), ..
            } => {
                out.push((of.get(id).copied().unwrap_or("?"), c.name.clone()));
            }
            _ => {}
        }
    }
    out
}

fn every_split_same(text: &str) -> Vec<Event> {
    let whole = run(&[text]);
    for cut in (1..text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(run(&[&text[..cut], &text[cut..]]), whole, "cut at {cut}");
    }
    whole
}

#[test]
fn tool_call_tag_goes_to_the_syntax_its_body_is_written_in() {
    let text = concat!(
        "A <tool_call>\n{\"name\": \"h\", \"arguments\": {\"a\": 1}}\n</tool_call>",
        " B <tool_call>[{\"name\": \"g\", \"arguments\": {}}]",
        " C <tool_call>\n<function=q>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>",
        " D <tool_call>glm\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call> E"
    );
    let events = every_split_same(text);
    assert_eq!(
        named(&events),
        vec![
            ("hermes", "h".to_string()),
            ("granite", "g".to_string()),
            ("qwen3_coder", "q".to_string()),
            ("glm45", "glm".to_string()),
        ]
    );
    assert_eq!(calls(&events)[0].1, json!({"a": 1}));
    assert_eq!(calls(&events)[3].1, json!({"k": "v"}));
    assert_eq!(prose(&events), "A  B  C  D  E");
}

#[test]
fn deepseek_v3_and_v31_are_told_apart_even_for_a_tool_named_function() {
    let v3 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let v31 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get<｜tool▁sep｜>{\"a\": 2}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let v31_function = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>{\"a\": 3}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    for (text, syntax, name, args) in [
        (v3, "deepseek_v3", "get", json!({"a": 1})),
        (v31, "deepseek_v31", "get", json!({"a": 2})),
        (v31_function, "deepseek_v31", "function", json!({"a": 3})),
    ] {
        let events = every_split_same(text);
        assert_eq!(named(&events), vec![(syntax, name.to_string())], "{text}");
        assert_eq!(calls(&events)[0].1, args);
    }
}

#[test]
fn reasoning_and_special_token_syntaxes_mix_in_one_reply() {
    let text = concat!(
        "<think>maybe {\"name\": \"x\"}</think>Sure. ",
        "[TOOL_CALLS]a[ARGS]{\"n\": 1}",
        "<|python_tag|>{\"name\": \"b\", \"parameters\": {}}"
    );
    let events = every_split_same(text);
    assert_eq!(
        named(&events),
        vec![
            ("mistral", "a".to_string()),
            ("llama3_json", "b".to_string())
        ]
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::TextDelta { id, text } if &**id == "reasoning_0" && text == "maybe {\"name\": \"x\"}"
    )));
    // Mistral's marker takes the blank before `[TOOL_CALLS]` with it.
    assert_eq!(prose(&events), "Sure.");
}

#[test]
fn prose_that_looks_like_json_or_lists_is_left_alone() {
    let text = "Use {\"name\": \"f\", \"arguments\": {}} or [f(a=1)] — ```json\n{}\n```";
    let events = every_split_same(text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
}

#[test]
fn every_member_is_a_real_syntax() {
    for name in auto::member_names() {
        assert!(super::by_name(name).is_some(), "{name}");
    }
}
