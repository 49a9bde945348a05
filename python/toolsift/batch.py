"""``parse_many``: many texts at once on the native thread pool.

>>> from toolsift import parse_many
>>> texts = ['TOOL_CALL: {"tool": "a", "params": {}}', "no call here"]
>>> [[c.name for c in r.calls] for r in parse_many(texts)]
[['a'], []]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import _native
from ._text import without_surrogates
from .errors import ToolsiftError
from .model import ParseIssue, ParseResult
from .parsing import ParseRequest, checked_names, parse
from .strategies.api_shapes import API_TOOL_CALL
from .streaming import DEFAULT_LIMITS

__all__ = ["parse_groups", "parse_many"]

SLICES = 16
MIN_SLICE_CHARS = 64_000
#: Slices handed to the pool before the oldest one's results are built.
IN_FLIGHT = 4


def check_workers(workers: int | None) -> int | None:
    """``workers`` as the native side takes it; raises :class:`toolsift.ToolsiftError` below 1."""
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ToolsiftError(f"workers must be a positive int, not {workers!r}", reason="bad_option")
    return workers


def parse_many(
    texts: Iterable[str],
    syntax: str | Sequence[str] | None = None,
    *,
    tools: Iterable[Mapping[str, Any]] | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[ParseResult]:
    """``[parse(t, syntax, tools=tools, **options) for t in texts]``, computed in parallel.

    ``syntax`` is what :func:`toolsift.parse` takes (``None``: ``TOOLSIFT_SYNTAX``, else
    ``tool_call_json``; ``"auto"``; a list). Provider response objects (``api_tool_call``
    alone, or items that are not text) are read in Python one by one.

    The texts are copied into Rust, the GIL is released, and each text is parsed by its own
    engine on a pool of ``workers`` threads (default: one per CPU; ``1`` runs on the calling
    thread). Results come back in input order and are equal, field for field, to those of
    :func:`toolsift.parse`, whatever ``workers`` is. Arguments are then decoded with orjson
    and typed by ``tools`` in Python (measured faster than building the objects in Rust; see
    BENCHMARKS.md). The whole batch is held in memory: feed a long corpus in slices (the CLI
    uses slices of about 8 MB).
    """
    return parse_groups([(syntax, texts)], tools=tools, workers=workers, **options)[0]


def parse_groups(
    groups: Sequence[tuple[str | Sequence[str] | None, Iterable[Any]]],
    *,
    tools: Iterable[Mapping[str, Any]] | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[list[ParseResult]]:
    """``[parse_many(texts, syntax, ...) for syntax, texts in groups]`` as one schedule: a
    corpus whose transcripts are in several syntaxes (the CLI's case) keeps the pool busy
    across groups instead of draining it at the end of each.

    >>> [[len(r.calls) for r in rs] for rs in parse_groups([("hermes", ["x"]), (None, [])])]
    [[0], []]
    """
    workers = check_workers(workers)
    if tools is not None:
        options["tools"] = tools
    n = workers if workers is not None else (os.cpu_count() or 1)
    out: list[list[ParseResult]] = [[] for _ in groups]
    jobs: list[tuple[int, ParseRequest, list[str], int, int]] = []
    for g, (syntax, texts) in enumerate(groups):
        names = checked_names(syntax)
        items = texts if isinstance(texts, list) else list(texts)
        if API_TOOL_CALL in names:
            if names == [API_TOOL_CALL] or not all(isinstance(t, str) for t in items):
                # Provider response objects: read in Python, one by one, as ``parse`` does.
                out[g] = [parse(t, names, **options) for t in items]
                continue
            names.remove(API_TOOL_CALL)
        request = ParseRequest(names, options)
        if any(options.get(limit) is not None for limit in DEFAULT_LIMITS):
            # The native pool runs the default limits; other limits are honoured text by
            # text on the calling thread (correct, not parallel).
            out[g] = [parse(t, names, **options) for t in items]
            continue
        if n == 1:
            out[g] = _sequential(items, request)
        else:
            jobs += [(g, request, items, lo, hi) for lo, hi in _slices(items)]
    if jobs:
        _pipelined(jobs, n, out)
    return out


def _native_options(request: ParseRequest) -> dict[str, Any]:
    # Without a tools schema the calls are built natively as ``ToolCall``s, as ``parse`` does.
    return {
        "marker": request.marker,
        "max_payload_chars": request.max_payload_chars,
        "tool_calls": request.parser._schemas is None,
    }


def _sequential(items: list[str], request: ParseRequest) -> list[ParseResult]:
    """One native call on the calling thread, then the Python objects."""
    fix_raw = False
    try:
        raw = _native.parse_many(items, request.names, workers=1, **_native_options(request))
    except UnicodeEncodeError:
        # Rare: a text with lone surrogates. Replaced one for one, so offsets stay valid,
        # and each call's raw text is then taken from the caller's own text.
        fix_raw = True
        fixed = [without_surrogates(t) for t in items]
        raw = _native.parse_many(fixed, request.names, workers=1, **_native_options(request))
    return _build(items, raw, request, fix_raw)


def _build(
    items: list[str],
    raw: list[tuple[str, list[Any], list[ParseIssue]]],
    request: ParseRequest,
    fix_raw: bool,
) -> list[ParseResult]:
    build, finish = request.parser._result_of, request.finish
    built = request.parser._schemas is None
    return [
        finish(text, build(*found, built=built), fix_raw=fix_raw)
        for text, found in zip(items, raw, strict=True)
    ]


def _slices(items: list[str]) -> list[tuple[int, int]]:
    """Cuts ``items`` into runs of about 1/16 of the text (at least ``MIN_SLICE_CHARS``), so
    building one run's Python objects overlaps parsing the next."""
    total = sum(map(len, items))
    target = max(total // SLICES, MIN_SLICE_CHARS)
    cuts, start, size = [], 0, 0
    for i, text in enumerate(items):
        size += len(text)
        if size >= target:
            cuts.append((start, i + 1))
            start, size = i + 1, 0
    if start < len(items) or not cuts:
        cuts.append((start, len(items)))
    return cuts


def _start(request: ParseRequest, part: list[str], workers: int) -> tuple[Any, bool]:
    options = _native_options(request)
    try:
        return _native.start_many(part, request.names, workers=workers, **options), False
    except UnicodeEncodeError:
        fixed = [without_surrogates(t) for t in part]
        return _native.start_many(fixed, request.names, workers=workers, **options), True


def _pipelined(
    jobs: list[tuple[int, ParseRequest, list[str], int, int]],
    workers: int,
    out: list[list[ParseResult]],
) -> None:
    """Slices on the native pool, ``IN_FLIGHT`` ahead: while the pool parses them, this thread
    (which must hold the GIL to build Python objects) builds the results of the oldest. With
    only one slice ahead, the pool sat idle whenever it finished before the objects of the
    previous slice were built. The results are the same as ``_sequential``'s; only the
    schedule differs."""
    pending: list[tuple[Any, bool]] = []
    ahead = 0
    for g, request, items, lo, hi in jobs:
        while ahead < len(jobs) and len(pending) < IN_FLIGHT:
            _, r, its, a, b = jobs[ahead]
            pending.append(_start(r, its[a:b], workers))
            ahead += 1
        batch, fix_raw = pending.pop(0)
        out[g] += _build(items[lo:hi], batch.collect(), request, fix_raw)
