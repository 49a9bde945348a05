//! `surely_not_json` must never reject strict JSON, and should catch the usual breakages.

use proptest::prelude::*;

use super::proptests::{arb_json, json_soup};
use super::surely_not_json;
use crate::strict_json::is_strict_json;

const NO_LIMIT: usize = usize::MAX;

#[test]
fn verdict_catches_llm_breakages() {
    for text in [
        "",
        "  \n ",
        "Sure! {\"a\": 1}",
        "```json\n{\"a\": 1}\n```",
        "{'a': 1}",
        "{a: 1}",
        "{\"a\": True}",
        "{\"a\": None}",
        "{\"a\": 1, // note\n\"b\": 2}",
        "{\"a\": 1 # note\n}",
        "{\"a\": \"line\nbreak\"}",
        "{\"a\": [1, 2,], \"b\": 3}",
        "{\"a\": 1,}",
        "{\"a\": 1, \"b\": ",
        "{\"a\": \"unclosed",
        "{\"a\": [1, 2]",
        "{\"a\": 1}}",
        "{\"a\": 1} {\"b\": 2}",
        "{\"a\": 1} trailing prose",
        "[1, 2] 3",
        "\u{feff}{}",
        "{\"a\": NaN}",
        "{\"a\": 1,\n}\n",
        "[,]",
        "{\"a\" 1}",
        "{\"a\": 1 \"b\": 2}",
        "[1 2]",
        "{\"a\"::1}",
        "[1:2]",
        "{,\"a\": 1}",
        "[\"a\",,\"b\"]",
    ] {
        assert!(surely_not_json(text.as_bytes(), NO_LIMIT), "{text:?}");
    }
}

#[test]
fn verdict_passes_strict_json() {
    for text in [
        "{}",
        "[]",
        " 0 ",
        "-1.5e+3",
        "\"a\\\"b\\\\\"",
        "true",
        "null",
        "{\"a\": [1, {\"b\": null}], \"c\": \"x\\u00e9 \\\" } ] , '\"}\n",
        "[\"\\ud83d\\ude00\", \"東京\", \"\u{7f}\"]",
    ] {
        assert!(is_strict_json(text), "{text:?}");
        assert!(!surely_not_json(text.as_bytes(), NO_LIMIT), "{text:?}");
    }
}

#[test]
fn verdict_checks_tokens_up_to_the_limit_and_always_the_end() {
    let late_quote = format!("{{\"pad\": \"{}\", 'late': 1}}", "x".repeat(100));
    assert!(surely_not_json(late_quote.as_bytes(), NO_LIMIT));
    assert!(!surely_not_json(late_quote.as_bytes(), 64));
    let truncated = format!("{{\"pad\": \"{}\", \"late\": ", "x".repeat(100));
    assert!(surely_not_json(truncated.as_bytes(), 0));
    let trailing_comma = format!("{{\"pad\": \"{}\",\n}}", "x".repeat(100));
    assert!(surely_not_json(trailing_comma.as_bytes(), 0));
}

#[test]
fn verdict_reads_the_bytes_around_the_first_line_breaks() {
    // Raw line breaks inside values, past the opening bytes the tokens are checked in.
    let pad = "x".repeat(100);
    for text in [
        format!("{{\"pad\": \"{pad}\", \"code\": \"def f():\n    return 1\"}}"),
        format!("{{\"pad\": \"{pad}\", \"text\": \"line one\n\nand two\"}}"),
        format!("{{\n  \"pad\": \"{pad}\",\n  \"text\": \"a line\nwith more\"\n}}"),
    ] {
        assert!(surely_not_json(text.as_bytes(), 64), "{text:?}");
        assert!(!surely_not_json(text.as_bytes(), 0), "{text:?}");
    }
    // Only the first few are read: one deep in an indented document is left to the parser.
    let deep = format!("[{}\"a\nb\"]", "1,\n".repeat(40));
    assert!(!surely_not_json(deep.as_bytes(), 64));
    // Blanks between tokens, every kind of token on either side.
    let fine = "{\n\"a\":\n[\ntrue\n,\nfalse,\nnull\n,-1\n,2\n,{}\n]\n}\n";
    assert!(is_strict_json(fine));
    assert!(!surely_not_json(fine.as_bytes(), 64));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn verdict_never_rejects_strict_json(v in arb_json(), pad in "[ \t\r\n]{0,3}", limit in 0usize..300) {
        let compact = serde_json::to_string(&v).unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
        for text in [format!("{pad}{compact}{pad}"), pretty] {
            // 0: the ends-only check `lenient_load` runs before every strict attempt.
            for l in [0, limit, NO_LIMIT] {
                prop_assert!(!surely_not_json(text.as_bytes(), l), "{:?} limit {}", text, l);
            }
        }
    }

    #[test]
    fn verdict_rejects_only_what_is_not_json(s in json_soup(), limit in 0usize..64) {
        for l in [limit, NO_LIMIT] {
            if surely_not_json(s.as_bytes(), l) {
                prop_assert!(!is_strict_json(&s), "{:?} limit {}", s, l);
            }
        }
    }
}
