use crate::stream::events::{Event, SegmentKind};
use crate::stream::test_support::{calls, issues, prose};
use crate::stream::tests::{chunked, one_shot};
use serde_json::json;

const S: &[&str] = &["xml_tool"];

/// Every two-way split and one char at a time give the one-shot events; the streamed JSON
/// deltas of each call concatenate to its arguments.
fn invariant(text: &str) -> Vec<Event> {
    let whole = one_shot(S, text);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(S, &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(S, &refs), whole);
    for e in &whole {
        if let Event::SegmentEnd {
            id, call: Some(c), ..
        } = e
        {
            let streamed: String = whole
                .iter()
                .filter_map(|x| match x {
                    Event::ArgumentsJsonDelta { id: i, text } if i == id => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            let a: serde_json::Value = serde_json::from_str(&streamed).expect("streamed JSON");
            let b: serde_json::Value = serde_json::from_str(&c.arguments).expect("JSON");
            assert_eq!(a, b);
        }
    }
    whole
}

#[test]
fn arguments_lists_objects_and_trimmed_decoded_values() {
    let text = "Hi <TOOL Name='make'>\n<Arguments>\n <arg name=\"title\">  a &lt;b&gt; &amp; n <= 0 & é  </ARG >\n<arg name=\"tags\"><item> x </item><item><arg name=\"k\">v</arg></item></arg>\n<arg name=\"opts\"><arg name=\"deep\">1</arg></arg><arg name=\"html\"><div>hi</div></arg><arg name=\"c\"><![CDATA[ </arg> & ]]></arg><empty/></arguments></tool> bye";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "make".to_string(),
            json!({"title": "a <b> & n <= 0 & é", "tags": ["x", {"k": "v"}], "opts": {"deep": "1"},
                   "html": "<div>hi</div>", "c": "</arg> &", "empty": ""})
        )]
    );
    assert_eq!(prose(&events), "Hi  bye");
}

#[test]
fn shorthands_are_raw_and_typed_segments() {
    let text = "<write_file path=\"/a.py\">\n  x = '&lt;' </arg>\n</write_file>\n<run_bash>\nls é\n</run_bash>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            (
                "write_file".to_string(),
                json!({"path": "/a.py", "content": "\n  x = '&lt;' </arg>\n"})
            ),
            ("run_bash".to_string(), json!({"command": "\nls é\n"})),
        ]
    );
    assert!(events.iter().any(|e| matches!(e, Event::SegmentStart { kind: SegmentKind::WriteFile, metadata, .. } if metadata == &vec![("path".to_string(), "/a.py".to_string())])));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::SegmentStart {
            kind: SegmentKind::RunBash,
            ..
        }
    )));
}

#[test]
fn write_file_content_sentinels_and_deferred_start() {
    let text = "<tool name=\"write_file\"><arguments><arg name=\"path\">/p.py</arg><arg name=\"content\">\n__START_CONTENT__\nx</arg>__END_CONTENT__ no\n__END_CONTENT__ \n</arg></arguments></tool>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "write_file".to_string(),
            json!({"path": "/p.py", "content": "x</arg>__END_CONTENT__ no\n"})
        )]
    );
    assert!(events.iter().any(|e| matches!(e, Event::SegmentStart { kind: SegmentKind::WriteFile, metadata, .. } if metadata == &vec![("path".to_string(), "/p.py".to_string())])));
    // Without the end sentinel, `</arg></tool>` ends the content.
    let text =
        "<tool name=\"patch_file\"><arg name=\"patch\">__START_PATCH__@@ -1 +1 @@</arg> </tool>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![("patch_file".to_string(), json!({"patch": "@@ -1 +1 @@"}))]
    );
}

#[test]
fn any_argument_of_any_tool_may_be_raw_between_content_markers() {
    let text = "<tool name='save'><arguments><arg name='note'>plain &amp; trimmed </arg><arg name='body'> __START_CONTENT__\nif a < b:\n  x = '<p>' </arg> <arg name='y'>1</arg>\n__END_CONTENT__ </arg><arg name='tail'>__START_CONTENT__raw</arg></arguments></tool>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "save".to_string(),
            json!({"note": "plain & trimmed",
                   "body": "if a < b:\n  x = '<p>' </arg> <arg name='y'>1</arg>\n",
                   "tail": "raw"})
        )]
    );
    // A value that only starts like the marker, a list and an object are read as before.
    let text = "<tool name='t'><a>__START_X</a><b><item>1</item></b><c><arg name='d'>2</arg></c><e>  </e></tool>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "t".to_string(),
            json!({"a": "__START_X", "b": ["1"], "c": {"d": "2"}, "e": ""})
        )]
    );
}

