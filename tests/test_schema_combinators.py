"""tools= typing through schema combinators: $ref, allOf/anyOf/oneOf (on a property and over
the whole parameters object), type lists, nullable, enum/const members, quoted values."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift.openai import StreamAdapter, merge_deltas, to_message
from toolsift.schema import coerce_arguments


def tool(parameters: dict[str, Any], name: str = "probe") -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": name, "parameters": parameters}}]


def glm45(arguments: dict[str, str], name: str = "probe") -> str:
    pairs = "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in arguments.items()
    )
    return f"<tool_call>{name}{pairs}</tool_call>"


def qwen3_coder(arguments: dict[str, str], name: str = "probe") -> str:
    pairs = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in arguments.items())
    return f"<tool_call>\n<function={name}>\n{pairs}</function>\n</tool_call>"


def typed(prop: dict[str, Any], text: str, syntax: str = "glm45", **extra: Any) -> Any:
    """The value ``text`` becomes for a property ``prop`` (``extra``: more schema keys)."""
    parameters = {"type": "object", "properties": {"v": prop}, **extra}
    write = glm45 if syntax == "glm45" else qwen3_coder
    result = toolsift.parse(write({"v": text}), syntax, tools=tool(parameters))
    assert len(result.calls) == 1
    return result.calls[0].arguments["v"]


def same(a: Any, b: Any) -> bool:
    """Equal with the same types (``1`` is not ``1.0``, nor ``True``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("syntax", ["glm45", "qwen3_coder"])
@pytest.mark.parametrize(
    "prop,text,value",
    [
        # a type list: the other types are tried before the string it also allows
        ({"type": ["string", "integer"]}, "31", 31),
        ({"type": ["string", "integer"]}, "031", "031"),  # not JSON's spelling: a string
        ({"type": ["string", "integer"]}, "thirty", "thirty"),
        ({"type": ["number", "string"]}, "0.5", 0.5),
        ({"type": ["string", "boolean"]}, "false", False),
        ({"type": ["string", "boolean"]}, "no", "no"),
        ({"type": ["string", "object"]}, '{"depth": 2}', {"depth": 2}),
        ({"type": ["string", "object"]}, "{depth", "{depth"),
        ({"type": ["string", "array"]}, "[3, 4]", [3, 4]),
        # anyOf / oneOf / allOf on the property
        ({"anyOf": [{"type": "string", "enum": ["all"]}, {"type": "integer"}]}, "12", 12),
        ({"anyOf": [{"type": "string", "enum": ["all"]}, {"type": "integer"}]}, "all", "all"),
        ({"oneOf": [{"type": "boolean"}, {"type": "array"}]}, "[true]", [True]),
        ({"allOf": [{"type": ["integer", "string"]}, {"type": "integer"}]}, "64", 64),
        ({"allOf": [{"type": "number"}, {"minimum": 0}]}, "2.25", 2.25),
        # nullable: a null literal where the schema allows null
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "null", None),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "None", None),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "nil", "nil"),
        ({"type": "string", "nullable": True}, "null", None),
        ({"type": ["integer", "null"]}, "nil", None),
        ({"type": ["integer", "null"]}, "NULL", None),
        ({"type": ["integer", "null"]}, "5", 5),
        # JSON's null for any property that is no string: what a JSON syntax would give
        ({"type": "number"}, "null", None),
        # enum / const members that are not strings
        ({"enum": [1, 2, None]}, "2", 2),
        ({"enum": [1, 2, None]}, "null", None),
        ({"enum": ["7", 8]}, "7", "7"),
        ({"enum": ["7", 8]}, "8", 8),
        ({"const": 8}, "8", 8),
        ({"const": {"mode": "fast"}}, '{"mode": "fast"}', {"mode": "fast"}),
        ({"type": ["number", "string"], "enum": [1, "auto"]}, "1.0", 1.0),
        ({"type": ["number", "string"], "enum": [1, "auto"]}, "2", "2"),  # not a member
        # quoted values for types that are not strings
        ({"type": "integer"}, '"42"', 42),
        ({"type": "number"}, '\\"2.5\\"', 2.5),
        ({"type": "integer"}, "'9'", 9),
        ({"type": ["integer", "null"]}, '"null"', None),
        ({"type": "object"}, "\"{'k': 1}\"", {"k": 1}),
        # a property with no type takes a JSON object or array, nothing else
        ({}, '{"a": [1]}', {"a": [1]}),
        ({"description": "anything"}, "[1, 2]", [1, 2]),
        ({}, "12", "12"),
        ({}, "{oops", "{oops"),
        # exponents, Python literals
        ({"type": "integer"}, "1.25e2", 125),
        ({"type": "integer"}, "3.0", 3),
        ({"type": "number"}, "1.25e2", 125.0),
        (
            {"type": "object"},
            "{'key': 'value', 'on': True, 'off': None}",
            {"key": "value", "on": True, "off": None},
        ),
        ({"type": "array", "items": {"type": "integer"}}, "['1', 2]", [1, 2]),
    ],
)
def test_property_schemas(syntax: str, prop: dict[str, Any], text: str, value: Any) -> None:
    assert same(typed(prop, text, syntax), value)


