"""Providers and the syntax each one's models use: one profile for parsing, one for formatting.

A hosted API returns tool calls as structured objects (``api_tool_call``); the same models
served raw (through a local server without a tool parser, or a completion endpoint) write them
as text, so a profile's parse list starts with ``api_tool_call`` and goes on with the text
syntaxes the provider's models emit. Formatting uses one syntax: the native one for hosted APIs,
the model family's own text format for open models.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .. import _native

__all__ = ["AUTO", "AUTO_SYNTAXES", "PROFILES", "Provider", "ProviderProfile"]

API_TOOL_CALL = "api_tool_call"

#: What auto-detection runs (``syntax="auto"``), in the order its members win a tie; the
#: same tuple as ``toolsift.AUTO_SYNTAXES``.
AUTO_SYNTAXES: tuple[str, ...] = tuple(_native.NativeStream.auto_syntax_names())
AUTO = "auto"


class Provider(str, Enum):
    """A model provider (or serving stack). ``Provider("openai")`` and ``Provider.OPENAI`` are
    the same; ``LOCAL`` stands for any local server (llama.cpp, vLLM, LM Studio) whose model is
    unknown."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    GEMINI = "gemini"
    MISTRAL = "mistral"
    DEEPSEEK = "deepseek"
    QWEN = "qwen"
    KIMI = "kimi"
    GLM = "glm"
    MINIMAX = "minimax"
    LLAMA = "llama"
    GPT_OSS = "gpt_oss"
    GRANITE = "granite"
    OLLAMA = "ollama"
    LOCAL = "local"


@dataclass(frozen=True, slots=True)
class ProviderProfile:
    """The syntaxes of one provider: ``parse`` (enabled together, in this order) and
    ``format`` (the one a formatter writes for it)."""

    parse: tuple[str, ...]
    format: str


#: The default profile of every provider.
PROFILES: dict[Provider, ProviderProfile] = {
    Provider.OPENAI: ProviderProfile((API_TOOL_CALL, "json_openai"), API_TOOL_CALL),
    Provider.ANTHROPIC: ProviderProfile((API_TOOL_CALL, "anthropic_xml"), API_TOOL_CALL),
    Provider.GEMINI: ProviderProfile((API_TOOL_CALL, "json_gemini"), API_TOOL_CALL),
    Provider.MISTRAL: ProviderProfile((API_TOOL_CALL, "mistral"), API_TOOL_CALL),
    Provider.DEEPSEEK: ProviderProfile(
        (API_TOOL_CALL, "deepseek_v31", "deepseek_v3", "deepseek_dsml"), API_TOOL_CALL
    ),
    Provider.QWEN: ProviderProfile((API_TOOL_CALL, "hermes", "qwen3_coder"), "hermes"),
    Provider.KIMI: ProviderProfile((API_TOOL_CALL, "kimi_k2"), "kimi_k2"),
    Provider.GLM: ProviderProfile((API_TOOL_CALL, "glm45"), "glm45"),
    Provider.MINIMAX: ProviderProfile((API_TOOL_CALL, "minimax_m2"), "minimax_m2"),
    Provider.LLAMA: ProviderProfile((API_TOOL_CALL, "llama3_json", "pythonic"), "llama3_json"),
    Provider.GPT_OSS: ProviderProfile((API_TOOL_CALL, "gpt_oss"), "gpt_oss"),
    Provider.GRANITE: ProviderProfile((API_TOOL_CALL, "granite"), "granite"),
    # Ollama's chat API returns OpenAI-shaped tool_calls (arguments as an object); its raw
    # output depends on the model, so the text side is the auto-detection list.
    Provider.OLLAMA: ProviderProfile((API_TOOL_CALL, AUTO), API_TOOL_CALL),
    Provider.LOCAL: ProviderProfile((AUTO, API_TOOL_CALL), "hermes"),
}
