"""Adversarial inputs: huge values, deep nesting, floods of marker fragments, markers that never
close, lone surrogates and NUL bytes, floods of tiny calls, one-byte chunks.

Each case must end in a result or a documented error, never a crash, hang or silently dropped
call. Times are not asserted here: ``benches/linearity.py`` measures n against 4n.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import toolsift
from toolsift import StreamParser, _native
from toolsift.model import ParseResult
from toolsift.streaming import ENGINE_SYNTAXES

SYNTAXES = ENGINE_SYNTAXES  # the text syntaxes (not api_tool_call, which reads objects)
MB = 1 << 20


def hermes_call(arguments: dict[str, object], name: str = "f") -> str:
    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments})}</tool_call>"


def streamed(text: str, syntax: str | list[str], step: int, **options: object) -> ParseResult:
    parser = StreamParser(syntax, **options)  # type: ignore[arg-type]
    for at in range(0, len(text), step):
        parser.feed(text[at : at + step])
    parser.finish()
    return parser.result()


def same(a: ParseResult, b: ParseResult, raw: bool = True) -> None:
    # `parse` hands back the caller's own text as `raw`; a stream's raw holds U+FFFD where the
    # chunks held lone surrogates, so `raw=False` compares everything else.
    assert [(c.name, c.arguments, c.span, c.raw if raw else "") for c in a.calls] == [
        (c.name, c.arguments, c.span, c.raw if raw else "") for c in b.calls
    ]
    assert a.issues == b.issues
    assert a.content == b.content


def kinds(result: ParseResult) -> list[str]:
    return [i.kind for i in result.issues]


def test_a_ten_megabyte_string_value_is_one_call_streamed_or_not() -> None:
    value = "x" * (10 * MB)
    text = "Writing it.\n" + hermes_call({"path": "a.txt", "content": value})
    whole = toolsift.parse(text, "hermes")
    assert [c.arguments["content"] == value for c in whole.calls] == [True]
    same(streamed(text, "hermes", 64 * 1024, previews=False), whole)


def test_a_call_over_max_call_bytes_is_an_issue_not_a_silent_drop() -> None:
    text = hermes_call({"content": "x" * MB}) + hermes_call({"k": 1})
    result = toolsift.parse(text, "hermes", max_call_bytes=MB // 2)
    assert [c.arguments for c in result.calls] == [{"k": 1}]
    assert kinds(result) == ["limit_exceeded"]
    assert "max_call_bytes" in result.issues[0].message


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deep_arguments_are_a_limit_issue(depth: int) -> None:
    text = hermes_call({}).replace("{}", '{"a": ' + "[" * depth + "]" * depth + "}")
    result = toolsift.parse(text, "hermes")
    assert result.calls == []
    assert kinds(result) in (["limit_exceeded"], ["too_deep"])


def test_deep_arguments_within_a_raised_limit_load_without_recursion() -> None:
    # Past orjson's 1024 levels: the exact reader takes over.
    text = hermes_call({}).replace("{}", '{"a": ' + "[" * 3000 + "]" * 3000 + "}")
    (call,) = toolsift.parse(text, "hermes", max_depth=0).calls
    value, depth = call.arguments["a"], 0
    while value:
        value, depth = value[0], depth + 1
    assert depth == 2999


def test_max_depth_off_lifts_the_scanners_own_bound_too() -> None:
    # 150,000 levels: past the scanners' default bound of 100,000 (a `too_deep` issue).
    text = hermes_call({}).replace("{}", '{"a": ' + "[" * 149_999 + "]" * 149_999 + "}")
    assert kinds(toolsift.parse(text, "hermes", max_depth=100_000)) == ["too_deep"]
    for options in ({"max_depth": 0}, {"max_depth": 150_000}):
        (call,) = toolsift.parse(text, "hermes", **options).calls  # type: ignore[arg-type]
        value, depth = call.arguments["a"], 2  # the arguments object is level 1
        while value:
            value, depth = value[0], depth + 1
        assert depth == 150_000


def test_one_hundred_thousand_deep_json_through_the_lenient_api() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    value, depth = toolsift.lenient_loads(deep), 1
    while value:
        value, depth = value[0], depth + 1
    assert depth == 100_000
    assert len(toolsift.scan_json_spans(deep).spans) == 100_000
    with pytest.raises(toolsift.JsonRepairError) as info:
        toolsift.lenient_loads("[" * 100_001)
    assert info.value.offset == 100_000
    with pytest.raises(toolsift.ScanError):
        toolsift.scan_json_spans("{" * 100_001)


@pytest.mark.parametrize("fragment", ["<", "{", "^^^", "[TOOL_CALLS]"])
def test_a_million_fragments_end_in_a_result_for_every_syntax(fragment: str) -> None:
    text = fragment * 1_000_000
    for syntax in SYNTAXES:
        result = toolsift.parse(text, syntax)
        assert result.calls == [], syntax
        # Every character is accounted for: content, or the span of an issue.
        covered = len(result.content) + sum(i.span[1] - i.span[0] for i in result.issues)
        assert covered <= len(text), syntax


@pytest.mark.parametrize("closers", ["[" * 90_000 + "}" * 90_000, "{" * 90_000 + "]" * 90_000])
def test_a_flood_of_closers_of_the_wrong_kind_ends_in_a_result(closers: str) -> None:
    # Each closer is stray (no bracket of its kind is open); deciding that once walked every
    # open bracket: 80,000 of each took 2.8 s in the scanner and with `mistral`.
    assert toolsift.scan_json_spans(closers).spans == []
    for syntax in SYNTAXES:
        for marker in ("", *_native.NativeStream.start_markers(syntax)[:1]):
            result = toolsift.parse(marker + closers, syntax)
            assert result.calls == [], syntax


def never_closed() -> Iterator[tuple[str, str]]:
    for syntax in SYNTAXES:
        for marker in _native.NativeStream.start_markers(syntax):
            yield syntax, marker


@pytest.mark.parametrize(("syntax", "marker"), list(never_closed()))
def test_a_marker_that_never_closes_is_bounded_by_the_segment_limit(
    syntax: str, marker: str
) -> None:
    body = '{"name": "f", "arguments": {"a": "' + "y" * (256 * 1024)
    text = "Hi.\n" + marker + body
    limited = toolsift.parse(text, syntax, max_segment_bytes=64 * 1024)
    assert limited.calls == []
    if "limit_exceeded" in kinds(limited):
        (issue,) = [i for i in limited.issues if i.kind == "limit_exceeded"]
        assert issue.span[1] - issue.span[0] <= 64 * 1024 + 1
    # Streamed in odd pieces, the same.
    same(streamed(text, syntax, 4093, max_segment_bytes=64 * 1024), limited)
    # Without a limit the parse still ends: in a result whose issues say what was left open.
    unlimited = toolsift.parse(text, syntax, max_segment_bytes=0)
    assert unlimited.content or unlimited.issues or unlimited.calls


def test_a_segment_over_the_limit_is_abandoned_and_the_rest_is_read() -> None:
    opened = '<tool_call>{"name": "f", "arguments": {"a": "' + "z" * 5000 + '"}}</tool_call>'
    text = opened + "\n" + hermes_call({"k": 2})
    result = toolsift.parse(text, "hermes", max_segment_bytes=1000)
    assert kinds(result) == ["limit_exceeded"]
    assert result.issues[0].span == (0, 1001)
    assert [c.arguments for c in result.calls] == [{"k": 2}]
    assert result.content.startswith("z" * 4000)


def test_lone_surrogates_and_nul_bytes_stream_as_they_parse() -> None:
    call = hermes_call({"a": "\x00\udfff"}).replace("\\udfff", "\udfff")
    text = ("\x00\ud800 prose " + call + "\udc00") * 200
    for syntax in ("hermes", "tool_call_json", "mistral"):
        whole = toolsift.parse(text, syntax)
        same(streamed(text, syntax, 7), whole, raw=False)
        for c in whole.calls:
            assert text[c.span[0] : c.span[1]] == c.raw
    calls = toolsift.parse(text, "hermes").calls
    assert len(calls) == 200
    assert calls[0].arguments["a"].startswith("\x00")


def test_one_hundred_thousand_tiny_calls() -> None:
    text = hermes_call({}) * 100_000
    everything = toolsift.parse(text, "hermes", max_calls=0)
    assert len(everything.calls) == 100_000
    assert everything.issues == []
    capped = toolsift.parse(text, "hermes")
    assert len(capped.calls) == toolsift.DEFAULT_LIMITS["max_calls"] == 10_000
    assert set(kinds(capped)) == {"limit_exceeded"}
    assert len(capped.issues) == 90_000


def test_a_one_byte_chunk_stream_of_a_megabyte() -> None:
    unit = "Some prose, then a call. " + hermes_call({"path": "/x", "body": "é" * 40}) + "\n"
    text = unit * (MB // len(unit))
    whole = toolsift.parse(text, "hermes")
    parser = StreamParser("hermes", previews=False)
    for ch in text:
        parser.feed(ch)
    parser.finish()
    same(parser.result(), whole)
    assert len(whole.calls) == MB // len(unit)


@pytest.mark.parametrize(
    "option", ["max_depth", "max_call_bytes", "max_segment_bytes", "max_calls"]
)
@pytest.mark.parametrize("value", [-1, 1.5, "10", True])
def test_a_bad_limit_is_a_toolsift_error(option: str, value: object) -> None:
    with pytest.raises(toolsift.ToolsiftError) as info:
        toolsift.parse("x", "hermes", **{option: value})
    assert info.value.reason == "bad_option"


@pytest.mark.parametrize("syntax", ["hermes", "tool_call_json", "mistral", "json_openai"])
def test_a_backslash_before_a_multibyte_character_streams(syntax: str) -> None:
    # Found by the `stream` fuzz target: the live argument preview stepped into the middle of
    # the character after the backslash and panicked (PanicException in Python).
    body = '{"name": "f", "arguments": {"a": "x\\é y\\😀"}}'
    text = {
        "hermes": f"<tool_call>{body}</tool_call>",
        "tool_call_json": f"TOOL_CALL: {body}",
        "mistral": f"[TOOL_CALLS][{body}]",
        "json_openai": f"[{body}]",
    }[syntax]
    for step in (1, 3, len(text)):
        result = streamed(text, syntax, step)
        assert [c.name for c in result.calls] == ["f"], (syntax, step)
        assert result.calls[0].arguments["a"].startswith("x")


@pytest.mark.parametrize("syntax", ["deepseek_v31", "deepseek_v3", "auto"])
@pytest.mark.parametrize("after", ["\ufffd", "\ud800", "\uff01"])
def test_a_token_cut_inside_a_character_is_text(syntax: str, after: str) -> None:
    # Found by a hypothesis test of `parse_groups`: `｜` (EF BD 9C) and U+FFFD (EF BF BD) share
    # their first byte, and the end token's matcher stopped inside the character (a
    # PanicException). The call is still read; the cut token stays text.
    head = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
    text = head + '{"city": "Tokyo"}<｜tool▁call▁end' + after + " bye"
    results = [toolsift.parse(text, syntax), *toolsift.parse_many([text], syntax, workers=2)]
    for step in (1, 2, 5):
        results.append(streamed(text, syntax, step))
    for result in results:
        assert [(c.name, c.arguments) for c in result.calls] == [("get_weather", {"city": "Tokyo"})]
        assert result.content.endswith(" bye")


def test_max_calls_counts_per_response_even_with_reused_engines() -> None:
    # parse() reuses one engine per thread and options; the count must start over each time.
    text = hermes_call({}) * 3
    assert [len(toolsift.parse(text, "hermes", max_calls=4).calls) for _ in range(3)] == [3] * 3
    parser = StreamParser("hermes", max_calls=4)
    for _ in range(2):
        parser.feed(text)
        parser.finish()
        assert len(parser.result().calls) == 3
        parser.reset()


def test_an_integer_longer_than_python_converts_is_an_issue_beside_its_siblings() -> None:
    # CPython converts at most sys.get_int_max_str_digits() (4,300) digits from text; `int`
    # raises a bare ValueError past that, which sank the whole parse.
    long = "7" * 4301
    text = (
        f'<tool_call>{{"name": "f", "arguments": {{"n": {long}}}}}</tool_call>'
        f'<tool_call>{{"name": "g", "arguments": {{"n": {long[:4300]}, "s": "{long}"}}}}'
        "</tool_call>"
    )
    results = [
        toolsift.parse(text, "hermes"),
        toolsift.parse_many([text], "hermes", workers=1)[0],
        streamed(text, "hermes", 97),
    ]
    for result in results:
        assert [c.name for c in result.calls] == ["g"]
        assert result.calls[0].arguments == {"n": int(long[:4300]), "s": long}
        assert [i.kind for i in result.issues] == ["limit_exceeded"]
        assert "4301 digits" in result.issues[0].message


def test_the_lenient_api_raises_its_own_error_for_such_an_integer() -> None:
    # The offset is the number's (its sign included) in the JSON loaded, the repaired text;
    # the repairs here change nothing before it.
    for text in ["[" + "1" * 4301 + "]", '{"a": -' + "1" * 5000 + ", 'b': 1"]:
        with pytest.raises(toolsift.JsonRepairError) as caught:
            toolsift.lenient_loads(text)
        assert caught.value.reason == "integer_too_long"
        assert caught.value.offset == text.index(text.lstrip('[{"a: ')[0])
