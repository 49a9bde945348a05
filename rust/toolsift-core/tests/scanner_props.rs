//! Properties of the scanner: chunking never changes the answer, and nothing panics.

use proptest::prelude::*;
use toolsift_core::scanner::{scan_json_spans, JsonScanner, ScanOptions};

fn json_ish() -> impl Strategy<Value = Vec<u8>> {
    // Bytes weighted towards the ones the scanner cares about.
    let interesting = prop::sample::select(vec![
        b'{', b'}', b'[', b']', b'"', b'\'', b'\\', b',', b':', b' ', b'a', b'1', 0xC3, 0xA9,
    ]);
    prop::collection::vec(prop_oneof![4 => interesting, 1 => any::<u8>()], 0..300)
}

/// The scanner's bracket rules written the obvious way (a walk of the open brackets for each
/// mismatched closer): a closer of the top's kind closes it; one of a kind open further out
/// closes the top, flagged mismatched (and so is its parent); any other closer is ignored.
fn reference_spans(text: &[u8]) -> Vec<(usize, usize, usize, bool)> {
    let mut stack: Vec<(usize, u8, bool)> = Vec::new();
    let mut out = Vec::new();
    for (at, &b) in text.iter().enumerate() {
        match b {
            b'{' | b'[' => stack.push((at, if b == b'{' { b'}' } else { b']' }, false)),
            b'}' | b']' => {
                let Some(&(start, closer, flagged)) = stack.last() else {
                    continue;
                };
                if closer != b && !stack.iter().any(|f| f.1 == b) {
                    continue;
                }
                stack.pop();
                let dirty = flagged || closer != b;
                if dirty {
                    if let Some(parent) = stack.last_mut() {
                        parent.2 = true;
                    }
                }
                out.push((start, at + 1, stack.len(), dirty));
            }
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn brackets_follow_the_reference_rules(text in prop::collection::vec(prop::sample::select(vec![b'{', b'}', b'[', b']', b' ']), 0..300)) {
        let r = scan_json_spans(&text, &ScanOptions::default()).unwrap();
        let got: Vec<_> = r.spans.iter().map(|s| (s.start, s.end, s.depth, s.mismatched)).collect();
        prop_assert_eq!(got, reference_spans(&text));
    }

    #[test]
    fn any_chunking_equals_one_shot(text in json_ish(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8), single in any::<bool>()) {
        let opts = ScanOptions { single_quotes: single, ..ScanOptions::default() };
        let whole = scan_json_spans(&text, &opts).unwrap();
        let mut points: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).collect();
        points.sort_unstable();
        let mut s = JsonScanner::new(opts);
        let mut got = Vec::new();
        let mut prev = 0;
        for p in points.into_iter().chain(std::iter::once(text.len())) {
            s.feed(&text[prev..p], &mut got).unwrap();
            prev = p;
        }
        prop_assert_eq!(got, whole.spans);
        prop_assert_eq!(s.finish(), whole.end);
    }

    #[test]
    fn spans_are_balanced_and_well_nested(text in json_ish()) {
        let r = scan_json_spans(&text, &ScanOptions::default()).unwrap();
        for s in &r.spans {
            prop_assert!(s.start < s.end && s.end <= text.len());
            prop_assert!(matches!(text[s.start], b'{' | b'['), "span must start at an opener");
            prop_assert!(matches!(text[s.end - 1], b'}' | b']'), "span must end at a closer");
        }
    }

    #[test]
    fn never_panics_on_arbitrary_bytes(text in prop::collection::vec(any::<u8>(), 0..500), depth in 0usize..5) {
        let opts = ScanOptions { single_quotes: true, max_depth: depth };
        let _ = scan_json_spans(&text, &opts);
    }

    #[test]
    fn serde_json_values_are_one_outer_span(v in arb_json()) {
        let text = serde_json::to_string(&v).unwrap();
        let r = scan_json_spans(text.as_bytes(), &ScanOptions::default()).unwrap();
        if text.starts_with('{') || text.starts_with('[') {
            let outer: Vec<_> = r.spans.iter().filter(|s| s.depth == 0).collect();
            prop_assert_eq!(outer.len(), 1);
            prop_assert_eq!((outer[0].start, outer[0].end), (0, text.len()));
            prop_assert!(!outer[0].mismatched);
            prop_assert!(r.end.open.is_empty());
        }
    }
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::Value::Number(n.into())),
        "[ -~{}\\[\\]\"\\\\é]{0,12}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-z{}\\[\\]\"]{0,6}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}
