use super::events::Event;
use super::syntaxes::token_tests::invariant;
use super::{syntaxes, StreamEngine};

pub(crate) fn engine(names: &[&str]) -> StreamEngine {
    StreamEngine::new(
        names
            .iter()
            .flat_map(|n| syntaxes::resolve(n).unwrap())
            .collect(),
    )
}

pub(crate) use super::events::canonical as merged;

pub(crate) fn one_shot(names: &[&str], text: &str) -> Vec<Event> {
    let mut e = engine(names);
    let mut events = e.feed(text);
    events.extend(e.finish());
    merged(events)
}

pub(crate) fn chunked(names: &[&str], chunks: &[&str]) -> Vec<Event> {
    let mut e = engine(names);
    let mut events = Vec::new();
    for c in chunks {
        events.extend(e.feed(c));
    }
    events.extend(e.finish());
    merged(events)
}

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

const HERMES: &str = "Sure.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"q\": \"}{ </tool_call>\"}}\n</tool_call>\nand <tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call> done";

#[test]
fn hermes_calls_and_text() {
    let events = one_shot(&["hermes"], HERMES);
    assert_eq!(
        calls(&events),
        vec![
            ("f".to_string(), r#"{"q": "}{ </tool_call>"}"#.to_string()),
            ("g".to_string(), "{}".to_string())
        ]
    );
    assert_eq!(prose(&events), "Sure.\n\nand  done");
}

/// Parallel calls as Qwen models write them: one `<tool_call>` holding an array, with a
/// broken element between two good ones and an end marker inside a string value.
const HERMES_ARRAY: &str = "Sure.\n<tool_call>\n[{\"name\": \"f\", \"arguments\": {\"q\": \"]</tool_call>\"}}, 7, {\"name\": \"g\", \"arguments\": {}}]\n</tool_call>\ndone";

#[test]
fn a_hermes_array_is_one_call_per_element_and_a_bad_one_keeps_its_siblings() {
    let events = one_shot(&["hermes"], HERMES_ARRAY);
    assert_eq!(
        calls(&events),
        vec![
            ("f".to_string(), r#"{"q": "]</tool_call>"}"#.to_string()),
            ("g".to_string(), "{}".to_string())
        ]
    );
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentEnd { issue: Some(i), .. } if i.kind == "not_an_object")
    ));
    assert_eq!(prose(&events), "Sure.\n\ndone");
    let cut = "<tool_call>[{\"name\": \"f\", \"arguments\": {}}";
    let events = one_shot(&["hermes"], cut);
    assert_eq!(calls(&events).len(), 1);
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentEnd { issue: Some(i), .. } if i.kind == "missing_end_marker")
    ));
}

#[test]
fn every_split_and_one_char_at_a_time_equal_one_shot() {
    for text in [HERMES, HERMES_ARRAY] {
        for names in [&["hermes"][..], &["hermes", "run_module", "internlm"][..]] {
            invariant(names, text);
        }
    }
}

#[test]
fn spans_are_character_offsets() {
    let text = "é <tool_call>{\"name\": \"f\"}</tool_call> ü";
    let events = one_shot(&["hermes"], text);
    let call = events
        .iter()
        .find_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some(c.clone()),
            _ => None,
        })
        .unwrap();
    let chars: Vec<char> = text.chars().collect();
    let raw: String = chars[call.start..call.end].iter().collect();
    assert_eq!(raw, "<tool_call>{\"name\": \"f\"}</tool_call>");
}

#[test]
fn missing_end_marker_keeps_the_call_and_gives_blanks_back() {
    let events = one_shot(&["hermes"], "<tool_call>{\"name\": \"f\"}  \n</tool_cal x");
    assert_eq!(calls(&events).len(), 1);
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentEnd { issue: Some(i), .. } if i.kind == "missing_end_marker")
    ));
    assert_eq!(prose(&events), "  \n</tool_cal x");
}

#[test]
fn unterminated_json_is_an_issue_not_a_call() {
    let events = one_shot(
        &["hermes"],
        "x <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": ",
    );
    assert!(calls(&events).is_empty());
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentEnd { issue: Some(i), .. } if i.kind == "unterminated")
    ));
}

#[test]
fn marker_followed_by_prose_is_text() {
    let text = "use <tool_call> tags like <tool_call>{\"name\": \"f\"}</tool_call>";
    let events = one_shot(&["hermes"], text);
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), "use <tool_call> tags like ");
}

