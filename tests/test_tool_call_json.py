"""Behaviour of the lenient TOOL_CALL parser (syntax ``tool_call_json``)."""

from __future__ import annotations

import pytest

import toolsift
from toolsift import ParseIssue, ToolCall, parse


def names(text: str, **options: object) -> list[str]:
    return [c.name for c in parse(text, **options).calls]


def test_marker_with_colon_and_prose() -> None:
    result = parse(
        'I will search.\nTOOL_CALL: {"tool_name": "search", "parameters": {"q": "x"}}\nOk.'
    )
    assert [(c.name, c.arguments) for c in result.calls] == [("search", {"q": "x"})]
    assert result.content == "I will search.\n\nOk."
    assert result.issues == []


def test_every_call_by_default_and_first_only() -> None:
    text = 'TOOL_CALL {"tool": "a", "params": {}}\ntext\nTOOL_CALL {"name": "b", "args": {"n": 1}}'
    assert names(text) == ["a", "b"]
    assert names(text, first_only=True) == ["a"]
    result = parse(text)
    assert [c.id for c in result.calls] == ["call_0", "call_1"]
    assert [c.id for c in parse(text, id_prefix="t").calls] == ["t0", "t1"]


@pytest.mark.parametrize("name_key", ["tool_name", "tool", "name"])
@pytest.mark.parametrize("args_key", ["parameters", "params", "arguments", "args"])
def test_field_aliases(name_key: str, args_key: str) -> None:
    call = parse(f'TOOL_CALL: {{"{name_key}": "f", "{args_key}": {{"k": [1, 2]}}}}').calls[0]
    assert (call.name, call.arguments) == ("f", {"k": [1, 2]})


def test_null_or_missing_parameters_mean_empty() -> None:
    assert parse('TOOL_CALL {"tool_name": "a", "parameters": null}').calls[0].arguments == {}
    assert parse('TOOL_CALL {"tool_name": "a"}').calls[0].arguments == {}


def test_arguments_as_json_string_are_decoded() -> None:
    call = parse('TOOL_CALL {"name": "a", "arguments": "{\\"x\\": 1}"}').calls[0]
    assert call.arguments == {"x": 1}
    assert "arguments_string_decoded" in call.repairs


def test_empty_name_is_no_call_and_an_issue() -> None:
    result = parse('TOOL_CALL {"tool_name": "", "parameters": {"a": 1}}')
    assert result.calls == []
    assert [i.kind for i in result.issues] == ["no_name"]


def test_fenced_block_is_removed_from_content() -> None:
    text = 'Here:\n```json\nTOOL_CALL: {"tool_name": "f", "parameters": {}}\n```\nDone.'
    result = parse(text)
    assert names(text) == ["f"]
    assert result.content == "Here:\n\nDone."
    assert result.calls[0].raw.startswith("```json") and result.calls[0].raw.endswith("```")


def test_fence_without_marker_is_found_by_the_bare_json_fallback() -> None:
    assert names('```\n{"tool_name": "calc", "parameters": {"x": 5}}\n```') == ["calc"]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ('Sure. [{"tool": "a", "params": {"x": 1}}, {"tool": "b"}] done', "Sure.  done"),
        ('```json\n[{"tool": "a", "params": {"x": 1}},\n {"tool": "b"}]\n```', ""),
    ],
)
def test_a_list_of_calls_without_a_marker_leaves_no_brackets(text: str, content: str) -> None:
    # Models asked for the TOOL_CALL format sometimes answer with a bare list of calls.
    result = parse(text)
    assert [(c.name, c.arguments) for c in result.calls] == [("a", {"x": 1}), ("b", {})]
    assert result.content == content
    assert result.issues == []
    stream = toolsift.StreamParser("tool_call_json")
    for ch in text:
        stream.feed(ch)
    stream.finish()
    assert stream.result() == result


def test_brackets_in_prose_stay_text() -> None:
    text = 'See [1], [a, b], [] and [{"x": 1}]; and ```\n[1, 2]\n```'
    result = parse(text)
    assert (result.calls, result.issues, result.content) == ([], [], text)


def test_braces_and_marker_inside_strings() -> None:
    text = 'TOOL_CALL: {"tool_name": "say", "parameters": {"t": "a } { TOOL_CALL {\\"x\\"} ]"}}'
    result = parse(text)
    assert [(c.name, c.arguments) for c in result.calls] == [
        ("say", {"t": 'a } { TOOL_CALL {"x"} ]'})
    ]
    assert result.issues == []


def test_marker_is_literal_not_regex() -> None:
    text = 'CALL(.*) {"tool_name": "f"} and CALLxx {"tool_name": "g"}'
    assert names(text, marker="CALL(.*)") == ["f"]


def test_custom_marker_falls_back_to_bare_json_when_absent() -> None:
    assert names('TOOL_CALL: {"tool_name": "g", "parameters": {}}', marker="FUNCTION_CALL") == ["g"]


