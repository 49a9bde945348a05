"""Ray Data: the calls of a ``Dataset`` of transcripts, computed where the data lives.

Needs ``ray[data]`` and ``pyarrow`` (``pip install 'toolsift[ray]'``). Each block is handed
over as an Arrow table, its text column goes to :func:`toolsift.arrow.extract_arrow` (no Python
string per row), and the calls come back as an Arrow table, so a cluster reading Parquet from
object storage never turns transcripts into Python objects::

    import ray, toolsift.ray
    ray.init(address="auto")                       # the cluster
    ds = ray.data.read_parquet("s3://bucket/transcripts/")
    calls = toolsift.ray.extract(ds, column="text", syntax="hermes", keep_columns=["id"])
    calls.write_parquet("s3://bucket/calls/")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .arrow import extract_arrow
from .parsing import checked_names

__all__ = ["CALL_COLUMNS", "extract"]

#: The columns of each call row (``keep_columns`` come first).
CALL_COLUMNS = (
    "call_id",
    "syntax",
    "name",
    "arguments",
    "span_start",
    "span_end",
    "raw",
    "repairs",
)


def extract(
    dataset: Any,
    column: str = "text",
    syntax: str | Sequence[str] | None = None,
    *,
    tools: Iterable[Mapping[str, Any]] | None = None,
    keep_columns: Sequence[str] = (),
    workers: int = 1,
    batch_size: int | None = 4096,
    **options: Any,
) -> Any:
    """A Ray ``Dataset`` with one row per call found in ``dataset[column]``.

    The columns are those of :func:`toolsift.arrow.parse_arrow` without ``row`` (a row index
    means nothing across blocks); name the input columns that identify a transcript in
    ``keep_columns`` and they are copied onto each of its calls. Ray runs one task per CPU, so
    each task parses with ``workers=1`` by default. Options are :func:`toolsift.parse`'s.
    """
    names = checked_names(syntax)  # on the driver: TOOLSIFT_SYNTAX is read here, once
    tool_list = list(tools) if tools is not None else None
    keep = list(keep_columns)
    clash = [name for name in keep if name in CALL_COLUMNS]
    if clash:
        raise ValueError(f"kept column {clash[0]!r} has the name of a call column")

    def calls_of(batch: Any) -> Any:
        calls = extract_arrow(
            batch.column(column), names, tools=tool_list, workers=workers, **options
        ).calls
        rows = calls.column("row")
        for name in reversed(keep):
            calls = calls.add_column(0, name, batch.column(name).take(rows))
        return calls.drop_columns(["row"])

    return dataset.map_batches(calls_of, batch_format="pyarrow", batch_size=batch_size)
