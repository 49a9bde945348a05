"""The lenient ``TOOL_CALL`` + JSON syntax (``tool_call_json``).

The Rust core finds candidate JSON objects (after each literal marker, or anywhere when the
text has no marker); this module decides which candidates are calls:

- a marker's call is the first of its candidates that loads (leniently) as an object with a
  name under ``tool_name``, ``tool`` or ``name`` (first non-empty string wins);
- arguments come from ``parameters``, ``params``, ``arguments`` or ``args`` (first present and
  not null); missing or null means ``{}``; a JSON string holding an object is decoded;
- an empty name, a non-object, unloadable JSON or an oversized payload is not a call, and each
  rejected candidate gets a :class:`ParseIssue` saying why;
- ``first_only`` keeps the single-call contract of the original parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from .. import _native
from .._text import without_surrogates
from ..errors import JsonRepairError
from ..model import ParseIssue, ParseResult, ToolCall
from ..repair import _load_valid
from ..schema import ToolSchemas, check_call

__all__ = ["SYNTAX", "parse_tool_call_json"]

SYNTAX = "tool_call_json"
_NAME_KEYS = ("tool_name", "tool", "name")
_ARG_KEYS = ("parameters", "params", "arguments", "args")
_FENCE = "```"


def _load(payload: str) -> tuple[Any, tuple[str, ...]]:
    """Loads a JSON string value leniently: the value and the kinds of repair it needed."""
    try:
        value = orjson.loads(payload)
    except orjson.JSONDecodeError:
        fixed, repairs = _native.repair_json(without_surrogates(payload))
        return _load_valid(fixed), tuple(kind for kind, _ in repairs)
    if _native.has_long_digit_run(payload):
        value = _native.loads_exact(payload)
    return value, ()


def _name_of(obj: dict[str, Any]) -> str | None:
    for key in _NAME_KEYS:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _arguments_of(obj: dict[str, Any]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    for key in _ARG_KEYS:
        if key not in obj or obj[key] is None:
            continue
        value = obj[key]
        if isinstance(value, dict):
            return value, ()
        if isinstance(value, str):
            # Some models send the arguments as a JSON string, as the OpenAI API does.
            if not value.strip():
                return {}, ()
            try:
                decoded, repairs = _load(value)
            except JsonRepairError:
                return None, ()
            if isinstance(decoded, dict):
                return decoded, ("arguments_string_decoded", *repairs)
        return None, ()
    return {}, ()


def _call_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widens a call's span over a Markdown fence that holds nothing but the call, so the
    fence does not stay behind in the content. (A closing fence of an earlier block directly
    before the call looks the same as an opening one; only fences with nothing but blanks
    between them and the call are taken.)"""
    fence = text.rfind(_FENCE, max(0, start - 64), start)
    if fence < 0:
        return start, end
    label, _, rest = text[fence + 3 : start].partition("\n")
    if (label.strip() and not label.strip().isalnum()) or rest.strip():
        return start, end
    after = end
    while after < len(text) and text[after] in " \t\r\n":
        after += 1
    if not text.startswith(_FENCE, after):
        return start, end
    return fence, after + 3


def parse_tool_call_json(
    text: str,
    *,
    marker: str = "TOOL_CALL",
    max_payload_chars: int = 8000,
    first_only: bool = False,
    id_prefix: str = "call_",
    tools: Iterable[Mapping[str, Any]] | None = None,
    unknown_tools: str = "keep",
) -> ParseResult:
    """Parses every ``TOOL_CALL`` call in ``text``; see the module docs for the rules.

    >>> r = parse_tool_call_json('Sure. TOOL_CALL: {"tool_name": "search", "parameters": {"q": 1}}')
    >>> r.calls[0].name, r.calls[0].arguments, r.content
    ('search', {'q': 1}, 'Sure. ')
    """
    schemas = ToolSchemas(tools) if tools is not None else None
    try:
        markers, candidates = _native.tool_call_candidates(text, marker, max_payload_chars)
    except UnicodeEncodeError:
        markers, candidates = _native.tool_call_candidates(
            without_surrogates(text), without_surrogates(marker), max_payload_chars
        )
    calls: list[ToolCall] = []
    issues: list[ParseIssue] = []
    done_marker = -1
    for (
        marker_start,
        marker_index,
        json_start,
        json_end,
        terminated,
        status,
        data,
        repair_kinds,
        detail,
        exact,
    ) in candidates:
        if marker_index is not None and marker_index == done_marker:
            continue
        if first_only and calls:
            break
        span = (json_start if marker_start is None else marker_start, json_end)
        if data is None:
            if status == "too_large":
                message = (
                    f"payload of {detail} characters exceeds max_payload_chars={max_payload_chars}"
                )
            else:
                message = f"not JSON: {detail}"
            issues.append(ParseIssue(SYNTAX, span, status, message))
            continue
        obj = _native.loads_exact(data) if exact else orjson.loads(data)
        repairs = tuple(repair_kinds)
        if not terminated:
            repairs = ("unterminated_call", *repairs)
        if type(obj) is not dict:
            kind = type(obj).__name__
            issues.append(ParseIssue(SYNTAX, span, "not_an_object", f"JSON {kind}, not an object"))
            continue
        name = _name_of(obj)
        if name is None:
            issues.append(
                ParseIssue(SYNTAX, span, "no_name", "no tool name under tool_name, tool or name")
            )
            continue
        arguments, arg_repairs = _arguments_of(obj)
        if arguments is None:
            issues.append(
                ParseIssue(SYNTAX, span, "bad_arguments", f"arguments of {name!r} aren't an object")
            )
            continue
        span = _call_span(text, *span)
        if schemas is not None:
            keep, arguments, problems = check_call(name, arguments, schemas, unknown_tools)
            issues += [ParseIssue(SYNTAX, span, kind, message) for kind, message in problems]
            if not keep:
                continue
        calls.append(
            ToolCall(
                name,
                arguments,
                f"{id_prefix}{len(calls)}",
                SYNTAX,
                span,
                text[span[0] : span[1]],
                repairs + arg_repairs if arg_repairs else repairs,
            )
        )
        if marker_index is not None:
            done_marker = marker_index
    if len(markers) > len(calls):
        with_json = {c[0] for c in candidates if c[0] is not None}
        _report_bare_markers(markers, with_json, marker, issues)
    return ParseResult(calls, _content(text, calls), issues)


def _report_bare_markers(
    markers: list[int], with_json: set[int], marker: str, issues: list[ParseIssue]
) -> None:
    """A marker with no JSON object after it is reported, so a garbled call is not lost."""
    for start in markers:
        if start not in with_json:
            issues.append(
                ParseIssue(
                    SYNTAX,
                    (start, start + len(marker)),
                    "no_json_after_marker",
                    f"{marker} is not followed by a JSON object",
                )
            )


def _content(text: str, calls: list[ToolCall]) -> str:
    if not calls:
        return text
    parts = []
    pos = 0
    for call in calls:
        parts.append(text[pos : call.span[0]])
        pos = call.span[1]
    parts.append(text[pos:])
    return "".join(parts)
