"""``ParseContext`` and the ``Strategy`` protocol: what a :class:`toolsift.Parser` strategy
receives and must provide. Kept apart from the registry so strategies can import them without
importing the parser."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .model import ToolCall

__all__ = ["ParseContext", "Strategy"]


@dataclass(frozen=True, slots=True)
class ParseContext:
    """What a strategy knows besides the response: the ``provider`` (a
    :class:`toolsift.providers.Provider` or ``None``), the ``tools`` definitions and their
    ``unknown_tools`` policy, the enabled strategy names (``enabled``) and free ``options``
    (engine options such as ``marker``, and anything a user strategy wants)."""

    provider: Any = None
    tools: tuple[Mapping[str, Any], ...] | None = None
    unknown_tools: str = "keep"
    enabled: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Strategy(Protocol):
    """A way of finding tool calls in a response.

    ``supports`` says whether the strategy can read ``response`` (text, or a provider object);
    ``parse`` returns the calls it found. A strategy may also define
    ``parse_result(response, context) -> ParseResult`` to report content and issues, and
    ``streamable = True`` when :meth:`toolsift.Parser.stream` can run it (built-ins only).
    """

    @property
    def name(self) -> str: ...

    def supports(self, response: Any, context: ParseContext) -> bool: ...

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]: ...
