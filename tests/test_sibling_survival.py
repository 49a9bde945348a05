"""One malformed call never drops its well-formed siblings (SYNTAXES.md C), also when the
malformed call's JSON string never closes, so that the end tokens after it read as string
content: the calls after it survive, however the text is chunked."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift

Render = Callable[[int, str, str], str]


def _kimi(i: int, name: str, args: str) -> str:
    head = f"<|tool_call_begin|>functions.{name}:{i}"
    return f"{head}<|tool_call_argument_begin|>{args}<|tool_call_end|>"


def _deepseek(i: int, name: str, args: str) -> str:
    return f"<｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{args}<｜tool▁call▁end｜>"


def _harmony(i: int, name: str, args: str) -> str:
    return (
        f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
        f"<|message|>{args}<|call|>"
    )


def _element(i: int, name: str, args: str) -> str:
    return ("" if i == 0 else ", ") + f'{{"name": "{name}", "arguments": {args}}}'


SYNTAXES: dict[str, tuple[str, Render, str]] = {
    # syntax: (text before the calls, one call, text after them)
    "kimi_k2": ("<|tool_calls_section_begin|>", _kimi, "<|tool_calls_section_end|>"),
    "deepseek_v31": ("<｜tool▁calls▁begin｜>", _deepseek, "<｜tool▁calls▁end｜>"),
    "gpt_oss": ("", _harmony, ""),
    "mistral": ("", lambda i, n, a: f"[TOOL_CALLS]{n}[ARGS]{a}", ""),
    "hermes": (
        "",
        lambda i, n, a: f'<tool_call>\n{{"name": "{n}", "arguments": {a}}}\n</tool_call>\n',
        "",
    ),
    "tool_call_json": (
        "",
        lambda i, n, a: f'TOOL_CALL: {{"tool_name": "{n}", "parameters": {a}}}\n',
        "",
    ),
    # Lists of calls: a broken element ends before the call its string ran into.
    "granite": ("<|tool_call|>[", lambda i, n, a: _element(i, n, a), "]"),
    "jamba": ("<tool_calls>[", lambda i, n, a: _element(i, n, a), "]</tool_calls>"),
    "sentinel": (
        "",
        lambda i, n, a: (
            f'[[SEG_START {{"type": "tool", "tool_name": "{n}", "arguments": {a}}}]][[SEG_END]]\n'
        ),
        "",
    ),
}

# Later calls' values, any text: with the broken string open, every later quote flips what is
# string and what is not, and an escaped quote (`"\\""`) or a bracket in a value can balance the
# brackets before the stream ends. The special-token syntaxes then cut the broken call at the
# end token its arguments ran over (`json_read::overran`), Hermes at its `</tool_call>`,
# Mistral and `tool_call_json` at the next call's marker; the restart at the end of the
# stream covers a string still open there. So every syntax here takes any later values.
TOKEN_SYNTAXES = {
    "kimi_k2",
    "deepseek_v31",
    "gpt_oss",
    "mistral",
    "hermes",
    "tool_call_json",
    "sentinel",
    "granite",
    "jamba",
}


def _arguments(plain: bool) -> st.SearchStrategy[dict[str, object]]:
    forbidden = "\"\\'{}[]" if plain else ""
    text = st.text(
        st.characters(codec="utf-8", exclude_categories=["Cs"], exclude_characters=forbidden),
        max_size=8,
    )
    values = st.one_of(st.integers(-1000, 1000), text, st.booleans())
    keys = st.sampled_from(["city", "q", "n", "path"])
    return st.dictionaries(keys, values, max_size=3)


@settings(max_examples=80, deadline=None)
@given(
    syntax=st.sampled_from(sorted(SYNTAXES)),
    data=st.data(),
    broken=st.integers(0, 3),
    step=st.integers(1, 9),
)
def test_calls_after_a_string_that_never_closes_survive(
    syntax: str, data: st.DataObject, broken: int, step: int
) -> None:
    plain = syntax not in TOKEN_SYNTAXES
    calls = data.draw(st.lists(_arguments(plain), min_size=1, max_size=4))
    broken %= len(calls)
    before, render, after = SYNTAXES[syntax]
    parts = []
    for i, args in enumerate(calls):
        text = json.dumps(args, ensure_ascii=False)
        if i == broken:
            text = '{"x": "never closed'  # no closing quote: the end tokens become string text
        parts.append(render(i, f"f{i}", text))
    text = before + "".join(parts) + after
    result = toolsift.parse(text, syntax)
    got = {c.name: c.arguments for c in result.calls}
    # Every call after the broken one is read, with its own arguments.
    for i in range(broken + 1, len(calls)):
        assert got.get(f"f{i}") == calls[i], (syntax, text, result.calls, result.issues)
    # The broken call is an issue, or (tool_call_json's lenient reading) a repaired call
    # holding only its own text.
    if f"f{broken}" in got:
        value = str(got[f"f{broken}"].get("x"))
        assert syntax == "tool_call_json" and value.startswith("never closed"), value
        assert "TOOL_CALL" not in value and "tool_name" not in value, value
    elif syntax == "sentinel":
        # SYNTAXES.md: an invalid header turns its marker into text; one the stream ends in
        # is an `unterminated` issue.
        assert result.issues or f'"tool_name": "f{broken}"' in result.content
    else:
        assert result.issues
    # The same however the text arrives.
    stream = toolsift.StreamParser(syntax)
    for k in range(0, len(text), step):
        stream.feed(text[k : k + step])
    stream.finish()
    streamed = stream.result()
    assert [(c.name, c.arguments) for c in streamed.calls] == [
        (c.name, c.arguments) for c in result.calls
    ]
    assert streamed.content == result.content
