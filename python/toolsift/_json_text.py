"""JSON text of Python values, as the calls report it (``ToolCall.arguments_json``)."""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dumps_json", "identical"]


def dumps_json(value: Any) -> str:
    """Compact JSON text of ``value``, non-ASCII unescaped (integers beyond 64 bits, which
    orjson refuses, go through the standard library)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def identical(a: Any, b: Any) -> bool:
    """Equal with the same JSON types (``1 == True`` in Python, not in JSON)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(identical(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
