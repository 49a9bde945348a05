"""Compare toolsift with its peers on the same generated corpora, in one process.

Usage::

    python benches/compare.py [--quick] [--write BENCHMARKS.md]

Three workloads (see ``benches/README.md``):

- valid JSON: ``toolsift.lenient_loads`` vs ``orjson.loads``, ``jiter.from_json``,
  ``json_repair`` and ``fast_json_repair``;
- malformed JSON: ``toolsift.lenient_loads`` vs ``fast_json_repair`` and ``json_repair``
  (``orjson`` and ``jiter`` only for their correctness count: they reject malformed input);
- TOOL_CALL replies: ``toolsift.parse`` vs selectools' ``ToolCallParser``.

Throughput is MB/s of UTF-8 input, the best of several timed passes over the whole corpus (the
garbage collector is off while timing, as ``timeit`` does). Correctness is how many results are
equal, types included, to the value each document was generated from. A peer that is not
installed is reported as such; a peer that raises on a document gets that document wrong.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpus  # benches/ is on sys.path: the script's folder, or put there by pytest
from report_parts import cpu_model, dist_version, optional_module, write_section

BEGIN = "<!-- compare.py:begin -->"
END = "<!-- compare.py:end -->"
TITLE = "# toolsift benchmarks"
REPRODUCE = "make bench  # i.e. python benches/compare.py --write BENCHMARKS.md"

#: Distributions whose versions the report lists.
PACKAGES = (
    "toolsift",
    "orjson",
    "jiter",
    "json_repair",
    "fast-json-repair",
    "selectools",
    "partial-json-parser",
    "autobyteus",
)

#: The goals of the issue: (workload, peer, minimum speed-up of toolsift over the peer).
SPEED_GOALS = (
    ("malformed", "fast_json_repair", 2.5),
    ("malformed", "json_repair", 200.0),
    ("tool_call", "selectools.ToolCallParser", 20.0),
)
MAX_VALID_OVERHEAD = 0.15  # of toolsift.lenient_loads over orjson.loads, on valid JSON

WARM_UP_INPUTS = 32  # run untimed before each pass (see `_timed_pass`)
_FAILED = object()  # what a call that raised returns
TIMES = "\N{MULTIPLICATION SIGN}"


@dataclass(frozen=True)
class Settings:
    """How much to measure. Passes run round-robin (one pass of each implementation per round)
    so that drift in the machine's speed affects every implementation alike. An implementation
    gets another pass while it has had fewer than ``min_passes``, or fewer than ``max_passes``
    and less than ``min_time_s`` in total; never once it has used ``budget_s``."""

    target_bytes: int  # corpus size per workload
    min_passes: int
    max_passes: int
    min_time_s: float
    budget_s: float

    def wants_more(self, times: list[float]) -> bool:
        total = sum(times)
        if total >= self.budget_s or len(times) >= self.max_passes:
            return False
        return len(times) < self.min_passes or total < self.min_time_s


FULL = Settings(target_bytes=2_200_000, min_passes=5, max_passes=40, min_time_s=5.0, budget_s=25.0)
QUICK = Settings(target_bytes=200_000, min_passes=3, max_passes=20, min_time_s=0.3, budget_s=3.0)


@dataclass
class Impl:
    """One implementation in a workload. ``fn`` is None when its package is not installed."""

    label: str
    fn: Callable[[Any], Any] | None
    check: Callable[[Any, Any], bool]
    use_bytes: bool = False  # fed UTF-8 bytes rather than str (jiter)
    timed: bool = True  # False: run once, for the correctness count only
    note: str = ""


@dataclass
class Measurement:
    label: str
    installed: bool
    timed: bool
    note: str = ""
    best_s: float = 0.0
    passes: int = 0
    correct: int = 0
    total: int = 0


@dataclass
class Workload:
    key: str
    title: str
    description: str
    texts: list[str]
    expected: list[Any]
    impls: list[Impl]
    results: list[Measurement] = field(default_factory=list)
    breakdown_title: str = ""
    # The categories of each document (none: no breakdown table).
    categories: list[tuple[str, ...]] = field(default_factory=list)
    per_category: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)

    @property
    def nbytes(self) -> int:
        return sum(len(t.encode()) for t in self.texts)

    def result(self, label: str) -> Measurement | None:
        return next((m for m in self.results if m.label == label), None)


# --------------------------------------------------------------------------------------------
# Implementations
# --------------------------------------------------------------------------------------------


def _json_impls(*, for_malformed: bool) -> list[Impl]:
    import toolsift

    orjson = optional_module("orjson")
    jiter = optional_module("jiter")
    json_repair = optional_module("json_repair")
    fast_json_repair = optional_module("fast_json_repair")
    check = corpus.same_value

    def jr(s: str) -> Any:
        assert json_repair is not None
        return json_repair.repair_json(s, return_objects=True)

    def fjr(s: str) -> Any:
        assert fast_json_repair is not None
        return fast_json_repair.repair_json(s, return_objects=True)

    toolsift_impl = Impl("toolsift.lenient_loads", toolsift.lenient_loads, check)
    # The lighter check (first and last token only): the default until session 6.
    precheck = Impl(
        "toolsift.lenient_loads(precheck=False)",
        lambda s: toolsift.lenient_loads(s, precheck=False),
        check,
    )
    strict = [
        Impl(
            "orjson.loads",
            orjson.loads if orjson else None,
            check,
            timed=not for_malformed,
            note="strict parser: rejects malformed JSON" if for_malformed else "",
        ),
        Impl(
            "jiter.from_json",
            jiter.from_json if jiter else None,
            check,
            use_bytes=True,
            timed=not for_malformed,
            note="strict parser: rejects malformed JSON" if for_malformed else "",
        ),
    ]
    repairers = [
        Impl("fast_json_repair", fjr if fast_json_repair else None, check),
        Impl("json_repair", jr if json_repair else None, check),
    ]
    if for_malformed:
        return [toolsift_impl, precheck, *repairers, *strict]
    return [toolsift_impl, precheck, *strict, *repairers]


def _call_matches(got: Any, expected: Any) -> bool:
    """``got`` is (name, arguments) or None; ``expected`` is (name, arguments)."""
    return (
        isinstance(got, tuple) and got[0] == expected[0] and corpus.same_value(got[1], expected[1])
    )


def _tool_call_impls() -> list[Impl]:
    import toolsift

    def ts(text: str) -> tuple[str, Any] | None:
        calls = toolsift.parse(
            text, "tool_call_json", marker="TOOL_CALL", max_payload_chars=8000, first_only=False
        ).calls
        # Every reply holds exactly one call: finding more is as wrong as finding none.
        return (calls[0].name, calls[0].arguments) if len(calls) == 1 else None

    impls = [Impl("toolsift.parse", ts, _call_matches)]
    selectools_parser = optional_module("selectools.parser")
    if selectools_parser is None:
        impls.append(Impl("selectools.ToolCallParser", None, _call_matches))
        return impls
    parser = selectools_parser.ToolCallParser(marker="TOOL_CALL", max_payload_chars=8000)

    def sel(text: str) -> tuple[str, Any] | None:
        call = parser.parse(text).tool_call
        return None if call is None else (call.tool_name, call.parameters)

    impls.append(Impl("selectools.ToolCallParser", sel, _call_matches))
    return impls


# --------------------------------------------------------------------------------------------
# Corpora
# --------------------------------------------------------------------------------------------


def _enough(make: Callable[[int], list[Any]], size: Callable[[Any], int], target: int) -> list[Any]:
    """The shortest prefix of ``make(n)`` with at least ``target`` bytes of input."""
    probe = make(50)
    mean = max(1, sum(size(x) for x in probe) // len(probe))
    n = target // mean + 1
    while True:
        items = make(n)
        total = 0
        for i, item in enumerate(items):
            total += size(item)
            if total >= target:
                return items[: i + 1]
        n = int(n * 1.25) + 1


def _utf8_len(text: str) -> int:
    return len(text.encode())


def build_workloads(settings: Settings) -> list[Workload]:
    valid = _enough(corpus.valid_json_docs, _utf8_len, settings.target_bytes)
    malformed = _enough(
        corpus.malformed_json_cases, lambda c: _utf8_len(c.text), settings.target_bytes
    )
    calls = _enough(corpus.tool_call_cases, lambda c: _utf8_len(c.text), settings.target_bytes)

    return [
        Workload(
            key="valid",
            title="Valid JSON",
            description=(
                f"{len(valid)} valid tool-argument documents (200 B to 5 KB each: nested objects, "
                "arrays, unicode, escaped quotes, numbers; compact, spaced or indented)."
            ),
            texts=valid,
            expected=[json.loads(t) for t in valid],
            impls=_json_impls(for_malformed=False),
        ),
        Workload(
            key="malformed",
            title="Malformed JSON",
            description=(
                f"{len(malformed)} tool-argument documents, each with one or two LLM breakages "
                "(single quotes, trailing commas, Python literals, truncation after a complete "
                "member, Markdown fence with prose, unquoted keys, // comments, raw newlines in "
                "strings); the expected value is computed from the document before it was broken."
            ),
            texts=[c.text for c in malformed],
            expected=[c.expected for c in malformed],
            impls=_json_impls(for_malformed=True),
            breakdown_title="Correct by breakage (a document with two breakages counts in both)",
            categories=[c.breakages for c in malformed],
        ),
        Workload(
            key="tool_call",
            title="TOOL_CALL replies",
            description=(
                f"{len(calls)} model replies: 1-3 paragraphs of prose (some with braces or "
                "JSON-looking text), then exactly one `TOOL_CALL` inline, on the next line or in "
                "a `json` code fence; 70% valid JSON, 15% single quotes, 15% trailing commas. "
                "Correct means the call's name and arguments are equal to the expected ones (and "
                "toolsift, run with `first_only=False`, finds exactly one call)."
            ),
            texts=[c.text for c in calls],
            expected=[(c.name, c.arguments) for c in calls],
            impls=_tool_call_impls(),
            breakdown_title="Correct by JSON style of the call",
            categories=[(c.json_style,) for c in calls],
        ),
    ]


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------


def _run_all(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    append = out.append
    for item in inputs:
        try:
            append(fn(item))
        except Exception:
            append(_FAILED)
    return out


def _run_discarding(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> None:
    for item in inputs:
        try:
            fn(item)
        except Exception:
            pass


def _timed_pass(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> float:
    """One timed pass over ``inputs`` whose results are dropped as they come, as timeit's are.
    Kept, a pass's results left the heap in a layout that slowed whichever implementation
    ran next: on valid JSON, toolsift's overhead over orjson read 8.8% or 17.8% from the
    order of the implementations alone."""
    gc.collect()
    # A full collection empties the interpreter's free lists (floats, tuples, dicts, lists),
    # and the first calls after it pay to fill them again: a cost of `gc.collect`, not of the
    # implementation, which weighed ~3% on a 15 ms toolsift pass and nothing on a peer's
    # 300 ms one. Every implementation first runs on the same few inputs, untimed.
    _run_discarding(fn, inputs[:WARM_UP_INPUTS])
    gc.disable()
    try:
        start = time.perf_counter()
        _run_discarding(fn, inputs)
        return time.perf_counter() - start
    finally:
        gc.enable()


def measure(workload: Workload, settings: Settings, log: Callable[[str], None]) -> None:
    as_bytes = [t.encode() for t in workload.texts]
    runs: list[tuple[Impl, Measurement, Sequence[Any], list[float]]] = []
    for impl in workload.impls:
        m = Measurement(impl.label, impl.fn is not None, impl.timed, impl.note)
        workload.results.append(m)
        if impl.fn is None:
            log(f"  {impl.label}: not installed")
            continue
        inputs: Sequence[Any] = as_bytes if impl.use_bytes else workload.texts
        # A first, untimed pass gives the results that are checked.
        _score(workload, impl, m, _run_all(impl.fn, inputs))
        runs.append((impl, m, inputs, []))
    pending = [run for run in runs if run[0].timed]
    rounds = 0
    while pending := [run for run in pending if settings.wants_more(run[3])]:
        # Round-robin, each round starting one implementation further on, so that every
        # implementation follows every other in turn and drift in the machine's speed weighs
        # on all alike.
        start = rounds % len(pending)
        rounds += 1
        for impl, _, inputs, times in pending[start:] + pending[:start]:
            assert impl.fn is not None
            times.append(_timed_pass(impl.fn, inputs))
    for impl, m, _, times in runs:
        m.best_s, m.passes = min(times, default=0.0), len(times)
        speed = f"{_mbps(workload, m):.2f} MB/s, " if impl.timed else ""
        log(f"  {impl.label}: {speed}{m.correct}/{m.total} correct ({m.passes} passes)")


def _score(workload: Workload, impl: Impl, m: Measurement, out: list[Any]) -> None:
    m.total = len(out)
    per_category: dict[str, tuple[int, int]] = {}
    for i, (got, want) in enumerate(zip(out, workload.expected, strict=True)):
        ok = got is not _FAILED and impl.check(got, want)
        m.correct += ok
        for category in workload.categories[i] if workload.categories else ():
            good, seen = per_category.get(category, (0, 0))
            per_category[category] = (good + ok, seen + 1)
    workload.per_category[impl.label] = per_category


# --------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------


def _mbps(workload: Workload, m: Measurement) -> float:
    return workload.nbytes / m.best_s / 1e6


def speedup(workload: Workload, peer: str) -> float | None:
    """How many times faster toolsift is than ``peer`` (None when either was not timed)."""
    base, other = workload.results[0], workload.result(peer)
    if other is None or not (base.installed and other.installed and other.timed):
        return None
    return other.best_s / base.best_s


def _versus(factor: float) -> str:
    if factor >= 1:
        digits = 0 if factor >= 100 else 1
        return f"toolsift is {factor:,.{digits}f}{TIMES} faster"
    return f"toolsift is {1 / factor:.2f}{TIMES} slower"


def table(workload: Workload) -> str:
    mb = workload.nbytes / 1e6
    lines = [
        f"### {workload.title}",
        "",
        f"{workload.description} Corpus: {mb:.2f} MB.",
        "",
        "| Implementation | Throughput (MB/s) | Best pass (ms) | Correct | Speed vs toolsift |",
        "|---|---:|---:|---:|---|",
    ]
    for i, m in enumerate(workload.results):
        if not m.installed:
            lines.append(f"| {m.label} | not installed | | | |")
            continue
        pct = 100 * m.correct / m.total if m.total else 0.0
        correct = f"{m.correct}/{m.total} ({pct:.1f}%)"
        if not m.timed:
            lines.append(f"| {m.label} | — | — | {correct} | {m.note} |")
            continue
        factor = speedup(workload, m.label)
        versus = "baseline" if i == 0 else _versus(factor) if factor else ""
        lines.append(
            f"| {m.label} | {_mbps(workload, m):,.2f} | {m.best_s * 1e3:,.1f} | {correct} "
            f"| {versus} |"
        )
    if workload.key == "valid":
        overhead = valid_overhead(workload)
        if overhead is not None:
            lines += ["", f"toolsift.lenient_loads overhead over orjson.loads: {overhead:+.1%}."]
    if workload.categories:
        lines += ["", breakdown(workload)]
    return "\n".join(lines)


def breakdown(workload: Workload) -> str:
    labels = [m.label for m in workload.results if m.installed]
    categories = sorted({c for cats in workload.categories for c in cats})
    lines = [
        f"{workload.breakdown_title}:",
        "",
        "| Category | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for category in categories:
        cells = []
        for label in labels:
            good, seen = workload.per_category.get(label, {}).get(category, (0, 0))
            cells.append(f"{good}/{seen}")
        lines.append(f"| {category} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def valid_overhead(workload: Workload) -> float | None:
    factor = speedup(workload, "orjson.loads")
    return None if factor is None else 1 / factor - 1


def goals(workloads: dict[str, Workload]) -> list[str]:
    """The issue's goals as PASS/FAIL lines (UNKNOWN when a peer is not installed)."""
    lines = []
    for key, peer, minimum in SPEED_GOALS:
        w = workloads[key]
        factor = speedup(w, peer)
        if factor is None:
            lines.append(f"- UNKNOWN — {w.title}: ≥ {minimum:g}{TIMES} {peer} (not installed)")
            continue
        verdict = "PASS" if factor >= minimum else "FAIL"
        lines.append(
            f"- {verdict} — {w.title}: toolsift ≥ {minimum:g}{TIMES} faster than {peer} "
            # Two decimals: a FAIL at 2.49 must not read as "measured 2.5x".
            f"(measured {factor:,.2f}{TIMES})"
        )
    for key, peers in (("malformed", ("fast_json_repair", "json_repair")), ("tool_call", None)):
        w = workloads[key]
        ours = w.results[0]
        others = [m for m in w.results[1:] if m.installed and m.timed]
        if peers is not None:
            others = [m for m in others if m.label in peers]
        if not others:
            lines.append(f"- UNKNOWN — {w.title}: correctness at least as good (no peer installed)")
            continue
        worse = [m for m in others if ours.correct < m.correct]
        verdict = "FAIL" if worse else "PASS"
        counts = ", ".join(f"{m.label} {m.correct}/{m.total}" for m in others)
        lines.append(
            f"- {verdict} — {w.title}: correctness at least as good as "
            f"{' and '.join(m.label for m in others)} "
            f"(toolsift {ours.correct}/{ours.total}; {counts})"
        )
    overhead = valid_overhead(workloads["valid"])
    if overhead is None:
        lines.append("- UNKNOWN — Valid JSON: overhead ≤ 15% over orjson.loads (not installed)")
    else:
        verdict = "PASS" if overhead <= MAX_VALID_OVERHEAD else "FAIL"
        lines.append(
            f"- {verdict} — Valid JSON: toolsift.lenient_loads overhead ≤ "
            f"{MAX_VALID_OVERHEAD:.0%} over orjson.loads (measured {overhead:+.1%})"
        )
    lines += _precheck_note(workloads)
    return lines


