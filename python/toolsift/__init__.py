"""toolsift: pull tool calls out of LLM output, fast.

>>> import toolsift
>>> toolsift.parse('TOOL_CALL: {"tool": "search", "params": {"q": "rust"}}').calls[0].name
'search'
>>> toolsift.lenient_loads("{'a': [1, 2,]")
{'a': [1, 2]}
"""

from __future__ import annotations

from .batch import parse_many
from .errors import (
    JsonRepairError,
    ScanError,
    ToolsiftError,
    UnknownSyntaxError,
    UnknownToolError,
)
from .model import ParseIssue, ParseResult, ToolCall
from .parsing import SYNTAXES, parse
from .repair import Repair, Repaired, lenient_loads, repair_json
from .spans import JsonSpan, OpenSpan, SpanScan, scan_json_spans
from .streaming import StreamParser

__all__ = [
    "SYNTAXES",
    "JsonRepairError",
    "JsonSpan",
    "OpenSpan",
    "ParseIssue",
    "ParseResult",
    "Repair",
    "Repaired",
    "ScanError",
    "SpanScan",
    "StreamParser",
    "ToolCall",
    "ToolsiftError",
    "UnknownSyntaxError",
    "UnknownToolError",
    "lenient_loads",
    "parse",
    "parse_many",
    "repair_json",
    "scan_json_spans",
]
