//! Unit tests of the readings the repair takes from `json_repair` for text that is ambiguous:
//! an object whose `}` came too early, words before a quoted key, and the closers at the end
//! of a string the input left open.

use super::tests::{fixes, text};
use super::RepairKind;

#[test]
fn an_object_closed_too_early_goes_on() {
    fixes(
        r#"{"id": 7}, "name": "box"}"#,
        r#"{"id": 7, "name": "box"}"#,
        RepairKind::ExtraCloser,
        8,
    );
    // The member after the early `}` may lack its colon or its value, and more may follow.
    assert_eq!(
        text(r#"{"a": 1}, "b" "x", "c": 2}"#),
        r#"{"a": 1, "b": "x", "c": 2}"#
    );
    assert_eq!(text(r#"{"a": 1}, "b": }"#), r#"{"a": 1, "b": ""}"#);
    // Not a member after the comma: values of their own (an array of them), or trailing text.
    assert_eq!(text(r#"{"a": 1}, {"b": 2}"#), r#"[{"a": 1},{"b": 2}]"#);
    assert_eq!(text(r#"{"a": 1}, "just a remark""#), r#"{"a": 1}"#);
    assert_eq!(text(r#"[1], "b": 2}"#), "[1]");
    // An empty object goes on with the member as its first (found by the `repair` fuzz
    // target: the comma was kept before it).
    assert_eq!(text(r#"{}, "a": 1}"#), r#"{ "a": 1}"#);
    assert_eq!(text(r#"{ } , "a": 1"#), r#"{  "a": 1}"#);
    assert_eq!(text(r#"{},"":"#), r#"{"":null}"#);
}

#[test]
fn words_before_a_quoted_key_are_dropped() {
    fixes(
        r#"{"a": 1, NOTE "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        RepairKind::UnexpectedCharacter,
        9,
    );
    assert_eq!(
        text(r#"{"a": x, stray words here. "b": y}"#),
        r#"{"a": "x", "b": "y"}"#
    );
    // A word followed by something else than a quoted key is still an unquoted key.
    assert_eq!(text(r#"{a: 1, b "c"}"#), r#"{"a": 1, "b": "c"}"#);
}

#[test]
fn closers_at_the_end_of_an_open_string_close_the_containers() {
    fixes(
        r#"{"tags": ["red]}"#,
        r#"{"tags": ["red"]}"#,
        RepairKind::UnclosedString,
        16,
    );
    assert_eq!(text(r#"{"note": "all done }"#), r#"{"note": "all done" }"#);
    assert_eq!(text("{\"k\": \"v}```"), r#"{"k": "v"}"#);
    // Closers that do not match what is open, or a string holding an opener, keep them.
    assert_eq!(text(r#"{"k": "v]"#), r#"{"k": "v]"}"#);
    assert_eq!(text(r#"{"code": "x = {}"#), r#"{"code": "x = {}"}"#);
    assert_eq!(text(r#"["a", "b"#), r#"["a", "b"]"#);
}

#[test]
fn a_quote_right_after_an_unquoted_token_closes_it() {
    fixes(
        r#"{"a": abc", "b": 1}"#,
        r#"{"a": "abc", "b": 1}"#,
        RepairKind::UnexpectedCharacter,
        9,
    );
    assert_eq!(text(r#"[x", "y"]"#), r#"["x", "y"]"#);
    assert_eq!(text(r#"{k": 1}"#), r#"{"k": 1}"#);
    assert_eq!(text(r#"{"n": 12", "m": 3}"#), r#"{"n": 12, "m": 3}"#);
    // A quote that opens the next key (a comma missing) is still read as one.
    assert_eq!(text(r#"{"a": 1"b": 2}"#), r#"{"a": 1,"b": 2}"#);
}

#[test]
fn an_ellipsis_where_a_key_goes_is_dropped() {
    fixes(r#"{"a": 1, ...}"#, r#"{"a": 1 }"#, RepairKind::Ellipsis, 9);
    assert_eq!(text(r#"{"a": 1, /* more */ ... }"#), r#"{"a": 1   }"#);
}

#[test]
fn comments_between_top_level_values_separate_them() {
    assert_eq!(
        text("{\"a\": 1}\n// two\n{\"b\": 2}"),
        "[{\"a\": 1},{\"b\": 2}]"
    );
    assert_eq!(text("[1] /* x */ , # y\n [2]"), "[[1],[2]]");
    // A comment followed by prose is trailing text as before.
    assert_eq!(text("{\"a\": 1} // that is all"), "{\"a\": 1}");
}

#[test]
fn a_unicode_escape_cut_off_by_the_end_is_dropped() {
    fixes(
        r#"{"k": "caf\u00"#,
        r#"{"k": "caf"}"#,
        RepairKind::UnclosedString,
        14,
    );
    // Not at the end: an invalid escape, kept as text.
    assert_eq!(text(r#"{"k": "\u00zz"}"#), r#"{"k": "\\u00zz"}"#);
}

#[test]
fn an_unquoted_key_ends_before_a_blank_and_a_quote_of_any_kind() {
    assert_eq!(text("{a 'b'}"), r#"{"a": "b"}"#);
    assert_eq!(text("{a \u{201c}b\u{201d}}"), r#"{"a": "b"}"#);
    assert_eq!(text("{two words: 1}"), r#"{"two words": 1}"#);
}

#[test]
fn doubled_quotes_are_read_as_one() {
    fixes(
        r#"{"k": ""v"}"#,
        r#"{"k": "v"}"#,
        RepairKind::UnexpectedCharacter,
        7,
    );
    assert_eq!(text(r#"{""id"": ""7""}"#), r#"{"id": "7"}"#);
    assert_eq!(text("{'k': ''x''}"), r#"{"k": "x"}"#);
    // Empty strings stay empty.
    assert_eq!(text(r#"{"a": "", "b": [""]}"#), r#"{"a": "", "b": [""]}"#);
}

#[test]
fn a_word_between_a_value_and_the_objects_end_is_dropped() {
    fixes(
        r#"{"a": "x" note}"#,
        r#"{"a": "x" }"#,
        RepairKind::UnexpectedCharacter,
        10,
    );
    assert_eq!(
        text(r#"{"a": 1, "b": "y" AAAA }"#),
        r#"{"a": 1, "b": "y"  }"#
    );
    // Quotes inside a value are still kept when a word and a quote follow them.
    assert_eq!(
        text(r#"{"m": "say "hi" now"}"#),
        r#"{"m": "say \"hi\" now"}"#
    );
    // A word before `:` is still the next key (its comma missing).
    assert_eq!(text(r#"{"a": "x" b: 1}"#), r#"{"a": "x", "b": 1}"#);
}

#[test]
fn a_colon_inside_a_key_ends_it_when_no_other_follows() {
    fixes(
        r#"{"id:"x7"}"#,
        r#"{"id":"x7"}"#,
        RepairKind::MissingColon,
        5,
    );
    assert_eq!(text(r#"{"id:x7}"#), r#"{"id":"x7"}"#);
    // A key that really ends with a colon keeps it.
    assert_eq!(text(r#"{"time:": 5}"#), r#"{"time:": 5}"#);
}

#[test]
fn brackets_opened_in_an_unquoted_value_close_in_it() {
    assert_eq!(text("{t: a{b c}d}"), r#"{"t": "a{b c}d"}"#);
    assert_eq!(text("[x[1], y]"), r#"["x[1]", "y"]"#);
    // The container's own closer still ends the value.
    assert_eq!(text("{t: abc}"), r#"{"t": "abc"}"#);
}

#[test]
fn a_word_after_a_closed_item_is_the_next_item() {
    assert_eq!(text(r#"["a" b", "c"]"#), r#"["a", "b", "c"]"#);
    assert_eq!(text(r#"["a" b]"#), r#"["a", "b"]"#);
    // After a quote kept inside the string, the same shape is the string going on.
    assert_eq!(
        text(r#"["He said "hi" there"]"#),
        r#"["He said \"hi\" there"]"#
    );
}

#[test]
fn a_mismatched_closer_closes_its_own_kind_too_when_nothing_else_can_follow() {
    // `]` left out of a list inside an object inside a list: `}` closes both, and the next
    // object is the outer list's item (before, the object swallowed it as a key).
    assert_eq!(
        text(r#"[{"p": ["a"}, {"q": 1}]"#),
        r#"[{"p": ["a"]}, {"q": 1}]"#
    );
    // `}` left out of an object inside a list: `]` closes both, and the members go on.
    assert_eq!(
        text(r#"{"l": [{"k": "v"], "k2": "w"}"#),
        r#"{"l": [{"k": "v"}], "k2": "w"}"#
    );
    // What can go on where it stands keeps the container open.
    assert_eq!(text(r#"{"a": [1, 2}, "b": 3}"#), r#"{"a": [1, 2], "b": 3}"#);
    assert_eq!(text(r#"[{"b": 2], {"c": 3}]"#), r#"[{"b": 2}, {"c": 3}]"#);
}

#[test]
fn a_malformed_key_or_a_cut_off_string_loses_the_blanks_before_its_end() {
    // A key with a raw line break before its closing quote, or blanks before the end of input.
    assert_eq!(text("{\"k\n\": 1}"), r#"{"k": 1}"#);
    assert_eq!(text("{\"k \\n\t\n\": 1}"), r#"{"k": 1}"#);
    // A value keeps them: a file's content with raw line breaks keeps its last one.
    assert_eq!(
        text("{\"a\": \"x\n\", \"b\": 1}"),
        r#"{"a": "x\n", "b": 1}"#
    );
    assert_eq!(text(r#"{"a": "hello  "#), r#"{"a": "hello"}"#);
    assert_eq!(text(r#"{"a": "x\n"#), r#"{"a": "x"}"#);
    // An escaped backslash before `n` is text, and a well-formed string is kept exactly.
    assert_eq!(text("{\"k\\\\n\n\": 1}"), r#"{"k\\n": 1}"#);
    assert_eq!(text("{'a': 'x\\n ', b: 1}"), r#"{"a": "x\n ", "b": 1}"#);
}

#[test]
fn tuples_are_lists_and_a_group_of_one_is_its_value() {
    fixes("(1, 2)", "[1, 2]", RepairKind::Parentheses, 0);
    assert_eq!(text(r#"("a", ("b", 2), [3])"#), r#"["a", ["b", 2], [3]]"#);
    assert_eq!(
        text(r#"{"c": (1, 2), "ok": true}"#),
        r#"{"c": [1, 2], "ok": true}"#
    );
    // The blanks inside a group of one stay around its value.
    assert_eq!(
        text(r#"{"e": (), "g": ("x"), "n": ( 1 )}"#),
        r#"{"e": [], "g": "x", "n":  1 }"#
    );
    assert_eq!(text("(1)"), "1");
    assert_eq!(text("[1, 2)"), "[1, 2]");
    assert_eq!(text("{\"t\": (a b, c)}"), r#"{"t": ["a b", "c"]}"#);
    // Left open by the end: a list, like any container.
    assert_eq!(text("{\"t\": (1, 2"), r#"{"t": [1, 2]}"#);
    assert_eq!(text("{\"t\": (1"), r#"{"t": [1]}"#);
    // In a fence after prose; prose in parentheses is not a tuple.
    assert_eq!(text("Here:\n```json\n(1, 2)\n```"), "[1, 2]");
    assert_eq!(text(r#"(see below) {"a": 1}"#), r#"{"a": 1}"#);
    // A tuple is the whole document only when nothing follows it.
    assert_eq!(
        text("(1) Keep this note.\n```json\n{\"k\": 2}\n```"),
        r#"{"k": 2}"#
    );
    // A `)` in an unquoted value outside any tuple stays text.
    assert_eq!(text("{\"f\": g(x)}"), r#"{"f": "g(x)"}"#);
}

#[test]
fn several_top_level_values_are_read_as_json_repair_reads_them() {
    // Different values: a list of them, with or without commas and comments between.
    assert_eq!(text(r#"{"a":1}{"b":2}"#), r#"[{"a":1},{"b":2}]"#);
    assert_eq!(text("{\"a\":1}, /* c */ [2]"), r#"[{"a":1},[2]]"#);
    // Empty ones are dropped, unless all are empty.
    assert_eq!(text(r#"{"key": "value"}, []"#), r#"{"key": "value"}"#);
    assert_eq!(text(r#"[]{"k":1}"#), r#"{"k":1}"#);
    assert_eq!(text("[]{}"), "[]");
    // The same shape again, no comma between: the later one replaces the earlier.
    assert_eq!(text(r#"{"a":1}{"a":2}"#), r#"{"a":2}"#);
    assert_eq!(text(r#"[{"k":"v"}][{"k":"w"}]"#), r#"[{"k":"w"}]"#);
    // With a comma, or another shape (an integer is no float), both stay.
    assert_eq!(text(r#"{"a":1}, {"a":2}"#), r#"[{"a":1},{"a":2}]"#);
    assert_eq!(text(r#"{"a":1} {"a":2.5}"#), r#"[{"a":1},{"a":2.5}]"#);
    assert_eq!(text("[1,2][3]"), "[[1,2],[3]]");
    // Those readings are for two values. Three or more are a sequence, each value kept
    // (jsonrepair's reading; these two read `[[1],[2, "x"]]` and `[[2],{"b": 3}]` before).
    assert_eq!(text(r#"[1] {} [2, "x"]"#), r#"[[1],{},[2, "x"]]"#);
    assert_eq!(text(r#"[1] [2] {"b": 3}"#), r#"[[1],[2],{"b": 3}]"#);
}

#[test]
fn python_digit_separators_are_dropped() {
    fixes(
        r#"{"v": 82_461_110}"#,
        r#"{"v": 82461110}"#,
        RepairKind::NumberFormat,
        6,
    );
    assert_eq!(text("[1_234.5_6, -1_0]"), "[1234.56, -10]");
    // Not between two digits, or leading zeros: text, as before.
    assert_eq!(
        text("[1__0, _1, 1_, 0_1]"),
        r#"["1__0", "_1", "1_", "0_1"]"#
    );
}

#[test]
fn a_key_in_a_list_opens_an_object_there() {
    fixes(
        r#"["key":"value"]"#,
        r#"[{"key":"value"}]"#,
        RepairKind::KeyInList,
        6,
    );
    assert_eq!(text(r#"["key":"value"}]"#), r#"[{"key":"value"}]"#);
    assert_eq!(text(r#"[1, "a": {"b": 2}]"#), r#"[1, {"a": {"b": 2}}]"#);
}

#[test]
fn a_set_of_strings_in_braces_is_a_list() {
    fixes("{'a', 'b'}", r#"["a", "b"]"#, RepairKind::SetAsList, 4);
    // A first key followed by a comma and no string: see the comma typed for a colon.
    assert_eq!(text(r#"{"k", 1}"#), r#"{"k": 1}"#);
    assert_eq!(
        text(r#"{"a": 1, "k", "b": 2}"#),
        r#"{"a": 1, "k":"", "b": 2}"#
    );
}

#[test]
fn a_list_where_a_key_should_follow_a_list_value_continues_it() {
    fixes(
        r#"{"k": ["a"], ["b"]}"#,
        r#"{"k": ["a", "b"]}"#,
        RepairKind::SplitList,
        13,
    );
    assert_eq!(
        text(r#"{"k": [[1], "a"], [[2], [3]], "n": 1}"#),
        r#"{"k": [[1], "a", [2], [3]], "n": 1}"#
    );
    assert_eq!(text(r#"{"k": [1], [], "n": 1}"#), r#"{"k": [1 ], "n": 1}"#);
    // An empty list goes on with no comma before its first item (fuzzing found `[ , 2`).
    assert_eq!(
        text(r#"{"k": [ ], [2], "n": 1}"#),
        r#"{"k": [  2], "n": 1}"#
    );
    assert_eq!(text(r#"{"k": [], []}"#), r#"{"k": [ ]}"#);
    // After a value that is no list, the bracket is dropped as before.
    assert_eq!(text(r#"{"k": 1, [2]}"#), r#"{"k": 1, "2":""}"#);
}

#[test]
fn each_fenced_block_gives_its_value() {
    assert_eq!(
        text("a ```json {\"k\": 1} ``` b ```json\n[1, true]\n``` 42"),
        r#"[{"k": 1},[1, true]]"#
    );
    // One block, then prose: the prose is trailing text.
    assert_eq!(text("```json\n{\"k\": 1}\n```\nDone ```"), r#"{"k": 1}"#);
}

#[test]
fn an_object_in_a_list_left_open_before_the_next_one_closes_there() {
    assert_eq!(text(r#"[{"i":1{"i":2}]"#), r#"[{"i":1},{"i":2}]"#);
    assert_eq!(text(r#"[{"i":1,{"i":2}]"#), r#"[{"i":1},{"i":2}]"#);
    // Outside a list the brace is still dropped.
    assert_eq!(text(r#"{"i":1 {"j":2}}"#), r#"{"i":1, "j":2}"#);
}

#[test]
fn strings_joined_with_plus_are_one() {
    fixes(
        r#""a" + "b""#,
        r#""ab""#,
        RepairKind::StringConcatenation,
        2,
    );
    assert_eq!(text("\"a\"+\n 'b' /* c */ + \"c\""), r#""abc""#);
    assert_eq!(
        text("{\"g\": 'hello' +\n 'world'}"),
        r#"{"g": "helloworld"}"#
    );
    assert_eq!(text(r#"["abc" + /* x */ "def", 1]"#), r#"["abcdef", 1]"#);
    // A `+` before no string is no join.
    assert_eq!(text(r#"["x" + 1]"#), r#"["x", null, 1]"#);
    // A joined string cut off by the end is read back from its last part only: a colon or
    // closers in an earlier part are no key's end and no tail (fuzzing found `{"d":":"+"}`).
    assert_eq!(text(r#"{"d":1,':'+'"#), r#"{"d":1}"#);
    assert_eq!(text(r#"{"d":1,'a:b'+'"#), r#"{"d":1}"#);
    assert_eq!(text(r"{d,,':'+'"), r#"{"d":""}"#);
    assert_eq!(text(r#"{"a": ["x]" + "y]"#), r#"{"a": ["x]y"]}"#);
}

#[test]
fn a_dangling_plus_is_dropped() {
    // After a closed string, before `}` `]` `,` or the end: no string to join.
    fixes(
        r#"{"a": "hello" +}"#,
        r#"{"a": "hello"}"#,
        RepairKind::StringConcatenation,
        14,
    );
    assert_eq!(text(r#"["a" +, "b" + ]"#), r#"["a", "b" ]"#);
    assert_eq!(text("[\"a\" + /* more */]"), r#"["a" ]"#);
    // Ending a string left open, cut off by the end or ended by its container's closer.
    fixes(
        r#""hello +"#,
        r#""hello""#,
        RepairKind::StringConcatenation,
        7,
    );
    assert_eq!(text(r#"["hello +]"#), r#"["hello"]"#);
    assert_eq!(text("{\"a\": \"hello  +  "), r#"{"a": "hello"}"#);
    assert_eq!(text("[\"hello +]\n"), "[\"hello\"]\n");
    // A `+` in the text, or one not after a blank, stays.
    assert_eq!(text(r#"{"a": "1 + 2"}"#), r#"{"a": "1 + 2"}"#);
    assert_eq!(text(r#"{"a": "C++"#), r#"{"a": "C++"}"#);
    assert_eq!(text(r#"{"a": "1 +2"#), r#"{"a": "1 +2"}"#);
}

#[test]
fn a_call_wrapping_a_value_is_that_value() {
    fixes(
        r#"{"_id": ObjectId("5f1")}"#,
        r#"{"_id": "5f1"}"#,
        RepairKind::Wrapper,
        8,
    );
    assert_eq!(
        text(r#"{"n": NumberLong(2), "d": ISODate( "2012-12-19T06:01:17Z" ), "m": -NumberInt(3)}"#),
        r#"{"n": 2, "d": "2012-12-19T06:01:17Z", "m": "-NumberInt(3)"}"#
    );
    // JSONP and a whole-document call, with the offsets of what is inside.
    fixes(
        "callback_1({'a': 1});",
        r#"{"a": 1}"#,
        RepairKind::SingleQuotes,
        12,
    );
    assert_eq!(text("cb(null);"), "null");
    assert_eq!(text(r#"NumberLong("2")"#), r#""2""#);
    // One level only, and a call in prose is no wrapper.
    assert_eq!(text("a(b(1))"), "1");
    assert_eq!(text(r#"{"f": g(x)}"#), r#"{"f": "g(x)"}"#);
}

#[test]
fn a_string_in_a_list_left_open_at_a_line_break_ends_there() {
    assert_eq!(text("[\n\"abc,\n\"def\"\n]"), "[\n\"abc\",\n\"def\"\n]");
    assert_eq!(text("[\n\"abc,  \n\"def\"\n]"), "[\n\"abc\",  \n\"def\"\n]");
    assert_eq!(text("[\"abc]\n"), "[\"abc\"]\n");
    assert_eq!(text("[\"abc  ]\n"), "[\"abc\"]\n");
    assert_eq!(text("[\n[\n\"abc\n]\n]\n"), "[\n[\n\"abc\"\n]\n]\n");
    // Escaped blanks before the break are no cut point, and the output stays strict JSON.
    assert_eq!(text("[\"abc,\t\r\n\"d\"]"), "[\"abc,\\t\\r\\n\\\"d\"]");
    // A string that closes keeps its line breaks.
    assert_eq!(text("[\"a,\nb\"]"), "[\"a,\\nb\"]");
}

#[test]
fn a_key_may_hold_several_inner_quotes() {
    assert_eq!(text(r#"{"k"e"y": 1}"#), r#"{"k\"e\"y": 1}"#);
}

#[test]
fn an_unquoted_value_runs_to_its_closing_quote_later_on_the_line() {
    assert_eq!(
        text(r#"{"lorem": ipsum, sic, datum.",}"#),
        r#"{"lorem": "ipsum, sic, datum."}"#
    );
    // A colon, a quote or a bracket before it: the comma ends the value, as before.
    assert_eq!(
        text(r#"{"a": x, b: "y", "c": 1}"#),
        r#"{"a": "x", "b": "y", "c": 1}"#
    );
    assert_eq!(text(r#"{"a": x, y"#), r#"{"a": "x"}"#);
}

#[test]
fn an_object_missing_only_its_opening_brace_gets_it_back() {
    fixes(
        "\n  \"a\": 1, \"b\": [2]\n}\n",
        "\n  {\"a\": 1, \"b\": [2]\n}\n",
        RepairKind::MissingOpeningBrace,
        3,
    );
    assert_eq!(text(r#""a": {"b": 2}}"#), r#"{"a": {"b": 2}}"#);
    // The braces inside a string are text, not the object's.
    assert_eq!(
        text(r#""a\"b": "literal } and {"}"#),
        r#"{"a\"b": "literal } and {"}"#
    );
    // Anything else wrong, or no closing brace: read as before (a string, prose, the inner
    // value), never an object built around it.
    let options = super::RepairOptions::default();
    for other in [
        r#""a": 1"#,
        r#""a": 1,}"#,
        "'a': 1}",
        r#""a": 1} {"b": 2}"#,
        r#""a": {"b": 2}} {"c": 3}"#,
    ] {
        let read = super::repair_json(other, &options).map(|r| r.text);
        assert!(
            read.as_ref().map_or(true, |t| !t.starts_with(r#"{"a""#)),
            "{other}: {read:?}"
        );
    }
}

#[test]
fn a_whole_text_of_one_value_may_end_in_a_comma() {
    fixes("4 , ", "4", RepairKind::TrailingComma, 2);
    assert_eq!(text(r#""a","#), r#""a""#);
    assert_eq!(text("true,\n"), "true");
    // More than a comma after it: prose, as before.
    let options = super::RepairOptions::default();
    for other in ["4, 5", "4,,", "4, and more"] {
        assert!(super::repair_json(other, &options).is_err(), "{other}");
    }
}

#[test]
fn a_string_escaped_one_level_too_many_is_one_string() {
    fixes(
        r#"{"k": \"hello world\", "n": 1}"#,
        r#"{"k": "hello world", "n": 1}"#,
        RepairKind::DoubleEscaped,
        6,
    );
    assert_eq!(text(r#"[\"a\", \"b\u00e9\\n\"]"#), r#"["a", "bé\n"]"#);
    // A whole text of one: the next `\"` ends it, an escaped backslash before a quote does
    // not, a plain quote the value may end at does, and so does the end of the input.
    assert_eq!(text(r#"\"hello world\""#), r#""hello world""#);
    assert_eq!(text(r#"\"say \\"hi\\"\""#), r#""say \"hi\"""#);
    assert_eq!(text(r#"\"hello""#), r#""hello""#);
    assert_eq!(text(r#"\"cut\"#), r#""cut""#);
    assert_eq!(text(r#"{"k": \"open"#), r#"{"k": "open"}"#);
}

#[test]
fn brackets_opened_in_a_string_close_in_it() {
    // Once a value string kept an inner quote, a quote followed by the closer of a bracket
    // its text opened is text (json_repair's reading).
    fixes(
        r#"{"x": "However, the provided user answer is {"blank_1": "music"}, which is not a plain string"}"#,
        r#"{"x": "However, the provided user answer is {\"blank_1\": \"music\"}, which is not a plain string"}"#,
        RepairKind::UnescapedQuote,
        62,
    );
    assert_eq!(text(r#"["a {"b"} c"]"#), r#"["a {\"b\"} c"]"#);
    assert_eq!(
        text(r#"{"x": "is {"a"}, more", "y": 1}"#),
        r#"{"x": "is {\"a\"}, more", "y": 1}"#
    );
    // No bracket open, or a closer of another kind: the quote ends the string as before.
    assert_eq!(text(r#"[{"a": "x "y"}]"#), r#"[{"a": "x \"y"}]"#);
    assert_eq!(text(r#"{"a": "x [b] "y"}"#), r#"{"a": "x [b] \"y"}"#);
    assert_eq!(text(r#"{"a": "x {"y"]"#), r#"{"a": "x {\"y"}"#);
    // Without an inner quote, a string's first quote before a closer ends it.
    assert_eq!(text(r#"({"a": "f({"})"#), r#"{"a": "f({"}"#);
}

#[test]
fn a_quote_then_blanks_then_a_closing_quote_in_a_list() {
    // In a list, a `"` followed by blanks and a `"` that a `,` or `]` follows: the first is
    // text, the second ends the string (json_repair's reading).
    fixes(
        r#"{"key": ["lorem "ipsum" dolor "sit" amet, "consectetur" ", "lorem "ipsum" dolor", "lorem"]}"#,
        r#"{"key": ["lorem \"ipsum\" dolor \"sit\" amet, \"consectetur\" ", "lorem \"ipsum\" dolor", "lorem"]}"#,
        RepairKind::UnescapedQuote,
        54,
    );
    assert_eq!(text(r#"["a" ", "c"]"#), r#"["a\" ", "c"]"#);
    // A quote opening the next item, or an empty one, is read as before (a comma missing).
    assert_eq!(text(r#"["a" "b", "c"]"#), r#"["a", "b", "c"]"#);
    assert_eq!(text(r#"["a" "", "c"]"#), r#"["a", "", "c"]"#);
}

#[test]
fn a_quote_and_comma_after_an_inner_quote_end_the_string_only_before_a_member() {
    // Once a value string kept an inner quote, a quote and a comma end it only where a member,
    // the object's end or the end of input follows the comma (json_repair's reading).
    fixes(
        r#"[{"key": "value", "notes": "lorem "ipsum", sic." }]"#,
        r#"[{"key": "value", "notes": "lorem \"ipsum\", sic." }]"#,
        RepairKind::UnescapedQuote,
        40,
    );
    assert_eq!(
        text(r#"{"a": "x "y", 12, z", "b": 1}"#),
        r#"{"a": "x \"y\", 12, z", "b": 1}"#
    );
    // A quoted or bare key and its colon, or the end, follow: the comma ends the string.
    assert_eq!(
        text(r#"{"a": "x "y", "b": 1}"#),
        r#"{"a": "x \"y", "b": 1}"#
    );
    assert_eq!(text(r#"{"a": "x "y", b: 1}"#), r#"{"a": "x \"y", "b": 1}"#);
    assert_eq!(text(r#"{"a": "x "y","#), r#"{"a": "x \"y"}"#);
    // Without an inner quote, the comma ends the string as before.
    assert_eq!(text(r#"{"a": "x", sic." }"#), r#"{"a": "x", "sic.":"" }"#);
}

#[test]
fn words_after_an_inner_quote_run_to_the_closer() {
    // Once a value string kept an inner quote, a quote followed by words and the object's
    // `}` is text, and the string runs to that `}` (json_repair's reading).
    assert_eq!(
        text(r#"{"key": "value "tail" more}"#),
        r#"{"key": "value \"tail\" more"}"#
    );
    // Without one, the words after the closing quote are stray text, dropped.
    assert_eq!(text(r#"{"key": "value" more}"#), r#"{"key": "value" }"#);
}

#[test]
fn a_comma_before_a_value_that_is_no_key_stood_for_the_colon() {
    fixes(
        r#"{"a": 1, "b", -2}"#,
        r#"{"a": 1, "b": -2}"#,
        RepairKind::MissingColon,
        12,
    );
    assert_eq!(text(r#"{"key", 105}"#), r#"{"key": 105}"#);
    assert_eq!(text(r#"{"a", true}"#), r#"{"a": true}"#);
    assert_eq!(text(r#"{"a", None}"#), r#"{"a": null}"#);
    assert_eq!(text(r#"{"a": [1], "b", [2]}"#), r#"{"a": [1], "b": [2]}"#);
    assert_eq!(text(r#"{"a", {"b": 1}}"#), r#"{"a": {"b": 1}}"#);
    // A key after the comma, a string or a word: the member before it lacks its value.
    assert_eq!(text(r#"{"a", 1: 2}"#), r#"{"a":"", "1": 2}"#);
    assert_eq!(text(r#"{"a", "b": 1}"#), r#"{"a":"", "b": 1}"#);
}

#[test]
fn digits_grouped_by_commas_in_an_object_value_are_its_text() {
    fixes(
        r#"{"a": 1,234,567}"#,
        r#"{"a": "1,234,567"}"#,
        RepairKind::UnquotedString,
        6,
    );
    assert_eq!(text(r#"{"key": 105,12,"#), r#"{"key": "105,12"}"#);
    assert_eq!(text(r#"{"a":1.5,25, "b": 3}"#), r#"{"a":"1.5,25", "b": 3}"#);
    assert_eq!(text(r#"[{"a": -1,5}]"#), r#"[{"a": "-1,5"}]"#);
    // In a list they are items; before a key or after a blank, a member ends at the comma.
    assert_eq!(text("[1,2]"), "[1,2]");
    assert_eq!(text(r#"{"a":1,"b":2}"#), r#"{"a":1,"b":2}"#);
    assert_eq!(text(r#"{"a": 1,2: 3}"#), r#"{"a": 1,"2": 3}"#);
    // A string before the comma is no number: written once (found by the `repair` fuzz
    // target, where the fast path left a single-quoted one to the general step to write again).
    assert_eq!(text("{'a': 'b',1: 2}"), r#"{"a": "b","1": 2}"#);
    assert_eq!(text("{':'',0"), r#"{"":""}"#);
}

#[test]
fn a_top_level_string_runs_to_the_quote_that_ends_the_text() {
    // At top level, a quote followed by blanks and a word is text when the text ends with the
    // same quote later (jsonrepair's reading).
    fixes(
        r#""The TV has a 24" screen""#,
        r#""The TV has a 24\" screen""#,
        RepairKind::UnescapedQuote,
        16,
    );
    assert_eq!(text("\"a\" b \"c\" d\" \n"), "\"a\\\" b \\\"c\\\" d\" \n");
}
