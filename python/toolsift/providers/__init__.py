"""Providers, their default syntax profiles and the ``TOOLSIFT_SYNTAX`` override.

>>> from toolsift.providers import Provider, resolve_syntax
>>> resolve_syntax(Provider.GEMINI, environ={})
('api_tool_call', 'json_gemini')
>>> resolve_syntax(Provider.QWEN, side="format", environ={})
'hermes'
"""

from __future__ import annotations

from .override import ENV_VAR, SYNTAX_ALIASES, as_provider, resolve_syntax, valid_syntax_values
from .profiles import AUTO, AUTO_SYNTAXES, PROFILES, Provider, ProviderProfile

__all__ = [
    "AUTO",
    "AUTO_SYNTAXES",
    "ENV_VAR",
    "PROFILES",
    "SYNTAX_ALIASES",
    "Provider",
    "ProviderProfile",
    "as_provider",
    "resolve_syntax",
    "valid_syntax_values",
]
