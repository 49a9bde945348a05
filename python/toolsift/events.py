"""Streaming events: what :class:`toolsift.StreamParser` reports as text arrives.

Every event names its segment (``text_0``, ``call_0``, ``reasoning_0``, …). A call segment's id
is the id of the :class:`~toolsift.ToolCall` it ends with. The start and delta events are small
frozen classes built by the Rust engine (a stream of short deltas creates many of them);
``SegmentEnd``, which carries the ``ToolCall``, is built here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._native import ArgumentDelta, ArgumentsJsonDelta, SegmentStart, TextDelta
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
class SegmentEnd:
    """A segment ends with its call, or the issue that explains why it is not one (a call
    may carry an issue too, such as a missing end marker)."""

    segment_id: str
    call: ToolCall | None = None
    issue: ParseIssue | None = None


Event = SegmentStart | TextDelta | ArgumentDelta | ArgumentsJsonDelta | SegmentEnd
