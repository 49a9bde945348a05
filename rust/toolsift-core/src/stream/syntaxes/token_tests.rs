//! Tests of the special-token syntaxes (`token_calls`, `json_list`, `harmony`).

use super::super::events::{Event, SegmentKind};
use super::super::test_support::call_ids;
use super::super::tests::{chunked, one_shot};

/// One-shot events, after checking that every two-way split and one char at a time agree.
pub(crate) fn invariant(names: &[&str], text: &str) -> Vec<Event> {
    let whole = one_shot(names, text);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(names, &[&text[..cut], &text[cut..]]),
            whole,
            "{names:?} cut {cut} of {text:?}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(names, &refs), whole, "{names:?} char by char");
    whole
}

pub(crate) fn calls(events: &[Event]) -> Vec<(String, serde_json::Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some((
                c.name.clone(),
                serde_json::from_str(&c.arguments).expect("arguments JSON"),
            )),
            _ => None,
        })
        .collect()
}

pub(crate) fn issues(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { issue: Some(i), .. } => Some(i.kind),
            _ => None,
        })
        .collect()
}

pub(crate) fn prose(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("text_") => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn one(name: &str, args: serde_json::Value) -> (String, serde_json::Value) {
    (name.to_string(), args)
}

const KIMI: &str = "Hi <|tool_calls_section_begin|>\n<|tool_call_begin|>functions.math.factorial:0 <|tool_call_argument_begin|>{\"s\": \"<|tool_call_end|> é\\\" }\"}<|tool_call_end|>\n<|tool_call_begin|>functions.get-weather:1<|tool_call_argument_begin|>{\"city\": \"東京\"}<|tool_call_end|><|tool_calls_section_end|> bye";

#[test]
fn kimi_calls_names_and_values() {
    let events = invariant(&["kimi_k2"], KIMI);
    assert_eq!(
        calls(&events),
        vec![
            one(
                "math.factorial",
                serde_json::json!({"s": "<|tool_call_end|> é\" }"})
            ),
            one("get-weather", serde_json::json!({"city": "東京"})),
        ]
    );
    assert_eq!(prose(&events), "Hi  bye");
    assert!(issues(&events).is_empty());
    // The name is announced at the start and the arguments stream as JSON text.
    assert!(events.iter().any(|e| matches!(e, Event::SegmentStart { kind: SegmentKind::ToolCall, name: Some(n), .. } if n == "math.factorial")));
    assert!(events.iter().any(
        |e| matches!(e, Event::ArgumentsJsonDelta { text, .. } if text == "{\"city\": \"東京\"}")
    ));
}

#[test]
fn kimi_malformed_between_good_and_unterminated() {
    let text = "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": 1}<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>not json<|tool_call_end|><|tool_call_begin|>functions.c:2<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    let events = invariant(&["kimi_k2"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    assert_eq!(issues(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "");

    let events = invariant(
        &["kimi_k2"],
        "x <|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": ",
    );
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events), vec!["unterminated"]);

    let events = invariant(
        &["kimi_k2"],
        "<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": 1} and",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(issues(&events), vec!["missing_end_marker"]);
    assert_eq!(prose(&events), " and");
}

#[test]
fn kimi_id_with_the_prefix_but_no_index_is_an_issue_and_its_siblings_survive() {
    // `functions.NAME:IDX` is the id; `functions.invalid.0` has no `:IDX`, so where the name
    // ends is unknown (vLLM's test_invalid_funcall_id_skipped skips it too).
    let text = "Help. <|tool_calls_section_begin|><|tool_call_begin|>functions.invalid.0 <|tool_call_argument_begin|>{\"city\": \"Beijing\"}<|tool_call_end|><|tool_call_begin|>functions.valid:1 <|tool_call_argument_begin|>{\"city\": \"Shanghai\"}<|tool_call_end|><|tool_call_begin|>functions.also.dotted:2<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    let events = invariant(&["kimi_k2"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["valid", "also.dotted"]);
    assert_eq!(issues(&events), vec!["bad_call_id"]);
    assert_eq!(prose(&events), "Help. ");
    // `functions.f:` (an empty index) is no index either; a bare counter id is still a call.
    for (id, want) in [
        ("functions.f:", 0),
        ("functions.f:x", 0),
        ("call_3", 1),
        ("f:7", 1),
    ] {
        let text = format!(
            "<|tool_calls_section_begin|><|tool_call_begin|>{id}<|tool_call_argument_begin|>{{}}<|tool_call_end|><|tool_calls_section_end|>"
        );
        assert_eq!(calls(&invariant(&["kimi_k2"], &text)).len(), want, "{id}");
    }
}

#[test]
fn a_string_that_never_closes_does_not_swallow_the_calls_after_it() {
    // The end token inside the open string is part of the value, so the value runs on; when
    // the stream ends with it still open, the call ends where the next call's token begins
    // and the rest is read again: the broken call is an issue, its siblings are calls.
    for (syntax, text) in [
        ("kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": \"oops}<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|> after"),
        ("deepseek_v31", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"x\": \"oops}<｜tool▁call▁end｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜> after"),
        ("deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{\"x\": \"oops}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>b\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜> after"),
        ("gpt_oss", "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{\"x\": \"oops}<|call|><|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json<|message|>{}<|call|><|start|>assistant<|channel|>final<|message|> after<|return|>"),
        ("mistral", "[TOOL_CALLS]a[ARGS]{\"x\": \"oops}[TOOL_CALLS]b[ARGS]{} after"),
        ("granite", "<tool_call>[{\"name\": \"a\", \"arguments\": {\"x\": \"oops}}]\n<tool_call>[{\"name\": \"b\", \"arguments\": {}}] after"),
    ] {
        let events = invariant(&[syntax], text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["b"], "{syntax}");
        assert_eq!(issues(&events), vec!["unterminated"], "{syntax}");
        assert_eq!(prose(&events), " after", "{syntax}");
    }
    // A call cut off while its JSON is still good keeps a call token inside a closed string
    // (or inside a string before the one left open): one issue, no call made of the string.
    for tail in ["\"n\": ", "\"n\": \"abc"] {
        let text = format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{{\"doc\": \"the <|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{{}} token\", {tail}");
        let events = invariant(&["kimi_k2"], &text);
        assert!(calls(&events).is_empty(), "{tail}");
        assert_eq!(issues(&events), vec!["unterminated"], "{tail}");
    }
    // The broken string closes at a quote of the next call: the JSON breaks after it, and the
    // next call's token still ends the broken call.
    let text = "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": \"oops}<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{\"y\": \"z\"}<|tool_call_end|><|tool_calls_section_end|>";
    let events = invariant(&["kimi_k2"], text);
    assert_eq!(
        calls(&events),
        vec![one("b", serde_json::json!({"y": "z"}))]
    );
    assert_eq!(issues(&events), vec!["unterminated"]);
    // The broken string closes at a later call's quote and a later value's escaped quote or
    // bracket balances the brackets before the stream ends: the call ends at the end token
    // its arguments ran over, and the calls after it are read again.
    for later in [
        r#"{"city": "\""}"#,
        r#"{"city": "}"}"#,
        r#"{"a": ["]", 1]}"#,
    ] {
        for (syntax, text) in [
            ("kimi_k2", format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{{\"x\": \"oops<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{later}<|tool_call_end|><|tool_calls_section_end|> after")),
            ("deepseek_v31", format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{{\"x\": \"oops<｜tool▁call▁end｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{later}<｜tool▁call▁end｜><｜tool▁calls▁end｜> after")),
            ("gpt_oss", format!("<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{{\"x\": \"oops<|call|><|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json<|message|>{later}<|call|> after")),
        ] {
            let events = invariant(&[syntax], &text);
            let want: serde_json::Value = serde_json::from_str(later).unwrap();
            assert_eq!(calls(&events), vec![one("b", want)], "{syntax} {later}");
            assert_eq!(issues(&events), vec!["unterminated"], "{syntax} {later}");
            assert_eq!(prose(&events), " after", "{syntax} {later}");
        }
    }
    // A string that closes later is one value, end tokens and all.
    let text = "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": \"<|tool_call_end|><|tool_call_begin|>\"}<|tool_call_end|><|tool_calls_section_end|>";
    let events = invariant(&["kimi_k2"], text);
    assert_eq!(
        calls(&events),
        vec![one(
            "a",
            serde_json::json!({"x": "<|tool_call_end|><|tool_call_begin|>"})
        )]
    );
}

#[test]
fn kimi_marker_followed_by_prose_is_text() {
    let text = "the <|tool_calls_section_begin|> token";
    let events = invariant(&["kimi_k2"], text);
    assert_eq!(prose(&events), text);
    let events = invariant(
        &["kimi_k2"],
        "a<|tool_calls_section_begin|><|tool_calls_section_end|>b",
    );
    assert_eq!(prose(&events), "ab");
    assert!(calls(&events).is_empty() && issues(&events).is_empty());
    let text = "the <|tool_calls_section_begin|> token and <|tool_calls_section_end|> too";
    assert_eq!(prose(&invariant(&["kimi_k2"], text)), text);
}

#[test]
fn kimi_text_before_the_first_call_is_not_content() {
    let text = "Reasoning. <|tool_calls_section_begin|> noise <|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"k\": \"v\"}<|tool_call_end|><|tool_calls_section_end|>";
    let events = invariant(&["kimi_k2"], text);
    assert_eq!(
        calls(&events),
        vec![one("f", serde_json::json!({"k": "v"}))]
    );
    assert_eq!(prose(&events), "Reasoning. ");
}

const V3: &str = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Tokyo ```<｜tool▁call▁end｜>\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>fs.read\n```json\n{\"path\": \"/a\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>done";

#[test]
fn deepseek_v3_and_v31_forms() {
    for syntax in ["deepseek_v3", "deepseek_v31"] {
        let events = invariant(&[syntax], V3);
        assert_eq!(
            calls(&events),
            vec![
                one(
                    "get_weather",
                    serde_json::json!({"city": "Tokyo ```<｜tool▁call▁end｜>"})
                ),
                one("fs.read", serde_json::json!({"path": "/a"})),
            ]
        );
        assert_eq!(prose(&events), "done");
        let text = "ok <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>bad<｜tool▁sep｜>{\"a\": <｜tool▁call▁end｜><｜tool▁call▁begin｜>g<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
        let events = invariant(&[syntax], text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        // The object left open inside a value is cut short at the call's end token: reported,
        // never run, and the call after it survives.
        assert_eq!(names, vec!["get_weather", "g"]);
        assert_eq!(issues(&events), vec!["unterminated"]);
    }
}

#[test]
fn mistral_words_before_a_list_of_calls_are_skipped() {
    let text = "[TOOL_CALLS]  junk [{\"name\": \"add\", \"arguments\":{\"a\": 1}}] trail";
    let events = invariant(&["mistral"], text);
    assert_eq!(
        calls(&events),
        vec![one("add", serde_json::json!({"a": 1}))]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), " trail");
    // No list on the line, or not a list of objects: the marker goes, the words stay.
    for (text, left) in [
        ("[TOOL_CALLS] not json at all", "not json at all"),
        (
            "[TOOL_CALLS] see\n[{\"name\": \"x\"}]",
            "see\n[{\"name\": \"x\"}]",
        ),
        ("[TOOL_CALLS] words [1, 2]", "words [1, 2]"),
    ] {
        let events = invariant(&["mistral"], text);
        assert!(calls(&events).is_empty(), "{text:?}");
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), left, "{text:?}");
    }
}

#[test]
fn mistral_old_and_v11_forms() {
    let text = "Sure: [TOOL_CALLS] [{\"name\": \"add\", \"arguments\": {\"s\": \"a], {\\\"b\"}}, 7, {\"name\": \"get.weather\", \"arguments\": {\"city\": \"Zürich \"}}]\nDone";
    let events = invariant(&["mistral"], text);
    assert_eq!(
        calls(&events),
        vec![
            one("add", serde_json::json!({"s": "a], {\"b"})),
            one("get.weather", serde_json::json!({"city": "Zürich "})),
        ]
    );
    assert_eq!(issues(&events), vec!["not_an_object"]);
    assert_eq!(prose(&events), "Sure:\nDone");
    let text = "[TOOL_CALLS]add[ARGS]{\"a\": 1}[TOOL_CALLS]bad[ARGS]{\"a\": [TOOL_CALLS]x}[TOOL_CALLS]mul{\"b\": \"{[TOOL_CALLS]\"} ok";
    let events = invariant(&["mistral"], text);
    assert_eq!(calls(&events)[0], one("add", serde_json::json!({"a": 1})));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SegmentStart { name: Some(n), .. } if n == "add")));
    let text = "[TOOL_CALLS]add[ARGS]{\"a\": 1}[TOOL_CALLS]mul{\"b\": \"{[TOOL_CALLS]\"} ok";
    let events = invariant(&["mistral"], text);
    assert_eq!(
        calls(&events),
        vec![
            one("add", serde_json::json!({"a": 1})),
            one("mul", serde_json::json!({"b": "{[TOOL_CALLS]"})),
        ]
    );
    assert_eq!(prose(&events), " ok");
    // The special token opening no call is dropped, with the blanks around it (vLLM drops
    // it); what follows is text.
    let events = invariant(&["mistral"], "a [TOOL_CALLS] is a token");
    assert_eq!(prose(&events), "ais a token");
    let events = invariant(&["mistral"], "[TOOL_CALLS] not json at all");
    assert_eq!(prose(&events), "not json at all");
    assert!(calls(&events).is_empty() && issues(&events).is_empty());
    // A broken list takes its whole text, to its `]`, as one issue.
    let events = invariant(&["mistral"], "[TOOL_CALLS] [not valid [json] ']'] after");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events), vec!["not_an_object"]);
    assert_eq!(prose(&events), " after");
}

