"""Pieces both comparison scripts use: optional peers, versions, the CPU, and writing a marked
section of BENCHMARKS.md without touching the other scripts' sections."""

from __future__ import annotations

import importlib
import importlib.metadata
import platform
from pathlib import Path
from typing import Any


def optional_module(module: str) -> Any | None:
    """The module, or None when the peer is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def dist_version(dist: str) -> str:
    """The installed version of a distribution, or ``not installed``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    """The CPU's model name, as the kernel reports it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_section(path: Path, title: str, begin: str, end: str, section: str) -> None:
    """Replaces the text between ``begin`` and ``end`` in ``path``; a file without them gets the
    marked section appended; a missing file is created with ``title``."""
    block = f"{begin}\n{section}{end}"
    if not path.exists():
        path.write_text(f"{title}\n\n{block}\n", encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    start = text.find(begin)
    stop = text.find(end, start + 1) if start >= 0 else -1
    if start >= 0 and stop > start:
        text = text[:start] + block + text[stop + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
