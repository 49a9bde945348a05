"""``parse_many``: many texts at once on the native thread pool.

>>> from toolsift import parse_many
>>> texts = ['TOOL_CALL: {"tool": "a", "params": {}}', "no call here"]
>>> [[c.name for c in r.calls] for r in parse_many(texts)]
[['a'], []]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import _native
from ._text import without_surrogates
from .errors import ToolsiftError
from .model import ParseResult
from .parsing import TOOL_CALL_JSON, ParseRequest

__all__ = ["parse_many"]


def check_workers(workers: int | None) -> int | None:
    """``workers`` as the native side takes it; raises :class:`toolsift.ToolsiftError` below 1."""
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ToolsiftError(f"workers must be a positive int, not {workers!r}", reason="bad_option")
    return workers


def parse_many(
    texts: Iterable[str],
    syntax: str | Sequence[str] = TOOL_CALL_JSON,
    *,
    tools: Iterable[Mapping[str, Any]] | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[ParseResult]:
    """``[parse(t, syntax, tools=tools, **options) for t in texts]``, computed in parallel.

    The texts are copied into Rust, the GIL is released, and each text is parsed by its own
    engine on a pool of ``workers`` threads (default: one per CPU; ``1`` runs on the calling
    thread). Results come back in input order and are equal, field for field, to those of
    :func:`toolsift.parse`, whatever ``workers`` is. Arguments are then decoded with orjson
    and typed by ``tools`` in Python (measured faster than building the objects in Rust; see
    BENCHMARKS.md). The whole batch is held in memory: feed a long corpus in slices (the CLI
    uses slices of about 8 MB).
    """
    workers = check_workers(workers)
    if tools is not None:
        options["tools"] = tools
    request = ParseRequest(syntax, options)
    items = texts if isinstance(texts, list) else list(texts)
    fix_raw = False
    try:
        raw = _native.parse_many(
            items,
            request.names,
            marker=request.marker,
            max_payload_chars=request.max_payload_chars,
            workers=workers,
        )
    except UnicodeEncodeError:
        # Rare: a text with lone surrogates. Replaced one for one, so offsets stay valid,
        # and each call's raw text is then taken from the caller's own text.
        fix_raw = True
        raw = _native.parse_many(
            [without_surrogates(t) for t in items],
            request.names,
            marker=request.marker,
            max_payload_chars=request.max_payload_chars,
            workers=workers,
        )
    build = request.parser._result_of
    finish = request.finish
    return [
        finish(text, build(content, ends), fix_raw=fix_raw)
        for text, (content, ends) in zip(items, raw, strict=True)
    ]
