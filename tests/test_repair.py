"""Lenient JSON: one test per repair kind, data that must not change, and errors."""

from __future__ import annotations

import json

import pytest

import toolsift
from toolsift import _native, lenient_loads, repair_json

CASES = {
    "single quotes": ("{'a': 'b'}", {"a": "b"}),
    "apostrophe inside single quotes": ("{'q': 'don't stop'}", {"q": "don't stop"}),
    "raw newline and tab": ('{"a": "x\ny\tz"}', {"a": "x\ny\tz"}),
    "raw control char": ('{"a": "x\x01y"}', {"a": "x\x01y"}),
    "trailing comma object": ('{"a": 1,}', {"a": 1}),
    "trailing comma array": ("[1, 2, ]", [1, 2]),
    "truncated in string": ('{"a": "hel', {"a": "hel"}),
    "truncated after colon": ('{"a":', {"a": None}),
    "truncated key is dropped": ('[{"key": "v", "key', [{"key": "v"}]),
    "truncated in literal": ('{"a": tr', {"a": True}),
    "truncated after comma": ('{"a": [1, 2,', {"a": [1, 2]}),
    "truncated nested": ('{"a": {"b": [1, {"c": 2', {"a": {"b": [1, {"c": 2}]}}),
    "line comment": ('{"a": 1, // c\n "b": 2}', {"a": 1, "b": 2}),
    "block comment": ('{"a": /* c */ 1}', {"a": 1}),
    "hash comment": ('{"a": 1, # c\n "b": 2}', {"a": 1, "b": 2}),
    "python literals": ("[True, False, None]", [True, False, None]),
    "unquoted key": ("{a: 1, b_2: 2}", {"a": 1, "b_2": 2}),
    "unquoted value": ('{"a": hello world}', {"a": "hello world"}),
    "missing comma object": ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),
    "missing comma array": ('["a" "b" 3]', ["a", "b", 3]),
    "missing colon": ('{"a" 1}', {"a": 1}),
    "unescaped inner quotes": ('{"a": "say "hi" now"}', {"a": 'say "hi" now'}),
    "windows path": ('{"p": "C:\\Users\\me"}', {"p": "C:\\Users\\me"}),
    "markdown fence": ('```json\n{"a": 1}\n```', {"a": 1}),
    "prose around": ('Here you go: {"a": [1]} hope it helps', {"a": [1]}),
    "smart quotes": ("{“a”: “b”}", {"a": "b"}),
    "leading dot number": ('{"a": .5}', {"a": 0.5}),
    "plus number": ('{"a": +1}', {"a": 1}),
    "concatenated objects": ('{"a": 1}{"b": 2}', [{"a": 1}, {"b": 2}]),
    "double escaped": ('{\\"a\\": \\"b\\"}', {"a": "b"}),
    "mismatched closer": ('{"a": [1, 2}', {"a": [1, 2]}),
}


@pytest.mark.parametrize("text,expected", CASES.values(), ids=list(CASES))
def test_repair_kind(text: str, expected: object) -> None:
    assert lenient_loads(text) == expected
    assert lenient_loads(text, precheck=False) == expected
    repaired = repair_json(text)
    assert repaired.value == expected
    assert repaired.repairs, "a repair must be reported"
    assert json.loads(repaired.text) == expected
    for r in repaired.repairs:
        assert 0 <= r.offset <= len(text.encode()) and r.kind


def test_non_finite_numbers_become_null() -> None:
    assert lenient_loads("[NaN, Infinity, -Infinity]") == [None, None, None]


def test_valid_json_is_unchanged_with_no_repairs() -> None:
    text = '{"a": [1, 2.5e3, "x\\"y\\\\", null], "b": {"c": "\\u00e9"}}'
    r = repair_json(text)
    assert r.text == text and r.repairs == ()


