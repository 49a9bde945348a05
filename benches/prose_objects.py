"""Throughput of the syntaxes that read bare JSON in prose, on replies whose prose is full of
braces: a JavaScript block and a run of JSON objects, each before one `TOOL_CALL` call.

In `tool_call_json` and the bare-JSON syntaxes every `{` of the prose opens a candidate call,
so such a reply costs one candidate per brace group; plain prose (the first row) is the
floor, and `hermes` (whose calls are tagged) reads the same text without candidates.

    python benches/prose_objects.py              # 300 replies of each kind, best of 15
    python benches/prose_objects.py --check      # also prints the calls found, as a check

Each row: `parse_many(texts, syntax, workers=1)`, MB/s of UTF-8 text, best of the passes.
Every reply must give exactly its one call under `tool_call_json` (checked).
"""

from __future__ import annotations

import argparse
import time

import toolsift

CALL = 'TOOL_CALL: {"tool_name": "search", "parameters": {"q": "x"}}'
CODE_LINE = (
    "function f(a) { if (a) { return {x: 1, y: [a, {z: 2}]}; } "
    "else { for (let i = 0; i < 3; i++) { g({k: i}); } } }\n"
)
PROSE_LINE = "The quick brown fox jumps over the lazy dog, and then some more words follow here.\n"
JSON_LINE = '{"a": 1, "b": {"c": [1,2,{"d": 3}]}}\n'

REPLIES = {
    "prose": PROSE_LINE * 27 + CALL,
    "code": "Here:\n```js\n" + CODE_LINE * 20 + "```\n" + CALL,
    "json objects": JSON_LINE * 60 + CALL,
}
SYNTAXES = ("tool_call_json", "json_openai", "hermes")


def rate(texts: list[str], syntax: str, passes: int) -> float:
    """MB/s of the best pass."""
    size = sum(len(t.encode()) for t in texts)
    toolsift.parse_many(texts, syntax, workers=1)
    best = float("inf")
    for _ in range(passes):
        started = time.perf_counter()
        toolsift.parse_many(texts, syntax, workers=1)
        best = min(best, time.perf_counter() - started)
    return size / best / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=300, help="replies of each kind")
    ap.add_argument("--passes", type=int, default=15)
    ap.add_argument("--check", action="store_true", help="print the calls found")
    args = ap.parse_args()
    print("| reply | bytes | " + " | ".join(f"`{s}` MB/s" for s in SYNTAXES) + " |")
    print("|---|---:|" + "---:|" * len(SYNTAXES))
    for kind, reply in REPLIES.items():
        texts = [reply] * args.n
        found = toolsift.parse(reply, "tool_call_json").calls
        if [c.name for c in found] != ["search"]:
            raise SystemExit(f"{kind}: expected the one call, got {found}")
        if args.check:
            print(kind, [(c.name, c.arguments) for c in found])
        rates = [rate(texts, s, args.passes) for s in SYNTAXES]
        print(
            f"| {kind} | {len(reply.encode()):,} | " + " | ".join(f"{r:,.1f}" for r in rates) + " |"
        )


if __name__ == "__main__":
    main()
