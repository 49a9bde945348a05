"""Results built natively: a one-shot parse holds ``raw``, ``arguments_json`` and ``content``
unbuilt until they are read (see ``toolsift.model`` and ``_native``'s ``pylazy``), and
builds ``ToolCall``/``ParseResult`` through their slot descriptors (``_native``'s ``pyslots``).
Every way of reading a result must see what an eager build through ``__init__`` gave."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import subprocess
import sys
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolsift
from toolsift import _native, model
from toolsift.model import ParseResult, ToolCall

PROSE = "Voilà — the plan: ünïcode prose long enough to be deferred, with {braces} too. "
# Arguments JSON of 64 bytes or more is deferred (shorter is made a ``str`` at once).
Q = "café ☕ " * 8
ARGS_JSON = f'{{"q": "{Q}", "n": 3}}'
CALL = f'TOOL_CALL: {{"tool_name": "search", "parameters": {ARGS_JSON}}}'
REPAIRED = "TOOL_CALL: {'tool_name': 'search', 'parameters': {'q': 'naïve', 'n': [1, 2,],}}"


def test_fields_are_stored_deferred_and_read_as_str() -> None:
    result = toolsift.parse(PROSE + CALL + " " + PROSE)
    call = result.calls[0]
    raw = call.raw
    assert type(raw) is str and raw == CALL
    # The first read stored the string: later reads return that very object.
    assert call.raw is raw
    assert type(call.arguments_json) is str
    assert orjson.loads(call.arguments_json) == call.arguments == {"q": Q, "n": 3}
    assert type(result.content) is str and result.content == PROSE + " " + PROSE
    assert result.content is result.content


EMPTY = object()


def _stored(obj: ToolCall | ParseResult) -> dict[str, object]:
    """What ``obj``'s slots hold as stored, past the lazy fields' building (see
    ``toolsift.model``): read through the member descriptors the native builder writes;
    ``EMPTY`` for a slot left empty."""
    cls, slots = model._NATIVE_SLOTS[type(obj).__name__]
    names = [f.name for f in dataclasses.fields(cls)]

    def read(slot: Any) -> object:
        try:
            return slot.__get__(obj, cls)
        except AttributeError:
            return EMPTY

    return {name: read(slot) for name, slot in zip(names, slots, strict=True)}


def _unbuilt(obj: ToolCall | ParseResult) -> list[str]:
    """The fields of ``obj`` whose first read will build their value: empty slots of a call
    (its ``Unbuilt`` base holds their values), deferred texts and unbuilt lists."""
    return [
        name
        for name, value in _stored(obj).items()
        if value is EMPTY or isinstance(value, _native.DeferredText) or (type(value) is object)
    ]


def test_only_the_first_read_builds_the_value() -> None:
    result = toolsift.parse(PROSE + CALL + PROSE)
    call = result.calls[0]
    assert isinstance(call, _native.Unbuilt)
    stored = _stored(call)
    # The three fields are left empty until each is read: their values wait in the call.
    assert stored["span"] is stored["raw"] is stored["arguments_json"] is EMPTY
    assert _unbuilt(call) == ["span", "raw", "arguments_json"]
    json = call.arguments_json
    assert _unbuilt(call) == ["span", "raw"]
    assert _stored(call)["arguments_json"] is json
    assert call.span == (len(PROSE), len(PROSE) + len(CALL))
    assert _unbuilt(call) == ["raw"]
    assert call.raw == CALL
    assert _unbuilt(call) == []
    assert _unbuilt(result) == ["content", "issues", "strategies"]
    assert _stored(result)["content"] is EMPTY
    content = result.content
    assert content == PROSE + PROSE and _stored(result)["content"] is content
    assert result.issues == [] and result.issues is result.issues
    assert result.strategies == []
    assert _unbuilt(result) == []


def test_a_call_made_in_python_has_every_field_stored() -> None:
    call = ToolCall(name="f", arguments={})
    assert isinstance(call, _native.Unbuilt)
    assert _unbuilt(call) == []
    assert (call.span, call.raw, call.arguments_json) == ((0, 0), "", "")
    assert _unbuilt(ParseResult()) == []


def test_a_result_built_in_python_stores_deferred_content() -> None:
    # With per-text options the result is built in Python from the engine's tuple: its
    # content is a ``DeferredText`` object until read.
    result = toolsift.parse(PROSE + CALL + PROSE, id_prefix="x")
    content = _stored(result)["content"]
    assert isinstance(content, _native.DeferredText)
    assert "DeferredText(" in repr(content)
    assert str(content) == PROSE + PROSE == result.content
    assert type(result.content) is str


def test_writing_or_deleting_a_pending_field_forgets_only_its_value() -> None:
    call = toolsift.parse(PROSE + CALL).calls[0]
    call.span = (1, 2)
    assert call.span == (1, 2)
    assert _unbuilt(call) == ["raw", "arguments_json"]
    del call.arguments_json
    with pytest.raises(AttributeError):
        _ = call.arguments_json
    with pytest.raises(AttributeError):
        del call.arguments_json
    assert call.raw == CALL
    del call.raw
    with pytest.raises(AttributeError):
        _ = call.raw
    result = toolsift.parse(PROSE + CALL + PROSE)
    result.content = "mine"
    assert result.content == "mine"
    del result.content
    with pytest.raises(AttributeError):
        _ = result.content


# From protocol 2: with 0 and 1, ``copyreg`` refuses any slots class without ``__getstate__``.
@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_a_call_with_pending_fields_pickles_with_every_protocol(protocol: int) -> None:
    def fresh() -> ParseResult:
        return toolsift.parse(PROSE + CALL + PROSE)

    copied = pickle.loads(pickle.dumps(fresh(), protocol))
    assert copied == fresh()
    assert _unbuilt(copied) == _unbuilt(copied.calls[0]) == []
    assert copied.calls[0].raw == CALL
    assert copied.content == PROSE + PROSE


def test_a_call_releases_its_source_text() -> None:
    # A call's pending ``raw`` is a slice of the caller's text, holding a reference to it:
    # freeing the call, built or not, gives it back.
    text = PROSE + CALL + "".join(map(str, range(50)))
    before = sys.getrefcount(text)
    result = toolsift.parse(text)
    assert sys.getrefcount(text) > before
    del result
    assert sys.getrefcount(text) == before
    calls = toolsift.parse(text).calls
    assert calls[0].raw == CALL
    del calls
    assert sys.getrefcount(text) == before


def test_a_result_with_issues_stores_them_built() -> None:
    result = toolsift.parse(PROSE + "TOOL_CALL: {oops" + PROSE)
    assert "issues" not in _unbuilt(result)
    assert [i.kind for i in _stored(result)["issues"]] == [i.kind for i in result.issues]  # type: ignore[attr-defined]
    assert result.issues


def test_lazy_fields_read_on_the_class_and_delete() -> None:
    assert isinstance(ToolCall.span, _native.LazyField)
    call = toolsift.parse(PROSE + CALL).calls[0]
    del call.raw
    with pytest.raises(AttributeError):
        _ = call.raw
    call.raw = "mine"
    assert call.raw == "mine"
    with pytest.raises(TypeError):
        ToolCall.span.__get__(object(), ToolCall)
    with pytest.raises(ValueError, match="no lazy field"):
        _native.LazyField(model._NATIVE_SLOTS["ToolCall"][1][0], "name")
    with pytest.raises(TypeError, match="member descriptor"):
        _native.LazyField(property(), "raw")


def test_a_stored_value_is_never_rebuilt() -> None:
    # Only the parser's own unbuilt objects are built: what a caller stores comes back as it was.
    deferred = _stored(toolsift.parse(PROSE + CALL + PROSE, id_prefix="x"))["content"]
    assert isinstance(deferred, _native.DeferredText)
    call = ToolCall(name="f", arguments={})
    call.arguments_json = "x"
    call.span = deferred  # type: ignore[assignment]
    assert call.span is deferred
    marker = _stored(toolsift.parse("x"))["strategies"]
    call.raw = marker  # type: ignore[assignment]
    assert call.raw is marker


def test_repaired_arguments_json_is_the_repaired_text() -> None:
    call = toolsift.parse(PROSE + REPAIRED).calls[0]
    assert call.repairs
    assert orjson.loads(call.arguments_json) == {"q": "naïve", "n": [1, 2]}
    assert call.raw == REPAIRED


def test_equality_repr_copy_pickle_and_replace_see_strings() -> None:
    def fresh() -> ParseResult:
        return toolsift.parse(PROSE + CALL + PROSE)

    a, b = fresh(), fresh()
    assert a == b
    eager = ParseResult(
        [
            ToolCall(
                name="search",
                arguments={"q": Q, "n": 3},
                id="call_0",
                syntax="tool_call_json",
                span=a.calls[0].span,
                raw=CALL,
                repairs=(),
                arguments_json=ARGS_JSON,
            )
        ],
        PROSE + PROSE,
        [],
    )
    assert fresh() == eager
    assert "DeferredText" not in repr(fresh())
    assert repr(fresh()) == repr(eager)
    assert pickle.loads(pickle.dumps(fresh())) == eager
    assert copy.deepcopy(fresh()) == eager
    assert copy.copy(fresh().calls[0]) == eager.calls[0]
    assert dataclasses.asdict(fresh()) == dataclasses.asdict(eager)
    assert dataclasses.replace(fresh().calls[0], id="x").raw == CALL


def test_assigning_a_field_replaces_the_deferred_text() -> None:
    result = toolsift.parse(PROSE + CALL + PROSE)
    result.content = "mine"
    result.calls[0].raw = "raw"
    assert (result.content, result.calls[0].raw) == ("mine", "raw")


def test_batch_results_read_the_same() -> None:
    texts = [PROSE + CALL + PROSE, REPAIRED + PROSE, PROSE]
    assert toolsift.parse_many(texts, workers=2) == [toolsift.parse(t) for t in texts]
    for text, result in zip(texts, toolsift.parse_many(texts, workers=1), strict=True):
        for call in result.calls:
            assert call.raw == text[call.span[0] : call.span[1]]
            assert type(call.raw) is str


_pieces = st.lists(
    st.sampled_from([PROSE, CALL, REPAIRED, "x", "é", "😀", "\n", "TOOL_CALL:", "{", "}"]),
    max_size=12,
)


@settings(deadline=None)
@given(_pieces, st.sampled_from(["tool_call_json", "auto"]))
def test_read_fields_equal_the_streamed_ones(pieces: list[str], syntax: str) -> None:
    # The stream builds every string at once: the deferred ones must read the same.
    text = "".join(pieces)
    result = toolsift.parse(text, syntax)
    parser = toolsift.StreamParser(syntax)
    parser.feed(text)
    parser.finish()
    streamed = parser.result()
    assert type(result.content) is str and result.content == streamed.content
    assert len(result.calls) == len(streamed.calls)
    for call, other in zip(result.calls, streamed.calls, strict=True):
        assert type(call.raw) is str and call.raw == other.raw == text[slice(*call.span)]
        assert type(call.arguments_json) is str and call.arguments_json == other.arguments_json
    assert result == streamed


def test_natively_built_results_are_whole_instances() -> None:
    # ``parse`` builds these without ``__init__`` (see ``_native``'s ``pyslots``).
    a, b = toolsift.parse(PROSE + CALL), toolsift.parse(PROSE + CALL)
    assert type(a) is ParseResult and type(a.calls[0]) is ToolCall
    assert a.strategies == [] and a.strategies is not b.strategies
    a.strategies.append("x")  # type: ignore[arg-type]
    assert b.strategies == []
    assert [f.name for f in dataclasses.fields(a.calls[0])] == [
        "name",
        "arguments",
        "id",
        "syntax",
        "span",
        "raw",
        "repairs",
        "arguments_json",
    ]
    assert (a.calls[0].id, a.calls[0].syntax, a.calls[0].repairs) == (
        "call_0",
        "tool_call_json",
        (),
    )


def test_lone_surrogates_take_the_python_path() -> None:
    text = PROSE + "\udc80" + CALL
    result = toolsift.parse(text)
    assert result.calls[0].raw == CALL == text[slice(*result.calls[0].span)]
    # As before: raw is the caller's text, content the engine's (the surrogate read as U+FFFD).
    assert result.content == PROSE + "\ufffd"


def test_slot_descriptors_that_do_not_match_the_class_are_refused() -> None:
    # The native builder stores through these descriptors with no further check of its own,
    # so a table that names anything but the class's own member descriptors must be refused.
    script = """
