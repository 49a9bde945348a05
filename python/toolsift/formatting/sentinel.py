"""``sentinel``: ``[[SEG_START {header}]]BODY[[SEG_END]]``.

A call is a ``tool`` segment whose header carries the name and the arguments as JSON (the
header is read with the JSON scanner, so any string is safe there). ``write_file`` and
``run_bash`` calls whose arguments are exactly ``path``+``content`` / ``command`` (strings)
use their own segment types, with the raw text as the body: it is kept exactly, and must not
contain ``[[SEG_END]]`` (such a call falls back to the ``tool`` form, which can carry it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_name, json_text
from .describe import json_schema

__all__ = ["FORMATTERS"]

_END = "[[SEG_END]]"


def _raw_form(name: str, arguments: Mapping[str, Any]) -> tuple[dict[str, Any], str] | None:
    """The header and body of a ``write_file``/``run_bash`` segment, or ``None``."""
    values = list(arguments.values())
    if not all(isinstance(v, str) for v in values):
        return None
    if name == "write_file" and set(arguments) == {"path", "content"}:
        header, body = {"type": "write_file", "path": arguments["path"]}, arguments["content"]
    elif name == "run_bash" and set(arguments) == {"command"}:
        header, body = {"type": "run_bash"}, arguments["command"]
    else:
        return None
    return (header, body) if _END not in body else None


def render(name: str, arguments: Mapping[str, Any]) -> str:
    """One segment: the raw form where it applies, else a ``tool`` header."""
    name = check_name(name, "sentinel")
    raw = _raw_form(name, arguments)
    if raw is not None:
        return f"[[SEG_START {json_text(raw[0])}]]{raw[1]}{_END}"
    header = {"type": "tool", "tool_name": name, "arguments": dict(arguments)}
    return f"[[SEG_START {json_text(header)}]]{_END}"


FORMATTERS = {
    "sentinel": Formatter(
        "sentinel",
        render,
        json_schema,
        'To call a tool, write [[SEG_START {"type": "tool", "tool_name": "NAME", '
        '"arguments": {...}}]][[SEG_END]], the header being one JSON object. To write a '
        'file, write [[SEG_START {"type": "write_file", "path": "PATH"}]] then the file '
        "exactly as it should be, then [[SEG_END]]; to run a shell command, "
        '[[SEG_START {"type": "run_bash"}]]COMMAND[[SEG_END]].',
    )
}
