"""``FormattingRegistry``: which formatter a provider or syntax gets, with per-tool overrides
and the ``TOOLSIFT_SYNTAX`` environment override.

Order of precedence when picking a syntax: an explicit ``syntax=`` argument, then
``TOOLSIFT_SYNTAX`` (read through the shared resolver in :mod:`toolsift.providers`), then the
provider's default: :data:`PROVIDER_SYNTAX` for model families and tools, the provider
profile's format for :class:`toolsift.Provider` names.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import FormatError, UnknownProviderError, UnknownSyntaxError
from ..tools import ToolDefinition
from . import (
    caret,
    code_assistant_xml,
    json_blocks,
    json_objects,
    pythonic,
    sentinel,
    tagged,
    token_calls,
    xml_tool,
)
from .base import Formatter

__all__ = [
    "CALL_FREE_SYNTAXES",
    "FORMATTERS",
    "PROVIDER_SYNTAX",
    "SYNTAX_ALIASES",
    "FormattingRegistry",
    "resolve_syntax",
    "syntax_from_env",
]

#: Every formatter, by syntax name: one per parser syntax that holds calls (all but ``think``).
FORMATTERS: dict[str, Formatter] = {
    name: formatter
    for module in (
        json_objects,
        json_blocks,
        token_calls,
        pythonic,
        xml_tool,
        tagged,
        code_assistant_xml,
        caret,
        sentinel,
    )
    for name, formatter in sorted(module.FORMATTERS.items())
}

#: Short names ``TOOLSIFT_SYNTAX`` (and ``syntax=``) accept besides the syntax names.
SYNTAX_ALIASES = {"xml": "xml_tool", "json": "tool_call_json"}

#: Default syntaxes of model families and tools that are not API providers (lower case). The
#: providers of :class:`toolsift.Provider` (``openai``, ``qwen``, ``deepseek``, …) take their
#: profile's format instead, so parsing and formatting share one table for them.
PROVIDER_SYNTAX: dict[str, str] = {
    "google": "api_tool_call",
    "moonshot": "kimi_k2",
    "qwen3_coder": "qwen3_coder",
    "hermes": "hermes",
    "llama4": "pythonic",
    "zhipu": "glm45",
    "jamba": "jamba",
    "xlam": "xlam",
    "internlm": "internlm",
    "step": "step3",
    "claude_xml": "anthropic_xml",
    "autobyteus": "xml_tool",
    "code_assistant": "code_assistant_xml",
}

ENV_VAR = "TOOLSIFT_SYNTAX"

#: Syntaxes the parser reads that hold no tool calls (reasoning blocks only).
CALL_FREE_SYNTAXES = frozenset({"think"})


def _valid_names() -> list[str]:
    return sorted({*FORMATTERS, *SYNTAX_ALIASES})


def resolve_syntax(name: str, *, source: str = "syntax") -> str:
    """The formatter syntax ``name`` means (aliases resolved); raises
    :class:`toolsift.UnknownSyntaxError` listing the valid names."""
    key = name.strip().lower()
    key = SYNTAX_ALIASES.get(key, key)
    if key in CALL_FREE_SYNTAXES:
        raise FormatError(
            f"{key!r} holds reasoning blocks, not tool calls: nothing to format; "
            f"valid: {', '.join(_valid_names())}",
            reason="no_calls",
        )
    if key not in FORMATTERS:
        raise UnknownSyntaxError(
            f"{source} {name!r} is not a syntax; valid: {', '.join(_valid_names())}",
            reason="unknown_syntax",
        )
    return key


def syntax_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The syntax ``TOOLSIFT_SYNTAX`` forces for formatting, or ``None`` when it is unset,
    blank or ``auto``. It is read by the shared resolver
    (:func:`toolsift.providers.resolve_syntax`), so parsing and formatting follow the same
    variable with the same rules (a list formats in its first syntax; a bad value raises
    :class:`toolsift.UnknownSyntaxError` listing the valid ones)."""
    from ..providers.override import ENV_VAR as VARIABLE
    from ..providers.override import resolve_syntax as shared_resolve

    env = os.environ if environ is None else environ
    if not env.get(VARIABLE, "").strip():
        return None
    chosen = [n for n in shared_resolve(environ=env) if n != "auto"]
    return resolve_syntax(chosen[0], source=VARIABLE) if chosen else None


Render = Callable[[str, Mapping[str, Any]], str]
Describe = Callable[[ToolDefinition], str]


class FormattingRegistry:
    """Formatters by syntax, defaults by provider, and per-tool overrides.

    >>> reg = FormattingRegistry()
    >>> reg.syntax_for(provider="qwen", environ={})
    'hermes'
    >>> reg.syntax_for(provider="qwen", environ={"TOOLSIFT_SYNTAX": "xml"})
    'xml_tool'
    >>> reg.syntax_for(model="Qwen/Qwen3-Coder-30B-A3B-Instruct", environ={})
    'qwen3_coder'
    """

    def __init__(self, providers: Mapping[str, str] | None = None) -> None:
        self.providers = dict(PROVIDER_SYNTAX if providers is None else providers)
        self._overrides: dict[tuple[str | None, str], tuple[Render | None, Describe | None]] = {}

    def syntax_for(
        self,
        *,
        syntax: str | None = None,
        provider: str | None = None,
        model: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> str:
        """The syntax to use: ``syntax`` if given, else ``TOOLSIFT_SYNTAX``, else the
        provider's default, else the one :func:`toolsift.syntax_for_model` gives ``model``.
        Raises :class:`toolsift.UnknownProviderError` listing the known providers."""
        if syntax is not None:
            return resolve_syntax(syntax)
        forced = syntax_from_env(environ)
        if forced is not None:
            return forced
        if provider is None and model is not None:
            from ..models import syntax_for_model

            return resolve_syntax(syntax_for_model(model))
        if provider is None:
            raise ValueError("give syntax=, provider= or model= (or set TOOLSIFT_SYNTAX)")
        from ..providers.profiles import PROFILES, Provider

        key = provider.strip().lower()
        if key in self.providers:
            return resolve_syntax(self.providers[key])
        if key in {p.value for p in Provider}:
            return resolve_syntax(PROFILES[Provider(key)].format)
        known = ", ".join(sorted({*self.providers, *(p.value for p in Provider)}))
        raise UnknownProviderError(
            f"unknown provider {provider!r}; known providers: {known}", reason="unknown_provider"
        )

    def override(
        self,
        tool: str,
        *,
        syntax: str | None = None,
        render: Render | None = None,
        describe: Describe | None = None,
    ) -> None:
        """Use ``render`` and/or ``describe`` for the tool called ``tool`` (in ``syntax``
        only, or in every syntax when ``syntax`` is ``None``)."""
        key = None if syntax is None else resolve_syntax(syntax)
        self._overrides[(key, tool)] = (render, describe)

    def formatter(self, syntax: str, tool: str | None = None) -> Formatter:
        """The formatter of ``syntax``, with ``tool``'s overrides applied."""
        name = resolve_syntax(syntax)
        base = FORMATTERS[name]
        if tool is None:
            return base
        found = self._overrides.get((name, tool)) or self._overrides.get((None, tool))
        if found is None:
            return base
        render, describe = found
        # An overridden renderer writes its own calls, so the multi-call form is not used.
        return Formatter(name, render or base.render, describe or base.describe, base.rules)


#: The registry ``manifest`` and ``format_call`` use unless given another.
DEFAULT_REGISTRY = FormattingRegistry()
