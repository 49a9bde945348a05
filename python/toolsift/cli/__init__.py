"""The ``toolsift`` command line (also ``python -m toolsift``).

``toolsift extract INPUT… [-o OUTPUT]`` pulls the tool calls out of text, JSONL and Parquet
files (folders stand for the files in them) and writes one row per call, as JSONL or
Parquet, then prints a summary on stderr. ``toolsift bench`` measures ``parse_many`` on the
inputs with 1 and more workers. ``toolsift manifest`` prints the tools section of a system
prompt; ``toolsift format`` writes extracted calls back as text in another syntax. Exit
status: 0, 1 when ``--fail-on-issues`` saw an issue, 2 on an error (a bad record under
``--on-error fail``, a missing file, a bad option).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import ToolsiftError
from ..parsing import AUTO
from ..streaming import ENGINE_SYNTAXES
from .bench import run_bench
from .extract import ExtractOptions, InputError, load_tools, run_extract
from .formatting import run_format, run_manifest
from .inputs import BadRecord, ReadOptions

__all__ = ["main"]

DEFAULT_ROLES = "assistant,gpt,model"


def _syntaxes(value: str) -> tuple[str, ...]:
    if value == "all":
        return tuple(ENGINE_SYNTAXES)
    names = tuple(n.strip() for n in value.split(","))
    unknown = [n for n in names if n not in ENGINE_SYNTAXES and n != AUTO]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown syntax {unknown[0]!r}; known: all, auto, {', '.join(ENGINE_SYNTAXES)}"
        )
    return names


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT", help=".jsonl, .parquet, .txt or a folder")
    p.add_argument(
        "--syntax",
        type=_syntaxes,
        default=("tool_call_json",),
        help="syntax name, comma list, 'auto' or 'all' (default tool_call_json); a record's own "
        "--syntax-field wins",
    )
    p.add_argument("--syntax-field", default="syntax", help="record field naming its syntax")
    p.add_argument("--field", help="record field with the text or messages (default: auto)")
    p.add_argument("--roles", default=DEFAULT_ROLES, help="message roles to parse")
    p.add_argument("--workers", type=int, help="parser threads (default: one per CPU)")
    p.add_argument("--marker", help="literal marker of tool_call_json (default TOOL_CALL)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolsift", description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    extract = sub.add_parser("extract", help="write the tool calls found in files")
    _add_input_options(extract)
    extract.add_argument("-o", "--output", default="-", help="file (.jsonl/.parquet) or -")
    extract.add_argument("--format", choices=("jsonl", "parquet"), help="default: by suffix")
    extract.add_argument("--tools", help="tools.json: OpenAI-style definitions for typing")
    extract.add_argument("--on-error", choices=("skip", "fail"), default="skip")
    extract.add_argument("--fail-on-issues", action="store_true", help="exit 1 if any issue")
    extract.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    extract.add_argument("-q", "--quiet", action="store_true", help="no summary")
    bench = sub.add_parser("bench", help="measure parse_many on the inputs")
    _add_input_options(bench)
    bench.add_argument("--repeat", type=int, default=3, help="best of N passes")
    man = sub.add_parser("manifest", help="print the tools section of a system prompt")
    man.add_argument("tools", help="tools.json: OpenAI-style definitions")
    man.add_argument("--syntax", help="syntax to describe (default: TOOLSIFT_SYNTAX or json)")
    man.add_argument("--provider", help="a provider's default syntax (qwen, openai, …)")
    man.add_argument("--model", help="the syntax this model writes")
    man.add_argument("--no-examples", action="store_true", help="leave out the examples")
    fmt = sub.add_parser("format", help="write calls (JSONL rows) back as model text")
    fmt.add_argument("inputs", nargs="+", metavar="CALLS", help="JSONL rows with name, arguments")
    fmt.add_argument("--syntax", required=True, help="syntax to write")
    fmt.add_argument("-o", "--output", default="-", help="JSONL file or - (stdout)")
    fmt.add_argument("--on-error", choices=("skip", "fail"), default="skip")
    return parser


def _read_options(args: argparse.Namespace) -> ReadOptions:
    roles = frozenset(r.strip() for r in args.roles.split(","))
    return ReadOptions(args.field, roles, args.syntax_field)


def _extract(args: argparse.Namespace) -> int:
    options = ExtractOptions(
        paths=args.inputs,
        output=args.output,
        output_format=args.format,
        syntax=args.syntax,
        read=_read_options(args),
        tools=load_tools(args.tools) if args.tools else None,
        marker=args.marker,
        workers=args.workers,
        on_error=args.on_error,
        progress=args.progress,
    )
    summary = run_extract(options)
    if not args.quiet:
        print(summary.render(), file=sys.stderr)
    return 1 if args.fail_on_issues and summary.issues else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "extract":
            return _extract(args)
        if args.command == "bench":
            print(run_bench(args.inputs, _read_options(args), args.syntax, args.repeat))
            return 0
        if args.command == "manifest":
            print(
                run_manifest(
                    args.tools, args.syntax, args.provider, args.model, not args.no_examples
                )
            )
            return 0
        written, skipped = run_format(args.inputs, args.syntax, args.output, args.on_error)
        print(f"{written} replies written, {skipped} rows skipped", file=sys.stderr)
        return 0
    except (OSError, ToolsiftError, InputError, BadRecord) as err:
        print(f"toolsift: {err}", file=sys.stderr)
        return 2
