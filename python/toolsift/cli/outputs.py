"""What ``toolsift extract`` writes: one row per call (with the issues on its span) and one
row per issue outside any call, as JSONL or Parquet.

Row fields: ``source``, ``line``, ``transcript``, ``message``, ``call_id``, ``syntax``,
``name``, ``arguments``, ``span`` (``[start, end]`` in characters of the parsed text),
``repairs`` and ``issues`` (``[{kind, message, span}]``). An issue row has ``call_id``,
``name`` and ``arguments`` null. In Parquet, ``arguments`` is the JSON text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Any

import orjson

from ..model import ParseResult
from .inputs import Unit

__all__ = ["JsonlWriter", "ParquetWriter", "dumps", "rows_of"]


def dumps(value: Any) -> bytes:
    """JSON bytes; integers beyond 64 bits (kept exact by the parser) go through ``json``."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False).encode()


def _issue(i: Any) -> dict[str, Any]:
    return {"kind": i.kind, "message": i.message, "span": list(i.span)}


def rows_of(unit: Unit, result: ParseResult) -> list[dict[str, Any]]:
    """The output rows of one parsed text, calls in order, then issues outside every call."""
    # One dict literal per row: merging a shared base with `|` made three dicts per row and
    # was most of this function's time.
    source, line, transcript, message = unit.source, unit.line, unit.transcript, unit.message
    rows = []
    issues = result.issues
    attached: set[int] = set()
    for call in result.calls:
        own = []
        for n, issue in enumerate(issues):
            if call.span[0] <= issue.span[0] and issue.span[1] <= call.span[1]:
                own.append(_issue(issue))
                attached.add(n)
        rows.append(
            {
                "source": source,
                "line": line,
                "transcript": transcript,
                "message": message,
                "call_id": call.id,
                "syntax": call.syntax,
                "name": call.name,
                "arguments": call.arguments,
                "span": list(call.span),
                "repairs": list(call.repairs),
                "issues": own,
            }
        )
    for n, issue in enumerate(issues):
        if n not in attached:
            rows.append(
                {
                    "source": source,
                    "line": line,
                    "transcript": transcript,
                    "message": message,
                    "call_id": None,
                    "syntax": issue.syntax,
                    "name": None,
                    "arguments": None,
                    "span": list(issue.span),
                    "repairs": [],
                    "issues": [_issue(issue)],
                }
            )
    return rows


class JsonlWriter:
    """One JSON object per line, to a file or stdout (``-``)."""

    def __init__(self, path: str) -> None:
        self._own = path != "-"
        if self._own:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._out: IO[bytes] = open(path, "wb") if self._own else sys.stdout.buffer

    def write(self, rows: list[dict[str, Any]]) -> None:
        self._out.write(b"".join(dumps(r) + b"\n" for r in rows))

    def close(self) -> None:
        if self._own:
            self._out.close()
        else:
            self._out.flush()


class ParquetWriter:
    """Rows to a Parquet file, one row group per batch."""

    def __init__(self, path: str) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as err:
            raise OSError("writing Parquet needs pyarrow: pip install 'toolsift[arrow]'") from err
        self._pa = pa
        issue = pa.struct(
            [("kind", pa.string()), ("message", pa.string()), ("span", pa.list_(pa.int64()))]
        )
        names = ("source", "line", "transcript", "message", "call_id", "syntax", "name")
        types = (pa.string(), pa.int64(), pa.int64(), pa.int64(), pa.string(), pa.string())
        self.schema = pa.schema(
            [
                *zip(names, (*types, pa.string()), strict=True),
                ("arguments", pa.string()),
                ("span", pa.list_(pa.int64())),
                ("repairs", pa.list_(pa.string())),
                ("issues", pa.list_(issue)),
            ]
        )
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = pq.ParquetWriter(Path(path), self.schema)

    def write(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        flat = [
            r | {"arguments": None if r["arguments"] is None else dumps(r["arguments"]).decode()}
            for r in rows
        ]
        self._writer.write_table(self._pa.Table.from_pylist(flat, schema=self.schema))

    def close(self) -> None:
        self._writer.close()