import toolsift.model as m
m._NATIVE_SLOTS["ToolCall"] = (m.ToolCall, (m.ParseResult.__dict__["calls"],) * 8)
import toolsift
try:
    toolsift.parse('TOOL_CALL: {"name": "f", "arguments": {}}')
except TypeError as e:
    print("refused:", e)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("refused:") and "member descriptors" in out


def test_a_call_kept_alone_does_not_hold_a_long_text() -> None:
    # A deferred slice holds its whole source until read: a short call of a long text copies
    # its own text instead, so keeping the calls of a 1 MB reply does not keep the 1 MB.
    text = PROSE * 13_000 + CALL + PROSE
    before = sys.getrefcount(text)
    calls = toolsift.parse(text).calls
    assert sys.getrefcount(text) == before
    assert calls[0].raw == CALL
    short = PROSE + CALL + PROSE
    before = sys.getrefcount(short)
    calls = toolsift.parse(short).calls
    assert sys.getrefcount(short) == before + 1  # its raw is a slice of it, not yet read
    assert calls[0].raw == CALL
    # The slice is among the call's pending values, dropped once its last field is read.
    assert sys.getrefcount(short) == before + 1
    assert calls[0].span == (len(PROSE), len(PROSE) + len(CALL))
    assert orjson.loads(calls[0].arguments_json) == calls[0].arguments
    assert sys.getrefcount(short) == before