def _precheck_note(workloads: dict[str, Workload]) -> list[str]:
    """``precheck=False`` measured against the same goals (not the default)."""
    label = "toolsift.lenient_loads(precheck=False)"
    bad, good = workloads["malformed"].result(label), workloads["valid"].result(label)
    fjr, orj = (
        workloads["malformed"].result("fast_json_repair"),
        workloads["valid"].result("orjson.loads"),
    )
    if not (bad and good and fjr and orj and fjr.timed and orj.timed):
        return []
    return [
        f"- (not a goal) with `precheck=False`: malformed {fjr.best_s / bad.best_s:.1f}{TIMES} "
        f"fast_json_repair, valid JSON {good.best_s / orj.best_s - 1:+.1%} over orjson.loads"
    ]


def machine() -> list[str]:
    versions = ", ".join(f"{dist} {dist_version(dist)}" for dist in PACKAGES)
    return [
        f"- Platform: {platform.platform()}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical CPUs",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Packages: {versions}",
    ]


def report(workloads: list[Workload], settings: Settings, quick: bool) -> str:
    by_key = {w.key: w for w in workloads}
    mode = " (--quick: small corpus, not for publishing)" if quick else ""
    parts = [
        f"## Python comparison (benches/compare.py){mode}",
        "",
        "Generated by `benches/compare.py`; everything between its markers is rewritten on each "
        "run. All implementations run in one process on the same deterministic corpus "
        f"(`benches/corpus.py`, seed {corpus.DEFAULT_SEED}). Throughput is MB/s of UTF-8 "
        f"input, the best of {settings.min_passes} to {settings.max_passes} passes over the "
        f"corpus (at least {settings.min_time_s:g} s of passes unless one pass is slow; "
        "passes run round-robin, each round starting one implementation further on; before "
        f"each pass, `gc.collect()` and an untimed run on the first {WARM_UP_INPUTS} inputs; "
        "while timing the GC is off and each result is dropped as it comes, as timeit drops "
        "them); correctness compares each result of a first, untimed pass, types included, "
        "with the value the document was generated from.",
        "",
        "Machine:",
        "",
        *machine(),
        "",
        "Reproduce with:",
        "",
        "```sh",
        REPRODUCE,
        "```",
        "",
        "Goals:",
        "",
        *goals(by_key),
        "",
    ]
    for w in workloads:
        parts += [table(w), ""]
    return "\n".join(parts).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small corpus, few passes")
    parser.add_argument("--write", metavar="FILE", type=Path, help="write the report into FILE")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    log(f"building corpora (~{settings.target_bytes / 1e6:.1f} MB per workload)...")
    workloads = build_workloads(settings)
    for w in workloads:
        log(f"{w.title}: {len(w.texts)} documents, {w.nbytes / 1e6:.2f} MB")
        measure(w, settings, log)
    section = report(workloads, settings, args.quick)
    print(section)
    if args.write:
        write_section(args.write, TITLE, BEGIN, END, section)
        log(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
