"""Lenient JSON: ``lenient_loads`` and ``repair_json``.

Valid JSON goes straight to orjson. Anything else goes through the Rust repair pass, which
rewrites the bytes into valid JSON in one linear pass and reports every change it made; the
result is then loaded by orjson. A quick native check first proves most malformed input is not
JSON (from its opening tokens and its end), so that input skips the strict attempt; every
strict JSON text passes it. orjson turns
integers beyond 64 bits into floats and refuses nesting deeper than 1024, so JSON with a run of
19+ digits, or too deep for orjson, is loaded by the core's iterative reader instead: big
integers keep their exact value and depth costs no stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from . import _native
from ._text import without_surrogates

__all__ = ["Repair", "Repaired", "lenient_loads", "repair_json"]

_DEFAULT_MAX_DEPTH: int = _native.DEFAULT_MAX_DEPTH


@dataclass(frozen=True, slots=True)
class Repair:
    """One change made by repair: its ``kind`` (e.g. ``single_quotes``) and the UTF-8 byte
    ``offset`` in the input where it was made."""

    kind: str
    offset: int


@dataclass(frozen=True, slots=True)
class Repaired:
    """The outcome of :func:`repair_json`: valid JSON ``text``, its ``value`` and ``repairs``."""

    text: str
    value: Any
    repairs: tuple[Repair, ...]


def _load_valid(data: bytes | str) -> Any:
    """Loads JSON known to be valid (the output of repair)."""
    if _native.has_long_digit_run(data):
        return _native.loads_exact(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # Valid JSON that orjson refuses is nested deeper than its limit of 1024.
        return _native.loads_exact(data)


def lenient_loads(
    text: str | bytes, *, max_depth: int = _DEFAULT_MAX_DEPTH, precheck: bool = True
) -> Any:
    """Loads JSON, repairing it first when it is malformed.

    >>> lenient_loads("{'a': 1, 'b': [True, None,]")
    {'a': 1, 'b': [True, None]}

    Valid JSON, the common case, goes straight to orjson; for ``str`` input orjson, the
    wide-integer check and any repair run in one native call. A look at the tokens of the
    first 64 bytes and at the last token (nanoseconds; no strict JSON text fails it) first
    sends text that cannot be JSON (prose or a fence in front, a single quote, an unquoted
    first key, a comment or a Python literal near the start, a truncated end, a trailing
    comma) straight to repair, sparing it orjson's refusal (its ``JSONDecodeError`` costs
    about a third of the repair). ``precheck=False`` looks at the first and last token only.
    The value is the same either way.

    Raises :class:`toolsift.JsonRepairError` when no JSON value can be recovered. Lone
    surrogates in ``text`` are read as U+FFFD.
    """
    if type(text) is str:
        try:
            return _native.lenient_load(text, max_depth, precheck)
        except UnicodeEncodeError:
            # Lone surrogates: no strict parser takes them; replaced one for one, repaired.
            return _native.repair_and_load(without_surrogates(text), max_depth)
    verdict = _native.json_verdict(text) if precheck else -1
    if verdict:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            if verdict == -1:
                # Big integers: orjson made floats of them; the exact reader keeps them.
                long = isinstance(text, (str, bytes)) and _native.has_long_digit_run(text)
                verdict = 2 if long else 1
            return value if verdict == 1 else _native.loads_exact(text)
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text).decode("utf-8", errors="replace")
    try:
        return _native.repair_and_load(text, max_depth)
    except UnicodeEncodeError:
        return _native.repair_and_load(without_surrogates(text), max_depth)


def repair_json(text: str, *, max_depth: int = _DEFAULT_MAX_DEPTH) -> Repaired:
    """Repairs ``text`` into valid JSON and says what was changed.

    >>> r = repair_json('{"a": 1,}')
    >>> r.text, r.value, [x.kind for x in r.repairs]
    ('{"a": 1}', {'a': 1}, ['trailing_comma'])

    Valid JSON comes back unchanged with no repairs. Raises :class:`toolsift.JsonRepairError`
    (with ``offset`` and ``reason``) when no JSON value can be recovered.
    """
    try:
        fixed, repairs = _native.repair_json(text, max_depth=max_depth)
    except UnicodeEncodeError:
        fixed, repairs = _native.repair_json(without_surrogates(text), max_depth=max_depth)
    return Repaired(
        text=fixed.decode("utf-8"),
        value=_load_valid(fixed),
        repairs=tuple(Repair(kind, offset) for kind, offset in repairs),
    )
