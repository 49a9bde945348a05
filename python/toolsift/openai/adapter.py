"""``StreamAdapter``: toolsift events → OpenAI ``choices[0].delta`` dicts, exactly.

What an OpenAI client does with deltas is append: ``content`` to content, each
``tool_calls[i].function.arguments`` to that call's arguments. So every fragment sent must be
final. The adapter therefore:

- announces a call (``index``, ``id``, ``type``, ``name``) once its name is known, numbering
  calls in the order they start, so two calls in one delta get two indexes;
- sends argument fragments only up to the *settled* prefix of the arguments JSON
  (:mod:`._json_prefix`): a pending comma, an unfinished number or escape, and everything after
  a byte strict JSON forbids wait for the end of the call, when the rest of the final
  ``arguments`` (``ToolCall.arguments_json``, the text :func:`to_message` reports) follows;
- holds a call's arguments to its end when ``tools=`` may retype them (its schema has
  non-string properties) or its syntax may reshape them (a ``code_assistant_xml`` or
  ``caret`` call of a known tool; a ``deepseek_dsml`` call whose first parameter is an
  ``arguments``/``input`` wrapper), and its name too when that may still change (a
  ``kimi_k2`` call whose id names no tool); never announces a call the unknown-tool policy
  drops;
- sends reasoning as ``reasoning_content`` (the vLLM / DeepSeek convention) unless
  ``reasoning=False``.

One case cannot be made exact while streaming: a segment that starts as a call (its name
already announced) and then turns out malformed has no call in the batch result. Such calls
are listed in :attr:`StreamAdapter.abandoned`; pass ``live=False`` to announce each call only
when it is complete (the stream is then exact for every input, at the cost of argument
streaming).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._call_reshape import DEEPSEEK_DSML, is_wrapper_key, may_reshape
from ..events import ArgumentsJsonDelta, Event, SegmentEnd, SegmentStart, TextDelta
from ..streaming import StreamParser
from ._json_prefix import JsonPrefix
from .message import arguments_json

__all__ = ["StreamAdapter"]

_NOT_CALLS = ("text", "reasoning")


@dataclass
class _Open:
    """A call segment in progress."""

    id: str
    name: str | None
    index: int | None = None
    held: bool = False
    #: A deepseek_dsml call whose first argument's name is not yet known: its text so far.
    pending: str | None = None
    json: list[str] = field(default_factory=list)
    prefix: JsonPrefix = field(default_factory=JsonPrefix)
    sent: int = 0


class StreamAdapter:
    """Feeds model text, returns OpenAI ``delta`` dicts; see the module docs.

    ``syntax`` and ``options`` are :class:`toolsift.StreamParser`'s. ``finish_reason`` is
    ``"tool_calls"`` once a call was sent, else ``"stop"``.
    """

    def __init__(
        self,
        syntax: str | Sequence[str],
        *,
        live: bool = True,
        reasoning: bool = True,
        tools: Iterable[Mapping[str, Any]] | None = None,
        **options: Any,
    ) -> None:
        self._parser = StreamParser(syntax, tools=tools, keep_result=False, **options)
        self._live = live
        self._reasoning = reasoning
        # The parser's own reading of ``tools``: what it may retype, and what it drops.
        schemas = self._parser._schemas
        self._typed = set() if schemas is None else schemas.retyping()
        self._known = schemas
        self._drop_unknown = options.get("unknown_tools") == "drop"
        self._open: dict[str, _Open] = {}
        self._count = 0
        self._first = True
        #: Ids of calls announced and then ended without a call (malformed after all).
        self.abandoned: list[str] = []
        #: Ids of calls whose sent arguments turned out not to begin the final arguments.
        self.diverged: list[str] = []

    @property
    def finish_reason(self) -> str:
        return "tool_calls" if self._count else "stop"

    def feed(self, chunk: str) -> list[dict[str, Any]]:
        """The deltas ``chunk`` completes."""
        return self._deltas(self._parser.feed(chunk))

    def finish(self) -> list[dict[str, Any]]:
        """The last deltas, at the end of the stream."""
        return self._deltas(self._parser.finish())

    def _deltas(self, events: list[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            kind = type(event)
            if kind is TextDelta:
                assert isinstance(event, TextDelta)
                if event.segment_id.startswith("text_"):
                    self._emit(out, {"content": event.text})
                elif self._reasoning and event.segment_id.startswith("reasoning_"):
                    self._emit(out, {"reasoning_content": event.text})
            elif kind is ArgumentsJsonDelta:
                assert isinstance(event, ArgumentsJsonDelta)
                self._arguments(out, event)
            elif kind is SegmentStart:
                assert isinstance(event, SegmentStart)
                if event.kind not in _NOT_CALLS:
                    self._start(out, event)
            elif kind is SegmentEnd:
                assert isinstance(event, SegmentEnd)
                self._end(out, event)
        return out

    def _start(self, out: list[dict[str, Any]], event: SegmentStart) -> None:
        name = event.name
        held = not self._live or (name is not None and name in self._typed)
        held = held or may_reshape(event.syntax, name, self._known)
        call = _Open(event.segment_id, name, held=held)
        if event.syntax == DEEPSEEK_DSML:
            call.pending = ""
        self._open[event.segment_id] = call
        if name is not None and not held and not self._dropped(name):
            self._announce(out, call, name)

    def _dropped(self, name: str) -> bool:
        return self._drop_unknown and self._known is not None and name not in self._known

    def _announce(self, out: list[dict[str, Any]], call: _Open, name: str) -> None:
        call.index = self._count
        self._count += 1
        part = {
            "index": call.index,
            "id": call.id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        self._emit(out, {"tool_calls": [part]})

    def _arguments(self, out: list[dict[str, Any]], event: ArgumentsJsonDelta) -> None:
        call = self._open.get(event.segment_id)
        if call is None or call.held or call.index is None:
            return
        text = event.text
        if call.pending is not None:
            decided, key = _leading_key(call.pending + text)
            if not decided or (key is not None and is_wrapper_key(key)):
                # a wrapper's arguments become its object at the end: sent whole then
                call.pending, call.held = call.pending + text, decided
                return
            text, call.pending = call.pending + text, None
        call.json.append(text)
        settled = call.prefix.push(text)
        if settled > call.sent:
            text = "".join(call.json)
            call.json = [text]
            self._fragment(out, call, text[call.sent : settled])
            call.sent = settled

    def _end(self, out: list[dict[str, Any]], event: SegmentEnd) -> None:
        call = self._open.pop(event.segment_id, None)
        if call is None:
            return
        if event.call is None:
            if call.index is not None:
                self.abandoned.append(call.id)
            return
        final = arguments_json(event.call)
        if call.index is None:
            self._announce(out, call, event.call.name)
        sent = "".join(call.json)[: call.sent]
        if final.startswith(sent):
            self._fragment(out, call, final[len(sent) :])
        else:
            # Cannot happen while repair keeps settled bytes (a property test checks it);
            # recorded rather than hidden if it ever does.
            self.diverged.append(call.id)

    def _fragment(self, out: list[dict[str, Any]], call: _Open, text: str) -> None:
        if text:
            part = {"index": call.index, "function": {"arguments": text}}
            self._emit(out, {"tool_calls": [part]})

    def _emit(self, out: list[dict[str, Any]], delta: dict[str, Any]) -> None:
        """Appends ``delta``, merged into the previous one when both carry the same field
        (adjacent content, or more arguments of the same call)."""
        if self._first:
            delta = {"role": "assistant", **delta}
            self._first = False
        if out:
            last = out[-1]
            for key in ("content", "reasoning_content"):
                if set(delta) == {key} and key in last and "tool_calls" not in last:
                    last[key] += delta[key]
                    return
            if "tool_calls" in delta and "tool_calls" in last and len(delta) == 1:
                mine, prev = delta["tool_calls"][0], last["tool_calls"][-1]
                if mine["index"] == prev["index"] and "id" not in mine:
                    prev["function"]["arguments"] += mine["function"]["arguments"]
                    return
        out.append(delta)


def _leading_key(text: str) -> tuple[bool, str | None]:
    """Whether the start of an arguments JSON text shows its first key yet, and that key
    (``None``: the object has none, or the text is no object)."""
    rest = text.lstrip()
    if rest[:1] != "{":
        return bool(rest), None
    rest = rest[1:].lstrip()
    if rest[:1] != '"':
        return bool(rest), None
    i = 1
    while i < len(rest):
        if rest[i] == "\\":
            i += 2
        elif rest[i] == '"':
            try:
                key = json.loads(rest[: i + 1])
            except ValueError:
                return True, None
            return True, key if isinstance(key, str) else None
        else:
            i += 1
    return False, None
