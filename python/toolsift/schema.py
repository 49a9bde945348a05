"""Schema-aware values: typing text values by the tools' JSON Schemas.

Syntaxes whose values are text (XML-like tags, caret blocks) give every value as a string.
With ``tools=`` (OpenAI-style definitions), a string whose property the schema types as
integer, number, boolean, null, array or object is converted; strings the schema calls strings
stay exactly as written. A value that cannot be converted is kept as written and reported, so
nothing is guessed silently. The type names hand-written schemas use for these (``float``,
``double``, ``int``, ``bool``, ``str``, ``list``, ``dict``) mean the same types.

A property's schema is read through ``$ref`` (``#/$defs/…``, ``#/definitions/…``; a cycle
reads as "any value"), ``allOf`` (every part applies), ``anyOf``/``oneOf`` (any branch may), a
``type`` list, ``nullable: true`` and ``enum``/``const`` members. ``anyOf``/``oneOf``/``allOf``
over the whole ``parameters`` object are read the same way: the branches whose properties fit
the call's other arguments (a ``const`` or ``enum`` discriminator, say) type each value.

* A property that may be several types tries them in the order null, integer, number,
  boolean, object, array. When string is one of them, only the exact JSON spelling of another
  type converts (``7``, ``true``, ``null``/``None``, ``{"a": 1}``); ``007`` or ``yes`` stay the
  string as written.
* Without string among them, conversion is lenient: ``"42"`` (quoted, also ``\\"42\\"``) is 42,
  ``1.25e2`` is 125 for an integer, ``yes`` is true, ``{'a': None}`` is an object, ``null``,
  ``None`` or ``nil`` is null where null is allowed, and JSON's ``null`` is null for any
  non-string property (as a JSON syntax would give it).
* Text whose JSON value equals a non-string ``enum``/``const`` member becomes that value
  (``8`` for ``enum: ["7", 8]``; ``"7"`` stays a string).
* A property with no type at all (``{}``) takes a JSON object or array written as text.

Before typing, a call is read the way its syntax needs the schemas to settle
(:mod:`toolsift._call_reshape`): a ``kimi_k2`` call whose id names no function takes the name
of the one tool its arguments fit; ``code_assistant_xml`` and ``caret`` arguments follow the
schema's singular/plural spelling (``path`` → ``paths``), and there a lone value of an array
property is a one-item list (``src`` → ``["src"]``); a ``deepseek_dsml`` invoke whose only
parameter is an ``arguments``/``input`` wrapper holding an object is that object.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from . import _schema_shapes as shapes
from ._call_reshape import NUMBER_MAPPED, reshape
from ._json_text import dumps_json, identical
from .errors import JsonRepairError
from .repair import lenient_loads, repair_json

__all__ = ["ToolSchemas", "coerce_arguments"]

_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}
_DIGITS = frozenset("0123456789")
#: Repairs that only turn a Python literal into JSON (``{'a': None, 'b': True,}``).
_LITERAL_REPAIRS = {"single_quotes", "non_standard_literal", "trailing_comma"}
_CONTAINERS = {"array", "object"}
#: Values nested deeper than this (under a recursive schema) are left as they are.
_MAX_DEPTH = 64


class ToolSchemas:
    """The ``parameters`` schema of each tool, by name, from OpenAI-style definitions
    (``{"type": "function", "function": {"name", "parameters"}}``, or the inner function dict)."""

    def __init__(self, tools: Iterable[Mapping[str, Any]]) -> None:
        self.by_name: dict[str, Mapping[str, Any]] = {}
        for tool in tools:
            function = tool.get("function", tool)
            name = function.get("name")
            if isinstance(name, str):
                parameters = function.get("parameters")
                self.by_name[name] = parameters if isinstance(parameters, Mapping) else {}

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def names(self) -> list[str]:
        """The tool names, sorted."""
        return sorted(self.by_name)

    def known(self) -> list[str | tuple[str, list[str] | None]]:
        """The tools for the engine: each name with the parameter names its schema lists
        (``properties`` of every branch of its ``parameters``), or ``None`` when a branch lists
        none, so any name may be a parameter. ``qwen3_coder`` opens a new parameter inside a
        value only for a listed name."""
        return [(name, _parameter_names(self.by_name[name])) for name in self.names()]

    def retyping(self) -> set[str]:
        """The tools whose text values typing may change: those with a property, in any
        branch of their ``parameters``, that is not plainly a string."""
        return {name for name, parameters in self.by_name.items() if _retypes(parameters)}


def _parameter_names(parameters: Mapping[str, Any]) -> list[str] | None:
    names: set[str] = set()
    for branch in shapes.branches(parameters, parameters):
        listed = [p["properties"] for p in branch if isinstance(p.get("properties"), Mapping)]
        if not listed:
            return None
        names.update(k for properties in listed for k in properties if isinstance(k, str))
    return sorted(names)


def _retypes(parameters: Mapping[str, Any]) -> bool:
    for branch in shapes.branches(parameters, parameters):
        for part in branch:
            properties = part.get("properties")
            if isinstance(properties, Mapping) and not all(
                shapes.is_plain_string(p, parameters) for p in properties.values()
            ):
                return True
    return False


def _is_number(s: str, strict: bool) -> bool:
    """JSON's number grammar (``strict``), or also ``+1``, ``007``, ``.5`` and ``5.``."""
    i, n = 0, len(s)
    if i < n and (s[i] == "-" or (s[i] == "+" and not strict)):
        i += 1
    start = i
    while i < n and s[i] in _DIGITS:
        i += 1
    whole = i - start
    if strict and (whole == 0 or (whole > 1 and s[start] == "0")):
        return False
    fraction = 0
    if i < n and s[i] == ".":
        i += 1
        while i < n and s[i] in _DIGITS:
            i, fraction = i + 1, fraction + 1
        if strict and fraction == 0:
            return False
    if whole + fraction == 0:
        return False
    if i < n and s[i] in "eE":
        i += 1
        if i < n and s[i] in "+-":
            i += 1
        exponent = i
        while i < n and s[i] in _DIGITS:
            i += 1
        if i == exponent:
            return False
    return i == n


