use crate::stream::events::{Event, SegmentKind};
use crate::stream::test_support::{calls, issues, prose};
use crate::stream::tests::{chunked, one_shot};

const S: &[&str] = &["code_assistant_xml"];

/// Every two-way split and one char at a time give the one-shot events.
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
    whole
}

#[test]
fn values_are_raw_with_one_newline_trimmed_at_each_end() {
    let text = "Hi\n<tool:write>\n<param:path>é/a.rs</param:path>\n<param:content>\n\n  a < b && <div> </param:x \n\n</param:content>\n</tool:write> bye";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![(
            "write".to_string(),
            serde_json::json!({"path": "é/a.rs", "content": "\n  a < b && <div> </param:x \n"})
        )]
    );
    assert_eq!(prose(&events), "Hi\n bye");
    assert!(events.iter().any(|e| matches!(e, Event::SegmentStart { kind: SegmentKind::ToolCall, name: Some(n), .. } if n == "write")));
}

#[test]
fn repeated_params_become_lists_and_two_calls_in_one_chunk() {
    let text = "<tool:read_files><param:path>a</param:path><param:path>b</param:path></tool:read_files><tool:x.y-z></tool:x.y-z>";
    let events = invariant(text);
    assert_eq!(
        calls(&events),
        vec![
            (
                "read_files".to_string(),
                serde_json::json!({"path": ["a", "b"]})
            ),
            ("x.y-z".to_string(), serde_json::json!({})),
        ]
    );
}

#[test]
fn strict_mode_errors_are_issues_and_good_calls_survive() {
    let good = "<tool:a><param:k>1</param:k></tool:a>";
    for (bad, needle) in [
        (
            "<tool:r><param:p>x</param:p></tool:list>",
            "mismatching tool names r vs list",
        ),
        ("<tool:r><foo>x</foo></tool:r>", "unexpected tag <foo>"),
        ("<tool:r><param:p>x</tool:r>", "unclosed parameter p"),
        (
            "<tool:r><param:p>x<param:q>y</param:q></param:p></tool:r>",
            "nested parameter",
        ),
        (
            "<tool:r><param:p>x</param:q></tool:r>",
            "mismatching parameter names p vs q",
        ),
        ("<tool:r><param:p>x</param:p>", "nested tool"),
    ] {
        let text = format!("{good} {bad} {good}");
        let events = invariant(&text);
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["a", "a"], "{bad}");
        let found = issues(&events);
        assert_eq!(found.len(), 1, "{bad}: {found:?}");
        assert!(found[0].1.contains(needle), "{bad}: {found:?}");
    }
}

#[test]
fn unterminated_at_the_end_is_an_issue_with_the_partial_text() {
    let events = invariant("x <tool:r><param:p>partial é");
    assert!(calls(&events).is_empty());
    let found = issues(&events);
    assert_eq!(found[0].0, "unterminated");
    assert!(found[0].1.contains("partial é"));
    let events = invariant("x <tool:r><param:p>1</param:p>");
    assert!(calls(&events).is_empty());
    assert!(issues(&events)[0].1.contains("unclosed tool r"));
}

#[test]
fn thinking_is_a_reasoning_segment() {
    let text = "<thinking>\nplan <b> </thinkin\n</thinking>\n<tool:f></tool:f>";
    let events = invariant(text);
    let reasoning: String = events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("reasoning_") => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, "plan <b> </thinkin");
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(prose(&events), "\n");
}

#[test]
fn a_marker_not_followed_by_a_name_is_text() {
    let events = invariant("see <tool: x> and <tool:f>");
    assert_eq!(prose(&events), "see <tool: x> and ");
    assert!(calls(&events).is_empty());
}

/// Random texts built from the syntax's own pieces: no panic, and every chunking agrees.
#[test]
fn random_texts_are_chunk_invariant() {
    const TOKENS: &[&str] = &[
        "<tool:f>",
        "</tool:f>",
        "</tool:g>",
        "<tool:",
        "<param:a>",
        "</param:a>",
        "<param:b>",
        "</param:b>",
        "<param:",
        "</param:",
        "<thinking>",
        "</thinking>",
        "<x>",
        "\n",
        " ",
        "é",
        "<",
        ">",
        "&",
        "a",
        ":",
        "</",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
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
