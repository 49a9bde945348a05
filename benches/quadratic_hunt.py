"""A randomised search for inputs whose parse time grows faster than their size.

Each trial repeats a random fragment (1 to 3 pieces: start markers and tokens from
``SYNTAXES.md``, JSON punctuation) n times, then a second random fragment n times (so that
what the first opens, the second may close), and times one syntax on it at n and 4n, in one
piece (``toolsift.parse``) or streamed in 97-character chunks (``--stream``). A trial whose
time grows more than 7x for 4x the input is timed again at 16n, and reported only if it grows
more than 7x again (a cache or allocator step does not repeat; a quadratic cost does):

    .venv/bin/python benches/quadratic_hunt.py --trials 1500 --seed 2
    .venv/bin/python benches/quadratic_hunt.py --trials 600 --stream

Session 6 found the scanner's stray-closer walk with it (FUZZING.md); since that fix, 1,500
trials in one piece and 600 streamed report nothing. ``--repair`` times ``lenient_loads`` on
runs of broken-JSON pieces after a short prefix (session 24 found two looks in the repair that
read past their lookahead budget with it):

    .venv/bin/python benches/quadratic_hunt.py --repair --trials 400 --seed 1
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import toolsift
from toolsift import StreamParser, _native
from toolsift.streaming import ENGINE_SYNTAXES

SYNTAXES_MD = Path(__file__).resolve().parents[2] / "shared" / "SYNTAXES.md"
TOKEN = re.compile(
    r"<\|[^|\s]{1,40}\|>|</?[A-Za-z_:=.\-]{1,30}>?|\[[A-Z_]{3,20}\]|<｜[^｜]{1,40}｜>"
)
PUNCTUATION = ["{", "}", "[", "]", '"', "\\", ",", ":", "(", ")", "=", "\n", "^^^", "'", " "]
PUNCTUATION += ["a", "<", ">", "/", '{"name": "f", "arguments": {', '"a": ', "f("]
# `--repair`: pieces of broken JSON for `toolsift.lenient_loads` alone (a prefix of up to three
# of them, then two runs), the readings whose lookahead has to stay within the repair's budget.
JSON_PIECES = ["{", "}", "[", "]", '"', "'", ",", ":", " ", "\n", "1", "-", ".", "a", "true"]
JSON_PIECES += ["None", "\\", "/", "*", "#", "+", "(", ")", "```", '"k": ', '"v"', "'v'", "1,2"]
JSON_PIECES += ['x "y', '", ', '": ', '{"a": ', "[1, ", "e", "`", "\u201c", "\u201d", "\u2026"]
JSON_PIECES += ["...", "//c\n", "/*c*/", "0x", "_", "NaN"]


def fragments() -> list[str]:
    found = set(PUNCTUATION)
    if SYNTAXES_MD.exists():
        found.update(TOKEN.findall(SYNTAXES_MD.read_text(encoding="utf-8")))
    for syntax in ENGINE_SYNTAXES:
        found.update(_native.NativeStream.start_markers(syntax))
    return sorted(found)


def cpu(run: Callable[[], object]) -> float:
    """The best of two runs' process CPU time."""
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def streamed(text: str, syntax: str) -> None:
    parser = StreamParser(syntax, keep_result=False)
    for at in range(0, len(text), 97):
        parser.feed(text[at : at + 97])
    parser.finish()


def repaired(text: str) -> None:
    try:
        toolsift.lenient_loads(text)
    except toolsift.JsonRepairError:
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stream", action="store_true", help="feed 97-character chunks")
    ap.add_argument("--repair", action="store_true", help="time lenient_loads on broken JSON")
    args = ap.parse_args()
    rng, found = random.Random(args.seed), 0
    pieces = JSON_PIECES if args.repair else fragments()
    for _ in range(args.trials):
        prefix = ""
        if args.repair:
            prefix = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
        first = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))
        second = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 2)))
        syntax = "lenient_loads" if args.repair else rng.choice(ENGINE_SYNTAXES)

        def timed(
            n: int,
            first: str = first,
            second: str = second,
            syntax: str = syntax,
            prefix: str = prefix,
        ) -> float:
            text = prefix + first * n + second * n
            if args.repair:
                return cpu(lambda: repaired(text))
            if args.stream:
                return cpu(lambda: streamed(text, syntax))
            return cpu(lambda: toolsift.parse(text, syntax))

        n = max(1, (5_000 if args.stream else 20_000) // len(first))
        small = timed(n)
        if small < 0.002:
            n *= 4
            small = timed(n)
        large = timed(4 * n)
        if large / max(small, 1e-4) <= 7 or large < 0.01:
            continue
        larger = timed(16 * n)
        if larger / large <= 7:
            continue
        found += 1
        print(
            f"{syntax} {prefix!r} + {first!r} x n + {second!r} x n: n={n} {small:.4f} s, "
            f"4n {large:.4f} s, "
            f"16n {larger:.4f} s",
            flush=True,
        )
    print(f"{args.trials} trials, {found} superlinear", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
