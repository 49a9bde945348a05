"""pytest-benchmark: streaming a large tool call, toolsift vs re-parsing the prefix with jiter.

Run with ``pytest benches --benchmark-enable -k stream``. Rows 1-2 of ``stream_compare.py`` on
the same generated input: a ``hermes`` ``write_file`` call whose ``content`` is 20 KB (or
200 KB) of code-like text, in 4-character deltas. Each benchmark checks the arguments it ends
with (or, for a window that stops before the end of the stream, that the partial value is a
prefix of the expected one). partial_json_parser is left to ``stream_compare.py``: one run
takes minutes.
"""

from __future__ import annotations

from typing import Any

import pytest
import stream_compare as sc
from pytest_benchmark.fixture import BenchmarkFixture

import toolsift
from toolsift.streaming import ENGINE_SYNTAXES

pytestmark = pytest.mark.skipif("hermes" not in ENGINE_SYNTAXES, reason=sc.NOT_AVAILABLE)

SMALL = sc.hermes_write_file(20_000)
BIG = sc.hermes_write_file(200_000)
#: Deltas per jiter window of the 200 KB stream: a late jiter delta costs milliseconds.
JITER_WINDOW = 100


def _tenth(stream: sc.Stream) -> int:
    return len(stream.deltas) // 10


def _jiter_parse() -> Any:
    pytest.importorskip("jiter")
    return sc._jiter_parse()


@pytest.mark.benchmark(group="stream-20k")
def test_toolsift_20k(benchmark: BenchmarkFixture) -> None:
    calls = benchmark(sc.toolsift_stream, SMALL.deltas)
    assert calls == [(SMALL.name, SMALL.arguments)]


@pytest.mark.benchmark(group="stream-20k")
def test_jiter_reparse_20k(benchmark: BenchmarkFixture) -> None:
    parse = _jiter_parse()
    r = benchmark.pedantic(sc.reparse_stream, args=(SMALL.deltas, parse), rounds=3)
    assert sc.reparse_correct(r.value, SMALL)


@pytest.mark.benchmark(group="stream-200k")
def test_toolsift_200k(benchmark: BenchmarkFixture) -> None:
    calls = benchmark.pedantic(sc.toolsift_stream, args=(BIG.deltas,), rounds=5)
    assert calls == [(BIG.name, BIG.arguments)]


@pytest.mark.benchmark(group="stream-growth")
@pytest.mark.parametrize("where", ["first", "last"])
def test_toolsift_200k_tenth(benchmark: BenchmarkFixture, where: str) -> None:
    """Feeds the first or the last 10% of the 200 KB stream's deltas (the parser is set up,
    untimed, with everything before them); compare the two means."""
    k = _tenth(BIG)
    start = 0 if where == "first" else len(BIG.deltas) - k
    parsers: list[toolsift.StreamParser] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        p = toolsift.StreamParser("hermes")
        for d in BIG.deltas[:start]:
            p.feed(d)
        parsers.append(p)
        return (p, BIG.deltas[start : start + k]), {}

    def feed(p: toolsift.StreamParser, deltas: list[str]) -> None:
        for d in deltas:
            p.feed(d)

    benchmark.pedantic(feed, setup=setup, rounds=5)
    p = parsers[-1]
    for d in BIG.deltas[start + k :]:
        p.feed(d)
    p.finish()
    assert [(c.name, c.arguments) for c in p.result().calls] == [(BIG.name, BIG.arguments)]


@pytest.mark.benchmark(group="stream-growth")
@pytest.mark.parametrize("where", ["first", "last"])
def test_jiter_reparse_200k_window(benchmark: BenchmarkFixture, where: str) -> None:
    """Re-parses at each of JITER_WINDOW deltas at the start or the end of the 200 KB stream."""
    parse = _jiter_parse()
    start = 0 if where == "first" else len(BIG.deltas) - JITER_WINDOW
    prefix = "".join(BIG.deltas[:start])

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        r = sc.Reparser(parse)
        r.prime(prefix)
        return (r, BIG.deltas[start : start + JITER_WINDOW]), {}

    def feed(r: sc.Reparser, deltas: list[str]) -> sc.Reparser:
        for d in deltas:
            r.feed(d)
        return r

    r = benchmark.pedantic(feed, setup=setup, rounds=1)
    if where == "last":
        assert sc.reparse_correct(r.value, BIG)
    else:
        content = r.value.get("arguments", {}).get("content", "") if r.value else ""
        assert r.value["name"] == BIG.name
        assert BIG.arguments["content"].startswith(content)
