"""The shapes of provider-native tool calls, read the same way from dicts and SDK objects.

Provider SDKs (``openai``, ``anthropic``, ``google-genai``) return pydantic models whose
attributes mirror the JSON fields; Gemini's SDK spells them in snake_case (``function_call``)
where its REST API uses camelCase (``functionCall``). :func:`field` reads a mapping key or an
attribute under any of the given spellings, so one reader serves all of them without
``model_dump()`` copies and without importing any SDK.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

from ..errors import JsonRepairError
from ..model import ParseIssue, ToolCall
from ..repair import repair_json

__all__ = ["API_TOOL_CALL", "decode_arguments", "dumps", "field", "items", "make_call"]

API_TOOL_CALL = "api_tool_call"
_MISSING = object()


def field(obj: Any, *names: str) -> Any:
    """The first of ``names`` that ``obj`` has (mapping key or attribute), else ``None``."""
    if obj is None:
        return None
    for name in names:
        if isinstance(obj, Mapping):
            value = obj.get(name, _MISSING)
        else:
            value = getattr(obj, name, _MISSING)
        if value is not _MISSING and value is not None:
            return value
    return None


def items(obj: Any) -> list[Any]:
    """``obj`` as a list (``None`` → ``[]``; a lone item → ``[item]``)."""
    if obj is None:
        return []
    if isinstance(obj, (list, tuple)):
        return list(obj)
    return [obj]


def _to_dict(value: Any) -> Any:
    # An SDK object standing where a JSON object is expected (rare: Gemini args are dicts).
    dump = getattr(value, "model_dump", None)
    return dump() if callable(dump) else value


def decode_arguments(value: Any) -> tuple[dict[str, Any] | None, tuple[str, ...], str, str]:
    """Arguments as a dict: ``(arguments, repair kinds, issue kind, issue message)``.

    Objects are taken as they are. Strings (OpenAI's ``arguments``, streamed fragments joined)
    are JSON, read leniently: a malformed string is repaired and its repairs reported; an
    empty string or ``null`` is ``{}`` (OpenAI sends ``""`` for a call without parameters); a
    JSON string that holds an object is decoded once more. Unrecoverable text gives ``None``
    and a ``bad_arguments`` issue; JSON that is not an object gives ``not_an_object``.
    """
    value = _to_dict(value)
    if value is None:
        return {}, (), "", ""
    if isinstance(value, Mapping):
        return dict(value), (), "", ""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", errors="replace")
    if not isinstance(value, str):
        return None, (), "not_an_object", f"arguments are a {type(value).__name__}"
    if not value.strip():
        return {}, (), "", ""
    repairs: tuple[str, ...] = ()
    try:
        decoded = orjson.loads(value)
    except orjson.JSONDecodeError:
        try:
            fixed = repair_json(value)
        except JsonRepairError as err:
            return None, (), "bad_arguments", f"arguments are not JSON: {err.message}"
        decoded, repairs = fixed.value, tuple(r.kind for r in fixed.repairs)
    if isinstance(decoded, str) and decoded.lstrip().startswith("{"):
        inner, more, kind, message = decode_arguments(decoded)
        return inner, repairs + more, kind, message
    if decoded is None:
        return {}, repairs, "", ""
    if not isinstance(decoded, dict):
        return None, repairs, "not_an_object", "arguments are JSON but not an object"
    return decoded, repairs, "", ""


def make_call(
    name: Any, arguments: Any, call_id: str, raw: str | None = None
) -> tuple[ToolCall | None, ParseIssue | None]:
    """A ``ToolCall`` of syntax ``api_tool_call``, or the issue explaining why there is none.
    ``raw`` is the arguments' JSON text as the provider sent it (built when it sent an
    object). Provider objects have no text positions, so spans are ``(0, 0)``."""
    if not isinstance(name, str) or not name:
        return None, ParseIssue(API_TOOL_CALL, (0, 0), "no_name", f"call {call_id} has no name")
    args, repairs, kind, message = decode_arguments(arguments)
    if args is None:
        return None, ParseIssue(API_TOOL_CALL, (0, 0), kind, f"call {call_id} ({name}): {message}")
    if raw is None:
        raw = arguments if isinstance(arguments, str) else dumps(args)
    # The provider's own text when it is the plain JSON of the arguments, else canonical JSON.
    plain = not repairs and raw.lstrip().startswith("{") and isinstance(arguments, str)
    call = ToolCall(name, args, call_id, API_TOOL_CALL, (0, 0), raw, repairs)
    call.arguments_json = raw if plain else dumps(args)
    return call, None


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:
        # Integers beyond 64 bits; anything else JSON cannot hold becomes its repr.
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
