"""``toolsift.parse`` is a builtin that answers a call with the same syntax and options as the
thread's previous one by itself, and hands every other call to ``toolsift.parsing._parse``.
Whatever it answers must be what ``_parse`` answers, whichever way the arguments are given."""

from __future__ import annotations

import inspect
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift import parsing

CALL = (
    'TOOL_CALL: {"tool": "f", "params": {"n": 1}} and ACT: {"tool": "g"} '
    '<tool_call>{"name": "h", "arguments": {}}</tool_call>'
)


def _summary(result: toolsift.ParseResult) -> tuple[Any, ...]:
    calls = tuple((c.id, c.name, c.arguments, c.syntax, c.span, c.raw) for c in result.calls)
    issues = tuple((i.kind, i.span) for i in result.issues)
    return calls, result.content, issues


def test_parse_is_documented_where_it_is_defined() -> None:
    assert parsing.parse is toolsift.parse
    assert toolsift.parse.__module__ == "toolsift.parsing"
    assert str(inspect.signature(toolsift.parse)) == "(text, syntax=None, **options)"
    assert "Extracts the tool calls" in (toolsift.parse.__doc__ or "")


def test_changed_option_values_are_not_served_the_previous_parser() -> None:
    expected = {
        m: _summary(parsing._parse(CALL, "tool_call_json", marker=m)) for m in ("TOOL_CALL", "ACT")
    }
    assert expected["TOOL_CALL"] != expected["ACT"]
    # The same call site, so the same keyword-name tuple, with other values each time.
    for marker in ["TOOL_CALL", "ACT", "TOOL_CALL", "".join(["A", "CT"])]:
        got = _summary(toolsift.parse(CALL, "tool_call_json", marker=marker))
        assert got == expected[marker]


def test_equal_values_that_are_other_objects_still_match() -> None:
    first = toolsift.parse(CALL, "tool_call_json", max_payload_chars=8000)
    big = int("8" + "000")  # equal to 8000, another object
    assert _summary(toolsift.parse(CALL, "tool_call_json", max_payload_chars=big)) == _summary(
        first
    )


def test_syntax_by_position_by_keyword_or_omitted() -> None:
    hermes = [c.name for c in toolsift.parse(CALL, "hermes").calls]
    assert hermes == ["h"]
    assert [c.name for c in toolsift.parse(CALL, syntax="hermes").calls] == hermes
    assert [c.name for c in toolsift.parse(CALL).calls] == ["f"]
    assert [c.name for c in toolsift.parse(CALL, None).calls] == ["f"]
    assert [c.name for c in toolsift.parse(CALL, syntax=None).calls] == ["f"]
    assert [c.name for c in toolsift.parse(CALL, ["hermes", "tool_call_json"]).calls] == [
        "f",
        "h",
    ]


def test_the_environment_is_read_on_every_call_without_a_syntax(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TOOLSIFT_SYNTAX", raising=False)
    assert [c.name for c in toolsift.parse(CALL).calls] == ["f"]
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "hermes")
    assert [c.name for c in toolsift.parse(CALL).calls] == ["h"]
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "  ")
    assert [c.name for c in toolsift.parse(CALL).calls] == ["f"]
    # A syntax given by the caller wins over the environment, as before.
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "hermes")
    assert [c.name for c in toolsift.parse(CALL, "tool_call_json").calls] == ["f"]


def test_lone_surrogates_keep_the_callers_raw_text() -> None:
    text = 'TOOL_CALL: {"tool": "f", "params": {"s": "\udc80"}}'
    for _ in range(2):  # the second call takes the kept parser
        (call,) = toolsift.parse(text, "tool_call_json").calls
        assert call.raw == text
        assert call.arguments == {"s": "\ufffd"}


def test_bad_calls_raise_as_the_python_implementation_does() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError):
        toolsift.parse(CALL, "no_such_syntax")
    with pytest.raises(TypeError):
        toolsift.parse()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        toolsift.parse(CALL, "tool_call_json", "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no_such_option"):
        toolsift.parse(CALL, "tool_call_json", no_such_option=1)


def test_non_str_texts_go_to_the_python_implementation() -> None:
    response: dict[str, Any] = {"choices": [{"message": {"tool_calls": []}}]}
    assert toolsift.parse(response, "api_tool_call").calls == []


class _Reentrant:
    """An option value whose ``==`` parses, and may raise."""

    def __init__(self, raise_now: bool = False) -> None:
        self.raise_now = raise_now

    def __eq__(self, other: object) -> bool:
        toolsift.parse(CALL, "hermes")
        if self.raise_now:
            raise RuntimeError("eq failed")
        return False

    def __hash__(self) -> int:
        return 7


def test_option_values_whose_equality_parses_or_raises() -> None:
    # Comparing such a value with the kept call's runs its code, inside the builtin.
    with pytest.raises(TypeError, match="weird"):
        toolsift.parse(CALL, "tool_call_json", id_prefix="x_", weird=_Reentrant())
    toolsift.parse(CALL, "tool_call_json", first_only=_Reentrant())
    toolsift.parse(CALL, "tool_call_json", first_only=_Reentrant())
    # The kept call's value is compared first: its error reaches the caller.
    toolsift.parse(CALL, "tool_call_json", first_only=_Reentrant(raise_now=True))
    with pytest.raises(RuntimeError, match="eq failed"):
        toolsift.parse(CALL, "tool_call_json", first_only=_Reentrant())
    assert [c.name for c in toolsift.parse(CALL, "tool_call_json").calls] == ["f"]


def test_each_thread_keeps_its_own_previous_call() -> None:
    expected = {
        m: _summary(parsing._parse(CALL, "tool_call_json", marker=m)) for m in ("TOOL_CALL", "ACT")
    }
    failures: list[str] = []

    def work(marker: str) -> None:
        for _ in range(300):
            got = _summary(toolsift.parse(CALL, "tool_call_json", marker=marker))
            if got != expected[marker]:
                failures.append(marker)

    threads = [threading.Thread(target=work, args=(m,)) for m in ("TOOL_CALL", "ACT") * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


_SYNTAX = st.sampled_from([None, "tool_call_json", "hermes", "auto", ["hermes", "tool_call_json"]])
_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "marker": st.sampled_from(["TOOL_CALL", "ACT"]),
        "first_only": st.booleans(),
        "id_prefix": st.sampled_from(["call_", "t"]),
        "max_payload_chars": st.sampled_from([0, 10, 8000]),
    },
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(_SYNTAX, st.booleans(), _OPTIONS, st.sampled_from([CALL, "plain", CALL * 2])),
        min_size=1,
        max_size=6,
    )
)
def test_any_sequence_of_calls_gets_what_the_python_implementation_gives(
    calls: list[tuple[Any, bool, dict[str, Any], str]],
) -> None:
    for syntax, by_keyword, options, text in calls:
        if syntax != "tool_call_json" and syntax is not None:
            options = {k: v for k, v in options.items() if k in ("first_only", "id_prefix")}
        expected = _summary(parsing._parse(text, syntax, **options))
        if by_keyword:
            got = toolsift.parse(text, syntax=syntax, **options)
        else:
            got = toolsift.parse(text, syntax, **options)
        assert _summary(got) == expected