@pytest.mark.parametrize(
    "extra,ref",
    [
        ({"$defs": {"Count": {"type": "integer"}}}, "#/$defs/Count"),
        ({"definitions": {"Count": {"type": "integer"}}}, "#/definitions/Count"),
        ({"$defs": {"a/b~c": {"type": "integer"}}}, "#/$defs/a~1b~0c"),
        (
            {"$defs": {"Count": {"$ref": "#/$defs/Int"}, "Int": {"type": "integer"}}},
            "#/$defs/Count",
        ),
        (
            {
                "$defs": {
                    "Either": {"anyOf": [{"$ref": "#/$defs/Int"}, {"type": "null"}]},
                    "Int": {"type": "integer"},
                }
            },
            "#/$defs/Either",
        ),
    ],
)
def test_refs_into_defs(extra: dict[str, Any], ref: str) -> None:
    assert same(typed({"$ref": ref}, "17", **extra), 17)


@pytest.mark.parametrize(
    "defs",
    [
        {"Loop": {"$ref": "#/$defs/Loop"}},
        {"Loop": {"$ref": "#/$defs/Back"}, "Back": {"allOf": [{"$ref": "#/$defs/Loop"}]}},
        {"Loop": {"anyOf": [{"$ref": "#/$defs/Loop"}, {"type": "string"}]}},
    ],
)
def test_ref_cycles_read_as_any_value(defs: dict[str, Any]) -> None:
    assert typed({"$ref": "#/$defs/Loop"}, "17", **{"$defs": defs}) == "17"
    assert typed({"$ref": "#/$defs/Loop"}, "[17]", **{"$defs": defs}) == [17]


def test_a_ref_to_nothing_leaves_the_value_alone() -> None:
    assert typed({"$ref": "#/$defs/Missing"}, "17") == "17"
    assert typed({"$ref": "https://example.com/schema.json"}, "17") == "17"


