"""``code_assistant_xml``: ``<tool:NAME>`` with one ``<param:KEY>VALUE</param:KEY>`` per
argument.

Values are raw (no entities, no trimming) except that one newline after ``<param:KEY>`` and
one before ``</param:KEY>`` are dropped, so each value is written between two newlines and
comes back exactly. The parser treats ``<tool:``, ``</tool:``, ``<param:`` and ``</param:``
inside a value as errors, so such a value raises a :class:`toolsift.FormatError`. Non-strings
are JSON text typed back by ``tools=`` (one param each, not repeated params, so a one-element
list stays a list).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Formatter, check_key, check_name, refuse, text_value
from .describe import xml_tag

__all__ = ["FORMATTERS"]

_FORBIDDEN = ("<tool:", "</tool:", "<param:", "</param:")


def render(name: str, arguments: Mapping[str, Any]) -> str:
    """One ``<tool:NAME>`` block."""
    name = check_name(name, "code_assistant_xml")
    lines = [f"<tool:{name}>"]
    for key, value in arguments.items():
        check_key(key, "code_assistant_xml")
        text = text_value(value)
        for tag in _FORBIDDEN:
            if tag in text:
                raise refuse("code_assistant_xml", key, f"the parser reads {tag} as a tag")
        lines.append(f"<param:{key}>\n{text}\n</param:{key}>")
    return "\n".join([*lines, f"</tool:{name}>"])


FORMATTERS = {
    "code_assistant_xml": Formatter(
        "code_assistant_xml",
        render,
        xml_tag,
        "To call a tool, write <tool:NAME> on its own line, then each argument as "
        "<param:KEY>, the value, </param:KEY> (tags on their own lines), then </tool:NAME>. "
        "Values are raw text, kept exactly (no escaping); lists, objects, numbers and booleans "
        "are written as JSON. A value cannot contain <tool:, </tool:, <param: or </param:.",
    )
}
