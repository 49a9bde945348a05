"""Every formatter's output parses back to the same call, in every syntax; where a syntax
cannot carry a value the formatter says so instead of writing something else."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolsift
from toolsift import FormatError, ToolCall, ToolDefinition
from toolsift.formatting import FORMATTERS, example_arguments

from format_strategies import NAMES, tool_schemas, typed, values_for

#: The parser's syntaxes that hold calls (``think`` holds reasoning only).
SYNTAXES = [s for s in toolsift.SYNTAXES if s != "think"]

#: Syntaxes whose values travel as JSON or Python literals: they can carry every value.
CARRY_EVERYTHING = {
    "tool_call_json", "json_openai", "json_gemini", "json_default", "llama3_json", "xlam",
    "hermes", "internlm", "run_module", "mistral", "granite", "jamba", "deepseek_v3",
    "deepseek_v31", "kimi_k2", "gpt_oss", "pythonic", "sentinel", "api_tool_call",
}  # fmt: skip


def parse_back(text: str, syntax: str, tool: ToolDefinition) -> toolsift.ParseResult:
    return toolsift.parse(
        text,
        syntax,
        tools=[tool.to_openai()],
        **({"max_payload_chars": 0} if syntax == "tool_call_json" else {}),
    )


def assert_round_trip(syntax: str, tool: ToolDefinition, arguments: dict[str, Any]) -> bool:
    """True when the call was written and read back the same; False when the formatter
    refused it with a FormatError (allowed only where a syntax cannot carry everything)."""
    call = ToolCall(tool.name, arguments)
    try:
        text = toolsift.format_call(call, syntax)
    except FormatError as exc:
        assert syntax not in CARRY_EVERYTHING, f"{syntax} refused {arguments!r}: {exc}"
        assert exc.reason in {"unsafe_value", "bad_key", "bad_name"}
        assert str(exc).startswith(f"{syntax} cannot carry")
        return False
    result = parse_back(text, syntax, tool)
    got = [(c.name, typed(c.arguments)) for c in result.calls]
    assert got == [(tool.name, typed(arguments))], f"{syntax}:\n{text}\n{result}"
    assert result.issues == [], f"{syntax}:\n{text}\n{result.issues}"
    assert result.content.strip() == "", f"{syntax}: content {result.content!r}"
    return True


@st.composite
def tools_and_arguments(draw: st.DrawFn) -> tuple[ToolDefinition, dict[str, Any]]:
    schema = draw(tool_schemas)
    tool = ToolDefinition(draw(NAMES), "A generated tool.", schema)
    return tool, draw(values_for(schema))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tools_and_arguments())
def test_every_syntax_round_trips_or_refuses(case: tuple[ToolDefinition, dict[str, Any]]) -> None:
    tool, arguments = case
    tool.validate(arguments)  # the strategy only makes valid arguments
    for syntax in SYNTAXES:
        assert_round_trip(syntax, tool, arguments)


@settings(max_examples=100, deadline=None)
@given(tool_schemas, NAMES)
def test_manifest_examples_parse_and_validate(schema: dict[str, Any], name: str) -> None:
    tool = ToolDefinition(name, "A generated tool.", schema)
    for label, arguments in example_arguments(tool):
        tool.validate(arguments)
        for syntax in SYNTAXES:
            try:
                text = FORMATTERS[syntax].render(tool.name, arguments)
            except FormatError as exc:  # a name caret cannot carry (dots, dashes)
                assert exc.reason == "bad_name", exc
                continue
            calls = parse_back(text, syntax, tool).calls
            assert [c.name for c in calls] == [name], f"{syntax} {label}:\n{text}"
            tool.validate(calls[0].arguments)


RICH = {
    "path": "src/<main>.rs",
    "content": 'fn main() {\n    println!("a & b < c");\n}\n',
    "count": 3,
    "ratio": 0.25,
    "force": False,
    "tags": ["x", "y z"],
    "options": {"depth": 2, "names": ["é", "日本"]},
}
RICH_TOOL = ToolDefinition(
    "edit_file",
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "content": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "force": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "options": {
                "type": "object",
                "properties": {
                    "depth": {"type": "integer"},
                    "names": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_typical_call_is_carried_by_every_syntax_but_xml_tool(syntax: str) -> None:
    if syntax == "xml_tool":  # its text values are trimmed: the trailing newline cannot pass
        with pytest.raises(FormatError, match="whitespace"):
            toolsift.format_call(ToolCall("edit_file", RICH), syntax)
        trimmed = {**RICH, "content": RICH["content"].strip()}
        assert assert_round_trip(syntax, RICH_TOOL, trimmed)
    else:
        assert assert_round_trip(syntax, RICH_TOOL, RICH)


@pytest.mark.parametrize(
    "syntax,value,why",
    [
        ("xml_tool", " padded", "whitespace"),
        ("anthropic_xml", "a</parameter>b", "</parameter>"),
        ("minimax_m2", "</parameter>", "</parameter>"),
        ("qwen3_coder", "x</parameter>", "</parameter"),
        ("qwen3_coder", "x</parameter1>", "</parameter"),
        ("qwen3_coder", "<parameter=k>", "<parameter="),
        ("qwen3_coder", "a</function>", "</function>"),
        ("glm45", "</arg_value>", "</arg_value>"),
        ("deepseek_dsml", "</｜DSML｜parameter>", "DSML"),
        ("step3", "</steptml:parameter>", "steptml"),
        ("code_assistant_xml", "<tool:other>", "<tool:"),
        ("code_assistant_xml", "a</param:k>", "</param:"),
        ("caret", "a\n--- k\nb", "--- k"),
        ("caret", "ends in CR\r", "carriage return"),
    ],
)
def test_values_a_syntax_cannot_carry_raise(syntax: str, value: str, why: str) -> None:
    with pytest.raises(FormatError, match=why):
        toolsift.format_call(ToolCall("f", {"k": value}), syntax)


def test_write_file_content_is_raw_in_xml_tool() -> None:
    content = "  indented\n</arg>\n&amp; stays\n"
    text = toolsift.format_call(
        ToolCall("write_file", {"path": "a", "content": content}), "xml_tool"
    )
    assert "__START_CONTENT__\n" in text
    assert toolsift.parse(text, "xml_tool").calls[0].arguments == {"path": "a", "content": content}
    for early_end in ["__END_CONTENT__ </arg>", "</arg>\n</arguments>", "</ARG></tool>"]:
        with pytest.raises(FormatError, match="which end a raw value"):
            args = {"path": "a", "content": f"x{early_end}y"}
            toolsift.format_call(ToolCall("write_file", args), "xml_tool")
    for harmless in ["__END_CONTENT__", "__END_CONTENT__x", "</arg>", "</arg><tool"]:
        args = {"path": "a", "content": harmless}
        assert assert_round_trip("xml_tool", ToolDefinition("write_file"), args)


def test_xml_tool_values_that_start_like_raw_content_stay_values() -> None:
    # The parser reads a value starting with __START_CONTENT__ as raw content, in any
    # argument; the formatter writes such a value so that it reads back as itself
    # (hypothesis found `{"path": "__START_CONTENT__"}` read back as "").
    for value in ["__START_CONTENT__", "__START_CONTENT__x__END_CONTENT__", ["__START_CONTENT__"]]:
        args = {"path": value, "nested": {"k": "__START_CONTENT__ y"}}
        assert assert_round_trip("xml_tool", ToolDefinition("write_file"), args)
        assert assert_round_trip("xml_tool", ToolDefinition("f"), args)


def test_sentinel_write_file_uses_a_raw_body() -> None:
    call = ToolCall("write_file", {"path": "a.py", "content": "x = '\"]]'\n"})
    text = toolsift.format_call(call, "sentinel")
    assert text == '[[SEG_START {"type": "write_file", "path": "a.py"}]]x = \'"]]\'\n[[SEG_END]]'
    assert toolsift.parse(text, "sentinel").calls[0].arguments == call.arguments


@pytest.mark.parametrize("syntax", ["caret", "pythonic", "xml_tool"])
def test_names_and_keys_a_syntax_cannot_carry_raise(syntax: str) -> None:
    with pytest.raises(FormatError, match="cannot carry the"):
        toolsift.format_call(ToolCall("f", {"not a key": 1}), syntax)
    with pytest.raises(FormatError, match="tool name"):
        toolsift.format_call(ToolCall("bad name", {}), syntax)


def test_api_tool_call_reads_back_through_json_openai() -> None:
    text = toolsift.format_call(ToolCall("f", {"a": [1, "x"]}), "api_tool_call")
    assert toolsift.parse(text, "json_openai").calls[0].arguments == {"a": [1, "x"]}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tools_and_arguments(), min_size=2, max_size=3))
def test_several_calls_in_one_reply_come_back_in_order(
    cases: list[tuple[ToolDefinition, dict[str, Any]]],
) -> None:
    tools = {t.name: t for t, _ in cases}
    calls = [ToolCall(t.name, a) for t, a in cases if tools[t.name] is t]
    specs = [t.to_openai() for t in tools.values()]
    for syntax in SYNTAXES:
        try:
            text = toolsift.format_calls(calls, syntax)
        except FormatError:
            assert syntax not in CARRY_EVERYTHING
            continue
        options = {"max_payload_chars": 0} if syntax == "tool_call_json" else {}
        result = toolsift.parse(text, syntax, tools=specs, **options)
        got = [(c.name, typed(c.arguments)) for c in result.calls]
        assert got == [(c.name, typed(c.arguments)) for c in calls], f"{syntax}:\n{text}"
        assert result.issues == [], f"{syntax}:\n{text}\n{result.issues}"


def test_multi_call_forms_share_one_block_and_keep_ids() -> None:
    calls = [ToolCall("a", {"x": 1}, id="call_7"), ToolCall("b", {}, id="")]
    assert toolsift.format_calls(calls, "jamba") == (
        '<tool_calls>[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]'
        "</tool_calls>"
    )
    kimi = toolsift.format_calls(calls, "kimi_k2")
    assert "functions.a:0<|tool_call_argument_begin|>" in kimi
    assert "functions.b:1<|tool_call_argument_begin|>" in kimi
    assert kimi.count("<|tool_calls_section_begin|>") == 1
    api = toolsift.format_calls(calls, "api_tool_call")
    assert '"id": "call_7"' in api and '"id": "call_1"' in api  # an empty id gets call_N
    assert [c.name for c in toolsift.parse(api, "json_openai").calls] == ["a", "b"]
    assert '"id": "call_7"' in toolsift.format_call(calls[0], "api_tool_call")
