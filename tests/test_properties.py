"""Hypothesis properties of the public API."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.booleans(), st.booleans())
def test_valid_json_round_trips_unchanged(value: Any, pretty: bool, ascii_only: bool) -> None:
    text = json.dumps(value, indent=2 if pretty else None, ensure_ascii=ascii_only)
    repaired = toolsift.repair_json(text)
    assert repaired.text == text
    assert repaired.repairs == ()
    assert toolsift.lenient_loads(text) == json.loads(text)


# Strings that hold what the Python-literal probe looks for (`: True`, `[None`, `, False`).
_literal_lookalikes = st.lists(
    st.sampled_from([": True", ", None", "[False", "True", " ", "x", ",", ":", "["]), max_size=8
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        _literal_lookalikes,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(_literal_lookalikes, inner, max_size=4)
        ),
    )
)
def test_python_literal_lookalikes_in_strings_keep_valid_json_unchanged(value: Any) -> None:
    # The probe sends such documents to repair instead of orjson: a detour, never a change.
    for text in (json.dumps(value), json.dumps(value, indent=1)):
        assert toolsift.lenient_loads(text) == value
        assert toolsift.lenient_loads(text, precheck=False) == value
        assert toolsift.lenient_loads(text.encode()) == value


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}[]\"':,. \n\\aTtN1-#/*`“”")), max_size=60))
def test_repair_is_idempotent_and_output_is_json(text: str) -> None:
    try:
        first = toolsift.repair_json(text)
    except toolsift.JsonRepairError:
        return
    json.loads(first.text)
    second = toolsift.repair_json(first.text)
    assert second.repairs == ()
    assert second.text == first.text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_anything_undocumented(text: str) -> None:
    try:
        toolsift.lenient_loads(text)
    except toolsift.JsonRepairError:
        pass
    result = toolsift.parse(text)
    for call in result.calls:
        assert text[call.span[0] : call.span[1]] == call.raw


names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,12}", fullmatch=True)
arguments = st.dictionaries(st.text(max_size=8), json_values, max_size=4)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(names, arguments), min_size=1, max_size=4),
    st.text(alphabet=st.characters(blacklist_characters="{}[]\"'`T"), max_size=30),
)
def test_written_calls_are_read_back(calls: list[tuple[str, dict[str, Any]]], prose: str) -> None:
    text = prose.join(
        f"TOOL_CALL: {json.dumps({'tool_name': n, 'parameters': a})}\n" for n, a in calls
    )
    result = toolsift.parse(text)
    assert [(c.name, c.arguments) for c in result.calls] == [(n.strip(), a) for n, a in calls]
    assert result.issues == []


# Keys that name no call in any syntax that reads bare JSON (`tool_call_json`'s `tool_name`,
# `tool`, `name`; the bare-JSON shapes' `name`, `tool_calls`, `tools`, `functionCall`...).
_plain_keys = st.text(alphabet="abcdefghijkpqrsuvwxyz_", min_size=1, max_size=6)
_plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(alphabet="abc xyz.", max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_plain_keys, inner, max_size=3),
    max_leaves=8,
)
_prose_pieces = st.lists(
    st.one_of(
        st.dictionaries(_plain_keys, _plain_values, max_size=3).map(json.dumps),
        st.sampled_from(
            [
                "Here: ",
                "then ",
                "{ if (a) { g({k: i++}); } }",
                "{x: 1, y: [2, {z: 3}]}",
                "\n",
                "{",
                "}",
            ]
        ),
    ),
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(_prose_pieces, st.data())
def test_prose_objects_without_call_keys_are_content(
    pieces: list[str], data: st.DataObject
) -> None:
    """JSON objects and code in prose that name no call stay content, byte for byte, however
    the text is chunked (they are skipped unread, and the parsers that looked at them reused)."""
    text = "".join(pieces)
    syntax = data.draw(
        st.sampled_from(["tool_call_json", "json_openai", "json_default", "llama3_json"])
    )
    whole = toolsift.parse(text, syntax)
    assert whole.calls == [] and whole.issues == []
    assert whole.content == text
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    parser = toolsift.StreamParser(syntax)
    for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True):
        parser.feed(text[a:b])
    parser.finish()
    assert parser.result() == whole
