"""``toolsift extract``: read inputs in slices, parse each slice with ``parse_many`` (grouped
by syntax), write the rows in input order, and keep the summary."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

from .._native import utf8_len
from ..batch import parse_groups
from ..model import ParseResult
from .inputs import BadRecord, ReadOptions, Unit, expand, read
from .outputs import JsonlWriter, ParquetWriter, rows_of
from .progress import Progress
from .summary import Summary

__all__ = ["ExtractOptions", "InputError", "run_extract"]

SLICE_BYTES = 8_000_000  # text per parse_many call: big enough to keep the pool busy
SLICE_TEXTS = 20_000


class InputError(Exception):
    """A bad record under ``--on-error fail``."""


class Writer(Protocol):
    def write(self, rows: list[dict[str, Any]]) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class ExtractOptions:
    paths: Sequence[str]
    output: str
    output_format: str | None
    syntax: tuple[str, ...]
    read: ReadOptions
    tools: list[Mapping[str, Any]] | None
    marker: str | None
    workers: int | None
    on_error: str
    progress: bool | None


def load_tools(path: str) -> list[Mapping[str, Any]]:
    """OpenAI-style tool definitions: a JSON list, or an object with a ``tools`` list."""
    data = orjson.loads(Path(path).read_bytes())
    if isinstance(data, dict):
        data = data.get("tools")
    if not isinstance(data, list):
        raise BadRecord(f"{path}: expected a list of tool definitions or {{'tools': [...]}}")
    return data


def _writer(options: ExtractOptions) -> Writer:
    fmt = options.output_format or ("parquet" if options.output.endswith(".parquet") else "jsonl")
    if fmt == "parquet":
        if options.output == "-":
            raise OSError("Parquet output needs a file name (-o calls.parquet)")
        return ParquetWriter(options.output)
    return JsonlWriter(options.output)


def _parse_slice(units: list[Unit], options: ExtractOptions, summary: Summary) -> list[ParseResult]:
    """Results in unit order; each syntax's texts form one group of ``parse_groups``."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for n, unit in enumerate(units):
        groups.setdefault(unit.syntax or options.syntax, []).append(n)
    results: list[ParseResult | None] = [None] * len(units)
    start = time.perf_counter()
    keys = list(groups)
    found = parse_groups(
        [
            (
                list(k),
                [
                    units[i].text if units[i].response is None else units[i].response
                    for i in groups[k]
                ],
            )
            for k in keys
        ],
        tools=options.tools,
        workers=options.workers,
        marker=options.marker,
    )
    for key, group_results in zip(keys, found, strict=True):
        for i, result in zip(groups[key], group_results, strict=True):
            results[i] = result
    summary.parse_seconds += time.perf_counter() - start
    return [r for r in results if r is not None]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block, if it was on. The records read, the results
    and the rows hold no reference cycles (refcounting frees them all), but they are many
    container objects, and the collections their allocation set off walked every live one
    again: 15% of an extraction of the sample corpus."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def run_extract(options: ExtractOptions) -> Summary:
    """Runs the extraction; raises :class:`InputError` on a bad record under ``fail``."""
    started = time.perf_counter()
    summary = Summary()
    files = expand(options.paths)
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise OSError(f"no such file: {missing[0]}")
    progress = Progress(sum(f.stat().st_size for f in files), options.progress)

    def on_bad(source: str, line: int | None, reason: str) -> None:
        where = f"{source}:{line}" if line is not None else source
        if options.on_error == "fail":
            raise InputError(f"{where}: {reason}")
        summary.bad_records += 1
        sys.stderr.write(f"{where}: skipped: {reason}\n")

    writer = _writer(options)
    pending: list[Unit] = []
    pending_bytes = 0

    def flush() -> None:
        nonlocal pending, pending_bytes
        results = _parse_slice(pending, options, summary)
        rows: list[dict[str, Any]] = []
        for unit, result in zip(pending, results, strict=True):
            summary.add(result)
            rows += rows_of(unit, result)
        writer.write(rows)
        pending, pending_bytes = [], 0

    try:
        # No reference cycles are made here (see `collector_paused`).
        with collector_paused():
            for file in files:
                summary.files += 1
                for units, nbytes in read(file, options.read, on_bad):
                    progress.advance(nbytes)
                    if units is None:
                        continue
                    summary.records += 1
                    summary.texts += len(units)
                    for unit in units:
                        pending.append(unit)
                        size = utf8_len(unit.text)
                        pending_bytes += size
                        summary.text_bytes += size
                    if pending_bytes >= SLICE_BYTES or len(pending) >= SLICE_TEXTS:
                        flush()
            if pending:
                flush()
    finally:
        writer.close()
        progress.close()
    summary.seconds = time.perf_counter() - started
    return summary
