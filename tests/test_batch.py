"""``parse_many`` equals ``parse`` on every text, whatever the number of workers."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift import batch, parse, parse_many
from toolsift.streaming import ENGINE_SYNTAXES

from conformance import call_cases

SYNTAX_TEXTS = {s: [c["text"] for c in call_cases(s)] for s in ENGINE_SYNTAXES if call_cases(s)}
TOOLS = [
    {"type": "function", "function": {"name": "search", "parameters": {"properties": {}}}},
]


@st.composite
def batches(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A syntax and texts spliced from pieces of its conformance cases (cut markers, unclosed
    calls, calls inside calls), plus prose and the odd lone surrogate."""
    syntax = draw(st.sampled_from(sorted(SYNTAX_TEXTS)))
    sources = SYNTAX_TEXTS[syntax]
    texts = []
    for _ in range(draw(st.integers(0, 12))):
        pieces = []
        for _ in range(draw(st.integers(1, 3))):
            source = draw(st.sampled_from([*sources, "plain prose é 日本 ", "\ud800"]))
            a = draw(st.integers(0, len(source)))
            b = draw(st.integers(a, len(source)))
            pieces.append(source[a:b])
        texts.append("".join(pieces))
    return syntax, texts


@pytest.fixture(autouse=True)
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of a few texts, so the schedule runs many slices on small batches."""
    monkeypatch.setattr(batch, "MIN_SLICE_BYTES", 50)


@settings(max_examples=150, deadline=None)
@given(batches(), st.integers(1, 4), st.sampled_from([None, TOOLS]))
def test_parse_many_equals_parse_per_text(
    drawn: tuple[str, list[str]], workers: int, tools: list[dict[str, object]] | None
) -> None:
    syntax, texts = drawn
    # Batch first: `parse` caches each non-ASCII text's UTF-8 in the `str`, and the batch
    # reads texts without that cache another way (see `test_fresh_wide_texts_...`).
    first = parse_many(texts, syntax, tools=tools, workers=workers)
    expected = [parse(t, syntax, tools=tools) for t in texts]
    assert first == expected
    assert parse_many(texts, syntax, tools=tools, workers=1) == expected


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_schedule_yields_every_slice_of_every_group_in_order(workers: int) -> None:
    groups = [["x" * n for n in (0, 30, 70, 5, 5, 5, 90, 0)], [], ["y\ud800", "z"]]
    run = toolsift._native.BatchRun(
        [(texts, ["hermes"], None, None, True, False, []) for texts in groups],
        workers=workers,
        min_slice_bytes=40,
    )
    seen: list[list[str]] = [[], [], []]
    fixed_seen = []
    for group, start, found, fixed in run:
        assert start == len(seen[group])
        seen[group] += [content for content, _, _ in found]
        fixed_seen += [(group, start + i) for i in fixed]
    assert seen == [groups[0], [], ["y\ufffd", "z"]]
    assert fixed_seen == [(2, 0)]
    assert seen[0][1] is groups[0][1]  # a text without calls is its own content


def test_the_slices_shrink_toward_the_end_with_several_workers() -> None:
    texts = ["x" * 100] * 400  # 40,000 bytes: slices of at most 40000 / (2 * 16) = 1,250

    def sizes(workers: int, tail: int) -> list[int]:
        run = toolsift._native.BatchRun(
            [(texts, ["hermes"], None, None, True, False, [])],
            workers=workers,
            min_slice_bytes=10,
            tail_slice_bytes=tail,
        )
        return [len(found) for _, _, found, _ in run]

    guided = sizes(2, 200)
    assert sum(guided) == len(texts)
    assert guided == sorted(guided, reverse=True)
    # Full slices of 13 texts (1,300 bytes) while 8 of them are left, then shrinking to
    # 200 bytes, and what is left over.
    assert guided[0] == 13 and guided[-2] == 2 and guided.count(2) >= 2
    flat = sizes(2, 10**9)  # a tail no smaller than the slices: all slices alike
    assert set(flat[:-1]) == {13}
    one = sizes(1, 200)  # one worker overlaps nothing: no shrinking
    assert set(one[:-1]) == {25}


def test_a_schedule_dropped_early_stops_its_workers() -> None:
    texts = ['<tool_call>{"name": "f", "arguments": {}}</tool_call>'] * 2000
    run = toolsift._native.BatchRun(
        [(texts, ["hermes"], None, None, True, False, [])], workers=2, min_slice_bytes=100
    )
    group, start, found, _ = next(iter(run))
    assert (group, start) == (0, 0) and found[0][1][0].name == "f"
    del run  # the worker stops taking slices; nothing hangs or leaks an error


def test_slices_the_calling_thread_builds_ahead_come_out_in_order() -> None:
    """A long text in the second slice keeps one thread on it while the other parses and
    builds the slices after it (the calling thread builds a slice it parsed at once, and
    hands it out in its turn); every slice comes out in order."""
    call = '<tool_call>{"name": "f", "arguments": {"i": %d}}</tool_call>'
    small = [f"text {i} " + "x" * 250 + call % i for i in range(600)]
    long = ("prose " * 200 + call % -1 + "\n") * 400  # ~0.5 MB
    # Slices of ~25 KB (the batch's size over 2 workers x 16): the first ~80 small texts,
    # then one that ends with the long text, then the rest.
    texts = [*small[:100], long, *small[100:]]
    run = toolsift._native.BatchRun(
        [(texts, ["hermes"], None, None, True, False, [])], workers=2, min_slice_bytes=200
    )
    seen = []
    for group, start, found, _ in run:
        assert (group, start) == (0, len(seen))
        seen += [[c.arguments["i"] for c in calls] for _, calls, _ in found]
    assert seen == [[i] for i in range(100)] + [[-1] * 400] + [[i] for i in range(100, 600)]
    assert parse_many(texts, "hermes", workers=2) == [parse(t, "hermes") for t in texts]


def test_every_syntax_at_once_and_many_texts_keep_order() -> None:
    texts = [t for ts in SYNTAX_TEXTS.values() for t in ts] * 5
    expected = [parse(t, list(ENGINE_SYNTAXES)) for t in texts]
    one = parse_many(texts, list(ENGINE_SYNTAXES), workers=1)
    two = parse_many(iter(texts), list(ENGINE_SYNTAXES), workers=2)
    assert one == two == expected
    assert sum(len(r.calls) for r in one) > len(texts) // 2


def test_options_of_parse_apply_per_text() -> None:
    texts = ['FUNC: {"tool": "a"} FUNC: {"tool": "b"}', 'FUNC: {"tool": "c", "params": [}']
    options = {"marker": "FUNC", "first_only": True, "id_prefix": "t", "max_payload_chars": 0}
    got = parse_many(texts, **options)
    assert got == [parse(t, **options) for t in texts]
    assert [c.id for c in got[0].calls] == ["t0"]


def test_unknown_syntax_and_bad_workers_are_clear_errors() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError, match="hermes"):
        parse_many(["x"], "nope")
    for bad in (0, -1):
        with pytest.raises(toolsift.ToolsiftError, match="workers"):
            parse_many(["x"], workers=bad)
    with pytest.raises(TypeError):
        parse_many(["ok", 3], "hermes")  # type: ignore[list-item]


def test_unknown_tool_error_policy_raises_from_a_batch() -> None:
    text = '<tool_call>{"name": "other", "arguments": {}}</tool_call>'
    with pytest.raises(toolsift.UnknownToolError):
        parse_many([text], "hermes", tools=TOOLS, unknown_tools="error")


def test_empty_batch() -> None:
    assert parse_many([], workers=2) == []


def test_auto_provider_objects_and_the_default_syntax(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [t for ts in SYNTAX_TEXTS.values() for t in ts]
    assert parse_many(texts, "auto", workers=2) == [parse(t, "auto") for t in texts]
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ],
    }
    got = parse_many([message, "TOOL_CALL: {}"], ["api_tool_call", "tool_call_json"])
    assert got == [parse(message, "api_tool_call"), parse("TOOL_CALL: {}", "tool_call_json")]
    assert got[0].calls[0].name == "f"
    hermes = '<tool_call>{"name": "g", "arguments": {}}</tool_call>'
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "hermes")
    assert parse_many([hermes])[0].calls[0].name == "g"


@settings(max_examples=40, deadline=None)
@given(st.lists(batches(), max_size=4), st.integers(1, 3))
def test_parse_groups_equals_parse_many_per_group(
    groups: list[tuple[str, list[str]]], workers: int
) -> None:
    got = batch.parse_groups(groups, workers=workers)
    assert got == [parse_many(texts, syntax, workers=1) for syntax, texts in groups]


def test_one_shot_results_equal_the_streaming_path_with_tools() -> None:
    """``_result_of`` (the one-shot and batch builder) against ``_end`` (event by event)."""
    typed = [
        {"name": n, "parameters": {"properties": {"n": {"type": "integer"}}}}
        for n in ("get_weather", "search", "read_file")
    ]
    for syntax, texts in SYNTAX_TEXTS.items():
        for text in texts:
            for tools in (None, typed):
                stream = toolsift.StreamParser(syntax, tools=tools)
                stream.feed(text)
                stream.finish()
                assert parse(text, syntax, tools=tools) == stream.result(), (syntax, text)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_schedule_builds_results_when_asked(workers: int) -> None:
    texts = [
        "prose " * 20
        + '<tool_call>{"name": "f", "arguments": {"a": "é"}}</tool_call>'
        + " end" * 30,
        "no calls",
        'y\ud800 <tool_call>{"name": "g", "arguments": {}}</tool_call>',
    ]
    found: list[Any] = []
    for _, _, results, _ in toolsift._native.BatchRun(
        [(texts, ["hermes"], None, None, True, True, [])], workers=workers, min_slice_bytes=10
    ):
        found += results
    assert all(type(r) is toolsift.ParseResult for r in found)
    expected = [parse(t, "hermes") for t in texts]
    # The caller's own raw for the text with a lone surrogate is ``parse_many``'s fix-up.
    assert found[:2] == expected[:2]
    assert parse_many(texts, "hermes", workers=workers) == expected


@pytest.mark.parametrize("workers", [1, 2])
def test_fresh_wide_texts_are_read_without_a_utf8_copy(workers: int) -> None:
    """A non-ASCII `str` just made (as a JSONL reader makes them) has no UTF-8 yet; the
    batch encodes it on its worker and leaves the `str` as it was, one code point width of
    each kind and lone surrogates included."""
    call = '<tool_call>{"name": "f", "arguments": {"a": "VALUE"}}</tool_call>'
    words = ["café", "日本語", "emoji 😀", "ascii", "y\ud800 é"]
    texts = [
        f"pre {w} {call.replace('VALUE', w)} post {w}".encode("utf-8", "surrogatepass").decode(
            "utf-8", "surrogatepass"
        )
        for w in words
    ] * 40
    sizes = [sys.getsizeof(t) for t in texts]
    found = parse_many(texts, "hermes", workers=workers)
    # CPython counts a cached UTF-8 copy in the size of a non-ASCII `str`.
    assert [sys.getsizeof(t) for t in texts] == sizes
    assert found == [parse(t, "hermes") for t in texts]
    assert found[0].calls[0].arguments == {"a": "café"}
    assert found[2].calls[0].arguments == {"a": "emoji 😀"}
    assert found[4].calls[0].arguments == {"a": "y\ufffd é"}
    assert found[4].calls[0].raw == texts[4][texts[4].index("<tool") : texts[4].index(" post")]
