//! Unit tests of the repair, one or more per repair kind: strings and scalars here, structure
//! in `tests_structure`.

use super::{repair_json, RepairKind, RepairOptions, Repaired};

pub(super) fn run(input: &str) -> Repaired {
    let r = repair_json(input, &RepairOptions::default())
        .unwrap_or_else(|e| panic!("{input:?} failed: {e}"));
    assert!(
        serde_json::from_str::<serde_json::Value>(&r.text).is_ok(),
        "{input:?} gave invalid JSON {:?}",
        r.text
    );
    let again = repair_json(&r.text, &RepairOptions::default()).unwrap();
    assert_eq!(again.text, r.text, "not idempotent for {input:?}");
    assert!(again.repairs.is_empty(), "second pass repaired {input:?}");
    r
}

/// Repairs `input`, checks the text, and checks that `kind` was reported at `offset`.
pub(super) fn fixes(input: &str, expected: &str, kind: RepairKind, offset: usize) {
    let r = run(input);
    assert_eq!(r.text, expected, "input {input:?}");
    assert!(
        r.repairs
            .iter()
            .any(|x| x.kind == kind && x.offset == offset),
        "{input:?}: expected {} at {offset}, got {:?}",
        kind.as_str(),
        r.repairs
    );
}

pub(super) fn text(input: &str) -> String {
    run(input).text
}

#[test]
fn valid_json_is_unchanged() {
    for s in [
        r#"{"a": [1, 2.5e-3, -0, true, false, null], "b": {"c": "\u0041\\\"\n"}}"#,
        "  \n[ ]\t\r\n",
        r#""just a string""#,
        "123456789012345678901234567890",
        r#"{"":{"":[[],{}]}}"#,
        r#"["\ud83d\ude00", "é", "\/"]"#,
        "-1.5E+10",
        "null",
    ] {
        let r = run(s);
        assert_eq!(r.text, s);
        assert!(r.repairs.is_empty(), "{s:?}: {:?}", r.repairs);
    }
}

