"""Syntaxes whose calls are JSON between special tokens or tags: ``hermes``, ``internlm``,
``run_module``, ``mistral``, ``granite`` and ``jamba``.

The parsers read the JSON with a scanner, so end tags and tokens inside string values are
value text: every string can be carried by JSON escaping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_name, json_text
from .describe import json_schema
from .json_objects import _JSON_RULES

__all__ = ["FORMATTERS"]


def _block(
    syntax: str, prefix: str, suffix: str, shape: str, key: str = "arguments", listed: bool = False
) -> Formatter:
    """A syntax whose reply is ``prefix`` + JSON + ``suffix``; ``listed`` ones hold a JSON
    list of calls, so several calls share one block."""

    def body(calls: list[tuple[str, str, Mapping[str, Any]]]) -> str:
        objects = [{"name": check_name(n, syntax), key: dict(a)} for _, n, a in calls]
        return json_text(objects if listed else objects[0])

    def render(name: str, arguments: Mapping[str, Any]) -> str:
        return prefix + body([("", name, arguments)]) + suffix

    def render_many(calls: list[tuple[str, str, Mapping[str, Any]]]) -> str:
        return prefix + body(calls) + suffix

    rules = f"To call a tool, write {shape}. {_JSON_RULES}"
    return Formatter(syntax, render, json_schema, rules, render_many if listed else None)


def _run_module(name: str, arguments: Mapping[str, Any]) -> str:
    body = json_text({"module": check_name(name, "run_module"), "args": dict(arguments)})
    return f"[RUN_MODULE]{body}[/RUN_MODULE]"


FORMATTERS = {
    f.syntax: f
    for f in [
        _block(
            "hermes",
            "<tool_call>\n",
            "\n</tool_call>",
            'each call as `<tool_call>{"name": "NAME", "arguments": {...}}</tool_call>`',
        ),
        _block(
            "internlm",
            "<|action_start|><|plugin|>\n",
            "<|action_end|>",
            'each call as `<|action_start|><|plugin|>{"name": "NAME", "parameters": {...}}'
            "<|action_end|>`",
            key="parameters",
        ),
        _block(
            "mistral",
            "[TOOL_CALLS]",
            "",
            '`[TOOL_CALLS]` followed by a JSON array of `{"name": "NAME", "arguments": {...}}`',
            listed=True,
        ),
        _block(
            "granite",
            "<|tool_call|>",
            "",
            '`<|tool_call|>` followed by a JSON array of `{"name": "NAME", "arguments": {...}}`',
            listed=True,
        ),
        _block(
            "jamba",
            "<tool_calls>",
            "</tool_calls>",
            '`<tool_calls>[{"name": "NAME", "arguments": {...}}]</tool_calls>`',
            listed=True,
        ),
        Formatter(
            "run_module",
            _run_module,
            json_schema,
            'To run a module, write `[RUN_MODULE]{"module": "NAME", "args": {...}}'
            f"[/RUN_MODULE]`. {_JSON_RULES}",
        ),
    ]
}
