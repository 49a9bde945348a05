"""Tool definitions: a name, a description, an arguments JSON Schema and optional examples.

Built from an OpenAI-style tool dict, from a plain function (type hints and docstring) or from
a pydantic model (when pydantic is installed). A ``ToolRegistry`` holds several, refusing
duplicate names and listing what exists when a lookup fails.

>>> def read_file(path: str, limit: int = 100) -> str:
...     '''Read a text file.
...
...     Args:
...         path: file to read, e.g. src/main.rs
...     '''
...     return ""
>>> tool = ToolDefinition.from_function(read_file)
>>> tool.name, tool.description, tool.parameters["required"]
('read_file', 'Read a text file.', ['path'])
>>> tool.parameters["properties"]["limit"]
{'type': 'integer', 'default': 100}
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import (
    ArgumentsInvalidError,
    DuplicateToolError,
    MissingDependencyError,
    UnknownToolError,
)
from .function_schema import schema_for_function
from .validation import Problem, compile_validator, problems_in

__all__ = ["Problem", "ToolDefinition", "ToolLike", "ToolRegistry", "as_tool_definitions"]

_EMPTY: Mapping[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True, eq=False)
class ToolDefinition:
    """One tool. ``parameters`` is the JSON Schema of its arguments object; ``examples`` are
    argument objects shown to the model before the generated ones.

    Equality compares name, description, parameters and examples; definitions are immutable
    by convention (the schema dict must not be changed after construction, since the
    validator is compiled from it once and cached).
    """

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=lambda: dict(_EMPTY))
    examples: tuple[Mapping[str, Any], ...] = ()
    _validator: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a tool needs a non-empty string name, got {self.name!r}")
        object.__setattr__(self, "examples", tuple(self.examples))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolDefinition):
            return NotImplemented
        return (self.name, self.description, self.parameters, self.examples) == (
            other.name,
            other.description,
            other.parameters,
            other.examples,
        )

    __hash__ = None  # type: ignore[assignment]

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_openai(cls, tool: Mapping[str, Any]) -> ToolDefinition:
        """From ``{"type": "function", "function": {"name", "description", "parameters"}}``
        or the inner function dict. ``examples`` (a list of argument objects) is read when
        present.

        >>> ToolDefinition.from_openai({"type": "function", "function": {"name": "f"}}).name
        'f'
        """
        function = tool.get("function", tool)
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str):
            raise ValueError(f"not an OpenAI-style tool definition: {tool!r}")
        return cls(
            name=function["name"],
            description=function.get("description") or "",
            parameters=function.get("parameters") or dict(_EMPTY),
            examples=tuple(function.get("examples") or ()),
        )

    @classmethod
    def from_function(
        cls, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
    ) -> ToolDefinition:
        """From a function's signature, type hints and docstring (see
        :mod:`toolsift.function_schema` for the type mapping). The schema is built once per
        function and cached."""
        summary, schema = _function_schema(fn)
        return cls(
            name=name or fn.__name__,
            description=summary if description is None else description,
            parameters=schema,
        )

    @classmethod
    def from_pydantic(
        cls, model: type[Any], *, name: str | None = None, description: str | None = None
    ) -> ToolDefinition:
        """From a pydantic v2 model class (``model_json_schema()``, cached per class). Needs
        pydantic, which toolsift does not depend on."""
        try:
            import pydantic
        except ImportError:
            raise MissingDependencyError(
                "from_pydantic needs pydantic: pip install 'toolsift[pydantic]'",
                reason="missing_dependency",
            ) from None
        if not (isinstance(model, type) and issubclass(model, pydantic.BaseModel)):
            raise TypeError(f"from_pydantic expects a pydantic model class, got {model!r}")
        schema = dict(_pydantic_schema(model))
        summary = schema.pop("description", "")
        schema.pop("title", None)
        return cls(
            name=name or model.__name__,
            description=summary if description is None else description,
            parameters=schema,
        )

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI-style dict (``tools=`` of :func:`toolsift.parse` takes it)."""
        function: dict[str, Any] = {"name": self.name}
        if self.description:
            function["description"] = self.description
        function["parameters"] = dict(self.parameters)
        return {"type": "function", "function": function}

    # -- validation ---------------------------------------------------------------------
    def problems(self, arguments: Any) -> tuple[Problem, ...]:
        """Every mistake in ``arguments`` (empty when they are valid)."""
        if not self._validator:
            self._validator.append(compile_validator(self.parameters))
        return problems_in(self._validator[0], arguments)

    def validate(self, arguments: Any) -> None:
        """Raises :class:`toolsift.ArgumentsInvalidError` listing every mistake, in words
        meant to be sent back to the model.

        >>> tool = ToolDefinition("add", parameters={"type": "object",
        ...     "properties": {"a": {"type": "integer"}}, "required": ["a"]})
        >>> tool.validate({"a": 1})
        >>> tool.validate({"a": "one"})
        Traceback (most recent call last):
        ...
        toolsift.errors.ArgumentsInvalidError: invalid arguments for tool 'add' (1 problem):
        - $.a: expected integer, got string 'one'
        """
        found = self.problems(arguments)
        if found:
            count = f"{len(found)} problem{'s' if len(found) > 1 else ''}"
            lines = [f"- {p.path}: {p.message}" for p in found]
            message = f"invalid arguments for tool {self.name!r} ({count}):\n" + "\n".join(lines)
            raise ArgumentsInvalidError(message, found)


