"""Provider-native tool calls: whole responses and replayed streams give the same calls, with
the same events as text syntaxes. Fixtures in tests/fixtures/api are hand-written from the
providers' documented formats; the SDK tests validate them into the SDKs' own objects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolsift
from toolsift.events import (
    ArgumentDelta,
    ArgumentsJsonDelta,
    SegmentEnd,
    SegmentStart,
    TextDelta,
)

FIXTURES = Path(__file__).parent / "fixtures" / "api"
PROVIDERS = ["openai_chat", "openai_responses", "anthropic", "gemini"]


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def summary(calls: list[toolsift.ToolCall]) -> list[dict[str, Any]]:
    return [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in calls]


def replay(chunks: list[Any], **options: Any) -> tuple[list[Any], toolsift.ParseResult]:
    parser = toolsift.StreamParser("api_tool_call", **options)
    events = [e for chunk in chunks for e in parser.feed(chunk)]
    events += parser.finish()
    return events, parser.result()


@pytest.mark.parametrize("name", PROVIDERS)
def test_whole_response_gives_the_expected_calls(name: str) -> None:
    case = fixture(name)
    result = toolsift.parse(case["response"], syntax="api_tool_call")
    assert summary(result.calls) == case["expected_calls"]
    assert result.content == case["expected_content"]
    assert result.issues == []
    assert all(c.syntax == "api_tool_call" for c in result.calls)
    assert all(json.loads(c.arguments_json) == c.arguments for c in result.calls)


@pytest.mark.parametrize("name", PROVIDERS)
def test_stream_replay_gives_the_same_calls_as_the_whole_response(name: str) -> None:
    case = fixture(name)
    events, result = replay(case["stream"])
    whole = toolsift.parse(case["response"], syntax="api_tool_call")
    assert summary(result.calls) == summary(whole.calls) == case["expected_calls"]
    assert result.content == case["expected_content"]
    ends = [e.call for e in events if isinstance(e, SegmentEnd) and e.call is not None]
    assert summary(ends) == case["expected_calls"]
    assert all(json.loads(c.arguments_json) == c.arguments for c in result.calls)


@pytest.mark.parametrize("name", PROVIDERS)
def test_stream_events_have_the_text_syntaxes_shape(name: str) -> None:
    """Per call: SegmentStart (kind tool_call, name) … deltas … SegmentEnd, segment id = call
    id; string arguments rebuilt from ArgumentDelta; the JSON deltas join to the arguments."""
    events, result = replay(fixture(name)["stream"])
    open_segment: str | None = None
    for event in events:
        if isinstance(event, SegmentStart):
            assert open_segment is None, "segments never overlap"
            open_segment = event.segment_id
        elif isinstance(event, SegmentEnd):
            assert event.segment_id == open_segment
            open_segment = None
        else:
            assert event.segment_id == open_segment
    assert open_segment is None
    for call in result.calls:
        starts = [e for e in events if isinstance(e, SegmentStart) and e.segment_id == call.id]
        assert [(s.kind, s.name, s.syntax) for s in starts] == [
            ("tool_call", call.name, "api_tool_call")
        ]
        for key, value in call.arguments.items():
            if isinstance(value, str):
                pieces = [
                    e.text
                    for e in events
                    if isinstance(e, ArgumentDelta) and e.segment_id == call.id and e.key == key
                ]
                assert "".join(pieces) == value
        joined = "".join(
            e.text for e in events if isinstance(e, ArgumentsJsonDelta) and e.segment_id == call.id
        )
        assert (json.loads(joined) if joined else {}) == call.arguments


def test_text_syntax_and_provider_stream_give_the_same_event_kinds() -> None:
    """A UI cannot tell a hermes call from an OpenAI one by the events it sees."""
    text = toolsift.StreamParser("hermes")
    text_events = text.feed('<tool_call>{"name": "f", "arguments": {"q": "hi"}}</tool_call>')
    text_events += text.finish()
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_0",
                                "function": {"name": "f", "arguments": '{"q": "hi"}'},
                            }
                        ]
                    },
                }
            ]
        },
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    api_events, _ = replay(chunks)

    def shape(events: list[Any]) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for e in events:
            if isinstance(e, SegmentEnd):
                out.append(("end", (e.call.name, e.call.arguments) if e.call else None))
            elif isinstance(e, ArgumentDelta):
                out.append(("arg", (e.key, e.text)))
            else:
                out.append((type(e).__name__, getattr(e, "kind", None)))
        return out

    assert shape(text_events) == shape(api_events)


def test_reasoning_streams_as_its_own_segment() -> None:
    events, result = replay(fixture("anthropic")["stream"])
    reasoning = [e for e in events if isinstance(e, SegmentStart) and e.kind == "reasoning"]
    assert len(reasoning) == 1
    text = [e.text for e in events if isinstance(e, TextDelta)]
    assert text == ["Need the weather.", "I'll look", " it up."]
    assert result.content == "I'll look it up."


@given(st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=40))
def test_any_fragmenting_of_openai_arguments_gives_the_same_call(sizes: list[int]) -> None:
    arguments = '{"path": "d/\\u00e9.txt", "content": "a\\nb \\"q\\" \\ud83d\\ude00", "n": [1, 2]}'
    pieces, at = [], 0
    for size in sizes:
        if at >= len(arguments):
            break
        pieces.append(arguments[at : at + size])
        at += size
    pieces.append(arguments[at:])
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "call_x", "function": {"name": "w", "arguments": ""}}
                        ]
                    },
                }
            ]
        }
    ]
    chunks += [
        {
            "choices": [
                {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": p}}]}}
            ]
        }
        for p in pieces
    ]
    events, result = replay(chunks)
    expected = json.loads(arguments)
    assert [c.arguments for c in result.calls] == [expected]
    for key in ("path", "content"):
        got = "".join(e.text for e in events if isinstance(e, ArgumentDelta) and e.key == key)
        assert got == expected[key]


def test_malformed_arguments_are_repaired_and_reported() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "f", "arguments": "{'a': 1, b: True,"},
            },
            {"id": "c2", "type": "function", "function": {"name": "g", "arguments": ""}},
            {"id": "c3", "type": "function", "function": {"name": "h", "arguments": "[1, 2]"}},
            {"id": "c4", "type": "function", "function": {"name": "", "arguments": "{}"}},
            {
                "id": "c5",
                "type": "function",
                "function": {"name": "k", "arguments": '"{\\"x\\": 1}"'},
            },
        ],
    }
    result = toolsift.parse(message, syntax="api_tool_call")
    assert summary(result.calls) == [
        {"id": "c1", "name": "f", "arguments": {"a": 1, "b": True}},
        {"id": "c2", "name": "g", "arguments": {}},
        {"id": "c5", "name": "k", "arguments": {"x": 1}},
    ]
    assert "single_quotes" in result.calls[0].repairs
    assert [i.kind for i in result.issues] == ["not_an_object", "no_name"]


def test_truncated_stream_is_closed_at_finish_with_repair() -> None:
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "c",
                                "function": {"name": "f", "arguments": '{"a": "unfinish'},
                            }
                        ]
                    },
                }
            ]
        }
    ]
    _, result = replay(chunks)
    assert summary(result.calls) == [{"id": "c", "name": "f", "arguments": {"a": "unfinish"}}]
    assert result.calls[0].repairs


def _fragment(index: int, arguments: str, name: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    call: dict[str, Any] = {"index": index, "function": function}
    if name is not None:
        function["name"] = name
        call["id"] = f"c{index}"
    return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}


def test_a_fragment_for_a_call_already_ended_is_reported_not_dropped() -> None:
    # A new index ends the call before it; a fragment that comes back to it later cannot
    # join it, and is reported with its text. The call still open is not ended by it.
    chunks = [
        _fragment(0, '{"a": ', "f"),
        _fragment(1, '{"b": 2', "g"),
        _fragment(0, "1}"),
        _fragment(1, "}"),
    ]
    events, result = replay(chunks)
    assert summary(result.calls) == [
        {"id": "c0", "name": "f", "arguments": {"a": None}},
        {"id": "c1", "name": "g", "arguments": {"b": 2}},
    ]
    assert [(i.kind, "'1}'" in i.message) for i in result.issues] == [("late_fragment", True)]
    assert not result.calls[1].repairs  # g's own fragments all joined
    ends = [e for e in events if isinstance(e, SegmentEnd)]
    assert [e.segment_id for e in ends] == ["c0", "call_2", "c1"]


def test_ollama_arguments_as_objects() -> None:
    response = {
        "model": "llama3.1",
        "message": {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Rome"}}}],
        },
        "done": True,
    }
    result = toolsift.parse(response, syntax="api_tool_call")
    assert summary(result.calls) == [
        {"id": "call_0", "name": "get_weather", "arguments": {"city": "Rome"}}
    ]
    _, streamed = replay([response])
    assert summary(streamed.calls) == summary(result.calls)


def test_tools_policy_applies_to_provider_calls() -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    case = fixture("anthropic")
    result = toolsift.parse(case["response"], "api_tool_call", tools=tools, unknown_tools="drop")
    assert [c.name for c in result.calls] == ["get_weather"]
    assert [i.kind for i in result.issues] == ["unknown_tool"]
    _, streamed = replay(case["stream"], tools=tools, unknown_tools="drop")
    assert [c.name for c in streamed.calls] == ["get_weather"]
    with pytest.raises(toolsift.UnknownToolError):
        replay(case["stream"], tools=tools, unknown_tools="error")


def test_json_text_of_a_response_and_bad_input() -> None:
    case = fixture("openai_chat")
    as_text = json.dumps(case["response"])
    assert summary(toolsift.parse(as_text, "api_tool_call").calls) == case["expected_calls"]
    with pytest.raises(toolsift.ToolsiftError, match="provider response"):
        toolsift.parse("not json", "api_tool_call")
    with pytest.raises(toolsift.ToolsiftError, match="provider chunks"):
        toolsift.StreamParser("hermes").feed({"choices": []})


def test_mixed_stream_sends_text_to_text_syntaxes() -> None:
    parser = toolsift.StreamParser(["hermes", "api_tool_call"])
    parser.feed('<tool_call>{"name": "a", "arguments": {}}</tool_call>')
    parser.feed(fixture("anthropic")["stream"][10])
    parser.finish()
    assert [c.name for c in parser.result().calls] == ["a", "get_weather"]


# The SDKs' own objects -------------------------------------------------------------------


def test_openai_sdk_objects() -> None:
    openai_types = pytest.importorskip("openai.types.chat")
    case = fixture("openai_chat")
    response = openai_types.ChatCompletion.model_validate(case["response"])
    assert summary(toolsift.parse(response, "api_tool_call").calls) == case["expected_calls"]
    chunks = [openai_types.ChatCompletionChunk.model_validate(c) for c in case["stream"]]
    _, result = replay(chunks)
    assert summary(result.calls) == case["expected_calls"]


def test_openai_responses_sdk_objects() -> None:
    responses = pytest.importorskip("openai.types.responses")
    pydantic = pytest.importorskip("pydantic")
    case = fixture("openai_responses")
    response = responses.Response.model_validate(
        {**case["response"], "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    )
    assert summary(toolsift.parse(response, "api_tool_call").calls) == case["expected_calls"]
    adapter = pydantic.TypeAdapter(responses.ResponseStreamEvent)
    wanted = ("response.output_item", "response.function_call", "response.output_text.delta")
    events = [adapter.validate_python(e) for e in case["stream"] if e["type"].startswith(wanted)]
    _, result = replay(events)
    assert summary(result.calls) == case["expected_calls"]
    assert result.content == case["expected_content"]


def test_anthropic_sdk_objects() -> None:
    types = pytest.importorskip("anthropic.types")
    pydantic = pytest.importorskip("pydantic")
    case = fixture("anthropic")
    message = types.Message.model_validate(case["response"])
    assert summary(toolsift.parse(message, "api_tool_call").calls) == case["expected_calls"]
    adapter = pydantic.TypeAdapter(types.RawMessageStreamEvent)
    events = [adapter.validate_python(e) for e in case["stream"] if e["type"] != "ping"]
    _, result = replay(events)
    assert summary(result.calls) == case["expected_calls"]
    assert result.content == case["expected_content"]


def test_gemini_sdk_objects() -> None:
    genai = pytest.importorskip("google.genai.types")
    case = fixture("gemini")
    response = genai.GenerateContentResponse.model_validate(case["response"])
    assert summary(toolsift.parse(response, "api_tool_call").calls) == case["expected_calls"]
    chunks = [genai.GenerateContentResponse.model_validate(c) for c in case["stream"]]
    _, result = replay(chunks)
    assert summary(result.calls) == case["expected_calls"]
    assert result.content == case["expected_content"]
