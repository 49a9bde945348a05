"""Manifests: golden files per syntax, determinism, the provider map and TOOLSIFT_SYNTAX.

Regenerate the golden files after an intended change with
``TOOLSIFT_UPDATE_GOLDEN=1 pytest tests/test_manifest.py`` and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

import pytest

import toolsift
from toolsift import FormattingRegistry, ToolDefinition
from toolsift.formatting import FORMATTERS, PROVIDER_SYNTAX

GOLDEN = Path(__file__).parent / "golden" / "manifests"


def read_file(
    path: Annotated[str, "file to read, relative to the project, e.g. `src/main.rs`"],
    start_line: int = 1,
) -> str:
    """Read a text file and return its lines."""
    return ""


WRITE_FILE = {
    "type": "function",
    "function": {
        "name": "write_file",
        "description": "Create or overwrite a file.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "where to write"},
                "content": {"type": "string", "description": "the whole file"},
            },
            "required": ["path", "content"],
        },
    },
}


def search_code(
    query: str,
    mode: Literal["text", "regex"] = "text",
    paths: list[str] | None = None,
    options: dict[str, int] | None = None,
) -> list[str]:
    """Search the code base.

    Args:
        query: what to look for, e.g. "fn main".
        paths: only under these folders.
    """
    return []


TOOLS = [read_file, WRITE_FILE, search_code]


@pytest.mark.parametrize("syntax", sorted(FORMATTERS))
def test_manifest_matches_golden_file(syntax: str) -> None:
    text = toolsift.manifest(TOOLS, syntax=syntax, environ={})
    path = GOLDEN / f"{syntax}.txt"
    if os.environ.get("TOOLSIFT_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("syntax", [s for s in toolsift.SYNTAXES if s != "think"])
def test_manifest_examples_are_what_the_parser_reads(syntax: str) -> None:
    tools = [ToolDefinition.from_function(read_file), ToolDefinition.from_openai(WRITE_FILE),
             ToolDefinition.from_function(search_code)]  # fmt: skip
    specs = [t.to_openai() for t in tools]
    text = toolsift.manifest(tools, syntax=syntax, environ={})
    examples = [s.split(":\n", 1)[1] for s in text.split("\n\n") if s.startswith("Example (")]
    assert len(examples) == 5  # write_file has only required arguments: no advanced one
    for example in examples:
        result = toolsift.parse(example, syntax, tools=specs)
        assert len(result.calls) == 1 and not result.issues, example
        call = result.calls[0]
        next(t for t in tools if t.name == call.name).validate(call.arguments)


def test_manifest_is_deterministic_and_keeps_the_given_order() -> None:
    first = toolsift.manifest(TOOLS, syntax="xml", environ={})
    assert first == toolsift.manifest(list(TOOLS), syntax="xml_tool", environ={})
    assert first.index("### read_file") < first.index("### write_file")
    assert first.index("### write_file") < first.index("### search_code")


def test_inject_manifest_appends_after_the_prompt() -> None:
    out = toolsift.inject_manifest("Be brief.\n", TOOLS, syntax="caret", environ={})
    assert out.startswith("Be brief.\n\n## Accessible Tools\n")
    assert out.endswith(toolsift.manifest(TOOLS, syntax="caret", environ={}))


def test_duplicate_tools_in_a_manifest_are_refused() -> None:
    with pytest.raises(toolsift.DuplicateToolError):
        toolsift.manifest([read_file, read_file], syntax="json")


def test_provider_defaults_and_the_environment_override() -> None:
    assert all(s in FORMATTERS for s in PROVIDER_SYNTAX.values())
    reg = FormattingRegistry()
    assert reg.syntax_for(provider="DeepSeek", environ={}) == "api_tool_call"  # its profile
    assert reg.syntax_for(provider="qwen", environ={}) == "hermes"
    assert reg.syntax_for(provider="moonshot", environ={}) == "kimi_k2"  # a family name
    assert reg.syntax_for(provider="openai", environ={"TOOLSIFT_SYNTAX": "auto"}) == (
        "api_tool_call"
    )
    assert reg.syntax_for(provider="openai", environ={"TOOLSIFT_SYNTAX": "caret, hermes"}) == (
        "caret"
    )
    for value, syntax in [("xml", "xml_tool"), ("json", "tool_call_json"),
                          ("sentinel", "sentinel"), ("api_tool_call", "api_tool_call"),
                          ("caret", "caret"), ("glm45", "glm45")]:  # fmt: skip
        env = {"TOOLSIFT_SYNTAX": value}
        assert reg.syntax_for(provider="openai", environ=env) == syntax
        assert reg.syntax_for(syntax="hermes", provider="openai", environ=env) == "hermes"
    with pytest.raises(
        toolsift.UnknownSyntaxError,
        match=r"TOOLSIFT_SYNTAX: unknown syntax 'yaml'; valid values: .*xml",
    ):
        reg.syntax_for(provider="openai", environ={"TOOLSIFT_SYNTAX": "yaml"})
    with pytest.raises(toolsift.UnknownProviderError, match=r"known providers: .*anthropic"):
        reg.syntax_for(provider="nobody", environ={})
    with pytest.raises(ValueError, match="give syntax=, provider= or model="):
        reg.syntax_for(environ={})


def test_environment_variable_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSIFT_SYNTAX", "caret")
    assert toolsift.manifest(TOOLS, provider="openai").count("^^^read_file") == 2


def test_per_tool_override_changes_only_that_tool() -> None:
    reg = FormattingRegistry()
    reg.override(
        "write_file",
        syntax="hermes",
        describe=lambda t: f"{t.name}: writes files",
        render=lambda n, a: f'<tool_call>\n{{"name": "{n}", "arguments": {{}}}}\n</tool_call>',
    )
    text = toolsift.manifest(TOOLS, syntax="hermes", registry=reg)
    assert "write_file: writes files" in text
    assert '"name": "read_file",' in text  # the others keep the JSON Schema form
    assert toolsift.format_call(toolsift.ToolCall("write_file", {"a": 1}), "hermes", registry=reg) \
        .count("{}") == 1  # fmt: skip
    assert "write_file: writes files" not in toolsift.manifest(TOOLS, syntax="json", registry=reg)


def test_format_call_rejects_unknown_syntaxes() -> None:
    with pytest.raises(toolsift.UnknownSyntaxError, match=r"valid: .*anthropic_xml"):
        toolsift.format_call(toolsift.ToolCall("f", {}), "nope")


def test_every_call_syntax_has_a_formatter_and_think_is_refused() -> None:
    assert set(toolsift.SYNTAXES) - set(FORMATTERS) == {"think"}
    assert set(FORMATTERS) <= set(toolsift.SYNTAXES)
    with pytest.raises(toolsift.FormatError, match="reasoning blocks, not tool calls"):
        toolsift.format_call(toolsift.ToolCall("f", {}), "think")


def test_manifest_for_a_model_name() -> None:
    text = toolsift.manifest(TOOLS, model="Qwen/Qwen3-Coder-30B-A3B-Instruct", environ={})
    assert text == toolsift.manifest(TOOLS, syntax="qwen3_coder")
