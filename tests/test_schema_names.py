"""Syntax-specific readings against the tools' schemas: kimi_k2 calls named by their
arguments, code_assistant_xml/caret singular/plural names and lone list items, and
deepseek_dsml's wrapper parameters (``toolsift._call_reshape``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolsift
from toolsift.openai import StreamAdapter, merge_deltas, to_message


def _tool(name: str, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, **extra}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


def _streamed(text: str, syntax: str, size: int, **options: Any) -> toolsift.ParseResult:
    parser = toolsift.StreamParser(syntax, **options)
    for i in range(0, len(text), size):
        parser.feed(text[i : i + size])
    parser.finish()
    return parser.result()


def _read(text: str, syntax: str, **options: Any) -> toolsift.ParseResult:
    """``parse``'s result, checked equal to the streamed, batch and adapter readings."""
    result = toolsift.parse(text, syntax, **options)
    for size in (1, 4, len(text)):
        assert _streamed(text, syntax, size, **options) == result
    assert toolsift.parse_many([text, text], syntax, **options) == [result, result]
    expected = to_message(result)
    for size in (1, 6):
        for live in (True, False):
            adapter = StreamAdapter(syntax, live=live, **options)
            deltas = [
                d for i in range(0, len(text), size) for d in adapter.feed(text[i : i + size])
            ]
            deltas += adapter.finish()
            assert adapter.diverged == [] and adapter.abandoned == []
            assert merge_deltas(deltas) == expected
    return result


def _calls(result: toolsift.ParseResult) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) for c in result.calls]


# kimi_k2 -------------------------------------------------------------------------------------

KIMI_TOOLS = [
    _tool(
        "open_note", {"title": {"type": "string"}, "folder": {"type": "string"}}, required=["title"]
    ),
    _tool(
        "play_song",
        {"track": {"type": "string"}, "volume": {"type": "integer"}},
        required=["track"],
    ),
]


def _kimi(*calls: tuple[str, str]) -> str:
    body = "".join(
        f"<|tool_call_begin|>{call_id}<|tool_call_argument_begin|>{args}<|tool_call_end|>"
        for call_id, args in calls
    )
    return f"Sure. <|tool_calls_section_begin|>{body}<|tool_calls_section_end|>"


@pytest.mark.parametrize(
    "call_id", ["0", "12", "call_5", "toolu_9XyZ", "7c0e6f1a-0b2d-4e3f-9a8b-1c2d3e4f5a6b"]
)
def test_kimi_call_with_a_bare_id_takes_the_one_tool_its_arguments_fit(call_id: str) -> None:
    text = _kimi((call_id, '{"track": "Blue in Green", "volume": 4}'))
    result = _read(text, "kimi_k2", tools=KIMI_TOOLS)
    assert _calls(result) == [("play_song", {"track": "Blue in Green", "volume": 4})]
    assert result.calls[0].repairs == ("name_from_arguments",)
    assert result.issues == [] and result.content == "Sure. "


def test_kimi_inferred_calls_sit_beside_named_ones() -> None:
    text = _kimi(
        ("functions.open_note:0", '{"title": "groceries"}'),
        ("call_1", '{"title": "todo", "folder": "home"}'),
        ("2", '{"track": "So What"}'),
    )
    result = _read(text, "kimi_k2", tools=KIMI_TOOLS)
    assert [c.name for c in result.calls] == ["open_note", "open_note", "play_song"]
    inferred = ("name_from_arguments",)
    assert [c.repairs for c in result.calls] == [(), inferred, inferred]


@pytest.mark.parametrize(
    "args,why",
    [
        ('{"title": "x", "track": "y"}', "keys of two tools: none has both"),
        ('{"folder": "home"}', "open_note requires title"),
        ('{"title": "x", "colour": "red"}', "colour is no property"),
    ],
)
def test_kimi_call_that_fits_no_tool_keeps_its_id_as_name(args: str, why: str) -> None:
    text = _kimi(("call_4", args))
    result = _read(text, "kimi_k2", tools=KIMI_TOOLS)
    assert [c.name for c in result.calls] == ["call_4"], why
    assert [i.kind for i in result.issues] == ["unknown_tool"]
    dropped = toolsift.parse(text, "kimi_k2", tools=KIMI_TOOLS, unknown_tools="drop")
    assert dropped.calls == [] and [i.kind for i in dropped.issues] == ["unknown_tool"]


