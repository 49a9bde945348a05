use crate::stream::events::{Event, SegmentKind};
use crate::stream::test_support::{calls, issues, prose};
use crate::stream::tests::{chunked, one_shot};

fn invariant(text: &str) -> Vec<Event> {
    let whole = one_shot(&["sentinel"], text);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["sentinel"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(&["sentinel"], &refs), whole);
    whole
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap()
}

#[test]
fn file_segments_and_text_around_them_under_any_chunking() {
    let text = "Writing.\n[[SEG_START {\"type\":\"write_file\",\"path\":\"/a.py\"}]]\nprint(1)\nx = ']]'\n[[SEG_END]] then [[SEG_START {\"type\": \"run_bash\", \"cwd\": \"/\"} ]]ls -la[[SEG_END]] end";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            (
                "write_file".to_string(),
                json(r#"{"path": "/a.py", "content": "\nprint(1)\nx = ']]'\n"}"#)
            ),
            ("run_bash".to_string(), json(r#"{"command": "ls -la"}"#)),
        ]
    );
    assert_eq!(prose(&events), "Writing.\n then  end");
    let starts: Vec<(SegmentKind, Vec<(String, String)>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentStart {
                kind,
                metadata,
                syntax: "sentinel",
                ..
            } => Some((*kind, metadata.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        starts,
        vec![
            (
                SegmentKind::WriteFile,
                vec![("path".into(), "/a.py".into())]
            ),
            (SegmentKind::RunBash, vec![("cwd".into(), "/".into())]),
        ]
    );
}

#[test]
fn delimiters_inside_header_strings_and_body() {
    // `]]` and `}` in a header string do not end it; the body ends only at `[[SEG_END]]`,
    // so it may hold a start marker, `]]` and a partial end marker.
    let text = "[[SEG_START {\"type\":\"tool\",\"tool_name\":\"f\",\"arguments\":{\"q\":\"]] } [[SEG_END]]\"}}]][[SEG_END]][[SEG_START {\"type\":\"patch_file\",\"path\":\"p\"}]][[SEG_START x]] [[SEG_EN[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("f".to_string(), json(r#"{"q": "]] } [[SEG_END]]"}"#)),
            (
                "patch_file".to_string(),
                json(r#"{"path": "p", "patch": "[[SEG_START x]] [[SEG_EN"}"#)
            ),
        ]
    );
}

#[test]
fn non_ascii_kept_exactly_and_text_segments_are_content() {
    let text = "é [[SEG_START {\"type\":\"text\"}]]héllo 🌍\n\t[[SEG_END]][[SEG_START {\"type\":\"write_file\",\"path\":\"ü.txt\"}]]  ça\u{0}\n[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(prose(&events), "é héllo 🌍\n\t");
    assert_eq!(
        calls(&events),
        vec![(
            "write_file".to_string(),
            json("{\"path\": \"ü.txt\", \"content\": \"  ça\\u0000\\n\"}")
        )]
    );
}

#[test]
fn tool_call_body_forms() {
    let text = "[[SEG_START {\"type\":\"tool_call\"}]]{\"tool_name\": \"a\", \"arguments\": {\"x\": 1}}[[SEG_END]][[SEG_START {\"type\":\"tool\",\"tool_name\":\"b\"}]] {'y': 2,} [[SEG_END]]";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("a".to_string(), json(r#"{"x": 1}"#)),
            ("b".to_string(), json(r#"{"y": 2}"#)),
        ]
    );
}

#[test]
fn xml_tool_bodies() {
    let text = "[[SEG_START {\"type\":\"tool\"}]]\n<tool name=\"search\"><arguments><arg name=\"q\"> a &lt;= b </arg><arg name=\"q\">c</arg></arguments></tool>\n[[SEG_END]][[SEG_START {\"type\":\"tool\",\"tool_name\":\"read\"}]]<tool><path>/a é</path></tool>[[SEG_END]][[SEG_START {\"type\":\"tool\"}]]<tool name='x'><k>v</tool>[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("search".to_string(), json(r#"{"q": ["a <= b", "c"]}"#)),
            ("read".to_string(), json(r#"{"path": "/a é"}"#)),
        ]
    );
    assert_eq!(issues(&events)[0].0, "bad_body");
}

#[test]
fn invalid_headers_are_text() {
    for text in [
        "[[SEG_START not-json]]oops[[SEG_END]]",
        "[[SEG_START {\"type\":\"nope\"}]]oops[[SEG_END]]",
        "[[SEG_START {\"path\":\"a\"}]]oops[[SEG_END]]",
        "[[SEG_START {\"type\":\"text\"} x]]oops[[SEG_END]]",
    ] {
        let events = invariant(text);
        assert!(calls(&events).is_empty());
        assert_eq!(prose(&events), text);
    }
}

#[test]
fn malformed_call_between_two_good_ones() {
    let text = "[[SEG_START {\"type\":\"run_bash\"}]]a[[SEG_END]][[SEG_START {\"type\":\"tool\"}]]not json[[SEG_END]][[SEG_START {\"type\":\"run_bash\"}]]c[[SEG_END]]";
    let events = invariant(text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["run_bash", "run_bash"]);
    assert_eq!(issues(&events).len(), 1);
    assert_eq!(prose(&events), "");
}

#[test]
fn unterminated_segments() {
    let events = invariant("[[SEG_START {\"type\":\"write_file\",\"path\":\"a\"}]]partial\nbo");
    assert!(calls(&events).is_empty());
    let (kind, message) = &issues(&events)[0];
    assert_eq!(*kind, "unterminated");
    assert!(message.contains("partial\nbo"), "{message}");
    let events =
        invariant("[[SEG_START {\"type\":\"tool\",\"tool_name\":\"f\",\"arguments\":{\"a\":1}}]]");
    assert_eq!(calls(&events), vec![("f".to_string(), json(r#"{"a": 1}"#))]);
    assert_eq!(issues(&events)[0].0, "missing_end_marker");
    let events = invariant("x [[SEG_START {\"type\":\"wri");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events)[0].0, "unterminated");
}

/// Random texts built from the syntax's own pieces: no panic, and any split equals one shot.
#[test]
fn random_texts_never_panic_and_are_chunking_invariant() {
    const PIECES: &[&str] = &[
        "[[SEG_START ",
        "{\"type\":\"",
        "text",
        "tool",
        "write_file",
        "\"}",
        "]]",
        "[[SEG_END]]",
        "\"path\":\"a\",",
        "{",
        "}",
        "\"",
        "\n",
        "é",
        "x",
        "]",
        "[[",
        "\"tool_name\":\"f\",",
        "<tool name=\"f\">",
        "<arg name=\"k\">",
        "</arg>",
        "</tool>",
        "&lt;",
        "<",
        "'",
        "=",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % n as u64).unwrap_or(0)
    };
    for _ in 0..400 {
        let text: String = (0..next(30)).map(|_| PIECES[next(PIECES.len())]).collect();
        let whole = one_shot(&["sentinel"], &text);
        let cuts: Vec<usize> = (0..3)
            .map(|_| next(text.len() + 1))
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        for cut in cuts {
            assert_eq!(
                chunked(&["sentinel"], &[&text[..cut], &text[cut..]]),
                whole,
                "{text:?} cut {cut}"
            );
        }
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(chunked(&["sentinel"], &refs), whole, "{text:?}");
    }
}

#[test]
fn xml_reader_never_panics_on_cut_bodies() {
    let xml = "<tool name='f' x=\"é\"><arguments><arg name=\"a\">1 &amp; &bogus; 2</arg><b/>é</b></arguments></tool>";
    for cut in (0..=xml.len()).filter(|&c| xml.is_char_boundary(c)) {
        let _ = super::xml::read(&xml[..cut], None);
        let _ = super::xml::read(&xml[cut..], Some("g"));
    }
    assert_eq!(
        super::xml::read(xml, None).map(|c| c.0),
        Ok("f".to_string())
    );
}

#[test]
fn file_calls_carry_their_arguments_decoded() {
    let text = "[[SEG_START {\"type\":\"write_file\",\"path\":\"/é\\\"a\"}]]x = \"ü\\n\"\n\ty[[SEG_END]][[SEG_START {\"type\":\"tool\",\"tool_name\":\"f\",\"arguments\":{\"n\":1}}]][[SEG_END]]";
    let events = invariant(text);
    let found: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd {
                call: Some(call), ..
            } => Some(call),
            _ => None,
        })
        .collect();
    let pairs = found[0].string_arguments.clone().expect("decoded pairs");
    let object: serde_json::Map<String, serde_json::Value> = pairs
        .into_iter()
        .map(|(k, v)| (k, serde_json::Value::String(v)))
        .collect();
    assert_eq!(serde_json::Value::Object(object), json(&found[0].arguments));
    assert_eq!(found[1].string_arguments, None);
}

#[test]
fn a_header_with_a_lone_surrogate_escape_is_still_repaired_first() {
    // Read as written it would decode (to U+FFFD); strict validation refuses it, so it goes
    // through repair as any header that is not strict JSON.
    let text = "[[SEG_START {\"type\":\"write_file\",\"path\":\"/a\\ud800\"}]]x[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(calls(&events).len(), 1);
}

#[test]
fn an_unterminated_file_body_is_quoted_whole_in_its_issue() {
    let text = "[[SEG_START {\"type\":\"write_file\",\"path\":\"/a\"}]]one\ntwo \"é\"\nthr";
    let events = invariant(text);
    assert_eq!(
        issues(&events),
        vec![(
            "unterminated",
            "the stream ended inside write_file's body: one\ntwo \"é\"\nthr".to_string()
        )]
    );
}

#[test]
fn run_terminal_cmd_is_a_command_segment() {
    let text = "[[SEG_START {\"type\":\"run_terminal_cmd\",\"path\":\"/x\"}]]echo hi[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "run_terminal_cmd".to_string(),
            json(r#"{"command": "echo hi"}"#)
        )]
    );
}

#[test]
fn a_header_string_that_never_closed_does_not_swallow_the_segments_after_it() {
    // `alpha`'s header string never closes; a later header's escaped quote closes it and
    // that header's braces balance it, so it would end holding both markers: it is no header
    // (its marker is text, as any invalid header's), and `beta` and `gamma` are read again.
    let text = "[[SEG_START {\"type\": \"tool\", \"tool_name\": \"alpha\", \"arguments\": {\"city\": \"Paris, \"n\": 1}}]][[SEG_END]]\n[[SEG_START {\"type\": \"tool\", \"tool_name\": \"beta\", \"arguments\": {\"q\": \"x\\\"y\"}}]][[SEG_END]]\n[[SEG_START {\"type\": \"run_bash\"}]]ls[[SEG_END]]";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("beta".to_string(), json(r#"{"q": "x\"y"}"#)),
            ("run_bash".to_string(), json(r#"{"command": "ls"}"#)),
        ]
    );
    assert!(issues(&events).is_empty());
    assert!(prose(&events).starts_with("[[SEG_START {\"type\": \"tool\", \"tool_name\": \"alpha\""));
}

#[test]
fn a_one_shot_tool_header_hands_its_string_arguments_decoded() {
    use crate::stream::{oneshot, syntaxes, StreamEngine};
    let args = r#"{"path": "é.py", "content": "x = \"1\"\n\ty"}"#;
    let text = format!(
        "[[SEG_START {{\"type\": \"tool\", \"tool_name\": \"w\", \"arguments\": {args}}}]][[SEG_END]]\
         [[SEG_START {{\"type\": \"tool\", \"tool_name\": \"g\", \"arguments\": {{\"n\": 1, \"s\": \"x\"}}}}]][[SEG_END]]"
    );
    let mut engine = StreamEngine::new(vec![syntaxes::by_name("sentinel").expect("syntax")]);
    let ends = oneshot::parse_all(&mut engine, &text).ends;
    let calls: Vec<_> = ends.iter().filter_map(|e| e.call.as_ref()).collect();
    // The model's JSON stays the arguments' text; the pairs are the same object decoded.
    assert_eq!(calls[0].arguments, args);
    let pairs = calls[0].string_arguments.clone().expect("decoded pairs");
    let object: serde_json::Map<String, serde_json::Value> = pairs
        .into_iter()
        .map(|(k, v)| (k, serde_json::Value::String(v)))
        .collect();
    assert_eq!(serde_json::Value::Object(object), json(args));
    // A value that is not a string: the JSON alone.
    assert_eq!(calls[1].string_arguments, None);
    // A stream's calls carry no pairs (its events read the JSON).
    let streamed = invariant(&text);
    assert!(streamed.iter().all(|e| !matches!(
        e,
        Event::SegmentEnd { call: Some(c), .. } if c.string_arguments.is_some()
    )));
}
