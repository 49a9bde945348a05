"""Skill descriptors: a custom tool-call syntax described in data, validated field by field.

A descriptor is a mapping (from JSON, YAML, or a ``skill.md`` front matter block, where it may
sit under a ``toolsift`` key beside the skill's own ``name`` and ``description``)::

    name: deploy              # the strategy's name (defaults to the skill's name)
    match:                    # where a call is: literal markers, or a pattern
      start: "<<deploy"       #   text between start and end is the body
      end: ">>"
      # pattern: '(?s)@@(?P<tool>\\w+)\\n(?P<body>.*?)@@end'   (the regex crate's syntax)
      # body: body            # the group holding the body (default: "body" if the pattern
      #                       # has it, else the whole match)
    tool_name:                # where the call's name comes from: exactly one of
      fixed: deploy           #   a fixed trigger name
      # capture: tool         #   a capture group of the pattern (name or number)
      # json_field: tool      #   a key of the JSON body
    arguments:
      format: json            # json (the body is a JSON object, read leniently),
                              # kv_lines ("key: value" lines), or capture (groups)
      # field: args           # json: the key holding the arguments (default: the whole
      #                       # object, without the json_field name key)
      # separator: ":"        # kv_lines
      # captures: {path: path, content: 2}   # capture: argument → group
    max_matches: 1000         # pattern matches read per response (caps the work)

Every problem raises :class:`toolsift.SkillError` naming the field (``match.pattern``) and what
is wrong with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _native
from .errors import PatternError, SkillError

__all__ = ["SkillSpec", "parse_descriptor"]

_FORMATS = ("json", "kv_lines", "capture")
_NAME_SOURCES = ("fixed", "capture", "json_field")
DEFAULT_MAX_MATCHES = 1000


@dataclass(frozen=True)
class SkillSpec:
    """A validated descriptor."""

    name: str
    start: str = ""
    end: str = ""
    pattern: Any = None  # a compiled ``_native.NativePattern``
    groups: dict[str, int] = field(default_factory=dict)
    body_group: int | None = None
    name_source: str = "fixed"
    name_value: str | int = ""
    arguments_format: str = "json"
    arguments_field: str | None = None
    separator: str = ":"
    captures: dict[str, int] = field(default_factory=dict)
    max_matches: int = DEFAULT_MAX_MATCHES
    origin: str = ""


class _Checker:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, path: str, problem: str) -> SkillError:
        where = f"{self.origin}: " if self.origin else ""
        return SkillError(f"{where}field {path!r}: {problem}", field=path, path=self.origin)

    def section(
        self, data: Mapping[str, Any], key: str, required: bool = True
    ) -> Mapping[str, Any]:
        value = data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(key, "missing" if value is None else "must be a mapping")
        return value

    def text(self, data: Mapping[str, Any], key: str, path: str, required: bool = False) -> str:
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(path, "missing")
            return ""
        if not isinstance(value, str) or not value:
            raise self.fail(path, "must be a non-empty string")
        return value

    def group(self, value: Any, path: str, groups: dict[str, int], count: int) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.fail(path, "must be a capture group name or number")
        if isinstance(value, int):
            if not 0 <= value < count:
                raise self.fail(path, f"group {value} does not exist (the pattern has {count - 1})")
            return value
        if value not in groups:
            known = ", ".join(groups) or "none"
            raise self.fail(path, f"no group named {value!r} in the pattern (named: {known})")
        return groups[value]


def parse_descriptor(data: Any, origin: str = "") -> SkillSpec:
    """Validates a descriptor mapping; see the module docs for its fields."""
    check = _Checker(origin)
    if not isinstance(data, Mapping):
        raise check.fail("(descriptor)", "must be a mapping")
    if isinstance(data.get("toolsift"), Mapping):
        data = {"name": data.get("name"), **data["toolsift"]}
    known = {"name", "description", "match", "tool_name", "arguments", "max_matches"}
    for key in data:
        if key not in known:
            raise check.fail(str(key), f"unknown field; known fields: {', '.join(sorted(known))}")
    name = check.text(data, "name", "name", required=True)
    match = check.section(data, "match")
    start = check.text(match, "start", "match.start")
    end = check.text(match, "end", "match.end")
    source = match.get("pattern")
    pattern, groups, count, body_group = None, {}, 1, None
    if source is not None:
        if start or end:
            raise check.fail("match", "give either start/end markers or a pattern, not both")
        if not isinstance(source, str) or not source:
            raise check.fail("match.pattern", "must be a non-empty string")
        try:
            pattern = _native.NativePattern(source)
        except PatternError as err:
            raise check.fail("match.pattern", err.message) from None
        names = pattern.group_names()
        count = len(names)
        groups = {n: i for i, n in enumerate(names) if n}
        body = match.get("body", "body" if "body" in groups else None)
        body_group = check.group(body, "match.body", groups, count) if body is not None else 0
    elif not (start and end):
        raise check.fail("match", "needs start and end markers, or a pattern")
    name_spec = data.get("tool_name", {"fixed": name})
    if isinstance(name_spec, str):
        name_spec = {"fixed": name_spec}
    if not isinstance(name_spec, Mapping) or len(name_spec) != 1:
        raise check.fail("tool_name", f"must be a mapping with one of {', '.join(_NAME_SOURCES)}")
    ((name_source, name_value),) = name_spec.items()
    if name_source not in _NAME_SOURCES:
        raise check.fail(f"tool_name.{name_source}", f"unknown; use {', '.join(_NAME_SOURCES)}")
    if name_source == "capture":
        if pattern is None:
            raise check.fail("tool_name.capture", "needs match.pattern")
        name_value = check.group(name_value, "tool_name.capture", groups, count)
    elif not isinstance(name_value, str) or not name_value:
        raise check.fail(f"tool_name.{name_source}", "must be a non-empty string")
    args = check.section(data, "arguments", required=False)
    fmt = args.get("format", "json")
    if fmt not in _FORMATS:
        raise check.fail("arguments.format", f"{fmt!r} is not one of {', '.join(_FORMATS)}")
    if name_source == "json_field" and fmt != "json":
        raise check.fail("tool_name.json_field", "needs arguments.format: json")
    captures: dict[str, int] = {}
    if fmt == "capture":
        spec = args.get("captures")
        if pattern is None:
            raise check.fail("arguments.format", "capture needs match.pattern")
        if not isinstance(spec, Mapping) or not spec:
            raise check.fail("arguments.captures", "must map argument names to groups")
        for key, group in spec.items():
            captures[str(key)] = check.group(group, f"arguments.captures.{key}", groups, count)
    separator = args.get("separator", ":")
    if not isinstance(separator, str) or not separator:
        raise check.fail("arguments.separator", "must be a non-empty string")
    arguments_field = args.get("field")
    if arguments_field is not None and (not isinstance(arguments_field, str) or fmt != "json"):
        raise check.fail("arguments.field", "must be a string, with format json")
    max_matches = data.get("max_matches", DEFAULT_MAX_MATCHES)
    if isinstance(max_matches, bool) or not isinstance(max_matches, int) or max_matches < 1:
        raise check.fail("max_matches", "must be a positive integer")
    return SkillSpec(
        name=name,
        start=start,
        end=end,
        pattern=pattern,
        groups=groups,
        body_group=body_group,
        name_source=name_source,
        name_value=name_value,
        arguments_format=fmt,
        arguments_field=arguments_field,
        separator=separator,
        captures=captures,
        max_matches=max_matches,
        origin=origin,
    )