#[test]
fn two_calls_in_one_chunk_and_a_malformed_one_between() {
    let good = "<tool name=\"a.b-c\"><k>1</k></tool>";
    for bad in [
        "<tool name=\"x\"><arg name=\"k\">oops</tool>",
        "<tool name=\"x\"><arg name=\"k\"><item>1</tool>",
    ] {
        let text = format!("{good}{bad} {good}");
        let events = invariant(&text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["a.b-c", "a.b-c"], "{bad}");
        assert_eq!(issues(&events).len(), 1, "{bad}");
    }
    let text = format!("{good}<tool name=\"x\"><arg name=\"k\">never closed {good}");
    let events = invariant(&text);
    assert_eq!(calls(&events).len(), 2);
    assert_eq!(issues(&events)[0].0, "malformed");
}

#[test]
fn a_start_tag_left_open_before_prose_does_not_swallow_the_calls_after_it() {
    let good = "<tool name=\"w\"><arg name=\"k\">v</arg></tool>";
    for bad in [
        "<tool name=\"write_file\"\nWhoops, let's do it again.\n\n",
        "<tool name='f\nit's open ",
        "<tool name=\"x>",
    ] {
        let text = format!("a {good} b {bad}{good} c");
        let events = invariant(&text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["w", "w"], "{bad}");
        assert!(prose(&events).contains(bad.trim_end()), "{bad}");
    }
}

#[test]
fn unterminated_and_not_a_tool() {
    let events = invariant("a <tool name=\"f\"><arg name=\"k\">partial é");
    assert!(calls(&events).is_empty());
    let found = issues(&events);
    assert_eq!(found[0].0, "unterminated");
    assert!(found[0].1.contains("partial é"));
    let events = invariant("a <tool x=1> b <tool_call> <run_bash");
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), "a <tool x=1> b <tool_call> <run_bash");
}

/// Random texts built from the syntax's own pieces: no panic, and every chunking agrees.
#[test]
fn random_texts_are_chunk_invariant() {
    const TOKENS: &[&str] = &[
        "<tool name=\"f\">",
        "<TOOL name='write_file'>",
        "<tool name=\"patch_file\">",
        "</tool>",
        "<arguments>",
        "</arguments>",
        "<arg name=\"path\">",
        "<arg name=\"content\">",
        "<arg name=\"patch\">",
        "<arg>",
        "</arg>",
        "</ARG >",
        "<item>",
        "</item>",
        "<k>",
        "</k>",
        "__START_CONTENT__",
        "__END_CONTENT__",
        "__START_PATCH__",
        "__END_PATCH__",
        "\n",
        " ",
        "é",
        "x",
        "<",
        "&",
        "&amp;",
        "&#x41;",
        "<![CDATA[",
        "]]>",
        "<write_file path=\"/a\">",
        "</write_file>",
        "<run_bash>",
        "</run_bash>",
        "_",
        "/>",
        "<tool",
        "\"",
        "'",
        ">",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % (n as u64)).unwrap_or(0)
    };
    for _ in 0..400 {
        let len = 1 + next(30);
        let text: String = (0..len).map(|_| TOKENS[next(TOKENS.len())]).collect();
        let whole = one_shot(S, &text);
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(chunked(S, &refs), whole, "{text:?}");
        let cuts: Vec<usize> = (0..=text.len())
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        let (a, b) = (cuts[next(cuts.len())], cuts[next(cuts.len())]);
        let (a, b) = (a.min(b), a.max(b));
        assert_eq!(
            chunked(S, &[&text[..a], &text[a..b], &text[b..]]),
            whole,
            "{text:?} {a} {b}"
        );
    }
}

#[test]
fn close_tags_in_any_case_with_blanks_and_near_misses() {
    let text =
        "a <tool name=\"f\"><Path>x </pa </pat> y</PATH \n ><q>1 < 2 &amp; </q2></Q></tool> b";
    let events = invariant(text);
    let found = calls(&events);
    assert_eq!(
        found,
        vec![(
            "f".to_string(),
            json!({"Path": "x </pa </pat> y", "q": "1 < 2 & </q2>"})
        )]
    );
    let call = events.iter().find_map(|e| match e {
        Event::SegmentEnd { call: Some(c), .. } => Some(c),
        _ => None,
    });
    assert_eq!(
        call.and_then(|c| c.string_arguments.clone()),
        Some(vec![
            ("Path".to_string(), "x </pa </pat> y".to_string()),
            ("q".to_string(), "1 < 2 & </q2>".to_string())
        ])
    );
}

#[test]
fn run_terminal_cmd_is_the_command_shorthand_under_its_newer_name() {
    let text = "<run_terminal_cmd>ls -la</run_terminal_cmd> and <run_terminal_cmd cwd=\"/\">pwd\n</run_terminal_cmd>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("run_terminal_cmd".to_string(), json!({"command": "ls -la"})),
            ("run_terminal_cmd".to_string(), json!({"command": "pwd\n"})),
        ]
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::SegmentStart {
            kind: SegmentKind::RunBash,
            ..
        }
    )));
}
