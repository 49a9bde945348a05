"""``Parser``: an ordered registry of parsing strategies.

>>> import toolsift
>>> parser = toolsift.Parser(syntax=["hermes", "api_tool_call"])
>>> parser.names
('hermes', 'api_tool_call')
>>> r = parser.parse('<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>')
>>> [(c.id, c.name) for c in r.calls], [(s.name, s.status) for s in r.strategies]
([('call_0', 'f')], [('hermes', 'found'), ('api_tool_call', 'skipped')])

Order: higher ``priority`` first; equal priorities in registration order (``prepend=True``
puts a strategy before the others of its priority). Built-ins have priority 0.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import (
    DuplicateStrategyError,
    ToolsiftError,
    UnknownStrategyError,
    UnknownToolError,
)
from .model import ParseIssue, ParseResult, StrategyRecord, ToolCall
from .providers import ENV_VAR, Provider, as_provider, resolve_syntax
from .registry_context import ParseContext, Strategy
from .schema import UNKNOWN_TOOL_POLICIES
from .strategies.native import (
    NativeSyntaxStrategy,
    builtin_strategies,
    engine_names,
    engine_options,
)
from .streaming import StreamParser

__all__ = ["ParseContext", "Parser", "Strategy"]


@dataclass(frozen=True, slots=True)
class _Batch:
    names: tuple[str, ...]
    calls: list[ToolCall]
    content: str


class Parser:
    """Runs an ordered list of strategies over a response and merges what they find.

    ``Parser()`` starts with a built-in strategy for every syntax auto-detection enables
    (``toolsift.AUTO_SYNTAXES``, in that order), then ``api_tool_call`` (which only reads
    provider objects, so it never competes with the text syntaxes). ``provider=`` starts
    from that provider's profile instead, ``syntax=`` (a name or a list) from exactly those
    syntaxes; with neither, the
    ``TOOLSIFT_SYNTAX`` environment variable narrows the default (see
    :func:`toolsift.providers.resolve_syntax`).

    ``parse`` returns every strategy's calls in strategy order, ids made unique, and a
    :class:`~toolsift.StrategyRecord` per strategy. A strategy that raises is recorded as
    ``failed`` (and a ``strategy_failed`` issue) while the others' calls are kept; with
    ``strict=True`` its exception propagates. ``unknown_tools="error"`` raises whatever
    ``strict`` says: that policy asks for an exception.
    """

    def __init__(
        self,
        *,
        provider: Provider | str | None = None,
        syntax: str | Sequence[str] | None = None,
        tools: Iterable[Mapping[str, Any]] | None = None,
        unknown_tools: str = "keep",
        strict: bool = False,
        **options: Any,
    ) -> None:
        if unknown_tools not in UNKNOWN_TOOL_POLICIES:
            raise ToolsiftError(
                f"unknown_tools must be one of {', '.join(UNKNOWN_TOOL_POLICIES)}, "
                f"not {unknown_tools!r}",
                reason="bad_option",
            )
        self.provider = as_provider(provider) if provider is not None else None
        self.tools = tuple(tools) if tools is not None else None
        self.unknown_tools = unknown_tools
        self.strict = strict
        self.options = dict(options)
        self._entries: list[tuple[int, int, Strategy]] = []
        self._seq = itertools.count()
        self._first = itertools.count(-1, -1)
        names = resolve_syntax(self.provider, syntax)
        narrowed = syntax is not None or self.provider is not None or _overridden()
        if not narrowed and "api_tool_call" not in names:
            names = (*names, "api_tool_call")
        for name in names:
            for strategy in builtin_strategies(name):
                self.register(strategy)

    # The registry ---------------------------------------------------------------------------

    def register(
        self, strategy: Strategy, *, prepend: bool = False, priority: int | None = None
    ) -> Strategy:
        """Adds ``strategy``; returns it. Raises :class:`toolsift.DuplicateStrategyError` when
        a strategy of the same name is registered already."""
        if not isinstance(strategy, Strategy):
            raise ToolsiftError(
                f"{strategy!r} is not a strategy: it needs name, supports() and parse()",
                reason="bad_strategy",
            )
        name = strategy.name
        if name in self.names:
            raise DuplicateStrategyError(
                f"a strategy named {name!r} is registered already; unregister it first "
                f"(registered: {', '.join(self.names)})",
                reason="duplicate_strategy",
            )
        if priority is None:
            priorities = [p for p, _, _ in self._entries]
            priority = max(priorities) if prepend and priorities else 0
        seq = next(self._first) if prepend else next(self._seq)
        self._entries.append((priority, seq, strategy))
        self._entries.sort(key=lambda e: (-e[0], e[1]))
        return strategy

    def unregister(self, name: str) -> Strategy:
        """Removes the strategy called ``name`` and returns it. Raises
        :class:`toolsift.UnknownStrategyError` (listing the registered names) when there is
        none."""
        for index, (_, _, strategy) in enumerate(self._entries):
            if strategy.name == name:
                del self._entries[index]
                return strategy
        raise UnknownStrategyError(
            f"no strategy named {name!r}; registered: {', '.join(self.names) or '(none)'}",
            reason="unknown_strategy",
        )

    @property
    def strategies(self) -> tuple[Strategy, ...]:
        """The strategies, in the order they run."""
        return tuple(s for _, _, s in self._entries)

    @property
    def names(self) -> tuple[str, ...]:
        """The strategies' names, in the order they run."""
        return tuple(s.name for _, _, s in self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def context(self, **options: Any) -> ParseContext:
        """The context strategies receive (``options`` added to the parser's own)."""
        return ParseContext(
            self.provider,
            self.tools,
            self.unknown_tools,
            self.names,
            {**self.options, **options},
        )

    # Parsing --------------------------------------------------------------------------------

    def parse(self, response: Any, **options: Any) -> ParseResult:
        """Runs every strategy that supports ``response``; see the class docs."""
        context = self.context(**options)
        records: dict[str, StrategyRecord] = {}
        merged = ParseResult()
        content: str | None = None
        batch = self._run_batch(response, context, records, merged)
        if batch is not None:
            content = batch.content
        for strategy in self.strategies:
            name = strategy.name
            if name in records:
                continue
            try:
                if not strategy.supports(response, context):
                    records[name] = StrategyRecord(name, "skipped")
                    continue
                result = _run(strategy, response, context)
            except Exception as err:
                self._failed(name, err, records, merged)
                continue
            status = "found" if result.calls else "nothing"
            records[name] = StrategyRecord(name, status, tuple(result.calls))
            merged.issues += result.issues
            if content is None and result.content:
                content = result.content
        merged.strategies = [records[n] for n in self.names]
        calls: list[ToolCall] = []
        for record in merged.strategies:
            if batch is None or record.name not in batch.names:
                calls += record.calls
            elif record.name == batch.names[0]:
                calls += batch.calls  # the one engine pass's calls, in text order
        merged.calls = _unique(calls)
        if content is None:
            content = response if isinstance(response, str) else ""
        merged.content = content
        return merged

    def _failed(
        self, name: str, err: Exception, records: dict[str, StrategyRecord], merged: ParseResult
    ) -> None:
        if self.strict or isinstance(err, UnknownToolError):
            raise err
        message = f"{type(err).__name__}: {err}"
        records[name] = StrategyRecord(name, "failed", error=err, message=message)
        merged.issues.append(ParseIssue(name, (0, 0), "strategy_failed", message))

    def _run_batch(
        self,
        response: Any,
        context: ParseContext,
        records: dict[str, StrategyRecord],
        merged: ParseResult,
    ) -> _Batch | None:
        """All built-in text syntaxes in one engine pass (with all of auto-detection's members
        present, as ``auto``, so its arbitration applies); ``None`` when fewer than two apply.
        On an error the caller runs them one by one, so the failure is pinned to its syntax."""
        batch = [
            s
            for s in self.strategies
            if type(s) is NativeSyntaxStrategy and s.supports(response, context)
        ]
        if len(batch) < 2:
            return None
        from .parsing import parse as parse_text

        try:
            syntaxes = engine_names([s.syntax for s in batch])
            result = parse_text(response, syntaxes, **engine_options(context))
        except UnknownToolError:
            raise
        except Exception:
            return None
        for strategy in batch:
            found = tuple(c for c in result.calls if c.syntax == strategy.syntax)
            records[strategy.name] = StrategyRecord(
                strategy.name, "found" if found else "nothing", found
            )
        merged.issues += result.issues
        return _Batch(tuple(s.name for s in batch), result.calls, result.content)

    def stream(self, **options: Any) -> StreamParser:
        """A :class:`toolsift.StreamParser` over this parser's built-in strategies, in order.

        Strategies written in Python (user strategies, skills) read whole responses only; a
        parser holding any raises :class:`toolsift.ToolsiftError` naming them unless
        ``batch_only="skip"`` is given, which leaves them out of the stream.
        """
        skip = options.pop("batch_only", "error") == "skip"
        names = [s.name for s in self.strategies if getattr(s, "streamable", False)]
        others = [n for n in self.names if n not in names]
        if others and not skip:
            raise ToolsiftError(
                f"strategies {', '.join(others)} cannot stream; pass batch_only='skip' to "
                "stream without them",
                reason="not_streamable",
            )
        if not names:
            raise ToolsiftError("no streamable strategy is registered", reason="not_streamable")
        context = self.context(**options)
        kwargs = {k: v for k, v in engine_options(context).items() if k in _STREAM_OPTIONS}
        kwargs.update({k: v for k, v in options.items() if k in ("keep_result", "previews")})
        return StreamParser(engine_names(names), **kwargs)


def _overridden() -> bool:
    return bool(os.environ.get(ENV_VAR, "").strip())


_STREAM_OPTIONS = ("marker", "max_payload_chars", "tools", "unknown_tools")


def _run(strategy: Strategy, response: Any, context: ParseContext) -> ParseResult:
    parse_result = getattr(strategy, "parse_result", None)
    if callable(parse_result):
        result = parse_result(response, context)
        if not isinstance(result, ParseResult):
            raise TypeError(f"parse_result returned {type(result).__name__}, not ParseResult")
        return result
    calls = strategy.parse(response, context)
    if not isinstance(calls, list) or not all(isinstance(c, ToolCall) for c in calls):
        raise TypeError(f"parse returned {type(calls).__name__}, not a list of ToolCall")
    return ParseResult(calls)


def _unique(calls: list[ToolCall]) -> list[ToolCall]:
    """Drops a call that repeats an earlier one at the same place in the text (two strategies
    reading the same markup) and gives every call a distinct id: a missing or repeated id
    becomes the next free ``call_N``."""
    seen_places: set[tuple[str, tuple[int, int], str]] = set()
    kept: list[ToolCall] = []
    for call in calls:
        if call.raw and call.span != (0, 0):
            place = (call.name, call.span, call.raw)
            if place in seen_places:
                continue
            seen_places.add(place)
        kept.append(call)
    taken = {c.id for c in kept if c.id}
    used: set[str] = set()
    unique: list[ToolCall] = []
    counter = itertools.count()
    for call in kept:
        if not call.id or call.id in used:
            fresh = f"call_{next(counter)}"
            while fresh in taken or fresh in used:
                fresh = f"call_{next(counter)}"
            call = replace(call, id=fresh)
        used.add(call.id)
        unique.append(call)
    return unique
