"""`qwen3_coder` with `tools=`: only a parameter name the tool's schema lists opens a new
parameter inside a value, so a file that shows the call syntax is written whole (vLLM's
reading); without a schema, or for another tool, any new name does."""

from __future__ import annotations

import toolsift

WRITE_FILE = {
    "type": "function",
    "function": {
        "name": "write_file",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        },
    },
}

BODY = 'T = """\n</parameter>\n<parameter=new_string>\n#!/usr/bin/env python3\n</parameter>\n"""'
TEXT = (
    "<tool_call>\n<function=write_file>\n<parameter=path>\nt.py\n</parameter>\n"
    f"<parameter=content>\n{BODY}\n</parameter>\n</function>\n</tool_call>"
)


def test_an_undeclared_name_stays_in_the_value() -> None:
    for step in (len(TEXT), 1, 5):
        stream = toolsift.StreamParser("qwen3_coder", tools=[WRITE_FILE])
        for k in range(0, len(TEXT), step):
            stream.feed(TEXT[k : k + step])
        stream.finish()
        result = stream.result()
        assert [(c.name, c.arguments) for c in result.calls] == [
            ("write_file", {"path": "t.py", "content": BODY})
        ]
        assert result.issues == []
    batch = toolsift.parse_many([TEXT, TEXT], "qwen3_coder", tools=[WRITE_FILE], workers=2)
    assert [r.calls[0].arguments["content"] for r in batch] == [BODY, BODY]


def test_without_the_schema_the_name_opens_a_parameter() -> None:
    result = toolsift.parse(TEXT, "qwen3_coder")
    assert set(result.calls[0].arguments) == {"path", "content", "new_string"}
