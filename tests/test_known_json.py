"""The one-pass reader that loads call arguments already known to be valid JSON
(``_native.loads_known``): its values equal ``json.loads``'s, type for type, and what it
leaves to orjson and ``loads_exact`` still loads the same through the parsers."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import toolsift
from toolsift import _native

# Integers around the reader's 18-digit limit and floats of every shape JSON writes.
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.sampled_from([10**18 - 1, -(10**18 - 1), 10**18, -(10**18), 2**63, -(2**63)])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=24,
)


def same(a: Any, b: Any) -> bool:
    """Equal, type for type (``1 == 1.0 == True`` in Python), floats by their bits' value."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)


def digits_within_limit(value: Any) -> bool:
    """True when every integer of ``value`` has at most 18 digits (the reader's own range)."""
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return True
    if isinstance(value, int):
        return len(str(abs(value))) <= 18
    items = value.values() if isinstance(value, dict) else value
    return all(digits_within_limit(v) for v in items)


@given(json_values, st.booleans(), st.sampled_from([None, 0, 2]))
def test_known_reader_equals_json_loads(value: Any, ascii_only: bool, indent: int | None) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    got = _native.loads_known(text)
    if digits_within_limit(value):
        assert got is not None, text
    if got is not None:
        assert same(got[0], json.loads(text)), text


@given(json_values.filter(lambda v: isinstance(v, dict)))
def test_arguments_through_a_parser_equal_json_loads(arguments: dict[str, Any]) -> None:
    # Whatever path loads them (this reader, orjson, the exact reader), the values are equal.
    text = "TOOL_CALL " + json.dumps({"tool": "t", "parameters": arguments})
    (call,) = toolsift.parse(text, "tool_call_json").calls
    assert same(call.arguments, json.loads(json.dumps(arguments)))


def test_what_the_reader_leaves_to_the_exact_path() -> None:
    assert _native.loads_known('{"n": 1234567890123456789}') is None  # 19 digits
    assert _native.loads_known('"\\ud800"') is None  # a lone surrogate
    assert _native.loads_known("[" * 129 + "]" * 129) is None  # deeper than 128
    assert _native.loads_known("[" * 128 + "]" * 128) is not None
    assert _native.loads_known('{"a": 1} x') is None  # text after the value


def test_escapes_and_surrogate_pairs() -> None:
    text = r'{"k\"ey": "a\\b\/c\b\f\n\r\t\u00e9\ud83d\ude80 end"}'
    assert _native.loads_known(text) == (json.loads(text),)


def test_big_integers_keep_their_value_through_a_parser() -> None:
    text = 'TOOL_CALL {"tool": "t", "parameters": {"n": 123456789012345678901234567890}}'
    assert toolsift.parse(text, "tool_call_json").calls[0].arguments == {
        "n": 123456789012345678901234567890
    }


@given(st.text(max_size=64) | st.binary(max_size=64).map(lambda b: b.decode("latin-1")))
def test_never_crashes_on_text_that_is_not_json(text: str) -> None:
    result = _native.loads_known(text)
    assert result is None or isinstance(result, tuple)
