"""Every open-model format against the same checklist: content before, between and after
calls, parallel calls, empty arguments, every JSON type, escaped strings, a malformed call
between good ones, and an unterminated call at the end — in one shot and streamed.

The malformed calls are ones a reader can delimit (no name, a nameless parameter, arguments
that are not JSON). Known limit: in the tagged formats a value ends only at its own closing
tag, so a value missing ``</parameter>`` runs on to the next one (values may hold any other
tag, which file contents need).

Each format is written here by hand from SYNTAXES.md (not by toolsift's formatters), so the
parsers are checked against the documented surface forms. Formats whose values are text
(XML-like parameters) are typed through ``tools=``, as they are in real use.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import toolsift
from toolsift import StreamParser

Args = dict[str, Any]

ALL_TYPES: Args = {
    "s": "x",
    "i": 7,
    "f": 2.5,
    "b": True,
    "z": None,
    "a": [1, "two", False],
    "o": {"k": "v", "n": [1]},
}
ESCAPED: Args = {"s": 'quote " back \\ nl\n tab\t é 😀 {brace} [x] </p> &amp;'}

PROPS = {
    "s": {"type": "string"},
    "i": {"type": "integer"},
    "f": {"type": "number"},
    "b": {"type": "boolean"},
    "z": {"type": "null"},
    "a": {"type": "array"},
    "o": {"type": "object"},
    "q": {"type": "string"},
}
TOOLS = [
    {
        "type": "function",
        "function": {"name": n, "parameters": {"type": "object", "properties": PROPS}},
    }
    for n in ("f", "g", "h")
]


def _j(args: Args) -> str:
    return json.dumps(args, ensure_ascii=False)


def _text_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _py(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(k)}: {_py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    return repr(value)


@dataclass(frozen=True)
class Format:
    name: str
    #: Writes a whole reply: content pieces interleaved with call groups.
    call: Callable[[str, Args], str]
    #: Wraps consecutive calls into one block (sections, lists).
    block: Callable[[list[str]], str] = lambda calls: "".join(calls)
    #: Content may sit between two blocks.
    between: bool = True
    #: A call whose body is broken, in this format.
    malformed: str = ""
    #: The start of a call cut off by the end of the stream.
    cut: str = ""
    #: Values are text, typed by ``tools=``.
    typed: bool = False
    #: Raw text values keep every character only where the format allows it.
    escapes: bool = True
    #: The test id, where one syntax has two shapes (default: the syntax's name).
    label: str = ""


def _hermes(n: str, a: Args) -> str:
    return f'<tool_call>\n{{"name": "{n}", "arguments": {_j(a)}}}\n</tool_call>'


def _qwen(n: str, a: Args) -> str:
    params = "".join(f"<parameter={k}>\n{_text_value(v)}\n</parameter>\n" for k, v in a.items())
    return f"<tool_call>\n<function={n}>\n{params}</function>\n</tool_call>"


def _glm(n: str, a: Args) -> str:
    kv = "".join(
        f"<arg_key>{k}</arg_key>\n<arg_value>{_text_value(v)}</arg_value>\n" for k, v in a.items()
    )
    return f"<tool_call>{n}\n{kv}</tool_call>"


def _minimax(n: str, a: Args) -> str:
    ps = "".join(f'<parameter name="{k}">{_text_value(v)}</parameter>\n' for k, v in a.items())
    return f'<invoke name="{n}">\n{ps}</invoke>\n'


def _dsml(n: str, a: Args) -> str:
    d = "<｜DSML｜"
    ps = "".join(
        f'{d}parameter name="{k}" string="{"true" if isinstance(v, str) else "false"}">'
        f"{_text_value(v)}</｜DSML｜parameter>\n"
        for k, v in a.items()
    )
    return f'{d}invoke name="{n}">\n{ps}</｜DSML｜invoke>\n'


def _step3(n: str, a: Args) -> str:
    ps = "".join(
        f'<steptml:parameter name="{k}">{_text_value(v)}</steptml:parameter>' for k, v in a.items()
    )
    return (
        f'<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="{n}">{ps}'
        "</steptml:invoke><｜tool_call_end｜>"
    )


FORMATS = [
    Format(
        "hermes",
        _hermes,
        malformed='<tool_call>\n{"arguments": {"q": 1}}\n</tool_call>',
        cut='<tool_call>\n{"name": "h", "arguments": {"q": "unfinis',
    ),
    Format(
        "llama3_json",
        lambda n, a: f'{{"name": "{n}", "parameters": {_j(a)}}}',
        block=lambda cs: "<|python_tag|>" + "; ".join(cs),
        between=False,
        cut='<|python_tag|>{"name": "h", "parameters": {"q": "unfinis',
    ),
    Format(
        "mistral",
        lambda n, a: f"[TOOL_CALLS]{n}[ARGS]{_j(a)}",
        between=False,
        malformed="[TOOL_CALLS]bad[ARGS]not json",
        cut='[TOOL_CALLS]h[ARGS]{"q": "unfinis',
    ),
    Format(
        "qwen3_coder",
        _qwen,
        typed=True,
        escapes=False,
        malformed="<tool_call>\n<function=bad>\n<parameter=>\nx\n</parameter>\n</function>\n</tool_call>",
        cut="<tool_call>\n<function=h>\n<parameter=q>\nunfinis",
    ),
    Format(
        "deepseek_v3",
        lambda n, a: (
            f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{n}\n```json\n{_j(a)}\n```<｜tool▁call▁end｜>"
        ),
        block=lambda cs: "<｜tool▁calls▁begin｜>" + "".join(cs) + "<｜tool▁calls▁end｜>",
        malformed="<｜tool▁call▁begin｜>function<｜tool▁sep｜>bad\n```json\nnot json\n```<｜tool▁call▁end｜>",
        cut='<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>h\n```json\n{"q": "unfinis',
    ),
    Format(
        "deepseek_v31",
        lambda n, a: f"<｜tool▁call▁begin｜>{n}<｜tool▁sep｜>{_j(a)}<｜tool▁call▁end｜>",
        block=lambda cs: "<｜tool▁calls▁begin｜>" + "".join(cs) + "<｜tool▁calls▁end｜>",
        malformed="<｜tool▁call▁begin｜>bad<｜tool▁sep｜>not json<｜tool▁call▁end｜>",
        cut='<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>h<｜tool▁sep｜>{"q": "unfinis',
    ),
    Format(
        "deepseek_dsml",
        _dsml,
        typed=True,
        escapes=False,
        block=lambda cs: "<｜DSML｜function_calls>\n" + "".join(cs) + "</｜DSML｜function_calls>",
        cut='<｜DSML｜function_calls>\n<｜DSML｜invoke name="h">\n<｜DSML｜parameter name="q" string="true">unfinis',
    ),
    Format(
        "kimi_k2",
        lambda n, a: (
            f"<|tool_call_begin|>functions.{n}:0<|tool_call_argument_begin|>{_j(a)}<|tool_call_end|>"
        ),
        block=lambda cs: (
            "<|tool_calls_section_begin|>" + "".join(cs) + "<|tool_calls_section_end|>"
        ),
        malformed="<|tool_call_begin|>functions.bad:0<|tool_call_argument_begin|>not json<|tool_call_end|>",
        cut='<|tool_calls_section_begin|><|tool_call_begin|>functions.h:0<|tool_call_argument_begin|>{"q": "unfinis',
    ),
    Format(
        "glm45",
        _glm,
        typed=True,
        escapes=False,
        malformed="<tool_call>bad\n<arg_value>v</arg_value>\n</tool_call>",
        cut="<tool_call>h\n<arg_key>q</arg_key>\n<arg_value>unfinis",
    ),
    Format(
        "minimax_m2",
        _minimax,
        typed=True,
        escapes=False,
        block=lambda cs: "<minimax:tool_call>\n" + "".join(cs) + "</minimax:tool_call>",
        malformed='<invoke name="bad">\n<parameter>x</parameter>\n</invoke>\n',
        cut='<minimax:tool_call>\n<invoke name="h">\n<parameter name="q">unfinis',
    ),
    Format(
        "gpt_oss",
        lambda n, a: (
            f"<|start|>assistant<|channel|>commentary to=functions.{n} <|constrain|>json<|message|>{_j(a)}<|call|>"
        ),
        between=False,
        malformed="<|start|>assistant<|channel|>commentary to=functions.bad <|constrain|>json<|message|>not json<|call|>",
        cut='<|start|>assistant<|channel|>commentary to=functions.h <|constrain|>json<|message|>{"q": "unfinis',
    ),
    Format(
        "granite",
        lambda n, a: f'{{"name": "{n}", "arguments": {_j(a)}}}',
        block=lambda cs: "<|tool_call|>[" + ", ".join(cs) + "]",
        between=False,
        cut='<|tool_call|>[{"name": "h", "arguments": {"q": "unfinis',
    ),
    # Granite 4: Hermes-style blocks, one object each, a blank inside the tags.
    Format(
        "granite",
        lambda n, a: f'<tool_call> {{"name": "{n}", "arguments": {_j(a)}}} </tool_call>',
        malformed='<tool_call> {"arguments": {}} </tool_call>',
        cut='<tool_call> {"name": "h", "arguments": {"q": "unfinis',
        label="granite4",
    ),
    # Granite-20B-FunctionCalling: `<function_call>` and one object per call, no end tag.
    Format(
        "granite",
        lambda n, a: f'<function_call> {{"name": "{n}", "arguments": {_j(a)}}}\n',
        malformed='<function_call> {"arguments": {}}\n',
        cut='<function_call> {"name": "h", "arguments": {"q": "unfinis',
        label="granite_20b_fc",
    ),
    # Qwen models write parallel calls as one `<tool_call>` holding an array (SGLang reads it).
    Format(
        "hermes",
        lambda n, a: f'{{"name": "{n}", "arguments": {_j(a)}}}',
        block=lambda cs: "<tool_call>\n[" + ", ".join(cs) + "]\n</tool_call>",
        malformed='{"arguments": {}}',
        cut='<tool_call>\n[{"name": "h", "arguments": {"q": "unfinis',
        label="hermes_array",
    ),
    Format(
        "jamba",
        lambda n, a: f'{{"name": "{n}", "arguments": {_j(a)}}}',
        block=lambda cs: "<tool_calls>[" + ", ".join(cs) + "]</tool_calls>",
        malformed='{"arguments": {}}',
        cut='<tool_calls>[{"name": "h", "arguments": {"q": "unfinis',
    ),
    Format(
        "xlam",
        lambda n, a: f'{{"name": "{n}", "arguments": {_j(a)}}}',
        block=lambda cs: "```json\n[" + ", ".join(cs) + "]\n```",
        cut='```json\n[{"name": "h", "arguments": {"q": "unfinis',
    ),
    Format(
        "internlm",
        lambda n, a: (
            f'<|action_start|><|plugin|>{{"name": "{n}", "parameters": {_j(a)}}}<|action_end|>'
        ),
        malformed="<|action_start|><|plugin|>not json<|action_end|>",
        cut='<|action_start|><|plugin|>{"name": "h", "parameters": {"q": "unfinis',
    ),
    Format(
        "step3",
        _step3,
        typed=True,
        escapes=False,
        block=lambda cs: "<｜tool_calls_begin｜>" + "".join(cs) + "<｜tool_calls_end｜>",
        cut='<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="h"><steptml:parameter name="q">unfinis',
    ),
    Format(
        "pythonic",
        lambda n, a: f"{n}(" + ", ".join(f"{k}={_py(v)}" for k, v in a.items()) + ")",
        block=lambda cs: "[" + ", ".join(cs) + "]",
        between=False,
        cut="[h(q='unfinis",
    ),
]
FORMAT_IDS = [f.label or f.name for f in FORMATS]


def _parse(fmt: Format, text: str) -> toolsift.ParseResult:
    return toolsift.parse(text, fmt.name, tools=TOOLS if fmt.typed else None)


def _streamed(fmt: Format, text: str, seed: int) -> toolsift.ParseResult:
    rng = random.Random(seed)
    parser = StreamParser(fmt.name, tools=TOOLS if fmt.typed else None)
    at = 0
    while at < len(text):
        step = rng.randint(1, 9)
        parser.feed(text[at : at + step])
        at += step
    parser.finish()
    return parser.result()


def _calls(result: toolsift.ParseResult) -> list[tuple[str, Args]]:
    return [(c.name, c.arguments) for c in result.calls]


def _check(fmt: Format, text: str) -> toolsift.ParseResult:
    """Parses in one shot and over a few random chunkings; all must agree."""
    whole = _parse(fmt, text)
    for seed in range(5):
        streamed = _streamed(fmt, text, seed)
        assert _calls(streamed) == _calls(whole)
        assert streamed.content == whole.content
        assert [i.kind for i in streamed.issues] == [i.kind for i in whole.issues]
    return whole


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_parallel_calls_with_content_around_them(fmt: Format) -> None:
    block = fmt.block([fmt.call("f", {"q": "one"}), fmt.call("g", {"q": "two"})])
    result = _check(fmt, f"Let me look.\n{block}")
    assert _calls(result) == [("f", {"q": "one"}), ("g", {"q": "two"})]
    assert result.content.strip() == "Let me look."
    assert [c.syntax for c in result.calls] == [fmt.name, fmt.name]
    assert len({c.id for c in result.calls}) == 2


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f.between], ids=lambda f: f.label or f.name)
def test_content_between_and_after_calls(fmt: Format) -> None:
    one = fmt.block([fmt.call("f", {"q": "one"})])
    two = fmt.block([fmt.call("g", {"q": "two"})])
    result = _check(fmt, f"Before. {one} Between. {two} After.")
    assert _calls(result) == [("f", {"q": "one"}), ("g", {"q": "two"})]
    assert " ".join(result.content.split()) == "Before. Between. After."


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_empty_arguments(fmt: Format) -> None:
    result = _check(fmt, fmt.block([fmt.call("f", {})]))
    assert _calls(result) == [("f", {})]


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_every_json_type(fmt: Format) -> None:
    result = _check(fmt, fmt.block([fmt.call("f", ALL_TYPES)]))
    assert _calls(result) == [("f", ALL_TYPES)]
    assert not result.issues


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_escaped_strings(fmt: Format) -> None:
    args = ESCAPED if fmt.escapes else {"s": 'quote " back \\ nl\n tab\t é 😀 {brace} [x]'}
    result = _check(fmt, fmt.block([fmt.call("f", args)]))
    assert _calls(result) == [("f", args)]


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.malformed], ids=lambda f: f.label or f.name
)
def test_a_malformed_call_between_good_ones(fmt: Format) -> None:
    # Inside one block where the format groups calls (sections, lists), else side by side.
    text = fmt.block([fmt.call("f", {"q": "one"}), fmt.malformed, fmt.call("g", {"q": "two"})])
    result = _check(fmt, text)
    assert _calls(result) == [("f", {"q": "one"}), ("g", {"q": "two"})]
    assert result.issues, "the malformed call is reported"


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_an_unterminated_call_at_the_end(fmt: Format) -> None:
    good = fmt.block([fmt.call("f", {"q": "one"})])
    text = good + ("\n" if fmt.between else "") if fmt.between else ""
    result = _check(fmt, text + fmt.cut) if fmt.between else _check(fmt, fmt.cut)
    if fmt.between:
        assert _calls(result)[0] == ("f", {"q": "one"})
    # Never silently dropped: it is a (repaired) call flagged as cut off, or an issue.
    assert result.issues, [c for c in result.calls]
    cut_calls = [c for c in result.calls if c.name == "h"]
    assert all(c.arguments.get("q", "unfinis").startswith("unfinis") for c in cut_calls)