def test_recursive_schemas_type_nested_values() -> None:
    node = {
        "type": "object",
        "properties": {
            "size": {"type": "integer"},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
    }
    value = typed(
        {"$ref": "#/$defs/Node"},
        '{"size": "1", "kids": [{"size": "2", "kids": []}]}',
        **{"$defs": {"Node": node}},
    )
    assert value == {"size": 1, "kids": [{"size": 2, "kids": []}]}


KIND_BRANCHES = [
    {"properties": {"kind": {"const": "label"}, "value": {"type": "string"}}},
    {"properties": {"kind": {"const": "total"}, "value": {"type": "integer"}}},
]


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf"])
@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize("syntax", ["glm45", "qwen3_coder"])
def test_root_branches_are_chosen_by_a_discriminator(keyword: str, order: int, syntax: str) -> None:
    parameters = {"type": "object", keyword: KIND_BRANCHES[::order]}
    write = glm45 if syntax == "glm45" else qwen3_coder
    for kind, value in [("total", 40), ("label", "40")]:
        text = write(dict(list({"kind": kind, "value": "40"}.items())[::order]))
        call = toolsift.parse(text, syntax, tools=tool(parameters)).calls[0]
        assert same(call.arguments, {"kind": kind, "value": value})


def test_root_branches_by_ref_enum_and_all_of() -> None:
    parameters = {
        "$defs": {
            "Label": {
                "allOf": [
                    {"properties": {"kind": {"enum": ["label"]}, "value": {"type": "string"}}}
                ]
            },
            "Total": {
                "allOf": [
                    {"properties": {"kind": {"enum": ["total"]}, "value": {"type": "integer"}}}
                ]
            },
        },
        "oneOf": [{"$ref": "#/$defs/Label"}, {"$ref": "#/$defs/Total"}],
    }
    call = toolsift.parse(
        glm45({"value": "40", "kind": "total"}), "glm45", tools=tool(parameters)
    ).calls[0]
    assert same(call.arguments, {"value": 40, "kind": "total"})


def test_root_all_of_merges_the_parts_properties() -> None:
    parameters = {
        "allOf": [
            {"type": "object", "properties": {"page": {"type": "integer"}}},
            {"properties": {"filter": {"type": "object"}}, "required": ["page"]},
        ]
    }
    call = toolsift.parse(
        glm45({"page": "2", "filter": '{"tag": "x"}'}), "glm45", tools=tool(parameters)
    ).calls[0]
    assert call.arguments == {"page": 2, "filter": {"tag": "x"}}


def test_root_branches_without_a_discriminator_allow_either_type() -> None:
    parameters = {
        "anyOf": [
            {"properties": {"n": {"type": "string"}}},
            {"properties": {"n": {"type": "integer"}}},
        ]
    }
    assert toolsift.parse(glm45({"n": "8"}), "glm45", tools=tool(parameters)).calls[
        0
    ].arguments == {"n": 8}
    assert toolsift.parse(glm45({"n": "08"}), "glm45", tools=tool(parameters)).calls[
        0
    ].arguments == {"n": "08"}


def test_a_closed_branch_is_not_chosen_for_keys_it_does_not_have() -> None:
    parameters = {
        "oneOf": [
            {"properties": {"id": {"type": "string"}}, "additionalProperties": False},
            {"properties": {"id": {"type": "integer"}, "deep": {"type": "boolean"}}},
        ]
    }
    call = toolsift.parse(glm45({"id": "5", "deep": "yes"}), "glm45", tools=tool(parameters)).calls[
        0
    ]
    assert call.arguments == {"id": 5, "deep": True}


def test_root_branches_type_nested_objects() -> None:
    parameters = {
        "type": "object",
        "oneOf": [
            {
                "properties": {
                    "kind": {"const": "box"},
                    "size": {"type": "object", "properties": {"w": {"type": "integer"}}},
                },
                "required": ["kind", "size"],
            },
            {"properties": {"kind": {"const": "none"}}, "required": ["kind"]},
        ],
    }
    text = qwen3_coder({"kind": "box", "size": '{"w": "3"}'})
    assert toolsift.parse(text, "qwen3_coder", tools=tool(parameters)).calls[0].arguments == {
        "kind": "box",
        "size": {"w": 3},
    }


@pytest.mark.parametrize(
    "prop,text",
    [
        ({"type": ["integer", "null"]}, "seven"),
        ({"type": "integer"}, "1.5e0"),  # not integral
        ({"type": "number"}, "1e999"),  # not finite
        ({"type": "number"}, "inf"),
        ({"type": "integer"}, "12_000"),
        ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, "maybe"),
    ],
)
def test_values_that_fit_no_type_are_kept_and_reported(prop: dict[str, Any], text: str) -> None:
    parameters = {"type": "object", "properties": {"v": prop}}
    result = toolsift.parse(glm45({"v": text}), "glm45", tools=tool(parameters))
    assert result.calls[0].arguments == {"v": text}
    assert [i.kind for i in result.issues] == ["bad_value"]
    assert "v: " in result.issues[0].message


