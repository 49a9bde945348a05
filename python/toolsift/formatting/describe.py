"""Schema formatters: one tool's name, description and arguments in a syntax family's idiom.

- ``json_schema``: the OpenAI-style function object as indented JSON (JSON syntaxes).
- ``xml_tag``: ``<tool name=… description=…>`` with one ``<arg … type required default>``
  line per argument, nested for objects (tag syntaxes).
- ``python_signature``: a ``def`` line with type hints and a docstring (``pythonic``).
- ``typescript``: Harmony's ``namespace functions { type f = (_: {…}) => any; }`` (``gpt_oss``).
- ``plain_lines``: ``name: description`` and one ``- key (type, required): text`` line per
  argument (``caret``).

Properties keep the schema's order; nothing is sorted or drawn from a set, so the same tools
give the same text every time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import quoteattr

from ..tools import ToolDefinition
from .base import json_text

__all__ = ["json_schema", "plain_lines", "python_signature", "typescript", "xml_tag"]


def _props(schema: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any], bool]]:
    required = set(schema.get("required") or ())
    props = schema.get("properties") or {}
    return [(k, v if isinstance(v, Mapping) else {}, k in required) for k, v in props.items()]


def type_label(schema: Mapping[str, Any]) -> str:
    """A short type name: ``string``, ``array of integer``, ``string or null``, …"""
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(type_label({**schema, "type": k}) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"array of {type_label(schema['items'])}"
    if isinstance(kind, str):
        return kind
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " or ".join(type_label(o) for o in schema[key] if isinstance(o, Mapping))
    if "enum" in schema:
        return "enum"
    return "any"


def json_schema(tool: ToolDefinition) -> str:
    """The OpenAI-style function object, indented."""
    return json_text(tool.to_openai()["function"], indent=2)


def _xml_args(schema: Mapping[str, Any], indent: str) -> list[str]:
    lines = []
    for key, prop, required in _props(schema):
        attrs = f"name={quoteattr(key)} type={quoteattr(type_label(prop))}"
        attrs += f' required="{"true" if required else "false"}"'
        if "default" in prop:
            attrs += f" default={quoteattr(json_text(prop['default']))}"
        if "enum" in prop:
            attrs += f" enum={quoteattr(' | '.join(json_text(v) for v in prop['enum']))}"
        if prop.get("description"):
            attrs += f" description={quoteattr(str(prop['description']))}"
        nested = prop if prop.get("type") == "object" else prop.get("items")
        children = _xml_args(nested, indent + "  ") if isinstance(nested, Mapping) else []
        if children:
            lines += [f"{indent}<arg {attrs}>", *children, f"{indent}</arg>"]
        else:
            lines.append(f"{indent}<arg {attrs}/>")
    return lines


def xml_tag(tool: ToolDefinition) -> str:
    """``<tool name="f" description="…">`` and its ``<arg>`` lines."""
    head = f"<tool name={quoteattr(tool.name)}"
    if tool.description:
        head += f" description={quoteattr(tool.description)}"
    args = _xml_args(tool.parameters, "  ")
    return "\n".join([head + ">", *args, "</tool>"]) if args else head + "/>"


_PY = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def _py_type(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if "enum" in schema:
        return f"Literal[{', '.join(repr(v) for v in schema['enum'])}]"
    if isinstance(kind, list):
        return " | ".join(_py_type({**schema, "type": k}) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return f"list[{_py_type(items)}]" if isinstance(items, Mapping) else "list"
    if kind == "object":
        return "dict"
    return _PY.get(str(kind), "Any")


def python_signature(tool: ToolDefinition) -> str:
    """``def f(a: str, b: int = 1) -> Any:`` and a docstring with the descriptions."""
    params, docs = [], []
    ordered = sorted(_props(tool.parameters), key=lambda p: (not p[2], "default" in p[1]))
    for key, prop, required in ordered:
        text = f"{key}: {_py_type(prop)}"
        if not required:
            text += f" = {prop['default']!r}" if "default" in prop else " = None"
        params.append(text)
        if prop.get("description"):
            docs.append(f"    {key}: {prop['description']}")
    lines = [f"def {tool.name}({', '.join(params)}) -> Any:"]
    body = [tool.description] if tool.description else []
    if docs:
        body += ["", "Args:", *docs]
    if body:
        lines += ['    """' + body[0], *[f"    {b}" if b else "" for b in body[1:]], '    """']
    return "\n".join(line.rstrip() for line in lines)


_TS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}


def _ts_type(schema: Mapping[str, Any], indent: str) -> str:
    kind = schema.get("type")
    if "enum" in schema:
        return " | ".join(json_text(v) for v in schema["enum"])
    if isinstance(kind, list):
        return " | ".join(_ts_type({**schema, "type": k}, indent) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return f"{_ts_type(items, indent)}[]" if isinstance(items, Mapping) else "any[]"
    if kind == "object" and schema.get("properties"):
        return "{\n" + _ts_fields(schema, indent + "  ") + f"\n{indent}}}"
    if kind == "null":
        return "null"
    return _TS.get(str(kind), "any")


def _ts_fields(schema: Mapping[str, Any], indent: str) -> str:
    lines = []
    for key, prop, required in _props(schema):
        if prop.get("description"):
            lines.append(f"{indent}// {prop['description']}")
        line = f"{indent}{key}{'' if required else '?'}: {_ts_type(prop, indent)},"
        if "default" in prop:
            line += f" // default: {json_text(prop['default'])}"
        lines.append(line)
    return "\n".join(lines)


def typescript(tool: ToolDefinition) -> str:
    """Harmony's TypeScript-like declaration of one function."""
    lines = [f"// {tool.description}"] if tool.description else []
    if tool.parameters.get("properties"):
        lines += [f"type {tool.name} = (_: {{", _ts_fields(tool.parameters, ""), "}) => any;"]
    else:
        lines.append(f"type {tool.name} = () => any;")
    return "\n".join(lines)


def plain_lines(tool: ToolDefinition) -> str:
    """``name: description`` then one line per argument, nested ones indented."""

    def walk(schema: Mapping[str, Any], indent: str) -> list[str]:
        out = []
        for key, prop, required in _props(schema):
            notes = [type_label(prop), "required" if required else "optional"]
            if "default" in prop:
                notes.append(f"default {json_text(prop['default'])}")
            if "enum" in prop:
                notes.append("one of " + ", ".join(json_text(v) for v in prop["enum"]))
            text = f"{indent}- {key} ({', '.join(notes)})"
            out.append(text + (f": {prop['description']}" if prop.get("description") else ""))
            nested = prop if prop.get("type") == "object" else prop.get("items")
            if isinstance(nested, Mapping):
                out += walk(nested, indent + "  ")
        return out

    head = f"{tool.name}: {tool.description}" if tool.description else tool.name
    return "\n".join([head, *walk(tool.parameters, "  ")])
