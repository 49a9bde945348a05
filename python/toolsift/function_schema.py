"""JSON Schema from Python type hints and docstrings, for tools built from plain functions.

Mapping: ``str`` → string, ``int`` → integer, ``float`` → number, ``bool`` → boolean,
``None`` → null, ``list[X]``/``tuple[X, ...]``/``set[X]``/``Sequence[X]`` → array of X,
``dict[str, X]`` → object with ``additionalProperties`` X, ``Literal[...]`` and ``Enum``
subclasses → ``enum``, ``X | None``/``Optional[X]`` → X or null, other unions → ``anyOf``,
dataclasses and ``TypedDict`` → nested objects (their own field types and required keys),
``Annotated[X, "text"]`` → X with that description, ``Any`` → no constraint. A type it cannot
express raises ``TypeError`` naming the parameter, so a tool is never described wrongly.
"""

from __future__ import annotations

import collections.abc as cabc
import dataclasses
import enum
import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import orjson

__all__ = ["describe_docstring", "schema_for_function", "schema_for_type"]

_SIMPLE: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_ARRAYS = (list, tuple, set, frozenset, cabc.Sequence, cabc.Iterable, cabc.Collection)


def _is_typed_dict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


_NO_JSON = object()


def _json_default(value: Any) -> Any:
    """A default as JSON, or ``_NO_JSON`` when it has none (then it is left out)."""
    if isinstance(value, enum.Enum):
        value = value.value
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:
        return _NO_JSON


