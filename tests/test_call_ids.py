"""Call ids the text gives: Kimi K2's ``functions.NAME:IDX`` header, Mistral's ``[CALL_ID]``
token and the ``id`` of an object in a list of calls (Mistral Nemo) become the calls' ids
(the id a reply to the call must name), in every entry point; the engine's ``call_N`` stays
for calls without one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift.openai import StreamAdapter, merge_deltas

KIMI = (
    "Let me check. <|tool_calls_section_begin|>"
    "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
    '{"city": "Tokyo"}<|tool_call_end|>'
    "<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>"
    '{"city": "Paris"}<|tool_call_end|>'
    "<|tool_call_begin|>2<|tool_call_argument_begin|>{}<|tool_call_end|>"
    "<|tool_calls_section_end|>"
)
MISTRAL = (
    '[TOOL_CALLS]add[CALL_ID]a1B2c3D4e[ARGS]{"a": 1, "b": 2}'
    '[TOOL_CALLS]mul[CALL_ID]a1B2c3D4e[ARGS]{"a": 3}'
    '[TOOL_CALLS]neg{"a": 4}'
)


def _ids(result: toolsift.ParseResult) -> list[tuple[str, str]]:
    return [(c.id, c.name) for c in result.calls]


def test_kimi_headers_are_the_ids() -> None:
    result = toolsift.parse(KIMI, "kimi_k2")
    assert _ids(result) == [
        ("functions.get_weather:0", "get_weather"),
        ("functions.get_weather:1", "get_weather"),
        ("call_2", "2"),  # a bare counter is no id
    ]
    assert result.content == "Let me check. "


def test_mistral_call_id_token() -> None:
    # The second `a1B2c3D4e` repeats the first: ids stay unique, so it is the engine's.
    result = toolsift.parse(MISTRAL, "mistral")
    assert _ids(result) == [("a1B2c3D4e", "add"), ("call_1", "mul"), ("call_2", "neg")]
    assert [c.arguments for c in result.calls] == [{"a": 1, "b": 2}, {"a": 3}, {"a": 4}]


def test_mistral_nemo_list_ids() -> None:
    text = (
        '[TOOL_CALLS][{"name": "add", "arguments": {"a": 1}, "id": "a1B2c3D4e"}, '
        '{"name": "neg", "arguments": {"a": 2}}]'
    )
    assert _ids(toolsift.parse(text, "mistral")) == [("a1B2c3D4e", "add"), ("call_1", "neg")]


def test_openai_tool_calls_ids() -> None:
    text = (
        'Calling. {"tool_calls": [{"id": "call_9xY", "type": "function", "function": '
        '{"name": "add", "arguments": "{\\"a\\": 1}"}}, {"type": "function", "function": '
        '{"name": "neg", "arguments": "{}"}}]}'
    )
    result = toolsift.parse(text, "json_openai")
    assert _ids(result) == [("call_9xY", "add"), ("call_1", "neg")]
    assert result.calls[0].arguments == {"a": 1}


def test_every_entry_point_gives_the_same_ids() -> None:
    want = _ids(toolsift.parse(KIMI, "kimi_k2"))
    assert [_ids(r) for r in toolsift.parse_many([KIMI, KIMI], "kimi_k2", workers=2)] == [
        want,
        want,
    ]
    stream = toolsift.StreamParser("kimi_k2")
    for ch in KIMI:
        stream.feed(ch)
    stream.finish()
    assert _ids(stream.result()) == want


def test_id_prefix_renames_only_the_engines_ids() -> None:
    result = toolsift.parse(KIMI, "kimi_k2", id_prefix="t")
    assert [c.id for c in result.calls] == [
        "functions.get_weather:0",
        "functions.get_weather:1",
        "t2",
    ]


def test_openai_chunks_carry_the_given_ids() -> None:
    adapter = StreamAdapter("mistral")
    deltas: list[dict[str, Any]] = []
    for ch in MISTRAL:
        deltas += adapter.feed(ch)
    deltas += adapter.finish()
    message = merge_deltas(deltas)
    assert [c["id"] for c in message["tool_calls"]] == ["a1B2c3D4e", "call_1", "call_2"]


@settings(max_examples=60, deadline=None)
@given(
    ident=st.text(
        alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Cc")),
        max_size=12,
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
def test_any_kimi_header_gives_an_id_or_the_engines(ident: str, cuts: list[int]) -> None:
    # Whatever the model writes before `:0`, the call keeps one unique, non-empty id (the
    # header itself, or `call_0` when the header cannot serve), the same however it is split.
    text = (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f"
        f"{ident}:0<|tool_call_argument_begin|>{{}}<|tool_call_end|>"
        "<|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{}<|tool_call_end|>"
        "<|tool_calls_section_end|>"
    )
    whole = toolsift.parse(text, "kimi_k2")
    ids = [c.id for c in whole.calls]
    assert len(ids) == len(set(ids)) and all(ids)
    assert ids[-1] == "functions.g:1"
    points = sorted({min(c, len(text)) for c in cuts})
    stream = toolsift.StreamParser("kimi_k2")
    for a, b in zip([0, *points], [*points, len(text)], strict=True):
        stream.feed(text[a:b])
    stream.finish()
    assert [c.id for c in stream.result().calls] == ids
