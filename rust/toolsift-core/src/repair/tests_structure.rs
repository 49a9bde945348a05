//! Unit tests of the repair: structure (commas, colons, closers, comments, surrounding text).

use super::tests::{fixes, run, text};
use super::{repair_json, RepairKind, RepairOptions};
use crate::error::ErrorKind;

#[test]
fn no_json_value() {
    for s in [
        "",
        "   \n",
        "hello world",
        "None of this is JSON",
        "2 apples",
    ] {
        let e = repair_json(s, &RepairOptions::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NoJsonValue, "{s:?}");
        assert_eq!(e.offset, s.len());
    }
}

#[test]
fn depth_limit() {
    let opts = RepairOptions { max_depth: 3 };
    assert!(repair_json("[[[1]]]", &opts).is_ok());
    let e = repair_json(r#"{"a": [[{"b": 1}]]}"#, &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DepthLimitExceeded { limit: 3 });
    assert_eq!(e.offset, 8);
    let e = repair_json("{\\\"a\\\": [[[1]]]}", &opts).unwrap_err();
    assert_eq!(e.offset, 10, "offset maps back through double escaping");
}

#[test]
fn unclosed_strings_and_containers() {
    fixes(
        r#"{"a": "b"#,
        r#"{"a": "b"}"#,
        RepairKind::UnclosedString,
        8,
    );
    fixes(r#"{"a":1,"b"#, r#"{"a":1}"#, RepairKind::TruncatedKey, 9);
    fixes(
        r#"{"a": [1, {"b": 2"#,
        r#"{"a": [1, {"b": 2}]}"#,
        RepairKind::UnclosedContainer,
        17,
    );
    fixes("[[[", "[[[]]]", RepairKind::UnclosedContainer, 3);
}

#[test]
fn missing_commas_and_colons() {
    fixes(
        r#"["a" "b" 1 2]"#,
        r#"["a", "b", 1, 2]"#,
        RepairKind::MissingComma,
        5,
    );
    fixes(
        r#"{"a": 1 "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        RepairKind::MissingComma,
        8,
    );
    fixes(r#"{"a" 1}"#, r#"{"a": 1}"#, RepairKind::MissingColon, 5);
    fixes(
        r#"{"n": 1,"r": "According...""ans": "YES"}"#,
        r#"{"n": 1,"r": "According...","ans": "YES"}"#,
        RepairKind::MissingComma,
        27,
    );
    assert_eq!(
        text("{\"a\": \"b\"\n  c: 2}"),
        "{\"a\": \"b\",\n  \"c\": 2}"
    );
    assert_eq!(text("[{\"a\":1} {\"b\":2}]"), "[{\"a\":1}, {\"b\":2}]");
}

#[test]
fn missing_values() {
    fixes(
        r#"{"a":,"b":2}"#,
        r#"{"a":"","b":2}"#,
        RepairKind::MissingValue,
        5,
    );
    // Cut off after the colon: null, where a value left out before `,` or `}` is `""`.
    fixes(r#"{"foo":"#, r#"{"foo":null}"#, RepairKind::MissingValue, 7);
    fixes(
        r#"[{"a": 1, "b": "#,
        r#"[{"a": 1, "b": null}]"#,
        RepairKind::MissingValue,
        15,
    );
    // A key cut off before its colon is dropped: a `""` under it could overwrite "v".
    fixes(
        r#"[{"key": "v", "key"#,
        r#"[{"key": "v"}]"#,
        RepairKind::TruncatedKey,
        18,
    );
    fixes(r#"{"a" "#, "{}", RepairKind::TruncatedKey, 5);
    fixes(
        r#"{'a': 1, 'b\"c'"#,
        r#"{"a": 1}"#,
        RepairKind::TruncatedKey,
        15,
    );
    fixes(r#"{"a"}"#, r#"{"a":""}"#, RepairKind::MissingValue, 4);
    fixes(
        r#"{"a", "b": 1}"#,
        r#"{"a":"", "b": 1}"#,
        RepairKind::MissingValue,
        4,
    );
    fixes("{\"a\" }", "{\"a\":\"\" }", RepairKind::MissingValue, 5);
}

#[test]
fn trailing_and_extra_commas() {
    fixes("[1,2,]", "[1,2]", RepairKind::TrailingComma, 4);
    fixes("{\"a\":1, }", "{\"a\":1 }", RepairKind::TrailingComma, 6);
    // An item the end cut off before it held anything is dropped, with its comma.
    fixes(
        r#"{"a":["x",""#,
        r#"{"a":["x"]}"#,
        RepairKind::UnclosedContainer,
        10,
    );
    assert_eq!(text("[1, {"), "[1 ]");
    assert_eq!(text("[-"), "[]");
    // Not at the end, or in an object: kept.
    assert_eq!(text(r#"[1, "", {}]"#), r#"[1, "", {}]"#);
    assert_eq!(text(r#"{"a": ""#), r#"{"a": ""}"#);
    fixes(
        r#"{"a":["x","#,
        r#"{"a":["x"]}"#,
        RepairKind::TrailingComma,
        9,
    );
    fixes("[,1,,2]", "[1,2]", RepairKind::ExtraComma, 1);
    fixes("{,\"a\":1}", "{\"a\":1}", RepairKind::ExtraComma, 1);
}

#[test]
fn mismatched_and_extra_closers() {
    fixes(
        r#"[{"b":2]"#,
        r#"[{"b":2}]"#,
        RepairKind::MismatchedCloser,
        7,
    );
    fixes(
        r#"{"a": ["x", "y"}, "b": 1}"#,
        r#"{"a": ["x", "y"], "b": 1}"#,
        RepairKind::MismatchedCloser,
        15,
    );
    fixes(
        r#"[{"k":"v"}},{"k":"v"}]"#,
        r#"[{"k":"v"},{"k":"v"}]"#,
        RepairKind::ExtraCloser,
        10,
    );
    fixes(
        "{\n\"v\":[1,2\n}",
        "{\n\"v\":[1,2\n]}",
        RepairKind::MismatchedCloser,
        11,
    );
}

#[test]
fn comments() {
    fixes(
        "{\"a\":1, // c\n\"b\":2}",
        "{\"a\":1, \n\"b\":2}",
        RepairKind::Comment,
        8,
    );
    fixes("[1, /* two */ 2]", "[1,  2]", RepairKind::Comment, 4);
    fixes(
        r#"{ "k": { "k2": "v2" # comment }, "k3": "v3" }"#,
        r#"{ "k": { "k2": "v2" }, "k3": "v3" }"#,
        RepairKind::Comment,
        20,
    );
    fixes("[1 # one\n, 2]", "[1 \n, 2]", RepairKind::Comment, 3);
    fixes("[1, 2 /* unterminated", "[1, 2 ]", RepairKind::Comment, 6);
    assert_eq!(text(r#"["a#b", "c//d"]"#), r#"["a#b", "c//d"]"#);
    // A closer in a line comment ends it only when structure follows the closer.
    assert_eq!(
        text("{\"a\": \"b\", // see {x} and } here\n \"c\": 1}"),
        "{\"a\": \"b\", \n \"c\": 1}"
    );
    assert_eq!(text("{\"a\": 1 // done }"), "{\"a\": 1 }");
    assert_eq!(text("[1, 2 # items ], 3]"), "[1, 2 ]");
}

#[test]
fn ellipsis() {
    fixes("[1,2,3,...]", "[1,2,3]", RepairKind::Ellipsis, 7);
    fixes("[1, ..., 9]", "[1,  9]", RepairKind::Ellipsis, 4);
    fixes(r#"{"a": ...}"#, r#"{"a": ""}"#, RepairKind::Ellipsis, 6);
    fixes("[1, 2 …]", "[1, 2 ]", RepairKind::Ellipsis, 6);
}

#[test]
fn unexpected_characters() {
    fixes(
        "{\"a\":1 @ }",
        "{\"a\":1  }",
        RepairKind::UnexpectedCharacter,
        7,
    );
    fixes("[1,\u{a0}2]", "[1,2]", RepairKind::UnexpectedCharacter, 3);
    fixes("[1,\u{0}2]", "[1,2]", RepairKind::UnexpectedCharacter, 3);
}

#[test]
fn leading_and_trailing_text() {
    fixes(
        "Here you go: {\"a\": 1} hope it helps",
        "{\"a\": 1}",
        RepairKind::LeadingText,
        0,
    );
    fixes(
        "{\"a\": 1} hope it helps",
        "{\"a\": 1}",
        RepairKind::TrailingText,
        9,
    );
    fixes(
        "```json\n{\"a\": 1}\n```\n",
        "{\"a\": 1}",
        RepairKind::TrailingText,
        17,
    );
    fixes(
        "{\"a\": \"b\"```",
        "{\"a\": \"b\"}",
        RepairKind::TrailingText,
        9,
    );
    fixes(
        "\"abc\" {\"a\": 1}",
        "{\"a\": 1}",
        RepairKind::LeadingText,
        0,
    );
    assert_eq!(text("  {\"a\": 1}  \n"), "  {\"a\": 1}  \n");
}

#[test]
fn concatenated_values() {
    fixes(
        r#"{"a":1}, {"b":2}"#,
        r#"[{"a":1},{"b":2}]"#,
        RepairKind::ConcatenatedValues,
        9,
    );
    fixes(
        r#"{"a":1}{"b":2}[3]"#,
        r#"[{"a":1},{"b":2},[3]]"#,
        RepairKind::ConcatenatedValues,
        14,
    );
    assert_eq!(text("{\"a\":1}\n{\"b\":2}\n"), "[{\"a\":1},{\"b\":2}]\n");
    // Two values: json_repair's readings (an empty one dropped, the same shape again
    // replacing the first when no comma stands between them).
    assert_eq!(text("[]{}"), "[]");
    assert_eq!(text(r#"{"a":1}, []"#), r#"{"a":1}"#);
    assert_eq!(text(r#"{"a":1}{"a":2}"#), r#"{"a":2}"#);
    assert_eq!(
        text(r#"[{"key":"value"}][{"key":"value_after"}]"#),
        r#"[{"key":"value_after"}]"#
    );
    assert_eq!(text(r#"{"a":1}, {"a":2}"#), r#"[{"a":1},{"a":2}]"#);
}

#[test]
fn three_or_more_values_are_a_sequence() {
    // Every value is kept, empty and repeated ones too (jsonrepair's reading of a sequence).
    fixes(
        "{\"a\":1}\n{\"a\":2}\n{\"a\":3}",
        r#"[{"a":1},{"a":2},{"a":3}]"#,
        RepairKind::ConcatenatedValues,
        16,
    );
    assert_eq!(
        text("/* 1 */\n{}\n\n/* 2 */\n{}\n\n/* 3 */\n{}\n"),
        "[{},{},{}]\n"
    );
    assert_eq!(
        text("/* 1 */\n{},\n\n/* 2 */\n{},\n\n/* 3 */\n{},\n"),
        "[{},{},{}]"
    );
    assert_eq!(text("[]{}[]"), "[[],{},[]]");
    assert_eq!(
        text("{\"a\":1}, [], {\"b\":2} done"),
        r#"[{"a":1},[],{"b":2}]"#
    );
}

#[test]
fn double_escaped() {
    fixes(
        r#"{\"stringified\": \"hello \\\"world\\\"\"}"#,
        r#"{"stringified": "hello \"world\""}"#,
        RepairKind::DoubleEscaped,
        0,
    );
    let r = run(r#"Out: [\"a\", \"b\",]"#);
    assert_eq!(r.text, r#"["a", "b"]"#);
    let trailing = r
        .repairs
        .iter()
        .find(|x| x.kind == RepairKind::TrailingComma);
    assert_eq!(
        trailing.map(|x| x.offset),
        Some(18),
        "offset in the escaped input"
    );
    // Containers first, then the escaped quote.
    assert_eq!(
        text(r#"[{\"id\": \"1\"}, {\"id\": \"2\"}]"#),
        r#"[{"id": "1"}, {"id": "2"}]"#
    );
}

#[test]
fn top_level_scalars() {
    assert_eq!(text("'abc'"), r#""abc""#);
    assert_eq!(text("\"abc"), r#""abc""#);
    assert_eq!(text(" 42 "), " 42 ");
    assert_eq!(text("+5"), "5");
    assert!(repair_json("-", &RepairOptions::default()).is_err());
    assert_eq!(text("'don't'"), r#""don't""#);
    for prose in ["\"abc\" xyz", "\"Sure,\" he said"] {
        let e = repair_json(prose, &RepairOptions::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NoJsonValue, "{prose:?}");
    }
}
