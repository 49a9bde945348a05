"""Schema-aware values (tools=) and the unknown-tool policy."""

from __future__ import annotations

from typing import Any

import pytest

import toolsift
from toolsift.schema import coerce_arguments

SCHEMA = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "x": {"type": "number"},
        "ok": {"type": "boolean"},
        "nothing": {"type": "null"},
        "tags": {"type": "array", "items": {"type": "integer"}},
        "opts": {"type": "object", "properties": {"depth": {"type": "integer"}}},
        "code": {"type": "string"},
        "either": {"type": ["integer", "string"]},
        "maybe": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
    },
}


@pytest.mark.parametrize(
    "key,text,value",
    [
        ("n", " 42 ", 42),
        ("n", "-7", -7),
        ("x", "2.5", 2.5),
        ("x", "3", 3),
        ("ok", "True", True),
        ("ok", "false", False),
        ("nothing", "null", None),
        ("tags", "[1, 2]", [1, 2]),
        ("tags", '["3"]', [3]),
        ("opts", "{'depth': '2'}", {"depth": 2}),
        ("code", " 007 ", " 007 "),
        ("either", "5", 5),  # integer is tried before the string the union also allows
        ("either", "05", "05"),  # not JSON's spelling of an integer: the string as written
        ("maybe", "null", None),
    ],
)
def test_values_are_typed_by_the_schema(key: str, text: str, value: Any) -> None:
    assert coerce_arguments({key: text}, SCHEMA) == ({key: value}, [])


@pytest.mark.parametrize("key,text", [("n", "many"), ("ok", "perhaps"), ("tags", "[1, 2")])
def test_values_that_do_not_fit_are_kept_and_reported(key: str, text: str) -> None:
    if key == "tags":
        text = "not a list"
    typed, problems = coerce_arguments({key: text}, SCHEMA)
    assert typed == {key: text}
    assert len(problems) == 1 and key in problems[0]


@pytest.mark.parametrize(
    "kind,text,value",
    [("float", "3.14", 3.14), ("double", "2", 2), ("int", "7", 7), ("bool", "true", True)],
)
def test_type_names_written_by_hand_mean_the_json_schema_types(
    kind: str, text: str, value: Any
) -> None:
    schema = {"type": "object", "properties": {"v": {"type": kind}}}
    assert coerce_arguments({"v": text}, schema) == ({"v": value}, [])
    union = {"type": "object", "properties": {"v": {"type": [kind, "null"]}}}
    assert coerce_arguments({"v": text}, union) == ({"v": value}, [])


def test_unknown_keys_and_non_string_values_pass_through() -> None:
    assert coerce_arguments({"zz": "1", "n": 3}, SCHEMA) == ({"zz": "1", "n": 3}, [])


TOOLS = [{"type": "function", "function": {"name": "f", "parameters": SCHEMA}}]
TEXT = (
    '<tool_call>{"name": "f", "arguments": {"n": "3"}}</tool_call>'
    '<tool_call>{"name": "g"}</tool_call>'
)


def test_stream_parser_types_values_and_flags_unknown_tools() -> None:
    result = toolsift.parse(TEXT, "hermes", tools=TOOLS)
    assert [(c.name, c.arguments) for c in result.calls] == [("f", {"n": 3}), ("g", {})]
    assert [i.kind for i in result.issues] == ["unknown_tool"]
    assert "known tools: f" in result.issues[0].message


def test_unknown_tool_policies() -> None:
    dropped = toolsift.parse(TEXT, "hermes", tools=TOOLS, unknown_tools="drop")
    assert [c.name for c in dropped.calls] == ["f"]
    assert [i.kind for i in dropped.issues] == ["unknown_tool"]
    with pytest.raises(toolsift.UnknownToolError, match="'g'"):
        toolsift.parse(TEXT, "hermes", tools=TOOLS, unknown_tools="error")
    with pytest.raises(toolsift.ToolsiftError, match="unknown_tools must be one of"):
        toolsift.StreamParser("hermes", unknown_tools="ignore")


def test_without_tools_values_stay_as_written() -> None:
    assert toolsift.parse(TEXT, "hermes").calls[0].arguments == {"n": "3"}


def test_tool_call_json_takes_tools_too() -> None:
    text = 'TOOL_CALL {"tool_name": "f", "parameters": {"n": "4"}} TOOL_CALL {"tool_name": "h"}'
    result = toolsift.parse(text, tools=TOOLS, unknown_tools="drop")
    assert [(c.name, c.arguments) for c in result.calls] == [("f", {"n": 4})]
    assert [i.kind for i in result.issues] == ["unknown_tool"]
