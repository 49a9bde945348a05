use super::*;

fn spans(text: &str) -> Vec<(usize, usize, usize)> {
    let r = scan_json_spans(text.as_bytes(), &ScanOptions::default()).unwrap();
    r.spans.iter().map(|s| (s.start, s.end, s.depth)).collect()
}

fn lenient() -> ScanOptions {
    ScanOptions {
        single_quotes: true,
        ..ScanOptions::default()
    }
}

#[test]
fn every_span_at_every_depth_inner_first() {
    assert_eq!(
        spans(r#"x {"a": [1, {"b": 2}]} y"#),
        vec![(12, 20, 2), (8, 21, 1), (2, 22, 0)]
    );
}

#[test]
fn brackets_in_strings_and_escapes_do_not_count() {
    let text = r#"{"a": "} ] \" {", "b": "\\"}"#;
    assert_eq!(spans(text), vec![(0, text.len(), 0)]);
}

#[test]
fn prose_quotes_outside_brackets_mean_nothing() {
    // An unbalanced quote or apostrophe in prose must not swallow the JSON after it.
    let text = r#"He said "hi and it's {"a": "b"} ok"#;
    let r = scan_json_spans(text.as_bytes(), &lenient()).unwrap();
    assert_eq!(r.spans.len(), 1);
    assert_eq!(&text[r.spans[0].start..r.spans[0].end], r#"{"a": "b"}"#);
    assert!(r.end.open.is_empty());
}

#[test]
fn unterminated_reports_closers_innermost_first() {
    let r = scan_json_spans(br#"{"a": [1, {"b": "x"#, &ScanOptions::default()).unwrap();
    assert_eq!(r.end.open.len(), 3);
    assert_eq!(r.end.open_string, Some(b'"'));
    assert_eq!(r.end.closers, b"\"}]}".to_vec());
    assert_eq!(r.end.open[0].start, 0);
}

#[test]
fn stray_closer_is_ignored_mismatched_closer_closes_innermost() {
    let r = scan_json_spans(br#"}] [{"b":2]"#, &ScanOptions::default()).unwrap();
    assert_eq!(r.spans.len(), 1);
    assert_eq!((r.spans[0].start, r.spans[0].end), (4, 11));
    assert!(r.spans[0].mismatched);
    assert_eq!(r.end.closers, b"]".to_vec());
}

#[test]
fn a_flood_of_closers_no_open_bracket_takes_is_ignored() {
    // `[` × n then `}` × n: every `}` is stray (no object is open), and deciding that must not
    // walk the n open arrays each time (it did: quadratic).
    let n = 50_000;
    let text = format!("{}{}", "[".repeat(n), "}".repeat(n));
    let r = scan_json_spans(text.as_bytes(), &ScanOptions::default()).unwrap();
    assert!(r.spans.is_empty());
    assert_eq!(r.end.open.len(), n);
    let closed = scan_json_spans(format!("{{{text}").as_bytes(), &ScanOptions::default()).unwrap();
    // With an object open at the bottom, each `}` closes the innermost array, mismatched.
    assert_eq!(closed.spans.len(), n);
    assert!(closed.spans.iter().all(|s| s.mismatched));
}

#[test]
fn mismatch_flag_propagates_to_parents() {
    let r = scan_json_spans(br#"{"k": [1, 2}, "z": 1}"#, &ScanOptions::default()).unwrap();
    let outer = r.spans.iter().find(|s| s.depth == 0).unwrap();
    assert!(outer.mismatched);
    assert_eq!(outer.end, 21);
}

#[test]
fn single_quotes_only_where_a_string_can_start() {
    let text = "{'a': 'x } y', 'b': 'don't'}";
    let r = scan_json_spans(text.as_bytes(), &lenient()).unwrap();
    assert_eq!(r.spans.len(), 1);
    assert_eq!(r.spans[0].end, text.len());
    // Strict mode: the apostrophes are plain bytes, so `}` inside closes early.
    let strict = scan_json_spans(text.as_bytes(), &ScanOptions::default()).unwrap();
    assert_eq!(strict.spans[0].end, 10);
}

#[test]
fn apostrophe_in_prose_inside_brackets_is_not_a_string() {
    let r = scan_json_spans(b"[it's {\"a\": 1}]", &lenient()).unwrap();
    assert_eq!(r.spans.len(), 2);
}

#[test]
fn depth_limit_is_an_error_with_offset() {
    let opts = ScanOptions {
        max_depth: 3,
        ..ScanOptions::default()
    };
    let err = scan_json_spans(b"ab[[[[]]]]", &opts).unwrap_err();
    assert_eq!(err.offset, 5);
    assert_eq!(err.kind, ErrorKind::DepthLimitExceeded { limit: 3 });
    assert!(err.to_string().contains("byte 5"));
}

#[test]
fn hundred_thousand_deep_nesting_without_stack_overflow() {
    let n = DEFAULT_MAX_DEPTH;
    let mut text = "[".repeat(n);
    text.push_str(&"]".repeat(n));
    let r = scan_json_spans(text.as_bytes(), &ScanOptions::default()).unwrap();
    assert_eq!(r.spans.len(), n);
    assert_eq!(r.spans.last().unwrap().end, 2 * n);
    let deeper = format!("[{text}]");
    assert!(scan_json_spans(deeper.as_bytes(), &ScanOptions::default()).is_err());
}

#[test]
fn chunked_equals_one_shot_at_every_split_and_one_byte_at_a_time() {
    let text = r#"pre {"a": "x\"}", 'b': ['q', {"c": null}]} mid [1, "\\"] {"open": "#;
    for opts in [ScanOptions::default(), lenient()] {
        let whole = scan_json_spans(text.as_bytes(), &opts).unwrap();
        for cut in 0..=text.len() {
            let mut s = JsonScanner::new(opts);
            let mut got = Vec::new();
            s.feed(&text.as_bytes()[..cut], &mut got).unwrap();
            s.feed(&text.as_bytes()[cut..], &mut got).unwrap();
            assert_eq!(got, whole.spans, "cut at {cut}");
            assert_eq!(s.finish(), whole.end);
        }
        let mut s = JsonScanner::new(opts);
        let mut got = Vec::new();
        for b in text.as_bytes() {
            s.feed(std::slice::from_ref(b), &mut got).unwrap();
        }
        assert_eq!(got, whole.spans);
        assert_eq!(s.consumed(), text.len());
    }
}

#[test]
fn failed_scanner_stays_failed() {
    let mut s = JsonScanner::new(ScanOptions {
        max_depth: 1,
        ..ScanOptions::default()
    });
    let mut out = Vec::new();
    assert!(s.feed(b"[[", &mut out).is_err());
    assert!(s.feed(b"]]", &mut out).is_err());
    s.reset();
    assert!(s.feed(b"[]", &mut out).is_ok());
    assert_eq!(out.len(), 1);
}
