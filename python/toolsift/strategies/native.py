"""Built-in strategies: one per syntax of the Rust engine, and ``api_tool_call``.

A :class:`toolsift.Parser` runs all its :class:`NativeSyntaxStrategy` members in one engine
pass (the engine arbitrates between syntaxes whose markers overlap, and the text is read once
whatever the number of syntaxes); each strategy's record then holds the calls of its syntax.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnknownSyntaxError
from ..model import ParseResult, ToolCall
from ..parsing import parse as parse_text
from ..providers.profiles import AUTO, AUTO_SYNTAXES
from ..registry_context import ParseContext
from ..streaming import ENGINE_SYNTAXES
from .api_response import read_response
from .api_shapes import API_TOOL_CALL

__all__ = [
    "ApiToolCallStrategy",
    "NativeSyntaxStrategy",
    "builtin_strategies",
    "engine_names",
]

#: Options of the engine a context may carry (the others are for user strategies).
ENGINE_OPTIONS = ("marker", "max_payload_chars", "first_only", "id_prefix")


def engine_options(context: ParseContext) -> dict[str, Any]:
    """The keyword arguments of :func:`toolsift.parse` a context asks for."""
    options = {k: v for k, v in context.options.items() if k in ENGINE_OPTIONS}
    if context.tools is not None:
        options["tools"] = list(context.tools)
        options["unknown_tools"] = context.unknown_tools
    return options


class NativeSyntaxStrategy:
    """Reads one text syntax of the engine (``hermes``, ``tool_call_json``, …)."""

    streamable = True

    def __init__(self, syntax: str) -> None:
        if syntax not in ENGINE_SYNTAXES:
            known = ", ".join(sorted(ENGINE_SYNTAXES))
            raise UnknownSyntaxError(
                f"unknown syntax {syntax!r}; known syntaxes: {known}", reason="unknown_syntax"
            )
        self.syntax = syntax

    @property
    def name(self) -> str:
        return self.syntax

    def supports(self, response: Any, context: ParseContext) -> bool:
        return isinstance(response, str)

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
        return self.parse_result(response, context).calls

    def parse_result(self, response: Any, context: ParseContext) -> ParseResult:
        return parse_text(response, self.syntax, **engine_options(context))

    def __repr__(self) -> str:
        return f"NativeSyntaxStrategy({self.syntax!r})"


class ApiToolCallStrategy:
    """Reads provider response objects (OpenAI, Anthropic, Gemini; dicts or SDK objects).
    Text is not its business: it supports anything but ``str``. Option ``choice``."""

    streamable = True
    name = API_TOOL_CALL

    def supports(self, response: Any, context: ParseContext) -> bool:
        return not isinstance(response, str)

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
        return self.parse_result(response, context).calls

    def parse_result(self, response: Any, context: ParseContext) -> ParseResult:
        choice = int(context.options.get("choice", 0))
        return read_response(response, choice=choice)

    def __repr__(self) -> str:
        return "ApiToolCallStrategy()"


def builtin_strategies(name: str) -> list[NativeSyntaxStrategy | ApiToolCallStrategy]:
    """The built-in strategies of syntax ``name``: one, or one per member for ``auto``."""
    if name == AUTO:
        return [NativeSyntaxStrategy(n) for n in AUTO_SYNTAXES]
    return [ApiToolCallStrategy() if name == API_TOOL_CALL else NativeSyntaxStrategy(name)]


def engine_names(syntaxes: list[str]) -> list[str]:
    """The names to give the engine for ``syntaxes``: every member of auto-detection present
    becomes ``auto`` itself, so the engine's arbitration between syntaxes that share a marker
    (``<tool_call>``: Hermes, Qwen3-Coder, GLM, Granite) applies, as with ``syntax="auto"``."""
    members = set(AUTO_SYNTAXES)
    if not members.issubset(syntaxes):
        return syntaxes
    return [AUTO, *(s for s in syntaxes if s not in members)]