#[test]
fn mistral_unterminated_and_missing_close() {
    let events = invariant(
        &["mistral"],
        "[TOOL_CALLS] [{\"name\": \"a\"}, {\"name\": \"b\", \"arg",
    );
    assert_eq!(calls(&events), vec![one("a", serde_json::json!({}))]);
    assert_eq!(issues(&events), vec!["unterminated"]);
    let events = invariant(&["mistral"], "[TOOL_CALLS] [{\"name\": \"a\"}");
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(issues(&events), vec!["missing_end_marker"]);
}

#[test]
fn granite_and_jamba_arrays() {
    for text in [
        "<|tool_call|>[{\"name\": \"f\", \"arguments\": {\"k\": \"v\"}}, {\"name\": \"g\", \"arguments\": {}}]",
        "<tool_call>[{\"name\": \"f\", \"arguments\": {\"k\": \"v\"}},{\"name\": \"g\"}]",
    ] {
        let events = invariant(&["granite"], text);
        assert_eq!(
            calls(&events),
            vec![
                one("f", serde_json::json!({"k": "v"})),
                one("g", serde_json::json!({}))
            ]
        );
        assert_eq!(prose(&events), "");
    }
}

#[test]
fn granite_20b_function_call_markers() {
    // Granite-20B-FunctionCalling writes one `<function_call>` and one call object per call,
    // on lines of their own; the line break between two calls stays content, as between
    // Hermes blocks. Auto reads them as Granite's too.
    let text = "Let me check.\n<function_call> {\"name\": \"f\", \"arguments\": {\"k\": \"</function_call>\"}}\n<function_call> {\n  \"name\": \"g\",\n  \"arguments\": {}\n} done";
    for names in [&["granite"][..], &["auto"][..]] {
        let events = invariant(names, text);
        assert_eq!(
            calls(&events),
            vec![
                one("f", serde_json::json!({"k": "</function_call>"})),
                one("g", serde_json::json!({}))
            ]
        );
        assert!(issues(&events).is_empty());
        assert_eq!(prose(&events), "Let me check.\n\n done");
    }
    // The tag in prose, with no call object after it, stays text; a bad object is an issue.
    let events = invariant(
        &["granite"],
        "the <function_call> tag, then <function_call> {\"name\": 1}",
    );
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events), vec!["no_name"]);
    assert_eq!(prose(&events), "the <function_call> tag, then ");
}

