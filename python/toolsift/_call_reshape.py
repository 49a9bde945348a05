"""Syntax-specific readings of a call against the tools' schemas, before its values are typed.

Three syntaxes write calls whose shape only the schemas can settle:

* ``kimi_k2``: a call's id should be ``functions.NAME:IDX``, but models also write a bare
  counter (``0``), a client-style id (``call_3``, ``toolu_01…``) or a UUID, which then stands
  where the name should be. With ``tools=``, such a call (its id neither starts with
  ``functions.`` nor ends in ``:IDX``, and it names no tool) takes the name of the one tool
  whose parameters accept its arguments: every argument is a property (or the schema's
  ``additionalProperties`` explicitly allows it) and every required property is there, in
  some branch of the schema whose ``$ref``\\s all resolve. The call's ``repairs`` then include
  ``name_from_arguments``. When no tool or several fit, the name stays as written and the
  unknown-tool policy applies.
* ``code_assistant_xml`` and ``caret``: with ``tools=``, an argument the tool's schema does not
  name is renamed to its plural (``path`` → ``paths``) or singular (``paths`` → ``path``) when
  that is an array or string property the call does not already set. (A lone value for an
  array property becomes a one-item list; see :func:`toolsift.schema.coerce_arguments`.)
* ``deepseek_dsml``: an invoke whose only parameter is ``arguments`` or ``input`` holding an
  object (written as JSON, or a string holding a JSON object) means that object, when the
  tool's schema has no property of that name. Without ``tools=`` (or for a tool not among
  them) only a parameter named exactly ``arguments`` whose value is a JSON object is read so.
  The call's ``repairs`` then include ``unwrapped_arguments``.

>>> from toolsift.schema import ToolSchemas
>>> tools = ToolSchemas([{"name": "read", "parameters": {"properties": {"path": {}},
...     "required": ["path"]}}, {"name": "ping", "parameters": {}}])
>>> raw = '<|tool_call_begin|>call_3<|tool_call_argument_begin|>{"path": "/a"}<|tool_call_end|>'
>>> reshape("kimi_k2", "call_3", {"path": "/a"}, raw, tools)
('read', {'path': '/a'}, ('name_from_arguments',))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import _schema_shapes as shapes

if TYPE_CHECKING:
    from .schema import ToolSchemas

__all__ = [
    "DEEPSEEK_DSML",
    "NAME_FROM_ARGUMENTS",
    "NUMBER_MAPPED",
    "UNWRAPPED_ARGUMENTS",
    "accepts",
    "is_wrapper_key",
    "may_reshape",
    "reshape",
    "unwrap_untyped",
]

#: The ``ToolCall.repairs`` entry of a kimi_k2 call named by its arguments.
NAME_FROM_ARGUMENTS = "name_from_arguments"
#: The ``ToolCall.repairs`` entry of a deepseek_dsml call read from a wrapper parameter.
UNWRAPPED_ARGUMENTS = "unwrapped_arguments"

KIMI_K2 = "kimi_k2"
DEEPSEEK_DSML = "deepseek_dsml"
#: The syntaxes whose argument names follow the schema's singular/plural spelling.
NUMBER_MAPPED = frozenset({"code_assistant_xml", "caret"})
#: The parameter names deepseek_dsml wraps a whole arguments object in.
_WRAPPERS = ("arguments", "input")

_KIMI_CALL = "<|tool_call_begin|>"
_KIMI_ARGUMENTS = "<|tool_call_argument_begin|>"


def reshape(
    syntax: str, name: str, arguments: dict[str, Any], raw: object, schemas: ToolSchemas
) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The call's name and arguments as its syntax reads them against ``schemas``, and the
    ``repairs`` entries that reading adds (``raw``: the call's text, for kimi_k2's id)."""
    if syntax == KIMI_K2:
        if name not in schemas and _is_bare_id(str(raw)):
            fitting = [n for n, p in schemas.by_name.items() if accepts(arguments, p)]
            if len(fitting) == 1:
                return fitting[0], arguments, (NAME_FROM_ARGUMENTS,)
    elif syntax in NUMBER_MAPPED:
        if name in schemas:
            return name, _number_mapped(arguments, schemas.by_name[name]), ()
    elif syntax == DEEPSEEK_DSML:
        parameters = schemas.by_name.get(name)
        inner = unwrap_untyped(syntax, arguments) if parameters is None else None
        if parameters is not None and len(arguments) == 1:
            key, value = next(iter(arguments.items()))
            if key in _WRAPPERS and not _names(parameters, key):
                inner = _object(value)
        if inner is not None:
            return name, inner, (UNWRAPPED_ARGUMENTS,)
    return name, arguments, ()


