"""Threads: many parsers at once give each stream its own correct result; one parser used by two
threads at once refuses the second call with ``ConcurrentUseError`` and keeps its state."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolsift
from toolsift import StreamParser
from toolsift.events import SegmentEnd


def response(k: int) -> str:
    calls = "".join(
        f"<tool_call>{json.dumps({'name': f'tool{k}', 'arguments': {'i': i, 's': 'é' * k}})}"
        "</tool_call>\n"
        for i in range(k % 7 + 1)
    )
    return f"Reply {k}: " + "words " * (k % 13) + calls + "done."


def stream(k: int) -> toolsift.ParseResult:
    text = response(k)
    parser = StreamParser(["hermes", "mistral"])
    step = k % 5 + 1
    for at in range(0, len(text), step):
        parser.feed(text[at : at + step])
    parser.finish()
    return parser.result()


def test_many_parsers_in_a_thread_pool_each_match_a_one_shot_parse() -> None:
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(stream, range(400)))
    for k, result in enumerate(results):
        expected = toolsift.parse(response(k), ["hermes", "mistral"])
        assert [(c.name, c.arguments, c.span) for c in result.calls] == [
            (c.name, c.arguments, c.span) for c in expected.calls
        ]
        assert result.content == expected.content
        assert [c.arguments["i"] for c in result.calls] == list(range(k % 7 + 1))


def test_a_parser_used_by_two_threads_at_once_refuses_the_second_call() -> None:
    parser = StreamParser("hermes")
    inside, release = threading.Event(), threading.Event()
    end = parser._end

    def slow_end(*args: Any) -> SegmentEnd:
        # Holds the first thread inside `feed` (at its call's end) while the second one calls in.
        inside.set()
        release.wait(10)
        return end(*args)

    parser._end = slow_end  # type: ignore[method-assign]
    first = '<tool_call>{"name": "a", "arguments": {}}</tool_call>'
    worker = threading.Thread(target=parser.feed, args=(first,))
    worker.start()
    assert inside.wait(10)
    for call in (
        lambda: parser.feed('<tool_call>{"name": "b", "arguments": {}}</tool_call>'),
        parser.finish,
        parser.reset,
        parser.result,
    ):
        with pytest.raises(toolsift.ConcurrentUseError) as info:
            call()
        assert "another thread" in str(info.value)
        assert info.value.reason == "concurrent_use"
        assert isinstance(info.value, ValueError)
    release.set()
    worker.join(10)
    parser._end = end  # type: ignore[method-assign]
    parser.finish()
    # The refused calls changed nothing: only the first thread's call is there.
    assert [c.name for c in parser.result().calls] == ["a"]


def test_a_parser_may_move_between_threads_when_calls_do_not_overlap() -> None:
    parser = StreamParser("hermes")
    text = '<tool_call>{"name": "a", "arguments": {"k": [1, 2]}}</tool_call>'
    with ThreadPoolExecutor(max_workers=1) as first, ThreadPoolExecutor(max_workers=1) as second:
        first.submit(parser.feed, text[:20]).result()
        second.submit(parser.feed, text[20:]).result()
        first.submit(parser.finish).result()
    assert [c.arguments for c in parser.result().calls] == [{"k": [1, 2]}]


CALL = '<tool_call>{"name": "f", "arguments": {"i": 0}}</tool_call>'
BATCH = [f"x {CALL} y {i}" for i in range(3000)]


def _batch_names() -> list[list[str]]:
    return [[c.name for c in r.calls] for r in toolsift.parse_many(BATCH, "hermes", workers=2)]


def test_batches_from_many_threads_share_the_helper_threads() -> None:
    # Every batch hands work to the same kept helper threads; each caller's thread parses
    # whatever no helper has taken, so none waits on another's batch.
    expected = [["f"]] * len(BATCH)
    with ThreadPoolExecutor(max_workers=6) as pool:
        for names in pool.map(lambda _: _batch_names(), range(12)):
            assert names == expected


def _helper_threads() -> list[str]:
    """Names of this process's threads that are batch helpers (Linux: /proc)."""
    from pathlib import Path

    names = [p.read_text().strip() for p in Path("/proc/self/task").glob("*/comm")]
    return sorted(n for n in names if n.startswith("toolsift-w"))


def _child_batch() -> tuple[list[list[str]], list[str]]:
    return _batch_names(), _helper_threads()


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"), reason="needs /proc")
def test_a_forked_child_starts_its_own_helper_threads() -> None:
    import multiprocessing

    _batch_names()
    assert "toolsift-w0" in _helper_threads()  # other tests may have started more
    # A forked child inherits the registry of helpers but not their threads: it must start
    # its own rather than hand slices to threads that are not there.
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        names, threads = pool.apply(_child_batch)
    assert names == [["f"]] * len(BATCH)
    assert threads == ["toolsift-w0"]
