//! Property tests of the repair: it never panics, its output is always JSON, valid JSON passes
//! through unchanged, and repairing twice changes nothing. Plus very deep nesting.

use proptest::prelude::*;

use super::{repair_json, RepairOptions};

/// Fragments that exercise the repair paths, glued together at random.
pub(super) fn json_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => prop::sample::select(vec![
            "{", "}", "[", "]", ",", ":", "\"", "'", "\\", "\\\"", "\\u", "\\ud800", "\\n", " ",
            "\n", "\t", "a", "key", "1", "-", ".", "e", "0", "1.5", "true", "Tru", "None",
            "NaN", "-Infinity", "undefined", "null", "//", "/*", "*/", "#", "```", "...",
            "“", "”", "‘", "’", "„", "`", "´", "é", "\u{a0}", "\u{feff}", "\u{0}", "{\\\"", "http://x",
        ]).prop_map(str::to_owned),
        1 => any::<String>(),
        1 => "[ -~]{0,6}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

pub(super) fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::Value::Number(n.into())),
        any::<u64>().prop_map(|n| serde_json::Value::Number(n.into())),
        any::<f64>().prop_filter_map("finite", |f| {
            serde_json::Number::from_f64(f).map(serde_json::Value::Number)
        }),
        any::<String>().prop_map(serde_json::Value::String),
        "[ -~“”'\\\\\"é\u{1}\n]{0,12}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[ -~“”'\"]{0,6}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn check_output(input: &str) -> Result<(), TestCaseError> {
    if let Ok(r) = repair_json(input, &RepairOptions::default()) {
        let parsed = serde_json::from_str::<serde_json::Value>(&r.text);
        prop_assert!(parsed.is_ok(), "{:?} -> {:?}: {:?}", input, r.text, parsed);
        for rep in &r.repairs {
            prop_assert!(rep.offset <= input.len(), "offset past the end: {rep:?}");
        }
        let again = repair_json(&r.text, &RepairOptions::default());
        prop_assert!(again.is_ok(), "{:?} -> {:?} fails again", input, r.text);
        let again = again.unwrap_or_else(|_| unreachable!());
        prop_assert_eq!(&again.text, &r.text, "not idempotent for {:?}", input);
        prop_assert!(
            again.repairs.is_empty(),
            "{:?}: {:?}",
            r.text,
            again.repairs
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn repair_any_string_gives_json_and_is_idempotent(s in any::<String>()) {
        check_output(&s)?;
    }

    #[test]
    fn repair_json_soup_gives_json_and_is_idempotent(s in json_soup()) {
        check_output(&s)?;
    }

    #[test]
    fn repair_keeps_valid_json(v in arb_json(), pad in "[ \t\r\n]{0,3}") {
        let compact = serde_json::to_string(&v).unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
        for text in [compact, pretty, format!("{pad}{}{pad}", serde_json::to_string(&v).unwrap_or_default())] {
            let r = repair_json(&text, &RepairOptions::default());
            prop_assert!(r.is_ok(), "{:?}", text);
            let r = r.unwrap_or_else(|_| unreachable!());
            prop_assert_eq!(&r.text, &text);
            prop_assert!(r.repairs.is_empty(), "{:?}: {:?}", text, r.repairs);
        }
    }

    #[test]
    fn repair_small_depth_limits_never_panic(s in json_soup(), depth in 0usize..4) {
        let _ = repair_json(&s, &RepairOptions { max_depth: depth });
    }
}

#[test]
fn repair_deep_unterminated_arrays() {
    let n = 100_000;
    let input = "[".repeat(n);
    let r = repair_json(&input, &RepairOptions::default()).unwrap();
    assert_eq!(r.text, format!("{input}{}", "]".repeat(n)));
    let e = repair_json(&format!("[{input}"), &RepairOptions::default()).unwrap_err();
    assert_eq!(e.offset, n);
}

#[test]
fn repair_deep_unterminated_objects() {
    let n = 100_000;
    let input = "{\"a\":".repeat(n);
    let r = repair_json(&input, &RepairOptions::default()).unwrap();
    assert_eq!(r.text, format!("{input}null{}", "}".repeat(n)));
    let closed = format!("{input}1{}", "}".repeat(n));
    let r = repair_json(&closed, &RepairOptions::default()).unwrap();
    assert_eq!(r.text, closed);
    assert!(r.repairs.is_empty());
}

#[test]
fn repair_deep_mismatched_closers_stay_linear() {
    // Each `}` looks for an open object; with counters that is O(1), not O(depth).
    let n = 100_000;
    let input = format!("{}{}", "[".repeat(n), "}".repeat(n));
    let r = repair_json(&input, &RepairOptions::default()).unwrap();
    assert_eq!(r.text, format!("{}{}", "[".repeat(n), "]".repeat(n)));
}
