"""The ``toolsift`` command line.

``toolsift extract PATH…`` reads text files (a folder means every ``.txt`` and ``.jsonl`` file in
it; a ``.jsonl`` line is a JSON string or an object with a ``text`` field) and prints one JSON
line per call found, then a summary on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import orjson

from .errors import ToolsiftError
from .parsing import SYNTAXES, parse

__all__ = ["main"]


def _inputs(paths: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Yields ``(label, text)`` for every response in the given files and folders."""
    for raw in paths:
        path = Path(raw)
        files = (
            sorted(p for p in path.rglob("*") if p.suffix in {".txt", ".jsonl"})
            if path.is_dir()
            else [path]
        )
        for file in files:
            if file.suffix == ".jsonl":
                for number, line in enumerate(file.read_text("utf-8").splitlines(), 1):
                    if not line.strip():
                        continue
                    try:
                        row = orjson.loads(line)
                    except orjson.JSONDecodeError as err:
                        print(f"{file}:{number}: skipped, not JSON: {err}", file=sys.stderr)
                        continue
                    text = (
                        row
                        if isinstance(row, str)
                        else row.get("text")
                        if isinstance(row, dict)
                        else None
                    )
                    if not isinstance(text, str):
                        print(f"{file}:{number}: skipped, no text field", file=sys.stderr)
                        continue
                    yield f"{file}:{number}", text
            else:
                yield str(file), file.read_text("utf-8", errors="replace")


def _extract(args: argparse.Namespace) -> int:
    calls_by_name: Counter[str] = Counter()
    issues_by_kind: Counter[str] = Counter()
    responses = 0
    out = sys.stdout
    for label, text in _inputs(args.paths):
        responses += 1
        result = parse(text, args.syntax, marker=args.marker)
        for call in result.calls:
            calls_by_name[call.name] += 1
            row = {
                "source": label,
                "id": call.id,
                "name": call.name,
                "arguments": call.arguments,
                "syntax": call.syntax,
                "span": call.span,
                "repairs": call.repairs,
            }
            out.write(orjson.dumps(row).decode() + "\n")
        for issue in result.issues:
            issues_by_kind[issue.kind] += 1
    total = sum(calls_by_name.values())
    print(f"{responses} responses, {total} calls", file=sys.stderr)
    for name, count in calls_by_name.most_common():
        print(f"  {name}: {count}", file=sys.stderr)
    if issues_by_kind:
        print(
            "issues: " + ", ".join(f"{k}={v}" for k, v in sorted(issues_by_kind.items())),
            file=sys.stderr,
        )
    return 1 if args.fail_on_issues and issues_by_kind else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="toolsift", description=__doc__.splitlines()[0] if __doc__ else None
    )
    sub = parser.add_subparsers(dest="command", required=True)
    extract = sub.add_parser("extract", help="print the tool calls found in files")
    extract.add_argument("paths", nargs="+", help="text or JSONL files, or folders of them")
    extract.add_argument("--syntax", default="tool_call_json", choices=SYNTAXES)
    extract.add_argument("--marker", default="TOOL_CALL", help="literal marker of tool_call_json")
    extract.add_argument("--fail-on-issues", action="store_true", help="exit 1 if any issue")
    args = parser.parse_args(argv)
    try:
        return _extract(args)
    except (OSError, ToolsiftError) as err:
        print(f"toolsift: {err}", file=sys.stderr)
        return 2