def test_bare_json_counts_only_until_the_first_marker() -> None:
    # Streaming cannot wait for the end to learn whether a marker will come, so a bare call
    # object counts until the first marker; after it, only marked calls count.
    text = 'ctx {"tool_name": "early"} now TOOL_CALL: {"tool_name": "real"} {"tool_name": "late"}'
    assert names(text) == ["early", "real"]
    result = parse('Context {"irrelevant": true} then TOOL_CALL: {"tool_name": "g"}')
    assert [c.name for c in result.calls] == ["g"]
    assert result.issues == []


def test_lenient_repairs_single_quotes_apostrophes_literals_trailing_commas() -> None:
    text = "TOOL_CALL: {'tool': 'search', 'params': {'q': 'don't panic', 'ok': True, 'n': None,},}"
    call = parse(text).calls[0]
    assert call.arguments == {"q": "don't panic", "ok": True, "n": None}
    assert call.repairs  # the kinds of repair that were needed are reported


def test_raw_newlines_in_strings() -> None:
    call = parse('TOOL_CALL {"tool_name": "w", "parameters": {"body": "line1\nline2"}}').calls[0]
    assert call.arguments == {"body": "line1\nline2"}


def test_truncated_call_is_closed_and_flagged() -> None:
    call = parse('TOOL_CALL: {"tool_name": "read", "parameters": {"path": "/a/b').calls[0]
    assert (call.name, call.arguments) == ("read", {"path": "/a/b"})
    assert "unterminated_call" in call.repairs


def test_max_payload_chars_skips_with_reason_and_zero_disables() -> None:
    text = f'TOOL_CALL: {{"tool_name": "echo", "parameters": {{"t": "{"x" * 100}"}}}}'
    result = parse(text, max_payload_chars=50)
    assert result.calls == []
    assert [i.kind for i in result.issues] == ["too_large"]
    assert "max_payload_chars=50" in result.issues[0].message
    assert names(text, max_payload_chars=0) == ["echo"]


def test_non_object_json_and_bare_marker_are_issues() -> None:
    result = parse('TOOL_CALL: ["not", "a", "dict"]\nTOOL_CALL: nothing here')
    assert result.calls == []
    assert sorted(i.kind for i in result.issues) == ["no_json_after_marker", "no_json_after_marker"]
    result = parse('TOOL_CALL: {"x": 1}')
    assert [i.kind for i in result.issues] == ["no_name"]


def test_malformed_call_between_two_good_ones() -> None:
    text = (
        'TOOL_CALL {"tool_name": "a", "parameters": {}}\n'
        'TOOL_CALL {"parameters": {"no": "name"}}\n'
        'TOOL_CALL {"tool_name": "c", "parameters": {"k": 1}}'
    )
    result = parse(text)
    assert [c.name for c in result.calls] == ["a", "c"]
    # Ids are segment ids: the malformed call's segment took call_1.
    assert [c.id for c in result.calls] == ["call_0", "call_2"]
    assert len(result.issues) == 1 and result.issues[0].kind == "no_name"
    assert isinstance(result.issues[0], ParseIssue)


def test_spans_and_content_with_non_ascii() -> None:
    text = 'Olá 😀 TOOL_CALL: {"tool_name": "f", "parameters": {"s": "ç"}} fim'
    call = parse(text).calls[0]
    assert text[call.span[0] : call.span[1]] == call.raw
    assert call.raw.startswith("TOOL_CALL") and call.raw.endswith("}}")
    assert parse(text).content == "Olá 😀  fim"
    assert call.arguments == {"s": "ç"}


def test_no_call_in_plain_text_or_unrelated_json() -> None:
    assert parse("Hello, how are you?").calls == []
    assert parse("").calls == []
    assert parse('{"color": "blue", "size": 42}').calls == []


def test_toolcall_model() -> None:
    a = ToolCall(name="f", arguments={"x": 1})
    assert a == ToolCall(name="f", arguments={"x": 1})
    assert a != ToolCall(name="f", arguments={"x": 2})
    assert (a.id, a.syntax, a.span, a.raw, a.repairs) == ("", "", (0, 0), "", ())


def test_unknown_syntax_lists_the_known_ones() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError, match="tool_call_json") as err:
        parse("x", "no_such_syntax")
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("n", ["1", "12345678901234567890123"])  # orjson, then the exact loader
def test_a_unicode_escape_with_a_sign_is_not_read_as_a_character(n: str) -> None:
    # `\u+041` is no JSON escape. The strict reader once read its digits with a parser that
    # takes a sign, passed the call as valid, and the exact loader then decoded it to "A".
    text = f'TOOL_CALL: {{"name": "f", "parameters": {{"a": "\\u+041", "n": {n}}}}}'
    call = parse(text).calls[0]
    assert call.arguments == {"a": "\\u+041", "n": int(n)}
    assert "invalid_escape" in call.repairs
