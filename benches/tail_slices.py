"""A/B of the batch schedule's shrinking tail slices (``BatchRun(tail_slice_bytes=...)``).

Usage::

    python benches/tail_slices.py [ROUNDS]

Each round runs, in order, the native schedule (``_native.BatchRun``, building the results
as ``parse_many`` does) over fresh copies of the sample corpus with one worker, with two
workers and the default tail (the last slices shrink down to 16 KB), and with two workers
and equal slices (a tail no smaller than the slices), each timed pass after an untimed one
of its own. Prints, for each 2-worker variant, the best 1-worker pass over its best pass
and the median over rounds of the same round's ratio (see ``batch_compare.paired``).
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from typing import Any

from batch_compare import corpus_groups, fresh_copies

from toolsift import _native

#: ``(workers, tail_slice_bytes)`` per variant; 10**9 is clamped to the slice size.
VARIANTS = {"1 worker": (1, 16_384), "2 workers, tail": (2, 16_384), "2 workers, equal": (2, 10**9)}


def run(groups: dict[tuple[str, ...], list[str]], workers: int, tail: int) -> list[Any]:
    batch = [(texts, list(names), None, None, True, True, []) for names, texts in groups.items()]
    return list(_native.BatchRun(batch, workers=workers, tail_slice_bytes=tail))


def main(rounds: int) -> None:
    groups = corpus_groups()
    times: dict[str, list[float]] = {k: [] for k in VARIANTS}
    gc.disable()
    for _ in range(rounds):
        for label, (workers, tail) in VARIANTS.items():
            run(fresh_copies(groups), workers, tail)
            texts = fresh_copies(groups)
            start = time.perf_counter()
            out = run(texts, workers, tail)
            times[label].append(time.perf_counter() - start)
            del out
    one = times["1 worker"]
    print(f"1 worker: best {min(one) * 1e3:.2f} ms")
    for label in ("2 workers, tail", "2 workers, equal"):
        two = times[label]
        median = statistics.median(a / b for a, b in zip(one, two, strict=True))
        print(
            f"{label}: best {min(two) * 1e3:.2f} ms, 2 vs 1 {min(one) / min(two):.3f}x best of "
            f"each, {median:.3f}x median of rounds"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
