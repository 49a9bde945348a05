//! The fast path must change nothing: every input is repaired with it and with the general
//! step alone, and the results (text, repairs, errors) must be the same.

use proptest::prelude::*;

use super::fast::ENABLED;
use super::{repair_json, RepairOptions, Repaired};
use crate::error::Error;

/// `repair_json` without the fast path.
fn general_step_only(input: &str, options: RepairOptions) -> Result<Repaired, Error> {
    ENABLED.with(|e| e.set(false));
    let r = repair_json(input, &options);
    ENABLED.with(|e| e.set(true));
    r
}

fn same_with_depth(input: &str, max_depth: usize) -> Result<(), TestCaseError> {
    let options = RepairOptions { max_depth };
    let fast = repair_json(input, &options);
    let slow = general_step_only(input, options);
    prop_assert_eq!(fast, slow, "input {:?}, max_depth {}", input, max_depth);
    Ok(())
}

fn same(input: &str) {
    for max_depth in [100_000, 0, 1, 2, 3] {
        if let Err(e) = same_with_depth(input, max_depth) {
            panic!("{e}");
        }
    }
}

/// Documents shaped like LLM tool arguments, with the breakages the fast path takes on.
const DOCS: [&str; 8] = [
    r#"{"query": "rust \"json\" \\ repair", "max": 10, "ratio": -0.5e-3, "ok": true, "tags": ["a", "é", "\u00e9", "\ud83d\ude00"], "none": null}"#,
    "{\n  \"a\": {\n    \"b\": [1, 2.5, {\"c\": []}],\n    \"d\": {}\n  },\n  \"e\": \"東京\"\n}",
    "{'name': 'Ada', 'quote': 'say \"hi\"', 'esc': 'a\\nb\\'c', 'list': ['x', 'y',], 'n': 'it''s'}",
    "{name: \"Ada\", $id: 7, key_2 : 'v', bad-key: 1, \"k\"\t: 2, x\t:3, spaced key: 4}",
    "{\"a\": True, \"b\": FALSE, \"c\": None, \"d\": none, \"e\": NaN, \"f\": undefined, \"g\": Nonesuch}",
    "{\"n\": [0, -0, 01, 1., .5, +1, 1e, 1e+5, 1E-2, -, 1/3, 12:30, 2025-01-01, 0x1F]}",
    "Sure:\n```json\n{\n  \"a\": \"b\",  // note }, x\n  \"c\": [1, 2,], # more\n  \"d\": \"e\" /* c */, \"f\": 'g'\n}\n```\nDone.",
    "[{\"a\": \"b\" \"c\": 1}, {\"a\" 1}, {\"a\": \"x\"y\", \"b\": 2}, [1 2 \"3\"], {\"a\":}, {,}, [,], {\"a\": 1]]",
];

#[test]
fn documents_and_all_their_prefixes() {
    for doc in DOCS {
        for (i, _) in doc.char_indices() {
            same(&doc[..i]);
        }
        same(doc);
        same(&format!("[{doc}, {doc}]"));
        same(&format!("{doc}\n{doc}"));
    }
}

#[test]
fn strings_at_the_edge_of_the_fast_path() {
    for s in [
        r#"{"a": "b" , "c": "d" }"#,
        r#"{"a": "b" "c": "d"}"#,
        r#"{"a": "b"c", "d": 1}"#,
        r#"{"a": "b, "c": 1}"#,
        r#"{"a" "b": 1}"#,
        r#"{"a": "\x", "b": "\u12", "c": "\ud800", "d": "\udc00x"}"#,
        "{\"a\": \"line\nbreak\", \"b\": \"tab\tx\", \"c\": \"\u{1}\"}",
        "{'a': 'b' 'c': 'd'}",
        "{'a': 'it's', 'b': 'x'}",
        "{'a': '\\'', 'b': 'say \"\\\"hi\\\"\"'}",
        "['a' , 'b' ]",
        "[\"a\" 1, \"b\" true, \"c\" [], \"d\" {}]",
        "{\"a\": \"b\" # c\n}",
        "{\"a\": \"b\"```",
        "{“a”: “b”, ‘c’: ‘d’}",
    ] {
        same(s);
    }
}

/// Fragments glued together at random, separated by `|` here.
const PIECES: &str = "{|}|[|]|,|:| |\n    |\t|\"|'|\\|\\\"|\\'|\\u00e9|\\ud800|\"k\"|'k'|\
    key|$k|k-y|\"v\"|'v'|\"a\\\"b\"|'a\"b'|1|-2.5e3|01|1.|true|True|None|NaN|undefined|\
    nul|// c\n|# c\n|/* c */|```|...|“|”|é|東京|\u{0}|\u{a0}";

fn soup() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(PIECES.split('|').collect::<Vec<_>>());
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_path_matches_the_general_step(s in soup(), depth in 0usize..6) {
        same_with_depth(&s, depth)?;
        same_with_depth(&s, 100_000)?;
    }

    #[test]
    fn fast_path_matches_the_general_step_on_any_string(s in any::<String>()) {
        same_with_depth(&s, 100_000)?;
    }
}

#[test]
fn a_key_ending_in_its_colon_takes_the_general_step() {
    // Found by `fast_path_matches_the_general_step`: the fast path read `':'` as a key.
    same("'{':'");
    same(r#"{"a:"x"}"#);
}
