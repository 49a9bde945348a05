"""``caret``: a block from ``^^^NAME`` to ``^^^`` with one header line per argument.

A string that fits on one line is written ``key: value`` (the parser drops blanks after the
colon and keeps the rest exactly). Anything else — a newline, leading blanks, a value a header
line would misread (``[`` opens a list) — uses the multi-line form ``KEY ---`` … ``--- KEY``,
whose raw lines come back joined with ``\\n``. A value with a line that is exactly ``--- KEY``,
or that ends in a carriage return (taken as part of the line break), cannot be carried: a
:class:`toolsift.FormatError` says so. Non-strings are one line of JSON, typed back by
``tools=``. Names and keys are ``[A-Za-z0-9_]`` words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_key, check_name, refuse, text_value
from .describe import plain_lines

__all__ = ["FORMATTERS"]

_WORD = re.compile(r"[A-Za-z0-9_]+")


def _one_line(text: str) -> bool:
    return (
        "\n" not in text
        and "\r" not in text
        and not text[:1].isspace()
        and text.rstrip() not in ("[", "|", "|-")
    )


def render(name: str, arguments: Mapping[str, Any]) -> str:
    """One ``^^^NAME`` block."""
    lines = [f"^^^{check_name(name, 'caret', _WORD)}"]
    for key, value in arguments.items():
        check_key(key, "caret", _WORD)
        text = text_value(value)
        if _one_line(text):
            lines.append(f"{key}: {text}")
            continue
        if text.endswith("\r"):
            raise refuse("caret", key, "a final carriage return is read as part of a line break")
        if f"--- {key}" in text.split("\n"):
            raise refuse("caret", key, f"it has a line '--- {key}', which ends the value")
        lines += [f"{key} ---", text, f"--- {key}"]
    return "\n".join([*lines, "^^^"])


FORMATTERS = {
    "caret": Formatter(
        "caret",
        render,
        plain_lines,
        "To call a tool, write a block that starts with a line ^^^NAME and ends with a line "
        "^^^ (both at the start of the line). Inside, write one argument per line as "
        "KEY: VALUE. A multi-line value (or one with leading spaces) is written as a line "
        "KEY ---, the value's lines exactly as they are, and a line --- KEY. Lists, objects, "
        'numbers and booleans are written as JSON on one line (tags: ["a", "b"]).',
    )
}