#[test]
fn granite_and_jamba_lists() {
    let text = "x <tool_calls>[\n  {\"name\": \"f\", \"arguments\": {\"q\": \"</tool_calls>\"}},\n  {\"arguments\": {}},\n  {\"name\": \"g\", \"arguments\": {\"n\": 1}}\n]</tool_calls> y";
    let events = invariant(&["jamba"], text);
    assert_eq!(
        calls(&events),
        vec![
            one("f", serde_json::json!({"q": "</tool_calls>"})),
            one("g", serde_json::json!({"n": 1}))
        ]
    );
    assert_eq!(issues(&events), vec!["no_name"]);
    assert_eq!(prose(&events), "x  y");
    let events = invariant(&["jamba"], "<tool_calls>[{\"name\": \"f\"}] then");
    assert_eq!(issues(&events), vec!["missing_end_marker"]);
    assert_eq!(prose(&events), " then");
    let events = invariant(&["jamba"], "a<tool_calls>[]</tool_calls>b");
    assert_eq!(prose(&events), "ab");
    assert!(calls(&events).is_empty() && issues(&events).is_empty());
}

const HARMONY: &str = "<|channel|>analysis<|message|>Think: a<b, <|en é<|end|><|start|>assistant<|channel|>commentary to=functions.math.add <|constrain|>json<|message|>{\"s\": \"<|call|> ü\"}<|call|><|start|>assistant to=functions.bad<|channel|>commentary json<|message|>oops<|call|><|start|>assistant<|channel|>commentary to=functions.g <|constrain|>json<|message|>{}<|call|><|start|>assistant<|channel|>final<|message|>The answer: 3.<|return|>";

