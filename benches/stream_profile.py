"""Runs only toolsift's side of ``stream_compare.py``'s autobyteus rows, for profilers.

Usage::

    python benches/stream_profile.py ROW [--docs N] [--passes P] [--time]

``ROW`` is a row label of ``stream_compare.peer_rows`` with spaces and commas as underscores
(``xml_tool``, ``sentinel``, ``sentinel_markers_whole``, ``json_openai``, ...). The inputs are
generated before the loop, so under ``valgrind --tool=callgrind`` (with
``--toggle-collect=*stream_loop*`` or not) or ``perf record`` the loop dominates. ``--time``
prints the best CPU time of one pass and the chunks per pass.
"""

from __future__ import annotations

import argparse
import time

from stream_compare import QUICK, peer_rows, toolsift_stream


def _key(label: str) -> str:
    return label.replace(", ", "_").replace(" ", "_")


def stream_loop(chunks: list[list[str]], syntax: str, passes: int) -> float:
    """Best CPU seconds of one pass over every reply of the row."""
    best = float("inf")
    for _ in range(passes):
        c0 = time.process_time()
        for reply in chunks:
            toolsift_stream(reply, syntax)
        best = min(best, time.process_time() - c0)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row")
    parser.add_argument("--docs", type=int, default=60, help="replies (stream_compare: 60)")
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--time", action="store_true")
    args = parser.parse_args()
    settings = QUICK.__class__(**{**QUICK.__dict__, "docs": args.docs})
    rows = {_key(r.label): r for r in peer_rows(settings)}
    row = rows.get(args.row)
    if row is None:
        parser.error(f"unknown row {args.row!r}; rows: {', '.join(rows)}")
    best = stream_loop(row.chunks, row.syntax, args.passes)
    if args.time:
        n = row.nchunks
        print(
            f"{args.row}: {n} chunks, best pass {best * 1e3:.2f} ms, {best / n * 1e9:.0f} ns/chunk"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
