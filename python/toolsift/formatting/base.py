"""What every syntax formatter provides, and the value helpers they share.

A :class:`Formatter` knows one syntax: ``render`` writes a call exactly in the shape its parser
reads (or raises :class:`toolsift.FormatError` when a value cannot be carried), ``describe``
writes a tool's schema in the syntax's idiom, and ``rules`` is the general usage text a
manifest puts before the tools.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import FormatError
from ..tools import ToolDefinition

__all__ = ["Formatter", "check_key", "check_name", "json_text", "text_value"]

#: Tool names every syntax can carry (SYNTAXES.md part C: dots, dashes and underscores).
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
#: Argument keys that tag- and line-based syntaxes can carry in a tag or at a line start.
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


def check_name(name: str, syntax: str, pattern: re.Pattern[str] = NAME) -> str:
    """``name`` if ``syntax`` can carry it as a tool name; else a :class:`FormatError`."""
    if not pattern.fullmatch(name):
        raise FormatError(
            f"{syntax} cannot carry the tool name {name!r}: names must match {pattern.pattern}",
            reason="bad_name",
        )
    return name


def check_key(key: str, syntax: str, pattern: re.Pattern[str] = KEY) -> str:
    """``key`` if ``syntax`` can carry it as an argument name; else a :class:`FormatError`."""
    if not pattern.fullmatch(key):
        raise FormatError(
            f"{syntax} cannot carry the argument name {key!r}: names must match {pattern.pattern}",
            reason="bad_key",
        )
    return key


def json_text(value: Any, *, indent: int | None = None) -> str:
    """JSON with non-ASCII kept as written (SYNTAXES.md part C), ``{"a": 1}`` spacing."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
    except (ValueError, TypeError) as exc:
        raise FormatError(f"value has no JSON form: {exc}", reason="not_json") from None


def text_value(value: Any) -> str:
    """A value as the text of a tag- or line-based syntax: strings as they are, everything
    else as JSON (read back through the tool's schema, ``tools=`` of ``parse``)."""
    return value if isinstance(value, str) else json_text(value)


def refuse(syntax: str, key: str, why: str) -> FormatError:
    """The error for a value ``syntax`` cannot carry."""
    return FormatError(f"{syntax} cannot carry the value of {key!r}: {why}", reason="unsafe_value")


@dataclass(frozen=True)
class Formatter:
    """One syntax's formatter pair plus its call renderer.

    ``render(name, arguments) -> str`` writes one call; ``describe(tool) -> str`` one tool's
    schema; ``rules`` the usage paragraph of a manifest. ``render_many(calls)``, where set,
    writes several ``(id, name, arguments)`` calls as the syntax's one multi-call form (one
    JSON list, one ``tool_calls`` array, numbered Kimi ids) instead of one block per call.
    """

    syntax: str
    render: Callable[[str, Mapping[str, Any]], str]
    describe: Callable[[ToolDefinition], str]
    rules: str
    render_many: Callable[[list[tuple[str, str, Mapping[str, Any]]]], str] | None = None
