"""What may follow a call's object inside a JSON block (`hermes`' `<tool_call>`): more
objects are calls of their own, other text before the end marker is the block's with an issue,
and neither that text nor the end marker ever reaches the content."""

from __future__ import annotations

import toolsift

A = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
B = '{"name": "get_tourist_attractions", "arguments": {"city": "London"}}'


def test_two_objects_in_one_block_are_two_calls() -> None:
    text = f"Sure. <tool_call>{A}, {B} </tool_call> Done."
    result = toolsift.parse(text, "hermes")
    assert [(c.name, c.arguments) for c in result.calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_tourist_attractions", {"city": "London"}),
    ]
    assert result.content == "Sure.  Done."
    assert result.issues == []
    first, second = (c.span for c in result.calls)
    assert first[1] == second[0] and text[second[0] : second[1]].startswith("{")


def test_text_before_the_end_marker_is_an_issue_not_content() -> None:
    result = toolsift.parse(f"<tool_call>{A}}}\n</tool_call>after", "hermes")
    assert [c.name for c in result.calls] == ["get_weather"]
    assert [i.kind for i in result.issues] == ["trailing_text"]
    assert result.content == "after"


def test_streamed_in_pieces_the_same() -> None:
    text = f"<tool_call>{A}\n{B}</tool_call> and <tool_call>{A} oops</tool_call>"
    whole = toolsift.parse(text, "hermes")
    parser = toolsift.StreamParser("hermes")
    for i in range(0, len(text), 3):
        parser.feed(text[i : i + 3])
    parser.finish()
    streamed = parser.result()
    assert [(c.name, c.arguments, c.span) for c in streamed.calls] == [
        (c.name, c.arguments, c.span) for c in whole.calls
    ]
    assert len(whole.calls) == 3
    assert streamed.content == whole.content == " and "
    assert [i.kind for i in streamed.issues] == [i.kind for i in whole.issues]


def test_a_fenced_object_in_the_block_is_the_call() -> None:
    # Small models fence the JSON inside <tool_call>; auto reads the fence as Hermes's too.
    text = f"Sure.\n<tool_call>\n```json\n{A}\n```\n</tool_call>\nDone."
    for syntax in ("hermes", "auto"):
        result = toolsift.parse(text, syntax)
        assert [(c.syntax, c.name) for c in result.calls] == [("hermes", "get_weather")]
        assert result.issues == []
        assert result.content == "Sure.\n\nDone."
