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


def _block(syntax: str, template: str, shape: str, key: str = "arguments") -> Formatter:
    def render(name: str, arguments: Mapping[str, Any]) -> str:
        call = {"name": check_name(name, syntax), key: dict(arguments)}
        body = json_text([call]) if "[CALLS]" in template else json_text(call)
        return template.replace("[CALLS]", "[CALL]").replace("[CALL]", body)

    return Formatter(syntax, render, json_schema, f"To call a tool, write {shape}. {_JSON_RULES}")


def _run_module(name: str, arguments: Mapping[str, Any]) -> str:
    body = json_text({"module": check_name(name, "run_module"), "args": dict(arguments)})
    return f"[RUN_MODULE]{body}[/RUN_MODULE]"


FORMATTERS = {
    f.syntax: f
    for f in [
        _block(
            "hermes",
            "<tool_call>\n[CALL]\n</tool_call>",
            'each call as `<tool_call>{"name": "NAME", "arguments": {...}}</tool_call>`',
        ),
        _block(
            "internlm",
            "<|action_start|><|plugin|>\n[CALL]<|action_end|>",
            'each call as `<|action_start|><|plugin|>{"name": "NAME", "parameters": {...}}'
            "<|action_end|>`",
            key="parameters",
        ),
        _block(
            "mistral",
            "[TOOL_CALLS][CALLS]",
            '`[TOOL_CALLS]` followed by a JSON array of `{"name": "NAME", "arguments": {...}}`',
        ),
        _block(
            "granite",
            "<|tool_call|>[CALLS]",
            '`<|tool_call|>` followed by a JSON array of `{"name": "NAME", "arguments": {...}}`',
        ),
        _block(
            "jamba",
            "<tool_calls>[CALLS]</tool_calls>",
            '`<tool_calls>[{"name": "NAME", "arguments": {...}}]</tool_calls>`',
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
