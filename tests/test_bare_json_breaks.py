"""A bare JSON call whose JSON breaks after its name showed is read whole: repaired into a
call (as a tagged syntax's JSON is) or one `not_json` issue, never leaving a fragment of itself
in the content, and never taking the calls or the prose after it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift

ARGS_KEY = {"llama3_json": "parameters", "json_openai": "arguments", "json_gemini": "args"}

# Breaks a model makes, each repairable, and the arguments the repair reads.
BREAKS: list[tuple[str, dict[str, object]]] = [
    ('{"q": "say "hi" now"}', {"q": 'say "hi" now'}),
    ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),
    ("{a: 1}", {"a": 1}),
    ("{'a': True, \"b\": x y}", {"a": True, "b": "x y"}),
]


@pytest.mark.parametrize("syntax", sorted(ARGS_KEY))
@pytest.mark.parametrize(("broken", "want"), BREAKS)
def test_a_broken_call_is_repaired_whole(syntax: str, broken: str, want: dict[str, object]) -> None:
    text = f'Sure. {{"name": "f", "{ARGS_KEY[syntax]}": {broken}}} Done.'
    result = toolsift.parse(text, syntax)
    assert [(c.name, c.arguments) for c in result.calls] == [("f", want)]
    assert result.calls[0].repairs
    assert result.content == "Sure.  Done."
    assert text[slice(*result.calls[0].span)] == text[6:-6]


def test_an_unrepairable_one_is_one_issue_and_no_content() -> None:
    # vLLM's llama3_json suite: the object never closes.
    text = '{"name": "invalidTool", "parameters": {invalid json}'
    result = toolsift.parse(text, "llama3_json")
    assert result.calls == []
    assert [(i.kind, i.span) for i in result.issues] == [("not_json", (0, len(text)))]
    assert result.content == ""


def test_a_key_position_bracket_ends_it_before_the_call_inside() -> None:
    # SGLang's suite: the broken object runs into a whole call.
    text = '{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}'
    result = toolsift.parse(text, "llama3_json")
    assert [(c.name, c.arguments) for c in result.calls] == [("get_weather", {})]
    assert [i.kind for i in result.issues] == ["not_json"]


_WORDS = st.text(alphabet="abc xyz.,", max_size=12).filter(lambda s: "{" not in s)


@settings(max_examples=120, deadline=None)
@given(
    syntax=st.sampled_from(sorted(ARGS_KEY)),
    n=st.integers(1, 4),
    broken=st.integers(0, 3),
    kind=st.integers(0, len(BREAKS) + 1),
    prose=st.lists(_WORDS, min_size=5, max_size=5),
    step=st.integers(1, 9),
)
def test_siblings_and_prose_survive_any_break_under_any_chunking(
    syntax: str, n: int, broken: int, kind: int, prose: list[str], step: int
) -> None:
    broken %= n
    key = ARGS_KEY[syntax]
    pieces, want = [], []
    for i in range(n):
        if i != broken:
            args = {"i": i}
            pieces.append(f'{{"name": "f{i}", "{key}": {json.dumps(args)}}}')
            want.append((f"f{i}", args))
        elif kind < len(BREAKS):
            pieces.append(f'{{"name": "f{i}", "{key}": {BREAKS[kind][0]}}}')
            want.append((f"f{i}", BREAKS[kind][1]))
        elif kind == len(BREAKS):
            # An odd quote: only the blank line after it ends the reading.
            pieces.append(f'{{"name": "f{i}", "{key}": {{"q": "it"s"}}}}\n')
        else:
            # Never closed: the blank line after it ends it.
            pieces.append(f'{{"name": "f{i}", "{key}": {{"a": 1}} oops')
    # Blank lines between calls, prose inside the paragraphs.
    text = "".join(f"{prose[i]}\n\n{p}" for i, p in enumerate(pieces)) + "\n\n" + prose[4]
    result = toolsift.parse(text, syntax)
    assert [(c.name, c.arguments) for c in result.calls] == want, text
    # No byte of a call, broken or not, is content: only the prose and the blank lines.
    for piece in pieces:
        assert piece.strip() not in result.content or not piece.strip(), text
    assert "{" not in result.content and '"name"' not in result.content, (text, result.content)
    assert len(result.issues) == (kind > len(BREAKS) - 1), (text, result.issues)
    stream = toolsift.StreamParser(syntax)
    for k in range(0, len(text), step):
        stream.feed(text[k : k + step])
    stream.finish()
    streamed = stream.result()
    assert [(c.name, c.arguments) for c in streamed.calls] == want
    assert streamed.content == result.content
    assert [(i.kind, i.span) for i in streamed.issues] == [(i.kind, i.span) for i in result.issues]