#[test]
fn gpt_oss_channels() {
    let events = invariant(&["gpt_oss"], HARMONY);
    assert_eq!(
        calls(&events),
        vec![
            one("math.add", serde_json::json!({"s": "<|call|> ü"})),
            one("g", serde_json::json!({}))
        ]
    );
    assert_eq!(issues(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "The answer: 3.");
    let reasoning: String = events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("reasoning_") => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, "Think: a<b, <|en é");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::SegmentStart {
            kind: SegmentKind::Reasoning,
            ..
        }
    )));
}

#[test]
fn gpt_oss_other_authors_messages_are_not_content() {
    let text = "<|start|>system<|message|>You are a bot.<|end|><|start|>developer<|message|># Tools\nBe kind.<|end|><|start|>user<|message|>Weather?<|end|><|start|>assistant<|channel|>commentary to=functions.w <|constrain|>json<|message|>{\"c\": \"Tokyo\"}<|call|><|start|>functions.w to=assistant<|channel|>commentary<|message|>{\"t\": 20}<|end|><|start|>assistant<|channel|>final<|message|>It is 20.<|return|>";
    let events = invariant(&["gpt_oss"], text);
    assert_eq!(
        calls(&events),
        vec![one("w", serde_json::json!({"c": "Tokyo"}))]
    );
    assert_eq!(prose(&events), "It is 20.");
    assert!(issues(&events).is_empty());
    // Cut off inside another author's message: nothing of it is content.
    let events = invariant(&["gpt_oss"], "a<|start|>user<|message|>hi");
    assert_eq!(prose(&events), "a");
}