def test_escaped_backslash_quote_in_code_is_kept() -> None:
    # json_repair 0.64.5 turns the \\\" sequence into a bare quote and so changes valid data.
    code = 'print("a \\\\\\"quoted\\\\\\" b")'
    doc = json.dumps({"code": code})
    assert '\\\\\\"' in doc
    assert lenient_loads(doc) == {"code": code}
    assert repair_json(doc).text == doc
    broken = doc[:-1]  # truncated: the repair path must keep the value too
    assert lenient_loads(broken) == {"code": code}


def test_big_integers_keep_their_exact_value() -> None:
    big = 123456789012345678901234567890
    assert lenient_loads(f'{{"n": {big}}}') == {"n": big}
    assert lenient_loads(f"{{'n': {big},}}") == {"n": big}
    assert lenient_loads(f"[-{big}") == [-big]


def test_bytes_input() -> None:
    assert lenient_loads(b'{"a": 1}') == {"a": 1}
    assert lenient_loads(b"{'a': 1}") == {"a": 1}
    assert lenient_loads(b'{"n": 123456789012345678901}') == {"n": 123456789012345678901}
    assert lenient_loads(bytearray(b"{'a': [1,]}")) == {"a": [1]}
    assert lenient_loads(memoryview(b'{"a": 1}')) == {"a": 1}
    # Every bytes-like input keeps wide integers exact, not only `bytes`.
    wide = b'{"n": 123456789012345678901}'
    assert lenient_loads(bytearray(wide)) == {"n": 123456789012345678901}
    assert lenient_loads(memoryview(wide), precheck=False) == {"n": 123456789012345678901}
    assert lenient_loads(b"[1, '\xff") == [1, "\ufffd"]


