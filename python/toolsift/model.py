"""The result model every syntax shares: ``ToolCall``, ``ParseIssue``, ``ParseResult``."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ._native import LazyField, Unbuilt

__all__ = ["ParseIssue", "ParseResult", "StrategyRecord", "ToolCall"]


@dataclass(slots=True)
class ToolCall(Unbuilt):
    """One tool call, whatever syntax it was written in.

    ``span`` is the ``(start, end)`` character range of the whole call in the parsed text
    (markers included), ``raw`` that text, ``repairs`` the kinds of lenient-JSON repairs its
    arguments needed (empty when they were valid JSON), and the readings of the call against
    ``tools=`` that changed it (``name_from_arguments``: a ``kimi_k2`` call named by its
    arguments; ``unwrapped_arguments``: a ``deepseek_dsml`` wrapper parameter read as the
    arguments). ``arguments_json`` is the arguments as
    JSON text: the model's own bytes when it wrote valid JSON, otherwise the repaired or typed
    JSON (it always decodes to ``arguments``; OpenAI's ``function.arguments`` is this string).

    >>> a = ToolCall(name="search", arguments={"q": "x"})
    >>> a == ToolCall(name="search", arguments={"q": "x"})
    True
    """

    name: str
    arguments: dict[str, Any]
    id: str = ""
    syntax: str = ""
    span: tuple[int, int] = (0, 0)
    raw: str = ""
    repairs: tuple[str, ...] = ()
    arguments_json: str = ""

    def __getnewargs__(self) -> tuple[()]:
        # No arguments for ``__new__`` when copied or pickled: said explicitly, so that
        # pickling reads the fields (each built on its read) without first checking that the
        # instance is no larger than its slots (the ``Unbuilt`` base adds a pointer).
        return ()


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """Why a candidate was not turned into a call (or what was odd about a call).

    ``kind`` is a short stable name (``too_large``, ``not_json``, ``not_an_object``,
    ``no_name``, ``no_json_after_marker``, ``bad_arguments``, ``limit_exceeded`` for a call
    or segment past one of the resource limits); ``message`` explains it.
    """

    syntax: str
    span: tuple[int, int]
    kind: str
    message: str


@dataclass(frozen=True, slots=True)
class StrategyRecord:
    """What one strategy of a :class:`toolsift.Parser` did with one response.

    ``status`` is ``found`` (it returned calls), ``nothing`` (it ran and found none),
    ``skipped`` (it does not support the response) or ``failed`` (it raised: ``error`` is the
    exception, ``message`` says what happened). ``calls`` are the calls it returned, before
    the parser made ids unique and dropped duplicates.
    """

    name: str
    status: str
    calls: tuple[ToolCall, ...] = ()
    error: Exception | None = None
    message: str = ""


@dataclass(slots=True)
class ParseResult(Unbuilt):
    """Everything one parse found: the calls, the text outside them, and the issues.
    ``strategies`` is filled by :meth:`toolsift.Parser.parse`: one record per strategy."""

    calls: list[ToolCall] = field(default_factory=list)
    content: str = ""
    issues: list[ParseIssue] = field(default_factory=list)
    strategies: list[StrategyRecord] = field(default_factory=list)

    def __getnewargs__(self) -> tuple[()]:
        # As ``ToolCall.__getnewargs__``.
        return ()


# The member descriptor of every field, in ``__init__``'s order, taken before the lazy fields
# below are put over some of them: the native parser stores through these to build results
# without running ``__init__`` (see ``_native``'s ``pyslots``).
_NATIVE_SLOTS = {
    cls.__name__: (cls, tuple(cls.__dict__[f.name] for f in fields(cls)))
    for cls in (ToolCall, ParseResult)
}

# Fields a native parse leaves unbuilt until read (see ``_native``'s ``pylazy``): a call's
# ``span``, ``raw`` and ``arguments_json`` and a result's ``content`` (left empty, their
# values held by the object's ``Unbuilt`` base until read, see ``_native``'s ``pyunbuilt``;
# a result built in Python from a native parse stores its ``content`` as a ``DeferredText``),
# and a result's ``issues`` and ``strategies`` when empty. The first read builds the
# value and stores it, so every reader, ``==``, ``repr``, pickling and
# ``dataclasses.replace`` only ever see built values; whatever a caller stores comes back as
# it was.
for _cls, _field in (
    (ToolCall, "span"),
    (ToolCall, "raw"),
    (ToolCall, "arguments_json"),
    (ParseResult, "content"),
    (ParseResult, "issues"),
    (ParseResult, "strategies"),
):
    setattr(_cls, _field, LazyField(_cls.__dict__[_field], _field))
del _cls, _field
