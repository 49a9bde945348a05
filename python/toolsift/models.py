"""``syntax_for_model``: which syntax a model family writes its tool calls in.

The table matches a normalised model name (lower case; ``_`` and blanks read as ``-``; an
organisation prefix such as ``Qwen/`` ignored) against substrings, first match wins, so more
specific families come first (``qwen3-coder`` before ``qwen3``, ``hermes`` before ``llama-3``
for Hermes fine-tunes of Llama). Names from Hugging Face, vLLM/SGLang launch commands and
Ollama tags (``llama3.1:8b``) all work.

>>> syntax_for_model("Qwen/Qwen3-Coder-30B-A3B-Instruct")
'qwen3_coder'
>>> syntax_for_model("deepseek-ai/DeepSeek-V3.1-Terminus")
'deepseek_v31'
>>> syntax_for_model("llama3.1:8b")
'llama3_json'
"""

from __future__ import annotations

from .errors import UnknownModelError

__all__ = ["MODEL_SYNTAXES", "syntax_for_model"]

#: ``(name fragment, syntax)``, tried in order.
MODEL_SYNTAXES: tuple[tuple[str, str], ...] = (
    ("qwen3-coder", "qwen3_coder"),
    ("qwen3", "hermes"),
    ("qwq", "hermes"),
    ("qwen2", "hermes"),
    ("hermes", "hermes"),
    ("deepseek-v4", "deepseek_dsml"),
    ("deepseek-v3.2", "deepseek_dsml"),
    ("deepseek-v3.1", "deepseek_v31"),
    ("deepseek-v3", "deepseek_v3"),
    ("deepseek-r1", "deepseek_v3"),
    ("kimi-k2", "kimi_k2"),
    ("glm-4.5", "glm45"),
    ("glm-4.6", "glm45"),
    ("glm-4.7", "glm45"),
    ("minimax-m2", "minimax_m2"),
    ("gpt-oss", "gpt_oss"),
    ("llama-4", "pythonic"),
    ("llama4", "pythonic"),
    ("llama-3", "llama3_json"),
    ("llama3", "llama3_json"),
    ("mistral", "mistral"),
    ("mixtral", "mistral"),
    ("magistral", "mistral"),
    ("devstral", "mistral"),
    ("ministral", "mistral"),
    ("codestral", "mistral"),
    ("granite", "granite"),
    ("jamba", "jamba"),
    ("xlam", "xlam"),
    ("internlm", "internlm"),
    ("step3", "step3"),
    ("step-3", "step3"),
)


def _normalise(model: str) -> str:
    name = model.strip().lower().replace("_", "-").replace(" ", "-")
    return name.rsplit("/", 1)[-1]


def syntax_for_model(model: str) -> str:
    """The syntax ``model`` writes tool calls in; raises :class:`toolsift.UnknownModelError`
    (a ``ValueError``) listing the known families when no entry matches."""
    name = _normalise(model)
    for fragment, syntax in MODEL_SYNTAXES:
        if fragment in name:
            return syntax
    families = ", ".join(f"{f} ({s})" for f, s in MODEL_SYNTAXES)
    raise UnknownModelError(
        f"no known tool-call syntax for model {model!r}; known name fragments: {families}. "
        'Pass the syntax by name, or syntax="auto".',
        reason="unknown_model",
    )
