"""pytest-benchmark: loading valid and malformed JSON, toolsift next to its peers.

Run with ``pytest benches --benchmark-enable`` (benchmarks are disabled by default in this
project's pytest options, which then run each benchmark once as a test). Each benchmark loads a
small slice of the corpus of ``benches/compare.py`` and then checks its own results against the
expected values. A peer that is not installed is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import corpus
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import toolsift

VALID = corpus.valid_json_docs(60)
VALID_EXPECTED = [json.loads(doc) for doc in VALID]
MALFORMED = corpus.malformed_json_docs(40)

#: Least share of the malformed slice each implementation must load correctly. toolsift must
#: get every document; for a peer the floor only proves the benchmark is not timing an error
#: path. (json_repair 0.64.5 gets 36 of these 40: it drops a trailing "\n" from some strings
#: and reads numbers after unquoted keys in compact JSON as strings.)
MALFORMED_FLOOR = {"toolsift": 1.0, "fast_json_repair": 1.0, "json_repair": 0.8}


@dataclass(frozen=True)
class Loader:
    load: Callable[[Any], Any]
    wants_bytes: bool = False  # jiter takes bytes; they are encoded before timing


def loader(name: str) -> Loader:
    """The loader called ``name``; skips the test when its package is not installed."""
    if name == "toolsift":
        return Loader(toolsift.lenient_loads)
    if name == "orjson":
        return Loader(pytest.importorskip("orjson").loads)
    if name == "jiter":
        return Loader(pytest.importorskip("jiter").from_json, wants_bytes=True)
    if name == "json_repair":
        repair = pytest.importorskip("json_repair").repair_json
        return Loader(lambda s: repair(s, return_objects=True))
    if name == "fast_json_repair":
        fast_repair = pytest.importorskip("fast_json_repair").repair_json
        return Loader(lambda s: fast_repair(s, return_objects=True))
    raise ValueError(name)


class Failed:
    """Stands for a document whose load raised."""


def load_all(load: Callable[[Any], Any], docs: Sequence[Any]) -> list[Any]:
    results: list[Any] = []
    for doc in docs:
        try:
            results.append(load(doc))
        except Exception:
            results.append(Failed())
    return results


def inputs(docs: list[str], how: Loader) -> Sequence[Any]:
    return [doc.encode() for doc in docs] if how.wants_bytes else docs


def count_correct(results: list[Any], expected: list[Any]) -> int:
    return sum(corpus.same_value(r, e) for r, e in zip(results, expected, strict=True))


@pytest.mark.benchmark(group="json-valid")
@pytest.mark.parametrize("name", ["toolsift", "orjson", "jiter", "fast_json_repair", "json_repair"])
def test_valid_json(benchmark: BenchmarkFixture, name: str) -> None:
    how = loader(name)
    results = benchmark(load_all, how.load, inputs(VALID, how))
    correct = count_correct(results, VALID_EXPECTED)
    benchmark.extra_info["correct"] = f"{correct}/{len(VALID)}"
    assert correct == len(VALID)


@pytest.mark.benchmark(group="json-malformed")
@pytest.mark.parametrize("name", ["toolsift", "fast_json_repair", "json_repair"])
def test_malformed_json(benchmark: BenchmarkFixture, name: str) -> None:
    how = loader(name)
    texts = [text for text, _ in MALFORMED]
    results = benchmark(load_all, how.load, inputs(texts, how))
    correct = count_correct(results, [expected for _, expected in MALFORMED])
    benchmark.extra_info["correct"] = f"{correct}/{len(MALFORMED)}"
    assert correct >= MALFORMED_FLOOR[name] * len(MALFORMED), f"{correct}/{len(MALFORMED)}"


@pytest.mark.parametrize("name", ["orjson", "jiter"])
def test_strict_parsers_reject_the_malformed_corpus(name: str) -> None:
    """Not a benchmark: the malformed corpus really is malformed, so strict parsers fail."""
    how = loader(name)
    results = load_all(how.load, inputs([text for text, _ in MALFORMED], how))
    assert all(isinstance(r, Failed) for r in results)
