"""``StreamParser``: incremental tool-call extraction over the Rust engine.

>>> from toolsift.events import ArgumentDelta
>>> p = StreamParser("hermes")
>>> [type(e).__name__ for e in p.feed('Sure.<tool_call>{"name": "f", "arguments": {"q": "hel')]
['SegmentStart', 'TextDelta', 'SegmentEnd', 'SegmentStart', 'ArgumentDelta', 'ArgumentsJsonDelta']
>>> [(e.key, e.text) for e in p.feed('lo"}}</tool_call>') if isinstance(e, ArgumentDelta)]
[('q', 'lo')]
>>> p.finish()
[]
>>> p.result().calls[0].arguments
{'q': 'hello'}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import orjson

from . import _native
from ._call_reshape import DEEPSEEK_DSML, UNWRAPPED_ARGUMENTS, unwrap_untyped
from ._json_text import dumps_json
from .errors import ToolsiftError
from .events import Event, SegmentEnd, TextDelta
from .model import ParseIssue, ParseResult, ToolCall
from .schema import UNKNOWN_TOOL_POLICIES, ToolSchemas, type_call
from .strategies.api_shapes import API_TOOL_CALL
from .strategies.api_stream import ApiCallStream

__all__ = ["DEFAULT_LIMITS", "ENGINE_SYNTAXES", "StreamParser"]

#: Syntaxes the streaming engine runs.
ENGINE_SYNTAXES: tuple[str, ...] = tuple(_native.NativeStream.syntax_names())

#: The default resource limits (``0`` passed for one disables it).
DEFAULT_LIMITS: dict[str, int] = dict(
    zip(
        ("max_depth", "max_call_bytes", "max_segment_bytes", "max_calls"),
        _native.NativeStream.default_limits(),
        strict=True,
    )
)


def _limit(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ToolsiftError(
            f"{name} must be a non-negative int (0 for no limit), not {value!r}",
            reason="bad_option",
        )
    return value


class StreamParser(_native.StreamCore):
    """Feeds chunks of model output and returns the events each chunk completes.

    ``syntax`` is one name or several (enabled at once); without it, the ``TOOLSIFT_SYNTAX``
    environment variable chooses, else the auto-detection list. The result is the same however the
    text is split. With ``api_tool_call`` among them, ``feed`` also takes provider stream
    chunks (dicts or SDK objects; see :mod:`toolsift.strategies.api_stream`) and gives the same
    events for their calls; text chunks go to the other syntaxes (or, when ``api_tool_call`` is
    the only one, are read as the JSON text of a chunk). ``result()`` gathers the calls,
    issues and content seen so far; pass ``keep_result=False`` to keep only the open segment
    in memory.

    ``previews=False`` skips the argument deltas (``ArgumentDelta``, ``ArgumentsJsonDelta``)
    when only the calls matter. ``marker`` and ``max_payload_chars`` configure
    ``tool_call_json`` (defaults ``"TOOL_CALL"`` and 8000; 0 means no
    limit).

    ``tools`` (OpenAI-style definitions) types text values by each tool's JSON Schema and
    applies ``unknown_tools`` to calls of other names: ``"keep"`` (the default: keep the call
    and add an ``unknown_tool`` issue), ``"drop"`` (no call, an issue) or ``"error"`` (raise
    :class:`toolsift.UnknownToolError`). Some syntaxes read a call against the schemas first
    (:mod:`toolsift._call_reshape`): a ``kimi_k2`` call with a bare id (``call_3``) is named
    after the one tool its arguments fit, ``code_assistant_xml``/``caret`` names follow the
    schema's singular or plural, a ``deepseek_dsml`` ``arguments``/``input`` wrapper is
    unwrapped (an ``arguments`` object is, even without ``tools``). The call's ``repairs``
    say when its name or wrapper was read so (``name_from_arguments``,
    ``unwrapped_arguments``).

    Resource limits (defaults in :data:`DEFAULT_LIMITS`; ``0`` disables one; each exceeded
    limit ends the segment with a ``limit_exceeded`` issue, never a silently dropped call):
    ``max_depth`` (nesting of a call's arguments, default 1000), ``max_call_bytes`` (a call's
    arguments JSON, default 16 MiB), ``max_segment_bytes`` (what one open segment may buffer,
    default 32 MiB: past it the segment is abandoned and what follows is read as text, so a
    stream's memory stays bounded when an end marker never comes) and ``max_calls`` (calls per
    stream, default 10,000; later calls become issues).

    One parser serves one stream. It may move between threads, but calls on it must not
    overlap: a call made while another thread is inside ``feed``, ``finish``, ``reset``,
    ``result`` or ``parse_all`` raises :class:`toolsift.ConcurrentUseError` and changes
    nothing. Separate parsers share no state and run in parallel threads freely.
    """

    def __init__(
        self,
        syntax: str | Sequence[str] | None = None,
        *,
        tools: Iterable[Mapping[str, Any]] | None = None,
        unknown_tools: str = "keep",
        keep_result: bool = True,
        marker: str | None = None,
        max_payload_chars: int | None = None,
        previews: bool = True,
        max_depth: int | None = None,
        max_call_bytes: int | None = None,
        max_segment_bytes: int | None = None,
        max_calls: int | None = None,
    ) -> None:
        if unknown_tools not in UNKNOWN_TOOL_POLICIES:
            raise ToolsiftError(
                f"unknown_tools must be one of {', '.join(UNKNOWN_TOOL_POLICIES)}, "
                f"not {unknown_tools!r}",
                reason="bad_option",
            )
        if syntax is None:
            from .providers.override import resolve_syntax

            syntax = resolve_syntax()
        self._syntaxes = [syntax] if isinstance(syntax, str) else list(syntax)
        text_syntaxes = [s for s in self._syntaxes if s != API_TOOL_CALL]
        self._api = ApiCallStream(previews=previews) if API_TOOL_CALL in self._syntaxes else None
        options = (marker, max_payload_chars, max_depth, max_call_bytes, max_segment_bytes)
        self._schemas = ToolSchemas(tools) if tools is not None else None
        # The bare-JSON syntaxes read a name-only object as a call when it names one of the
        # tools (SYNTAXES.md, json_gemini); the engine is told the names.
        # qwen3_coder also needs each tool's parameter names (see ``ToolSchemas.known``).
        self._known_tools = self._schemas.known() if self._schemas is not None else []
        if not text_syntaxes and self._api is not None:
            self._native = None
        elif previews and max_calls is None and options == (None,) * 5 and not self._known_tools:
            # The common case, without keyword arguments to convert: a parser per response
            # is made often, for a few hundred chunks each.
            self._native = _native.NativeStream(text_syntaxes)
        else:
            self._native = _native.NativeStream(
                text_syntaxes,
                marker=marker,
                max_payload_chars=max_payload_chars,
                previews=previews,
                max_depth=_limit("max_depth", max_depth),
                max_call_bytes=_limit("max_call_bytes", max_call_bytes),
                max_segment_bytes=_limit("max_segment_bytes", max_segment_bytes),
                max_calls=_limit("max_calls", max_calls),
                known_tools=self._known_tools,
            )
        # Without a schema, deepseek_dsml's ``arguments`` wrapper is still read (see
        # ``_call_reshape``): the calls of a syntax list that may hold it are looked at.
        self._unwraps = self._schemas is None and bool({DEEPSEEK_DSML, "auto"} & set(text_syntaxes))
        self._unknown_tools = unknown_tools
        self._keep = keep_result
        self._calls: list[ToolCall] = []
        self._issues: list[ParseIssue] = []
        # Text chunks are read by ``_native.StreamCore.feed`` (in Rust: the per-chunk path),
        # which gathers the content and calls ``_end`` for segment ends; other chunks come to
        # ``_feed``.
        self._content: list[str] = []
        self._bind(self._native, keep_result)

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        # Never blocks: an overlapping call is a caller bug, reported at once (as ``feed``
        # does, on the same flag) with ConcurrentUseError.
        self._acquire()
        try:
            yield
        finally:
            self._release()

    if TYPE_CHECKING:

        def feed(self, chunk: Any) -> list[Event]:
            """Consumes ``chunk``; returns the events it produced."""

    def _feed(self, chunk: Any) -> list[Event]:
        # What ``feed`` does not read itself: provider chunks, or text with no text syntax.
        if self._api is not None and (self._native is None or not isinstance(chunk, str)):
            if isinstance(chunk, (str, bytes)):
                chunk = _chunk_json(chunk)
            return self._convert_api(self._api.feed(chunk))
        raise ToolsiftError(
            f"feed takes text (got {type(chunk).__name__}); provider chunks need "
            f"syntax={API_TOOL_CALL!r}",
            reason="bad_chunk",
        )

    def _gather_content(self) -> None:
        # The engine gathers text content; it joins ``_content`` before any provider text.
        if self._native is not None:
            text = self._native.take_content()
            if text:
                self._content.append(text)

    def finish(self) -> list[Event]:
        """Ends the stream: flushes held-back text and closes any open segment."""
        self._acquire()  # as ``_exclusive``, without a generator per call
        try:
            return self._finish()
        finally:
            self._release()

    def _finish(self) -> list[Event]:
        events: list[Event] = self._finish_engine()
        if self._api is not None:
            events += self._convert_api(self._api.finish())
        return events

    def reset(self) -> None:
        """Forgets the stream so the parser can read another."""
        self._acquire()  # as ``_exclusive``, without a generator per call
        try:
            self._reset()
        finally:
            self._release()

    def _reset(self) -> None:
        if self._native is not None:
            self._native.reset()
        if self._api is not None:
            self._api.reset()
        self._calls, self._issues, self._content = [], [], []

    def result(self) -> ParseResult:
        """The calls, issues and content of everything fed so far."""
        self._acquire()  # as ``_exclusive``, without a generator per call
        try:
            return self._result()
        finally:
            self._release()

    def _result(self) -> ParseResult:
        self._gather_content()
        return ParseResult(list(self._calls), "".join(self._content), list(self._issues))

    def _convert_api(self, events: list[Event]) -> list[Event]:
        # Provider calls arrive as finished ``ToolCall``s: only the tools policy and the
        # result bookkeeping remain, the same as for a text syntax's calls.
        for index, event in enumerate(events):
            if isinstance(event, TextDelta):
                if self._keep and event.segment_id.startswith("text_"):
                    self._gather_content()
                    self._content.append(event.text)
            elif isinstance(event, SegmentEnd) and (event.call or event.issue):
                events[index] = self._api_end(event)
        return events

    def _api_end(self, end: SegmentEnd) -> SegmentEnd:
        call, issues = end.call, [end.issue] if end.issue else []
        if call is not None and self._schemas is not None:
            typed = type_call(
                call.name, call.arguments, call.arguments_json, self._schemas, self._unknown_tools
            )
            call.arguments, call.arguments_json = typed.arguments, typed.arguments_json
            issues += [ParseIssue(API_TOOL_CALL, (0, 0), k, m) for k, m in typed.problems]
            call = call if typed.keep else None
        if self._keep:
            self._calls += [call] if call is not None else []
            self._issues += issues
        return SegmentEnd(end.segment_id, call, issues[0] if issues else None)

    def parse_all(self, text: str) -> ParseResult:
        """One-shot: the result of feeding all of ``text`` and finishing, without building the
        delta events (the parser is reset afterwards). Used by :func:`toolsift.parse`."""
        with self._exclusive():
            return self._parse_all(text)

    def _parse_all(self, text: str) -> ParseResult:
        if self._native is None:
            raise ToolsiftError("parse_all reads text syntaxes only", reason="bad_option")
        built = self._schemas is None
        try:
            native = self._native.parse_all(text, built)
        except UnicodeEncodeError:
            native = self._native.parse_all(text, built, lossy=True)
        return self._result_of(*native, built=built)

    def _result_of(
        self,
        content: str,
        calls: list[Any],
        issues: list[ParseIssue],
        *,
        built: bool = False,
    ) -> ParseResult:
        """The result of one native one-shot parse ``(content, calls, issues)``, built as
        ``_end`` builds it event by event (the batch API builds its results here too; a test
        holds this equal to the streaming path). Kept lean: in a batch it runs once per text
        while the GIL is held, so it bounds how far more workers help. ``issues`` are already
        ``ParseIssue``s in order; each call says how many of them come before the issues its
        typing by ``tools`` adds (see ``_native``'s ``pyoneshot``). ``built``: the calls are
        ``ToolCall``s already (``parse_all`` asked for them, having no schema to apply)."""
        if not self._keep:
            return ParseResult([], content, [])
        if built:
            if self._unwraps:
                unwrap_calls(calls)
            return ParseResult(calls, content, issues)
        schemas = self._schemas
        found: list[ToolCall] = []
        if schemas is None:
            for syntax, sid, name, arguments, repairs, start, end, raw, exact, _ in calls:
                args = _load_arguments(arguments, exact)
                found.append(
                    ToolCall(name, args, sid, syntax, (start, end), raw, repairs, arguments)
                )
            if self._unwraps:
                unwrap_calls(found)
            return ParseResult(found, content, issues)
        merged: list[ParseIssue] = []
        taken = 0
        for syntax, sid, name, arguments, repairs, start, end, raw, exact, before in calls:
            merged += issues[taken:before]
            taken = before
            args = _load_arguments(arguments, exact)
            typed = type_call(
                name, args, arguments, schemas, self._unknown_tools, syntax=syntax, raw=raw
            )
            merged += [ParseIssue(syntax, (start, end), k, m) for k, m in typed.problems]
            if typed.keep:
                name, args, arguments = typed.name, typed.arguments, typed.arguments_json
                repairs = (*repairs, *typed.repairs) if typed.repairs else repairs
                found.append(
                    ToolCall(name, args, sid, syntax, (start, end), raw, repairs, arguments)
                )
        merged += issues[taken:]
        return ParseResult(found, content, merged)

    def _end(
        self,
        sid: str,
        call: Any,
        issue: Any,
        syntax: str,
        arguments_utf8: bytes | None = None,
    ) -> SegmentEnd:
        # Called by ``_native.StreamCore`` for each end with a call or an issue; with a call, it
        # also hands over the arguments as UTF-8 (and the call tuple says whether they hold a
        # long digit run), so a large call's text is neither encoded nor scanned again here.
        tool_call = None
        issues: list[ParseIssue] = []
        if issue is not None:
            kind, message, start, end = issue
            issues.append(ParseIssue(syntax, (start, end), kind, message))
        if call is not None:
            name, arguments, repairs, start, end, raw, exact = call
            args = _load_arguments(arguments if arguments_utf8 is None else arguments_utf8, exact)
            keep = True
            repairs = tuple(repairs)
            if self._schemas is not None:
                typed = type_call(
                    name,
                    args,
                    arguments,
                    self._schemas,
                    self._unknown_tools,
                    syntax=syntax,
                    raw=raw,
                )
                keep, name, args = typed.keep, typed.name, typed.arguments
                arguments, repairs = typed.arguments_json, repairs + typed.repairs
                issues += [ParseIssue(syntax, (start, end), k, m) for k, m in typed.problems]
            if keep:
                tool_call = ToolCall(name, args, sid, syntax, (start, end), raw, repairs, arguments)
                if self._unwraps:
                    unwrap_calls((tool_call,))
                if self._keep:
                    self._calls.append(tool_call)
        if self._keep:
            self._issues += issues
        return SegmentEnd(sid, tool_call, issues[0] if issues else None)


def unwrap_calls(calls: Iterable[ToolCall]) -> None:
    """Reads each deepseek_dsml call (read without a schema) whose one parameter
    ``arguments`` holds an object as that object (see ``_call_reshape``)."""
    for call in calls:
        if call.syntax == DEEPSEEK_DSML:
            inner = unwrap_untyped(call.syntax, call.arguments)
            if inner is not None:
                call.arguments, call.arguments_json = inner, dumps_json(inner)
                call.repairs = (*call.repairs, UNWRAPPED_ARGUMENTS)


def _load_arguments(arguments: str | bytes, exact: bool) -> dict[str, Any]:
    # orjson turns integers beyond 64 bits into floats and stops at 1024 levels of nesting
    # (reachable with max_depth raised); the exact reader keeps big integers and has no
    # recursion. ``exact``: the engine found a run of 19+ digits in the arguments.
    if exact:
        return _native.loads_exact(arguments)  # type: ignore[return-value]
    try:
        return orjson.loads(arguments)  # type: ignore[no-any-return]
    except orjson.JSONDecodeError:
        return _native.loads_exact(arguments)  # type: ignore[return-value]


def _chunk_json(chunk: str | bytes) -> Any:
    try:
        return orjson.loads(chunk)
    except orjson.JSONDecodeError as err:
        raise ToolsiftError(
            f"api_tool_call chunks are provider objects or their JSON text: {err}",
            reason="bad_chunk",
        ) from None