def test_values_a_caller_stores_come_back_as_stored() -> None:
    # Only the parser's deferred texts are turned into strings on read.
    class Tagged(str):
        pass

    call = ToolCall(name="f", arguments={}, raw=None)  # type: ignore[arg-type]
    assert call.raw is None
    tagged = Tagged("x")
    call.arguments_json = tagged
    assert call.arguments_json is tagged
    result = ParseResult(content=tagged)
    assert result.content is tagged


def fresh(text: str) -> str:
    """A new `str` with the same text and no UTF-8 cached in it, as a reply just received
    (or read from disk) is."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")


def test_a_fresh_wide_text_is_parsed_without_leaving_a_utf8_copy_in_it() -> None:
    """`parse` encodes a non-ASCII text that has no UTF-8 yet itself (every code point width),
    and the caller's `str` stays as small as it was: CPython counts a cached UTF-8 copy in a
    non-ASCII `str`'s size."""
    for word in ["café", "東京", "emoji 😀", "plain"]:
        text = fresh(PROSE + word + " " + CALL.replace("search", word) + " " + word)
        size = sys.getsizeof(text)
        result = toolsift.parse(text)
        assert sys.getsizeof(text) == size
        assert result.calls[0].name == word
        assert result.calls[0].raw == CALL.replace("search", word)
        assert result.content == PROSE + word + "  " + word
        assert result.calls[0].arguments == {"q": Q, "n": 3}
        assert result == toolsift.parse(text)  # again, and equal
    # Lone surrogates still take the lenient path: read as U+FFFD.
    text = fresh("x\ud800 " + CALL)
    assert toolsift.parse(text).content == "x\ufffd "
    assert toolsift.parse(text).calls[0].arguments == {"q": Q, "n": 3}


