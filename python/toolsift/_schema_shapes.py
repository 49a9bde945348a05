"""Reading a tool's JSON Schema for typing: what types and members a (sub)schema allows.

A schema is expanded into branches, alternatives that each are a conjunction of plain schemas:
``$ref`` (a JSON Pointer into the tool's ``parameters``, e.g. ``#/$defs/Item``) and ``allOf``
add conjuncts, ``anyOf``/``oneOf`` add alternatives. A schema met again on its own path (a
``$ref`` cycle) allows anything. Each branch then has a :data:`Shape`.

>>> root = {"$defs": {"n": {"type": "integer"}}}
>>> [shape(b) for b in branches({"anyOf": [{"$ref": "#/$defs/n"}, {"enum": ["auto"]}]}, root)]
[(frozenset({'integer'}), None), (frozenset({'string'}), ['auto'])]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

#: One reading of a schema: the plain schemas (combinators expanded) that all apply.
Branch = tuple[Mapping[str, Any], ...]
#: What a branch allows: its types (``None``: any) and its ``enum``/``const`` members
#: (``None``: any value of those types).
Shape = tuple[frozenset[str] | None, list[Any] | None]

#: The order a value's possible types are tried in; string, the fallback, comes last.
TYPE_ORDER = ("null", "integer", "number", "boolean", "object", "array", "string")

#: How many branches one schema keeps (an ``allOf`` of ``anyOf``s multiplies them).
_MAX_BRANCHES = 64

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


def resolve_ref(ref: str, root: Mapping[str, Any]) -> Any:
    """The schema a local ``$ref`` names in ``root`` (``None`` when it names nothing)."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for raw in ref[2:].split("/"):
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, list) and part.isdecimal() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _subschemas(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        return []
    return [{} if v is True else v for v in value if isinstance(v, Mapping) or v is True]


def branches(
    schema: Any, root: Mapping[str, Any], path: frozenset[int] = frozenset()
) -> list[Branch]:
    """``schema`` as alternatives, each a conjunction of plain schemas."""
    if not isinstance(schema, Mapping) or id(schema) in path:
        return [()]
    path = path | {id(schema)}
    factors: list[list[Branch]] = [[(schema,)]]
    ref = schema.get("$ref")
    if isinstance(ref, str):
        factors.append(branches(resolve_ref(ref, root), root, path))
    factors += [branches(part, root, path) for part in _subschemas(schema.get("allOf"))]
    for key in ("anyOf", "oneOf"):
        options = _subschemas(schema.get(key))
        if options:
            factors.append([b for option in options for b in branches(option, root, path)])
    out: list[Branch] = [()]
    for factor in factors:
        out = [a + b for a in out for b in factor][:_MAX_BRANCHES]
    return out


def json_type(value: Any) -> str:
    """The JSON Schema type of a decoded value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``1`` equals ``1.0``, but ``true`` is no number."""
    if isinstance(a, int | float) and isinstance(b, int | float):
        return not isinstance(a, bool) and not isinstance(b, bool) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _meet(a: frozenset[str] | None, b: frozenset[str]) -> frozenset[str]:
    """The types both allow (every integer is a number)."""
    if a is None:
        return b
    both = a & b
    if ("number" in a and "integer" in b) or ("integer" in a and "number" in b):
        both |= {"integer"}
    return both


def shape(branch: Branch) -> Shape:
    """The types and members one branch allows."""
    types: frozenset[str] | None = None
    members: list[Any] | None = None
    for part in branch:
        kind = part.get("type")
        kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
        if kinds is not None:
            named = {_TYPE_ALIASES.get(k, k) for k in kinds if isinstance(k, str)}
            types = _meet(
                types, frozenset(named | ({"null"} if part.get("nullable") is True else set()))
            )
        listed = [part["const"]] if "const" in part else part.get("enum")
        if isinstance(listed, list):
            types = _meet(types, frozenset(json_type(m) for m in listed))
            if members is not None:
                listed = [m for m in members if any(json_equal(m, x) for x in listed)]
            members = listed
    return types, members


def union_types(shapes: list[Shape]) -> frozenset[str] | None:
    """The types any of ``shapes`` allows (``None``: any type)."""
    if any(types is None for types, _ in shapes):
        return None
    return frozenset().union(*(types for types, _ in shapes if types is not None))


def allows(types: frozenset[str] | None, kind: str) -> bool:
    """Whether a value of JSON type ``kind`` has one of ``types``."""
    return types is None or kind in types or (kind == "integer" and "number" in types)


def type_names(schema: Any, root: Mapping[str, Any]) -> str:
    """The types ``schema`` allows, for messages: ``integer/null``."""
    types = union_types([shape(b) for b in branches(schema, root)]) or frozenset()
    return "/".join(sorted(types, key=lambda k: (*TYPE_ORDER, k).index(k)))


def fits(value: Any, schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether some branch of ``schema`` allows the type of ``value`` and has it as a member
    (when it lists members)."""
    return any(
        allows(types, json_type(value))
        and (members is None or any(json_equal(value, m) for m in members))
        for types, members in map(shape, branches(schema, root))
    )


def property_schema(branch: Branch, key: str) -> Any:
    """The schema of property ``key`` in one branch of an object schema (``None``: no part
    names it)."""
    own = [
        part["properties"][key]
        for part in branch
        if isinstance(part.get("properties"), Mapping) and key in part["properties"]
    ]
    return None if not own else own[0] if len(own) == 1 else {"allOf": own}


def is_plain_string(schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether every branch of ``schema`` allows strings only."""
    types = union_types([shape(b) for b in branches(schema, root)])
    return types is not None and types <= {"string"}
