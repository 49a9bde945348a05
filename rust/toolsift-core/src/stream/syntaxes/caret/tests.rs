use crate::stream::events::Event;
use crate::stream::test_support::{calls, issues, prose};
use crate::stream::tests::{chunked, one_shot};

/// One shot, every two-way split and one character at a time give the same events.
fn invariant(text: &str) -> Vec<Event> {
    let whole = one_shot(&["caret"], text);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["caret"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut} {:?}",
            &text[..cut]
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(&["caret"], &refs), whole);
    whole
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap()
}

#[test]
fn two_calls_text_around_and_every_split() {
    let text = "I'll write it.\n^^^write_file\nproject: notes\npath: design.md\n---\ncontent: |\n  # Title\n    indented\n\n  body.\n\n^^^\nthen\n^^^read_files\npaths:\n  - a.rs\n  - b.rs\n^^^\nDone.";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            (
                "write_file".to_string(),
                json(
                    r##"{"project": "notes", "path": "design.md", "content": "# Title\n  indented\n\nbody.\n"}"##
                )
            ),
            (
                "read_files".to_string(),
                json(r#"{"paths": ["a.rs", "b.rs"]}"#)
            ),
        ]
    );
    assert_eq!(prose(&events), "I'll write it.\nthen\nDone.");
    assert!(issues(&events).is_empty());
}

#[test]
fn values_may_hold_the_syntax_delimiters() {
    // Inside a multi-line value only `--- KEY` ends it: a fence line, `---` and another
    // key's end line are text. A header value may hold colons and carets.
    let text = "^^^edit\nnote: a: b ^^^ c\nold_text ---\n^^^\n---\n--- new_text\n  --- old_text\n--- old_text\nnew_text ---\n\n--- new_text\n^^^";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "edit".to_string(),
            json(
                r#"{"note": "a: b ^^^ c", "old_text": "^^^\n---\n--- new_text\n  --- old_text", "new_text": ""}"#
            )
        )]
    );
}

#[test]
fn non_ascii_and_whitespace_kept_exactly() {
    let text = "^^^write_file\npath: données/é.txt \n---\n  héllo 🌍\t\n\n^^^";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "write_file".to_string(),
            json("{\"path\": \"données/é.txt \", \"content\": \"  héllo 🌍\\t\\n\"}")
        )]
    );
}

#[test]
fn crlf_line_breaks() {
    let text = "^^^f\r\nk: v\r\nm ---\r\na\r\nb\r\n--- m\r\n---\r\nx\r\n\r\ny\r\n^^^\r\n";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "f".to_string(),
            json(r#"{"k": "v", "m": "a\r\nb", "content": "x\r\n\r\ny"}"#)
        )]
    );
    let events = invariant("^^^f\r\n---\r\nc: |\r\n  a\r\n  b\r\n^^^");
    assert_eq!(
        calls(&events),
        vec![("f".to_string(), json(r#"{"c": "a\nb\n"}"#))]
    );
}

#[test]
fn arrays_repeated_keys_and_strip_scalars() {
    let text = "^^^f\ntag: a\ntag: b\nnone: [\n]\nlist: [\n x \n\n y\n]\nempty:\n---\nk: |-\n  one\n  two\n\nm: |\n  z\n^^^";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "f".to_string(),
            json(
                r#"{"tag": ["a", "b"], "none": [], "list": ["x", "y"], "empty": "", "k": "one\ntwo", "m": "z\n"}"#
            )
        )]
    );
}

#[test]
fn a_bad_opener_is_text() {
    let text = "a ^^^f\n^^^not-a-tool\n^^^ \n^^^^g\n^^^ok\n^^^";
    let events = invariant(text);
    assert_eq!(calls(&events), vec![("ok".to_string(), json("{}"))]);
    assert_eq!(prose(&events), "a ^^^f\n^^^not-a-tool\n^^^ \n^^^^g\n");
}