#[test]
fn single_quotes() {
    fixes("{'a': 'b'}", r#"{"a": "b"}"#, RepairKind::SingleQuotes, 1);
    fixes(
        "['don't', 'x']",
        r#"["don't", "x"]"#,
        RepairKind::SingleQuotes,
        1,
    );
    fixes(
        r#"{'a': 'say "hi"'}"#,
        r#"{"a": "say \"hi\""}"#,
        RepairKind::SingleQuotes,
        6,
    );
}

#[test]
fn backtick_and_acute_quotes() {
    // jsonrepair's "special quotes": read like single quotes, closed by any of ' ‘ ’ ` ´.
    fixes("{`a´:`b´}", r#"{"a":"b"}"#, RepairKind::SmartQuotes, 1);
    fixes("`foo´", r#""foo""#, RepairKind::SmartQuotes, 0);
    fixes("`foo'", r#""foo""#, RepairKind::SmartQuotes, 0);
    fixes("´foo`", r#""foo""#, RepairKind::SmartQuotes, 0);
    fixes("[`a’, `b‘]", r#"["a", "b"]"#, RepairKind::SmartQuotes, 8);
    fixes(
        "{\"cmd\": `ls -la`}",
        r#"{"cmd": "ls -la"}"#,
        RepairKind::SmartQuotes,
        8,
    );
    // An apostrophe that cannot end it stays in it, as in a single-quoted string; so do a
    // double quote (escaped) and other characters with a quote's lead byte.
    assert_eq!(text("[`don't`, 1]"), r#"["don't", 1]"#);
    assert_eq!(text("[`say \"hi\"´]"), r#"["say \"hi\""]"#);
    assert_eq!(text("[`a\u{a0}b – c`]"), "[\"a\u{a0}b – c\"]");
    // A run of three is a fence; a backtick inside a string or an unquoted word is kept.
    assert_eq!(text("```json\n{\"a\":1}\n```"), r#"{"a":1}"#);
    assert_eq!(text(r#"{"a": "x `y` z"}"#), r#"{"a": "x `y` z"}"#);
    assert_eq!(text("{\"a\": x`y`}"), r#"{"a": "x`y`"}"#);
    // Prose that opens with a backtick is still prose.
    assert_eq!(text("`x` is {\"a\": 1}"), r#"{"a": 1}"#);
}

#[test]
fn smart_quotes() {
    fixes("{“a”:“b”}", r#"{"a":"b"}"#, RepairKind::SmartQuotes, 1);
    fixes("[‘it’s’]", r#"["it’s"]"#, RepairKind::SmartQuotes, 1);
    let r = run(r#"{"t": "„quoted“ text"}"#);
    assert_eq!(r.text, r#"{"t": "„quoted“ text"}"#);
    assert!(r.repairs.is_empty());
}

#[test]
fn control_characters() {
    fixes(
        "{\"a\": \"x\ny\tz\u{1}\"}",
        r#"{"a": "x\ny\tz\u0001"}"#,
        RepairKind::ControlCharacter,
        8,
    );
    fixes(
        "{\"k\t\": 1}",
        r#"{"k\t": 1}"#,
        RepairKind::ControlCharacter,
        3,
    );
}

#[test]
fn unescaped_quotes() {
    fixes(
        r#"{"key": "apple "bee" carrot"}"#,
        r#"{"key": "apple \"bee\" carrot"}"#,
        RepairKind::UnescapedQuote,
        15,
    );
    assert_eq!(
        text(r#"{"a": "Lorem "ipsum" s,"}"#),
        r#"{"a": "Lorem \"ipsum\" s,"}"#
    );
    assert_eq!(
        text(r#"["He said "hi" there"]"#),
        r#"["He said \"hi\" there"]"#
    );
    assert_eq!(
        text(r#"{"a": "x "y" z", "b": 1}"#),
        r#"{"a": "x \"y\" z", "b": 1}"#
    );
    assert_eq!(text(r#"{"a"b": 1}"#), r#"{"a\"b": 1}"#);
    fixes(
        r#"{"a": "b, "c": "d"}"#,
        r#"{"a": "b", "c": "d"}"#,
        RepairKind::UnclosedString,
        8,
    );
    assert_eq!(text("{'a': 'x,  'y': 1}"), r#"{"a": "x",  "y": 1}"#);
    assert_eq!(text(r#"{"a": "b, "c" d"}"#), r#"{"a": "b, \"c\" d"}"#);
}

#[test]
fn invalid_escapes() {
    fixes(
        r#"{"p": "C:\Users\x"}"#,
        r#"{"p": "C:\\Users\\x"}"#,
        RepairKind::InvalidEscape,
        9,
    );
    fixes(
        r#"{"a": "it\'s"}"#,
        r#"{"a": "it's"}"#,
        RepairKind::InvalidEscape,
        9,
    );
    fixes(
        r#"["\u12G4"]"#,
        r#"["\\u12G4"]"#,
        RepairKind::InvalidEscape,
        2,
    );
    fixes(r#"["a\"#, r#"["a\\"]"#, RepairKind::InvalidEscape, 3);
}

#[test]
fn lone_surrogates() {
    fixes(
        r#"["\ud800x"]"#,
        r#"["\ufffdx"]"#,
        RepairKind::LoneSurrogate,
        2,
    );
    fixes(
        r#"["\udc00\ud83d\ude00"]"#,
        r#"["\ufffd\ud83d\ude00"]"#,
        RepairKind::LoneSurrogate,
        2,
    );
    fixes(
        r#"["\ud800\u0041"]"#,
        r#"["\ufffd\u0041"]"#,
        RepairKind::LoneSurrogate,
        2,
    );
}

#[test]
fn unquoted_keys_and_values() {
    fixes(
        "{message: 1}",
        r#"{"message": 1}"#,
        RepairKind::UnquotedKey,
        1,
    );
    fixes(
        r#"{"a": hello world}"#,
        r#"{"a": "hello world"}"#,
        RepairKind::UnquotedString,
        6,
    );
    fixes(
        "{a: b\nc: d}",
        "{\"a\": \"b\",\n\"c\": \"d\"}",
        RepairKind::UnquotedString,
        4,
    );
    fixes(
        r#"{"key":value "key2":"value2" }"#,
        r#"{"key":"value", "key2":"value2" }"#,
        RepairKind::MissingComma,
        13,
    );
    assert_eq!(
        text(r#"{"d": 2024-10-18T18:35:22Z}"#),
        r#"{"d": "2024-10-18T18:35:22Z"}"#
    );
    assert_eq!(
        text(r#"{"f": 1/3, "u": 57eeeeb1-450b}"#),
        r#"{"f": "1/3", "u": "57eeeeb1-450b"}"#
    );
    assert_eq!(text(r#"{"p": C:\dir}"#), r#"{"p": "C:\\dir"}"#);
    assert_eq!(text("{\"a\": x // note\n}"), "{\"a\": \"x\" \n}");
}

#[test]
fn literals() {
    fixes(
        "[True, FALSE, None, Null, undefined]",
        "[true, false, null, null, null]",
        RepairKind::NonStandardLiteral,
        1,
    );
    fixes(
        "[NaN, Infinity, -Infinity]",
        "[null, null, null]",
        RepairKind::NonFiniteNumber,
        16,
    );
    fixes("[tr", "[true]", RepairKind::TruncatedLiteral, 1);
    fixes(
        r#"{"a": fals"#,
        r#"{"a": false}"#,
        RepairKind::TruncatedLiteral,
        6,
    );
    fixes(
        r#"{"a": nul"#,
        r#"{"a": null}"#,
        RepairKind::TruncatedLiteral,
        6,
    );
    assert_eq!(text("[tru, 1]"), r#"["tru", 1]"#);
    // Alone, only JSON's own words are a value (json_repair's reading); in a container any
    // spelling is.
    assert_eq!(text("[TRUE]"), "[true]");
    assert_eq!(text("true"), "true");
    for alone in ["TRUE", "True", "None", "Null", "NaN"] {
        assert!(
            repair_json(alone, &RepairOptions::default()).is_err(),
            "{alone}"
        );
    }
}

#[test]
fn numbers() {
    fixes("[.5]", "[0.5]", RepairKind::NumberFormat, 1);
    fixes("[-.5, +1]", "[-0.5, 1]", RepairKind::NumberFormat, 6);
    // A float cut off after its integer part stays a float, as both reference suites read
    // it; an exponent without digits is dropped (json_repair's reading).
    fixes("[1., 2]", "[1.0, 2]", RepairKind::NumberFormat, 1);
    fixes("[1e]", "[1]", RepairKind::NumberFormat, 1);
    fixes("[2e-, 3E+]", "[2, 3]", RepairKind::NumberFormat, 1);
    fixes("[1.e5]", "[1.0e5]", RepairKind::NumberFormat, 1);
    // A lone sign: a missing value in an object (json_repair's reading), null in a list.
    fixes(r#"{"a": -"#, r#"{"a": ""}"#, RepairKind::MissingValue, 6);
    fixes("[-, 1]", "[null, 1]", RepairKind::NumberFormat, 1);
    fixes("[1.", "[1.0]", RepairKind::NumberFormat, 1);
    fixes(
        "[007, -01.5]",
        r#"["007", "-01.5"]"#,
        RepairKind::LeadingZeros,
        1,
    );
    assert_eq!(text("[0, -0, 0.0, 0e1]"), "[0, -0, 0.0, 0e1]");
}

#[test]
fn kind_names_are_snake_case() {
    let kinds = [
        RepairKind::SingleQuotes,
        RepairKind::NonFiniteNumber,
        RepairKind::ConcatenatedValues,
        RepairKind::DoubleEscaped,
    ];
    let names: Vec<_> = kinds.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "single_quotes",
            "non_finite_number",
            "concatenated_values",
            "double_escaped"
        ]
    );
}
