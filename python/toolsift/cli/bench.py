"""``toolsift bench``: ``parse_many`` throughput on the inputs with 1 and more workers (the
peers' comparison, which needs the ``bench`` extra, is ``benches/batch_compare.py``)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from .._native import utf8_len
from ..batch import parse_many
from .extract import collector_paused
from .inputs import ReadOptions, Unit, expand, read

__all__ = ["load_texts", "run_bench", "throughput"]


def load_texts(paths: Sequence[str], options: ReadOptions) -> list[Unit]:
    """Every text of the inputs (bad records are left out)."""
    units: list[Unit] = []
    for file in expand(paths):
        for found, _ in read(Path(file), options, lambda *_: None):
            units += [u for u in found or [] if u.response is None]
    return units


def throughput(units: list[Unit], default: tuple[str, ...], workers: int, repeat: int) -> float:
    """MB/s of UTF-8 text, best of ``repeat`` passes, garbage collector off while timing."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for u in units:
        groups.setdefault(u.syntax or default, []).append(u.text)
    mb = sum(utf8_len(u.text) for u in units) / 1e6
    best = float("inf")
    with collector_paused():
        for _ in range(repeat):
            start = time.perf_counter()
            for syntax, texts in groups.items():
                parse_many(texts, list(syntax), workers=workers)
            best = min(best, time.perf_counter() - start)
    return mb / best


def run_bench(
    paths: Sequence[str], options: ReadOptions, syntax: tuple[str, ...], repeat: int
) -> str:
    units = load_texts(paths, options)
    mb = sum(utf8_len(u.text) for u in units) / 1e6
    counts = sorted({1, min(2, os.cpu_count() or 1), os.cpu_count() or 1})
    rates = {n: throughput(units, syntax, n, repeat) for n in counts}
    lines = [f"{len(units)} texts, {mb:.2f} MB"]
    lines += [f"  workers={n}: {r:.1f} MB/s ({r / rates[1]:.2f}x of 1)" for n, r in rates.items()]
    return "\n".join(lines)