def _number(s: str, kind: str, strict: bool) -> tuple[bool, Any]:
    """``s`` as a number; as an integer, also ``3.0`` or ``1.25e2`` unless ``strict``."""
    if not _is_number(s, strict) or (strict and kind == "integer" and not s.lstrip("-").isdigit()):
        return False, None
    try:
        if not any(c in s for c in ".eE"):
            return True, int(s)
        if kind == "number":
            number = float(s)
            return math.isfinite(number), number
        exact = Decimal(s)
    except (ValueError, InvalidOperation):  # beyond Python's digit limit
        return False, None
    integral = exact.adjusted() < 4000 and exact == exact.to_integral_value()
    return (True, int(exact)) if integral else (False, None)


def _container(s: str, kind: str, strict: bool) -> tuple[bool, Any]:
    if strict:
        if s[:1] not in "{[":
            return False, None
        try:
            fixed = repair_json(s)
        except JsonRepairError:
            return False, None
        if not {r.kind for r in fixed.repairs} <= _LITERAL_REPAIRS:
            return False, None
        value = fixed.value
    else:
        try:
            value = lenient_loads(s)
        except JsonRepairError:
            return False, None
    ok = isinstance(value, list if kind == "array" else dict)
    return ok, value if ok else None


def _convert(text: str, kind: str, strict: bool) -> tuple[bool, Any]:
    """``text`` as a value of ``kind``; ``strict`` takes only its JSON spelling (and
    ``None``, Python's null), since a string is allowed too."""
    s = text.strip()
    if kind == "null":
        null = s in {"null", "None"} if strict else s.lower() in {"null", "none", "nil", ""}
        return null, None
    if kind in {"integer", "number"}:
        return _number(s, kind, strict)
    if kind == "boolean":
        low = s.lower()
        true, false = ({"true"}, {"false"}) if strict else (_TRUE, _FALSE)
        return (True, True) if low in true else (True, False) if low in false else (False, None)
    if kind in {"array", "object"}:
        return _container(s, kind, strict)
    return False, None


