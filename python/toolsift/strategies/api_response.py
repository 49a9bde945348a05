"""Whole provider responses → ``ToolCall``s (``parse(response, syntax="api_tool_call")``).

Shapes read (as dicts, SDK objects, or the JSON text of either):

- OpenAI chat completions: ``choices[i].message.tool_calls[j].function.{name, arguments}``
  (and the legacy ``message.function_call``); a bare message or a list of tool calls too.
  Ollama's chat response (``message.tool_calls``, arguments as an object) is the same shape.
- OpenAI Responses API: ``output`` items of ``type: "function_call"`` (``call_id``, ``name``,
  ``arguments``); ``message`` items give the text.
- Anthropic messages: ``content`` blocks ``{"type": "tool_use", "id", "name", "input"}``;
  ``text`` blocks give the text, ``thinking`` blocks are skipped.
- Gemini: ``candidates[i].content.parts[j].functionCall.{name, args, id}``; text parts give
  the text, ``thought`` parts are skipped.

A response with several choices (``n > 1``) holds alternatives, not parallel calls: ``choice``
(default 0) picks one.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..errors import ToolsiftError
from ..model import ParseIssue, ParseResult, ToolCall
from .api_shapes import field, items, make_call

__all__ = ["read_response"]


class _Reader:
    def __init__(self, id_prefix: str) -> None:
        self.id_prefix = id_prefix
        self.calls: list[ToolCall] = []
        self.issues: list[ParseIssue] = []
        self.text: list[str] = []
        self.count = 0

    def call(self, call_id: Any, name: Any, arguments: Any) -> None:
        sid = call_id if isinstance(call_id, str) and call_id else f"{self.id_prefix}{self.count}"
        self.count += 1
        call, issue = make_call(name, arguments, sid)
        if call is not None:
            self.calls.append(call)
        if issue is not None:
            self.issues.append(issue)

    def message(self, message: Any) -> None:
        """An OpenAI chat message (or Ollama's): content, then tool calls."""
        content = field(message, "content")
        if isinstance(content, str):
            self.text.append(content)
        else:
            for block in items(content):
                self.item(block)
        for tool_call in items(field(message, "tool_calls")):
            self.item(tool_call)
        legacy = field(message, "function_call")
        if legacy is not None:
            self.call(None, field(legacy, "name"), field(legacy, "arguments"))

    def item(self, item: Any) -> None:
        """One element of any list of parts, blocks, output items or tool calls."""
        if isinstance(item, str):
            self.text.append(item)
            return
        kind = field(item, "type")
        function = field(item, "function")
        gemini = field(item, "functionCall", "function_call")
        if kind == "tool_use":
            self.call(field(item, "id"), field(item, "name"), field(item, "input"))
        elif kind == "function_call":
            call_id = field(item, "call_id", "id")
            self.call(call_id, field(item, "name"), field(item, "arguments"))
        elif function is not None and not isinstance(function, str):
            name = field(function, "name")
            self.call(field(item, "id"), name, field(function, "arguments", "parameters"))
        elif gemini is not None:
            self.call(field(gemini, "id"), field(gemini, "name"), field(gemini, "args"))
        elif kind in ("text", "output_text") or (kind is None and field(item, "text")):
            if not field(item, "thought"):
                self.text.append(str(field(item, "text") or ""))
        elif field(item, "parts") is not None:
            for part in items(field(item, "parts")):
                self.item(part)
        elif kind == "message" or field(item, "role") is not None:
            self.message(item)

    def response(self, response: Any, choice: int) -> None:
        choices = field(response, "choices")
        candidates = field(response, "candidates")
        output = field(response, "output")
        if isinstance(response, (list, tuple)):
            for item in response:
                self.item(item)
        elif choices is not None:
            picked = _pick(choices, choice)
            self.message(field(picked, "message", "delta"))
        elif candidates is not None:
            self.item(field(_pick(candidates, choice), "content"))
        elif isinstance(output, (list, tuple)):
            for item in output:
                self.item(item)
        elif field(response, "message") is not None and field(response, "role") is None:
            self.message(field(response, "message"))
        elif field(response, "parts") is not None:
            self.item(response)
        elif isinstance(field(response, "content"), (list, tuple)) or field(response, "tool_calls"):
            self.message(response)
        else:
            self.item(response)


def _pick(options: Any, choice: int) -> Any:
    listed = items(options)
    for option in listed:
        if field(option, "index") == choice:
            return option
    return listed[choice] if 0 <= choice < len(listed) else None


def read_response(response: Any, *, choice: int = 0, id_prefix: str = "call_") -> ParseResult:
    """The calls, text and issues of one whole provider response.

    >>> r = read_response({"type": "message", "content": [
    ...     {"type": "text", "text": "Checking."},
    ...     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
    ... ]})
    >>> [(c.id, c.name, c.arguments) for c in r.calls], r.content
    ([('toolu_1', 'get_weather', {'city': 'Oslo'})], 'Checking.')

    Calls keep the provider's id; a call without one (Gemini's usually) gets ``call_N`` in
    order. ``response`` may also be the JSON text (``str`` or ``bytes``) of a response.
    """
    if isinstance(response, (str, bytes, bytearray)):
        try:
            response = orjson.loads(response)
        except orjson.JSONDecodeError as err:
            raise ToolsiftError(
                f"api_tool_call takes a provider response object or its JSON text: {err}",
                reason="not_a_response",
            ) from None
    reader = _Reader(id_prefix)
    reader.response(response, choice)
    return ParseResult(reader.calls, "".join(reader.text), reader.issues)
