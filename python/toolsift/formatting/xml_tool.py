"""``xml_tool``: ``<tool name="f"><arguments><arg name="k">v</arg></arguments></tool>``.

What the parser reads, and so what is written:
- text values are whitespace-trimmed and entity-decoded: ``&``, ``<`` and ``>`` are written as
  entities, and a string with leading or trailing whitespace cannot be carried (even CDATA is
  trimmed) — a :class:`toolsift.FormatError` says so;
- a list is one ``<item>`` per element, an object nested ``<arg name="k">`` elements; an empty
  list or object is written as ``[]`` / ``{}`` text, which ``tools=`` types back;
- numbers, booleans and null are text, typed back by the tool's schema (``tools=``);
- ``write_file``'s ``content`` and ``patch_file``'s ``patch`` are raw in this parser: they are
  wrapped in ``__START_CONTENT__``/``__END_CONTENT__`` (``__START_PATCH__``/``__END_PATCH__``),
  which keep every byte; the value may not contain what ends it early (the end marker before
  ``</arg``, or ``</arg>`` before ``</arguments>`` or ``</tool>``);
- any other value that starts with ``__START_CONTENT__`` would be read as raw content (the
  parser honours the marker in every argument), so its first ``_`` is written ``&#95;``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .base import Formatter, check_key, check_name, refuse, text_value
from .describe import xml_tag

__all__ = ["FORMATTERS", "RAW_ARGUMENTS"]

#: Arguments the parser reads raw, with their start and end markers.
RAW_ARGUMENTS = {
    ("write_file", "content"): ("__START_CONTENT__", "__END_CONTENT__"),
    ("patch_file", "patch"): ("__START_PATCH__", "__END_PATCH__"),
}

#: The marker that makes any argument's value raw when the value starts with it.
GENERIC_START = "__START_CONTENT__"


def _raw_end(end_marker: str) -> re.Pattern[str]:
    # What ends a raw value in the parser: the end marker before ``</arg``, or (as if the
    # marker were missing) ``</arg>`` before ``</arguments>`` or ``</tool>``; any case.
    return re.compile(rf"{end_marker}\s*</arg|</arg\s*>\s*</(?:arguments|tool)", re.IGNORECASE)


def _check_raw(body: str, end_marker: str, key: str) -> None:
    """Refuses a raw value the parser would end before its real end."""
    written = f"{body}{end_marker}</arg>\n</arguments>"
    first = _raw_end(end_marker).search(written)
    if first is None or first.start() != len(body):
        raise refuse(
            "xml_tool",
            key,
            f"it contains {end_marker} before </arg>, or </arg> before </arguments> or "
            "</tool>, which end a raw value",
        )


def _leaf(value: Any, key: str) -> str:
    text = text_value(value)
    if text and (text[0].isspace() or text[-1].isspace()):
        raise refuse(
            "xml_tool",
            key,
            "leading or trailing whitespace is trimmed by the parser (use a syntax with raw "
            "values, such as anthropic_xml or qwen3_coder)",
        )
    escaped = escape(text)
    if escaped.startswith(GENERIC_START):
        # Read as it is, the value would open raw content; as an entity, it is text.
        escaped = "&#95;" + escaped[1:]
    return escaped


def _value(value: Any, key: str, indent: str) -> str:
    """The inside of an element holding ``value``: text, ``<item>``s or nested ``<arg>``s."""
    if isinstance(value, list) and value:
        inner = indent + "  "
        items = [f"{inner}<item>{_value(v, key, inner)}</item>" for v in value]
        return "\n" + "\n".join(items) + "\n" + indent
    if isinstance(value, Mapping) and value:
        inner = indent + "  "
        args = [
            f"{inner}<arg name={quoteattr(check_key(k, 'xml_tool'))}>{_value(v, k, inner)}</arg>"
            for k, v in value.items()
        ]
        return "\n" + "\n".join(args) + "\n" + indent
    return _leaf(value, key)


def render(name: str, arguments: Mapping[str, Any]) -> str:
    """One ``<tool>`` element."""
    name = check_name(name, "xml_tool")
    lines = [f"<tool name={quoteattr(name)}>", "<arguments>"]
    for key, value in arguments.items():
        check_key(key, "xml_tool")
        markers = RAW_ARGUMENTS.get((name.lower(), key))
        if markers:
            body = text_value(value)
            _check_raw(body, markers[1], key)
            inner = f"{markers[0]}\n{body}{markers[1]}"
        else:
            inner = _value(value, key, "")
        lines.append(f"<arg name={quoteattr(key)}>{inner}</arg>")
    return "\n".join([*lines, "</arguments>", "</tool>"])


FORMATTERS = {
    "xml_tool": Formatter(
        "xml_tool",
        render,
        xml_tag,
        "To call a tool, write one <tool> element:\n"
        '<tool name="NAME">\n<arguments>\n<arg name="KEY">VALUE</arg>\n</arguments>\n</tool>\n'
        "Values are text with &amp;, &lt; and &gt; escaped; surrounding whitespace is ignored. "
        "A list is one <item>VALUE</item> per element inside the <arg>; an object is nested "
        '<arg name="KEY"> elements. Numbers and booleans are written as text (42, true). '
        "For write_file, wrap the file in __START_CONTENT__ and __END_CONTENT__ (the text "
        "between them is kept exactly, nothing escaped); for patch_file use __START_PATCH__ "
        "and __END_PATCH__.",
    )
}