def _unquoted(text: str) -> str:
    """``"42"``, ``\\"42\\"`` or ``'42'`` without its quotes (text for a non-string type)."""
    s = text.strip()
    if len(s) >= 4 and s.startswith('\\"') and s.endswith('\\"'):
        return s[2:-2]
    if len(s) >= 2 and s[0] == s[-1] == "'":
        return s[1:-1]
    if len(s) >= 2 and s[0] == s[-1] == '"':
        try:
            inner = json.loads(s)
        except ValueError:
            return text
        return inner if isinstance(inner, str) else text
    return text


def _member(text: str, members: list[Any]) -> tuple[bool, Any]:
    """``text`` as an ``enum``/``const`` member: itself when it is a string member, else its
    JSON value when that equals a member."""
    if any(isinstance(m, str) and m == text for m in members):
        return True, text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False, None
    found = any(shapes.json_equal(value, m) for m in members if not isinstance(m, str))
    return (True, value) if found else (False, None)


def _coerce_text(text: str, schema: Any, root: Mapping[str, Any], depth: int) -> tuple[bool, Any]:
    readings = [shapes.shape(b) for b in shapes.branches(schema, root)]
    types = shapes.union_types(readings)
    if types is None:  # some branch takes any value: only a JSON container is decoded
        for kind in ("object", "array"):
            ok, value = _convert(text, kind, True)
            if ok:
                return _coerce(value, schema, root, depth)
        return True, text
    if types <= {"string"}:
        return True, text
    strict = "string" in types
    plain = text if strict else _unquoted(text)
    members = [m for _, listed in readings for m in listed or ()]
    ok, value = _member(plain.strip(), members) if members else (False, None)
    if ok:
        return True, text if isinstance(value, str) else value
    if strict and all(listed is not None for _, listed in readings):
        return True, text  # none of a closed set of members: the string as written
    for kind in shapes.TYPE_ORDER[:-1]:
        if kind in types:
            # 2.0 is a number, not an integer, when numbers are allowed too
            exact = strict or (kind == "integer" and "number" in types)
            ok, value = _convert(plain, kind, exact)
            if ok:
                return _coerce(value, schema, root, depth) if kind in _CONTAINERS else (True, value)
    if not strict and plain.strip() == "null":
        return True, None  # JSON's null, as a JSON syntax would give it
    return strict, text


def _coerce(value: Any, schema: Any, root: Mapping[str, Any], depth: int) -> tuple[bool, Any]:
    if isinstance(value, str):
        return _coerce_text(value, schema, root, depth)
    if depth >= _MAX_DEPTH:
        return True, value
    if isinstance(value, list):
        items: list[Any] = []
        for branch in shapes.branches(schema, root):
            if shapes.allows(shapes.shape(branch)[0], "array"):
                own = [part["items"] for part in branch if isinstance(part.get("items"), Mapping)]
                if not own:
                    return True, value  # items of any type
                items.append(own[0] if len(own) == 1 else {"allOf": own})
        if items:
            each = items[0] if len(items) == 1 else {"anyOf": items}
            out = [_coerce(v, each, root, depth + 1) for v in value]
            return all(ok for ok, _ in out), [v for _, v in out]
    if isinstance(value, dict):
        coerced, problems = _coerce_object(value, schema, root, depth + 1)
        return not problems, coerced
    return True, value


def _branch_fits(
    arguments: Mapping[str, Any], branch: shapes.Branch, root: Mapping[str, Any], depth: int
) -> bool:
    """Whether every argument, typed by this branch, is a value the branch allows (text is
    typed; a value that is already typed is looked at only at its top, so that trying the
    branches of a recursive schema costs no more at each level of nesting)."""
    closed = any(part.get("additionalProperties") is False for part in branch)
    for key, value in arguments.items():
        prop = shapes.property_schema(branch, key)
        if prop is None:
            if closed:
                return False
            continue
        ok, typed = _coerce(value, prop, root, depth) if isinstance(value, str) else (True, value)
        if not (ok and shapes.fits(typed, prop, root)):
            return False
    return True


