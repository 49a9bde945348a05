"""``toolsift manifest`` and ``toolsift format``: the writing side on the command line.

``manifest TOOLS.json`` prints the "Accessible Tools" section for the tools (a JSON list of
OpenAI-style definitions or ``{"tools": [...]}``) in a syntax, a provider's or a model's.
``format CALLS.jsonl`` writes calls back as model text in a syntax: it reads rows with ``name``
and ``arguments`` (``toolsift extract``'s output, or any such JSONL), gathers consecutive rows
of the same ``source``/``transcript``/``message`` into one reply (``format_calls``), and writes
one JSON line per reply: ``{"source", "transcript", "message", "syntax", "text"}``. Rows without
a name (issue rows) are passed over; a row that is not JSON, or a reply the syntax cannot carry
(``FormatError``), is reported with its line number and skipped or, with ``--on-error fail``,
stops the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ..errors import ToolsiftError
from ..formatting import format_calls
from ..manifest import manifest
from .extract import InputError, load_tools
from .outputs import JsonlWriter

__all__ = ["run_format", "run_manifest"]


def run_manifest(
    tools_path: str, syntax: str | None, provider: str | None, model: str | None, examples: bool
) -> str:
    return manifest(
        load_tools(tools_path), syntax=syntax, provider=provider, model=model, examples=examples
    )


def _rows(path: Path, on_bad: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                row = orjson.loads(raw)
            except orjson.JSONDecodeError as err:
                on_bad(number, f"not JSON: {err}")
                continue
            if not isinstance(row, dict):
                on_bad(number, "a row must be an object")
            elif row.get("name") is not None:
                if not isinstance(row.get("arguments"), dict):
                    on_bad(number, "arguments must be an object")
                else:
                    yield number, row


def run_format(inputs: list[str], syntax: str, output: str, on_error: str) -> tuple[int, int]:
    """Writes the replies; returns ``(replies written, rows skipped)``."""
    import sys

    skipped = 0
    written = 0

    def on_bad(where: str, reason: str) -> None:
        nonlocal skipped
        if on_error == "fail":
            raise InputError(f"{where}: {reason}")
        skipped += 1
        sys.stderr.write(f"{where}: skipped: {reason}\n")

    writer = JsonlWriter(output)
    try:
        for name in inputs:
            path = Path(name)
            if not path.is_file():
                raise OSError(f"no such file: {path}")
            group: list[tuple[int, dict[str, Any]]] = []

            def flush(group: list[tuple[int, dict[str, Any]]], path: Path = path) -> None:
                nonlocal written
                if not group:
                    return
                first = group[0][1]
                calls = [(row["name"], row["arguments"]) for _, row in group]
                try:
                    text = format_calls(calls, syntax)
                except ToolsiftError as err:
                    on_bad(f"{path}:{group[0][0]}", str(err))
                    return
                key = {k: first.get(k) for k in ("source", "transcript", "message")}
                writer.write([key | {"syntax": syntax, "text": text}])
                written += 1

            for number, row in _rows(path, lambda n, r, p=path: on_bad(f"{p}:{n}", r)):
                same = group and all(
                    group[0][1].get(k) == row.get(k) for k in ("source", "transcript", "message")
                )
                if not same:
                    flush(group)
                    group = []
                group.append((number, row))
            flush(group)
    finally:
        writer.close()
    return written, skipped
