"""A one-line progress bar on stderr (no dependency): redrawn at most ten times a second,
shown only when stderr is a terminal unless forced."""

from __future__ import annotations

import sys
import time
from typing import IO

__all__ = ["Progress"]


class Progress:
    """Bytes done of ``total``, with the rate; ``close()`` ends the line."""

    def __init__(self, total: int, enabled: bool | None = None, out: IO[str] | None = None) -> None:
        self.out = out or sys.stderr
        self.enabled = self.out.isatty() if enabled is None else enabled
        self.total = max(total, 1)
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0

    def advance(self, nbytes: int) -> None:
        self.done += nbytes
        now = time.perf_counter()
        if self.enabled and now - self._last >= 0.1:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        share = min(self.done / self.total, 1.0)
        filled = int(share * 30)
        rate = self.done / 1e6 / max(now - self.start, 1e-9)
        bar = "#" * filled + "." * (30 - filled)
        mb = f"{self.done / 1e6:.1f}/{self.total / 1e6:.1f} MB"
        self.out.write(f"\r[{bar}] {share:4.0%} {mb} {rate:.1f} MB/s")
        self.out.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.perf_counter())
            self.out.write("\n")
            self.out.flush()