#[test]
fn malformed_call_between_two_good_ones() {
    let text = "<tool_call>{\"name\": \"a\"}</tool_call><tool_call>{\"x\": 1}</tool_call><tool_call>{'name': 'c', 'arguments': {'k': 1,}}</tool_call>";
    let events = one_shot(&["hermes"], text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    assert!(events.iter().any(
        |e| matches!(e, Event::SegmentEnd { call: None, issue: Some(i), .. } if i.kind == "no_name")
    ));
}

#[test]
fn run_module_aliases() {
    let events = one_shot(
        &["run_module"],
        "[RUN_MODULE]{\"module\": \"fs.read\", \"args\": {\"path\": \"/a\"}}[/RUN_MODULE]",
    );
    assert_eq!(
        calls(&events),
        vec![("fs.read".to_string(), r#"{"path": "/a"}"#.to_string())]
    );
}

#[test]
fn internlm_allows_a_blank_between_its_markers() {
    for text in [
        "<|action_start|><|plugin|>{\"name\": \"f\", \"parameters\": {\"a\": 1}}<|action_end|>",
        "<|action_start|> <|plugin|>\n{\"name\": \"f\", \"parameters\": {\"a\": 1}}<|action_end|>",
    ] {
        let events = one_shot(&["internlm"], text);
        assert_eq!(
            calls(&events),
            vec![("f".to_string(), r#"{"a": 1}"#.to_string())]
        );
        assert_eq!(prose(&events), "");
    }
    let events = one_shot(&["internlm"], "<|action_start|> nope");
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), "<|action_start|> nope");
}

#[test]
fn json_arguments_stream_as_deltas_that_concatenate_to_the_arguments() {
    let args =
        r#"{"path": "/a\u00e9", "content": "line \"1\"\n\ud83d\ude00 {}", "n": [1, {"x": "y"}]}"#;
    let text =
        format!("<tool_call>{{\"name\": \"write_file\", \"arguments\": {args}}}</tool_call>");
    let whole = one_shot(&["hermes"], &text);
    let json: String = whole
        .iter()
        .filter_map(|e| match e {
            Event::ArgumentsJsonDelta { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(json, args);
    let content: Vec<(String, String)> = whole
        .iter()
        .filter_map(|e| match e {
            Event::ArgumentDelta { key, text, .. } => Some((key.clone(), text.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        content,
        vec![
            ("content".to_string(), "line \"1\"\n😀 {}".to_string()),
            ("path".to_string(), "/aé".to_string())
        ]
    );
    assert!(matches!(&whole[0], Event::SegmentStart { name: Some(n), .. } if n == "write_file"));
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["hermes"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(&["hermes"], &refs), whole);
}

/// Found by the chunking property: an invalid escape of a multi-byte character (`\¢`) inside a
/// streamed argument string sliced the input inside that character.
#[test]
fn an_escaped_multibyte_character_in_arguments_does_not_panic() {
    let text = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"x\\¢y\"}}</tool_call>";
    let whole = one_shot(&["hermes"], text);
    assert_eq!(calls(&whole).len(), 1);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["hermes"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}"
        );
    }
}

/// A call whose JSON string never closes must not swallow the calls after it: at the end of
/// the stream the open segment is cut where its own start marker appears again.
#[test]
fn an_unterminated_call_does_not_swallow_its_siblings() {
    let text = concat!(
        "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"q\": \"one\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"bad\", \"arguments\": {\"q\": \"x}\n</tool_call>",
        "<tool_call>\n{\"name\": \"g\", \"arguments\": {\"q\": \"two\"}}\n</tool_call> bye"
    );
    let whole = one_shot(&["hermes"], text);
    let names: Vec<String> = calls(&whole).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["f".to_string(), "g".to_string()]);
    assert!(whole.iter().any(|e| matches!(
        e,
        Event::SegmentEnd { call: None, issue: Some(i), .. } if i.kind == "unterminated"
    )));
    assert_eq!(prose(&whole), " bye");
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["hermes"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}"
        );
    }
}

#[test]
fn segment_ids_read_as_formatted() {
    for n in [0, 7, 10, 99, 12_345, usize::MAX] {
        for prefix in ["text_", "call_", "reasoning_", "text_seg_"] {
            assert_eq!(&*super::segment_id(prefix, n), format!("{prefix}{n}"));
        }
    }
}

#[test]
fn a_segment_that_ends_on_the_byte_past_the_limit_is_over_it() {
    // Bare JSON ends at its closing brace, which may be the one byte past the limit a parser
    // is fed: 38 bytes against a limit of 37 is over it, however the text is chunked.
    let text = r#"{"name": "f", "arguments": {"a": "x"}}"#;
    assert_eq!(text.len(), 38);
    for (max, calls_made) in [(37, 0), (38, 1)] {
        for cut in [0, 1, 20, 37] {
            let mut e = engine(&["json_gemini"]);
            e.set_limits(super::Limits {
                max_segment_bytes: max,
                ..super::Limits::default()
            });
            let mut events = e.feed(&text[..cut]);
            events.extend(e.feed(&text[cut..]));
            events.extend(e.finish());
            let ends: Vec<_> = events
                .iter()
                .filter_map(|ev| match ev {
                    Event::SegmentEnd { call, issue, .. } => Some((call.is_some(), issue.clone())),
                    _ => None,
                })
                .collect();
            assert_eq!(ends.len(), 1, "max {max} cut {cut}");
            assert_eq!(usize::from(ends[0].0), calls_made, "max {max} cut {cut}");
            if calls_made == 0 {
                let kind = ends[0].1.as_ref().map(|i| i.kind);
                assert_eq!(kind, Some(super::limits::LIMIT_EXCEEDED));
            }
        }
    }
}

#[test]
fn a_block_string_that_never_closed_is_cut_at_its_end_marker() {
    // `f`'s string never closes; `g`'s escaped quote closes it and `g`'s braces balance `f`'s
    // object, which then holds `</tool_call>`: `f` ends at its end marker as an
    // `unterminated` issue, and `g` is read again, whole. Strict JSON keeps the marker as
    // string content (see `hermes_calls_and_text`).
    for (name, open, close) in [
        ("hermes", "<tool_call>", "</tool_call>"),
        ("internlm", "<|action_start|><|plugin|>", "<|action_end|>"),
    ] {
        let text = format!(
            "{open}\n{{\"name\": \"f\", \"arguments\": {{\"x\": \"never closed}}\n{close}\n{open}\n{{\"name\": \"g\", \"arguments\": {{\"y\": \"\\\"\"}}}}\n{close}\nok"
        );
        let events = invariant(&[name], &text);
        assert_eq!(
            calls(&events),
            vec![("g".to_string(), r#"{"y": "\""}"#.to_string())],
            "{name}"
        );
        let kinds: Vec<&str> = events
            .iter()
            .filter_map(|e| match e {
                Event::SegmentEnd { issue: Some(i), .. } => Some(i.kind),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, vec!["unterminated"], "{name}");
        assert_eq!(prose(&events), "\n\nok", "{name}");
    }
}
