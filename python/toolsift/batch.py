"""``parse_many``: many texts at once on native threads.

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
from .errors import ToolsiftError
from .model import ParseResult
from .parsing import ParseRequest, _request, checked_names, parse
from .strategies.api_shapes import API_TOOL_CALL
from .streaming import DEFAULT_LIMITS, unwrap_calls

__all__ = ["parse_groups", "parse_many"]

#: Bytes of text a slice of the native schedule holds at least.
MIN_SLICE_BYTES = 65_536


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

    The texts are borrowed by Rust (their UTF-8 bytes, no copy) and cut into slices;
    ``workers - 1`` helper threads (started on first use and kept) parse slices without the
    GIL while the calling thread builds the results of each slice, and parses (and builds at
    once) the lowest untaken slice whenever the one it needs is not ready, so ``workers``
    threads are busy at most (default: one per CPU; ``1`` runs everything on the calling
    thread). Results come
    back in input order and are equal, field for field, to those of :func:`toolsift.parse`,
    whatever ``workers`` is. Without ``tools`` the ``ToolCall`` objects are built natively,
    arguments of up to 256 bytes decoded by a Rust reader, longer ones by orjson; with
    ``tools`` they are typed in Python. The whole batch is held in memory: feed a long
    corpus in slices (the CLI uses slices of about 8 MB).
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
    native: list[tuple[int, ParseRequest, list[str]]] = []
    for g, (syntax, texts) in enumerate(groups):
        names = checked_names(syntax)
        items = texts if isinstance(texts, list) else list(texts)
        if API_TOOL_CALL in names:
            if names == [API_TOOL_CALL] or not all(isinstance(t, str) for t in items):
                # Provider response objects: read in Python, one by one, as ``parse`` does.
                out[g] = [parse(t, names, **options) for t in items]
                continue
            names.remove(API_TOOL_CALL)
        # The thread's cached request: building one per group (an engine each, which the
        # schedule never uses) was 0.23 ms of a 28-syntax corpus, serial work before any parsing.
        request = _request(names, options)
        if any(options.get(limit) is not None for limit in DEFAULT_LIMITS):
            # The native schedule runs the default limits; other limits are honoured text by
            # text on the calling thread (correct, not parallel).
            out[g] = [parse(t, names, **options) for t in items]
            continue
        native.append((g, request, items))
    if native:
        _run_native(native, n, out)
    return out


def _run_native(
    jobs: list[tuple[int, ParseRequest, list[str]]], workers: int, out: list[list[ParseResult]]
) -> None:
    """Every group on one native schedule (``_native.BatchRun``): ``workers - 1`` threads
    parse slices without the GIL while this thread builds each slice's results, and parses
    (and builds at once) the lowest untaken slice when the one it needs is not ready. Slices
    come out in order; results equal ``parse``'s."""
    run = _native.BatchRun(
        [
            (
                items,
                r.names,
                r.marker,
                r.max_payload_chars,
                r.parser._schemas is None,
                r._as_is,
                r.parser._known_tools,
            )
            for _, r, items in jobs
        ],
        workers=workers,
        min_slice_bytes=MIN_SLICE_BYTES,
    )
    for k, start, found, fixed in run:
        g, request, items = jobs[k]
        # An ``_as_is`` group's results come built (``ParseResult``s, see ``BatchRun``).
        if request._as_is and not request._unwraps and not fixed:
            out[g] += found
            continue
        build, finish = request.parser._result_of, request.finish
        built = request.parser._schemas is None
        results = found if request._as_is else [build(*f, built=built) for f in found]
        if request._unwraps:
            for result in results:
                unwrap_calls(result.calls)
        if fixed or request.first_only or request.id_prefix is not None:
            # Texts read with lone surrogates replaced take each call's raw text from the
            # caller's own text (``fix_raw``).
            fix = set(fixed)
            texts = items[start : start + len(found)]
            results = [
                finish(t, r, fix_raw=i in fix)
                for i, (t, r) in enumerate(zip(texts, results, strict=True))
            ]
        out[g] += results
