"""Memory of a long stream stays bounded by the open segment: 100 MB of streamed text with calls
(``keep_result=False``) run in a child process whose peak RSS is measured."""

from __future__ import annotations

import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from toolsift import StreamParser

    def peak_mb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    total, mode = int(sys.argv[1]), sys.argv[2]
    call = "<tool_call>" + json.dumps({"name": "write", "arguments": {"body": "b" * 2000}})
    unit = ("prose " * 1500) + call + "</tool_call>\\n"
    if mode == "open":
        # One segment whose end never comes.
        unit = '{"a": "' + "y" * 10000
    parser = StreamParser("hermes", keep_result=False, max_segment_bytes=1 << 20)
    if mode == "open":
        parser.feed('<tool_call>{"name": "f", "arguments": {"x": "')
    base = peak_mb()
    fed = calls = issues = 0
    while fed < total:
        for event in parser.feed(unit):
            if type(event).__name__ == "SegmentEnd":
                calls += event.call is not None
                issues += event.issue is not None
        fed += len(unit)
    parser.finish()
    print(json.dumps({"fed": fed, "calls": calls, "issues": issues,
                      "growth_mb": peak_mb() - base}))
    """
)


def run_child(total: int, mode: str) -> dict[str, float]:
    import json

    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(total), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_a_hundred_megabyte_stream_with_calls_keeps_memory_flat() -> None:
    report = run_child(100 << 20, "calls")
    assert report["fed"] >= 100 << 20
    assert report["calls"] > 9_000
    assert report["issues"] == 0
    # 100 MB went through; the process grew by a small fraction of it.
    assert report["growth_mb"] < 20, report


def test_a_segment_that_never_closes_is_capped_by_max_segment_bytes() -> None:
    report = run_child(50 << 20, "open")
    assert report["issues"] >= 1
    assert report["growth_mb"] < 20, report


BATCH_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from toolsift import batch, parse_many

    def peak_mb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    # Slices of ~16 KB, so each pass runs ~100 of them through the helper's hand-back.
    batch.MIN_SLICE_BYTES = 16_384
    call = "<tool_call>" + json.dumps({"name": "write", "arguments": {"body": "é" * 400}})
    texts = [("prose " * 50) + call + "</tool_call>" + str(i) for i in range(2_000)]
    for _ in range(3):
        parse_many(texts, "hermes", workers=2)
    base = peak_mb()
    calls = 0
    for _ in range(int(sys.argv[1])):
        calls += sum(len(r.calls) for r in parse_many(texts, "hermes", workers=2))
    print(json.dumps({"calls": calls, "growth_mb": peak_mb() - base}))
    """
)


def test_repeated_two_worker_batches_keep_memory_flat() -> None:
    """Each pass's engine output goes back to the helper that made it (between its slices, or
    after its loop) and is freed there; a pass that kept any of it would grow the process by
    megabytes a pass."""
    import json

    passes = 40
    out = subprocess.run(
        [sys.executable, "-c", BATCH_CHILD, str(passes)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    report = json.loads(out.stdout)
    assert report["calls"] == passes * 2_000
    # ~3.4 MB of text a pass and 40 passes: a leak of a tenth of each pass's output would
    # show as far more than this.
    assert report["growth_mb"] < 15, report
