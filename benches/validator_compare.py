"""jsonschema vs fastjsonschema for ``ToolDefinition.validate``: what each costs and what each
tells the model.

    .venv/bin/python -m pip install jsonschema fastjsonschema
    .venv/bin/python benches/validator_compare.py

Measures, on one tool schema of the size real tools have (nested object, enum, array, bounds):
building a validator, validating good arguments, and validating bad arguments (collecting the
errors). Also prints what each reports for the same bad arguments: the deciding difference is
there, not in the timings.
"""

from __future__ import annotations

import platform
import timeit
from importlib.metadata import version
from typing import Any

import fastjsonschema
import jsonschema

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "mode": {"type": "string", "enum": ["text", "regex"]},
        "limit": {"type": "integer", "minimum": 1, "maximum": 500},
        "paths": {"type": "array", "items": {"type": "string"}},
        "options": {
            "type": "object",
            "properties": {"case": {"type": "boolean"}, "context": {"type": "integer"}},
            "additionalProperties": False,
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}
GOOD = {
    "query": "fn main",
    "mode": "text",
    "limit": 20,
    "paths": ["src"],
    "options": {"case": True},
}
BAD = {"mode": "glob", "limit": "many", "paths": ["src", 3], "options": {"case": "yes"}}


def per_call(stmt: Any, number: int) -> float:
    """Best of five runs, in microseconds per call."""
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number * 1e6


def main() -> None:
    js = jsonschema.Draft202012Validator(SCHEMA)
    fast = fastjsonschema.compile(SCHEMA)

    def fast_errors(args: Any) -> list[str]:
        try:
            fast(args)
        except fastjsonschema.JsonSchemaValueException as exc:
            return [str(exc.message)]
        return []

    versions = f"jsonschema {version('jsonschema')}, fastjsonschema {version('fastjsonschema')}"
    print(f"python {platform.python_version()}, {versions}")
    rows = [
        ("build a validator", per_call(lambda: jsonschema.Draft202012Validator(SCHEMA), 2000),
         per_call(lambda: fastjsonschema.compile(SCHEMA), 50)),
        ("validate good arguments", per_call(lambda: list(js.iter_errors(GOOD)), 2000),
         per_call(lambda: fast_errors(GOOD), 20000)),
        ("validate bad arguments", per_call(lambda: list(js.iter_errors(BAD)), 2000),
         per_call(lambda: fast_errors(BAD), 20000)),
    ]  # fmt: skip
    print(f"{'µs per call':<26}{'jsonschema':>12}{'fastjsonschema':>16}")
    for label, a, b in rows:
        print(f"{label:<26}{a:>12.1f}{b:>16.1f}")
    print("\njsonschema reports:")
    for error in sorted(js.iter_errors(BAD), key=lambda e: list(e.absolute_path)):
        print(f"  {list(error.absolute_path)}: {error.message}")
    print("fastjsonschema reports:")
    for message in fast_errors(BAD):
        print(f"  {message}  (the first error only)")


if __name__ == "__main__":
    main()