def _object_schema(
    fields: list[tuple[str, Any, bool, Any]], docs: Mapping[str, str], where: str
) -> dict[str, Any]:
    """``fields``: ``(name, type, required, default or inspect.Parameter.empty)``."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, hint, is_required, default in fields:
        prop = schema_for_type(hint, f"{where}.{name}")
        if name in docs and "description" not in prop:
            prop["description"] = docs[name]
        if default is not inspect.Parameter.empty:
            as_json = _json_default(default)
            if as_json is not _NO_JSON:
                prop["default"] = as_json
        properties[name] = prop
        if is_required:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _dataclass_schema(tp: type, where: str) -> dict[str, Any]:
    hints = typing.get_type_hints(tp, include_extras=True)
    fields = []
    for f in dataclasses.fields(tp):
        has_default = f.default is not dataclasses.MISSING
        has_factory = f.default_factory is not dataclasses.MISSING
        default = f.default if has_default else inspect.Parameter.empty
        fields.append((f.name, hints[f.name], not (has_default or has_factory), default))
    _, docs = describe_docstring(tp.__doc__)
    schema = _object_schema(fields, docs, where)
    summary, _ = describe_docstring(tp.__doc__)
    if summary and not summary.startswith(f"{tp.__name__}("):
        schema["description"] = summary
    return schema


def _typed_dict_schema(tp: type, where: str) -> dict[str, Any]:
    hints = typing.get_type_hints(tp, include_extras=True)
    required: frozenset[str] = getattr(tp, "__required_keys__", frozenset())
    fields = [(k, h, k in required, inspect.Parameter.empty) for k, h in hints.items()]
    summary, docs = describe_docstring(tp.__doc__)
    schema = _object_schema(fields, docs, where)
    if summary:
        schema["description"] = summary
    return schema


def schema_for_type(tp: Any, where: str = "value") -> dict[str, Any]:
    """The JSON Schema of one type hint; ``where`` names it in errors.

    >>> schema_for_type(list[str])
    {'type': 'array', 'items': {'type': 'string'}}
    >>> schema_for_type(typing.Literal["a", "b"])
    {'type': 'string', 'enum': ['a', 'b']}
    """
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        schema = schema_for_type(args[0], where)
        notes = [a for a in args[1:] if isinstance(a, str)]
        if notes:
            schema["description"] = " ".join(notes)
        return schema
    if tp is Any or tp is object:
        return {}
    if tp is None or tp is type(None):
        return {"type": "null"}
    if tp in _SIMPLE:
        return {"type": _SIMPLE[tp]}
    if origin is typing.Literal:
        values = [v.value if isinstance(v, enum.Enum) else v for v in args]
        kinds = sorted({_SIMPLE.get(type(v), "null") for v in values})
        schema = {"type": kinds[0] if len(kinds) == 1 else kinds}
        return {**schema, "enum": values}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return schema_for_type(typing.Literal[tuple(m.value for m in tp)], where)
    if origin in (typing.Union, types.UnionType):
        options = [schema_for_type(a, where) for a in args]
        simple = [o.get("type") for o in options]
        if all(
            isinstance(s, str) and set(o) == {"type"} for s, o in zip(simple, options, strict=True)
        ):
            return {"type": simple}
        non_null = [o for o in options if o != {"type": "null"}]
        if len(non_null) == 1 and len(options) == 2 and isinstance(non_null[0].get("type"), str):
            return {**non_null[0], "type": [non_null[0]["type"], "null"]}
        return {"anyOf": options}
    if tp in _ARRAYS or origin in _ARRAYS:
        if origin is tuple and args and args[-1] is not Ellipsis:
            items = [schema_for_type(a, where) for a in args]
            return {
                "type": "array",
                "prefixItems": items,
                "minItems": len(items),
                "maxItems": len(items),
            }
        schema = {"type": "array"}
        if args:
            schema["items"] = schema_for_type(args[0], f"{where}[]")
        if origin in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if tp in (dict, cabc.Mapping) or origin in (dict, cabc.Mapping, cabc.MutableMapping):
        schema = {"type": "object"}
        if len(args) == 2 and args[1] is not Any:
            schema["additionalProperties"] = schema_for_type(args[1], f"{where}{{}}")
        return schema
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_schema(tp, where)
    if _is_typed_dict(tp):
        return _typed_dict_schema(tp, where)
    raise TypeError(f"{where}: no JSON Schema for the type {tp!r}")


_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Params|Attributes)\s*:\s*$")
_GOOGLE_ARG = re.compile(r"^\s*(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_REST_ARG = re.compile(r"^\s*:param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$")
_OTHER_SECTION = re.compile(r"^\s*(Returns?|Raises|Yields|Examples?|Notes?)\s*:\s*$")


def describe_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The summary (first paragraph) and per-parameter descriptions of a docstring, in Google
    (``Args:`` section) or reST (``:param x:``) style.

    >>> describe_docstring('''Find files.
    ...
    ...     Args:
    ...         pattern: glob to match,
    ...             relative to the root.
    ...         limit (int): most results.
    ...     ''')
    ('Find files.', {'pattern': 'glob to match, relative to the root.', 'limit': 'most results.'})
    """
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary_lines: list[str] = []
    for line in lines:
        if not line.strip() or _SECTION.match(line) or _REST_ARG.match(line):
            break
        summary_lines.append(line.strip())
    params: dict[str, str] = {}
    current: str | None = None
    in_args = False
    arg_indent = -1
    for line in lines:
        rest = _REST_ARG.match(line)
        if rest:
            current, in_args = rest.group(1), False
            params[current] = rest.group(2).strip()
            continue
        if _SECTION.match(line):
            in_args, current, arg_indent = True, None, -1
            continue
        if _OTHER_SECTION.match(line) or (line.strip().startswith(":") and not rest):
            in_args, current = False, None
            continue
        indent = len(line) - len(line.lstrip())
        match = _GOOGLE_ARG.match(line) if in_args else None
        if match and (arg_indent < 0 or indent <= arg_indent):
            arg_indent = indent
            current = match.group(1).lstrip("*")
            params[current] = match.group(2).strip()
        elif current is not None and line.strip():
            params[current] = f"{params[current]} {line.strip()}".strip()
        elif not line.strip() and not in_args:
            current = None
    return " ".join(summary_lines), params


def schema_for_function(fn: Callable[..., Any]) -> tuple[str, dict[str, Any]]:
    """``(description, parameters schema)`` of a function from its signature, type hints and
    docstring. ``self``, ``cls``, ``*args`` and ``**kwargs`` are left out; a parameter
    without a hint is unconstrained."""
    hints = typing.get_type_hints(fn, include_extras=True)
    summary, docs = describe_docstring(fn.__doc__)
    fields = []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or name in ("self", "cls"):
            continue
        required = param.default is inspect.Parameter.empty
        fields.append((name, hints.get(name, Any), required, param.default))
    return summary, _object_schema(fields, docs, getattr(fn, "__name__", "function"))