def test_str_subclasses_and_every_width_parse_alike_in_one_shot_and_batch() -> None:
    """A `str` subclass keeps its code points elsewhere than a plain `str` (CPython does not
    lay it out compactly), so the parser borrows CPython's UTF-8 for it instead."""

    class Text(str):
        pass

    texts = [fresh(PROSE + w + " " + CALL) for w in ["café", "東京", "😀", "plain", "x\ud800"]]
    texts += [Text(t) for t in texts]
    expected = [toolsift.parse(str(t)) for t in texts]
    assert [toolsift.parse(t) for t in texts] == expected
    assert toolsift.parse_many(texts, workers=2) == expected


def test_a_huge_wide_text_parses_and_the_parser_goes_on() -> None:
    """Past a megabyte the parser's UTF-8 buffer is dropped after the parse; the next parse
    (same cached parser) starts a new one."""
    text = fresh("é" * 2_000_000 + " " + CALL)
    result = toolsift.parse(text)
    assert result.calls[0].arguments == {"q": Q, "n": 3}
    assert result.content == "é" * 2_000_000 + " "
    assert toolsift.parse(fresh("日本 " + CALL)).calls[0].raw == CALL


_bodies = st.text(alphabet=st.sampled_from(list('ab "\\\n\t\x01é😀{}<>/')), max_size=20)


