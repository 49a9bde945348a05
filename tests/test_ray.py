"""toolsift.ray on a local Ray runtime equals parse_many on the same data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

ray = pytest.importorskip("ray")
pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")

from test_batch import SYNTAX_TEXTS  # noqa: E402

import toolsift  # noqa: E402
import toolsift.ray  # noqa: E402

TEXTS = [t for s in ("hermes", "tool_call_json") for t in SYNTAX_TEXTS[s]] * 7 + ["", "prose"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(
        num_cpus=2,
        object_store_memory=200 * 1024 * 1024,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield
    finally:
        ray.shutdown()


def expected_rows(syntax: list[str]) -> list[dict[str, Any]]:
    rows = []
    for i, result in enumerate(toolsift.parse_many(TEXTS, syntax)):
        for c in result.calls:
            rows.append(
                {"id": i, "call_id": c.id, "syntax": c.syntax, "name": c.name}
                | {"arguments": c.arguments, "span": [c.span[0], c.span[1]]}
                | {"raw": c.raw, "repairs": list(c.repairs)}
            )
    return rows


def got_rows(dataset: Any) -> list[dict[str, Any]]:
    rows = []
    for r in dataset.take_all():
        rows.append(
            {"id": r["id"], "call_id": r["call_id"]}
            | {"syntax": r["syntax"], "name": r["name"]}
            | {"arguments": orjson.loads(r["arguments"]), "span": [r["span_start"], r["span_end"]]}
            | {"raw": r["raw"], "repairs": list(r["repairs"])}
        )
    return sorted(rows, key=lambda r: (r["id"], r["span"]))


def test_extract_equals_parse_many(local_ray: None) -> None:
    syntax = ["hermes", "tool_call_json"]
    items = [{"id": i, "text": t} for i, t in enumerate(TEXTS)]
    dataset = ray.data.from_items(items, override_num_blocks=4)
    calls = toolsift.ray.extract(dataset, "text", syntax, keep_columns=["id"], batch_size=16)
    assert got_rows(calls) == expected_rows(syntax)


def test_extract_from_parquet(local_ray: None, tmp_path: Path) -> None:
    table = pa.table({"id": list(range(len(TEXTS))), "text": TEXTS})
    for part in range(3):
        pq.write_table(table.slice(part * 30, 30), tmp_path / f"part-{part}.parquet")
    dataset = ray.data.read_parquet(str(tmp_path))
    calls = toolsift.ray.extract(dataset, syntax=["hermes", "tool_call_json"], keep_columns=["id"])
    assert got_rows(calls) == expected_rows(["hermes", "tool_call_json"])


def test_a_kept_column_may_not_shadow_a_call_column() -> None:
    with pytest.raises(ValueError, match="name"):
        toolsift.ray.extract(None, keep_columns=["name"])