def test_kimi_call_that_fits_several_tools_is_left_alone() -> None:
    tools = [_tool("a", {"q": {"type": "string"}}), _tool("b", {"q": {"type": "string"}})]
    result = _read(_kimi(("0", '{"q": "x"}')), "kimi_k2", tools=tools)
    assert [c.name for c in result.calls] == ["0"]
    assert [i.kind for i in result.issues] == ["unknown_tool"]


def test_kimi_explicit_function_names_are_never_replaced() -> None:
    # ``functions.NAME:IDX`` or ``NAME:IDX`` names a function, even one not among the tools.
    for call_id in ("functions.play:0", "play:3"):
        result = _read(_kimi((call_id, '{"track": "x"}')), "kimi_k2", tools=KIMI_TOOLS)
        assert [c.name for c in result.calls] == ["play"], call_id
        assert result.calls[0].repairs == ()
    # The prefix without ``:IDX`` is a malformed id (vLLM and SGLang skip such a call): an
    # issue, and no name is guessed for it from the tools either.
    result = _read(_kimi(("functions.play", '{"track": "x"}')), "kimi_k2", tools=KIMI_TOOLS)
    assert result.calls == [] and [i.kind for i in result.issues] == ["bad_call_id"]


def test_kimi_inference_needs_tools_and_is_kimi_only() -> None:
    text = _kimi(("call_2", '{"track": "x"}'))
    assert [c.name for c in _read(text, "kimi_k2").calls] == ["call_2"]
    hermes = '<tool_call>{"name": "call_2", "arguments": {"track": "x"}}</tool_call>'
    assert [c.name for c in _read(hermes, "hermes", tools=KIMI_TOOLS).calls] == ["call_2"]


def test_kimi_extra_keys_count_only_where_the_schema_allows_them() -> None:
    open_ended = _tool(
        "log", {"level": {"type": "string"}}, required=["level"], additionalProperties=True
    )
    numbers = _tool("stats", {}, additionalProperties={"type": "number"})
    plain = _tool("ping", {})  # no additionalProperties: unknown keys are no evidence
    tools = [open_ended, numbers, plain]
    named = [
        (_kimi(("0", '{"level": "warn", "source": "db"}')), "log"),
        (_kimi(("0", '{"p50": 1.5, "p99": 8}')), "stats"),
        (_kimi(("0", '{"p50": "fast"}')), "0"),  # not a number, and log needs a level
        (_kimi(("0", '{"anything": 1, "level": 2}')), "0"),  # log and stats both take it
    ]
    for text, name in named:
        assert [c.name for c in _read(text, "kimi_k2", tools=tools).calls] == [name], text


def test_kimi_inference_reads_root_branches_and_skips_broken_refs() -> None:
    shapes = {
        "type": "object",
        "$defs": {"Box": {"type": "object", "properties": {"w": {}, "h": {}}, "required": ["w"]}},
        "oneOf": [{"$ref": "#/$defs/Box"}, {"properties": {"r": {}}, "required": ["r"]}],
    }
    broken = {"$ref": "#/$defs/nowhere", "properties": {"w": {}}}
    tools = [
        {"type": "function", "function": {"name": "area", "parameters": shapes}},
        {"type": "function", "function": {"name": "erase", "parameters": broken}},
    ]
    result = _read(_kimi(("0", '{"w": 2, "h": 3}'), ("1", '{"r": 1}')), "kimi_k2", tools=tools)
    assert [c.name for c in result.calls] == ["area", "area"]
    # ``erase`` would take {"w"} but its schema cannot be read: only ``area`` fits
    assert [c.name for c in _read(_kimi(("0", '{"w": 1}')), "kimi_k2", tools=tools).calls] == [
        "area"
    ]


# code_assistant_xml and caret ----------------------------------------------------------------

FILE_TOOLS = [
    _tool(
        "open_files",
        {"project": {"type": "string"}, "paths": {"type": "array", "items": {"type": "string"}}},
    ),
    _tool("save_file", {"path": {"type": "string"}, "body": {"type": "string"}}),
    _tool("pick_lines", {"lines": {"type": "array", "items": {"type": "integer"}}}),
]


def _xml(tool: str, *params: tuple[str, str]) -> str:
    body = "".join(f"<param:{k}>{v}</param:{k}>\n" for k, v in params)
    return f"Reading.\n<tool:{tool}>\n{body}</tool:{tool}>\n"


def _caret(tool: str, *params: tuple[str, str]) -> str:
    body = "".join(f"{k}: {v}\n" for k, v in params)
    return f"Reading.\n^^^{tool}\n{body}^^^\n"


