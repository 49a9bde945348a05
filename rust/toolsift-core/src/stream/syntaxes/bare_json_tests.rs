use crate::stream::events::Event;
use crate::stream::test_support::call_ids;
use crate::stream::tests::{chunked, one_shot};

fn calls(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some((c.name.clone(), c.arguments.clone())),
            _ => None,
        })
        .collect()
}

fn prose(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("text_") => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn every_split(names: &[&str], text: &str) -> Vec<Event> {
    every_split_known(names, &[], text)
}

fn pair(n: &str, a: &str) -> (String, String) {
    (n.to_string(), a.to_string())
}

#[test]
fn openai_every_call_of_a_multi_call_object() {
    let text = "Calling: {\"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"a.b\", \"arguments\": \"{\\\"q\\\": \\\"}{ [x]\\\"}\"}}, {\"function\": {\"name\": \"g-h\", \"arguments\": {\"k\": \"é ü\"}}}]} ok";
    let events = every_split(&["json_openai"], text);
    assert_eq!(
        calls(&events),
        vec![
            pair("a.b", r#"{"q": "}{ [x]"}"#),
            pair("g-h", r#"{"k": "é ü"}"#)
        ]
    );
    assert_eq!(prose(&events), "Calling:  ok");
}

#[test]
fn values_without_a_call_key_are_text_and_spelled_keys_still_read() {
    // No `name` or `tool` as written: text without a read for calls (`CALL_KEY_PARTS`).
    let text = "x {\"a\": {\"b\": [1, {\"c\": 2}]}} y [{\"d\": null}] z";
    for syntax in [
        "json_openai",
        "json_gemini",
        "json_default",
        "llama3_json",
        "xlam",
    ] {
        let events = every_split(&[syntax], text);
        assert!(calls(&events).is_empty(), "{syntax}");
        assert_eq!(prose(&events), text, "{syntax}");
    }
    // A name key spelled with an escape is still a call.
    let events = every_split(
        &["json_openai"],
        "x {\"na\\u006de\": \"f\", \"arguments\": {}} y",
    );
    assert_eq!(calls(&events), vec![pair("f", "{}")]);
}

#[test]
fn prose_json_and_brackets_are_text() {
    for (syntax, text) in [
        (
            "json_gemini",
            "See {\"name\": \"Ann\", \"age\": 3} and [1, 2] {x} { \"a\" b }",
        ),
        ("json_openai", "a {\"parameters\": {}} b [{\"x\": 1}] {{ }}"),
        (
            "llama3_json",
            "{\"parameters\": {}} then {\"name\": \"Ann\"}",
        ),
        ("xlam", "[TOOL_CALLS, x] [] [see above] ```json\nnope```"),
    ] {
        let events = every_split(&[syntax], text);
        assert!(calls(&events).is_empty(), "{syntax}: {text}");
        assert_eq!(prose(&events), text, "{syntax}");
    }
}

#[test]
fn gemini_default_and_llama3_shapes() {
    let events = every_split(
        &["json_gemini"],
        "[{\"name\": \"s\", \"args\": {\"q\": 1}}, {\"name\": \"t\", \"args\": null}]",
    );
    assert_eq!(
        calls(&events),
        vec![pair("s", r#"{"q": 1}"#), pair("t", "{}")]
    );
    let events = every_split(
        &["json_default"],
        "x {\"tool\": {\"function\": {\"name\": \"w\"}, \"arguments\": {\"p\": \"a\"}}} y",
    );
    assert_eq!(calls(&events), vec![pair("w", r#"{"p": "a"}"#)]);
    let text = "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"arguments\": {\"s\": \"; {\"}}; done";
    let events = every_split(&["llama3_json"], text);
    assert_eq!(
        calls(&events),
        vec![pair("a", "{}"), pair("b", r#"{"s": "; {"}"#)]
    );
    assert_eq!(prose(&events), "; done");
}

#[test]
fn xlam_fence_and_tool_calls_prefix() {
    let text = "Sure.\n```json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n```\nBye [TOOL_CALLS][{'name': 'g', 'arguments': {'b': True,}}]";
    let events = every_split(&["xlam"], text);
    assert_eq!(
        calls(&events),
        vec![pair("f", r#"{"a": 1}"#), pair("g", r#"{"b": true}"#)]
    );
    assert_eq!(prose(&events), "Sure.\nBye ");
}

#[test]
fn xlam_list_in_tool_call_tags() {
    let text = "Checking.<tool_call>\n[{\"name\": \"f\", \"arguments\": {\"a\": \"</tool_call>\"}}]\n</tool_call> then <tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call><tool_call>prose</tool_call>";
    let events = every_split(&["xlam"], text);
    assert_eq!(
        calls(&events),
        vec![pair("f", r#"{"a": "</tool_call>"}"#), pair("g", "{}")]
    );
    assert_eq!(
        prose(&events),
        "Checking. then <tool_call>prose</tool_call>"
    );
}

#[test]
fn malformed_call_between_two_good_ones() {
    let text = "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": [1]}, {\"name\": \"c\", \"arguments\": {}}]";
    let events = every_split(&["xlam"], text);
    assert_eq!(calls(&events), vec![pair("a", "{}"), pair("c", "{}")]);
    assert!(events.iter().any(|e| matches!(e, Event::SegmentEnd { call: None, issue: Some(i), .. } if i.kind == "bad_arguments")));
    let text = "{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"x\": }; {\"name\": \"c\", \"parameters\": {}}";
    let events = every_split(&["llama3_json"], text);
    assert_eq!(calls(&events), vec![pair("a", "{}"), pair("c", "{}")]);
}

#[test]
fn unterminated_at_end() {
    let events = every_split(
        &["json_gemini"],
        "go {\"name\": \"f\", \"args\": {\"q\": \"ab",
    );
    assert!(calls(&events).is_empty());
    assert!(events.iter().any(|e| matches!(e, Event::SegmentEnd { issue: Some(i), .. } if i.kind == "unterminated" && i.message.contains("\"ab"))));
    // Without a call's keys, a partial object is prose.
    let events = every_split(&["json_gemini"], "go {\"name\": \"Ann\", \"age");
    assert_eq!(prose(&events), "go {\"name\": \"Ann\", \"age");
}

#[test]
fn deep_nesting_is_linear_and_safe() {
    let text = format!("{}{}", "{\"a\": ".repeat(20_000), "[");
    let events = one_shot(&["json_openai"], &text);
    assert_eq!(prose(&events), text);
    let text = "{[".repeat(20_000);
    assert_eq!(prose(&one_shot(&["xlam"], &text)), text);
}

/// The conformance cases of this family and `pythonic`: prose must be their
/// `expected_content` when they give one (the Rust harness checks only calls).
#[test]
fn conformance_cases_keep_their_expected_content() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/conformance/"
    );
    let mut checked = 0;
    for file in ["design_doc_projects.jsonl", "open_models.jsonl"] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let syntax = case["syntax"].as_str().unwrap_or_default();
            let mine = super::names().contains(&syntax) || syntax == "pythonic";
            let (true, Some(want)) = (mine, case["expected_content"].as_str()) else {
                continue;
            };
            let got = prose(&one_shot(&[syntax], case["text"].as_str().unwrap()));
            assert_eq!(got, want, "{}", case["id"]);
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// Random texts built from the syntaxes' own pieces: no panic, and any chunking gives the
/// one-shot events.
#[test]
fn random_texts_are_chunking_invariant() {
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        "\"",
        "'",
        "\\",
        ":",
        ",",
        " ",
        "\"name\"",
        "\"args\"",
        "\"arguments\"",
        "\"parameters\"",
        "\"tool_calls\"",
        "\"tool\"",
        "\"function\"",
        "\"f\"",
        "f(",
        "a=",
        ")",
        "1",
        "True",
        "None",
        "<|python_start|>",
        "<|python_end|>",
        "<|python_tag|>",
        "```json",
        "```",
        "\n",
        ";",
        "é",
        "[TOOL_CALLS]",
        "{\"name\": \"f\", \"arguments\": {}}",
        "[g(x='y')]",
        "\\u00e9",
        "'a'",
        // An announced call, then what breaks its JSON (read on to its balanced end).
        "{\"name\": \"f\", \"parameters\": {",
        "{\"name\": \"f\", \"arguments\": ",
        "oops",
        "\n\n",
        "{{",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % (n as u64)).unwrap_or(0)
    };
    let syntaxes = [
        "json_openai",
        "json_gemini",
        "json_default",
        "llama3_json",
        "xlam",
        "pythonic",
    ];
    for round in 0..1500 {
        let len = 1 + next(14);
        let text: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        let syntax = syntaxes[round % syntaxes.len()];
        let whole = one_shot(&[syntax], &text);
        // Text and segment spans cover the input exactly.
        let covered: usize = whole
            .iter()
            .map(|e| match e {
                Event::TextDelta { id, text } if id.starts_with("text_") => text.chars().count(),
                Event::SegmentEnd { call: Some(c), .. } => c.end - c.start,
                Event::SegmentEnd {
                    call: None,
                    issue: Some(i),
                    ..
                } => i.end - i.start,
                _ => 0,
            })
            .sum();
        assert_eq!(covered, text.chars().count(), "{syntax} {text:?}");
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(chunked(&[syntax], &refs), whole, "{syntax} {text:?}");
        for _ in 0..4 {
            let mut cut = next(text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            assert_eq!(
                chunked(&[syntax], &[&text[..cut], &text[cut..]]),
                whole,
                "{syntax} {text:?} cut {cut}"
            );
        }
    }
}

#[test]
fn list_elements_are_segments_of_their_own() {
    let text = "[{\"name\": \"a\", \"args\": {}}, {\"name\": \"b\", \"args\": {\"k\": \"]\"}}] x";
    let events = every_split(&["json_gemini"], text);
    let raws: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some(c.raw.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        raws,
        vec![
            "[{\"name\": \"a\", \"args\": {}}, ",
            "{\"name\": \"b\", \"args\": {\"k\": \"]\"}}]"
        ]
    );
    // Cut off: the complete call stays, flagged; a partial element is an issue.
    let events = every_split(
        &["xlam"],
        "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\"",
    );
    assert_eq!(calls(&events), vec![pair("a", "{}")]);
    let events = every_split(&["xlam"], "[{\"name\": \"a\", \"arguments\": {}} oops");
    assert_eq!(calls(&events), vec![pair("a", "{}")]);
    assert_eq!(prose(&events), "oops");
}

#[test]
fn a_call_is_announced_once_its_name_and_arguments_key_are_known() {
    let mut e = crate::stream::tests::engine(&["llama3_json"]);
    let early = e.feed("ok {\"name\": \"f\", \"parameters\": {\"a\": \"long");
    assert!(early
        .iter()
        .any(|ev| matches!(ev, Event::SegmentStart { name: Some(n), .. } if n == "f")));
    let mut e = crate::stream::tests::engine(&["json_gemini"]);
    let early = e.feed("{\"name\": \"Ann\", \"age\": 3, \"city\": \"P");
    assert!(!early
        .iter()
        .any(|ev| matches!(ev, Event::SegmentStart { .. })));
    // Announced, then broken: read to its closing brace and repaired as a whole.
    let events = every_split(
        &["llama3_json"],
        "{\"name\": \"f\", \"parameters\": {\"a\": 1} oops} x",
    );
    assert_eq!(calls(&events), vec![pair("f", r#"{"a": 1}"#)]);
    assert_eq!(prose(&events), " x");
}

fn issue_kinds(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { issue: Some(i), .. } => Some(i.kind),
            _ => None,
        })
        .collect()
}

#[test]
fn an_announced_call_that_breaks_off_is_repaired_whole() {
    for (syntax, text, call, rest) in [
        (
            "llama3_json",
            "Sure. {\"name\": \"f\", \"parameters\": {\"q\": \"say \"hi\" now\"}} tail",
            pair("f", r#"{"q": "say \"hi\" now"}"#),
            "Sure.  tail",
        ),
        (
            "json_openai",
            "{\"name\": \"f\", \"arguments\": {\"a\": 1 \"b\": [2, {\"c\": \"}\"}]}}\n\nThen",
            pair("f", r#"{"a": 1, "b": [2, {"c": "}"}]}"#),
            "\n\nThen",
        ),
        (
            "llama3_json",
            "<|python_tag|>{\"name\": \"f\", \"parameters\": {a: 1}}",
            pair("f", r#"{"a": 1}"#),
            "",
        ),
        (
            "json_gemini",
            "go {\"name\": \"f\", \"args\": {\"a\": True, 'b': x y}} ok",
            pair("f", r#"{"a": true, "b": "x y"}"#),
            "go  ok",
        ),
    ] {
        let events = every_split(&[syntax], text);
        assert_eq!(calls(&events), vec![call], "{syntax}: {text}");
        assert_eq!(prose(&events), rest, "{syntax}: {text}");
        assert!(issue_kinds(&events).is_empty(), "{syntax}: {text}");
    }
}

#[test]
fn a_broken_call_stops_before_its_siblings_and_the_next_paragraph() {
    // Never closed: the stream's end, a blank line, or a value on the object's own level
    // ends it, with an issue over all of it; nothing of it reaches the text.
    let events = every_split(
        &["llama3_json"],
        "{\"name\": \"invalidTool\", \"parameters\": {invalid json}",
    );
    assert!(calls(&events).is_empty());
    assert_eq!(issue_kinds(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "");
    let text = "x {\"name\": \"f\", \"parameters\": {\"q\": \"it\"s\"}}  \n \nNext {\"name\": \"g\", \"parameters\": {}}";
    let events = every_split(&["llama3_json"], text);
    assert_eq!(calls(&events), vec![pair("g", "{}")]);
    assert_eq!(issue_kinds(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "x \n \nNext ");
    let text =
        "{\"name\": \"f\", \"parameters\": {\"a\": 1} 2 [{\"name\": \"g\", \"parameters\": {}}";
    let events = every_split(&["llama3_json"], text);
    assert_eq!(calls(&events), vec![pair("g", "{}")]);
    assert_eq!(issue_kinds(&events), vec!["not_json"]);
    assert_eq!(prose(&events), "[");
}

fn text_segments(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::SegmentStart { id, .. } if id.starts_with("text_")))
        .count()
}

/// A run of `{` is text but its last `{`, which still opens a call when one follows: the same
/// calls, spans and prose as reading each `{` alone, however the text is chunked.
#[test]
fn a_run_of_braces_is_text_up_to_a_call() {
    let text = "{{{{ {\"name\": \"f\", \"parameters\": {}} {{ {'name': 'g', 'parameters': {}}{{";
    let events = every_split(&["llama3_json"], text);
    assert_eq!(calls(&events), vec![pair("f", "{}"), pair("g", "{}")]);
    assert_eq!(prose(&events), "{{{{  {{ {{");
    let spans: Vec<(usize, usize)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some((c.start, c.end)),
            _ => None,
        })
        .collect();
    assert_eq!(spans, vec![(5, 36), (40, 71)]);
    for (syntax, text, prose_left) in [
        (
            "json_openai",
            "{{{\"name\": \"f\", \"arguments\": {}}",
            "{{",
        ),
        ("json_gemini", "{ {[{\"name\": \"f\", \"args\": {}}]", "{ {"),
        // The newline is a blank of the run, as it was a blank of a rejected `{`.
        (
            "xlam",
            "{{\n```json\n{\"name\": \"f\", \"arguments\": {}}```",
            "{{\n",
        ),
    ] {
        let events = every_split(&[syntax], text);
        assert_eq!(calls(&events), vec![pair("f", "{}")], "{syntax}");
        assert_eq!(prose(&events), prose_left, "{syntax}");
    }
    for text in ["{{ }", "{{{x}", "{{\t{{ ", "{ { {\"a\" 1}"] {
        let events = every_split(&["json_default"], text);
        assert!(calls(&events).is_empty(), "{text}");
        assert_eq!(prose(&events), text);
    }
}

#[test]
fn a_million_braces_are_one_text_segment_per_run() {
    let n = 2 * super::super::opener_run::MAX_RUN + 5;
    let text = format!("{}{{\"name\": \"f\", \"arguments\": {{}}}}", "{".repeat(n));
    let whole = one_shot(&["json_openai"], &text);
    assert_eq!(calls(&whole), vec![pair("f", "{}")]);
    assert_eq!(prose(&whole), "{".repeat(n));
    // One text segment per run of MAX_RUN bytes, not one per brace.
    assert_eq!(text_segments(&whole), 3);
    let pieces: Vec<&str> = text
        .as_bytes()
        .chunks(4093)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    assert_eq!(chunked(&["json_openai"], &pieces), whole);
}

#[test]
fn an_openai_list_that_breaks_off_keeps_the_calls_before_the_break() {
    let text = r#"Calls: [{"name": "a", "arguments": {"k": 1}}, {"name": "b", "arguments": {}}, {"name": "c", "arguments": @} ] done"#;
    let events = every_split(&["json_openai"], text);
    assert_eq!(
        calls(&events),
        vec![pair("a", r#"{"k": 1}"#), pair("b", "{}")]
    );
    let issues: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { issue: Some(i), .. } => Some(i.kind),
            _ => None,
        })
        .collect();
    assert_eq!(issues, vec!["not_json"]);
    assert_eq!(prose(&events), "Calls: @} ] done");
    // A list with no complete call before the break is still text.
    let text = r#"[{"name": "a", "arguments": @} ] and [1, 2, }"#;
    let events = every_split(&["json_openai"], text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
}

#[test]
fn default_calls_under_a_tools_list() {
    let text = r#"Plan: {"thought": "two tools", "tools": [{"tool": {"function": "a", "parameters": {"x": "y"}}}, {"tool": {"function": "b", "parameters": {}}}]} done"#;
    let events = every_split(&["json_default"], text);
    assert_eq!(
        calls(&events),
        vec![pair("a", r#"{"x": "y"}"#), pair("b", "{}")]
    );
    assert_eq!(prose(&events), "Plan:  done");
}

#[test]
fn a_member_whose_value_was_left_out_is_read_as_the_repair_reads_it() {
    for syntax in ["json_openai", "json_gemini"] {
        let text = r#"Files: [{"name": "list_files", "arguments":  }] done"#;
        let events = every_split(&[syntax], text);
        assert_eq!(calls(&events), vec![pair("list_files", "{}")], "{syntax}");
        assert_eq!(prose(&events), "Files:  done", "{syntax}");
    }
    // Prose JSON with a value left out stays text, as before.
    let text = r#"Say {"name": "Ann", "age": } ok"#;
    let events = every_split(&["json_openai"], text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
}

/// Every two-way split and one character at a time give the one-shot events, with `known`
/// declared on each engine.
fn every_split_known(names: &[&str], known: &[&str], text: &str) -> Vec<Event> {
    let known = crate::stream::KnownTools::new(known.iter().copied());
    crate::stream::test_support::every_split_with(names, &known, text)
}

#[test]
fn a_name_only_object_is_a_call_when_the_name_is_a_known_tool() {
    // SYNTAXES.md, json_gemini: "not a call unless `args` is present or the name is a known
    // tool". The same guard (a `name` alone is prose) is lifted the same way in the other
    // bare-JSON syntaxes whose bare objects need an arguments key.
    for syntax in ["json_gemini", "json_openai", "llama3_json", "xlam"] {
        let text = "Checking. {\"name\": \"list_files\"} then {\"name\": \"Ann\"} done";
        let events = every_split_known(&[syntax], &["list_files"], text);
        assert_eq!(calls(&events), vec![pair("list_files", "{}")], "{syntax}");
        assert_eq!(
            prose(&events),
            "Checking.  then {\"name\": \"Ann\"} done",
            "{syntax}"
        );
        // Without the tools it stays text, as before.
        let events = every_split(&[syntax], text);
        assert!(calls(&events).is_empty(), "{syntax}");
        assert_eq!(prose(&events), text, "{syntax}");
    }
}

#[test]
fn known_tools_in_a_list_and_beside_calls_with_arguments() {
    let text = "[{\"name\": \"list_files\"}, {\"name\": \"search\", \"args\": {\"q\": \"x\"}}]";
    let events = every_split_known(&["json_gemini"], &["list_files", "search"], text);
    assert_eq!(
        calls(&events),
        vec![pair("list_files", "{}"), pair("search", r#"{"q": "x"}"#)]
    );
    // A name that is not declared is no call: in a list with calls it is reported, first
    // or not.
    let events = every_split_known(&["json_gemini"], &["search"], text);
    assert_eq!(calls(&events), vec![pair("search", r#"{"q": "x"}"#)]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::SegmentEnd { issue: Some(i), .. } if i.kind == "no_name"
    )));
    let text = "[{\"name\": \"search\", \"args\": {}}, {\"name\": \"list_files\"}]";
    let events = every_split_known(&["json_gemini"], &["search"], text);
    assert_eq!(calls(&events), vec![pair("search", "{}")]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::SegmentEnd { issue: Some(i), .. } if i.kind == "no_name"
    )));
}

#[test]
fn an_entry_s_own_id_is_its_call_s_id() {
    // `tool_calls[].id` (OpenAI), `functionCall.id` (Gemini), a listed element's `id`: the
    // call's id when the call is announced once its object is complete.
    let openai = r#"{"tool_calls": [{"id": "call_abc", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"type": "function", "function": {"name": "g", "arguments": "{}"}}, {"id": "call_abc", "function": {"name": "h", "arguments": {}}}]}"#;
    let events = every_split(&["json_openai"], openai);
    assert_eq!(call_ids(&events), vec!["call_abc", "call_1", "call_2"]);
    let gemini = r#"[{"functionCall": {"id": "g-1", "name": "f", "args": {}}}, {"name": "g", "args": {"id": 3}, "id": "g-2"}]"#;
    let events = every_split(&["json_gemini"], gemini);
    assert_eq!(call_ids(&events), vec!["g-1", "g-2"]);
}

#[test]
fn a_call_object_complete_in_one_input_is_announced_as_in_pieces() {
    // Its top-level keys show a call (`name`, `arguments`) once it has closed too; they used
    // to count only while it was open, so read in one piece it was announced nameless (found
    // by fuzzing).
    let events = every_split(&["json_openai"], r#"{"name": "f", "arguments": 5} ok"#);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SegmentStart { name: Some(n), .. } if n == "f")));
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), " ok");
}

#[test]
fn a_wrapper_key_after_the_arguments_key_announces_the_same_in_one_piece() {
    // Found by the random texts: fed whole, the tokenizer had seen the wrapper key `tool`
    // by the time the parser asked, so the object was not announced (and its break made it
    // text); fed in pieces it was announced at its `arguments` key (and its break an issue).
    let text = "a=\"name\"```json{\"name\": \"f\", \"arguments\": , \"tool\"] ]";
    let events = every_split(&["xlam"], text);
    assert_eq!(calls(&events), vec![pair("f", "{}")]);
    assert_eq!(prose(&events), "a=\"name\" ]");
}

#[test]
fn a_fence_holding_only_a_call_is_the_calls_in_every_bare_form() {
    for (syntax, object) in [
        ("json_openai", r#"{"name": "f", "arguments": {"a": 1}}"#),
        ("json_gemini", r#"{"name": "f", "args": {"a": 1}}"#),
        (
            "json_default",
            r#"{"tool": {"function": {"name": "f"}, "arguments": {"a": 1}}}"#,
        ),
    ] {
        let text = format!("Here:\n```json\n{object}\n```\nDone.");
        let events = every_split(&[syntax], &text);
        assert_eq!(calls(&events), vec![pair("f", r#"{"a": 1}"#)], "{syntax}");
        assert_eq!(prose(&events), "Here:\n\nDone.", "{syntax}");
        // A fence holding JSON that is no call stays text, fence and all.
        let text = "See ```json\n{\"a\": 1}\n``` ok";
        assert_eq!(prose(&every_split(&[syntax], text)), text, "{syntax}");
    }
}

#[test]
fn a_wrapper_of_calls_with_none_in_it_is_reported() {
    // `tool_calls` (OpenAI) and a `tools` list of `{"tool": ...}` (the default profile) say
    // they hold calls: entries that are none are issues, not prose, even when no entry is a
    // call (as they are beside a good call).
    for (syntax, text, bad) in [
        (
            "json_openai",
            "x {\"tool_calls\": [{\"id\": \"c1\"}, {\"function\": {\"arguments\": \"{}\"}}]} y",
            2,
        ),
        (
            "json_default",
            "x {\"tools\": [{\"tool\": {\"parameters\": {}}}]} y",
            1,
        ),
    ] {
        let events = every_split(&[syntax], text);
        assert!(calls(&events).is_empty(), "{syntax}");
        assert_eq!(issue_kinds(&events), vec!["no_name"; bad], "{syntax}");
        assert_eq!(prose(&events), "x  y", "{syntax}");
    }
    // An empty list, or a `tools` list of other things, may be data: it stays prose.
    for (syntax, text) in [
        ("json_openai", "{\"tool_calls\": []}"),
        ("json_openai", "{\"tools\": [\"saw\", {\"x\": 1}]}"),
        ("json_default", "{\"tools\": [\"saw\"]}"),
    ] {
        let events = every_split(&[syntax], text);
        assert!(issue_kinds(&events).is_empty(), "{syntax}: {text}");
        assert_eq!(prose(&events), text, "{syntax}");
    }
}

/// The pre-check before a complete value is read for calls (`may_hold_key` over
/// `CALL_KEY_PARTS`) never passes over a value a reading finds a call or issue in.
mod key_check {
    use super::super::CALL_KEY_PARTS;
    use crate::stream::json_call::may_hold_key;
    use crate::stream::syntaxes::json_shape::{extract, Shape};
    use crate::stream::test_support::spelled_key as spelled;
    use crate::stream::KnownTools;
    use proptest::prelude::*;

    /// A call in one of the shapes, its keys spelled at random.
    fn call_value() -> impl Strategy<Value = String> {
        let args = prop::sample::select(vec!["arguments", "parameters", "args"]);
        (
            spelled("name"),
            args.prop_flat_map(spelled),
            spelled("tool_calls"),
            spelled("tool"),
            spelled("function"),
            spelled("functionCall"),
            0usize..6,
        )
            .prop_map(|(n, a, calls, tool, function, gemini, form)| {
                let entry = format!("{{{n}: \"f\", {a}: {{\"k\": 1}}}}");
                match form {
                    0 => entry,
                    1 => format!("{{{calls}: [{entry}]}}"),
                    2 => format!("{{{tool}: {{{function}: \"f\", {a}: {{}}}}}}"),
                    3 => format!("{{{gemini}: {entry}}}"),
                    4 => format!("{{{function}: {entry}}}"),
                    _ => format!("[{entry}, {entry}]"),
                }
            })
    }

    proptest! {
        #[test]
        fn a_value_read_as_calls_is_one_the_check_lets_through(text in call_value()) {
            for shape in [Shape::OpenAi, Shape::Gemini, Shape::Default, Shape::Llama3, Shape::Xlam] {
                if extract(shape, &KnownTools::default(), &text).is_some() {
                    prop_assert!(may_hold_key(&text, CALL_KEY_PARTS), "{:?} {:?}", shape, text);
                }
            }
        }
    }
}
