"""``pythonic``: ``[f(a=1, b='x')]``, keyword arguments as Python literals.

Values are written with ``repr`` of plain Python data (str, int, float, bool, None, list,
dict with string keys), which the parser's literal reader decodes exactly: escapes, quotes,
brackets and newlines inside strings are safe. Argument names must be Python identifiers
(they are keywords), and floats must be finite (``nan``/``inf`` are not literals).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..errors import FormatError
from .base import Formatter, check_name, refuse
from .describe import python_signature

__all__ = ["FORMATTERS"]


def _literal(value: Any, key: str) -> str:
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise refuse("pythonic", key, f"{value!r} is not a Python literal")
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v, key) for v in value) + "]"
    if isinstance(value, Mapping):
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise refuse("pythonic", key, f"dict key {k!r} is not a string")
            items.append(f"{k!r}: {_literal(v, key)}")
        return "{" + ", ".join(items) + "}"
    raise refuse("pythonic", key, f"{type(value).__name__} has no literal form")


def render(name: str, arguments: Mapping[str, Any]) -> str:
    """``[name(k=literal, ...)]``."""
    parts = []
    for key, value in arguments.items():
        if not key.isidentifier():
            raise FormatError(
                f"pythonic cannot carry the argument name {key!r}: keyword arguments must be "
                "Python identifiers",
                reason="bad_key",
            )
        parts.append(f"{key}={_literal(value, key)}")
    return f"[{check_name(name, 'pythonic')}({', '.join(parts)})]"


FORMATTERS = {
    "pythonic": Formatter(
        "pythonic",
        render,
        python_signature,
        "To call tools, write a Python list of calls with keyword arguments only: "
        "[tool_a(x=1, y='text'), tool_b(items=['a', 'b'], options={'deep': True})]. Values "
        "are Python literals: strings in quotes with Python escapes (\\n, \\', \\\\), numbers, "
        "True/False/None, lists and dicts.",
    )
}
