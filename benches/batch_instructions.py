"""Instructions per reply, toolsift's batch against the peers, counted by callgrind.

Wall-clock ratios on a shared 2-core VM moved by up to 2x between runs minutes apart (see
BENCHMARKS.md, issue 7); instruction counts do not move with the machine. This runs each
workload of ``batch_compare.py``'s peers table (the same replies, the same calls: toolsift's
``parse_many(texts, syntax, workers=1)`` reading every call's name and arguments, and the
peer one reply at a time) under ``valgrind --tool=callgrind`` for 1 and for 4 passes, and
reports (4 passes - 1 pass) / 3 divided by the number of replies: start-up, imports and
building the corpus cancel out.

    python benches/batch_instructions.py                # every workload, 300 replies each
    python benches/batch_instructions.py sentinel -n 100

Needs ``valgrind`` on the PATH and the ``bench`` extra (selectools, autobyteus).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

WORKLOADS = ["tool_call_json", "xml_tool", "sentinel", "json_openai"]


def runners(workload: str, n: int) -> dict[str, Callable[[], Any]]:
    """toolsift's pass and the peer's pass over ``n`` replies of ``workload``."""
    import toolsift

    if workload == "tool_call_json":
        from batch_compare import tool_call_responses

        texts = [t for t, _, _ in tool_call_responses(n)]

        def ts() -> Any:
            return [
                (r.calls[0].name, r.calls[0].arguments) if r.calls else None
                for r in toolsift.parse_many(texts, "tool_call_json", workers=1)
            ]

        import selectools.parser as sel

        parser = sel.ToolCallParser(marker="TOOL_CALL", max_payload_chars=8000)

        def peer() -> Any:
            out = []
            for t in texts:
                call = parser.parse(t).tool_call
                out.append(None if call is None else (call.tool_name, call.parameters))
            return out

        return {"toolsift": ts, "selectools": peer}
    from stream_compare import autobyteus_runner, json_docs, sentinel_docs, xml_tool_docs

    docs = {"xml_tool": xml_tool_docs, "sentinel": sentinel_docs}.get(workload)
    made = docs(n) if docs else json_docs(workload.split("_", 1)[1], n)
    texts = [d.text for d in made]
    run = autobyteus_runner(workload)
    assert run is not None, "autobyteus is not installed (pip install -e '.[bench]')"

    def ts_other() -> Any:
        return [
            [(c.name, c.arguments) for c in r.calls]
            for r in toolsift.parse_many(texts, workload, workers=1)
        ]

    return {"toolsift": ts_other, "autobyteus": lambda: [run([x]) for x in texts]}


def child(workload: str, who: str, n: int, passes: int) -> None:
    """One counted run: ``passes`` passes of ``who`` over the workload."""
    fn = runners(workload, n)[who]
    gc.disable()
    for _ in range(passes):
        fn()


def count(workload: str, who: str, n: int, passes: int) -> int:
    """Instructions callgrind collected for a child run."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        workload,
        who,
        str(n),
        str(passes),
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_reply(workload: str, who: str, n: int) -> float:
    # One uncounted run first: a first import compiles the modules' bytecode, which would
    # count in the 1-pass run only (it made a 70k-instruction reply read 62k).
    warm = [sys.executable, __file__, "--child", workload, who, str(n), "0"]
    subprocess.run(warm, check=True, capture_output=True)
    one, four = count(workload, who, n, 1), count(workload, who, n, 4)
    return (four - one) / 3 / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    ap.add_argument("-n", type=int, default=300, help="replies per workload")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        workload, who, n, passes = args.child
        child(workload, who, int(n), int(passes))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH")
    print(
        "| workload | replies | toolsift instructions a reply | peer | peer instructions a reply "
        "| peer ÷ toolsift |"
    )
    print("|---|---:|---:|---|---:|---:|")
    for workload in args.workloads:
        who = next(w for w in runners(workload, 1) if w != "toolsift")
        ts = per_reply(workload, "toolsift", args.n)
        peer = per_reply(workload, who, args.n)
        print(
            f"| {workload} | {args.n} | {ts:,.0f} | {who} | {peer:,.0f} | {peer / ts:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
