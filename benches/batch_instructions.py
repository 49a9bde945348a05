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
    python benches/batch_instructions.py --allocations sentinel corpus
    python benches/batch_instructions.py sentinel_tool sentinel_file sentinel_mixed

``sentinel_<kind>`` is the sentinel workload's replies of one kind (see
``sentinel_kinds.py``), of the first ``-n`` replies; reported per reply of that kind.

``--allocations`` counts, for toolsift only, the calls into the native module's allocator
(mimalloc's ``mi_malloc``, ``mi_realloc`` and ``mi_zalloc`` and their ``_aligned`` kin:
every Rust allocation and reallocation) the same way, per reply. The ``corpus`` workload is one
``parse_groups`` pass over the whole sample corpus (``examples/corpus``, every syntax, one
worker; ``-n`` does not apply), reported per text; it has no peer.

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
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

WORKLOADS = ["tool_call_json", "xml_tool", "sentinel", "json_openai"]


def corpus_texts() -> int:
    """Texts in the sample corpus (`examples/corpus`), all of them read by `corpus`."""
    from batch_compare import corpus_groups

    return sum(len(g) for g in corpus_groups().values())


def sentinel_kind(workload: str, n: int) -> list[str] | None:
    """For ``sentinel_<kind>``, the replies of that kind among the first ``n`` sentinel
    replies (see ``sentinel_kinds.py``); ``None`` for any other workload."""
    if not workload.startswith("sentinel_"):
        return None
    from sentinel_kinds import texts_of

    return texts_of(workload.removeprefix("sentinel_"), n)


def replies(workload: str, n: int) -> int:
    """Replies a pass over ``n`` of ``workload`` reads (fewer for one kind of sentinel
    reply)."""
    kind = sentinel_kind(workload, n)
    return n if kind is None else len(kind)


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
    if workload == "corpus":
        from batch_compare import corpus_groups

        from toolsift.batch import parse_groups

        groups = [(list(s), g) for s, g in corpus_groups().items()]

        def corpus() -> Any:
            return parse_groups(groups, workers=1)

        return {"toolsift": corpus}
    from stream_compare import autobyteus_runner, json_docs, sentinel_docs, xml_tool_docs

    kind = sentinel_kind(workload, n)
    if kind is not None:
        texts, workload = kind, "sentinel"
    else:
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


ALLOCATORS = {
    f"mi_{kind}{aligned}"
    for kind in ("malloc", "realloc", "zalloc")
    for aligned in ("", "_aligned")
}


def allocator_calls(out_file: str) -> int:
    """Calls into ``ALLOCATORS`` recorded in a callgrind output file (``calls=`` lines under
    a ``cfn=`` naming one; names are given once, then referred to by number)."""
    names: dict[str, str] = {}
    total, callee = 0, ""
    with open(out_file) as f:
        for line in f:
            if line.startswith(("cfn=", "fn=")):
                found = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
                if found is None:
                    continue
                if found.group(2):
                    names[found.group(1)] = found.group(2)
                if line.startswith("cfn="):
                    callee = names.get(found.group(1), "")
            elif line.startswith("calls=") and callee:
                if callee in ALLOCATORS:
                    total += int(line.split("=", 1)[1].split()[0])
                callee = ""
    return total


def count(workload: str, who: str, n: int, passes: int, allocations: bool = False) -> int:
    """Instructions callgrind collected for a child run (with ``allocations``, the calls
    into ``ALLOCATORS`` instead)."""
    out_file = "/dev/null"
    if allocations:
        fd, out_file = tempfile.mkstemp(suffix=".callgrind")
        os.close(fd)
    cmd = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out_file}",
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
    if allocations:
        try:
            return allocator_calls(out_file)
        finally:
            os.unlink(out_file)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_reply(workload: str, who: str, n: int, allocations: bool = False) -> float:
    # One uncounted run first: a first import compiles the modules' bytecode, which would
    # count in the 1-pass run only (it made a 70k-instruction reply read 62k).
    warm = [sys.executable, __file__, "--child", workload, who, str(n), "0"]
    subprocess.run(warm, check=True, capture_output=True)
    one = count(workload, who, n, 1, allocations)
    four = count(workload, who, n, 4, allocations)
    return (four - one) / 3 / replies(workload, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    ap.add_argument("-n", type=int, default=300, help="replies per workload")
    ap.add_argument(
        "--allocations", action="store_true", help="count toolsift's Rust allocations instead"
    )
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        workload, who, n, passes = args.child
        child(workload, who, int(n), int(passes))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH")
    if args.allocations:
        print("| workload | replies | toolsift allocations a reply (or text) |")
        print("|---|---:|---:|")
        for workload in args.workloads:
            n = corpus_texts() if workload == "corpus" else args.n
            got = per_reply(workload, "toolsift", n, allocations=True)
            print(f"| {workload} | {n} | {got:.1f} |", flush=True)
        return
    print(
        "| workload | replies | toolsift instructions a reply | peer | peer instructions a reply "
        "| peer ÷ toolsift |"
    )
    print("|---|---:|---:|---|---:|---:|")
    for workload in args.workloads:
        if workload == "corpus":
            n = corpus_texts()
            ts = per_reply(workload, "toolsift", n)
            print(f"| corpus | {n} | {ts:,.0f} | (none) | | |", flush=True)
            continue
        who = next(w for w in runners(workload, args.n) if w != "toolsift")
        ts = per_reply(workload, "toolsift", args.n)
        peer = per_reply(workload, who, args.n)
        print(
            f"| {workload} | {replies(workload, args.n)} | {ts:,.0f} | {who} | {peer:,.0f} "
            f"| {peer / ts:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