#[test]
fn gpt_oss_unterminated_and_cut_reasoning() {
    let events = invariant(
        &["gpt_oss"],
        "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1",
    );
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events), vec!["unterminated"]);
    let events = invariant(
        &["gpt_oss"],
        "<|start|>assistant<|channel|>commentary to=functions.f<|message|>{\"a\": [1, <|call|><|start|>assistant<|channel|>commentary to=functions.g<|message|>{\"s\": \"<|call|>\"}<|call|>",
    );
    assert_eq!(
        calls(&events),
        vec![one("g", serde_json::json!({"s": "<|call|>"}))]
    );
    assert_eq!(issues(&events), vec!["unterminated"]);
    let events = invariant(
        &["gpt_oss"],
        "<|start|>assistant<|channel|>commentary to=functions.f<|message|>{\"a\": 1} more",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(issues(&events), vec!["missing_end_marker"]);
    assert_eq!(prose(&events), " more");
    let events = invariant(
        &["gpt_oss"],
        "<|channel|>analysis<|message|>hmm<|start|>assistant<|channel|>final<|message|>hi",
    );
    assert_eq!(prose(&events), "hi");
    assert!(issues(&events).is_empty());
    let events = invariant(&["gpt_oss"], "plain <|start|> text<|end|>");
    assert_eq!(prose(&events), "plain <|start|> text");
}

