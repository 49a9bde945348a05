"""Hypothesis properties across the public API: only documented exceptions, stream == batch for
every syntax under any chunking and any limits, and the limits hold."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift import StreamParser, _native
from toolsift.model import ParseResult
from toolsift.streaming import ENGINE_SYNTAXES

SYNTAXES = ENGINE_SYNTAXES  # the text syntaxes (not api_tool_call, which reads objects)
MARKERS = sorted({m for s in SYNTAXES for m in _native.NativeStream.start_markers(s)})
PIECES = [
    *MARKERS,
    "</tool_call>",
    "[/RUN_MODULE]",
    "</invoke>",
    "</function_calls>",
    "<|tool_call_end|>",
    "<|call|>",
    "[[SEG_END]]",
    '{"name": "f", "arguments": {"a": "x"}}',
    '{"tool_name": "g", "parameters": {"n": [1, 2.5, null]}}',
    "[{'name': 'h', 'arguments': {}}]",
    "f(a=1, b='x')",
    '<parameter name="k">v</parameter>',
    "\n---\nk: v\n",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "\\",
    ":",
    ",",
    "\n",
    " ",
    "é",
    "😀",
    "\x00",
    "\ud800",
    "\udfff",
]

texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=30).map("".join)
syntax_sets = st.one_of(
    st.sampled_from(SYNTAXES), st.lists(st.sampled_from(SYNTAXES), min_size=2, max_size=4)
)
limits = st.fixed_dictionaries(
    {},
    optional={
        "max_depth": st.integers(0, 4),
        "max_call_bytes": st.integers(0, 60),
        "max_segment_bytes": st.integers(0, 80),
        "max_calls": st.integers(0, 3),
    },
)


def chunked(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


def streamed(syntax: Any, chunks: list[str], **options: Any) -> ParseResult:
    parser = StreamParser(syntax, **options)
    for chunk in chunks:
        parser.feed(chunk)
    parser.finish()
    return parser.result()


def view(result: ParseResult) -> tuple[Any, ...]:
    return (
        [(c.id, c.name, c.arguments, c.span, c.raw, c.repairs) for c in result.calls],
        result.issues,
        result.content,
    )


@settings(max_examples=250, deadline=None)
@given(texts, syntax_sets, st.lists(st.integers(0, 10_000), max_size=6), limits)
def test_stream_equals_batch_for_any_chunking_and_limits(
    text: str, syntax: Any, cuts: list[int], options: dict[str, int]
) -> None:
    batch = toolsift.parse(text, syntax, **options)
    stream = streamed(syntax, chunked(text, cuts), **options)
    # parse() hands back the caller's own text as raw; the stream reads lone surrogates as
    # U+FFFD, so compare everything else exactly and raw through the spans.
    assert view(batch)[1:] == view(stream)[1:]
    assert [c[:4] for c in view(batch)[0]] == [c[:4] for c in view(stream)[0]]
    for call in batch.calls:
        assert text[call.span[0] : call.span[1]] == call.raw
        json.dumps(call.arguments)
    for issue in batch.issues:
        assert 0 <= issue.span[0] <= issue.span[1] <= len(text)


@settings(max_examples=250, deadline=None)
@given(texts, syntax_sets, limits)
def test_limits_hold(text: str, syntax: Any, options: dict[str, int]) -> None:
    result = toolsift.parse(text, syntax, **options)
    if options.get("max_calls"):
        assert len(result.calls) <= options["max_calls"]
    if options.get("max_segment_bytes"):
        for call in result.calls:
            assert len(call.raw.encode("utf-8", "replace")) <= options["max_segment_bytes"]


@settings(max_examples=300, deadline=None)
@given(texts)
def test_lenient_api_raises_only_documented_errors(text: str) -> None:
    try:
        value = toolsift.lenient_loads(text)
    except toolsift.JsonRepairError as e:
        assert e.offset is None or 0 <= e.offset <= len(text)
    else:
        json.dumps(value)
    try:
        repaired = toolsift.repair_json(text)
    except toolsift.JsonRepairError:
        pass
    else:
        assert json.loads(repaired.text) == repaired.value
    spans = toolsift.scan_json_spans(text)
    for span in spans.spans:
        assert text[span.start] in "{[" and text[span.end - 1] in "}]"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=20), st.sampled_from(["tool_call_json", "nope", "", "HERMES"]))
def test_unknown_syntax_is_the_only_error_of_parse(text: str, syntax: str) -> None:
    try:
        toolsift.parse(text, syntax)
    except toolsift.UnknownSyntaxError as e:
        assert syntax != "tool_call_json"
        assert "known syntaxes" in str(e)


@settings(max_examples=100, deadline=None)
@given(st.lists(texts, max_size=6), syntax_sets, st.sampled_from([None, 1, 2]), limits)
def test_parse_many_equals_parse_text_by_text(
    batch: list[str], syntax: Any, workers: int | None, options: dict[str, int]
) -> None:
    many = toolsift.parse_many(batch, syntax, workers=workers, **options)
    assert [view(r) for r in many] == [view(toolsift.parse(t, syntax, **options)) for t in batch]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x1F600)))
def test_lone_surrogates_become_replacement_characters_one_for_one(text: str) -> None:
    fixed = _native.without_surrogates(text)
    assert len(fixed) == len(text)
    for before, after in zip(text, fixed, strict=True):
        assert after == ("\ufffd" if "\ud800" <= before <= "\udfff" else before)
    fixed.encode()  # valid UTF-8 now


@given(st.text().filter(lambda t: "<" not in t))
def test_a_text_without_calls_is_its_own_content(text: str) -> None:
    # No "<", so no hermes segment can open: the engine hands back the caller's own str
    # rather than a copy (`st.text()` holds no lone surrogate, whose texts are read through
    # a fixed copy).
    result = toolsift.parse(text, "hermes")
    assert result.content is text
    assert result.calls == [] and result.issues == []
    [batched] = toolsift.parse_many([text], "hermes", workers=1)
    assert batched.content == text


def test_surrogates_across_the_native_chunks_of_a_long_text() -> None:
    # The native replacement encodes 32,768 code points at a time; a lone high and low
    # surrogate on either side of a boundary stay two separate replacements.
    text = "a" * 32_767 + "\ud800\udc00" + "é😀" * 40_000 + "\udfff"
    fixed = _native.without_surrogates(text)
    assert fixed == "a" * 32_767 + "\ufffd\ufffd" + "é😀" * 40_000 + "\ufffd"
    result = toolsift.parse(
        text + '<tool_call>{"name": "f", "arguments": {}}</tool_call>', "hermes"
    )
    assert [c.name for c in result.calls] == ["f"]
    assert result.calls[0].span[0] == len(text)
    assert result.content == fixed
