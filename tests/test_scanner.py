"""The scanner through the Python API: spans, offsets in characters, limits."""

from __future__ import annotations

import pytest

import toolsift


def test_spans_at_every_depth_in_character_offsets() -> None:
    text = 'é {"a": ["}", {"b": 1}]} ü [1]'
    scan = toolsift.scan_json_spans(text)
    got = [text[s.start : s.end] for s in scan.spans]
    assert got == ['{"b": 1}', '["}", {"b": 1}]', '{"a": ["}", {"b": 1}]}', "[1]"]
    assert [s.depth for s in scan.spans] == [2, 1, 0, 0]
    assert scan.open == [] and scan.closers == ""


def test_unterminated_input_reports_the_closers() -> None:
    scan = toolsift.scan_json_spans('{"a": [1, {"b": "tru')
    assert scan.closers == '"}]}'
    assert [(o.kind, o.depth) for o in scan.open] == [("object", 0), ("array", 1), ("object", 2)]


def test_deep_nesting_and_limit_error_with_offset() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert len(toolsift.scan_json_spans(deep).spans) == 100_000
    with pytest.raises(toolsift.ScanError) as err:
        toolsift.scan_json_spans("ab" + "[" * 10, max_depth=5)
    assert err.value.offset == 7
    assert err.value.reason == "depth_limit_exceeded"
    assert isinstance(err.value, toolsift.ToolsiftError) and isinstance(err.value, ValueError)


def test_single_quote_mode() -> None:
    text = "{'a': 'x } y'}"
    assert toolsift.scan_json_spans(text).spans[0].end == 10
    assert toolsift.scan_json_spans(text, single_quotes=True).spans[0].end == len(text)