#[test]
fn scalar_elements_are_stepped_over() {
    let text = "<tool_calls>[\"a], {\\\"x\", {\"name\": \"f\"}, 'b]', null, {\"name\": \"g\"}]</tool_calls>";
    let events = invariant(&["jamba"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["f", "g"]);
    assert_eq!(
        issues(&events),
        vec!["not_an_object", "not_an_object", "not_an_object"]
    );
    assert_eq!(prose(&events), "");
}

#[test]
fn deepseek_bad_arguments_between_good_calls() {
    let text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{\"x\": \"é\"}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>b\nnot json<｜tool▁call▁end｜><｜tool▁call▁begin｜>c<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let events = invariant(&["deepseek_v3"], text);
    assert_eq!(
        calls(&events),
        vec![
            one("a", serde_json::json!({"x": "é"})),
            one("c", serde_json::json!({}))
        ]
    );
    assert_eq!(issues(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "");
}

#[test]
fn long_inputs_stay_linear() {
    use std::fmt::Write;
    let mut text = String::from("<tool_calls>[");
    for k in 0..20_000 {
        if k > 0 {
            text.push_str(", ");
        }
        let _ = write!(
            text,
            "{{\"name\": \"f{k}\", \"arguments\": {{\"k\": {k}}}}}"
        );
    }
    text.push_str("]</tool_calls>");
    let started = std::time::Instant::now();
    // 20,000 calls is past the default max_calls; this test is about time, not that limit.
    let mut engine = super::super::tests::engine(&["jamba"]);
    engine.set_limits(super::super::limits::Limits {
        max_calls: 0,
        ..Default::default()
    });
    let mut events = engine.feed(&text);
    events.extend(engine.finish());
    assert_eq!(calls(&events).len(), 20_000);
    let reasoning = format!(
        "<|channel|>analysis<|message|>{}<|end|>",
        "a < b ".repeat(100_000)
    );
    let events = one_shot(&["gpt_oss"], &reasoning);
    assert!(issues(&events).is_empty());
    assert!(started.elapsed().as_secs() < 20);
}

/// Random mixes of every syntax's tokens, brackets, quotes and text: no panic, and every split
/// gives the one-shot events.
#[test]
fn random_token_soup_is_chunk_invariant() {
    const PARTS: &[&str] = &[
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.f:0",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "function",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
        "\n```json\n",
        "```",
        "<|start|>",
        "assistant",
        "<|channel|>",
        "analysis",
        "final",
        " to=functions.g",
        "<|constrain|>json",
        "<|message|>",
        "<|call|>",
        "<|end|>",
        "<|return|>",
        "[TOOL_CALLS]",
        " [TOOL_CALLS]",
        "[ARGS]",
        "<|tool_call|>",
        "<tool_call>",
        "<tool_calls>",
        "</tool_calls>",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "'",
        "\\",
        "\"name\"",
        "\"arguments\"",
        "\"f\"",
        "1",
        " ",
        "\n",
        "é",
        "東",
        "<",
        "|",
        "x",
        "{\"name\": \"f\", \"arguments\": {\"a\": \"<|call|>]\"}}",
        "{\"a\": \"é}\"}",
        "[{\"name\": \"g\"}]",
    ];
    let syntaxes = [
        "kimi_k2",
        "deepseek_v3",
        "deepseek_v31",
        "gpt_oss",
        "mistral",
        "granite",
        "jamba",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut found = 0;
    for round in 0..600 {
        let n = 5 + usize::try_from(next() % 30).unwrap_or(0);
        let text: String = (0..n)
            .map(|_| PARTS[usize::try_from(next()).unwrap_or(0) % PARTS.len()])
            .collect();
        let syntax = syntaxes[round % syntaxes.len()];
        found += calls(&invariant(&[syntax], &text)).len();
    }
    assert!(found > 5, "{found} calls");
}

#[test]
fn an_object_lacking_only_its_brackets_at_the_end_token_is_kept_with_an_issue() {
    let kimi = "Help. <|tool_calls_section_begin|><|tool_call_begin|>functions.bad:0 <|tool_call_argument_begin|>{\"city\": \"Beijing\"<|tool_call_end|><|tool_call_begin|>functions.good:1 <|tool_call_argument_begin|>{\"city\": \"Shanghai\"}<|tool_call_end|><|tool_calls_section_end|>";
    let v31 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": {\"b\": [1, 2]<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let harmony = "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1<|call|>";
    for (syntax, text, want) in [
        (
            "kimi_k2",
            kimi,
            vec![
                one("bad", serde_json::json!({"city": "Beijing"})),
                one("good", serde_json::json!({"city": "Shanghai"})),
            ],
        ),
        (
            "deepseek_v31",
            v31,
            vec![one("f", serde_json::json!({"a": {"b": [1, 2]}}))],
        ),
        (
            "gpt_oss",
            harmony,
            vec![one("f", serde_json::json!({"a": 1}))],
        ),
    ] {
        let events = invariant(&[syntax], text);
        assert_eq!(calls(&events), want, "{syntax}");
        assert_eq!(issues(&events), vec!["unterminated"], "{syntax}");
    }
    // Cut inside a value (a missing value, a list after its comma, a string): an issue only.
    for args in ["{\"a\": ", "{\"a\": [1, ", "{\"a\": \"x", "{\"a\": tr"] {
        let text = format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{args}<|tool_call_end|><|tool_calls_section_end|>");
        let events = invariant(&["kimi_k2"], &text);
        assert!(calls(&events).is_empty(), "{args}");
        assert_eq!(issues(&events), vec!["unterminated"], "{args}");
    }
}

#[test]
fn granite_takes_a_closing_tool_call_tag_when_one_follows() {
    // Granite 3.1 writes no closing tag; a Qwen-style `<tool_call>[...]</tool_call>` (read
    // as Granite under auto) has one, which belongs to the calls, not to the content.
    let text = "Sure.<tool_call>\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"k\": 1}}]\n</tool_call> Done.";
    for names in [&["granite"][..], &["auto"][..]] {
        let events = invariant(names, text);
        let got: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(got, vec!["a", "b"], "{names:?}");
        assert_eq!(prose(&events), "Sure. Done.", "{names:?}");
        assert!(issues(&events).is_empty(), "{names:?}");
    }
    // Without it, the text after the list is content as before, and nothing is reported.
    let events = invariant(
        &["granite"],
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}] then </tool text",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), " then </tool text");
    assert!(issues(&events).is_empty());
}

#[test]
fn kimi_call_ids_are_the_headers() {
    // SYNTAXES.md: the id is `functions.NAME:IDX` (what the reply to the call names). A bare
    // counter is no id; a repeated id, or one shaped like the engine's, is the engine's.
    let call = |head: &str| {
        format!("<|tool_call_begin|>{head}<|tool_call_argument_begin|>{{}}<|tool_call_end|>")
    };
    let text = format!(
        "<|tool_calls_section_begin|>{}{}{}{}{}{}{}<|tool_calls_section_end|>",
        call("functions.get_weather:0"),
        call(" functions.math.factorial:1 "),
        call("0"),
        call("get_news:3"),
        call("functions.get_weather:0"),
        call("call_1:2"),
        call("text_1:7"),
    );
    let events = invariant(&["kimi_k2"], &text);
    assert_eq!(
        call_ids(&events),
        vec![
            "functions.get_weather:0",
            "functions.math.factorial:1",
            "call_2",
            "get_news:3",
            "call_4",
            "call_1:2",
            "call_6",
        ]
    );
    // The segment starts under that id, so streamed arguments carry it.
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentStart { id, .. } if &**id == "functions.math.factorial:1")
    ));
}

