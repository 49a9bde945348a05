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


# Native: for a `str` (the common case) the whole load is one call, with no Python frame.
lenient_loads = _native.lenient_loads


def _lenient_loads_other(
    text: bytes | bytearray | memoryview | str, max_depth: int, precheck: bool
) -> Any:
    """``lenient_loads`` of anything but a ``str`` (``bytes``, ``bytearray``, ``memoryview``,
    a ``str`` subclass): called by the native function."""
    if isinstance(text, (bytearray, memoryview)):
        # A copy, so that the quick check and the wide-integer check read it too.
        text = bytes(text)
    elif not isinstance(text, (str, bytes)):
        raise TypeError(f"lenient_loads() takes str or bytes, not {type(text).__name__}")
    verdict = _native.json_verdict(text) if precheck else -1
    if verdict:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            # Big integers: orjson made floats of them; the exact reader keeps them.
            long = verdict == 2 or (verdict == -1 and _native.has_long_digit_run(text))
            return _native.loads_exact(text) if long else value
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
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
