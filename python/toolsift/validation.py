"""Checking arguments against a tool's JSON Schema, with messages written for the model.

The checking itself is ``jsonschema``'s (Draft 2020-12), installed by the ``validate`` extra
(``pip install 'toolsift[validate]'``); ``docs/formatting.md`` says why it was chosen over
``fastjsonschema``. This module only turns its errors into short sentences that say what is
wrong, where (``$.path[0].key``) and what was expected, so a model can fix its call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._schema_shapes import json_type
from .errors import MissingDependencyError

__all__ = ["Problem", "compile_validator", "problems_in"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One mistake in a call's arguments: ``path`` (``$`` is the arguments object),
    ``message`` (a sentence for the model) and ``keyword`` (the failed schema keyword)."""

    path: str
    message: str
    keyword: str


def compile_validator(schema: Mapping[str, Any]) -> Any:
    """A ``jsonschema`` validator for ``schema`` (checked once here, so a broken schema fails
    at definition time, not at the first call)."""
    try:
        import jsonschema
    except ImportError:
        raise MissingDependencyError(
            "argument validation needs the jsonschema package: pip install 'toolsift[validate]'",
            reason="missing_dependency",
        ) from None
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def _path(parts: Any) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _type_name(value: Any) -> str:
    if value is None or isinstance(value, (bool, int, float, str, list, dict)):
        return json_type(value)
    return type(value).__name__


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _sentence(error: Any) -> str:
    keyword, expected, value = error.validator, error.validator_value, error.instance
    if keyword == "required":
        missing = [k for k in expected if isinstance(value, dict) and k not in value]
        return f"missing required argument {missing[0]!r}" if missing else error.message
    if keyword == "additionalProperties" and isinstance(value, dict):
        allowed = sorted((error.schema.get("properties") or {}).keys())
        extra = sorted(k for k in value if k not in allowed)
        known = ", ".join(allowed) if allowed else "none"
        return f"unexpected argument {', '.join(map(repr, extra))}; allowed: {known}"
    if keyword == "type":
        want = expected if isinstance(expected, str) else " or ".join(expected)
        return f"expected {want}, got {_type_name(value)} {_short(value)}"
    if keyword == "enum":
        return f"expected one of {', '.join(map(repr, expected))}, got {_short(value)}"
    if keyword == "const":
        return f"expected {expected!r}, got {_short(value)}"
    return f"{error.message} (schema keyword {keyword!r})"


def _closest(error: Any) -> Any:
    """For ``anyOf``/``oneOf``, the error of the option that came closest (what the model most
    likely meant), so the message names the real mistake rather than "no option matched"."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        from jsonschema.exceptions import best_match

        return _closest(best_match(error.context))
    return error


def problems_in(validator: Any, arguments: Any) -> tuple[Problem, ...]:
    """Every mistake in ``arguments``, in a stable order (by path, then keyword)."""
    found = [
        Problem(_path(e.absolute_path), _sentence(e), str(e.validator))
        for e in map(_closest, validator.iter_errors(arguments))
    ]
    return tuple(sorted(found, key=lambda p: (p.path, p.keyword, p.message)))
