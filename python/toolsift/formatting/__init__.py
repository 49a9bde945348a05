"""Formatters: render calls and describe tools in every syntax toolsift parses.

>>> from toolsift import ToolCall
>>> print(format_call(ToolCall("search", {"q": "a <b>"}), "xml_tool"))
<tool name="search">
<arguments>
<arg name="q">a &lt;b&gt;</arg>
</arguments>
</tool>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import ToolCall
from .base import Formatter
from .examples import example_arguments, placeholder
from .registry import (
    DEFAULT_REGISTRY,
    FORMATTERS,
    PROVIDER_SYNTAX,
    SYNTAX_ALIASES,
    FormattingRegistry,
    resolve_syntax,
    syntax_from_env,
)

__all__ = [
    "DEFAULT_REGISTRY",
    "FORMATTERS",
    "PROVIDER_SYNTAX",
    "SYNTAX_ALIASES",
    "Formatter",
    "FormattingRegistry",
    "example_arguments",
    "format_call",
    "format_calls",
    "placeholder",
    "resolve_syntax",
    "syntax_from_env",
]


def format_call(
    call: ToolCall | tuple[str, Mapping[str, Any]],
    syntax: str,
    *,
    registry: FormattingRegistry | None = None,
) -> str:
    """``call`` written in ``syntax`` (a syntax name, ``xml``/``json``, or ``api_tool_call``),
    exactly as that syntax's parser reads it back.

    Raises :class:`toolsift.FormatError` when the syntax cannot carry a name, key or value
    unchanged (the message says which and why), and :class:`toolsift.UnknownSyntaxError`
    for an unknown syntax. Text syntaxes (XML-like tags, caret) write numbers, booleans,
    lists and objects as text: parse them back with ``tools=`` so the schema types them.
    """
    name, arguments = (call.name, call.arguments) if isinstance(call, ToolCall) else call
    formatter = (registry or DEFAULT_REGISTRY).formatter(syntax, name)
    if formatter.render_many is not None and isinstance(call, ToolCall) and call.id:
        return formatter.render_many([(call.id, name, arguments)])  # keeps the call's id
    return formatter.render(name, arguments)


#: What goes between two calls of one reply (a newline unless the syntax says otherwise).
_SEPARATORS = {"llama3_json": "; "}


def format_calls(
    calls: list[ToolCall] | list[tuple[str, Mapping[str, Any]]],
    syntax: str,
    *,
    registry: FormattingRegistry | None = None,
) -> str:
    """Several calls as one reply in ``syntax`` (for transcript conversion and few-shot
    turns), so ``parse`` returns them all, in order. Syntaxes with a multi-call form use it
    (one JSON list for ``xlam``/``mistral``/``granite``/``jamba``, one ``tool_calls`` array
    keeping the calls' ids for ``api_tool_call``, Kimi ids numbered from 0); the others
    repeat their single-call form, separated as the syntax separates calls.

    >>> print(format_calls([("a", {}), ("b", {"x": 1})], "llama3_json"))
    {"name": "a", "parameters": {}}; {"name": "b", "parameters": {"x": 1}}
    >>> print(format_calls([("a", {}), ("b", {"x": 1})], "xlam"))
    [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]
    """
    reg = registry or DEFAULT_REGISTRY
    name = resolve_syntax(syntax)
    triples = [
        (c.id, c.name, c.arguments) if isinstance(c, ToolCall) else ("", c[0], c[1]) for c in calls
    ]
    base = reg.formatter(name)
    plain = all(reg.formatter(name, n) == base for _, n, _ in triples)
    if base.render_many is not None and plain and triples:
        return base.render_many(triples)
    parts = [format_call(call, name, registry=registry) for call in calls]
    return _SEPARATORS.get(name, "\n").join(parts)
