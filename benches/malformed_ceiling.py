"""How fast can any lenient loader be on compare.py's malformed corpus, next to json_repair?

    .venv/bin/python benches/malformed_ceiling.py

Builds the same Python values as ``lenient_loads`` from texts that are *already* valid (the
repaired documents, prepared before timing), with orjson and jiter: a loader that repairs for
free can be no faster than that. Throughput is MB/s of the malformed input, timed as
``compare.py`` times it (its ``_timed_pass``: results dropped as they come, a short untimed
warm-up, GC off; best pass, passes round-robin). It prints the speed the 200x-json_repair goal
asks for next to that ceiling.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import corpus  # benches/ is on sys.path: the script's folder
import jiter
import json_repair
import orjson
from compare import _timed_pass as _pass

import toolsift
from toolsift import _native

GOAL = 200.0


def main() -> None:
    cases = corpus.malformed_json_cases(1360)
    texts = [c.text for c in cases]
    nbytes = sum(len(t.encode()) for t in texts)
    repaired = [_native.repair_json(t, report=False)[0] for t in texts]
    for fixed, case in zip(repaired, cases, strict=True):
        assert corpus.same_value(orjson.loads(fixed), case.expected)

    def jr(s: str) -> Any:
        return json_repair.repair_json(s, return_objects=True)

    runs: dict[str, tuple[Callable[[Any], Any], Sequence[Any], int]] = {
        "toolsift.lenient_loads (malformed text)": (toolsift.lenient_loads, texts, nbytes),
        "orjson.loads (repaired bytes, no repair)": (orjson.loads, repaired, nbytes),
        "jiter.from_json (repaired bytes, no repair)": (jiter.from_json, repaired, nbytes),
        "json_repair (malformed text)": (jr, texts, nbytes),
    }
    best = {label: float("inf") for label in runs}
    for round_ in range(30):
        for label, (fn, inputs, _) in runs.items():
            if round_ >= 2 and label.startswith("json_repair"):  # 1 ms a document
                continue
            best[label] = min(best[label], _pass(fn, inputs))
    mbps = {label: runs[label][2] / best[label] / 1e6 for label in runs}
    for label, speed in mbps.items():
        print(f"{label:48s} {speed:8.2f} MB/s")
    jr_speed = mbps["json_repair (malformed text)"]
    ceiling = mbps["orjson.loads (repaired bytes, no repair)"]
    print(f"{GOAL:.0f}x json_repair needs {GOAL * jr_speed:.1f} MB/s end to end")
    print(f"ceiling with a free repair: {ceiling / jr_speed:.0f}x json_repair (orjson)")
    ours = mbps["toolsift.lenient_loads (malformed text)"]
    print(f"toolsift: {ours / jr_speed:.0f}x json_repair")
    print(f"Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
