"""Which syntaxes to use: an explicit choice, the ``TOOLSIFT_SYNTAX`` override, a provider's
profile, or auto-detection, in that order. Parsing and formatting both ask here, so one
environment variable switches both sides consistently.

``TOOLSIFT_SYNTAX`` holds a syntax name, a comma-separated list of them (parsing enables them
all; formatting writes the first), ``auto``, or a short alias: ``xml`` (``xml_tool``), ``json``
(``tool_call_json``). An unset or blank variable means no override. Anything else raises
:class:`toolsift.UnknownSyntaxError` listing the valid values: a typo in a deployment's
environment must fail loudly, not fall back to a default silently.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Literal, overload

from ..errors import UnknownProviderError, UnknownSyntaxError
from ..streaming import ENGINE_SYNTAXES
from .profiles import API_TOOL_CALL, AUTO, PROFILES, Provider

__all__ = [
    "ENV_VAR",
    "SYNTAX_ALIASES",
    "as_provider",
    "resolve_syntax",
    "valid_syntax_values",
]

ENV_VAR = "TOOLSIFT_SYNTAX"
#: Short names accepted wherever a syntax name is (the design document's vocabulary).
SYNTAX_ALIASES: dict[str, str] = {"xml": "xml_tool", "json": "tool_call_json"}


def valid_syntax_values() -> tuple[str, ...]:
    """Every value a syntax choice may take: ``auto``, the aliases and the syntax names."""
    return (AUTO, *SYNTAX_ALIASES, *sorted((*ENGINE_SYNTAXES, API_TOOL_CALL)))


def as_provider(provider: Provider | str) -> Provider:
    """``provider`` as a :class:`Provider`; raises :class:`toolsift.UnknownProviderError`
    (listing the known ones) for a name that is none."""
    if isinstance(provider, Provider):
        return provider
    try:
        return Provider(str(provider).strip().lower())
    except ValueError:
        known = ", ".join(p.value for p in Provider)
        raise UnknownProviderError(
            f"unknown provider {provider!r}; known providers: {known}", reason="unknown_provider"
        ) from None


def _names(choice: str | Sequence[str], origin: str) -> tuple[str, ...]:
    raw = choice.split(",") if isinstance(choice, str) else list(choice)
    names: list[str] = []
    known = set(ENGINE_SYNTAXES) | {API_TOOL_CALL}
    for item in raw:
        name = str(item).strip().lower()
        name = SYNTAX_ALIASES.get(name, name)
        if name == AUTO or name in known:
            names.append(name)
        else:
            valid = ", ".join(valid_syntax_values())
            raise UnknownSyntaxError(
                f"{origin}: unknown syntax {str(item).strip()!r}; valid values: {valid}",
                reason="unknown_syntax",
            )
    if not names:
        raise UnknownSyntaxError(f"{origin}: no syntax given", reason="unknown_syntax")
    return tuple(dict.fromkeys(names))


@overload
def resolve_syntax(
    provider: Provider | str | None = ...,
    syntax: str | Sequence[str] | None = ...,
    *,
    side: Literal["parse"] = ...,
    environ: Mapping[str, str] | None = ...,
) -> tuple[str, ...]: ...
@overload
def resolve_syntax(
    provider: Provider | str | None = ...,
    syntax: str | Sequence[str] | None = ...,
    *,
    side: Literal["format"],
    environ: Mapping[str, str] | None = ...,
) -> str: ...
def resolve_syntax(
    provider: Provider | str | None = None,
    syntax: str | Sequence[str] | None = None,
    *,
    side: Literal["parse", "format"] = "parse",
    environ: Mapping[str, str] | None = None,
) -> tuple[str, ...] | str:
    """The syntaxes to parse (a tuple, in order) or the one to format (a string).

    Precedence: an explicit ``syntax`` (code that names a syntax knows what it reads), then
    ``TOOLSIFT_SYNTAX``, then ``provider``'s profile, then auto-detection (formatting defaults
    to ``tool_call_json``, the design documents' format). ``auto`` stays one name (the
    engine's auto-detection arbitrates between syntaxes sharing a marker); on the formatting
    side it means "no override": the provider's format, else ``tool_call_json``.

    >>> resolve_syntax("anthropic", environ={})
    ('api_tool_call', 'anthropic_xml')
    >>> resolve_syntax("anthropic", side="format", environ={"TOOLSIFT_SYNTAX": "xml"})
    'xml_tool'
    >>> resolve_syntax(environ={"TOOLSIFT_SYNTAX": "hermes, api_tool_call"})
    ('hermes', 'api_tool_call')
    """
    env = os.environ if environ is None else environ
    override = env.get(ENV_VAR, "").strip()
    names: tuple[str, ...] = ()
    if syntax is not None:
        names = _names(syntax, "syntax")
    elif override:
        names = _names(override, ENV_VAR)
    if side == "format" and names:
        names = tuple(n for n in names if n != AUTO)
    if names:
        return names[0] if side == "format" else names
    if provider is not None:
        profile = PROFILES[as_provider(provider)]
        return profile.format if side == "format" else profile.parse
    return "tool_call_json" if side == "format" else (AUTO,)
