"""``parse``: one entry point for every syntax toolsift reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _native
from .errors import UnknownSyntaxError
from .model import ParseResult
from .streaming import ENGINE_SYNTAXES, StreamParser

__all__ = ["AUTO", "AUTO_SYNTAXES", "SYNTAXES", "parse"]


def _first_call_only(text: str, result: ParseResult) -> ParseResult:
    """The single-call contract of the original TOOL_CALL parser: the first call, with the
    text of the later calls back in the content."""
    first = result.calls[0]
    content = text[: first.span[0]] + text[first.span[1] :]
    issues = [i for i in result.issues if i.span[0] <= first.span[0]]
    return ParseResult([first], content, issues)


TOOL_CALL_JSON = "tool_call_json"

#: The syntax names ``parse`` accepts (besides :data:`AUTO`).
SYNTAXES: tuple[str, ...] = tuple(sorted(ENGINE_SYNTAXES))

#: The name that enables auto-detection.
AUTO = "auto"

#: The syntaxes ``syntax="auto"`` runs, in the order they win a tie, and so the values
#: ``ToolCall.syntax`` can take under it. Left out: the bare-JSON syntaxes (``json_openai``,
#: ``json_gemini``, ``json_default``, ``xlam``); ``llama3_json``, ``pythonic`` and
#: ``tool_call_json`` take part only through their special markers (``<|python_tag|>``,
#: ``<|python_start|>``, ``TOOL_CALL``), since a bare ``{`` or ``[`` is prose too.
AUTO_SYNTAXES: tuple[str, ...] = tuple(_native.NativeStream.auto_syntax_names())


def parse(text: str, syntax: str | Sequence[str] = TOOL_CALL_JSON, **options: Any) -> ParseResult:
    """Extracts the tool calls of one syntax from ``text``.

    >>> result = parse('TOOL_CALL: {"tool_name": "greet", "parameters": {"name": "Ada"}}')
    >>> [(c.id, c.name, c.arguments) for c in result.calls]
    [('call_0', 'greet', {'name': 'Ada'})]

    Options of ``tool_call_json``: ``marker`` (literal, default ``"TOOL_CALL"``),
    ``max_payload_chars`` (default 8000, 0 for no limit), ``first_only`` (default False),
    ``id_prefix`` (default ``"call_"``). Raises :class:`toolsift.UnknownSyntaxError` for a
    syntax name it does not know.

    Every syntax runs on the streaming engine: a parse is one ``StreamParser`` feed followed
    by ``finish``, so batch and streaming results cannot disagree. ``syntax="auto"`` enables
    every syntax of :data:`AUTO_SYNTAXES` and each call's ``syntax`` says which matched. A list
    of names enables them all at once; the other options are ``StreamParser``'s (``tools``,
    ``unknown_tools``).
    """
    names = [syntax] if isinstance(syntax, str) else list(syntax)
    unknown = [n for n in names if n not in ENGINE_SYNTAXES and n != AUTO]
    if unknown:
        known = ", ".join((AUTO, *SYNTAXES))
        raise UnknownSyntaxError(
            f"unknown syntax {unknown[0]!r}; known syntaxes: {known}", reason="unknown_syntax"
        )
    first_only = bool(options.pop("first_only", False))
    id_prefix = options.pop("id_prefix", None)
    result = StreamParser(syntax, previews=False, **options).parse_all(text)
    if first_only and len(result.calls) > 1:
        result = _first_call_only(text, result)
    for call in result.calls:
        # The engine read lone surrogates as U+FFFD; the raw text is the caller's own.
        call.raw = text[call.span[0] : call.span[1]]
        if id_prefix is not None:
            call.id = id_prefix + call.id.removeprefix("call_")
    return result
