"""Python view of the Rust balanced-bracket scanner."""

from __future__ import annotations

from typing import Literal, NamedTuple

from . import _native
from ._text import without_surrogates

__all__ = ["JsonSpan", "OpenSpan", "SpanScan", "scan_json_spans"]


class JsonSpan(NamedTuple):
    """A balanced ``{…}`` or ``[…]``: ``text[start:end]``; ``depth`` 0 is outermost."""

    start: int
    end: int
    kind: Literal["object", "array"]
    depth: int
    mismatched: bool


class OpenSpan(NamedTuple):
    """A span still open when the text ends."""

    start: int
    kind: Literal["object", "array"]
    depth: int


class SpanScan(NamedTuple):
    """Spans in closing order (inner before outer), open spans, and the closers they need."""

    spans: list[JsonSpan]
    open: list[OpenSpan]
    closers: str


def scan_json_spans(
    text: str, *, single_quotes: bool = False, max_depth: int = _native.DEFAULT_MAX_DEPTH
) -> SpanScan:
    """Finds every balanced JSON bracket span in ``text`` in one linear pass.

    >>> scan = scan_json_spans('say {"a": [1, "]"]} and {"b": ')
    >>> [(s.start, s.end, s.depth) for s in scan.spans]
    [(10, 18, 1), (4, 19, 0)]
    >>> scan.closers
    '}'

    Offsets are character offsets into ``text``. Raises :class:`toolsift.ScanError` when the
    nesting is deeper than ``max_depth``.
    """
    try:
        spans, opened, closers = _native.scan_json_spans(
            text, single_quotes=single_quotes, max_depth=max_depth
        )
    except UnicodeEncodeError:
        spans, opened, closers = _native.scan_json_spans(
            without_surrogates(text), single_quotes=single_quotes, max_depth=max_depth
        )
    return SpanScan(
        [JsonSpan(s, e, k, d, m) for s, e, k, d, m in spans],  # type: ignore[arg-type]
        [OpenSpan(s, k, d) for s, k, d in opened],  # type: ignore[arg-type]
        closers,
    )
