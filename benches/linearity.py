"""Proof of linear time on adversarial inputs: each case is timed at size n and 4n, and the ratio
of the times must stay at or under 4.5 (4 is linear; the slack absorbs cache and allocator
effects). Run it as a script:

    .venv/bin/python benches/linearity.py                 # print the table
    .venv/bin/python benches/linearity.py --write BENCHMARKS.md --check

``--write`` replaces this script's marked section of BENCHMARKS.md; ``--check`` exits 1 when a
ratio is over the bound. Cases with a fragment run every syntax and report the worst one. Times
are the best of ``--repeat`` runs (the least disturbed by other work on the machine).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from report_parts import cpu_model, write_section

import toolsift
from toolsift import StreamParser
from toolsift.streaming import ENGINE_SYNTAXES

BEGIN = "<!-- linearity.py:begin -->"
END = "<!-- linearity.py:end -->"
TITLE = "# Benchmarks"
BOUND = 4.5
#: Runs shorter than this at 4n are not used to judge growth when longer ones exist.
FLOOR = 0.02
ALL = ENGINE_SYNTAXES  # the text syntaxes


def hermes_call(arguments: dict[str, object]) -> str:
    return f"<tool_call>{json.dumps({'name': 'f', 'arguments': arguments})}</tool_call>"


def parse_with(syntax: str, **options: object) -> Callable[[str], object]:
    return lambda text: toolsift.parse(text, syntax, **options)


def one_byte_chunks(text: str) -> object:
    parser = StreamParser("hermes", previews=False, keep_result=False)
    for ch in text:
        parser.feed(ch)
    return parser.finish()


@dataclass
class Case:
    name: str
    #: Builds the input of size (about) n.
    build: Callable[[int], str]
    #: n for the small run; the large one is 4n.
    n: int
    #: Syntaxes to run (the worst ratio is reported), or one runner for the whole text.
    syntaxes: tuple[str, ...] = ALL
    runner: Callable[[str], object] | None = None


CASES = [
    Case(
        "string value of n bytes (n = 10 MB)",
        lambda n: hermes_call({"content": "x" * n}),
        10 << 20,
        runner=parse_with("hermes", max_call_bytes=0, max_segment_bytes=0),
    ),
    Case(
        "nesting n deep in a call (n = 20,000)",
        lambda n: hermes_call({}).replace("{}", '{"a": ' + "[" * n + "]" * n + "}"),
        20_000,
        runner=parse_with("hermes", max_depth=0),
    ),
    Case("n x '<' (n = 500,000)", lambda n: "<" * n, 500_000),
    Case("n x '{' (n = 500,000)", lambda n: "{" * n, 500_000),
    Case("n x '^^^' (n = 500,000)", lambda n: "^^^" * n, 500_000),
    Case("n x '[TOOL_CALLS]' (n = 500,000)", lambda n: "[TOOL_CALLS]" * n, 500_000),
    Case(
        "marker never closed, n bytes after it (n = 8 MB)",
        lambda n: "<tool_call>" + '{"name": "f", "arguments": {"a": "' + "y" * n,
        8 << 20,
        runner=parse_with("hermes", max_segment_bytes=0),
    ),
    Case(
        "lone surrogates and NULs, n units (n = 5,000)",
        lambda n: ("\x00\ud800 " + hermes_call({"a": "\x00"}) + "\udc00") * n,
        5_000,
        ("hermes", "tool_call_json", "mistral", "pythonic"),
    ),
    Case(
        "n tiny calls (n = 25,000)",
        lambda n: hermes_call({}) * n,
        25_000,
        runner=parse_with("hermes", max_calls=0),
    ),
    Case(
        "n bytes fed one character at a time (n = 256 KB)",
        lambda n: ("prose " + hermes_call({"a": "é" * 20}) + "\n") * (n // 50),
        1 << 18,
        runner=one_byte_chunks,
    ),
]


def keep_freed_memory() -> bool:
    """Asks glibc to serve every allocation from its heap and never give memory back, so the
    repeats of a case reuse pages instead of faulting in fresh ones: glibc maps buffers over
    32 MB anew each time, and the kernel's page faults then grow faster than the input (a
    10 MB -> 40 MB string value measured 5.8x with them, 4x without). The first run of each
    size still pays them; the best of the repeats does not."""
    name = ctypes.util.find_library("c")
    if not name or platform.system() != "Linux":
        return False
    libc = ctypes.CDLL(name)
    m_trim_threshold, m_mmap_max = -1, -4
    return bool(libc.mallopt(m_mmap_max, 0)) and bool(libc.mallopt(m_trim_threshold, 1 << 40))


def cpu_time(run: Callable[[str], object], text: str) -> float:
    # CPU time of this process: on a shared machine, wall time also counts other work.
    started = time.process_time()
    run(text)
    return time.process_time() - started


def measure(case: Case, repeat: int) -> tuple[str, int, float, float]:
    """``(worst syntax, size of the large input, t(n), t(4n))`` for the worst ratio among the
    runs that take at least ``FLOOR`` at 4n (shorter ones say more about timer noise than about
    growth; when every run is shorter, the worst of them is shown)."""
    small, large = case.build(case.n), case.build(4 * case.n)
    runners = (
        [("-", case.runner)]
        if case.runner is not None
        else [(s, parse_with(s)) for s in case.syntaxes]
    )
    timed = []
    for syntax, run in runners:
        # Small and large alternate, so a burst of other work on the machine hits both.
        t_small = t_large = float("inf")
        for _ in range(repeat):
            t_small = min(t_small, cpu_time(run, small))
            t_large = min(t_large, cpu_time(run, large))
        timed.append((t_large >= FLOOR, t_large / max(t_small, 1e-6), syntax, t_small, t_large))
    _, _, syntax, t_small, t_large = max(timed)
    return syntax, len(large), t_small, t_large


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="replace the marked section of this file")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a ratio > {BOUND}")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warm = keep_freed_memory()
    rows, failed = [], False
    for case in CASES:
        syntax, size, t_small, t_large = measure(case, args.repeat)
        ratio = t_large / max(t_small, 1e-6)
        ok = ratio <= BOUND
        failed |= not ok
        row = (
            f"| {case.name} | {syntax} | {size:,} | {t_small * 1000:.1f} | "
            f"{t_large * 1000:.1f} | {ratio:.2f} | {'ok' if ok else 'OVER'} |"
        )
        print(row, flush=True)
        rows.append(row)
    section = "\n".join(
        [
            "## Linear time on adversarial inputs (`benches/linearity.py`)",
            "",
            f"Best of {args.repeat} runs of process CPU time; t(n) and t(4n) in ms; the bound is"
            f" t(4n)/t(n) <= {BOUND}. Cases over every syntax show the syntax with the worst"
            f" ratio among those taking at least {FLOOR * 1000:.0f} ms at 4n (shorter runs measure"
            " timer noise). Small and large runs alternate. Everything runs through the public"
            " API (`toolsift.parse`, or"
            " `StreamParser.feed` for the one-character case), Python objects included.",
            f"Machine: {cpu_model()}, Python {platform.python_version()}; freed memory kept by"
            f" glibc for reuse: {'yes' if warm else 'no'} (see `keep_freed_memory`).",
            "",
            "| case | worst syntax | bytes at 4n | t(n) ms | t(4n) ms | ratio | |",
            "|---|---|---:|---:|---:|---:|---|",
            *rows,
            "",
        ]
    )
    if args.write:
        write_section(args.write, TITLE, BEGIN, END, section + "\n")
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
