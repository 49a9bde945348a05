"""``parse``: one entry point for every syntax toolsift reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import UnknownSyntaxError
from .model import ParseResult
from .streaming import ENGINE_SYNTAXES, StreamParser

__all__ = ["SYNTAXES", "parse"]


def _first_call_only(text: str, result: ParseResult) -> ParseResult:
    """The single-call contract of the original TOOL_CALL parser: the first call, with the
    text of the later calls back in the content."""
    first = result.calls[0]
    content = text[: first.span[0]] + text[first.span[1] :]
    issues = [i for i in result.issues if i.span[0] <= first.span[0]]
    return ParseResult([first], content, issues)


TOOL_CALL_JSON = "tool_call_json"

#: The syntax names ``parse`` accepts.
SYNTAXES: tuple[str, ...] = tuple(sorted(ENGINE_SYNTAXES))


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
    by ``finish``, so batch and streaming results cannot disagree. A list of names enables
    them all at once; the other options are ``StreamParser``'s (``tools``,
    ``unknown_tools``).
    """
    request = ParseRequest(syntax, options)
    return request.finish(text, request.parser.parse_all(text))


class ParseRequest:
    """What ``parse`` and ``parse_many`` share: the checked syntax names, the parser options,
    and the per-text finishing (``first_only``, ``id_prefix``, the caller's own ``raw``)."""

    def __init__(self, syntax: str | Sequence[str], options: dict[str, Any]) -> None:
        self.names = [syntax] if isinstance(syntax, str) else list(syntax)
        unknown = [n for n in self.names if n not in ENGINE_SYNTAXES]
        if unknown:
            known = ", ".join(SYNTAXES)
            raise UnknownSyntaxError(
                f"unknown syntax {unknown[0]!r}; known syntaxes: {known}", reason="unknown_syntax"
            )
        options = dict(options)
        self.first_only = bool(options.pop("first_only", False))
        self.id_prefix: str | None = options.pop("id_prefix", None)
        self.marker: str | None = options.get("marker")
        self.max_payload_chars: int | None = options.get("max_payload_chars")
        self.parser = StreamParser(syntax, previews=False, **options)

    def finish(self, text: str, result: ParseResult, *, fix_raw: bool = True) -> ParseResult:
        """Applies the per-text options to the engine's result for ``text``; ``fix_raw=False``
        when ``text`` reached the engine unchanged (no lone surrogate was replaced)."""
        if not fix_raw and not self.first_only and self.id_prefix is None:
            return result
        if self.first_only and len(result.calls) > 1:
            result = _first_call_only(text, result)
        id_prefix = self.id_prefix
        for call in result.calls:
            # The engine read lone surrogates as U+FFFD; the raw text is the caller's own.
            call.raw = text[call.span[0] : call.span[1]]
            if id_prefix is not None:
                call.id = id_prefix + call.id.removeprefix("call_")
        return result
