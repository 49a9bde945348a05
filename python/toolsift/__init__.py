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
    ArgumentsInvalidError,
    ConcurrentUseError,
    DuplicateStrategyError,
    DuplicateToolError,
    FormatError,
    JsonRepairError,
    MissingDependencyError,
    PatternError,
    ScanError,
    SkillError,
    ToolsiftError,
    UnknownModelError,
    UnknownProviderError,
    UnknownStrategyError,
    UnknownSyntaxError,
    UnknownToolError,
)
from .formatting import FormattingRegistry, format_call, format_calls
from .manifest import inject_manifest, manifest
from .model import ParseIssue, ParseResult, StrategyRecord, ToolCall
from .models import MODEL_SYNTAXES, syntax_for_model
from .parsing import AUTO, AUTO_SYNTAXES, SYNTAXES, parse
from .providers import Provider, resolve_syntax
from .registry import ParseContext, Parser, Strategy
from .repair import Repair, Repaired, lenient_loads, repair_json
from .spans import JsonSpan, OpenSpan, SpanScan, scan_json_spans
from .streaming import DEFAULT_LIMITS, StreamParser
from .tools import ToolDefinition, ToolRegistry

__all__ = [
    "AUTO",
    "AUTO_SYNTAXES",
    "DEFAULT_LIMITS",
    "MODEL_SYNTAXES",
    "SYNTAXES",
    "ArgumentsInvalidError",
    "ConcurrentUseError",
    "DuplicateStrategyError",
    "DuplicateToolError",
    "FormatError",
    "FormattingRegistry",
    "JsonRepairError",
    "JsonSpan",
    "MissingDependencyError",
    "OpenSpan",
    "ParseContext",
    "ParseIssue",
    "ParseResult",
    "Parser",
    "PatternError",
    "Provider",
    "Repair",
    "Repaired",
    "ScanError",
    "SkillError",
    "SpanScan",
    "Strategy",
    "StrategyRecord",
    "StreamParser",
    "ToolCall",
    "ToolDefinition",
    "ToolRegistry",
    "ToolsiftError",
    "UnknownModelError",
    "UnknownProviderError",
    "UnknownStrategyError",
    "UnknownSyntaxError",
    "UnknownToolError",
    "format_call",
    "format_calls",
    "inject_manifest",
    "lenient_loads",
    "manifest",
    "parse",
    "parse_many",
    "repair_json",
    "resolve_syntax",
    "scan_json_spans",
    "syntax_for_model",
]
