"""toolsift.Parser: the strategy registry, its order, records, failures and the override."""

from __future__ import annotations

from typing import Any

import pytest

import toolsift
from toolsift import ParseContext, ToolCall
from toolsift.providers import AUTO_SYNTAXES

HERMES = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'


class Named:
    """A pure-Python strategy: every ``!name`` word in the text is a call of ``name``."""

    def __init__(self, name: str, calls: int = 0) -> None:
        self.name = name

    def supports(self, response: Any, context: ParseContext) -> bool:
        return isinstance(response, str)

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
        calls = []
        for index, word in enumerate(response.split()):
            if word.startswith("!") and len(word) > 1:
                calls.append(ToolCall(word[1:], {"position": index}, id="call_0"))
        return calls


class Broken:
    name = "broken"

    def supports(self, response: Any, context: ParseContext) -> bool:
        return True

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
        raise RuntimeError("boom")


@pytest.fixture(autouse=True)
def no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLSIFT_SYNTAX", raising=False)


def test_default_parser_holds_the_auto_syntaxes_in_order_then_api_tool_call() -> None:
    assert toolsift.Parser().names == (*AUTO_SYNTAXES, "api_tool_call")


def test_register_appends_prepend_and_priority_reorder() -> None:
    parser = toolsift.Parser(syntax=["hermes", "mistral"])
    parser.register(Named("late"))
    parser.register(Named("first"), prepend=True)
    parser.register(Named("urgent"), priority=10)
    parser.register(Named("last"), priority=-1)
    parser.register(Named("urgent_first"), priority=10, prepend=True)
    assert parser.names == (
        "urgent_first",
        "urgent",
        "first",
        "hermes",
        "mistral",
        "late",
        "last",
    )


def test_unregister_removes_and_unknown_names_are_listed() -> None:
    parser = toolsift.Parser(syntax=["hermes", "mistral"])
    assert parser.unregister("hermes").name == "hermes"
    assert parser.names == ("mistral",)
    with pytest.raises(toolsift.UnknownStrategyError, match="registered: mistral") as err:
        parser.unregister("hermes")
    assert isinstance(err.value, ValueError)


def test_duplicate_names_are_rejected() -> None:
    parser = toolsift.Parser(syntax="hermes")
    parser.register(Named("mine"))
    with pytest.raises(toolsift.DuplicateStrategyError, match="'mine' is registered"):
        parser.register(Named("mine"))
    with pytest.raises(toolsift.DuplicateStrategyError):
        parser.register(toolsift.Parser(syntax="hermes").strategies[0])
    assert issubclass(toolsift.DuplicateStrategyError, ValueError)
    with pytest.raises(toolsift.ToolsiftError, match="not a strategy"):
        parser.register(object())  # type: ignore[arg-type]


def test_user_strategy_calls_merge_with_built_in_ones_and_ids_are_unique() -> None:
    parser = toolsift.Parser(syntax="hermes")
    parser.register(Named("bang"))
    result = parser.parse(f"run !deploy then {HERMES} and !notify")
    assert [(c.name, c.syntax) for c in result.calls] == [
        ("f", "hermes"),
        ("deploy", ""),
        ("notify", ""),
    ]
    ids = [c.id for c in result.calls]
    assert len(set(ids)) == len(ids) == 3
    assert [(r.name, r.status, len(r.calls)) for r in result.strategies] == [
        ("hermes", "found", 1),
        ("bang", "found", 2),
    ]


def test_failing_strategy_is_recorded_beside_a_working_one() -> None:
    parser = toolsift.Parser(syntax="hermes")
    parser.register(Broken(), prepend=True)
    result = parser.parse(HERMES)
    assert [c.name for c in result.calls] == ["f"]
    broken = result.strategies[0]
    assert (broken.name, broken.status) == ("broken", "failed")
    assert isinstance(broken.error, RuntimeError)
    assert "boom" in broken.message
    assert [(i.syntax, i.kind) for i in result.issues] == [("broken", "strategy_failed")]


def test_strict_reraises_the_failure() -> None:
    parser = toolsift.Parser(syntax="hermes", strict=True)
    parser.register(Broken())
    with pytest.raises(RuntimeError, match="boom"):
        parser.parse(HERMES)


def test_a_strategy_returning_garbage_fails_cleanly() -> None:
    class Garbage(Named):
        def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
            return "nope"  # type: ignore[return-value]

    parser = toolsift.Parser(syntax="hermes")
    parser.register(Garbage("garbage"))
    result = parser.parse(HERMES)
    assert result.strategies[1].status == "failed"
    assert "not a list of ToolCall" in result.strategies[1].message


def test_unknown_tool_error_policy_raises_even_when_not_strict() -> None:
    parser = toolsift.Parser(syntax=["hermes", "mistral"], tools=[], unknown_tools="error")
    with pytest.raises(toolsift.UnknownToolError):
        parser.parse(HERMES)


def test_batched_syntaxes_match_a_single_engine_run() -> None:
    text = f"a {HERMES} b [TOOL_CALLS]g[ARGS]{{}}"
    names = ["hermes", "mistral", "tool_call_json"]
    parsed = toolsift.parse(text, names)
    result = toolsift.Parser(syntax=names).parse(text)
    assert [(c.name, c.id, c.span) for c in result.calls] == [
        (c.name, c.id, c.span) for c in parsed.calls
    ]
    assert result.content == parsed.content
    assert [r.status for r in result.strategies] == ["found", "found", "nothing"]


