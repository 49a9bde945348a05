"""``parse``: one entry point for every syntax toolsift reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import UnknownSyntaxError
from .model import ParseResult
from .strategies.tool_call_json import SYNTAX as TOOL_CALL_JSON
from .strategies.tool_call_json import parse_tool_call_json

__all__ = ["SYNTAXES", "parse"]

_PARSERS: dict[str, Callable[..., ParseResult]] = {
    TOOL_CALL_JSON: parse_tool_call_json,
}

#: The syntax names ``parse`` accepts today.
SYNTAXES: tuple[str, ...] = tuple(sorted(_PARSERS))


def parse(text: str, syntax: str = TOOL_CALL_JSON, **options: Any) -> ParseResult:
    """Extracts the tool calls of one syntax from ``text``.

    >>> result = parse('TOOL_CALL: {"tool_name": "greet", "parameters": {"name": "Ada"}}')
    >>> [(c.id, c.name, c.arguments) for c in result.calls]
    [('call_0', 'greet', {'name': 'Ada'})]

    Options of ``tool_call_json``: ``marker`` (literal, default ``"TOOL_CALL"``),
    ``max_payload_chars`` (default 8000, 0 for no limit), ``first_only`` (default False),
    ``id_prefix`` (default ``"call_"``). Raises :class:`toolsift.UnknownSyntaxError` for a
    syntax name it does not know.
    """
    try:
        parser = _PARSERS[syntax]
    except KeyError:
        known = ", ".join(SYNTAXES)
        raise UnknownSyntaxError(
            f"unknown syntax {syntax!r}; known syntaxes: {known}", reason="unknown_syntax"
        ) from None
    return parser(text, **options)
