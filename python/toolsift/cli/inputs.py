"""What ``toolsift extract`` reads: text files, JSONL and Parquet, as texts to parse.

A JSONL line (or Parquet row) is a JSON string (one reply), or an object whose text is in
``--field``; without ``--field`` the first of ``messages`` (OpenAI chat), ``conversations``
(ShareGPT) and ``text`` that the record has. In a message list, the messages of the chosen
roles are parsed (``assistant``, ``gpt`` and ``model`` by default); a content given as a list
of parts is the text of its text parts, joined; a message's structured calls (OpenAI
``tool_calls``, Anthropic ``tool_use`` parts) are read as ``api_tool_call``. A record's
``syntax`` field (``--syntax-field``) overrides ``--syntax`` for that record. A line that is
not JSON, has no text where one is expected, or names an unknown syntax is a bad line:
reported with its line number, never
dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..strategies.api_shapes import API_TOOL_CALL
from ..streaming import ENGINE_SYNTAXES

__all__ = ["BadRecord", "ReadOptions", "Unit", "expand", "read"]

SUFFIXES = (".jsonl", ".parquet", ".txt")
AUTO_FIELDS = ("messages", "conversations", "text")


@dataclass(frozen=True, slots=True)
class Unit:
    """One text to parse, and where it came from."""

    source: str
    line: int | None  # 1-based line (JSONL) or row (Parquet); None for a text file
    transcript: int  # 0-based record index in the source
    message: int | None  # index in the record's message list, None for a plain text
    syntax: tuple[str, ...] | None  # the record's own syntax, if it names one
    text: str
    response: Any = None  # a message with structured calls, read as ``api_tool_call``


@dataclass(frozen=True, slots=True)
class ReadOptions:
    field: str | None
    roles: frozenset[str]
    syntax_field: str


class BadRecord(Exception):
    """A record that cannot be read; ``str()`` is the reason."""


def expand(paths: Sequence[str]) -> list[Path]:
    """The files named, a folder standing for its ``.jsonl``, ``.parquet`` and ``.txt`` files
    (recursively, sorted)."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        else:
            files.append(path)
    return files


def _content(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [
            p if isinstance(p, str) else p.get("text")
            for p in value
            if isinstance(p, str) or (isinstance(p, dict) and p.get("type", "text") == "text")
        ]
        return "".join(p for p in parts if isinstance(p, str))
    return None


def _has_tool_use(body: Any) -> bool:
    return isinstance(body, list) and any(
        isinstance(p, dict) and p.get("type") == "tool_use" for p in body
    )


def _syntax(record: dict[str, Any], options: ReadOptions) -> tuple[str, ...] | None:
    value = record.get(options.syntax_field) if options.syntax_field else None
    if value is None:
        return None
    names = tuple(value.split(",")) if isinstance(value, str) else ()
    unknown = [n for n in names if n not in ENGINE_SYNTAXES and n != "auto"]
    if not names or unknown:
        raise BadRecord(f"unknown syntax {value!r} in field {options.syntax_field!r}")
    return names


def units_of(
    record: Any, options: ReadOptions, source: str, line: int | None, index: int
) -> list[Unit]:
    """The texts to parse in one record; raises :class:`BadRecord`."""
    if isinstance(record, str):
        return [Unit(source, line, index, None, None, record)]
    if not isinstance(record, dict):
        raise BadRecord(f"a record must be a string or an object, not {type(record).__name__}")
    field = options.field or next((f for f in AUTO_FIELDS if f in record), None)
    if field is None or field not in record:
        wanted = repr(options.field) if options.field else "messages, conversations or text"
        raise BadRecord(f"no field {wanted}")
    syntax = _syntax(record, options)
    value = record[field]
    if isinstance(value, str):
        return [Unit(source, line, index, None, syntax, value)]
    if not isinstance(value, list):
        raise BadRecord(f"field {field!r} is neither text nor a list of messages")
    units = []
    for number, message in enumerate(value):
        if not isinstance(message, dict):
            raise BadRecord(f"message {number} of {field!r} is not an object")
        role = message.get("role", message.get("from"))
        if role not in options.roles:
            continue
        body = message.get("content", message.get("value"))
        text = _content(body)
        if text:
            units.append(Unit(source, line, index, number, syntax, text))
        if message.get("tool_calls") or _has_tool_use(body):
            # Calls the API returned as objects (OpenAI tool_calls, Anthropic tool_use parts).
            units.append(Unit(source, line, index, number, (API_TOOL_CALL,), "", message))
    return units


OnBad = Callable[[str, int | None, str], None]


def _jsonl(
    path: Path, options: ReadOptions, on_bad: OnBad
) -> Iterator[tuple[list[Unit] | None, int]]:
    index = 0
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                yield None, len(raw)
                continue
            try:
                units = units_of(orjson.loads(raw), options, str(path), number, index)
            except orjson.JSONDecodeError as err:
                on_bad(str(path), number, f"not JSON: {err}")
                units = []
            except BadRecord as err:
                on_bad(str(path), number, str(err))
                units = []
            index += 1
            yield units, len(raw)


def _parquet(
    path: Path, options: ReadOptions, on_bad: OnBad
) -> Iterator[tuple[list[Unit] | None, int]]:
    try:
        import pyarrow.parquet as pq
    except ImportError as err:
        raise OSError(
            f"{path}: reading Parquet needs pyarrow: pip install 'toolsift[arrow]'"
        ) from err
    file = pq.ParquetFile(path)
    rows = max(1, file.metadata.num_rows)
    per_row = path.stat().st_size / rows
    index = 0
    for batch in file.iter_batches(batch_size=2048):
        for record in batch.to_pylist():
            index += 1
            try:
                units = units_of(record, options, str(path), index, index - 1)
            except BadRecord as err:
                on_bad(str(path), index, str(err))
                units = []
            yield units, int(per_row)


def read(
    path: Path, options: ReadOptions, on_bad: OnBad
) -> Iterator[tuple[list[Unit] | None, int]]:
    """``(units, bytes read)`` for each record of ``path`` (``None`` for a blank line); bad
    records go to ``on_bad`` and give no units."""
    if path.suffix == ".jsonl":
        yield from _jsonl(path, options, on_bad)
    elif path.suffix == ".parquet":
        yield from _parquet(path, options, on_bad)
    else:
        data = path.read_bytes()
        yield [Unit(str(path), None, 0, None, None, data.decode("utf-8", "replace"))], len(data)
