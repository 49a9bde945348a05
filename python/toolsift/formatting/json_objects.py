"""JSON-object syntaxes: ``tool_call_json``, the bare-JSON ones (``json_openai``,
``json_gemini``, ``json_default``, ``llama3_json``, ``xlam``) and ``api_tool_call``.

Their parsers follow JSON strings with a scanner, so any string value (markers, braces,
newlines, quotes) is carried by ordinary JSON escaping; only the tool name is checked.
``tool_call_json`` reads at most ``max_payload_chars`` (default 8000) per call: longer calls
need that option raised when parsing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_name, json_text
from .describe import json_schema

__all__ = ["FORMATTERS"]

_JSON_RULES = (
    "Arguments are one JSON object: strings in double quotes, with quotes, backslashes and "
    'newlines escaped as in JSON (\\", \\\\, \\n); numbers, true/false, null, arrays and '
    "objects as JSON values. Give every required argument."
)


Calls = list[tuple[str, str, Mapping[str, Any]]]


def _shape(syntax: str, build: Any, shape: str, many: Any = None) -> Formatter:
    def render(name: str, arguments: Mapping[str, Any]) -> str:
        return str(build(check_name(name, syntax), dict(arguments)))

    def render_many(calls: Calls) -> str:
        return str(many([(i, check_name(n, syntax), dict(a)) for i, n, a in calls]))

    rules = f"To call a tool, write {shape}. {_JSON_RULES}"
    return Formatter(syntax, render, json_schema, rules, render_many if many else None)


def _openai_calls(calls: Calls) -> str:
    """One assistant message's ``tool_calls``; ids kept, or ``call_N`` when empty."""
    return json_text(
        {
            "tool_calls": [
                {
                    "id": call_id or f"call_{i}",
                    "type": "function",
                    "function": {"name": name, "arguments": json_text(arguments)},
                }
                for i, (call_id, name, arguments) in enumerate(calls)
            ]
        }
    )


FORMATTERS = {
    f.syntax: f
    for f in [
        _shape(
            "tool_call_json",
            lambda n, a: "TOOL_CALL: " + json_text({"tool_name": n, "parameters": a}),
            'a line `TOOL_CALL: {"tool_name": "NAME", "parameters": {...}}` for each call',
        ),
        _shape(
            "json_openai",
            lambda n, a: json_text({"name": n, "arguments": a}),
            'a JSON object `{"name": "NAME", "arguments": {...}}` for each call',
        ),
        _shape(
            "json_gemini",
            lambda n, a: json_text({"name": n, "args": a}),
            'a JSON object `{"name": "NAME", "args": {...}}` for each call',
        ),
        _shape(
            "json_default",
            lambda n, a: json_text({"tool": {"function": n, "parameters": a}}),
            'a JSON object `{"tool": {"function": "NAME", "parameters": {...}}}` for each call',
        ),
        _shape(
            "llama3_json",
            lambda n, a: json_text({"name": n, "parameters": a}),
            'a JSON object `{"name": "NAME", "parameters": {...}}`; separate several calls '
            "with `; `",
        ),
        _shape(
            "xlam",
            lambda n, a: json_text([{"name": n, "arguments": a}]),
            'one JSON array of call objects `[{"name": "NAME", "arguments": {...}}]`',
            lambda calls: json_text([{"name": n, "arguments": a} for _, n, a in calls]),
        ),
        _shape(
            "api_tool_call",
            lambda n, a: _openai_calls([("", n, a)]),
            "a call through the API's tool-calling interface (the message's `tool_calls`)",
            _openai_calls,
        ),
    ]
}