def test_the_report_names_the_types_a_union_allows() -> None:
    schema = {
        "properties": {"v": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/N"}]}},
        "$defs": {"N": {"type": "integer"}},
    }
    assert coerce_arguments({"v": "x"}, schema) == (
        {"v": "x"},
        ["v: 'x' is not a valid null/integer"],
    )


def test_stream_adapter_sends_root_branch_tools_whole() -> None:
    parameters = {"type": "object", "anyOf": KIND_BRANCHES}
    text = glm45({"kind": "total", "value": "40"})
    adapter = StreamAdapter("glm45", tools=tool(parameters))
    deltas = [d for ch in text for d in adapter.feed(ch)] + adapter.finish()
    expected = to_message(toolsift.parse(text, "glm45", tools=tool(parameters)))
    assert merge_deltas(deltas) == expected
    assert expected["tool_calls"][0]["function"]["arguments"] == '{"kind":"total","value":40}'


STRING_WRAPPERS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"type": "string"}, {}),
    ({"type": ["string"]}, {}),
    ({"$ref": "#/$defs/Text"}, {"$defs": {"Text": {"type": "string"}}}),
    (
        {"$ref": "#/definitions/Text"},
        {"definitions": {"Text": {"$ref": "#/definitions/Inner"}, "Inner": {"type": "str"}}},
    ),
    ({"allOf": [{"type": "string"}, {"minLength": 0}]}, {}),
    ({"allOf": [{"type": ["string", "integer"]}, {"type": "string"}]}, {}),
    ({"anyOf": [{"type": "string", "format": "date"}, {"type": "string"}]}, {}),
    (
        {"oneOf": [{"$ref": "#/$defs/Text"}, {"type": "string", "maxLength": 9}]},
        {"$defs": {"Text": {"type": "string"}}},
    ),
    ({"type": "string", "nullable": False}, {}),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(STRING_WRAPPERS), st.text())
def test_a_string_property_stays_as_written_whatever_wraps_it(
    wrapper: tuple[dict[str, Any], dict[str, Any]], text: str
) -> None:
    prop, extra = wrapper
    schema = {"type": "object", "properties": {"v": prop}, **extra}
    assert coerce_arguments({"v": text}, schema) == ({"v": text}, [])
    # the same under root branches that all call it a string
    branches = {
        "oneOf": [{"properties": {"v": prop, "k": {"const": 1}}}, {"properties": {"v": prop}}],
        **extra,
    }
    assert coerce_arguments({"v": text, "k": "1"}, branches) == ({"v": text, "k": 1}, [])


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(STRING_WRAPPERS),
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="<"), min_size=1
    ),
)
def test_a_string_property_read_from_glm45_comes_back_as_written(
    wrapper: tuple[dict[str, Any], dict[str, Any]], text: str
) -> None:
    prop, extra = wrapper
    assert typed(prop, text, **extra) == text


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False)
    ),
    st.sampled_from(
        [["string", "null", "boolean", "integer", "number"], ["null", "boolean", "number"]]
    ),
)
def test_a_json_scalar_written_as_text_comes_back_as_itself(value: Any, types: list[str]) -> None:
    schema = {"properties": {"v": {"type": types}}}
    typed_value, problems = coerce_arguments({"v": json.dumps(value)}, schema)
    assert problems == []
    assert same(typed_value["v"], value)


def test_deep_values_under_recursive_branches_cost_linear_time() -> None:
    node = {
        "oneOf": [
            {
                "properties": {
                    "kind": {"const": tag},
                    "n": {"type": kind},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                }
            }
            for tag, kind in [("int", "integer"), ("text", "string"), ("flag", "boolean")]
        ]
    }
    schema = {"$defs": {"Node": node}, "properties": {"root": {"$ref": "#/$defs/Node"}}}
    value: dict[str, Any] = {"kind": "int", "n": "1", "kids": []}
    for _ in range(500):  # deeper than typing goes: the rest is left as it is
        value = {"kind": "text", "n": "1", "kids": [value, {"kind": "flag", "n": "no", "kids": []}]}
    typed_value, problems = coerce_arguments({"root": value}, schema)
    assert problems == []
    assert typed_value["root"]["kids"][1] == {"kind": "flag", "n": False, "kids": []}
    assert typed_value["root"]["n"] == "1"
