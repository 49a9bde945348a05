"""Per-format streaming benchmark: one call whose ``content`` argument is 50 KB of code,
streamed in 4-character deltas, in each open-model format.

Usage::

    python benches/format_stream.py [--quick] [--write BENCHMARKS.md]

For every format, toolsift's ``StreamParser`` is fed every delta (argument previews on, as a
UI would have them) and compared with the pattern serving stacks use today: keep the whole
reply and, at every delta, parse the open call again from its start — the JSON formats with
``partial_json_parser`` (from the call's first ``{`` or ``[`` to its end token or the end of
what has arrived), the tagged formats by re-scanning the reply with the parameter regex
(vLLM's Qwen3-Coder / GLM pattern), ``pythonic`` with ``ast.parse`` of the closed-off prefix.
The re-parsers are timed on sampled windows of deltas and extrapolated over all of them (a
full run takes minutes per format); toolsift is timed over the whole stream. Growth is
toolsift's time at 50 KB over its time at 5 KB (linear is 10).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from report_parts import cpu_model, dist_version, optional_module, write_section
from stream_compare import _integrate, code_text, timed

import toolsift

BEGIN = "<!-- format_stream.py:begin -->"
END = "<!-- format_stream.py:end -->"
TITLE = "# toolsift benchmarks"
REPRODUCE = "python benches/format_stream.py --write BENCHMARKS.md"
DELTA = 4
GOAL = 100.0
TIMES = "\N{MULTIPLICATION SIGN}"


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Format:
    name: str
    write: Callable[[dict[str, Any]], str]
    #: JSON formats: (token before the call's JSON, its first character, end token or "").
    json_at: tuple[str, str, str] | None = None
    #: Tagged formats: the parameter pattern re-scanned at every delta.
    tags: str = ""


def _call(a: dict[str, Any], key: str = "arguments") -> str:
    return _j({"name": "write_file", key: a})


DS = ("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", "<｜tool▁call▁end｜><｜tool▁calls▁end｜>")

FORMATS = [
    Format(
        "hermes",
        lambda a: f"Writing.\n<tool_call>\n{_call(a)}\n</tool_call>",
        json_at=("<tool_call>", "{", "</tool_call>"),
    ),
    Format(
        "llama3_json",
        lambda a: f"<|python_tag|>{_call(a, 'parameters')}",
        json_at=("<|python_tag|>", "{", ""),
    ),
    Format(
        "mistral", lambda a: f"[TOOL_CALLS]write_file[ARGS]{_j(a)}", json_at=("[ARGS]", "{", "")
    ),
    Format(
        "deepseek_v3",
        lambda a: f"{DS[0]}function<｜tool▁sep｜>write_file\n```json\n{_j(a)}\n```{DS[1]}",
        json_at=("```json", "{", "\n```"),
    ),
    Format(
        "deepseek_v31",
        lambda a: f"{DS[0]}write_file<｜tool▁sep｜>{_j(a)}{DS[1]}",
        json_at=("<｜tool▁sep｜>", "{", "<｜tool▁call▁end｜>"),
    ),
    Format(
        "kimi_k2",
        lambda a: (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0"
            f"<|tool_call_argument_begin|>{_j(a)}<|tool_call_end|><|tool_calls_section_end|>"
        ),
        json_at=("<|tool_call_argument_begin|>", "{", "<|tool_call_end|>"),
    ),
    Format(
        "gpt_oss",
        lambda a: (
            "<|start|>assistant<|channel|>commentary to=functions.write_file "
            f"<|constrain|>json<|message|>{_j(a)}<|call|>"
        ),
        json_at=("<|constrain|>json<|message|>", "{", "<|call|>"),
    ),
    Format("granite", lambda a: f"<|tool_call|>[{_call(a)}]", json_at=("<|tool_call|>", "[", "")),
    Format(
        "jamba",
        lambda a: f"<tool_calls>[{_call(a)}]</tool_calls>",
        json_at=("<tool_calls>", "[", "</tool_calls>"),
    ),
    Format("xlam", lambda a: f"```json\n[{_call(a)}]\n```", json_at=("```json", "[", "\n```")),
    Format(
        "internlm",
        lambda a: f"<|action_start|><|plugin|>{_call(a, 'parameters')}<|action_end|>",
        json_at=("<|plugin|>", "{", "<|action_end|>"),
    ),
    Format(
        "qwen3_coder",
        lambda a: (
            "<tool_call>\n<function=write_file>\n"
            + "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in a.items())
            + "</function>\n</tool_call>"
        ),
        tags=r"<parameter=([^>]*)>\n?(.*?)(?:\n?</parameter>|\Z)",
    ),
    Format(
        "glm45",
        lambda a: (
            "<tool_call>write_file\n"
            + "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n" for k, v in a.items())
            + "</tool_call>"
        ),
        tags=r"<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)(?:</arg_value>|\Z)",
    ),
    Format(
        "minimax_m2",
        lambda a: (
            '<minimax:tool_call>\n<invoke name="write_file">\n'
            + "".join(f'<parameter name="{k}">{v}</parameter>\n' for k, v in a.items())
            + "</invoke>\n</minimax:tool_call>"
        ),
        tags=r'<parameter name="([^"]*)">(.*?)(?:</parameter>|\Z)',
    ),
    Format(
        "deepseek_dsml",
        lambda a: (
            '<｜DSML｜function_calls>\n<｜DSML｜invoke name="write_file">\n'
            + "".join(
                f'<｜DSML｜parameter name="{k}" string="true">{v}</｜DSML｜parameter>\n'
                for k, v in a.items()
            )
            + "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
        ),
        tags=r'<｜DSML｜parameter name="([^"]*)"[^>]*>(.*?)(?:</｜DSML｜parameter>|\Z)',
    ),
    Format(
        "step3",
        lambda a: (
            "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>"
            '<steptml:invoke name="write_file">'
            + "".join(
                f'<steptml:parameter name="{k}">{v}</steptml:parameter>' for k, v in a.items()
            )
            + "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"
        ),
        tags=r'<steptml:parameter name="([^"]*)">(.*?)(?:</steptml:parameter>|\Z)',
    ),
    Format(
        "pythonic", lambda a: "[write_file(" + ", ".join(f"{k}={v!r}" for k, v in a.items()) + ")]"
    ),
]


def _arguments(nbytes: int) -> dict[str, Any]:
    return {"path": "src/generated/module.py", "content": code_text(nbytes)}


def _deltas(text: str) -> list[str]:
    return [text[i : i + DELTA] for i in range(0, len(text), DELTA)]


def toolsift_run(fmt: Format, deltas: list[str]) -> dict[str, Any]:
    parser = toolsift.StreamParser(fmt.name)
    feed = parser.feed
    for delta in deltas:
        feed(delta)
    parser.finish()
    (call,) = parser.result().calls
    return call.arguments


def reparser(fmt: Format, pjp: Any) -> Callable[[str], Any]:
    """One re-parse of the whole reply so far (the pattern toolsift replaces)."""
    if fmt.json_at is not None:
        token, first, end = fmt.json_at

        def parse_json(buf: str) -> Any:
            at = buf.find(token)
            start = buf.find(first, at + len(token)) if at >= 0 else -1
            if start < 0:
                return None
            stop = buf.find(end, start) if end else -1
            return pjp.loads(buf[start : stop if stop >= 0 else len(buf)])

        return parse_json
    if fmt.tags:
        pattern = re.compile(fmt.tags, re.S)
        return lambda buf: {m.group(1): m.group(2) for m in pattern.finditer(buf)}

    def parse_python(buf: str) -> Any:
        for tail in ("')]", '")]', ")]", "]", ""):
            try:
                return ast.parse(buf + tail)
            except SyntaxError:
                continue
        return None

    return parse_python


def sampled(parse: Callable[[str], Any], deltas: list[str], windows: int, window: int) -> float:
    """Seconds for re-parsing at every delta, from ``windows`` timed windows of ``window``
    deltas, evenly spaced and linearly interpolated over all deltas."""
    n = len(deltas)
    ends = [0]
    for d in deltas:
        ends.append(ends[-1] + len(d))
    text = "".join(deltas)
    points = []
    for j in range(windows):
        s = round(j * (n - window) / max(1, windows - 1))
        bufs = [text[: ends[k + 1]] for k in range(s, s + window)]

        def run(bufs: list[str] = bufs) -> None:
            for b in bufs:
                try:
                    parse(b)
                except Exception:  # a partial parser rejects some prefixes; the pattern skips
                    pass

        points.append((s + (window - 1) / 2, timed(run)[0] / window))
    return _integrate(points, n)


@dataclass
class Row:
    name: str
    kb: int
    toolsift_s: float
    small_s: float
    peer_s: float | None
    correct: bool

    @property
    def ratio(self) -> float | None:
        return None if self.peer_s is None else self.peer_s / self.toolsift_s

    @property
    def growth(self) -> float:
        return self.toolsift_s / self.small_s


def best(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    results = [timed(fn) for _ in range(runs)]
    return min(t for t, _ in results), results[-1][1]


def measure(fmt: Format, quick: bool, pjp: Any) -> Row:
    runs = 3 if quick else 7
    big, small = _arguments(50_000), _arguments(5_000)
    deltas_big, deltas_small = _deltas(fmt.write(big)), _deltas(fmt.write(small))
    t_big, args = best(lambda: toolsift_run(fmt, deltas_big), runs)
    # The 5 KB run is short, so more repeats keep machine noise out of the growth figure.
    t_small, _ = best(lambda: toolsift_run(fmt, deltas_small), runs * 3)
    peer = None
    if pjp is not None or fmt.json_at is None:
        parse = reparser(fmt, pjp)
        peer = sampled(parse, deltas_big, 5 if quick else 9, 10 if quick else 30)
    return Row(fmt.name, 50, t_big, t_small, peer, args == big)


def section(rows: list[Row]) -> str:
    lines = [
        "## Per format: a 50 KB argument streamed in 4-character deltas",
        "",
        f"Reproduce: `{REPRODUCE}` (CPU: {cpu_model()}; partial-json-parser "
        f"{dist_version('partial-json-parser')}). Goal: ≥ {GOAL:.0f}{TIMES} faster than "
        "re-parsing the reply at every delta, and linear growth from 5 KB to 50 KB (10 is "
        "linear). Re-parse times are extrapolated from sampled windows.",
        "",
        "| format | toolsift 50 KB | re-parse at every delta | ratio | growth 5→50 KB | correct |",
        "|---|---:|---:|---:|---:|:-:|",
    ]
    for r in rows:
        peer = "n/a" if r.peer_s is None else f"{r.peer_s:.2f} s"
        ratio = "n/a" if r.ratio is None else f"{r.ratio:,.0f}{TIMES}"
        lines.append(
            f"| `{r.name}` | {r.toolsift_s * 1e3:.1f} ms | {peer} | {ratio} | "
            f"{r.growth:.1f} | {'yes' if r.correct else 'NO'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--write", type=Path)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    pjp = optional_module("partial_json_parser")
    rows = []
    for fmt in FORMATS:
        if args.only and fmt.name not in args.only:
            continue
        row = measure(fmt, args.quick, pjp)
        rows.append(row)
        print(
            f"{fmt.name:14} toolsift {row.toolsift_s * 1e3:7.1f} ms  growth {row.growth:4.1f}  "
            f"peer {row.peer_s or 0:7.2f} s  ratio {row.ratio or 0:8.0f}  ok={row.correct}",
            flush=True,
        )
    text = section(rows)
    if args.write:
        write_section(args.write, TITLE, BEGIN, END, text)
    else:
        print(text)
    return 0 if all(r.correct for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
