"""Parsing strategies for :class:`toolsift.Parser`.

- :mod:`toolsift.strategies.native`: one strategy per syntax of the Rust engine.
- :mod:`toolsift.strategies.api_tool_call`: provider-native tool calls (OpenAI, Anthropic,
  Gemini objects), read whole by :mod:`~toolsift.strategies.api_response` and from streams by
  :mod:`~toolsift.strategies.api_stream`.
- Skill-declared syntaxes live in :mod:`toolsift.skills`.

This package imports nothing itself, so the streaming and parsing modules can use its parts
without an import cycle.
"""