@settings(deadline=None)
@given(st.lists(_bodies, min_size=1, max_size=3), st.sampled_from(["sentinel", "xml_tool"]))
def test_string_arguments_json_written_on_read_equals_the_streamed_text(
    bodies: list[str], syntax: str
) -> None:
    # A one-shot parse leaves the JSON of all-string arguments unwritten; read, it must be
    # the text the stream wrote, and decode to the arguments.
    if syntax == "sentinel":
        parts = [
            f'[[SEG_START {{"type": "write_file", "path": "/p{i}"}}]]{b}[[SEG_END]]'
            for i, b in enumerate(bodies)
        ]
    else:
        parts = [
            f'<write_file path="/p{i}">{b.replace("<", "")}</write_file>'
            for i, b in enumerate(bodies)
        ]
    text = "x ".join(parts)
    parser = toolsift.StreamParser(syntax)
    parser.feed(text)
    parser.finish()
    streamed = parser.result()
    for result in (toolsift.parse(text, syntax), toolsift.parse_many([text], syntax, workers=1)[0]):
        assert len(result.calls) == len(streamed.calls) == len(bodies)
        for call, other in zip(result.calls, streamed.calls, strict=True):
            assert call.arguments_json == other.arguments_json
            assert orjson.loads(call.arguments_json) == call.arguments == other.arguments
        assert result == streamed


_arg_values = st.one_of(
    _bodies,
    st.integers(-5, 5),
    st.none(),
    st.lists(st.integers(0, 3), max_size=2),
)


@settings(deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["path", "content", "k", "é"]), _arg_values), max_size=4),
    st.booleans(),
)
def test_tool_header_arguments_equal_their_json_however_they_are_read(
    members: list[tuple[str, object]], ascii_only: bool
) -> None:
    # A one-shot parse builds a `tool` header's all-string arguments from decoded pairs,
    # not from their JSON: the dict must be what the JSON loads to (a repeated key: its
    # last value), `arguments_json` the model's own text, and both as a stream reads them.
    args = (
        "{"
        + ", ".join(
            f"{json.dumps(k, ensure_ascii=ascii_only)}: {json.dumps(v, ensure_ascii=ascii_only)}"
            for k, v in members
        )
        + "}"
    )
    text = f'Go.[[SEG_START {{"type": "tool", "tool_name": "w", "arguments": {args}}}]][[SEG_END]]'
    parser = toolsift.StreamParser("sentinel")
    parser.feed(text)
    parser.finish()
    streamed = parser.result()
    for result in (toolsift.parse(text, "sentinel"), toolsift.parse_many([text], "sentinel")[0]):
        (call,) = result.calls
        assert call.arguments == json.loads(args) == streamed.calls[0].arguments
        assert call.arguments_json == args == streamed.calls[0].arguments_json
        assert result == streamed


_every_width = st.one_of(
    st.sampled_from(list("abc xyz\n\t{}[]")),
    st.characters(min_codepoint=0x80, max_codepoint=0xFF),
    st.characters(min_codepoint=0x100, max_codepoint=0xFFFF, exclude_categories=["Cs"]),
    st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF),
)
_long_bodies = st.text(
    alphabet=_every_width,
    min_size=32,
    max_size=300,
).filter(lambda s: "[[SEG_END]]" not in s)


@settings(deadline=None)
@given(_long_bodies)
def test_long_argument_strings_are_the_body_at_its_own_width(body: str) -> None:
    # Long argument strings are built at the width they need (``_native``'s ``pystr``): each
    # must equal, hash and look up as the body itself, which CPython only does for a `str`
    # stored at its narrowest width.
    text = f'Prose.[[SEG_START {{"type": "write_file", "path": "/p"}}]]{body}[[SEG_END]]'
    for result in (toolsift.parse(text, "sentinel"), toolsift.parse_many([text], "sentinel")[0]):
        content = result.calls[0].arguments["content"]
        assert content == body
        assert hash(content) == hash(body)
        assert {body: 1}[content] == 1
        assert content.encode("utf-8") == body.encode("utf-8")


_short_values = st.text(alphabet=_every_width, min_size=1, max_size=10).filter(
    lambda s: "[[SEG_END]]" not in s
)