#[test]
fn mistral_call_id_token_gives_the_id() {
    let text = "Hi [TOOL_CALLS]f[CALL_ID]abc123456[ARGS]{\"a\": 1}[TOOL_CALLS]g[CALL_ID]Xy9[ARGS] {\"b\": [2]}[TOOL_CALLS]h{\"c\": 3}[TOOL_CALLS]k[CALL_ID]abc123456{}";
    let events = invariant(&["mistral"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["f", "g", "h", "k"]);
    assert_eq!(
        call_ids(&events),
        vec!["abc123456", "Xy9", "call_2", "call_3"]
    );
    assert_eq!(prose(&events), "Hi");
    // `[CALL_ID]` then no arguments: the special token opens no call, as without the id.
    let events = invariant(&["mistral"], "[TOOL_CALLS]f[CALL_ID]abc not json");
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), "f[CALL_ID]abc not json");
}

#[test]
fn mistral_string_that_never_closed_is_cut_at_the_next_marker() {
    // The broken string closes at a later call's quote, whose `}` then balances the broken
    // call's brace: the broken call ends at the next `[TOOL_CALLS]` (an `unterminated`
    // issue), and that call and the ones after it are read again.
    let text =
        "[TOOL_CALLS]a[ARGS]{\"x\": \"oops}[TOOL_CALLS]b[ARGS]{\"y\": \"}\"}[TOOL_CALLS]c[ARGS]{}";
    let events = invariant(&["mistral"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["b", "c"]);
    assert_eq!(calls(&events)[0].1, serde_json::json!({"y": "}"}));
    assert_eq!(issues(&events), vec!["unterminated"]);
    assert_eq!(prose(&events), "");
    // Strict JSON keeps the marker as string content.
    let events = invariant(
        &["mistral"],
        "[TOOL_CALLS]a[ARGS]{\"x\": \"a [TOOL_CALLS] b\"}[TOOL_CALLS]c{}",
    );
    assert_eq!(
        calls(&events),
        vec![
            (
                "a".to_string(),
                serde_json::json!({"x": "a [TOOL_CALLS] b"})
            ),
            ("c".to_string(), serde_json::json!({})),
        ]
    );
}

#[test]
fn a_list_element_whose_string_never_closed_ends_before_the_call_it_ran_into() {
    // Closed by a later element's escaped quote, and cut off by the end of the stream: either
    // way the broken element is an `unterminated` issue and the calls after it are read, in
    // the list syntaxes and in a Hermes block that holds a list.
    let later =
        "{\"name\": \"b\", \"arguments\": {\"y\": \"\\\"\"}}, {\"name\": \"c\", \"arguments\": {}}";
    let open = "{\"name\": \"b\", \"arguments\": {\"y\": 1}}";
    for (name, before, after) in [
        ("granite", "<|tool_call|>[", "]"),
        ("jamba", "<tool_calls>[", "]</tool_calls>"),
        ("mistral", "[TOOL_CALLS] [", "]"),
        ("hermes", "<tool_call>[", "]</tool_call>"),
    ] {
        let broken = "{\"name\": \"a\", \"arguments\": {\"x\": \"oops}}, ";
        let events = invariant(&[name], &format!("{before}{broken}{later}{after} ok"));
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["b", "c"], "{name}");
        assert_eq!(
            calls(&events)[0].1,
            serde_json::json!({"y": "\""}),
            "{name}"
        );
        assert_eq!(issues(&events), vec!["unterminated"], "{name}");
        assert_eq!(prose(&events), " ok", "{name}");
        // The stream ends with the broken string still open.
        let events = invariant(&[name], &format!("{before}{broken}{open}{after}"));
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["b"], "{name}");
        assert_eq!(issues(&events), vec!["unterminated"], "{name}");
    }
    // A list nested in a good call's arguments is not a list of calls.
    let events = invariant(
        &["granite"],
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {\"l\": [{\"x\": 1}, {\"name\": \"n\"}]}}]",
    );
    assert_eq!(calls(&events).len(), 1);
    assert!(issues(&events).is_empty());
}

