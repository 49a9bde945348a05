"""The exception hierarchy: every toolsift error is a ``ToolsiftError``, itself a ``ValueError``.

Errors raised by the Rust core carry the character ``offset`` in the input where the problem
was found and a short machine-readable ``reason``.
"""

from __future__ import annotations

__all__ = [
    "ConcurrentUseError",
    "JsonRepairError",
    "ScanError",
    "ToolsiftError",
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


class UnknownSyntaxError(ToolsiftError):
    """A syntax name that toolsift does not know; the message lists the known ones."""


class UnknownToolError(ToolsiftError):
    """A call names a tool that is not among ``tools=`` while ``unknown_tools="error"``."""


class ConcurrentUseError(ToolsiftError):
    """A ``StreamParser`` was called from a second thread while a call on it was still running.

    One parser reads one stream in order, so two threads feeding it at once is always a bug in
    the caller; the refused call changes nothing. A parser may move between threads as long as
    its calls do not overlap.
    """
