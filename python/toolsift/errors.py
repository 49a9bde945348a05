"""The exception hierarchy: every toolsift error is a ``ToolsiftError``, itself a ``ValueError``.

Errors raised by the Rust core carry the character ``offset`` in the input where the problem
was found and a short machine-readable ``reason``.
"""

from __future__ import annotations

__all__ = [
    "ArgumentsInvalidError",
    "DuplicateStrategyError",
    "DuplicateToolError",
    "FormatError",
    "JsonRepairError",
    "MissingDependencyError",
    "PatternError",
    "ScanError",
    "SkillError",
    "ToolsiftError",
    "UnknownModelError",
    "UnknownProviderError",
    "UnknownStrategyError",
    "UnknownSyntaxError",
    "UnknownToolError",
]


class ToolsiftError(ValueError):
    """Base class of every error toolsift raises.

    >>> issubclass(ToolsiftError, ValueError)
    True
    """

    def __init__(self, message: str, offset: int | None = None, reason: str = "error") -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.reason = reason


class JsonRepairError(ToolsiftError):
    """The text holds no JSON value that lenient repair can recover."""


class ScanError(ToolsiftError):
    """The JSON scanner refused the input (for example, nesting beyond ``max_depth``)."""


class PatternError(ToolsiftError):
    """A skill pattern the linear-time ``regex`` engine refuses (bad syntax, look-around or
    backreferences, which it does not support, or a compiled size over 1 MiB)."""


class UnknownSyntaxError(ToolsiftError):
    """A syntax name that toolsift does not know; the message lists the known ones."""


class UnknownToolError(ToolsiftError):
    """A call names a tool that is not among ``tools=`` while ``unknown_tools="error"``."""


class FormatError(ToolsiftError):
    """A call cannot be written in a syntax without changing what it parses back to (for
    example a value holding the syntax's own closing tag); the message says which value and
    why."""


class DuplicateToolError(ToolsiftError):
    """Two tools with the same name were given to one registry or manifest."""


class MissingDependencyError(ToolsiftError):
    """An optional feature needs a package that is not installed; the message names the extra
    to install."""


class ArgumentsInvalidError(ToolsiftError):
    """Arguments do not match a tool's JSON Schema. ``problems`` holds one
    :class:`toolsift.tools.Problem` per mistake; ``str()`` is a message meant to be sent back
    to the model."""

    def __init__(self, message: str, problems: tuple[object, ...] = ()) -> None:
        super().__init__(message, reason="invalid_arguments")
        self.problems = problems


class UnknownProviderError(ToolsiftError):
    """A provider name that is not a :class:`toolsift.providers.Provider`; the message lists
    the known ones."""


class DuplicateStrategyError(ToolsiftError):
    """A strategy registered under a name the parser already has."""


class UnknownStrategyError(ToolsiftError):
    """``unregister`` of a name the parser does not have; the message lists the ones it has."""


class SkillError(ToolsiftError):
    """An invalid skill descriptor; ``field`` names the field at fault (dotted path), the
    message says what is wrong with it."""

    def __init__(self, message: str, field: str = "", path: str = "") -> None:
        super().__init__(message, reason="invalid_skill")
        self.field = field
        self.path = path


class UnknownModelError(UnknownSyntaxError):
    """``syntax_for_model`` knows no syntax for the model name; the message lists the known
    name fragments."""
