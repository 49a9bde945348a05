"""Schema-aware values: typing text values by the tools' JSON Schemas.

Syntaxes whose values are text (XML-like tags, caret blocks) give every value as a string.
With ``tools=`` (OpenAI-style definitions), a string whose property the schema types as
integer, number, boolean, null, array or object is converted; strings the schema calls strings
stay exactly as written. A value that cannot be converted is kept as written and reported, so
nothing is guessed silently. The type names hand-written schemas use for these (``float``,
``double``, ``int``, ``bool``, ``str``, ``list``, ``dict``) mean the same types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._json_text import dumps_json, identical
from .errors import JsonRepairError
from .repair import lenient_loads

__all__ = ["ToolSchemas", "coerce_arguments"]

_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


class ToolSchemas:
    """The ``parameters`` schema of each tool, by name, from OpenAI-style definitions
    (``{"type": "function", "function": {"name", "parameters"}}``, or the inner function dict)."""

    def __init__(self, tools: Iterable[Mapping[str, Any]]) -> None:
        self.by_name: dict[str, Mapping[str, Any]] = {}
        for tool in tools:
            function = tool.get("function", tool)
            name = function.get("name")
            if isinstance(name, str):
                self.by_name[name] = function.get("parameters") or {}

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def names(self) -> list[str]:
        """The tool names, sorted."""
        return sorted(self.by_name)


#: Type names that are not JSON Schema's but that tool schemas written by hand use (and that
#: vLLM's parsers accept): each is read as the JSON Schema type it means.
_TYPE_ALIASES = {
    "float": "number",
    "double": "number",
    "int": "integer",
    "bool": "boolean",
    "str": "string",
    "list": "array",
    "dict": "object",
}


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [_TYPE_ALIASES.get(kind, kind)]
    if isinstance(kind, list):
        return [_TYPE_ALIASES.get(k, k) for k in kind if isinstance(k, str)]
    found: list[str] = []
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or []:
            if isinstance(option, Mapping):
                found += _types(option)
    return found


def _convert(text: str, kind: str) -> tuple[bool, Any]:
    s = text.strip()
    if kind == "integer":
        body = s[1:] if s[:1] in "+-" else s
        if body.isdigit():
            return True, int(s)
        if s.replace(".", "", 1).lstrip("+-").isdigit() and float(s).is_integer():
            return True, int(float(s))
        return False, None
    if kind == "number":
        try:
            number = float(s)
        except ValueError:
            return False, None
        return True, int(s) if s.lstrip("+-").isdigit() else number
    if kind == "boolean":
        low = s.lower()
        return (True, True) if low in _TRUE else (True, False) if low in _FALSE else (False, None)
    if kind == "null":
        return (True, None) if s.lower() in {"null", "none", ""} else (False, None)
    if kind in {"array", "object"}:
        try:
            value = lenient_loads(s)
        except JsonRepairError:
            return False, None
        ok = isinstance(value, list if kind == "array" else dict)
        return ok, value if ok else None
    return False, None


def _coerce(value: Any, schema: Mapping[str, Any]) -> tuple[bool, Any]:
    types = _types(schema)
    if not types:
        return True, value
    if isinstance(value, str):
        if "string" in types:
            return True, value
        for kind in types:
            ok, converted = _convert(value, kind)
            if ok:
                return (
                    _coerce(converted, schema) if kind in {"array", "object"} else (True, converted)
                )
        return False, value
    if isinstance(value, list) and "array" in types:
        items = schema.get("items")
        if isinstance(items, Mapping):
            out = [_coerce(v, items) for v in value]
            return all(ok for ok, _ in out), [v for _, v in out]
    if isinstance(value, dict) and "object" in types:
        coerced, problems = coerce_arguments(value, schema)
        return not problems, coerced
    return True, value


def coerce_arguments(
    arguments: Mapping[str, Any], schema: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Types ``arguments`` by the object ``schema``; returns them and one message per value
    that could not be converted (kept as written).

    >>> coerce_arguments({"n": "3", "s": "007", "ok": "true"},
    ...     {"properties": {"n": {"type": "integer"}, "s": {"type": "string"},
    ...                     "ok": {"type": "boolean"}}})
    ({'n': 3, 's': '007', 'ok': True}, [])
    """
    properties = schema.get("properties") or {}
    out: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in arguments.items():
        prop = properties.get(key)
        if not isinstance(prop, Mapping):
            out[key] = value
            continue
        ok, converted = _coerce(value, prop)
        out[key] = converted
        if not ok:
            expected = "/".join(_types(prop))
            problems.append(f"{key}: {value!r} is not a valid {expected}")
    return out, problems


UNKNOWN_TOOL_POLICIES = ("keep", "drop", "error")


def check_call(
    name: str, arguments: dict[str, Any], schemas: ToolSchemas, unknown_tools: str
) -> tuple[bool, dict[str, Any], list[tuple[str, str]]]:
    """Applies the tools to one call: ``(keep the call?, typed arguments, [(issue kind,
    message)])``. Raises :class:`toolsift.UnknownToolError` for an unknown name when
    ``unknown_tools`` is ``"error"``."""
    if name not in schemas:
        message = f"unknown tool {name!r}; known tools: {', '.join(schemas.names())}"
        if unknown_tools == "error":
            from .errors import UnknownToolError

            raise UnknownToolError(message, reason="unknown_tool")
        return unknown_tools == "keep", arguments, [("unknown_tool", message)]
    typed, problems = coerce_arguments(arguments, schemas.by_name[name])
    return True, typed, [("bad_value", p) for p in problems]


def type_call(
    name: str,
    arguments: dict[str, Any],
    arguments_json: str,
    schemas: ToolSchemas,
    unknown_tools: str,
) -> tuple[bool, dict[str, Any], str, list[tuple[str, str]]]:
    """:func:`check_call`, keeping the arguments' JSON text in step: the model's own text when
    typing changed nothing, else the typed arguments as JSON."""
    keep, typed, problems = check_call(name, arguments, schemas, unknown_tools)
    if not identical(typed, arguments):
        arguments_json = dumps_json(typed)
    return keep, typed, arguments_json, problems
