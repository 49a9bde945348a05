"""Arrow in, Arrow out: the calls of a whole string column without a Python string per row.

Needs ``pyarrow`` (``pip install 'toolsift[arrow]'``).

>>> import pyarrow as pa
>>> from toolsift.arrow import parse_arrow
>>> column = pa.array(['TOOL_CALL: {"tool": "a", "params": {"x": 1}}', None, "prose"])
>>> parse_arrow(column).select(["row", "name", "arguments"]).to_pylist()
[{'row': 0, 'name': 'a', 'arguments': '{"x": 1}'}]

The column's buffers go to Rust as they are (cast to ``large_string`` first when needed); the
texts are parsed on the native pool with the GIL released, and the calls come back as column
buffers that become the table with ``pyarrow.Array.from_buffers``. ``arguments`` is the JSON
text of each call's arguments (what Parquet stores well); ``row`` is the index in ``array``.
A null row is parsed as an empty text. ``tools=``, ``first_only`` and ``id_prefix`` need the
Python result model, so with them the rows go through :func:`toolsift.parse_many` instead
(same table, slower).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from . import _native
from ._call_reshape import DEEPSEEK_DSML, UNWRAPPED_ARGUMENTS, unwrap_untyped
from .batch import check_workers, parse_many
from .errors import ToolsiftError
from .model import ParseResult
from .parsing import ParseRequest, checked_names
from .strategies.api_shapes import API_TOOL_CALL

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ArrowFindings", "extract_arrow", "parse_arrow", "tables_from_results"]


def _pa() -> Any:
    try:
        import pyarrow
    except ImportError as err:  # pragma: no cover - exercised only without the extra
        raise ImportError("toolsift.arrow needs pyarrow: pip install 'toolsift[arrow]'") from err
    return pyarrow


@dataclass(frozen=True)
class ArrowFindings:
    """The calls (one row per call) and the issues (one row per issue) of a column."""

    calls: pa.Table
    issues: pa.Table


def _schemas(pa: Any) -> tuple[Any, Any]:
    s, i = pa.large_string(), pa.int64()
    calls = pa.schema(
        [
            ("row", i),
            ("call_id", s),
            ("syntax", s),
            ("name", s),
            ("arguments", s),
            ("span_start", i),
            ("span_end", i),
            ("raw", s),
            ("repairs", pa.large_list(s)),
        ]
    )
    issues = pa.schema(
        [
            ("row", i),
            ("syntax", s),
            ("kind", s),
            ("message", s),
            ("span_start", i),
            ("span_end", i),
        ]
    )
    return calls, issues


def _table(pa: Any, schema: Any, columns: dict[str, Any]) -> Any:
    n = len(columns["row"]) // 8
    arrays = []
    for field in schema:
        value = columns[field.name]
        if pa.types.is_int64(field.type):
            arrays.append(pa.Array.from_buffers(field.type, n, [None, pa.py_buffer(value)]))
        elif pa.types.is_large_list(field.type):
            list_offsets, offsets, data = value
            kinds = len(offsets) // 8 - 1
            child = pa.Array.from_buffers(
                pa.large_string(), kinds, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
            )
            starts = pa.Array.from_buffers(pa.int64(), n + 1, [None, pa.py_buffer(list_offsets)])
            arrays.append(pa.LargeListArray.from_arrays(starts, child))
        else:
            offsets, data = value
            buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data)]
            arrays.append(pa.Array.from_buffers(field.type, n, buffers))
    return pa.Table.from_arrays(arrays, schema=schema)


def tables_from_results(results: Sequence[ParseResult]) -> ArrowFindings:
    """The tables of :func:`extract_arrow` built from ``parse_many`` results (row ``i`` is
    ``results[i]``): the slow path, and the reference the fast path is tested against."""
    pa = _pa()
    call_schema, issue_schema = _schemas(pa)
    calls: list[dict[str, Any]] = []
    issues: list[dict[str, Any]] = []
    for row, result in enumerate(results):
        for c in result.calls:
            calls.append(
                {"row": row, "call_id": c.id, "syntax": c.syntax, "name": c.name}
                | {"arguments": orjson.dumps(c.arguments).decode(), "span_start": c.span[0]}
                | {"span_end": c.span[1], "raw": c.raw, "repairs": list(c.repairs)}
            )
        for i in result.issues:
            issues.append(
                {"row": row, "syntax": i.syntax, "kind": i.kind}
                | {"message": i.message, "span_start": i.span[0], "span_end": i.span[1]}
            )
    return ArrowFindings(
        pa.Table.from_pylist(calls, schema=call_schema),
        pa.Table.from_pylist(issues, schema=issue_schema),
    )


def extract_arrow(
    array: Any,
    syntax: str | Sequence[str] | None = None,
    *,
    tools: Iterable[Mapping[str, Any]] | None = None,
    workers: int | None = None,
    **options: Any,
) -> ArrowFindings:
    """The calls and issues of every row of a string column (``pyarrow`` ``Array`` or
    ``ChunkedArray`` of ``string``/``large_string``); options as :func:`toolsift.parse`."""
    pa = _pa()
    workers = check_workers(workers)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    if tools is not None or options.get("first_only") or options.get("id_prefix") is not None:
        texts = ["" if t is None else t for t in array.to_pylist()]
        return tables_from_results(
            parse_many(texts, syntax, tools=tools, workers=workers, **options)
        )
    request = ParseRequest(checked_names(syntax), options)  # checks the names and options
    if API_TOOL_CALL in request.names:
        raise ToolsiftError(
            "an Arrow string column holds text, not provider objects: "
            f"{API_TOOL_CALL!r} does not apply",
            reason="bad_option",
        )
    if array.null_count:
        array = array.fill_null("")
    if not pa.types.is_large_string(array.type):
        array = array.cast(pa.large_string())
    _, offsets, data = array.buffers()
    columns = _native.parse_arrow_buffers(
        offsets.to_pybytes(),
        b"" if data is None else data.to_pybytes(),
        array.offset,
        len(array),
        request.names,
        marker=request.marker,
        max_payload_chars=request.max_payload_chars,
        workers=workers,
    )
    call_schema, issue_schema = _schemas(pa)
    calls = _table(pa, call_schema, columns["calls"])
    if request.parser._unwraps:
        calls = _unwrap_untyped(pa, calls)
    return ArrowFindings(calls, _table(pa, issue_schema, columns["issues"]))


def _unwrap_untyped(pa: Any, calls: Any) -> Any:
    """``calls`` with each deepseek_dsml call whose one parameter ``arguments`` holds an
    object read as that object, as :func:`toolsift.parse` reads it (see ``_call_reshape``)."""
    import pyarrow.compute as pc

    rows = pc.indices_nonzero(pc.equal(calls["syntax"], DEEPSEEK_DSML)).to_pylist()
    changed: dict[int, str] = {}
    for row in rows:
        inner = unwrap_untyped(DEEPSEEK_DSML, orjson.loads(calls["arguments"][row].as_py()))
        if inner is not None:
            changed[row] = orjson.dumps(inner).decode()
    if not changed:
        return calls
    arguments = calls["arguments"].to_pylist()
    repairs = calls["repairs"].to_pylist()
    for row, text in changed.items():
        arguments[row] = text
        repairs[row] = [*repairs[row], UNWRAPPED_ARGUMENTS]
    for name, values in (("arguments", arguments), ("repairs", repairs)):
        index = calls.schema.get_field_index(name)
        field = calls.schema.field(index)
        calls = calls.set_column(index, field, pa.array(values, type=field.type))
    return calls


def parse_arrow(array: Any, syntax: str | Sequence[str] | None = None, **options: Any) -> Any:
    """The calls of every row of a string column as a ``pyarrow.Table`` (one row per call, with
    the input ``row``); :func:`extract_arrow` also gives the issues."""
    return extract_arrow(array, syntax, **options).calls
