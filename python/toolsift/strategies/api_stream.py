"""Streamed provider-native tool calls → the same events as text syntaxes.

``StreamParser(syntax="api_tool_call").feed(chunk)`` takes each streamed chunk or event, as a
dict or an SDK object:

- OpenAI chat completions chunks: ``choices[i].delta.content`` is text;
  ``delta.tool_calls[j]`` fragments are keyed by ``index`` (the first carries ``id`` and
  ``function.name``, later ones more of ``function.arguments``); ``reasoning_content``
  (DeepSeek, vLLM) is reasoning.
- OpenAI Responses API events: ``response.output_item.added`` (a ``function_call`` item),
  ``response.function_call_arguments.delta``, ``response.output_item.done``,
  ``response.output_text.delta``.
- Anthropic events: ``content_block_start`` (``tool_use``, ``text``, ``thinking``),
  ``content_block_delta`` (``text_delta``, ``input_json_delta.partial_json``,
  ``thinking_delta``), ``content_block_stop``.
- Gemini chunks: each a ``GenerateContentResponse`` whose text parts are deltas and whose
  ``functionCall`` parts arrive whole.
- Ollama chat chunks: ``message.content`` deltas; ``message.tool_calls`` arrive whole.

Events match the text syntaxes': a call is ``SegmentStart`` (with its name), ``ArgumentDelta``
(decoded string members, by the core's tokenizer) and ``ArgumentsJsonDelta`` (the provider's
own fragments) as it streams, then ``SegmentEnd`` with the ``ToolCall`` read from the joined
fragments (leniently repaired). Text is ``text_N`` segments, reasoning ``reasoning_N``. A call's
segment id is its ``ToolCall.id``: the provider's id, or ``call_N`` when it gives none.

Chat-completion calls stream one after another, so a fragment of a new ``index`` ends the
call before it (its ``SegmentEnd`` comes at once, not at the end of the response). A fragment
that comes later for a call already ended (a stream that interleaves its calls) cannot join
it: it is reported, as a segment of its own whose ``SegmentEnd`` carries a
``late_fragment`` issue with the fragment's text, never dropped unseen.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

import orjson

from .. import _native
from ..events import ArgumentDelta, ArgumentsJsonDelta, Event, SegmentEnd, SegmentStart, TextDelta
from ..model import ParseIssue
from .api_shapes import API_TOOL_CALL, field, items, make_call

__all__ = ["ApiCallStream"]


@dataclass
class _OpenCall:
    sid: str
    name: str
    parts: list[str] = dc_field(default_factory=list)
    preview: Any = None
    whole: Any = None  # arguments the provider sent as an object, or complete at the end


class ApiCallStream:
    """Accumulates one streamed provider response; ``feed`` returns the events of a chunk."""

    def __init__(self, *, choice: int = 0, id_prefix: str = "call_", previews: bool = True):
        self._choice = choice
        self._prefix = id_prefix
        self._previews = previews
        self.reset()

    def reset(self) -> None:
        """Forgets the stream."""
        self._events: list[Event] = []
        self._open: dict[Any, _OpenCall] = {}  # provider key (index, item id) → call
        self._closed: set[Any] = set()
        self._segment: tuple[str, str] | None = None  # open text or reasoning: (kind, id)
        self._counts = {"text": 0, "reasoning": 0, "call": 0}

    # Segments -----------------------------------------------------------------------------

    def _end_segment(self) -> None:
        if self._segment is not None:
            self._events.append(SegmentEnd(self._segment[1]))
            self._segment = None

    def _text(self, kind: str, text: Any) -> None:
        if not isinstance(text, str) or not text:
            return
        if self._segment is None or self._segment[0] != kind:
            self._end_segment()
            sid = f"{kind}_{self._counts[kind]}"
            self._counts[kind] += 1
            self._events.append(
                SegmentStart(sid, kind, "text" if kind == "text" else API_TOOL_CALL)
            )
            self._segment = (kind, sid)
        self._events.append(TextDelta(self._segment[1], text))

    def _start_call(self, key: Any, call_id: Any, name: Any) -> _OpenCall | None:
        if key in self._open:
            return self._open[key]
        if key in self._closed:
            return None
        self._end_segment()
        sid = call_id if isinstance(call_id, str) and call_id else None
        sid = sid or f"{self._prefix}{self._counts['call']}"
        self._counts["call"] += 1
        call = _OpenCall(sid, name if isinstance(name, str) else "")
        call.preview = _native.NativeArgsPreview() if self._previews else None
        self._open[key] = call
        self._events.append(SegmentStart(sid, "tool_call", API_TOOL_CALL, call.name or None))
        return call

    def _arguments(self, key: Any, fragment: Any) -> None:
        call = self._open.get(key)
        if call is None or not isinstance(fragment, str) or not fragment:
            return
        call.parts.append(fragment)
        if call.preview is not None:
            for arg, text in call.preview.feed(fragment):
                self._events.append(ArgumentDelta(call.sid, arg, text))
            self._events.append(ArgumentsJsonDelta(call.sid, fragment))

    def _whole_arguments(self, key: Any, value: Any) -> None:
        """Arguments that arrive complete: an object (Gemini, Anthropic's start ``input``)."""
        call = self._open.get(key)
        if call is None or value is None:
            return
        if isinstance(value, str):
            if not call.parts:
                self._arguments(key, value)
            return
        call.whole = value
        if value and self._previews:
            text = orjson.dumps(value).decode("utf-8")
            self._arguments(key, text)

    def _close(self, key: Any) -> None:
        call = self._open.pop(key, None)
        if call is None:
            return
        self._closed.add(key)
        raw = "".join(call.parts)
        arguments: Any = raw if raw or call.whole is None else call.whole
        tool_call, issue = make_call(call.name, arguments, call.sid, raw or None)
        self._events.append(SegmentEnd(call.sid, tool_call, issue))

    def _late(self, key: Any, fragment: Any) -> None:
        """A fragment for the call ``key``, already ended: reported (see the module docs)."""
        if not isinstance(fragment, str) or not fragment:
            return
        self._end_segment()
        sid = f"{self._prefix}{self._counts['call']}"
        self._counts["call"] += 1
        message = (
            f"arguments for tool call index {key[1]} arrived after that call ended "
            f"(another index had started): {fragment!r}"
        )
        self._events.append(SegmentStart(sid, "tool_call", API_TOOL_CALL, None))
        issue = ParseIssue(API_TOOL_CALL, (0, 0), "late_fragment", message)
        self._events.append(SegmentEnd(sid, None, issue))

    def _close_all(self) -> None:
        for key in list(self._open):
            self._close(key)

    # Chunk shapes ---------------------------------------------------------------------------

    def feed(self, chunk: Any) -> list[Event]:
        """Consumes one chunk or event; returns the events it produced."""
        kind = field(chunk, "type")
        if isinstance(kind, str) and kind.startswith("response."):
            self._responses_event(kind, chunk)
        elif isinstance(kind, str) and kind.startswith(("content_block", "message_")):
            self._anthropic_event(kind, chunk)
        elif field(chunk, "choices") is not None:
            self._chat_chunk(chunk)
        elif field(chunk, "candidates") is not None:
            self._gemini_chunk(chunk)
        elif field(chunk, "message") is not None:
            self._ollama_chunk(field(chunk, "message"))
        events, self._events = self._events, []
        return events

    def finish(self) -> list[Event]:
        """Ends the stream: closes every open segment (a call cut off is read as it stands)."""
        self._close_all()
        self._end_segment()
        events, self._events = self._events, []
        return events

    def _chat_chunk(self, chunk: Any) -> None:
        for choice in items(field(chunk, "choices")):
            if (field(choice, "index") or 0) != self._choice:
                continue
            delta = field(choice, "delta") or field(choice, "message")
            self._text("reasoning", field(delta, "reasoning_content", "reasoning"))
            self._text("text", field(delta, "content"))
            for fragment in items(field(delta, "tool_calls")):
                key = ("chat", field(fragment, "index") or 0)
                function = field(fragment, "function")
                if key not in self._open and key not in self._closed:
                    # Calls stream one after another: a new index ends the one before.
                    self._close_all()
                self._start_call(key, field(fragment, "id"), field(function, "name"))
                arguments = field(function, "arguments")
                if key in self._closed:
                    self._late(key, arguments)
                elif isinstance(arguments, str):
                    self._arguments(key, arguments)
                else:
                    self._whole_arguments(key, arguments)  # Ollama: an object
            legacy = field(delta, "function_call")
            if legacy is not None:
                self._start_call(("chat", "legacy"), None, field(legacy, "name"))
                self._arguments(("chat", "legacy"), field(legacy, "arguments"))
            if field(choice, "finish_reason"):
                self._close_all()

    def _responses_event(self, kind: str, event: Any) -> None:
        item = field(event, "item")
        if kind in ("response.output_item.added", "response.output_item.done"):
            if field(item, "type") != "function_call":
                return
            key = ("resp", field(item, "id") or field(event, "output_index"))
            self._start_call(key, field(item, "call_id", "id"), field(item, "name"))
            if kind.endswith(".done"):
                self._whole_arguments(key, field(item, "arguments"))
                self._close(key)
        elif kind == "response.function_call_arguments.delta":
            key = ("resp", field(event, "item_id") or field(event, "output_index"))
            self._arguments(key, field(event, "delta"))
        elif kind == "response.function_call_arguments.done":
            key = ("resp", field(event, "item_id") or field(event, "output_index"))
            self._whole_arguments(key, field(event, "arguments"))
        elif kind == "response.output_text.delta":
            self._text("text", field(event, "delta"))
        elif kind == "response.reasoning_summary_text.delta":
            self._text("reasoning", field(event, "delta"))

    def _anthropic_event(self, kind: str, event: Any) -> None:
        key = ("block", field(event, "index") or 0)
        if kind == "content_block_start":
            block = field(event, "content_block")
            block_type = field(block, "type")
            if block_type == "tool_use":
                self._start_call(key, field(block, "id"), field(block, "name"))
                self._whole_arguments(key, field(block, "input"))
            elif block_type == "text":
                self._text("text", field(block, "text"))
            elif block_type == "thinking":
                self._text("reasoning", field(block, "thinking"))
        elif kind == "content_block_delta":
            delta = field(event, "delta")
            delta_type = field(delta, "type")
            if delta_type == "input_json_delta":
                call = self._open.get(key)
                if call is not None and call.whole is not None and not call.parts:
                    call.whole = None  # the start's empty ``input`` is a placeholder
                self._arguments(key, field(delta, "partial_json"))
            elif delta_type == "text_delta":
                self._text("text", field(delta, "text"))
            elif delta_type == "thinking_delta":
                self._text("reasoning", field(delta, "thinking"))
        elif kind == "content_block_stop":
            self._close(key)
        elif kind == "message_stop":
            self._close_all()

    def _ollama_chunk(self, message: Any) -> None:
        # Ollama streams ``{"message": {...}, "done": false}``; its calls arrive whole.
        self._text("reasoning", field(message, "thinking"))
        self._text("text", field(message, "content"))
        for tool_call in items(field(message, "tool_calls")):
            function = field(tool_call, "function")
            key = ("ollama", self._counts["call"])
            self._start_call(key, field(tool_call, "id"), field(function, "name"))
            self._whole_arguments(key, field(function, "arguments") or {})
            self._close(key)

    def _gemini_chunk(self, chunk: Any) -> None:
        candidates = items(field(chunk, "candidates"))
        for position, candidate in enumerate(candidates):
            if (field(candidate, "index") or position) != self._choice:
                continue
            for part in items(field(field(candidate, "content"), "parts")):
                call = field(part, "functionCall", "function_call")
                if call is not None:
                    key = ("gemini", self._counts["call"])
                    self._start_call(key, field(call, "id"), field(call, "name"))
                    self._whole_arguments(key, field(call, "args") or {})
                    self._close(key)
                elif field(part, "thought"):
                    self._text("reasoning", field(part, "text"))
                else:
                    self._text("text", field(part, "text"))
