"""StreamParser: chunk-split invariance over every engine conformance case, and the API."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift.events import (
    ArgumentDelta,
    ArgumentsJsonDelta,
    Event,
    SegmentEnd,
    SegmentStart,
    TextDelta,
)
from toolsift.streaming import ENGINE_SYNTAXES

from conformance import call_cases, calls_match

CASES = [case for syntax in ENGINE_SYNTAXES for case in call_cases(syntax)]


def _delta_key(e: Event) -> tuple[str, int, str] | None:
    if isinstance(e, TextDelta):
        return (e.segment_id, 0, "")
    if isinstance(e, ArgumentsJsonDelta):
        return (e.segment_id, 1, "")
    if isinstance(e, ArgumentDelta):
        return (e.segment_id, 2, e.key)
    return None


def merged(events: list[Event]) -> list[Event]:
    """The canonical form (as the core's ``canonical``): a segment's deltas merged per kind
    and key, in a fixed order. Chunking changes how a segment's text and argument streams
    interleave, never what each says."""
    out: list[Event] = []
    run: dict[tuple[str, int, str], Event] = {}

    def flush() -> None:
        out.extend(run[k] for k in sorted(run))
        run.clear()

    for e in events:
        key = _delta_key(e)
        if key is None:
            flush()
            out.append(e)
        elif key in run:
            prev = run[key]
            text = prev.text + e.text  # type: ignore[union-attr]
            run[key] = (
                ArgumentDelta(e.segment_id, e.key, text)
                if isinstance(e, ArgumentDelta)
                else type(e)(e.segment_id, text)  # type: ignore[call-arg]
            )
        else:
            run[key] = e
    flush()
    return out


def run(
    syntax: str, chunks: list[str], tools: list[dict[str, Any]] | None = None
) -> tuple[list[Event], toolsift.ParseResult]:
    parser = toolsift.StreamParser(syntax, tools=tools)
    events: list[Event] = []
    for chunk in chunks:
        events += parser.feed(chunk)
    events += parser.finish()
    return merged(events), parser.result()


def splits(text: str, rng: random.Random) -> list[str]:
    cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(1, 12))))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_is_chunking_invariant(case: dict[str, Any]) -> None:
    text, syntax, tools = case["text"], case["syntax"], case.get("tools")
    whole_events, whole = run(syntax, [text], tools)
    got = [(c.name, c.arguments) for c in whole.calls]
    assert calls_match(case, got), (got, case["expected_calls"])
    if "expected_content" in case:
        assert whole.content == case["expected_content"]
    chunkings = [list(text), case.get("chunks") or [text]]
    rng = random.Random(case["id"])
    chunkings += [splits(text, rng) for _ in range(100)]
    chunkings.append([text[i : i + 7] for i in range(0, len(text), 7)])
    if case.get("expect_error"):
        assert got == [] and whole.issues
    for chunks in chunkings:
        events, result = run(syntax, chunks, tools)
        assert events == whole_events, chunks
        assert result == whole


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_split_of_any_case_equals_one_shot(data: st.DataObject) -> None:
    case = data.draw(st.sampled_from(CASES))
    text = case["text"]
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=10)))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    tools = case.get("tools")
    assert run(case["syntax"], chunks, tools) == run(case["syntax"], [text], tools)


def test_events_and_ids() -> None:
    events, result = run(
        "hermes", ['Hi <tool_call>{"name": "f", "arguments": {"a": "é"}}</tool_call>']
    )
    assert [type(e) for e in events] == [
        SegmentStart,
        TextDelta,
        SegmentEnd,
        SegmentStart,
        ArgumentsJsonDelta,
        ArgumentDelta,
        SegmentEnd,
    ]
    start, end = events[3], events[6]
    assert events[4] == ArgumentsJsonDelta("call_0", '{"a": "é"}')
    assert events[5] == ArgumentDelta("call_0", "a", "é")
    assert (
        isinstance(start, SegmentStart) and start.kind == "tool_call" and start.syntax == "hermes"
    )
    assert isinstance(end, SegmentEnd) and end.call is not None
    assert end.call.id == end.segment_id == "call_0"
    assert end.call.arguments == {"a": "é"}
    assert result.content == "Hi "


def test_several_syntaxes_at_once_and_parse_accepts_a_list() -> None:
    text = '<tool_call>{"name": "a"}</tool_call> [RUN_MODULE]{"module": "b"}[/RUN_MODULE]'
    result = toolsift.parse(text, ["hermes", "run_module"])
    assert [(c.name, c.syntax) for c in result.calls] == [("a", "hermes"), ("b", "run_module")]
    assert [c.id for c in result.calls] == ["call_0", "call_1"]


def test_unknown_engine_syntax_is_a_clear_error() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError, match="hermes"):
        toolsift.StreamParser("nope")


def test_reset_starts_a_new_stream() -> None:
    parser = toolsift.StreamParser("hermes")
    parser.feed("<tool_call>{")
    parser.reset()
    parser.feed('x <tool_call>{"name": "g"}</tool_call>')
    parser.finish()
    assert [c.name for c in parser.result().calls] == ["g"]


def test_parsers_on_many_threads() -> None:
    text = "".join(
        f'<tool_call>{{"name": "f{i}", "arguments": {{"i": {i}}}}}</tool_call>' for i in range(50)
    )
    expected = toolsift.parse(text, "hermes")
    failures: list[str] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(20):
            _, result = run("hermes", splits(text, rng))
            if result != expected:
                failures.append(f"seed {seed}")

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


SYNTAX_TEXTS = {
    syntax: [c["text"] for c in call_cases(syntax)]
    for syntax in ENGINE_SYNTAXES
    if call_cases(syntax)
}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_spliced_cases_never_fail_and_any_split_equals_one_shot(data: st.DataObject) -> None:
    """Texts spliced from pieces of a syntax's cases (cut markers, unclosed calls, calls in
    the middle of other calls) parse without exceptions, identically under any chunking."""
    syntax = data.draw(st.sampled_from(sorted(SYNTAX_TEXTS)))
    texts = SYNTAX_TEXTS[syntax]
    pieces = []
    for _ in range(data.draw(st.integers(1, 4))):
        source = data.draw(st.sampled_from(texts))
        a = data.draw(st.integers(0, len(source)))
        b = data.draw(st.integers(a, len(source)))
        pieces.append(source[a:b])
    text = "".join(pieces)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    whole = run(syntax, [text])
    assert run(syntax, chunks) == whole
    _, result = whole
    for call in result.calls:
        assert text[call.span[0] : call.span[1]] == call.raw


def test_segment_end_behaves_as_a_frozen_value() -> None:
    """The native SegmentEnd compares, hashes, matches and refuses writes like the frozen
    dataclass it replaced."""
    call = toolsift.ToolCall(name="f", arguments={"a": 1}, id="call_0")
    issue = toolsift.ParseIssue("hermes", (0, 3), "unterminated", "open")
    end = SegmentEnd("call_0", call, issue)
    assert end == SegmentEnd(
        "call_0", toolsift.ToolCall(name="f", arguments={"a": 1}, id="call_0"), issue
    )
    assert end != SegmentEnd("call_0", call, None)
    assert end != SegmentEnd("call_1", call, issue)
    assert (end == ("call_0", call, issue)) is False
    assert SegmentEnd("text_0") == SegmentEnd(segment_id="text_0", call=None, issue=None)
    assert hash(SegmentEnd("t", issue=issue)) == hash(SegmentEnd("t", None, issue))
    with pytest.raises(TypeError):
        hash(end)  # a ToolCall is mutable, so not hashable
    with pytest.raises(AttributeError):
        end.call = None  # type: ignore[misc]
    match end:
        case SegmentEnd(sid, c, i):
            assert (sid, c, i) == ("call_0", call, issue)
    assert "call_0" in repr(end) and "ToolCall(name='f'" in repr(end)
