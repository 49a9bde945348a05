"""Skill-declared syntaxes: a strategy built from a descriptor file.

>>> import toolsift
>>> from toolsift import skills
>>> parser = toolsift.Parser(syntax="hermes")
>>> skill = skills.from_descriptor({"name": "deploy", "match": {"start": "<<deploy", "end": ">>"},
...                                 "arguments": {"format": "kv_lines"}}, parser=parser)
>>> parser.parse("ok <<deploy\\nenv: prod\\n>>").calls[0].arguments
{'env': 'prod'}
>>> skills.unload(parser, "deploy").name
'deploy'

Descriptors (fields in :mod:`toolsift.skill_descriptor`) come as ``.json``, ``.yaml``/``.yml``
(needs PyYAML: ``pip install toolsift[skills]``) or a ``skill.md`` whose front matter block
(between ``---`` lines) holds them. Markers are found with ``str.find``; patterns run on the
``regex`` crate, whose automata never backtrack, so no pattern or input can hang a parse.
Skill strategies read whole responses; :meth:`toolsift.Parser.stream` cannot run them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import JsonRepairError, SkillError
from .model import ParseIssue, ParseResult, ToolCall
from .registry import Parser
from .registry_context import ParseContext, Strategy
from .repair import lenient_loads
from .schema import ToolSchemas, check_call
from .skill_descriptor import SkillSpec, parse_descriptor

__all__ = ["SkillStrategy", "from_descriptor", "load", "read_descriptor", "unload"]


class SkillStrategy:
    """Reads the calls of one skill-declared syntax (see :mod:`toolsift.skill_descriptor`)."""

    streamable = False

    def __init__(self, spec: SkillSpec) -> None:
        self.spec = spec

    @property
    def name(self) -> str:
        return self.spec.name

    def supports(self, response: Any, context: ParseContext) -> bool:
        return isinstance(response, str)

    def parse(self, response: Any, context: ParseContext) -> list[ToolCall]:
        return self.parse_result(response, context).calls

    def parse_result(self, response: Any, context: ParseContext) -> ParseResult:
        text: str = response
        result = ParseResult()
        schemas = ToolSchemas(context.tools) if context.tools is not None else None
        pieces: list[str] = []
        last = 0
        for span, body, groups in self._candidates(text, result):
            call = self._call(text, span, body, groups, result)
            if call is not None and schemas is not None:
                keep, call.arguments, problems = check_call(
                    call.name, call.arguments, schemas, context.unknown_tools
                )
                result.issues += [ParseIssue(self.name, span, k, m) for k, m in problems]
                call = call if keep else None
            if call is not None:
                call.id = f"{self.name}_{len(result.calls)}"
                result.calls.append(call)
                pieces.append(text[last : span[0]])
                last = span[1]
        pieces.append(text[last:])
        result.content = "".join(pieces)
        result.issues.sort(key=lambda i: i.span[0])
        return result

    def _candidates(
        self, text: str, result: ParseResult
    ) -> list[tuple[tuple[int, int], str, list[tuple[int, int] | None]]]:
        spec = self.spec
        found: list[tuple[tuple[int, int], str, list[tuple[int, int] | None]]] = []
        if spec.pattern is not None:
            for groups in spec.pattern.find_all(text, spec.max_matches):
                whole = groups[0] or (0, 0)
                body = groups[spec.body_group or 0]
                found.append((whole, text[body[0] : body[1]] if body else "", groups))
            return found
        position = 0
        while len(found) < spec.max_matches:
            start = text.find(spec.start, position)
            if start < 0:
                break
            inner = start + len(spec.start)
            end = text.find(spec.end, inner)
            if end < 0:
                span = (start, len(text))
                message = f"{spec.start!r} without {spec.end!r} before the end of the text"
                result.issues.append(ParseIssue(self.name, span, "unterminated", message))
                break
            found.append(((start, end + len(spec.end)), text[inner:end], []))
            position = end + len(spec.end)
        return found

    def _call(
        self,
        text: str,
        span: tuple[int, int],
        body: str,
        groups: list[tuple[int, int] | None],
        result: ParseResult,
    ) -> ToolCall | None:
        spec = self.spec

        def group_text(index: int) -> str | None:
            g = groups[index] if index < len(groups) else None
            return text[g[0] : g[1]] if g else None

        def issue(kind: str, message: str) -> None:
            result.issues.append(ParseIssue(self.name, span, kind, message))

        arguments: dict[str, Any] = {}
        name: Any = spec.name_value
        if spec.arguments_format == "json":
            try:
                value = lenient_loads(body) if body.strip() else {}
            except JsonRepairError as err:
                issue("not_json", f"body is not JSON: {err.message}")
                return None
            if not isinstance(value, dict):
                issue("not_an_object", "body is JSON but not an object")
                return None
            if spec.name_source == "json_field":
                name = value.pop(str(spec.name_value), None)
            if spec.arguments_field is not None:
                value = value.get(spec.arguments_field) or {}
                if not isinstance(value, dict):
                    issue("bad_arguments", f"{spec.arguments_field!r} is not an object")
                    return None
            arguments = value
        elif spec.arguments_format == "kv_lines":
            arguments = _kv_lines(body, spec.separator)
        else:
            for key, index in spec.captures.items():
                captured = group_text(index)
                if captured is not None:
                    arguments[key] = captured
        if spec.name_source == "capture":
            name = group_text(int(spec.name_value))
        if not isinstance(name, str) or not name.strip():
            issue("no_name", "the call has no tool name")
            return None
        raw = text[span[0] : span[1]]
        return ToolCall(name.strip(), arguments, "", self.name, span, raw)

    def __repr__(self) -> str:
        return f"SkillStrategy({self.name!r})"


def _kv_lines(body: str, separator: str) -> dict[str, Any]:
    """``key: value`` lines; a repeated key collects a list, a line without the separator
    continues the previous value (multi-line values), blank lines are skipped."""
    arguments: dict[str, Any] = {}
    last: str | None = None
    for line in body.splitlines():
        key, found, value = line.partition(separator)
        if found and key.strip() and not line[:1].isspace():
            last, value = key.strip(), value.strip()
            if last in arguments:
                previous = arguments[last]
                arguments[last] = (
                    [*previous, value]
                    if isinstance(previous, list)
                    else [
                        previous,
                        value,
                    ]
                )
            else:
                arguments[last] = value
        elif last is not None and line.strip():
            current = arguments[last]
            if isinstance(current, list):
                current[-1] = f"{current[-1]}\n{line.strip()}"
            else:
                arguments[last] = f"{current}\n{line.strip()}" if current else line.strip()
    return arguments


def _front_matter(text: str, origin: str) -> str:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise SkillError(f"{origin}: no front matter block (a first line '---')", path=origin)
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return "\n".join(lines[1:index])
    raise SkillError(f"{origin}: the front matter block has no closing '---'", path=origin)


def _yaml(text: str, origin: str) -> Any:
    try:
        import yaml
    except ImportError:  # pragma: no cover - the dev extra installs it
        raise SkillError(
            f"{origin}: YAML descriptors need PyYAML (pip install toolsift[skills])",
            path=origin,
        ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise SkillError(f"{origin}: not valid YAML: {err}", path=origin) from None


def read_descriptor(path: str | Path) -> dict[str, Any]:
    """The descriptor mapping of a ``.json``, ``.yaml``/``.yml`` or ``.md`` file."""
    path = Path(path)
    origin = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SkillError(f"{origin}: cannot read: {err.strerror}", path=origin) from None
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise SkillError(f"{origin}: not valid JSON: {err}", path=origin) from None
    elif suffix in (".yaml", ".yml"):
        data = _yaml(text, origin)
    elif suffix == ".md":
        data = _yaml(_front_matter(text, origin), origin)
    else:
        raise SkillError(f"{origin}: use a .json, .yaml, .yml or .md descriptor", path=origin)
    if not isinstance(data, dict):
        raise SkillError(f"{origin}: the descriptor must be a mapping", path=origin)
    return data


def from_descriptor(
    data: Any,
    *,
    parser: Parser | None = None,
    prepend: bool = False,
    priority: int | None = None,
    origin: str = "",
) -> SkillStrategy:
    """The strategy of a descriptor mapping, registered in ``parser`` when one is given."""
    strategy = SkillStrategy(parse_descriptor(data, origin))
    if parser is not None:
        parser.register(strategy, prepend=prepend, priority=priority)
    return strategy


def load(
    path: str | Path,
    parser: Parser | None = None,
    *,
    prepend: bool = False,
    priority: int | None = None,
) -> SkillStrategy:
    """The strategy of the descriptor file at ``path``; registered in ``parser`` (before the
    strategies of its priority with ``prepend=True``) when one is given. Raises
    :class:`toolsift.SkillError` naming the field at fault for an invalid descriptor."""
    data = read_descriptor(path)
    return from_descriptor(
        data, parser=parser, prepend=prepend, priority=priority, origin=str(path)
    )


def unload(parser: Parser, skill: str | Strategy) -> Strategy:
    """Removes a loaded skill (by name or strategy) from ``parser``; returns it."""
    return parser.unregister(skill if isinstance(skill, str) else skill.name)
