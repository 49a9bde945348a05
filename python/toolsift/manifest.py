"""Tool manifests: the "Accessible Tools" section of a system prompt.

A manifest is the syntax's usage rules, then for each tool (in the order given) its schema in
the syntax's idiom and its examples rendered exactly as the parser reads them. The text
depends only on the tools and the syntax (no clock, no set or hash order), so prompts that
include it cache well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .formatting import DEFAULT_REGISTRY, FormattingRegistry, example_arguments
from .tools import ToolLike, ToolRegistry, as_tool_definitions

__all__ = ["inject_manifest", "manifest"]

HEADING = "## Accessible Tools"


def manifest(
    tools: Iterable[ToolLike] | ToolRegistry,
    *,
    syntax: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    registry: FormattingRegistry | None = None,
    examples: bool = True,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The "Accessible Tools" section for ``tools`` (``ToolDefinition``s, OpenAI-style dicts,
    plain functions or pydantic models) in ``syntax``, or in ``provider``'s default syntax, or
    in the syntax ``model`` writes (:func:`toolsift.syntax_for_model`). ``TOOLSIFT_SYNTAX``
    overrides the provider's or model's default (an explicit ``syntax`` wins).

    >>> def read_file(path: str) -> str:
    ...     '''Read a file.'''
    ...     return ""
    >>> text = manifest([read_file], syntax="caret")
    >>> print(text[text.index("### read_file") :])
    ### read_file
    <BLANKLINE>
    read_file: Read a file.
      - path (string, required)
    <BLANKLINE>
    Example (basic):
    ^^^read_file
    path: path value
    ^^^
    <BLANKLINE>
    """
    reg = registry or DEFAULT_REGISTRY
    name = reg.syntax_for(syntax=syntax, provider=provider, model=model, environ=environ)
    definitions = as_tool_definitions(tools)
    parts = [HEADING, reg.formatter(name).rules]
    for tool in definitions:
        formatter = reg.formatter(name, tool.name)
        parts += [f"### {tool.name}", formatter.describe(tool)]
        if examples:
            for label, arguments in example_arguments(tool):
                parts.append(f"Example ({label}):\n{formatter.render(tool.name, arguments)}")
    return "\n\n".join(parts) + "\n"


def inject_manifest(
    system_prompt: str,
    tools: Iterable[ToolLike] | ToolRegistry,
    *,
    syntax: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    registry: FormattingRegistry | None = None,
    examples: bool = True,
    environ: Mapping[str, str] | None = None,
) -> str:
    """``system_prompt`` with the manifest appended after one blank line.

    >>> inject_manifest("You are helpful.", [], syntax="json").splitlines()[:3]
    ['You are helpful.', '', '## Accessible Tools']
    """
    text = manifest(
        tools,
        syntax=syntax,
        provider=provider,
        model=model,
        registry=registry,
        examples=examples,
        environ=environ,
    )
    head = system_prompt.rstrip("\n")
    return f"{head}\n\n{text}" if head else text
