"""Example values for manifests, and the optional dependencies' error messages."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import toolsift
from toolsift import ToolDefinition
from toolsift.formatting import example_arguments, placeholder


@pytest.mark.parametrize(
    "schema,value",
    [
        ({"type": "string", "default": "main"}, "main"),
        ({"type": "string", "const": "fixed"}, "fixed"),
        ({"type": "string", "examples": ["from examples"]}, "from examples"),
        ({"type": "string", "enum": ["b", "a"]}, "b"),
        ({"type": "string", "description": "branch, e.g. 'dev/x'"}, "dev/x"),
        ({"type": "string", "description": "e.g. main."}, "main"),
        ({"type": "integer", "description": "lines, e.g. 40"}, 40),
        ({"type": "integer", "description": "lines, e.g. many"}, 1),  # hint does not fit
        ({"type": "integer", "minimum": 5}, 5),
        ({"type": "number"}, 1.5),
        ({"type": "boolean"}, True),
        ({"type": "string", "format": "date"}, "2024-01-31"),
        ({"type": "string"}, "k value"),
        ({"type": ["string", "null"], "default": None}, "k value"),
        ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, 1),
        ({"type": "array", "items": {"type": "integer"}, "minItems": 2}, [1, 1]),
        ({"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"]},
         {"a": True}),
    ],
)  # fmt: skip
def test_placeholder_sources(schema: dict[str, Any], value: Any) -> None:
    assert placeholder(schema, "k", full=False) == value


def test_tool_examples_come_first_and_advanced_fills_nested_optionals() -> None:
    tool = ToolDefinition(
        "deploy",
        parameters={
            "type": "object",
            "properties": {
                "env": {"type": "string", "enum": ["prod", "dev"]},
                "opts": {"type": "object", "properties": {"dry": {"type": "boolean"}}},
            },
            "required": ["env"],
        },
        examples=({"env": "dev"},),
    )
    assert example_arguments(tool) == [
        ("example 1", {"env": "dev"}),
        ("basic", {"env": "prod"}),
        ("advanced", {"env": "prod", "opts": {"dry": True}}),
    ]
    assert "Example (example 1):" in toolsift.manifest([tool], syntax="json")


def test_missing_optional_packages_name_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pydantic", None)
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(toolsift.MissingDependencyError, match=r"toolsift\[pydantic\]"):
        ToolDefinition.from_pydantic(object)
    with pytest.raises(toolsift.MissingDependencyError, match=r"toolsift\[validate\]"):
        ToolDefinition("fresh").validate({})
