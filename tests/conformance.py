"""Loading and matching the shared conformance cases (tests/fixtures/conformance/*.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "conformance"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"


def load(name: str) -> list[dict[str, Any]]:
    with open(FIXTURES / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def call_cases(syntax: str) -> list[dict[str, Any]]:
    rows = load("design_doc_projects.jsonl") + load("open_models.jsonl")
    return [r for r in rows if r.get("syntax") == syntax]


def _subset(expected: Any, got: Any) -> bool:
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(k in got and _subset(v, got[k]) for k, v in expected.items())
    return bool(expected == got)


def calls_match(case: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> bool:
    """A ``full`` case needs exactly the expected calls. A ``partial`` case (values asserted
    only in part by the source project, or a single-call contract) needs every expected call,
    in order, among ours, with the expected arguments a subset of ours."""
    expected = [(c["name"], c.get("arguments", {})) for c in case["expected_calls"]]
    if case.get("assertion", "full") == "full":
        return calls == expected
    pos = 0
    for name, args in expected:
        while pos < len(calls) and not (calls[pos][0] == name and _subset(args, calls[pos][1])):
            pos += 1
        if pos == len(calls):
            return False
        pos += 1
    return True
