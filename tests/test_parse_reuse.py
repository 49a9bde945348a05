"""``parse`` reuses an engine per thread and per (syntax, options): results must not depend on
what was parsed before, on another thread, or with other options."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import toolsift

TEXTS = [
    f'TOOL_CALL: {{"tool": "a", "params": {{"n": {i}}}}}' if i % 3 else 'ACT: {"tool": "b"}'
    for i in range(60)
]


def _summary(marker: str | None) -> list[tuple[str, ...]]:
    options = {} if marker is None else {"marker": marker}
    return [
        tuple(c.raw + repr(c.arguments) for c in toolsift.parse(t, **options).calls) for t in TEXTS
    ]


def test_options_are_part_of_the_reuse_key() -> None:
    default, act = _summary(None), _summary("ACT")
    assert default != act
    assert _summary(None) == default and _summary("ACT") == act


def test_threads_get_their_own_engines() -> None:
    expected = {m: _summary(m) for m in (None, "ACT")}
    with ThreadPoolExecutor(8) as pool:
        jobs = [pool.submit(_summary, m) for _ in range(20) for m in (None, "ACT")]
        for job, marker in zip(jobs, [m for _ in range(20) for m in (None, "ACT")], strict=True):
            assert job.result() == expected[marker]


def test_a_result_is_not_changed_by_the_next_parse() -> None:
    first = toolsift.parse(TEXTS[1])
    snapshot = repr(first)
    toolsift.parse(TEXTS[2])
    assert repr(first) == snapshot