def test_same_markup_read_by_two_strategies_gives_one_call() -> None:
    class Echo(Named):
        def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
            return toolsift.parse(response, "hermes").calls

    parser = toolsift.Parser(syntax="hermes")
    parser.register(Echo("echo"))
    assert len(parser.parse(HERMES).calls) == 1


def test_provider_and_syntax_narrow_the_parser() -> None:
    assert toolsift.Parser(provider="anthropic").names == ("api_tool_call", "anthropic_xml")
    assert toolsift.Parser(provider=toolsift.Provider.QWEN).names[1:] == ("hermes", "qwen3_coder")
    assert toolsift.Parser(syntax="xml").names == ("xml_tool",)
    with pytest.raises(toolsift.UnknownProviderError, match="known providers: openai"):
        toolsift.Parser(provider="nope")
    with pytest.raises(toolsift.UnknownSyntaxError, match="valid values: auto, xml, json"):
        toolsift.Parser(syntax="nope")


def test_provider_objects_go_to_api_tool_call_and_text_to_the_rest() -> None:
    parser = toolsift.Parser(provider="openai")
    message = {
        "role": "assistant",
        "content": "ok",
        "tool_calls": [
            {"id": "call_9", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ],
    }
    result = parser.parse(message)
    assert [(c.id, c.syntax) for c in result.calls] == [("call_9", "api_tool_call")]
    assert result.content == "ok"
    assert [r.status for r in result.strategies] == ["found", "skipped"]


def test_stream_uses_the_registry_syntaxes() -> None:
    parser = toolsift.Parser(syntax=["mistral", "hermes"])
    stream = parser.stream()
    stream.feed(HERMES[:20])
    stream.feed(HERMES[20:] + " [TOOL_CALLS]g[ARGS]{}")
    stream.finish()
    assert [c.name for c in stream.result().calls] == ["f", "g"]
    parser.register(Named("bang"))
    with pytest.raises(toolsift.ToolsiftError, match="bang cannot stream"):
        parser.stream()
    assert parser.stream(batch_only="skip") is not None


# The TOOLSIFT_SYNTAX override, on both sides ------------------------------------------------


def test_override_narrows_parser_stream_and_formatting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "caret")
    parser = toolsift.Parser()
    assert parser.names == ("caret",)
    assert toolsift.Parser(provider="openai").names == ("caret",)
    stream = parser.stream()
    stream.feed("^^^read\npath: a\n^^^")
    stream.finish()
    assert [c.name for c in stream.result().calls] == ["read"]
    assert toolsift.resolve_syntax("openai", side="format") == "caret"
    assert toolsift.resolve_syntax(side="format") == "caret"


def test_override_applies_to_plain_parse_and_stream_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "xml")
    text = '<tool name="f"><arguments><arg name="k">v</arg></arguments></tool>'
    assert [c.name for c in toolsift.parse(text).calls] == ["f"]
    stream = toolsift.StreamParser()
    stream.feed(text)
    stream.finish()
    assert [c.name for c in stream.result().calls] == ["f"]
    # An explicit syntax wins over the environment.
    assert toolsift.parse(HERMES, "hermes").calls[0].name == "f"


@pytest.mark.parametrize("value", ["json", "sentinel", "api_tool_call", "caret", "xml"])
def test_documented_override_values_resolve_the_same_on_both_sides(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", value)
    parse_side = toolsift.resolve_syntax()
    assert len(parse_side) == 1
    assert toolsift.resolve_syntax(side="format") == parse_side[0]


def test_invalid_override_is_an_error_listing_valid_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "yaml")
    for build in (toolsift.Parser, lambda: toolsift.resolve_syntax(side="format")):
        with pytest.raises(toolsift.UnknownSyntaxError) as err:
            build()
        assert "TOOLSIFT_SYNTAX: unknown syntax 'yaml'" in str(err.value)
        for valid in ("auto", "xml", "json", "sentinel", "api_tool_call", "caret", "hermes"):
            assert valid in str(err.value)


def test_blank_override_is_no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "  ")
    assert toolsift.Parser(provider="gemini").names == ("api_tool_call", "json_gemini")


def test_default_parser_reads_like_syntax_auto() -> None:
    """The auto members run as ``auto``: shared ``<tool_call>`` markers are told apart."""
    text = (
        "a <tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"
        ' b <tool_call>{"name": "g", "arguments": {}}</tool_call> TOOL_CALL: {"tool": "h"}'
    )
    auto = toolsift.parse(text, "auto")
    result = toolsift.Parser().parse(text)
    assert [(c.name, c.syntax, c.span) for c in result.calls] == [
        (c.name, c.syntax, c.span) for c in auto.calls
    ]
    assert [c.syntax for c in result.calls] == ["qwen3_coder", "hermes", "tool_call_json"]
    assert result.content == auto.content
    found = {r.name for r in result.strategies if r.status == "found"}
    assert found == {"qwen3_coder", "hermes", "tool_call_json"}
