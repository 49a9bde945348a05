"""``parse``: one entry point for every syntax toolsift reads."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import _native
from .errors import ToolsiftError, UnknownSyntaxError
from .model import ParseIssue, ParseResult
from .providers.override import ENV_VAR, resolve_syntax
from .schema import ToolSchemas, type_call
from .strategies.api_response import read_response
from .strategies.api_shapes import API_TOOL_CALL
from .streaming import ENGINE_SYNTAXES, StreamParser, unwrap_calls

__all__ = ["AUTO", "AUTO_SYNTAXES", "SYNTAXES", "ParseRequest", "checked_names", "parse"]


def _engine_id(call_id: str) -> bool:
    """Whether ``call_id`` is one the engine made (``call_N``), not one the text gave (Kimi's
    ``functions.NAME:IDX``, Mistral's ``[CALL_ID]``): ``id_prefix`` renames only these."""
    number = call_id.removeprefix("call_")
    return number != call_id and number.isdigit()


def _first_call_only(text: str, result: ParseResult) -> ParseResult:
    """The single-call contract of the original TOOL_CALL parser: the first call, with the
    text of the later calls back in the content."""
    first = result.calls[0]
    content = text[: first.span[0]] + text[first.span[1] :]
    issues = [i for i in result.issues if i.span[0] <= first.span[0]]
    return ParseResult([first], content, issues)


TOOL_CALL_JSON = "tool_call_json"

#: The syntax names ``parse`` accepts (besides :data:`AUTO`).
SYNTAXES: tuple[str, ...] = tuple(sorted((*ENGINE_SYNTAXES, API_TOOL_CALL)))

#: The name that enables auto-detection.
AUTO = "auto"

#: The syntaxes ``syntax="auto"`` runs, in the order they win a tie, and so the values
#: ``ToolCall.syntax`` can take under it. Left out: the bare-JSON syntaxes (``json_openai``,
#: ``json_gemini``, ``json_default``, ``xlam``); ``llama3_json``, ``pythonic`` and
#: ``tool_call_json`` take part only through their special markers (``<|python_tag|>``,
#: ``<|python_start|>``, ``TOOL_CALL``), since a bare ``{`` or ``[`` is prose too.
AUTO_SYNTAXES: tuple[str, ...] = tuple(_native.NativeStream.auto_syntax_names())


def _override() -> bool:
    return bool(os.environ.get(ENV_VAR, "").strip())


def _parse_api(response: Any, options: dict[str, Any]) -> ParseResult:
    """A whole provider response, with the same ``tools`` policy as text syntaxes."""
    tools = options.pop("tools", None)
    unknown_tools = options.pop("unknown_tools", "keep")
    result = read_response(
        response, choice=int(options.pop("choice", 0)), id_prefix=options.pop("id_prefix", "call_")
    )
    if options.pop("first_only", False):
        result.calls = result.calls[:1]
    if tools is not None:
        schemas, kept = ToolSchemas(tools), []
        for call in result.calls:
            typed = type_call(
                call.name, call.arguments, call.arguments_json, schemas, unknown_tools
            )
            call.arguments, call.arguments_json = typed.arguments, typed.arguments_json
            result.issues += [ParseIssue(API_TOOL_CALL, (0, 0), k, m) for k, m in typed.problems]
            kept += [call] if typed.keep else []
        result.calls = kept
    return result


def _parse(text: Any, syntax: str | Sequence[str] | None = None, **options: Any) -> ParseResult:
    """The Python implementation of :func:`parse`, which hands it every call but the common
    one it answers itself (see ``_fast_for``)."""
    if syntax is None and not _override():
        # The default syntax takes the cached request too (the builtin cannot keep this
        # call's parser: ``TOOLSIFT_SYNTAX`` may be set before the next one).
        syntax = TOOL_CALL_JSON
    if type(text) is str and type(syntax) is str:
        request = _known_request(syntax, options)
        if request is not None:
            try:
                return request.fast(text)
            except UnicodeEncodeError:  # lone surrogates: only ``run`` reads them
                return request.run(text)
    names = checked_names(syntax)
    if API_TOOL_CALL in names:
        if not isinstance(text, str) or names == [API_TOOL_CALL]:
            return _parse_api(text, options)
        names.remove(API_TOOL_CALL)
    return _request(names, options).run(text)


def _fast_for(syntax: str, options: dict[str, Any]) -> Callable[[str], ParseResult] | None:
    """What :func:`parse` calls for a ``str`` with this one syntax name and these options
    (raising ``UnicodeEncodeError`` for lone surrogates, which ``_parse`` then reads), or
    ``None`` when ``_parse`` must answer every such call."""
    request = _known_request(syntax, options)
    return None if request is None else request.fast


if TYPE_CHECKING:

    def parse(text: Any, syntax: str | Sequence[str] | None = None, **options: Any) -> ParseResult:
        """Extracts the tool calls of one syntax from ``text`` (the native builtin's
        docstring, ``_native.parse``, is the documentation)."""

else:
    # A builtin (see ``rust/toolsift-python/src/pyparse.rs`` for why): it answers the common
    # call itself and hands the others to ``_parse``. Its ``__module__`` is this module, so
    # doctest finds its example here.
    parse = _native.parse


_cache = threading.local()


def _known_request(syntax: str, options: dict[str, Any]) -> ParseRequest | None:
    """The cached request of a single text syntax with these (hashable) options, made on first
    use; ``None`` when the options cannot be a key or the syntax is ``api_tool_call``."""
    try:
        key = (syntax, *options.items())
        return _cache.by_syntax[key]  # type: ignore[no-any-return]
    except (AttributeError, KeyError, TypeError):
        pass
    if syntax == API_TOOL_CALL:
        return None
    try:
        hash(key)
    except TypeError:  # tools=[...] and other container options
        return None
    by_syntax: dict[Any, ParseRequest] | None = getattr(_cache, "by_syntax", None)
    if by_syntax is None or len(by_syntax) >= 64:
        by_syntax = _cache.by_syntax = {}
    request = by_syntax[key] = _request(checked_names(syntax), options)
    return request


def _request(names: list[str], options: dict[str, Any]) -> ParseRequest:
    """The ``ParseRequest`` for these names and options, reused per thread when the options are
    plain values (an engine costs a few microseconds to build, as much as parsing a short
    reply). Per thread, because one engine serves one parse at a time."""
    key = (tuple(names), tuple(sorted(options.items())))
    try:
        hash(key)
    except TypeError:  # tools=[...] and other container options: build afresh
        return ParseRequest(names, options)
    requests: dict[Any, ParseRequest] | None = getattr(_cache, "requests", None)
    if requests is None:
        requests = _cache.requests = {}
    request = requests.get(key)
    if request is None:
        if len(requests) >= 64:
            requests.clear()
        request = requests[key] = ParseRequest(names, options)
    return request


def checked_names(syntax: str | Sequence[str] | None) -> list[str]:
    """The syntax names of a ``syntax=`` argument (``None``: ``TOOLSIFT_SYNTAX``, else
    ``tool_call_json``); raises :class:`toolsift.UnknownSyntaxError` for an unknown one."""
    if syntax is None:
        # The design's default, unless the deployment's TOOLSIFT_SYNTAX says otherwise.
        syntax = resolve_syntax() if _override() else TOOL_CALL_JSON
    names = [syntax] if isinstance(syntax, str) else list(syntax)
    unknown = [n for n in names if n not in SYNTAXES and n != AUTO]
    if unknown:
        known = ", ".join((AUTO, *SYNTAXES))
        raise UnknownSyntaxError(
            f"unknown syntax {unknown[0]!r}; known syntaxes: {known}", reason="unknown_syntax"
        )
    return names


class ParseRequest:
    """What ``parse`` and ``parse_many`` share for text syntaxes: the names, the parser
    options, and the per-text finishing (``first_only``, ``id_prefix``, the caller's own
    ``raw``)."""

    def __init__(self, names: list[str], options: dict[str, Any]) -> None:
        self.names = names
        options = dict(options)
        self.first_only = bool(options.pop("first_only", False))
        self.id_prefix: str | None = options.pop("id_prefix", None)
        self.marker: str | None = options.get("marker")
        self.max_payload_chars: int | None = options.get("max_payload_chars")
        self.parser = StreamParser(names, previews=False, **options)
        # Read once here rather than on every ``run``: none of them changes afterwards.
        self._native = self.parser._native
        self._built = self.parser._schemas is None
        # ``parse_all``'s own result needs nothing more, but for reading deepseek_dsml's
        # wrapper parameters when ``_unwraps`` (see ``unwrap_calls``).
        self._as_is = self._built and self.parser._keep and not self.first_only
        self._as_is = self._as_is and self.id_prefix is None
        self._unwraps = self._as_is and self.parser._unwraps
        # What ``parse`` calls: the engine's own ``ParseResult`` when it needs nothing more
        # (it raises ``UnicodeEncodeError`` for lone surrogates, which ``run`` reads).
        self.fast: Callable[[str], ParseResult] = self.run
        if self._as_is and self._native is not None:
            self.fast = self._native.parse_result
            if self._unwraps:
                self.fast = self._unwrapped_result

    def _unwrapped_result(self, text: str) -> ParseResult:
        result = self._native.parse_result(text)  # type: ignore[union-attr]
        unwrap_calls(result.calls)
        return result

    def run(self, text: str) -> ParseResult:
        """The result of ``text``. The parser is this request's own (per thread, see
        ``_request``), so no other call can be inside it and its guard is skipped."""
        native = self._native
        if native is None:
            raise ToolsiftError("parse_all reads text syntaxes only", reason="bad_option")
        built = self._built
        try:
            content, calls, issues = native.parse_all(text, built)
        except UnicodeEncodeError:
            found = native.parse_all(text, built, lossy=True)
            return self.finish(text, self.parser._result_of(*found, built=built))
        if self._as_is:
            if self._unwraps:
                unwrap_calls(calls)
            # All four fields given: the dataclass's default factory is not called.
            return ParseResult(calls, content, issues, [])
        result = self.parser._result_of(content, calls, issues, built=built)
        return self.finish(text, result, fix_raw=False)

    def finish(self, text: str, result: ParseResult, *, fix_raw: bool = True) -> ParseResult:
        """Applies the per-text options to the engine's result for ``text``; ``fix_raw=False``
        when ``text`` reached the engine unchanged (no lone surrogate was replaced)."""
        if not fix_raw and not self.first_only and self.id_prefix is None:
            return result
        if self.first_only and len(result.calls) > 1:
            result = _first_call_only(text, result)
        id_prefix = self.id_prefix
        for call in result.calls:
            # The engine read lone surrogates as U+FFFD; the raw text is the caller's own.
            call.raw = text[call.span[0] : call.span[1]]
            if id_prefix is not None and _engine_id(call.id):
                call.id = id_prefix + call.id.removeprefix("call_")
        return result
