"""The bare-JSON syntaxes read a name-only object as a call when it names a declared tool
(SYNTAXES.md, ``json_gemini``: "not a call unless ``args`` is present or the name is a known
tool"), and as prose otherwise, in every entry point."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift.batch import parse_groups

TOOLS = [
    {"type": "function", "function": {"name": "list_files", "parameters": {}}},
    {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}},
]
TEXT = 'Looking. {"name": "list_files"} and {"name": "Ann", "age": 3} then {"name": "search"}.'
NAME_ONLY = ["json_gemini", "json_openai", "llama3_json", "xlam"]


def calls(result: toolsift.ParseResult) -> list[tuple[str, Any]]:
    return [(c.name, c.arguments) for c in result.calls]


@pytest.mark.parametrize("syntax", NAME_ONLY)
def test_a_declared_name_alone_is_a_call_and_other_names_stay_prose(syntax: str) -> None:
    result = toolsift.parse(TEXT, syntax, tools=TOOLS)
    assert calls(result) == [("list_files", {}), ("search", {})]
    assert result.content == 'Looking.  and {"name": "Ann", "age": 3} then .'
    assert [c.span for c in result.calls] == [(9, 31), (67, 85)]
    assert not result.issues
    # Without tools the guard against prose JSON holds: nothing is a call.
    bare = toolsift.parse(TEXT, syntax)
    assert calls(bare) == [] and bare.content == TEXT


def test_only_the_declared_names_count() -> None:
    result = toolsift.parse(TEXT, "json_gemini", tools=TOOLS[1:])
    assert calls(result) == [("search", {})]
    assert '{"name": "list_files"}' in result.content


def test_an_undeclared_name_with_arguments_is_still_a_call_under_the_unknown_tools_policy() -> None:
    text = '{"name": "other", "args": {"k": 1}} {"name": "list_files"}'
    result = toolsift.parse(text, "json_gemini", tools=TOOLS)
    assert calls(result) == [("other", {"k": 1}), ("list_files", {})]
    assert [i.kind for i in result.issues] == ["unknown_tool"]
    with pytest.raises(toolsift.UnknownToolError):
        toolsift.parse(text, "json_gemini", tools=TOOLS, unknown_tools="error")


def test_a_list_cut_by_a_missing_value_keeps_the_declared_call() -> None:
    # autobyteus' test builds this text with ``str.strip("{}")``; with the tool declared it is
    # the call with no arguments.
    text = '[{"name": "list_files",  }]'
    result = toolsift.parse(text, "json_gemini", tools=TOOLS)
    assert calls(result) == [("list_files", {})]
    assert result.calls[0].repairs == ("trailing_comma",)
    assert calls(toolsift.parse(text, "json_gemini")) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_parse_many_and_parse_groups_read_the_tools(workers: int) -> None:
    texts = [TEXT, "no calls", '{"name": "search"}'] * 40
    expected = [calls(toolsift.parse(t, "json_gemini", tools=TOOLS)) for t in texts]
    assert expected[2] == [("search", {})]
    many = toolsift.parse_many(texts, "json_gemini", tools=TOOLS, workers=workers)
    assert [calls(r) for r in many] == expected
    groups = parse_groups(
        [("json_gemini", texts), ("json_openai", texts)], tools=TOOLS, workers=workers
    )
    assert [[calls(r) for r in g] for g in groups] == [expected, expected]
    assert [calls(r) for r in toolsift.parse_many(texts, "json_gemini", workers=workers)][2] == []


@settings(max_examples=150, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(TEXT)), max_size=6))
def test_streaming_with_tools_equals_the_one_shot_parse_for_every_chunking(
    cuts: list[int],
) -> None:
    bounds = [0, *sorted(cuts), len(TEXT)]
    stream = toolsift.StreamParser("json_gemini", tools=TOOLS)
    for a, b in itertools.pairwise(bounds):
        stream.feed(TEXT[a:b])
    stream.finish()
    result = stream.result()
    one_shot = toolsift.parse(TEXT, "json_gemini", tools=TOOLS)
    assert calls(result) == calls(one_shot) == [("list_files", {}), ("search", {})]
    assert result.content == one_shot.content
