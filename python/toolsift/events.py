"""Streaming events: what :class:`toolsift.StreamParser` reports as text arrives.

Every event names its segment (``text_0``, ``call_0``, ``reasoning_0``, …). A call segment's id
is the id of the :class:`~toolsift.ToolCall` it ends with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import ParseIssue, ToolCall

__all__ = [
    "ArgumentDelta",
    "ArgumentsJsonDelta",
    "Event",
    "SegmentEnd",
    "SegmentStart",
    "TextDelta",
]


@dataclass(frozen=True, slots=True)
class SegmentStart:
    """A segment begins: ``kind`` is ``text``, ``reasoning``, ``tool_call`` or a file kind."""

    segment_id: str
    kind: str
    syntax: str
    name: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TextDelta:
    """More text of a text or reasoning segment."""

    segment_id: str
    text: str


@dataclass(frozen=True, slots=True)
class ArgumentDelta:
    """More decoded text of the string argument ``key``, as it streams."""

    segment_id: str
    key: str
    text: str


@dataclass(frozen=True, slots=True)
class ArgumentsJsonDelta:
    """A fragment of the arguments' JSON text."""

    segment_id: str
    text: str


@dataclass(frozen=True, slots=True)
class SegmentEnd:
    """A segment ends with its call, or the issue that explains why it is not one (a call
    may carry an issue too, such as a missing end marker)."""

    segment_id: str
    call: ToolCall | None = None
    issue: ParseIssue | None = None


Event = SegmentStart | TextDelta | ArgumentDelta | ArgumentsJsonDelta | SegmentEnd
