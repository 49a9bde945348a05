"""Streaming events: what :class:`toolsift.StreamParser` reports as text arrives.

Every event names its segment (``text_0``, ``call_0``, ``reasoning_0``, …). A call segment's id
is the id of the :class:`~toolsift.ToolCall` it ends with. The start and delta events are small
frozen classes built by the Rust engine (a stream of short deltas creates many of them);
``SegmentEnd`` too, which carries the ``ToolCall`` or ``ParseIssue`` (it compares, hashes and
prints field by field, as a frozen dataclass would).
"""

from __future__ import annotations

from ._native import ArgumentDelta, ArgumentsJsonDelta, SegmentEnd, SegmentStart, TextDelta

__all__ = [
    "ArgumentDelta",
    "ArgumentsJsonDelta",
    "Event",
    "SegmentEnd",
    "SegmentStart",
    "TextDelta",
]


Event = SegmentStart | TextDelta | ArgumentDelta | ArgumentsJsonDelta | SegmentEnd
