"""``StreamParser``: incremental tool-call extraction over the Rust engine.

>>> p = StreamParser("hermes")
>>> events = p.feed('Sure.<tool_call>{"name": "f", "argu')
>>> events += p.feed('ments": {"q": 1}}</tool_call>')
>>> events += p.finish()
>>> [type(e).__name__ for e in events]
['SegmentStart', 'TextDelta', 'SegmentEnd', 'SegmentStart', 'SegmentEnd']
>>> p.result().calls[0].arguments
{'q': 1}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from . import _native
from ._text import without_surrogates
from .events import (
    ArgumentDelta,
    ArgumentsJsonDelta,
    Event,
    SegmentEnd,
    SegmentStart,
    TextDelta,
)
from .model import ParseIssue, ParseResult, ToolCall

__all__ = ["ENGINE_SYNTAXES", "StreamParser"]

#: Syntaxes the streaming engine runs.
ENGINE_SYNTAXES: tuple[str, ...] = tuple(_native.NativeStream.syntax_names())


class StreamParser:
    """Feeds chunks of model output and returns the events each chunk completes.

    ``syntax`` is one name or several (enabled at once). The result is the same however the
    text is split. ``result()`` gathers the calls, issues and content seen so far; pass
    ``keep_result=False`` to keep only the open segment in memory.

    One parser serves one stream; using it from two threads at once raises ``RuntimeError``
    ("Already borrowed") instead of corrupting its state.
    """

    def __init__(self, syntax: str | Sequence[str], *, keep_result: bool = True) -> None:
        self._syntaxes = [syntax] if isinstance(syntax, str) else list(syntax)
        self._native = _native.NativeStream(self._syntaxes)
        self._keep = keep_result
        self._calls: list[ToolCall] = []
        self._issues: list[ParseIssue] = []
        self._content: list[str] = []
        self._syntax_of: dict[str, str] = {}

    def feed(self, chunk: str) -> list[Event]:
        """Consumes ``chunk``; returns the events it produced."""
        try:
            raw = self._native.feed(chunk)
        except UnicodeEncodeError:
            raw = self._native.feed(without_surrogates(chunk))
        return self._convert(raw)

    def finish(self) -> list[Event]:
        """Ends the stream: flushes held-back text and closes any open segment."""
        return self._convert(self._native.finish())

    def reset(self) -> None:
        """Forgets the stream so the parser can read another."""
        self._native.reset()
        self._calls, self._issues, self._content = [], [], []
        self._syntax_of.clear()

    def result(self) -> ParseResult:
        """The calls, issues and content of everything fed so far."""
        return ParseResult(list(self._calls), "".join(self._content), list(self._issues))

    def _convert(self, raw: list[tuple[Any, ...]]) -> list[Event]:
        events: list[Event] = []
        for item in raw:
            tag = item[0]
            if tag == "text":
                events.append(TextDelta(item[1], item[2]))
                if self._keep and item[1].startswith("text_"):
                    self._content.append(item[2])
            elif tag == "start":
                _, sid, kind, syntax, name, metadata = item
                self._syntax_of[sid] = syntax
                events.append(SegmentStart(sid, kind, syntax, name, dict(metadata)))
            elif tag == "arg":
                events.append(ArgumentDelta(item[1], item[2], item[3]))
            elif tag == "json":
                events.append(ArgumentsJsonDelta(item[1], item[2]))
            else:
                events.append(self._end(item[1], item[2], item[3]))
        return events

    def _end(self, sid: str, call: Any, issue: Any) -> SegmentEnd:
        syntax = self._syntax_of.pop(sid, "text")
        tool_call = None
        parse_issue = None
        if call is not None:
            name, arguments, repairs, start, end, raw = call
            tool_call = ToolCall(
                name, orjson.loads(arguments), sid, syntax, (start, end), raw, tuple(repairs)
            )
            if self._keep:
                self._calls.append(tool_call)
        if issue is not None:
            kind, message, start, end = issue
            parse_issue = ParseIssue(syntax, (start, end), kind, message)
            if self._keep:
                self._issues.append(parse_issue)
        return SegmentEnd(sid, tool_call, parse_issue)