def _lists(schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether some branch of ``schema`` names the array type."""
    return any(
        t is not None and "array" in t for t, _ in map(shapes.shape, shapes.branches(schema, root))
    )


def _coerce_object(
    arguments: Mapping[str, Any],
    schema: Any,
    root: Mapping[str, Any],
    depth: int,
    single_items: bool = False,
) -> tuple[dict[str, Any], list[str]]:
    branches = [
        b for b in shapes.branches(schema, root) if shapes.allows(shapes.shape(b)[0], "object")
    ]
    if len(branches) > 1:
        branches = [b for b in branches if _branch_fits(arguments, b, root, depth)] or branches
    out: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in arguments.items():
        options = [p for p in (shapes.property_schema(b, key) for b in branches) if p is not None]
        if not options:
            out[key] = value
            continue
        prop = options[0] if len(options) == 1 else {"anyOf": options}
        ok, converted = _coerce(value, prop, root, depth)
        if not ok and single_items and isinstance(value, str) and _lists(prop, root):
            # a lone value where the schema wants a list of them
            ok, items = _coerce([value], prop, root, depth)
            converted = items if ok else converted
        out[key] = converted
        if not ok:
            problems.append(f"{key}: {value!r} is not a valid {shapes.type_names(prop, root)}")
    return out, problems


def coerce_arguments(
    arguments: Mapping[str, Any], schema: Mapping[str, Any], *, single_items: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """Types ``arguments`` by the object ``schema``; returns them and one message per value
    that could not be converted (kept as written). ``single_items``: a text value that is no
    list where the schema wants one (``src`` for ``{"type": "array"}``) is a one-item list.

    >>> coerce_arguments({"n": "3", "s": "007", "ok": "true", "id": "7"},
    ...     {"properties": {"n": {"type": "integer"}, "s": {"type": "string"},
    ...                     "ok": {"type": "boolean"}, "id": {"type": ["string", "integer"]}}})
    ({'n': 3, 's': '007', 'ok': True, 'id': 7}, [])
    """
    return _coerce_object(arguments, schema, schema, 0, single_items)


UNKNOWN_TOOL_POLICIES = ("keep", "drop", "error")


def check_call(
    name: str,
    arguments: dict[str, Any],
    schemas: ToolSchemas,
    unknown_tools: str,
    *,
    single_items: bool = False,
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
    typed, problems = coerce_arguments(arguments, schemas.by_name[name], single_items=single_items)
    return True, typed, [("bad_value", p) for p in problems]


class TypedCall(NamedTuple):
    """One call after :func:`type_call`: whether to keep it, its name and typed arguments
    (with their JSON text), the issues typing found and the ``repairs`` entries it adds."""

    keep: bool
    name: str
    arguments: dict[str, Any]
    arguments_json: str
    problems: list[tuple[str, str]]
    repairs: tuple[str, ...]


def type_call(
    name: str,
    arguments: dict[str, Any],
    arguments_json: str,
    schemas: ToolSchemas,
    unknown_tools: str,
    *,
    syntax: str = "",
    raw: object = "",
) -> TypedCall:
    """:func:`check_call` after the syntax's own reading of the call against the schemas
    (:mod:`toolsift._call_reshape`; ``raw`` is the call's text), keeping the arguments' JSON
    text in step: the model's own text when nothing changed, else the typed arguments as
    JSON."""
    named, reshaped, repairs = reshape(syntax, name, arguments, raw, schemas)
    keep, typed, problems = check_call(
        named, reshaped, schemas, unknown_tools, single_items=syntax in NUMBER_MAPPED
    )
    if not identical(typed, arguments):
        arguments_json = dumps_json(typed)
    return TypedCall(keep, named, typed, arguments_json, problems, repairs)