@settings(deadline=None)
@given(_short_values)
def test_short_argument_strings_are_stored_at_their_own_width(value: str) -> None:
    # Short strings that are not ASCII are built by ``_native``'s ``pystr``, not by CPython's
    # decoder: each must equal, hash and look up as the value itself, in a header's JSON
    # arguments and as a file body, as CPython only does for a `str` at its narrowest width.
    args = json.dumps({"q": value}, ensure_ascii=False)
    header = f'[[SEG_START {{"type": "tool", "tool_name": "f", "arguments": {args}}}]][[SEG_END]]'
    body = f'[[SEG_START {{"type": "write_file", "path": "/p"}}]]{value}[[SEG_END]]'
    for text, key in ((header, "q"), (body, "content")):
        for result in (
            toolsift.parse(text, "sentinel"),
            toolsift.parse_many([text], "sentinel")[0],
        ):
            got = result.calls[0].arguments[key]
            assert got == value
            assert hash(got) == hash(value)
            assert {value: 1}[got] == 1


@settings(deadline=None)
@given(
    _long_bodies,
    st.sampled_from(["", "é", "日本", "😀"]),
    st.sampled_from(["sentinel", "xml_tool"]),
    st.sampled_from(["", "x", "&amp;", "\x00"]),
)
def test_long_values_sliced_from_a_wider_text_are_stored_at_their_own_width(
    body: str, elsewhere: str, syntax: str, inside: str
) -> None:
    # A long argument string that lies verbatim in the caller's text is copied from it
    # (``_native``'s ``pyslice``), narrowed to its own width when the text is wider (a
    # character `elsewhere` in the reply); one that does not (an entity decoded, a NUL
    # replaced) is decoded. Either way it equals, hashes and encodes as the value read.
    value = body + inside
    if syntax == "sentinel":
        call = f'[[SEG_START {{"type": "write_file", "path": "/p"}}]]{value}[[SEG_END]]'
    else:
        value = value.replace("<", "")
        call = f'<write_file path="/p">{value}</write_file>'
    text = f"Prose {elsewhere}. {call} and after {elsewhere}"
    parser = toolsift.StreamParser(syntax)
    parser.feed(text)
    parser.finish()
    want = parser.result().calls[0].arguments["content"]
    for result in (toolsift.parse(text, syntax), toolsift.parse_many([text], syntax)[0]):
        content = result.calls[0].arguments["content"]
        assert content == want
        assert hash(content) == hash(want)
        assert {want: 1}[content] == 1
        assert content.encode("utf-8", "surrogatepass") == want.encode("utf-8", "surrogatepass")


def test_names_and_keys_repeat_as_shared_strings_past_the_recent_ones() -> None:
    # Tool names and string-argument keys come from a table (and a few kept per batch): the
    # same text is the same object, and cycling through more names than are kept still reads
    # every one right.
    names = [f"tool_{k}" for k in range(20)]
    texts = [
        "".join(
            f'<tool name="{names[(i + j) % 20]}"><arg name="key_{j}">v{i}</arg></tool>'
            for j in range(12)
        )
        for i in range(30)
    ]
    results = toolsift.parse_many(texts, "xml_tool", workers=1)
    for i, result in enumerate(results):
        assert [c.name for c in result.calls] == [names[(i + j) % 20] for j in range(12)]
        assert [c.arguments for c in result.calls] == [{f"key_{j}": f"v{i}"} for j in range(12)]
    a, b = results[0].calls[3], results[29].calls[3]
    assert next(iter(a.arguments)) is next(iter(b.arguments))
    same = [c for r in results for c in r.calls if c.name == "tool_5"]
    assert len(same) > 1 and all(c.name is same[0].name for c in same)


@settings(deadline=None)
@given(_pieces)
def test_batch_content_reads_as_the_one_shot_parse(pieces: list[str]) -> None:
    # A batch leaves content that is several runs of the text as those runs, joined when read.
    text = "".join(pieces)
    [batch] = toolsift.parse_many([text], workers=1)
    assert batch.content == toolsift.parse(text).content
    assert type(batch.content) is str


def test_batch_content_of_a_text_mostly_calls_is_joined_at_once() -> None:
    # Content far shorter than its text is not left holding the text (see ``may_hold``).
    for wide in ("", "é", "😀"):
        text = "x" * 70 + wide + CALL * 200 + "y" * 70 + wide
        [batch] = toolsift.parse_many([text], workers=1)
        assert "content" not in _unbuilt(batch)
        assert batch.content == "x" * 70 + wide + "y" * 70 + wide
