"""`glm45` values without a schema: a whole JSON value other than a string is typed, anything
else is the text as written, and the OpenAI stream's argument fragments still add up to the
final arguments however the reply is chunked."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift.openai import StreamAdapter, merge_deltas, to_message

# (written, read)
VALUES: list[tuple[str, object]] = [
    ("42", 42),
    ("-3.5e1", -35.0),
    (" true\n", True),
    ("null", None),
    ('[1, {"x": "<"}]', [1, {"x": "<"}]),
    ('{"a": {"b": [true]}}', {"a": {"b": [True]}}),
    ("{placeholder}", "{placeholder}"),
    ("007", "007"),
    ("nullable", "nullable"),
    ("42 apples", "42 apples"),
    ('"quoted"', '"quoted"'),
    ("", ""),
    ("Paris, 北京", "Paris, 北京"),
    ("9" * 70, "9" * 70),
]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "calc",
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
    }
]


def _call(name: str, picks: list[int]) -> str:
    args = "".join(
        f"<arg_key>k{i}</arg_key>\n<arg_value>{VALUES[p][0]}</arg_value>\n"
        for i, p in enumerate(picks)
    )
    return f"<tool_call>{name}\n{args}</tool_call>"


def test_whole_json_values_are_typed_and_the_rest_is_text() -> None:
    picks = list(range(len(VALUES)))
    result = toolsift.parse("Let me. " + _call("f", picks), "glm45")
    assert result.calls[0].arguments == {f"k{i}": VALUES[i][1] for i in picks}
    assert result.content == "Let me. "
    # `auto` reads GLM's `<tool_call>NAME` the same way.
    assert toolsift.parse(_call("f", picks), "auto").calls[0].arguments == (
        result.calls[0].arguments
    )


def test_a_declared_tool_s_values_are_typed_by_its_schema_only() -> None:
    text = (
        "<tool_call>calc\n<arg_key>a</arg_key>\n<arg_value>42</arg_value>\n"
        "<arg_key>b</arg_key>\n<arg_value>42</arg_value>\n</tool_call>"
        "<tool_call>other\n<arg_key>a</arg_key>\n<arg_value>42</arg_value>\n</tool_call>"
    )
    result = toolsift.parse(text, "glm45", tools=TOOLS)
    # `a` is a string by the schema; `b`, which the schema leaves out, stays text as well.
    assert result.calls[0].arguments == {"a": "42", "b": "42"}
    assert result.calls[1].arguments == {"a": 42}


@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.integers(0, len(VALUES) - 1), min_size=1, max_size=5),
    step=st.integers(1, 11),
)
def test_streamed_fragments_add_up_under_any_chunking(picks: list[int], step: int) -> None:
    text = "ok " + _call("f", picks) + " done"
    want = to_message(toolsift.parse(text, "glm45"))
    adapter = StreamAdapter("glm45")
    deltas = []
    for k in range(0, len(text), step):
        deltas += list(adapter.feed(text[k : k + step]))
    deltas += list(adapter.finish())
    assert merge_deltas(deltas) == want
    assert adapter.abandoned == []
    arguments = json.loads(want["tool_calls"][0]["function"]["arguments"])
    assert arguments == {f"k{i}": VALUES[p][1] for i, p in enumerate(picks)}