#[test]
fn malformed_call_between_two_good_ones() {
    let text = "^^^a\nx: 1\n^^^\n^^^b\nthis is not a header line\n^^^\n^^^c\ny: 2\n^^^\n";
    let events = invariant(text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    assert_eq!(issues(&events)[0].0, "bad_line");
    assert_eq!(prose(&events), "");
}

#[test]
fn an_opener_inside_an_unclosed_header_starts_the_next_block() {
    let text = "^^^a\nx: 1\n^^^b\ny: 2\n^^^\n^^^c\nz: [\n^^^d\n^^^";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            ("a".to_string(), json(r#"{"x": "1"}"#)),
            ("b".to_string(), json(r#"{"y": "2"}"#)),
            ("d".to_string(), json("{}")),
        ]
    );
    let kinds: Vec<&str> = issues(&events).into_iter().map(|i| i.0).collect();
    assert_eq!(kinds, vec!["missing_end_marker", "unterminated"]);
    assert_eq!(prose(&events), "");
}

#[test]
fn raw_body_after_header_content_is_an_issue() {
    let events = invariant("^^^write_file\ncontent: x\n---\nbody\n^^^");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events)[0].0, "duplicate_content");
}

#[test]
fn unterminated_blocks() {
    // Header complete: the call, flagged.
    let events = invariant("^^^read\npath: a.rs");
    assert_eq!(
        calls(&events),
        vec![("read".to_string(), json(r#"{"path": "a.rs"}"#))]
    );
    assert_eq!(issues(&events)[0].0, "missing_end_marker");
    // Inside a value: no call, the partial text in the message.
    let events = invariant("^^^write_file\npath: a\ncontent ---\npartial bo");
    assert!(calls(&events).is_empty());
    let (kind, message) = &issues(&events)[0];
    assert_eq!(*kind, "unterminated");
    assert!(message.contains("partial bo"), "{message}");
    // The opener alone.
    let events = invariant("text\n^^^name");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events)[0].0, "unterminated");
}

#[test]
fn a_fence_after_a_chunk_boundary_still_opens_at_line_start() {
    // The engine must know the byte before a chunk that starts right after a segment.
    let events = chunked(&["caret"], &["^^^a\n^^", "^\n", "^^^b\n^^^"]);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "b"]);
}

#[test]
fn unnamed_fence_in_prose_is_text() {
    let text = "Here's some code:\n```\n^^^not-a-tool\n```\nAnd here's a real tool:\n^^^list_projects\n^^^";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![("list_projects".to_string(), json("{}"))]
    );
    assert_eq!(
        prose(&events),
        "Here's some code:\n```\n^^^not-a-tool\n```\nAnd here's a real tool:\n"
    );
}

/// Random texts built from the syntax's own pieces: no panic, and any split equals one shot.
#[test]
fn random_texts_never_panic_and_are_chunking_invariant() {
    const PIECES: &[&str] = &[
        "^^^",
        "^^^f\n",
        "\n",
        "key: v",
        "k:",
        "  - x",
        "k: [",
        "]",
        "---",
        "c ---",
        "--- c",
        "c: |",
        "c: |-",
        "  ",
        "é",
        "x",
        "\r\n",
        "content: ",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % n as u64).unwrap_or(0)
    };
    for _ in 0..400 {
        let text: String = (0..next(30)).map(|_| PIECES[next(PIECES.len())]).collect();
        let whole = one_shot(&["caret"], &text);
        let cuts: Vec<usize> = (0..3)
            .map(|_| next(text.len() + 1))
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        for cut in cuts {
            assert_eq!(
                chunked(&["caret"], &[&text[..cut], &text[cut..]]),
                whole,
                "{text:?} cut {cut}"
            );
        }
        let chars: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(chunked(&["caret"], &refs), whole, "{text:?}");
    }
}

#[test]
fn a_fence_with_no_name_at_the_end_of_the_stream_is_text() {
    // "`^^^` ... followed by anything but a name, is text" (SYNTAXES.md), the end of the
    // stream included; a name cut off is still a block cut off.
    for text in ["Hello\n^^^", "^^^", "Hello\n^^^  ", "a\n^^^ x"] {
        let events = invariant(text);
        assert!(calls(&events).is_empty(), "{text:?}");
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), text);
    }
    let events = invariant("Hi\n^^^write_fi");
    assert_eq!(prose(&events), "Hi\n");
    assert_eq!(
        issues(&events)
            .iter()
            .map(|(kind, _)| *kind)
            .collect::<Vec<_>>(),
        vec!["unterminated"]
    );
}

#[test]
fn a_closing_fence_followed_by_text_closes_the_block() {
    // The model left out the line break after the closing `^^^`: the call is kept with an
    // issue, and the rest of the line is text (not at column 0, so it opens nothing).
    for (text, name, args, after) in [
        (
            "^^^read_files\nproject: test\n^^^Now the rest.\nMore.",
            "read_files",
            r#"{"project": "test"}"#,
            "Now the rest.\nMore.",
        ),
        (
            "^^^write_file\npath: a\ncontent: hello\n^^^Done.",
            "write_file",
            r#"{"path": "a", "content": "hello"}"#,
            "Done.",
        ),
        (
            "^^^w\npath: a\n---\ncontent: |\n  body\n^^^Next:^^^x\n",
            "w",
            r#"{"path": "a", "content": "body\n"}"#,
            "Next:^^^x\n",
        ),
    ] {
        let events = invariant(text);
        assert_eq!(
            calls(&events),
            vec![(name.to_string(), json(args))],
            "{text:?}"
        );
        let kinds: Vec<&str> = issues(&events).iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, vec!["text_after_fence"], "{text:?}");
        assert_eq!(prose(&events), after, "{text:?}");
    }
    // In a raw body the line is the body's, as before.
    let events = invariant("^^^a\n---\n^^^x\n^^^\n");
    assert_eq!(
        calls(&events),
        vec![("a".to_string(), json(r#"{"content": "^^^x"}"#))]
    );
    assert!(issues(&events).is_empty());
}
