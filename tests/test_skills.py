"""Skill-declared syntaxes: the bundled examples, descriptor errors, and linear-time patterns."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import toolsift
from toolsift import skills

EXAMPLES = Path(__file__).parent.parent / "examples" / "skills"

TEXT = """Shipping both.
<<deploy
service: billing
env: prod
note: first line
  of a longer note
>>
/search rust regex
/status
<action>{"action": "open", "input": {"path": "/a",}}</action>
done"""


@pytest.fixture
def parser() -> toolsift.Parser:
    return toolsift.Parser(syntax="hermes")


def test_examples_load_and_parse(parser: toolsift.Parser) -> None:
    for name in ("deploy/SKILL.md", "slash_command.json", "json_action.yaml"):
        skills.load(EXAMPLES / name, parser)
    assert parser.names == ("hermes", "deploy", "slash_command", "json_action")
    result = parser.parse(TEXT)
    assert [(c.name, c.arguments, c.syntax) for c in result.calls] == [
        (
            "deploy",
            {"service": "billing", "env": "prod", "note": "first line\nof a longer note"},
            "deploy",
        ),
        ("search", {"query": "rust regex"}, "slash_command"),
        ("status", {}, "slash_command"),
        ("open", {"path": "/a"}, "json_action"),
    ]
    for call in result.calls:
        assert TEXT[call.span[0] : call.span[1]] == call.raw
    assert result.issues == []


def test_load_prepends_and_unload_removes(parser: toolsift.Parser) -> None:
    skill = skills.load(EXAMPLES / "deploy" / "SKILL.md", parser, prepend=True)
    assert parser.names == ("deploy", "hermes")
    assert skills.unload(parser, skill) is skill
    assert parser.names == ("hermes",)
    assert parser.parse(TEXT).calls == []
    with pytest.raises(toolsift.DuplicateStrategyError):
        skills.load(EXAMPLES / "deploy" / "SKILL.md", parser)
        skills.load(EXAMPLES / "deploy" / "SKILL.md", parser)


def test_load_without_parser_returns_a_usable_strategy() -> None:
    skill = skills.load(EXAMPLES / "slash_command.json")
    calls = skill.parse("/ping now", toolsift.Parser(syntax="hermes").context())
    assert [(c.name, c.arguments) for c in calls] == [("ping", {"query": "now"})]


def test_unterminated_block_and_bad_body_are_issues(parser: toolsift.Parser) -> None:
    skills.from_descriptor(
        {
            "name": "act",
            "match": {"start": "<a>", "end": "</a>"},
            "tool_name": {"json_field": "tool"},
        },
        parser=parser,
    )
    result = parser.parse('<a>[1]</a> <a>{"x": 1}</a> <a>{"tool": "t"}</a> <a>{"tool": ')
    assert [c.name for c in result.calls] == ["t"]
    assert [i.kind for i in result.issues] == ["not_an_object", "no_name", "unterminated"]


def test_tools_type_skill_values(parser: toolsift.Parser) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "deploy",
                "parameters": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
            },
        }
    ]
    typed = toolsift.Parser(syntax="hermes", tools=tools)
    skills.load(EXAMPLES / "deploy" / "SKILL.md", typed)
    call = typed.parse("<<deploy\nreplicas: 3\n>>").calls[0]
    assert call.arguments == {"replicas": 3}


def test_catastrophic_pattern_returns_promptly(parser: toolsift.Parser) -> None:
    skills.from_descriptor(
        {
            "name": "evil",
            "match": {"pattern": "(a+)+$"},
            "tool_name": {"fixed": "x"},
            "arguments": {"format": "kv_lines"},
        },
        parser=parser,
    )
    text = "a" * 50_000 + "!"
    started = time.perf_counter()
    result = parser.parse(text)
    elapsed = time.perf_counter() - started
    assert result.calls == []
    # Not a speed test: a backtracking engine would take astronomically long here; the bound
    # only tells "returned" from "hung" on a loaded machine.
    assert elapsed < 5.0


def test_match_count_is_capped(parser: toolsift.Parser) -> None:
    skills.from_descriptor(
        {
            "name": "dots",
            "match": {"pattern": r"\."},
            "tool_name": "dot",
            "arguments": {"format": "kv_lines"},
            "max_matches": 5,
        },
        parser=parser,
    )
    assert len(parser.parse("." * 100).calls) == 5


BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"match": {"start": "a", "end": "b"}}, "name", "missing"),
    ({"name": "s", "match": {"start": "a"}}, "match", "needs start and end"),
    ({"name": "s", "match": {"pattern": "(a"}}, "match.pattern", "unclosed group"),
    ({"name": "s", "match": {"pattern": "(?=a)b"}}, "match.pattern", "look-around"),
    ({"name": "s", "match": {"pattern": "a", "start": "x", "end": "y"}}, "match", "not both"),
    (
        {"name": "s", "match": {"pattern": "(?P<t>a)"}, "tool_name": {"capture": "tool"}},
        "tool_name.capture",
        "no group named 'tool'",
    ),
    (
        {"name": "s", "match": {"pattern": "a"}, "tool_name": {"capture": 3}},
        "tool_name.capture",
        "group 3 does not exist",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "tool_name": {"capture": 1}},
        "tool_name.capture",
        "needs match.pattern",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "tool_name": {"guess": "x"}},
        "tool_name.guess",
        "unknown",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "arguments": {"format": "toml"}},
        "arguments.format",
        "'toml' is not one of json, kv_lines, capture",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "arguments": {"format": "capture"}},
        "arguments.format",
        "capture needs match.pattern",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "max_matches": 0},
        "max_matches",
        "positive integer",
    ),
    (
        {"name": "s", "match": {"start": "a", "end": "b"}, "colour": "red"},
        "colour",
        "unknown field",
    ),
]


@pytest.mark.parametrize(("descriptor", "field", "problem"), BAD)
def test_invalid_descriptors_name_the_field(
    tmp_path: Path, descriptor: dict[str, Any], field: str, problem: str
) -> None:
    path = tmp_path / "skill.json"
    path.write_text(json.dumps(descriptor), encoding="utf-8")
    with pytest.raises(toolsift.SkillError) as err:
        skills.load(path)
    assert err.value.field == field
    assert f"field {field!r}" in str(err.value)
    assert problem in str(err.value)
    assert str(path) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unreadable_files_are_skill_errors(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("no front matter", encoding="utf-8")
    (tmp_path / "b.json").write_text("{", encoding="utf-8")
    (tmp_path / "c.toml").write_text("", encoding="utf-8")
    for name, problem in [
        ("a.md", "front matter"),
        ("b.json", "not valid JSON"),
        ("c.toml", "use a .json"),
        ("missing.json", "cannot read"),
    ]:
        with pytest.raises(toolsift.SkillError, match=problem):
            skills.load(tmp_path / name)
