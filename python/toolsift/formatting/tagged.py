"""Tag syntaxes with raw text values: ``anthropic_xml``, ``minimax_m2``, ``qwen3_coder``,
``glm45``, ``deepseek_dsml`` and ``step3``.

Their parsers keep a value's text exactly (no entities, no trimming; ``qwen3_coder`` drops one
newline on each side, which is why one is written there) and end it at the first closing tag
of a parameter (in ``qwen3_coder`` also at ``<parameter=``, ``</function>`` and a drifted
``</parameter…``). So a value may hold anything except those tags: one that does raises a
:class:`toolsift.FormatError`. Non-string values are written as JSON text, which ``tools=``
types back (``deepseek_dsml`` marks them ``string="false"``, so they need no schema).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .base import Formatter, check_key, check_name, json_text, refuse, text_value
from .describe import xml_tag

__all__ = ["FORMATTERS"]


def _tagged(
    syntax: str,
    close: str | tuple[str, ...],
    head: Callable[[str], str],
    param: Callable[[str, Any, str], str],
    tail: str,
    rules: str,
) -> Formatter:
    ends = (close,) if isinstance(close, str) else close

    def render(name: str, arguments: Mapping[str, Any]) -> str:
        parts = [head(check_name(name, syntax))]
        for key, value in arguments.items():
            text = text_value(value)
            for end in ends:
                if end in text:
                    raise refuse(syntax, key, f"it contains {end}, which ends a value")
            parts.append(param(check_key(key, syntax), value, text))
        return "".join([*parts, tail])

    return Formatter(syntax, render, xml_tag, rules)


_RAW = (
    "Values are raw text, kept exactly (no escaping); numbers, booleans, lists and objects "
    "are written as JSON."
)

_DSML = "｜DSML｜"


def _dsml_param(key: str, value: Any, text: str) -> str:
    is_string = isinstance(value, str)
    body = text if is_string else json_text(value)
    flag = "true" if is_string else "false"
    return f'<{_DSML}parameter name="{key}" string="{flag}">{body}</{_DSML}parameter>\n'


FORMATTERS = {
    f.syntax: f
    for f in [
        _tagged(
            "anthropic_xml",
            "</parameter>",
            lambda n: f'<function_calls>\n<invoke name="{n}">\n',
            lambda k, v, t: f'<parameter name="{k}">{t}</parameter>\n',
            "</invoke>\n</function_calls>",
            'To call tools, write a <function_calls> block with one <invoke name="NAME"> per '
            'call and one <parameter name="KEY">VALUE</parameter> per argument. ' + _RAW,
        ),
        _tagged(
            "minimax_m2",
            "</parameter>",
            lambda n: f'<minimax:tool_call>\n<invoke name="{n}">\n',
            lambda k, v, t: f'<parameter name="{k}">{t}</parameter>\n',
            "</invoke>\n</minimax:tool_call>",
            'To call tools, write a <minimax:tool_call> block with one <invoke name="NAME"> per '
            'call and one <parameter name="KEY">VALUE</parameter> per argument. ' + _RAW,
        ),
        _tagged(
            "qwen3_coder",
            # A value also ends where the next parameter or the function's end begins (the
            # reading that survives a model leaving out </parameter>), and at a drifted
            # closing tag (`</parameter1>`), so `</parameter` with anything after it ends one.
            ("</parameter", "<parameter=", "</function>"),
            lambda n: f"<tool_call>\n<function={n}>\n",
            lambda k, v, t: f"<parameter={k}>\n{t}\n</parameter>\n",
            "</function>\n</tool_call>",
            "To call a tool, write <tool_call>, then <function=NAME>, then each argument as "
            "<parameter=KEY> on its own line, the value, and </parameter> on its own line; close "
            "with </function> and </tool_call>. " + _RAW,
        ),
        _tagged(
            "glm45",
            "</arg_value>",
            lambda n: f"<tool_call>{n}\n",
            lambda k, v, t: f"<arg_key>{k}</arg_key>\n<arg_value>{t}</arg_value>\n",
            "</tool_call>",
            "To call a tool, write <tool_call>NAME, then for each argument <arg_key>KEY</arg_key> "
            "and <arg_value>VALUE</arg_value>, then </tool_call>. " + _RAW,
        ),
        _tagged(
            "deepseek_dsml",
            f"</{_DSML}parameter>",
            lambda n: f'<{_DSML}function_calls>\n<{_DSML}invoke name="{n}">\n',
            _dsml_param,
            f"</{_DSML}invoke>\n</{_DSML}function_calls>",
            f"To call tools, write a <{_DSML}function_calls> block with one <{_DSML}invoke "
            f'name="NAME"> per call and one <{_DSML}parameter name="KEY" string="true">VALUE'
            f'</{_DSML}parameter> per argument. Strings are raw text with string="true"; other '
            'values are JSON with string="false".',
        ),
        _tagged(
            "step3",
            "</steptml:parameter>",
            lambda n: (
                "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"
                f'<steptml:invoke name="{n}">'
            ),
            lambda k, v, t: f'<steptml:parameter name="{k}">{t}</steptml:parameter>',
            "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
            "To call a tool, write <｜tool_calls_begin｜><｜tool_call_begin｜>function"
            '<｜tool_sep｜><steptml:invoke name="NAME">, one <steptml:parameter name="KEY">VALUE'
            "</steptml:parameter> per argument, then </steptml:invoke><｜tool_call_end｜>"
            "<｜tool_calls_end｜>. " + _RAW,
        ),
    ]
}
