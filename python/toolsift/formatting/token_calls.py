"""Special-token syntaxes with JSON arguments: ``deepseek_v3``, ``deepseek_v31``, ``kimi_k2``
and ``gpt_oss`` (Harmony).

The arguments are read with the JSON scanner, so the end tokens inside string values are
value text. Kimi ids are ``functions.NAME:IDX``; one rendered call uses index 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_name, json_text
from .describe import json_schema, typescript
from .json_objects import _JSON_RULES

__all__ = ["FORMATTERS"]

_DS_BEGIN = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
_DS_END = "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"


def _deepseek_v3(name: str, arguments: Mapping[str, Any]) -> str:
    name = check_name(name, "deepseek_v3")
    body = json_text(dict(arguments))
    return f"{_DS_BEGIN}function<｜tool▁sep｜>{name}\n```json\n{body}\n```{_DS_END}"


def _deepseek_v31(name: str, arguments: Mapping[str, Any]) -> str:
    name = check_name(name, "deepseek_v31")
    return f"{_DS_BEGIN}{name}<｜tool▁sep｜>{json_text(dict(arguments))}{_DS_END}"


def _kimi_k2_many(calls: list[tuple[str, str, Mapping[str, Any]]]) -> str:
    """One section; ids ``functions.NAME:IDX`` count the calls from 0, as Kimi's template
    does (the id is how the tool's result refers back to its call)."""
    parts = [
        f"<|tool_call_begin|>functions.{check_name(name, 'kimi_k2')}:{i}"
        f"<|tool_call_argument_begin|>{json_text(dict(arguments))}<|tool_call_end|>"
        for i, (_, name, arguments) in enumerate(calls)
    ]
    return "<|tool_calls_section_begin|>" + "".join(parts) + "<|tool_calls_section_end|>"


def _kimi_k2(name: str, arguments: Mapping[str, Any]) -> str:
    return _kimi_k2_many([("", name, arguments)])


def _gpt_oss(name: str, arguments: Mapping[str, Any]) -> str:
    name = check_name(name, "gpt_oss")
    return (
        f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
        f"<|message|>{json_text(dict(arguments))}<|call|>"
    )


FORMATTERS = {
    "deepseek_v3": Formatter(
        "deepseek_v3",
        _deepseek_v3,
        json_schema,
        "To call a tool, write <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        "NAME, a newline, the arguments in a ```json fence, then <｜tool▁call▁end｜>"
        f"<｜tool▁calls▁end｜>. {_JSON_RULES}",
    ),
    "deepseek_v31": Formatter(
        "deepseek_v31",
        _deepseek_v31,
        json_schema,
        "To call a tool, write <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>"
        f"{{...}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>. {_JSON_RULES}",
    ),
    "kimi_k2": Formatter(
        "kimi_k2",
        _kimi_k2,
        json_schema,
        "To call a tool, write <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:"
        "INDEX<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>, "
        f"INDEX counting calls from 0. {_JSON_RULES}",
        _kimi_k2_many,
    ),
    "gpt_oss": Formatter(
        "gpt_oss",
        _gpt_oss,
        typescript,
        "The functions are declared in TypeScript, in namespace functions. "
        "To call a function, send a commentary message addressed to it: <|start|>assistant"
        "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>. "
        f"{_JSON_RULES}",
    ),
}
