"""pytest-benchmark: extracting ``TOOL_CALL`` calls from model replies, toolsift vs selectools.

Run with ``pytest benches --benchmark-enable``. Each reply of the slice holds exactly one call,
because selectools' ``ToolCallParser`` returns only the first; toolsift runs with
``first_only=False`` and must still find exactly one. Each benchmark checks its own results
(name and arguments) against the expected call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import corpus
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import toolsift

REPLIES = corpus.tool_call_responses(40)
TEXTS = [text for text, _, _ in REPLIES]

Call = tuple[str, dict[str, Any]]

#: Least share of the slice each parser must get right. toolsift must get every reply;
#: selectools 1.3.0 gets 35 of these 40 (it cannot read trailing commas, nor single-quoted JSON
#: whose strings hold a quote or an apostrophe), and the floor only proves the benchmark is
#: not timing a failure path.
FLOOR = {"toolsift": 1.0, "selectools": 0.8}


def toolsift_parser() -> Callable[[str], Call | None]:
    def parse(text: str) -> Call | None:
        calls = toolsift.parse(
            text, "tool_call_json", marker="TOOL_CALL", max_payload_chars=8000, first_only=False
        ).calls
        return (calls[0].name, calls[0].arguments) if len(calls) == 1 else None

    return parse


def selectools_parser() -> Callable[[str], Call | None]:
    parser = pytest.importorskip("selectools.parser").ToolCallParser(
        marker="TOOL_CALL", max_payload_chars=8000
    )

    def parse(text: str) -> Call | None:
        call = parser.parse(text).tool_call
        return None if call is None else (call.tool_name, call.parameters)

    return parse


PARSERS = {"toolsift": toolsift_parser, "selectools": selectools_parser}


def parse_all(parse: Callable[[str], Call | None], texts: list[str]) -> list[Call | None]:
    results: list[Call | None] = []
    for text in texts:
        try:
            results.append(parse(text))
        except Exception:
            results.append(None)
    return results


def is_expected(got: Call | None, name: str, arguments: dict[str, Any]) -> bool:
    return got is not None and got[0] == name and corpus.same_value(got[1], arguments)


@pytest.mark.benchmark(group="tool-call")
@pytest.mark.parametrize("name", list(PARSERS))
def test_tool_call(benchmark: BenchmarkFixture, name: str) -> None:
    parse = PARSERS[name]()
    results = benchmark(parse_all, parse, TEXTS)
    correct = sum(
        is_expected(got, want_name, want_args)
        for got, (_, want_name, want_args) in zip(results, REPLIES, strict=True)
    )
    benchmark.extra_info["correct"] = f"{correct}/{len(REPLIES)}"
    assert correct >= FLOOR[name] * len(REPLIES), f"{correct}/{len(REPLIES)}"