@pytest.mark.parametrize("syntax,write", [("code_assistant_xml", _xml), ("caret", _caret)])
def test_singular_name_of_an_array_property_gives_the_list(syntax: str, write: Any) -> None:
    one = write("open_files", ("project", "demo"), ("path", "src/main.rs"))
    result = _read(one, syntax, tools=FILE_TOOLS)
    assert _calls(result) == [("open_files", {"project": "demo", "paths": ["src/main.rs"]})]
    assert result.issues == []
    two = write("open_files", ("path", "a.rs"), ("path", "b.rs"))
    assert _calls(_read(two, syntax, tools=FILE_TOOLS)) == [
        ("open_files", {"paths": ["a.rs", "b.rs"]})
    ]


@pytest.mark.parametrize("syntax,write", [("code_assistant_xml", _xml), ("caret", _caret)])
def test_lone_value_of_an_array_property_is_a_one_item_list(syntax: str, write: Any) -> None:
    cases = [
        (("paths", "lib"), {"paths": ["lib"]}),
        (("paths", '["lib", "bin"]'), {"paths": ["lib", "bin"]}),  # a JSON list is read as one
    ]
    if syntax == "code_assistant_xml":  # its values are raw; caret's header trims them
        cases.append((("paths", " spaced name "), {"paths": [" spaced name "]}))
    for param, arguments in cases:
        result = _read(write("open_files", param), syntax, tools=FILE_TOOLS)
        assert _calls(result) == [("open_files", arguments)], param
        assert result.issues == []
    # list items are typed by ``items``; one that does not fit is kept as written, reported
    assert _calls(_read(write("pick_lines", ("lines", "12")), syntax, tools=FILE_TOOLS)) == [
        ("pick_lines", {"lines": [12]})
    ]
    bad = _read(write("pick_lines", ("lines", "twelve")), syntax, tools=FILE_TOOLS)
    assert _calls(bad) == [("pick_lines", {"lines": "twelve"})]
    assert [i.kind for i in bad.issues] == ["bad_value"]


def test_plural_name_of_a_string_property_is_renamed_and_kept_as_written() -> None:
    text = _xml("save_file", ("paths", "notes/todo.md"), ("body", "  - milk\n  - eggs  "))
    assert _calls(_read(text, "code_assistant_xml", tools=FILE_TOOLS)) == [
        ("save_file", {"path": "notes/todo.md", "body": "  - milk\n  - eggs  "})
    ]


def test_names_the_schema_has_or_that_would_collide_are_not_renamed() -> None:
    both = _xml("save_file", ("path", "a.md"), ("paths", "b.md"))
    assert _calls(_read(both, "code_assistant_xml", tools=FILE_TOOLS)) == [
        ("save_file", {"path": "a.md", "paths": "b.md"})
    ]
    unknown = _xml("rename", ("path", "a.md"))
    result = _read(unknown, "code_assistant_xml", tools=FILE_TOOLS)
    assert _calls(result) == [("rename", {"path": "a.md"})]
    assert [i.kind for i in result.issues] == ["unknown_tool"]


def test_number_mapping_needs_tools_and_is_limited_to_its_syntaxes() -> None:
    text = _xml("open_files", ("path", "x"))
    assert _calls(_read(text, "code_assistant_xml")) == [("open_files", {"path": "x"})]
    hermes = (
        '<tool_call>{"name": "open_files", "arguments": {"path": "x", "paths": "y"}}</tool_call>'
    )
    result = _read(hermes, "hermes", tools=FILE_TOOLS)
    assert _calls(result) == [("open_files", {"path": "x", "paths": "y"})]
    assert [i.kind for i in result.issues] == ["bad_value"]


# deepseek_dsml -------------------------------------------------------------------------------

DSML = "｜DSML｜"
WEATHER = [_tool("forecast", {"town": {"type": "string"}, "days": {"type": "integer"}})]


def _dsml(name: str, *params: tuple[str, str, bool]) -> str:
    body = "".join(
        f'<{DSML}parameter name="{k}" string="{str(s).lower()}">{v}</{DSML}parameter>\n'
        for k, v, s in params
    )
    return (
        f'Let me check.\n<{DSML}function_calls>\n<{DSML}invoke name="{name}">\n{body}'
        f"</{DSML}invoke>\n</{DSML}function_calls>"
    )


