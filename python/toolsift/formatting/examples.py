"""Example arguments for a tool, made from its schema: what a manifest shows the model.

The ``basic`` example has the required arguments only; the ``advanced`` one every argument,
nested objects filled in too (it is left out when it would equal the basic one). A value is
taken, in order, from the property's ``const`` or non-null ``default``, its JSON Schema
``examples`` or first ``enum`` value, an ``e.g.`` hint in its description (when it fits the type), a
well-known ``format``, or a placeholder of its type. The tool's own ``examples`` come first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from ..tools import ToolDefinition

__all__ = ["example_arguments", "placeholder"]

_FORMATS = {
    "date": "2024-01-31",
    "date-time": "2024-01-31T12:00:00Z",
    "time": "12:00:00",
    "email": "user@example.com",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
}
_HINT = re.compile(r"e\.g\.,?\s*(?:`([^`]+)`|\"([^\"]+)\"|'([^']+)'|([^\s,;)]+))")


def _first_type(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return str(kinds[0]) if kinds else "null"
    return kind if isinstance(kind, str) else None


def _from_hint(text: str, kind: str | None) -> tuple[bool, Any]:
    match = _HINT.search(text)
    if not match:
        return False, None
    hint = next(g for g in match.groups() if g is not None).rstrip(".")
    if kind in (None, "string"):
        return True, hint
    try:
        value = orjson.loads(hint)
    except orjson.JSONDecodeError:
        return False, None
    fits = {
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }
    return (True, value) if fits.get(kind, False) else (False, None)


def placeholder(schema: Mapping[str, Any], key: str, *, full: bool, depth: int = 0) -> Any:
    """An example value for one property ``key`` of ``schema``; ``full`` fills optional
    nested properties too."""
    if "const" in schema:
        return schema["const"]
    if schema.get("default") is not None or schema.get("type") == "null":
        # A null default says "may be left out"; an example shows a real value instead.
        return schema.get("default")
    for keyword in ("examples", "enum"):
        options = schema.get(keyword)
        if isinstance(options, list) and options:
            return options[0]
    for keyword in ("anyOf", "oneOf"):
        options = [o for o in schema.get(keyword) or () if isinstance(o, Mapping)]
        usable = [o for o in options if o.get("type") != "null"] or options
        if usable:
            return placeholder(usable[0], key, full=full, depth=depth)
    kind = _first_type(schema)
    found, hint = _from_hint(str(schema.get("description", "")), kind)
    if found:
        return hint
    if kind == "string":
        return _FORMATS.get(str(schema.get("format")), f"{key} value")
    if kind == "integer":
        return schema.get("minimum", 1)
    if kind == "number":
        return schema.get("minimum", 1.5)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        items = schema.get("items")
        item = (
            placeholder(items, key, full=full, depth=depth + 1)
            if isinstance(items, Mapping)
            else f"{key} item"
        )
        return [item] * max(int(schema.get("minItems", 1)), 1)
    if kind == "object" or "properties" in schema:
        return _object(schema, full=full, depth=depth + 1)
    return f"{key} value"


def _object(schema: Mapping[str, Any], *, full: bool, depth: int) -> dict[str, Any]:
    required = set(schema.get("required") or ())
    out: dict[str, Any] = {}
    for key, prop in (schema.get("properties") or {}).items():
        if isinstance(prop, Mapping) and (key in required or (full and depth < 4)):
            out[key] = placeholder(prop, key, full=full, depth=depth)
    return out


def example_arguments(tool: ToolDefinition) -> list[tuple[str, dict[str, Any]]]:
    """``[(label, arguments)]``: the tool's own examples, then ``basic`` and ``advanced``.

    >>> tool = ToolDefinition("search", parameters={"type": "object", "properties": {
    ...     "query": {"type": "string", "description": "words, e.g. `rust serde`"},
    ...     "limit": {"type": "integer", "default": 10}}, "required": ["query"]})
    >>> example_arguments(tool)
    [('basic', {'query': 'rust serde'}), ('advanced', {'query': 'rust serde', 'limit': 10})]
    """
    out = [(f"example {i + 1}", dict(ex)) for i, ex in enumerate(tool.examples)]
    basic = _object(tool.parameters, full=False, depth=0)
    advanced = _object(tool.parameters, full=True, depth=0)
    out.append(("basic", basic))
    if advanced != basic:
        out.append(("advanced", advanced))
    return out