def unwrap_untyped(syntax: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    """The object a deepseek_dsml call without a schema wraps in its one parameter
    ``arguments`` (``None``: the call is not such a wrapper)."""
    if syntax != DEEPSEEK_DSML or len(arguments) != 1:
        return None
    inner = arguments.get("arguments")
    return inner if isinstance(inner, dict) else None


def may_reshape(syntax: str, name: str | None, schemas: ToolSchemas | None) -> bool:
    """Whether :func:`reshape` may change a call of ``syntax`` that starts as ``name``, other
    than by deepseek_dsml's wrapper (which shows in the first argument's name)."""
    if schemas is None:
        return False
    if syntax == KIMI_K2:
        return name not in schemas
    return syntax in NUMBER_MAPPED and name in schemas


def is_wrapper_key(key: str) -> bool:
    """Whether a deepseek_dsml call whose first argument is ``key`` may be a wrapper."""
    return key in _WRAPPERS


def _is_bare_id(raw: str) -> bool:
    """Whether the kimi_k2 call ``raw`` has an id that names no function (``call_3``, ``0``):
    not ``functions.NAME…``, not ``NAME:IDX``."""
    start = raw.find(_KIMI_CALL)
    end = raw.find(_KIMI_ARGUMENTS, start + 1)
    if start < 0 or end < 0:
        return False
    call_id = raw[start + len(_KIMI_CALL) : end].strip()
    index = call_id.rpartition(":")[2]
    named = call_id.startswith("functions.") or (":" in call_id and index.isdigit())
    return bool(call_id) and not named


def _resolved(branch: shapes.Branch, root: Mapping[str, Any]) -> bool:
    """Whether every ``$ref`` of ``branch`` names a schema."""
    for part in branch:
        ref = part.get("$ref")
        if isinstance(ref, str) and not isinstance(shapes.resolve_ref(ref, root), Mapping | bool):
            return False
    return True


def accepts(arguments: Mapping[str, Any], parameters: Mapping[str, Any]) -> bool:
    """Whether some branch of the ``parameters`` schema names every argument (or explicitly
    allows it through ``additionalProperties``) and has every property it requires."""
    for branch in shapes.branches(parameters, parameters):
        if not _resolved(branch, parameters):
            continue
        required = {
            key
            for part in branch
            if isinstance(part.get("required"), list)
            for key in part["required"]
            if isinstance(key, str)
        }
        if required <= arguments.keys() and all(
            _takes(branch, key, value, parameters) for key, value in arguments.items()
        ):
            return True
    return False


def _takes(branch: shapes.Branch, key: str, value: Any, root: Mapping[str, Any]) -> bool:
    if shapes.property_schema(branch, key) is not None:
        return True
    extra = [part["additionalProperties"] for part in branch if "additionalProperties" in part]
    return bool(extra) and all(
        e is True or (isinstance(e, Mapping) and shapes.fits(value, e, root)) for e in extra
    )


def _property(parameters: Mapping[str, Any], key: str) -> Any:
    """The schema of property ``key`` in any branch of ``parameters`` (``None``: none)."""
    options = [
        p
        for b in shapes.branches(parameters, parameters)
        if (p := shapes.property_schema(b, key)) is not None
    ]
    return None if not options else options[0] if len(options) == 1 else {"anyOf": options}


def _names(parameters: Mapping[str, Any], key: str) -> bool:
    return _property(parameters, key) is not None


def _number_mapped(arguments: dict[str, Any], parameters: Mapping[str, Any]) -> dict[str, Any]:
    """``arguments`` with each key the schema does not name renamed to its plural or singular
    spelling when that is an array or string property not already set."""
    renamed: dict[str, str] = {}
    for key in arguments:
        if _names(parameters, key):
            continue
        other = [key + "s"] + ([key[:-1]] if len(key) > 1 and key.endswith("s") else [])
        for target in other:
            prop = _property(parameters, target)
            if prop is None or target in arguments or target in renamed.values():
                continue
            types = shapes.union_types([shapes.shape(b) for b in shapes.branches(prop, parameters)])
            if shapes.allows(types, "array") or shapes.allows(types, "string"):
                renamed[key] = target
                break
    if not renamed:
        return arguments
    return {renamed.get(k, k): v for k, v in arguments.items()}


def _object(value: Any) -> dict[str, Any] | None:
    """``value`` as a JSON object: itself, or the object a string holds."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            inner = json.loads(value)
        except (ValueError, RecursionError):
            return None
        return inner if isinstance(inner, dict) else None
    return None