def test_lenient_loads_is_one_native_call_with_python_defaults() -> None:
    import inspect

    class Text(str):
        pass

    assert lenient_loads(Text("{'a': [1,]}")) == {"a": [1]}
    assert lenient_loads(Text('{"a": 1}')) == {"a": 1}
    params = inspect.signature(lenient_loads).parameters
    assert params["max_depth"].default == _native.DEFAULT_MAX_DEPTH
    assert params["max_depth"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["precheck"].default is True
    with pytest.raises(TypeError):
        lenient_loads(5)  # type: ignore[arg-type]
    with pytest.raises(toolsift.JsonRepairError):
        lenient_loads("[1, 2", max_depth=0)


def test_precheck_gives_the_same_values() -> None:
    big = 123456789012345678901234567890
    for text in ['{"a": [1, "x"]}', f'{{"n": {big}}}', f"[{big},", b'{"n": 1}', b"{'n': 2}"]:
        assert lenient_loads(text, precheck=False) == lenient_loads(text), text
    for data in [bytearray(b'{"a": 1}'), memoryview(b"{'a': [1,]}")]:
        assert lenient_loads(data, precheck=False) == lenient_loads(data)
    # The one native call (check, orjson, repair) of a str, against the long way round.
    value, depth = lenient_loads("[" * 1100 + "]" * 1100), 1  # deeper than orjson goes
    while value:
        value, depth = value[0], depth + 1
    assert value == [] and depth == 1100
    for text in [f"[{big}, 'x']", '{"a": "\ud800"}', "{'a': '\ud800'}", "", " 1 "]:
        try:
            got = lenient_loads(text)
        except toolsift.JsonRepairError:
            with pytest.raises(toolsift.JsonRepairError):
                lenient_loads(text, precheck=False)
            continue
        assert got == lenient_loads(text, precheck=False), text


def test_native_verdict_decides_whether_to_try_orjson() -> None:
    # 0: certainly not JSON, so lenient_loads goes straight to the repair.
    for text in ["{'a': 1}", '{"a": 1,}', '{"a": [1, ', "Sure: {}", "{'a': '\ud800'}"]:
        assert _native.json_verdict(text) == 0, text
    assert _native.json_verdict(b"{a: 1}") == 0
    # 1: may be JSON; 2: may be JSON with a number too long for 64 bits.
    assert _native.json_verdict('{"a": [1, "x"]}') == 1
    assert _native.json_verdict(b'{"a": [1, 2]}') == 1
    assert _native.json_verdict('{"a": [1}]') == 1  # passing is no proof of validity
    assert _native.json_verdict(f"[{2**70}]") == 2
    # Other types are left to orjson.
    assert _native.json_verdict(bytearray(b"{'a': 1}")) == 1


@pytest.mark.parametrize("text", ["", "   ", "hello world", "no json here at all"])
def test_unrepairable_raises_with_offset_and_reason(text: str) -> None:
    with pytest.raises(toolsift.JsonRepairError) as err:
        lenient_loads(text)
    assert isinstance(err.value, ValueError)
    assert err.value.offset is not None and err.value.reason
    with pytest.raises(toolsift.JsonRepairError):
        repair_json(text)


def test_depth_limit_is_an_error_not_a_crash() -> None:
    with pytest.raises(toolsift.ToolsiftError):
        lenient_loads("[" * 50, max_depth=10)


def test_hundred_thousand_deep_truncated_nesting() -> None:
    value = lenient_loads("[" * 100_000)
    depth = 0
    while isinstance(value, list) and value:
        value = value[0]
        depth += 1
    assert depth == 99_999


def test_huge_string_value() -> None:
    big = "x" * 5_000_000
    assert lenient_loads('{"a": "' + big) == {"a": big}


@pytest.mark.parametrize("depth", [1025, 5000, 100_000])
def test_valid_json_deeper_than_orjson_allows(depth: int) -> None:
    text = "[" * depth + "1" + "]" * depth
    value = toolsift.lenient_loads(text)
    for _ in range(depth):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == 1
    assert toolsift.repair_json(text).repairs == ()


def test_big_integers_in_tool_call_arguments() -> None:
    big = 2**80 + 1
    call = toolsift.parse(f'TOOL_CALL {{"tool_name": "f", "parameters": {{"n": {big}}}}}').calls[0]
    assert call.arguments == {"n": big}
    call = toolsift.parse(f"TOOL_CALL {{'tool_name': 'f', 'parameters': {{'n': -{big}}}}}").calls[0]
    assert call.arguments == {"n": -big}


def test_lone_surrogates_are_read_as_replacement_characters() -> None:
    assert lenient_loads("{'a': 'x\ud800y'}") == {"a": "x\ufffdy"}
    assert repair_json("['\udc80']").value == ["\ufffd"]
    text = "\ud800 TOOL_CALL {'tool_name': 'f', 'parameters': {'s': '\udfff'}}"
    call = toolsift.parse(text).calls[0]
    assert call.arguments == {"s": "\ufffd"}
    assert text[call.span[0] : call.span[1]] == call.raw
    assert toolsift.scan_json_spans("\ud800[1]").spans[0].start == 1


def test_exact_reader_leaves_the_collector_as_it_found_it() -> None:
    """A large document is built with the cycle collector paused; it runs again afterwards,
    also when the document is refused, and stays off when the caller had turned it off."""
    import gc

    deep = "[" * 20_000 + "]" * 20_000  # past the pause threshold
    assert gc.isenabled()
    value, depth = _native.loads_exact(deep), 1
    while value:
        value, depth = value[0], depth + 1
    assert depth == 20_000 and gc.isenabled()
    with pytest.raises(ValueError):
        _native.loads_exact(deep[:-1])
    assert gc.isenabled()
    gc.disable()
    try:
        _native.loads_exact(deep)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_value_written_with_raw_line_breaks_keeps_its_last_one() -> None:
    # json_repair drops the blanks before a closing quote that follows a raw line break; a
    # file's content written that way would lose its final newline. toolsift keeps it (and
    # drops such blanks only from keys and from strings the end of input cut off).
    text = '{"path": "a.py", "content": "import os\nprint(1)\n", "mode": 420}'
    assert toolsift.lenient_loads(text)["content"] == "import os\nprint(1)\n"
    assert toolsift.lenient_loads('{"k\n": 1}') == {"k": 1}
    assert toolsift.lenient_loads('{"a": "cut off  ') == {"a": "cut off"}
