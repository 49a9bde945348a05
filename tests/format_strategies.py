"""Hypothesis strategies for tool definitions and arguments that try to break formatters:
strings made of newlines, quotes, ``<``, ``&``, every syntax's own markers and unicode."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

#: Pieces of every syntax's framing, so values contain the markers of the syntax under test.
MARKERS = [
    "</arg>", "</arguments>", "</tool>", "</arg></arguments>", "</arg>\n</tool>",
    "__END_CONTENT__</arg>", "<item>", "</item>", '<arg name="x">', "<tool name=",
    "__START_CONTENT__", "__END_CONTENT__", "<![CDATA[", "]]>", "&amp;", "&lt;", "&#10;",
    "</parameter>", "<parameter=k>", "</invoke>", "</function_calls>", "</function>",
    "</arg_value>", "<arg_key>", "</tool_call>", "<tool_call>", "</steptml:parameter>",
    "</｜DSML｜parameter>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool_calls_end｜>",
    "<|call|>", "<|end|>", "<|tool_call_end|>", "<|action_end|>", "<|python_end|>",
    "[TOOL_CALLS]", "[/RUN_MODULE]", "[[SEG_END]]", "[[SEG_START {", "]]", "TOOL_CALL:",
    "```", "^^^", "^^^tool", "--- k", "k ---", "---", "key: |", "- item", "<tool:x>",
    "</param:k>", "<param:k>", "'", '"', "\\", "\\n", "{", "}", "[", "]", "(", ")", ";", ",",
    "=", "<", ">", "&", "\n", "\r\n", "\r", "\t", " ", "é", "日本", "😀", "\u2028", "\x00",
]  # fmt: skip

fragments = st.one_of(st.sampled_from(MARKERS), st.text(max_size=6))
strings = st.lists(fragments, max_size=8).map("".join)

#: Keys and names, including those some parsers treat specially (raw bodies, segment types).
KEYS = st.one_of(
    st.sampled_from(["content", "path", "command", "patch", "item", "arg", "name", "type"]),
    st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True),
)
NAMES = st.one_of(
    st.sampled_from(["write_file", "run_bash", "patch_file", "Write_File", "tool", "text"]),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}([.\-][a-z0-9_]{1,4})?", fullmatch=True),
)

_leaf_schemas = st.sampled_from(
    [{"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}]
)


def _object_of(
    children: st.SearchStrategy[dict[str, Any]], min_size: int = 0
) -> st.SearchStrategy[dict[str, Any]]:
    def build(props: dict[str, dict[str, Any]], required: list[bool]) -> dict[str, Any]:
        names = [k for k, r in zip(props, required, strict=True) if r]
        return {"type": "object", "properties": props, "required": names}

    props = st.dictionaries(KEYS, children, min_size=min_size, max_size=4)
    return props.flatmap(
        lambda p: st.lists(st.booleans(), min_size=len(p), max_size=len(p)).map(
            lambda r: build(p, r)
        )
    )


schemas = st.recursive(
    _leaf_schemas,
    lambda inner: st.one_of(
        inner.map(lambda s: {"type": "array", "items": s}),
        _object_of(inner),
    ),
    max_leaves=6,
)
tool_schemas = _object_of(schemas, min_size=1)


def values_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid for ``schema`` (optional properties present or not)."""
    kind = schema["type"]
    if kind == "string":
        return strings
    if kind == "integer":
        return st.integers(-(2**53), 2**53)
    if kind == "number":
        return st.one_of(
            st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False)
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(values_for(schema["items"]), max_size=3)
    required = set(schema["required"])
    return st.fixed_dictionaries(
        {k: values_for(v) for k, v in schema["properties"].items() if k in required},
        optional={k: values_for(v) for k, v in schema["properties"].items() if k not in required},
    )


def typed(value: Any) -> Any:
    """``value`` with its JSON type made part of equality (``True != 1``, ``"1" != 1``)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, dict):
        return ("dict", {k: typed(v) for k, v in value.items()})
    return ("other", value)
