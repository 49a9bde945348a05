"""Model names map to the syntax their chat template writes calls in."""

from __future__ import annotations

import pytest

import toolsift


@pytest.mark.parametrize(
    ("model", "syntax"),
    [
        ("deepseek-ai/DeepSeek-V4", "deepseek_dsml"),
        ("deepseek-ai/DeepSeek-V3.2-Exp", "deepseek_dsml"),
        ("deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek_v31"),
        ("deepseek-ai/DeepSeek-V3-0324", "deepseek_v3"),
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3_coder"),
        ("Qwen/Qwen3-8B", "hermes"),
        ("moonshotai/Kimi-K2-Instruct", "kimi_k2"),
        ("openai/gpt-oss-20b", "gpt_oss"),
    ],
)
def test_model_names(model: str, syntax: str) -> None:
    assert toolsift.syntax_for_model(model) == syntax


def test_an_unknown_model_is_a_value_error_naming_the_families() -> None:
    with pytest.raises(toolsift.UnknownModelError, match="deepseek-v4") as caught:
        toolsift.syntax_for_model("acme/unknown-7b")
    assert isinstance(caught.value, ValueError)