@functools.cache
def _function_schema(fn: Callable[..., Any]) -> tuple[str, dict[str, Any]]:
    return schema_for_function(fn)


@functools.cache
def _pydantic_schema(model: type[Any]) -> dict[str, Any]:
    schema: dict[str, Any] = model.model_json_schema()
    return schema


#: What the tool-taking functions accept: definitions, OpenAI-style dicts or functions.
ToolLike = ToolDefinition | Mapping[str, Any] | Callable[..., Any]


def _as_tool(tool: ToolLike) -> ToolDefinition:
    if isinstance(tool, ToolDefinition):
        return tool
    if isinstance(tool, Mapping):
        return ToolDefinition.from_openai(tool)
    if isinstance(tool, type) and hasattr(tool, "model_json_schema"):
        return ToolDefinition.from_pydantic(tool)
    if callable(tool):
        return ToolDefinition.from_function(tool)
    raise TypeError(f"not a tool: {tool!r} (give a ToolDefinition, a dict or a function)")


class ToolRegistry:
    """Tools by name, in the order they were added.

    >>> reg = ToolRegistry([{"name": "a"}, {"name": "b"}])
    >>> reg.get("c")
    Traceback (most recent call last):
    ...
    toolsift.errors.UnknownToolError: unknown tool 'c'; known tools: a, b
    """

    def __init__(self, tools: Iterable[ToolLike] = ()) -> None:
        self._tools: dict[str, ToolDefinition] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: ToolLike) -> ToolDefinition:
        """Adds one tool; raises :class:`toolsift.DuplicateToolError` for a taken name."""
        definition = _as_tool(tool)
        if definition.name in self._tools:
            raise DuplicateToolError(
                f"a tool named {definition.name!r} is already registered; "
                f"known tools: {', '.join(self._tools)}",
                reason="duplicate_tool",
            )
        self._tools[definition.name] = definition
        return definition

    def get(self, name: str) -> ToolDefinition:
        """The tool called ``name``; raises :class:`toolsift.UnknownToolError` listing the
        known names."""
        try:
            return self._tools[name]
        except KeyError:
            known = ", ".join(self._tools) or "none"
            raise UnknownToolError(
                f"unknown tool {name!r}; known tools: {known}", reason="unknown_tool"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[ToolDefinition]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._tools)

    def to_openai(self) -> list[dict[str, Any]]:
        """Every tool as an OpenAI-style dict (for ``tools=`` of :func:`toolsift.parse`)."""
        return [t.to_openai() for t in self]


def as_tool_definitions(tools: Iterable[ToolLike] | ToolRegistry) -> list[ToolDefinition]:
    """Definitions from any mix of what :data:`ToolLike` allows, duplicate names refused."""
    return list(tools if isinstance(tools, ToolRegistry) else ToolRegistry(tools))
