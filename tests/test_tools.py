"""Tool definitions from dicts, functions and pydantic models; the registry; validation."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal, Optional, TypedDict

import pytest

import toolsift
from toolsift import ArgumentsInvalidError, DuplicateToolError, ToolDefinition, ToolRegistry
from toolsift.function_schema import describe_docstring, schema_for_type


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass
class Point:
    """A point on the page."""

    x: int
    y: int = 0


class Filters(TypedDict, total=False):
    owner: str
    labels: list[str]


def search_issues(
    query: Annotated[str, "words to look for, e.g. `panic in parser`"],
    state: Literal["open", "closed"] = "open",
    labels: list[str] | None = None,
    limit: int = 20,
    near: Point | None = None,
    filters: Filters | None = None,
    color: Color = Color.RED,
    *args: Any,
    **kwargs: Any,
) -> list[str]:
    """Search the issue tracker.

    Longer text that is not the summary.

    Args:
        query: overridden by the Annotated text.
        state: which issues to include.
        limit: at most this many results,
            newest first.
    """
    return []


def test_from_function_builds_the_schema_from_hints_and_docstring() -> None:
    tool = ToolDefinition.from_function(search_issues)
    assert tool.name == "search_issues"
    assert tool.description == "Search the issue tracker."
    props = tool.parameters["properties"]
    assert list(props) == ["query", "state", "labels", "limit", "near", "filters", "color"]
    assert props["query"] == {
        "type": "string",
        "description": "words to look for, e.g. `panic in parser`",
    }
    assert props["state"] == {
        "type": "string",
        "enum": ["open", "closed"],
        "description": "which issues to include.",
        "default": "open",
    }
    assert props["labels"] == {
        "type": ["array", "null"],
        "items": {"type": "string"},
        "default": None,
    }
    assert props["limit"]["description"] == "at most this many results, newest first."
    near = props["near"]
    assert near["type"] == ["object", "null"]
    assert near["properties"] == {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0}}
    assert near["required"] == ["x"] and near["description"] == "A point on the page."
    filters = props["filters"]
    assert filters["properties"]["labels"] == {"type": "array", "items": {"type": "string"}}
    assert "required" not in filters
    assert props["color"] == {"type": "string", "enum": ["red", "blue"], "default": "red"}
    assert tool.parameters["required"] == ["query"]
    assert tool.parameters["additionalProperties"] is False


def test_schemas_are_built_once_per_function() -> None:
    a = ToolDefinition.from_function(search_issues)
    b = ToolDefinition.from_function(search_issues)
    assert a.parameters is b.parameters


def test_unsupported_hint_names_the_parameter() -> None:
    def f(x: complex) -> None: ...

    with pytest.raises(TypeError, match=r"f\.x"):
        ToolDefinition.from_function(f)


@pytest.mark.parametrize(
    "hint,schema",
    [
        (Optional[int], {"type": ["integer", "null"]}),  # noqa: UP045 (the old spelling too)
        (int | str, {"type": ["integer", "string"]}),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (Any, {}),
    ],
)
def test_type_mapping(hint: Any, schema: dict[str, Any]) -> None:
    assert schema_for_type(hint) == schema


def test_rest_docstrings() -> None:
    summary, params = describe_docstring("Do it.\n\n:param path: where.\n:param int n: how many.")
    assert summary == "Do it."
    assert params == {"path": "where.", "n": "how many."}


def test_from_openai_and_back() -> None:
    spec = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather now.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
    tool = ToolDefinition.from_openai(spec)
    assert tool.to_openai() == spec
    assert ToolDefinition.from_openai(spec["function"]) == tool
    with pytest.raises(ValueError, match="not an OpenAI-style"):
        ToolDefinition.from_openai({"type": "function"})


def test_from_pydantic() -> None:
    pydantic = pytest.importorskip("pydantic", reason="pydantic is in the dev extra")

    class Move(pydantic.BaseModel):
        """Move a file."""

        src: str = pydantic.Field(description="from here")
        dst: str
        overwrite: bool = False

    tool = ToolDefinition.from_pydantic(Move, name="move_file")
    assert tool.name == "move_file" and tool.description == "Move a file."
    assert tool.parameters["required"] == ["src", "dst"]
    assert tool.parameters["properties"]["src"]["description"] == "from here"
    tool.validate({"src": "a", "dst": "b"})
    with pytest.raises(ArgumentsInvalidError, match="missing required argument 'dst'"):
        tool.validate({"src": "a"})
    assert toolsift.manifest([Move], syntax="hermes").count("### Move") == 1


def test_registry_refuses_duplicates_and_lists_names() -> None:
    reg = ToolRegistry([search_issues, {"name": "b"}])
    assert reg.names() == ["search_issues", "b"] and len(reg) == 2 and "b" in reg
    with pytest.raises(DuplicateToolError, match="'b' is already registered"):
        reg.add({"type": "function", "function": {"name": "b"}})
    with pytest.raises(toolsift.UnknownToolError, match="known tools: search_issues, b"):
        reg.get("c")
    assert reg.get("b").name == "b"
    assert [t["function"]["name"] for t in reg.to_openai()] == ["search_issues", "b"]


def test_validation_messages_say_what_where_and_what_was_expected() -> None:
    tool = ToolDefinition.from_function(search_issues)
    tool.validate({"query": "x", "near": {"x": 1}})
    with pytest.raises(ArgumentsInvalidError) as info:
        tool.validate({"state": "merged", "limit": "ten", "near": {"x": 1.5}, "extra": 1})
    assert str(info.value) == (
        "invalid arguments for tool 'search_issues' (5 problems):\n"
        "- $: unexpected argument 'extra'; allowed: color, filters, labels, limit, near, "
        "query, state\n"
        "- $: missing required argument 'query'\n"
        "- $.limit: expected integer, got string 'ten'\n"
        "- $.near.x: expected integer, got number 1.5\n"
        "- $.state: expected one of 'open', 'closed', got 'merged'"
    )
    assert [p.path for p in info.value.problems][-1] == "$.state"


def test_a_broken_schema_fails_at_first_use_with_a_schema_error() -> None:
    tool = ToolDefinition("f", parameters={"type": "object", "properties": {"a": {"type": 5}}})
    with pytest.raises(Exception, match="is not valid under any of the given schemas"):
        tool.validate({})


def test_tools_feed_parse_directly() -> None:
    reg = ToolRegistry([search_issues])
    text = toolsift.format_call(toolsift.ToolCall("search_issues", {"query": "x", "limit": 5}),
                                "qwen3_coder")  # fmt: skip
    call = toolsift.parse(text, "qwen3_coder", tools=reg.to_openai()).calls[0]
    assert call.arguments == {"query": "x", "limit": 5}
