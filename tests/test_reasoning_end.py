"""A `<think>` block the model never closed ends at a call marker that is a special token, so
the calls after it survive (Kimi-K2.5 writes them inside its reasoning)."""

from __future__ import annotations

import toolsift

KIMI = (
    "<think>Let me check this file.<|tool_calls_section_begin|><|tool_call_begin|>"
    'functions.ReadFile:0<|tool_call_argument_begin|>{"path": "/src/main.py"}'
    "<|tool_call_end|><|tool_calls_section_end|>"
)


def test_calls_inside_an_unclosed_think_block_are_read() -> None:
    for syntax in (["kimi_k2", "think"], "auto"):
        result = toolsift.parse(KIMI, syntax)
        assert [(c.name, c.arguments) for c in result.calls] == [
            ("ReadFile", {"path": "/src/main.py"})
        ]
        assert result.content == ""
        assert [i.kind for i in result.issues] == ["missing_end_marker"]


def test_a_plain_marker_in_reasoning_stays_reasoning() -> None:
    text = '<think>I could use <tool_call>{"name": "f"}</tool_call>.</think>ok'
    result = toolsift.parse(text, ["hermes", "think"])
    assert result.calls == [] and result.content == "ok"