@pytest.mark.parametrize(
    "param",
    [
        ("arguments", '{"town": "Oslo", "days": 3}', False),
        ("input", '{"town": "Oslo", "days": 3}', False),
        ("input", '{"town": "Oslo", "days": 3}', True),  # a string holding the object
        ("arguments", '{"town": "Oslo", "days": "3"}', True),  # typed as the schema says
    ],
)
def test_dsml_wrapper_parameter_is_the_arguments(param: tuple[str, str, bool]) -> None:
    result = _read(_dsml("forecast", param), "deepseek_dsml", tools=WEATHER)
    assert _calls(result) == [("forecast", {"town": "Oslo", "days": 3})]
    assert result.calls[0].repairs == ("unwrapped_arguments",)
    assert json.loads(result.calls[0].arguments_json) == {"town": "Oslo", "days": 3}
    assert result.issues == []


@pytest.mark.parametrize(
    "params",
    [
        [("arguments", '{"town": "Oslo"}', False), ("days", "2", False)],  # not the only one
        [("arguments", '["Oslo"]', False)],  # no object
        [("input", "Oslo", True)],
        [("args", '{"town": "Oslo"}', False)],  # not a wrapper's name
    ],
)
def test_dsml_parameters_that_are_no_wrapper_stay(params: list[tuple[str, str, bool]]) -> None:
    result = _read(_dsml("forecast", *params), "deepseek_dsml", tools=WEATHER)
    assert result.calls[0].repairs == ()
    assert set(result.calls[0].arguments) == {k for k, _, _ in params}


def test_dsml_schema_property_named_like_a_wrapper_is_that_property() -> None:
    tools = [_tool("run", {"arguments": {"type": "object"}})]
    result = _read(_dsml("run", ("arguments", '{"x": 1}', False)), "deepseek_dsml", tools=tools)
    assert _calls(result) == [("run", {"arguments": {"x": 1}})]


@pytest.mark.parametrize("syntax", ["deepseek_dsml", "auto"])
def test_dsml_without_tools_unwraps_only_an_arguments_object(syntax: str) -> None:
    wrapped = _dsml("forecast", ("arguments", '{"town": "Oslo", "days": 3}', False))
    result = _read(wrapped, syntax)
    assert _calls(result) == [("forecast", {"town": "Oslo", "days": 3})]
    assert result.calls[0].repairs == ("unwrapped_arguments",)
    other_name = _read(_dsml("forecast", ("input", '{"town": "Oslo"}', False)), syntax)
    assert _calls(other_name) == [("forecast", {"input": {"town": "Oslo"}})]
    as_string = _read(_dsml("forecast", ("arguments", '{"town": "Oslo"}', True)), syntax)
    assert _calls(as_string) == [("forecast", {"arguments": '{"town": "Oslo"}'})]
    # an unknown tool under tools= reads as without them
    other = _read(wrapped, syntax, tools=[_tool("clock", {})])
    assert _calls(other) == [("forecast", {"town": "Oslo", "days": 3})]


def test_dsml_unwrapping_reaches_the_arrow_tables() -> None:
    pa = pytest.importorskip("pyarrow")
    from toolsift.arrow import extract_arrow

    wrapped = _dsml("forecast", ("arguments", '{"town": "Oslo"}', False))
    table = extract_arrow(pa.array([wrapped, "no calls", wrapped]), "deepseek_dsml").calls
    rows = table.select(["row", "arguments", "repairs"]).to_pylist()
    assert [(r["row"], json.loads(r["arguments"]), r["repairs"]) for r in rows] == [
        (0, {"town": "Oslo"}, ["unwrapped_arguments"]),
        (2, {"town": "Oslo"}, ["unwrapped_arguments"]),
    ]


def test_dsml_arguments_stream_live_unless_the_first_parameter_is_a_wrapper() -> None:
    def sent_before_end(text: str) -> str:
        adapter = StreamAdapter("deepseek_dsml")
        deltas = adapter.feed(text[: text.index(f"</{DSML}invoke>")])
        parts = [p for d in deltas for p in d.get("tool_calls", [])]
        return "".join(p["function"]["arguments"] for p in parts)

    plain = _dsml("forecast", ("town", "Oslo", True), ("days", "3", False))
    assert sent_before_end(plain).startswith('{"town": "Oslo"')
    wrapped = _dsml("forecast", ("arguments", '{"town": "Oslo"}', False), ("days", "3", False))
    assert sent_before_end(wrapped) == ""  # only at the end, when the wrapper is settled