#[test]
fn a_later_list_element_left_open_to_the_end_ends_at_the_next_start_marker() {
    // The second element lacks its `}`, so it runs to the end of the stream; it is a segment
    // of its own (no marker opens it), and ends at the next block's start marker, whose
    // calls are read.
    let good = "{\"name\": \"f\", \"arguments\": {\"c\": \"D\"}}";
    let open = "{\"name\": \"g\", \"arguments\": {\"c\": \"O\"}";
    let text = format!(
        "<tool_calls>[{good}, {open}]</tool_calls> text <tool_calls>[{good}, {good}]</tool_calls> end"
    );
    let events = invariant(&["jamba"], &text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["f", "f", "f"]);
    assert_eq!(issues(&events), vec!["unterminated"]);
    assert_eq!(prose(&events), " end");
}

#[test]
fn a_list_element_s_own_id_is_its_call_s_id() {
    // Mistral Nemo: `[TOOL_CALLS][{"name", "arguments", "id"}, …]`. The element is announced
    // when it closes, under its id (a repeated one, or one with escapes, is the engine's).
    let text = "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"id\": 1}, \"id\": \"abc123def\"}, {\"id\": \"abc123def\", \"name\": \"g\", \"arguments\": {}}, {\"name\": \"h\", \"arguments\": {}, \"id\": \"x\\\"y\"}, {\"name\": \"k\", \"arguments\": {}, \"id\": \"Z9\"}]";
    let events = invariant(&["mistral"], text);
    assert_eq!(
        call_ids(&events),
        vec!["abc123def", "call_1", "call_2", "Z9"]
    );
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentStart { id, name: Some(n), .. } if &**id == "Z9" && n == "k")
    ));
}

#[test]
fn a_broken_element_or_a_stray_closer_keeps_the_calls_after_it_in_the_list() {
    // A broken element is skipped only to the next `, {` at the list's level (no longer to
    // the list's end), and a closer too many after a good call is skipped like a blank.
    let cases = [
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": \"q\": 1}}, {\"name\": \"c\", \"arguments\": {}}]",
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}, 7 x, {\"name\": \"c\", \"arguments\": {}}]",
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}}, {\"name\": \"c\", \"arguments\": {}}]",
    ];
    for text in cases {
        let events = invariant(&["granite"], text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["a", "c"], "{text}");
        assert_eq!(prose(&events), "", "{text}");
    }
    // Prose after a call that ends the list early stays text, stray closer included.
    let events = invariant(
        &["granite"],
        "<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}} and more",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), "} and more");
}

#[test]
fn a_call_header_over_the_limit_is_text_however_it_is_chunked() {
    // The limit used to be checked only while the separator had not come yet: a long header
    // read in one piece was a call, the same header in pieces text (found by fuzzing).
    let long = "x".repeat(super::lex::MAX_HEADER + 1);
    let text = format!(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.{long}:0<|tool_call_argument_begin|>{{}}<|tool_call_end|><|tool_calls_section_end|>"
    );
    let events = invariant(&["kimi_k2"], &text);
    assert!(calls(&events).is_empty());
    // Just under the limit it is a call.
    let name = "y".repeat(super::lex::MAX_HEADER - "functions.".len() - 2);
    let text = format!(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.{name}:0<|tool_call_argument_begin|>{{}}<|tool_call_end|><|tool_calls_section_end|>"
    );
    assert_eq!(calls(&invariant(&["kimi_k2"], &text)).len(), 1);
}

#[test]
fn a_harmony_header_over_the_limit_is_text_however_it_is_chunked() {
    let pad = " ".repeat(super::lex::MAX_HEADER);
    let text = format!(
        "<|start|>assistant<|channel|>commentary to=functions.a{pad} <|constrain|>json<|message|>{{}}<|call|>"
    );
    assert!(calls(&invariant(&["gpt_oss"], &text)).is_empty());
    let text = "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{}<|call|>";
    assert_eq!(calls(&invariant(&["gpt_oss"], text)).len(), 1);
}
