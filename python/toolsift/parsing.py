"""``parse``: one entry point for every syntax toolsift reads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import UnknownSyntaxError
from .model import ParseResult
from .strategies.tool_call_json import SYNTAX as TOOL_CALL_JSON
from .strategies.tool_call_json import parse_tool_call_json
from .streaming import ENGINE_SYNTAXES, StreamParser

__all__ = ["SYNTAXES", "parse"]

_PARSERS: dict[str, Callable[..., ParseResult]] = {
    TOOL_CALL_JSON: parse_tool_call_json,
}

#: The syntax names ``parse`` accepts today.
SYNTAXES: tuple[str, ...] = tuple(sorted({*_PARSERS, *ENGINE_SYNTAXES}))


def parse(text: str, syntax: str | Sequence[str] = TOOL_CALL_JSON, **options: Any) -> ParseResult:
    """Extracts the tool calls of one syntax from ``text``.

    >>> result = parse('TOOL_CALL: {"tool_name": "greet", "parameters": {"name": "Ada"}}')
    >>> [(c.id, c.name, c.arguments) for c in result.calls]
    [('call_0', 'greet', {'name': 'Ada'})]

    Options of ``tool_call_json``: ``marker`` (literal, default ``"TOOL_CALL"``),
    ``max_payload_chars`` (default 8000, 0 for no limit), ``first_only`` (default False),
    ``id_prefix`` (default ``"call_"``). Raises :class:`toolsift.UnknownSyntaxError` for a
    syntax name it does not know.

    Syntaxes run by the streaming engine (``hermes``, ``run_module``, …) are parsed as one
    ``StreamParser`` feed followed by ``finish``, so batch and streaming results agree; a
    list of such names enables them all at once; their options are ``StreamParser``'s
    (``tools``, ``unknown_tools``).
    """
    if not isinstance(syntax, str) or syntax in ENGINE_SYNTAXES:
        parser = StreamParser(syntax, **options)
        parser.feed(text)
        parser.finish()
        return parser.result()
    try:
        batch = _PARSERS[syntax]
    except KeyError:
        known = ", ".join(SYNTAXES)
        raise UnknownSyntaxError(
            f"unknown syntax {syntax!r}; known syntaxes: {known}", reason="unknown_syntax"
        ) from None
    return batch(text, **options)
