"""The sentinel peer row of ``batch_compare.py`` split by kind of reply: where toolsift's
ratio to autobyteus is made.

The replies are ``stream_compare.sentinel_docs(n)``, split by what their segments are:

- ``tool``: ``tool`` segments only (a call's name and arguments in the header), no
  ``write_file`` anywhere;
- ``file``: no ``tool`` segment (``write_file`` and ``run_bash`` bodies);
- ``mixed``: a ``tool`` segment and ``write_file`` in one reply: most often a ``write_file``
  tool whose header's arguments JSON holds the whole file, escaped, sometimes a ``tool``
  segment beside a file segment.

Each kind is timed as ``batch_compare.py`` times the whole row (toolsift's
``parse_many(texts, "sentinel", workers=1)`` reading every call's name and arguments; the peer
one reply at a time), warm, collector off; toolsift best of 40, the peer best of 5.

    python benches/sentinel_kinds.py            # 1,000 replies
    python benches/batch_instructions.py sentinel_tool sentinel_file sentinel_mixed

The second command counts instructions a reply for each kind (callgrind).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

KINDS = ("tool", "file", "mixed")


def kind_of(text: str) -> str:
    """Which of ``KINDS`` a sentinel reply is."""
    tool = '"type": "tool"' in text
    if not tool:
        return "file"
    return "mixed" if '"write_file"' in text else "tool"


def texts_of(kind: str, n: int) -> list[str]:
    """The replies of ``kind`` among the first ``n`` sentinel replies."""
    from stream_compare import sentinel_docs

    return [d.text for d in sentinel_docs(n) if kind_of(d.text) == kind]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="sentinel replies to split")
    args = ap.parse_args()
    from batch_compare import best_of_each
    from stream_compare import autobyteus_runner

    import toolsift

    run = autobyteus_runner("sentinel")
    if run is None:
        sys.exit("autobyteus is not installed (pip install -e '.[bench]')")
    print("| replies | count | bytes each | toolsift | autobyteus | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in KINDS:
        texts = texts_of(kind, args.n)
        if not texts:
            continue

        def ts(t: list[str] = texts) -> Any:
            return [
                [(c.name, c.arguments) for c in r.calls]
                for r in toolsift.parse_many(t, "sentinel", workers=1)
            ]

        def peer(t: list[str] = texts) -> Any:
            return [run([x]) for x in t]

        # Each timed run after an untimed one of its own, collector off (`best_of_each`).
        mine = best_of_each([ts], 40, warm=True)[0].wall
        theirs = best_of_each([peer], 5, warm=True)[0].wall
        size = sum(len(t.encode()) for t in texts) / len(texts)
        each = 1e6 / len(texts)
        print(
            f"| {kind} | {len(texts)} | {size:,.0f} | {mine * each:.2f} us "
            f"| {theirs * each:.1f} us | {theirs / mine:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
