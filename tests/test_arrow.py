"""The Arrow path (column buffers straight to Rust) equals the list path."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")

from test_batch import SYNTAX_TEXTS  # noqa: E402

import toolsift  # noqa: E402
from toolsift.arrow import extract_arrow, parse_arrow, tables_from_results  # noqa: E402

from conformance import call_cases  # noqa: E402


def rows(table: Any) -> list[dict[str, Any]]:
    """Rows with the arguments decoded (the JSON text may differ in spacing, not in value)."""
    out = table.to_pylist()
    for row in out:
        if "arguments" in row:
            row["arguments"] = orjson.loads(row["arguments"])
    return out


def assert_same_as_list_path(array: Any, syntax: Any, **options: Any) -> None:
    texts = ["" if t is None else t for t in array.to_pylist()]
    expected = tables_from_results(toolsift.parse_many(texts, syntax, **options))
    got = extract_arrow(array, syntax, **options)
    assert got.calls.schema == expected.calls.schema
    assert rows(got.calls) == rows(expected.calls)
    assert rows(got.issues) == rows(expected.issues)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_arrow_equals_list_path(data: st.DataObject) -> None:
    syntax = data.draw(st.sampled_from(sorted(SYNTAX_TEXTS)))
    texts = data.draw(
        st.lists(st.one_of(st.none(), st.sampled_from(SYNTAX_TEXTS[syntax]), st.text()), max_size=8)
    )
    array = pa.array(texts, type=data.draw(st.sampled_from([pa.string(), pa.large_string()])))
    start = data.draw(st.integers(0, len(texts)))
    assert_same_as_list_path(array.slice(start), syntax, workers=data.draw(st.integers(1, 3)))


def test_chunked_column_all_syntaxes_and_row_index() -> None:
    texts = [c["text"] for s in SYNTAX_TEXTS for c in call_cases(s)]
    chunked = pa.chunked_array([texts[:10], texts[10:]])
    assert_same_as_list_path(chunked.combine_chunks(), list(SYNTAX_TEXTS))
    table = parse_arrow(chunked, list(SYNTAX_TEXTS), workers=2)
    assert table.num_rows > len(texts) // 2
    assert table.column_names[:4] == ["row", "call_id", "syntax", "name"]
    first = table.slice(0, 1).to_pylist()[0]
    assert texts[first["row"]][first["span_start"] : first["span_end"]] == first["raw"]


def test_options_that_need_python_use_the_list_path() -> None:
    tools = [{"name": "read", "parameters": {"properties": {"n": {"type": "integer"}}}}]
    array = pa.array(['<tool_call>{"name": "read", "arguments": {"n": "3"}}</tool_call>'])
    assert_same_as_list_path(array, "hermes", tools=tools, id_prefix="x")
    assert rows(parse_arrow(array, "hermes", tools=tools))[0]["arguments"] == {"n": 3}


def test_unknown_syntax() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError):
        parse_arrow(pa.array(["x"]), "nope")
