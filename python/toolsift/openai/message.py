"""The chat-completion ``message`` of a parse result, and the client-side merge of deltas."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._json_text import dumps_json
from ..model import ParseResult, ToolCall

__all__ = ["arguments_json", "merge_deltas", "to_message"]


def arguments_json(call: ToolCall) -> str:
    """``function.arguments``: the call's JSON text (the model's own bytes when it wrote valid
    JSON; non-ASCII never escaped)."""
    return call.arguments_json or dumps_json(call.arguments)


def to_message(result: ParseResult) -> dict[str, Any]:
    """The assistant message: ``content`` (``None`` when there is none, as OpenAI sends it)
    and, when there are calls, ``tool_calls`` with ``id``, ``type: "function"``,
    ``function.name`` and ``function.arguments`` (a JSON string)."""
    message: dict[str, Any] = {"role": "assistant", "content": result.content or None}
    if result.calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": arguments_json(call)},
            }
            for call in result.calls
        ]
    return message


def merge_deltas(deltas: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """What an OpenAI client builds from ``choices[0].delta`` dicts: ``content`` and
    ``reasoning_content`` concatenated, each ``tool_calls[i]`` gathered by ``index`` (``id``,
    ``type`` and ``name`` taken when given, ``arguments`` concatenated)."""
    content: list[str] | None = None
    reasoning: list[str] | None = None
    calls: dict[int, dict[str, Any]] = {}
    for delta in deltas:
        if delta.get("content") is not None:
            content = (content or []) + [delta["content"]]
        if delta.get("reasoning_content") is not None:
            reasoning = (reasoning or []) + [delta["reasoning_content"]]
        for part in delta.get("tool_calls") or ():
            call = calls.setdefault(
                part["index"],
                {"id": "", "type": "function", "function": {"name": "", "arguments": ""}},
            )
            for key in ("id", "type"):
                if part.get(key):
                    call[key] = part[key]
            function = part.get("function") or {}
            if function.get("name"):
                call["function"]["name"] = function["name"]
            call["function"]["arguments"] += function.get("arguments") or ""
    text = "".join(content or ())
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if reasoning is not None:
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message
