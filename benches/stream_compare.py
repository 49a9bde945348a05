"""Streaming benchmarks: ``toolsift.StreamParser`` vs re-parsing the prefix, and vs autobyteus.

Usage::

    python benches/stream_compare.py [--quick] [--write BENCHMARKS.md]

Three rows, each checked against a goal of the streaming issue (see ``benches/README.md``):

1. a ``write_file`` call whose ``content`` is 20 KB of code-like text, streamed in 4-character
   deltas in the ``hermes`` syntax: toolsift vs the client-side pattern of re-parsing the
   accumulated JSON prefix at every delta with ``jiter`` (partial mode) and with
   ``partial_json_parser`` (sampled and extrapolated: a full run takes minutes);
2. growth: the same call with 200 KB of content, and the per-delta cost early and late;
3. autobyteus' own streaming parser and toolsift on identical texts cut into identical chunks,
   for the syntaxes both read (``xml_tool``, ``sentinel``, ``json_openai``, ``json_gemini``,
   ``json_default``).

A row whose syntax the streaming engine does not run yet (not in
``toolsift.streaming.ENGINE_SYNTAXES``) prints "syntax not available yet"; a peer that is not
installed is reported as such. Inputs are generated from seeded ``random.Random`` instances.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import io
import json
import logging
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from report_parts import cpu_model, dist_version, optional_module, write_section

import toolsift
from toolsift.streaming import ENGINE_SYNTAXES

BEGIN = "<!-- stream_compare.py:begin -->"
END = "<!-- stream_compare.py:end -->"
TITLE = "# toolsift benchmarks"
REPRODUCE = "python benches/stream_compare.py --write BENCHMARKS.md"
SEED = 20251122
DELTA_CHARS = 4
NOT_AVAILABLE = "syntax not available yet"
TIMES = "\N{MULTIPLICATION SIGN}"

#: Distributions whose versions the report lists.
PACKAGES = ("toolsift", "jiter", "partial-json-parser", "autobyteus", "orjson")

Call = tuple[str, Any]


@dataclass(frozen=True)
class Settings:
    small_bytes: int  # row 1
    big_bytes: int  # row 2
    toolsift_runs: int  # best of, per size
    jiter_runs: int  # best of, 20 KB
    profile_runs: int  # runs timing the first and last 10% of toolsift's deltas
    pjp_windows: int  # sampled windows of partial_json_parser
    pjp_window: int  # deltas per window
    pjp_reps: int  # best of, per window
    jiter_big_window: int  # deltas per sampled window of jiter over the 200 KB stream
    docs: int  # documents per autobyteus workload
    peer_runs: int  # best of, autobyteus workloads


FULL = Settings(20_000, 200_000, 21, 7, 7, 9, 40, 3, 100, 60, 9)
QUICK = Settings(20_000, 200_000, 7, 3, 3, 5, 10, 1, 30, 15, 3)


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------

_WORDS = (
    "value",
    "config",
    "résumé",
    "naïve",
    "café",
    "日本語",
    "Ωmega",
    "señal",
    "größe",
    "données",
    "🚀",
    "—",
    "batch",
    "retry",
    "ünïcödé",
)
_IDENTS = ("user", "item", "count", "path", "buffer", "token", "result", "node", "state", "cache")


def _code_line(rng: random.Random) -> str:
    a, b, c = rng.sample(_IDENTS, 3)
    w, w2 = rng.choice(_WORDS), rng.choice(_WORDS)
    n, m = rng.randint(0, 999), rng.randint(0, 99)
    templates = (
        f'def {a}_{n}(self, {b}: dict[str, int] = {{}}) -> "{c}":\n',
        f'    {a} = {{"{w}": {n}, \'{b}\': [{n}, {m}], "path": "C:\\\\tmp\\\\{a}"}}\n',
        f'    print(f"{{{a}!r}} → {w} \\"{b}\\" {{{{literal}}}}")\n',
        f"    if {a} > {n} and {b}[\"{w}\"] != '{c}':\n",
        f'        return {{"ok": True, "msg": "{w} — done\\n", "n": {n}.{m}}}\n',
        f"\t{a}.append(({b}, '{w2}'))  # tab-indented, «{w}»\n",
        "\n",
        f"    # {w} {w2}: {c} 日本 {n}% </div> <b>{a}</b>\n",
        f"    {a}_{m} = [x for x in {b} if x not in {{'{w}', \"{w2}\"}}]\n",
        f'    raise ValueError("bad {a}: \\\\d+ {{}}".format({b}))\n',
    )
    return rng.choice(templates)


def code_text(nbytes: int, seed: int = SEED) -> str:
    """Python-like source of at most ``nbytes`` UTF-8 bytes (a few bytes fewer when the cut falls
    inside a multi-byte character): quotes of both kinds, backslashes, braces, brackets, tabs,
    HTML-ish tags, newlines and non-ASCII words."""
    rng = random.Random(seed)
    lines: list[str] = []
    size = 0
    while size < nbytes:
        line = _code_line(rng)
        lines.append(line)
        size += len(line.encode())
    return "".join(lines).encode()[:nbytes].decode(errors="ignore")


@dataclass(frozen=True)
class Stream:
    """One model reply holding one ``hermes`` call, and its deltas."""

    text: str
    name: str
    arguments: dict[str, Any]
    deltas: list[str]
    content_bytes: int

    @property
    def nbytes(self) -> int:
        return len(self.text.encode())


def hermes_write_file(content_bytes: int, delta: int = DELTA_CHARS, seed: int = SEED) -> Stream:
    """A ``write_file`` call in the ``hermes`` syntax whose ``content`` holds ``content_bytes``
    of code, cut into ``delta``-character deltas."""
    arguments = {
        "path": f"src/generated/module_{content_bytes}.py",
        "content": code_text(content_bytes, seed),
        "overwrite": True,
        "mode": 420,
    }
    call = json.dumps({"name": "write_file", "arguments": arguments}, ensure_ascii=False)
    text = f"I'll write the module now.\n<tool_call>\n{call}\n</tool_call>"
    deltas = [text[i : i + delta] for i in range(0, len(text), delta)]
    return Stream(text, "write_file", arguments, deltas, content_bytes)


# --------------------------------------------------------------------------------------------
# Row 1-2 implementations
# --------------------------------------------------------------------------------------------


def toolsift_stream(deltas: Sequence[str], syntax: str | Sequence[str] = "hermes") -> list[Call]:
    """Feeds every delta to a new ``StreamParser``; returns the calls as (name, arguments)."""
    parser = toolsift.StreamParser(syntax)
    feed = parser.feed
    for delta in deltas:
        feed(delta)
    parser.finish()
    return [(c.name, c.arguments) for c in parser.result().calls]


OPEN_TAG, CLOSE_TAG = "<tool_call>", "</tool_call>"


def _without_partial_close(text: str) -> str:
    """Drops a trailing start of ``</tool_call>`` (a delta may end inside the tag)."""
    for k in range(min(len(CLOSE_TAG) - 1, len(text)), 0, -1):
        if text.endswith(CLOSE_TAG[:k]):
            return text[:-k]
    return text


class Reparser:
    """The client-side pattern toolsift replaces: keep the whole reply and, at every delta,
    parse the open call's JSON again, from its first ``{`` to the end of what has arrived (or
    to ``</tool_call>``), with a partial-JSON parser. The last value is the call."""

    def __init__(self, parse: Callable[[str], Any]) -> None:
        self.parse = parse
        self.buf = ""
        self.start = -1
        self.value: Any = None
        self.errors = 0

    def prime(self, text: str) -> None:
        """Sets the state reached after ``text`` without parsing (for sampled windows)."""
        self.buf = text
        self._locate()

    def _locate(self) -> None:
        tag = self.buf.find(OPEN_TAG)
        if tag >= 0:
            self.start = self.buf.find("{", tag + len(OPEN_TAG))

    def feed(self, delta: str) -> None:
        self.buf += delta
        if self.start < 0:
            self._locate()
            if self.start < 0:
                return
        end = self.buf.find(CLOSE_TAG, self.start)
        body = (
            self.buf[self.start : end]
            if end >= 0
            else _without_partial_close(self.buf[self.start :])
        )
        try:
            self.value = self.parse(body)
        except Exception:  # a partial parser may reject some prefixes; the pattern skips them
            self.errors += 1


def _jiter_parse() -> Callable[[str], Any] | None:
    jiter = optional_module("jiter")
    if jiter is None:
        return None

    def parse(body: str) -> Any:
        return jiter.from_json(body.encode(), partial_mode="trailing-strings")

    return parse


def _pjp_parse() -> Callable[[str], Any] | None:
    pjp = optional_module("partial_json_parser")
    return None if pjp is None else pjp.loads


def reparse_stream(deltas: Sequence[str], parse: Callable[[str], Any]) -> Reparser:
    r = Reparser(parse)
    feed = r.feed
    for delta in deltas:
        feed(delta)
    return r


def reparse_correct(value: Any, stream: Stream) -> bool:
    return (
        isinstance(value, dict)
        and value.get("name") == stream.name
        and value.get("arguments") == stream.arguments
    )


# --------------------------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds ``fn()`` takes with the GC off (as ``timeit`` does), and its result."""
    wall, _, out = timed2(fn)
    return wall, out


def timed2(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall-clock and CPU seconds of ``fn()`` with the GC off, and its result."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        return time.perf_counter() - t0, time.process_time() - c0, out
    finally:
        if enabled:
            gc.enable()


@dataclass
class Best:
    wall: float  # best wall-clock seconds
    cpu: float  # best CPU seconds of the process (not always the same run)
    out: Any  # result of the last run


def best_of(fns: dict[str, Callable[[], Any]], runs: int) -> dict[str, Best]:
    """Best times of each function over ``runs`` round-robin runs, and its last result."""
    best: dict[str, Best] = {}
    for _ in range(runs):
        for label, fn in fns.items():
            wall, cpu, out = timed2(fn)
            if label not in best:
                best[label] = Best(wall, cpu, out)
            else:
                b = best[label]
                b.wall, b.cpu, b.out = min(b.wall, wall), min(b.cpu, cpu), out
    return best


@dataclass
class Tenths:
    """Mean seconds per delta over the first and the last 10% of a stream's streaming deltas,
    and the seconds of the delta that ends the call (``close_*``)."""

    first_wall: float
    last_wall: float
    first_cpu: float
    last_cpu: float
    close_cpu: float = float("nan")


def tenth_blocks(
    make_feed: Callable[[], Callable[[str], Any]], deltas: Sequence[str], runs: int
) -> Tenths:
    """Feeds every delta to ``make_feed()`` (a new consumer per run) and times the block of the
    first 10% of the deltas, the block of the last 10% before the final delta, and the final
    delta alone (wall clock and CPU), each the best over ``runs`` runs, per delta. The final
    delta (it completes ``</tool_call>``) is timed apart because it does the call's one-off
    work, proportional to the call (its arguments decoded into Python objects once): in a
    block of late deltas it would read as a per-delta cost that grows with the stream."""
    n = len(deltas)
    k = max(1, (n - 1) // 10)
    best = [float("inf")] * 6
    for _ in range(runs):
        feed = make_feed()
        enabled = gc.isenabled()
        gc.collect()
        gc.disable()
        try:
            pos = 0
            for i, (a, b) in enumerate(((0, k), (n - 1 - k, n - 1), (n - 1, n))):
                for d in deltas[pos:a]:
                    feed(d)
                c0, t0 = time.process_time(), time.perf_counter()
                for d in deltas[a:b]:
                    feed(d)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                best[2 * i] = min(best[2 * i], wall / (b - a))
                best[2 * i + 1] = min(best[2 * i + 1], cpu / (b - a))
                pos = b
        finally:
            if enabled:
                gc.enable()
    return Tenths(best[0], best[2], best[1], best[3], best[5])


def _toolsift_feed() -> Callable[[str], Any]:
    return toolsift.StreamParser("hermes").feed


@dataclass
class Estimate:
    """A re-parser's total time over all deltas, extrapolated from sampled windows."""

    total: float  # wall-clock seconds
    total_cpu: float  # CPU seconds
    points: list[tuple[float, float]]  # (delta index at the window centre, s per delta)
    points_cpu: list[tuple[float, float]]  # the same in CPU seconds
    window: int
    value: Any  # the value after the last delta (the last window ends there)
    errors: int


def _integrate(points: Sequence[tuple[float, float]], n: int) -> float:
    """Sum over delta indexes 0..n-1 of the piecewise-linear interpolation of ``points``
    (constant before the first point and after the last)."""
    xs = [x for x, _ in points]
    total = 0.0
    for i in range(n):
        j = bisect.bisect_left(xs, i)
        if j == 0:
            total += points[0][1]
        elif j == len(xs):
            total += points[-1][1]
        else:
            (x0, y0), (x1, y1) = points[j - 1], points[j]
            total += y0 + (y1 - y0) * (i - x0) / (x1 - x0)
    return total


def sampled_reparse(
    deltas: Sequence[str], parse: Callable[[str], Any], windows: int, window: int, reps: int
) -> Estimate:
    """Times ``windows`` runs of ``window`` consecutive deltas, evenly spaced from the first
    delta to the last (the re-parser is primed with the text before each window, untimed);
    the per-delta cost is taken as piecewise linear in the delta index between window centres
    (constant before the first and after the last) and summed over every delta."""
    n = len(deltas)
    window = min(window, n)
    starts = sorted({round(j * (n - window) / max(1, windows - 1)) for j in range(windows)})
    prefix = [0]
    for d in deltas:
        prefix.append(prefix[-1] + len(d))
    text = "".join(deltas)
    points: list[tuple[float, float]] = []
    points_cpu: list[tuple[float, float]] = []
    value: Any = None
    errors = 0
    for s in starts:
        best = best_cpu = float("inf")
        for _ in range(reps):
            r = Reparser(parse)
            r.prime(text[: prefix[s]])
            chunk = deltas[s : s + window]
            wall, cpu, _ = timed2(lambda r=r, chunk=chunk: [r.feed(d) for d in chunk])
            best, best_cpu = min(best, wall / len(chunk)), min(best_cpu, cpu / len(chunk))
            value, errors = r.value, r.errors
        centre = s + (window - 1) / 2
        points.append((centre, best))
        points_cpu.append((centre, best_cpu))
    total, total_cpu = _integrate(points, n), _integrate(points_cpu, n)
    return Estimate(total, total_cpu, points, points_cpu, window, value, errors)


# --------------------------------------------------------------------------------------------
# Row 3: autobyteus workloads
# --------------------------------------------------------------------------------------------


@dataclass
class Doc:
    text: str
    calls: list[Call]
    protect: list[tuple[int, int]] = field(default_factory=list)  # spans a chunk must not cut


_SENTENCES = (
    "Let me check the repository layout first.",
    "The previous run failed because the cache was stale.",
    "I'll look at the configuration and then update it.",
    "Results so far: 3 matches, 1 warning — see below.",
    "Note that naïve retries can make things worse (x < y here).",
    "Les données sont prêtes; 日本語のテキストも含まれます。",
    "Use the {placeholder} syntax in templates, and [1] for references.",
    "Done. Tell me if you want the résumé in another format.",
)


def _prose(rng: random.Random) -> str:
    picks = [rng.choice(_SENTENCES) for _ in range(rng.randint(1, 4))]
    return " ".join(picks)


def _phrase(rng: random.Random, lo: int = 2, hi: int = 8) -> str:
    words = [rng.choice(_WORDS + _IDENTS) for _ in range(rng.randint(lo, hi))]
    extra = rng.choice(("", ' "quoted"', " a & b", " x < y > z", " {braces}", " it's", ""))
    return " ".join(words) + extra


def _string_args(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Arguments whose leaves are strings (what XML carries): strings, lists, objects."""
    kind = rng.randrange(4)
    if kind == 0:
        return "search", {"query": _phrase(rng), "limit": str(rng.randint(1, 50))}
    if kind == 1:
        body = "\n".join(_phrase(rng, 4, 12) for _ in range(rng.randint(1, 4)))
        return "send_email", {
            "to": [f"{rng.choice(_IDENTS)}@example.com" for _ in range(rng.randint(1, 3))],
            "subject": _phrase(rng, 2, 5),
            "body": body,
        }
    if kind == 2:
        return "read_file", {"path": f"/srv/{rng.choice(_IDENTS)}/{rng.randint(0, 99)}.txt"}
    return "update_record", {
        "id": str(rng.randint(1000, 9999)),
        "fields": {"status": rng.choice(("open", "closed")), "note": _phrase(rng)},
        "tags": [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))],
    }


def _typed_args(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Arguments with JSON types: strings, integers, floats, booleans, null, lists, objects."""
    kind = rng.randrange(4)
    if kind == 0:
        return "search", {"query": _phrase(rng), "limit": rng.randint(1, 50), "fuzzy": True}
    if kind == 1:
        return "get_weather", {
            "location": {"city": rng.choice(("Zürich", "São Paulo", "東京")), "lat": 47.37},
            "units": rng.choice(("metric", "imperial")),
            "days": rng.randint(1, 7),
            "alerts": None,
        }
    if kind == 2:
        return "write_file", {"path": "src/app.py", "content": code_text(rng.randint(200, 1500))}
    return "update_record", {
        "id": rng.randint(1000, 9999),
        "fields": {"status": rng.choice(("open", "closed")), "score": rng.random() * 10},
        "tags": [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))],
    }


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_value(value: Any) -> str:
    if isinstance(value, list):
        return "".join(f"<item>{_xml_escape(v)}</item>" for v in value)
    if isinstance(value, dict):
        return "".join(f'<arg name="{k}">{_xml_value(v)}</arg>' for k, v in value.items())
    return _xml_escape(value)


def xml_tool_docs(n: int, seed: int = SEED) -> list[Doc]:
    """Replies with one or two ``<tool name="...">`` calls, with or without ``<arguments>``."""
    docs = []
    for i in range(n):
        rng = random.Random(f"{seed}-xml-{i}")
        parts, calls = [_prose(rng)], []
        for _ in range(rng.randint(1, 2)):
            name, args = _string_args(rng)
            flat = all(isinstance(v, str) and "\n" not in v for v in args.values())
            if flat and rng.random() < 0.5:  # direct children: <tool name="f"><path>..</path>
                inner = "".join(f"<{k}>{_xml_escape(v)}</{k}>" for k, v in args.items())
            else:
                inner = f"<arguments>{_xml_value(args)}</arguments>"
            sep = rng.choice(("\n", " ", "\n\n"))
            parts.append(f'{sep}<tool name="{name}">{inner}</tool>{sep}{_prose(rng)}')
            calls.append((name, args))
        docs.append(Doc("".join(parts), calls))
    return docs


def sentinel_docs(n: int, seed: int = SEED) -> list[Doc]:
    """Replies with sentinel segments: ``tool`` (name and arguments in the header),
    ``write_file`` (path in the header, body verbatim) and ``run_bash`` (body)."""
    docs = []
    for i in range(n):
        rng = random.Random(f"{seed}-sentinel-{i}")
        text, calls, protect = _prose(rng), [], []
        for _ in range(rng.randint(1, 2)):
            kind = rng.randrange(3)
            if kind == 0:
                name, args = _typed_args(rng)
                header: dict[str, Any] = {"type": "tool", "tool_name": name, "arguments": args}
                body = ""
            elif kind == 1:
                path = f"src/{rng.choice(_IDENTS)}_{rng.randint(0, 99)}.py"
                header = {"type": "write_file", "path": path}
                body = code_text(rng.randint(200, 2000), seed=rng.randrange(1 << 30))
                name, args = "write_file", {"path": path, "content": body}
            else:
                header = {"type": "run_bash"}
                body = f"grep -rn '{rng.choice(_IDENTS)}' src | head -n {rng.randint(1, 50)}"
                name, args = "run_bash", {"command": body}
            head = json.dumps(header, ensure_ascii=False)
            if "]]" in head:  # autobyteus ends the header at the first "]]"
                continue
            text += rng.choice(("\n", " ", "\n\n"))
            start = len(text)
            text += f"[[SEG_START {head}]]"
            protect.append((start, len(text)))
            text += body
            protect.append((len(text), len(text) + len("[[SEG_END]]")))
            text += "[[SEG_END]]" + rng.choice(("\n", " ")) + _prose(rng)
            calls.append((name, args))
        docs.append(Doc(text, calls, protect))
    return docs


def json_docs(style: str, n: int, seed: int = SEED) -> list[Doc]:
    """Replies with one or two JSON calls in ``style`` (openai, gemini or default), one call
    per JSON object, compact or indented, between paragraphs of prose."""
    docs = []
    for i in range(n):
        rng = random.Random(f"{seed}-{style}-{i}")
        parts, calls = [_prose(rng)], []
        for j in range(rng.randint(1, 2)):
            name, args = _typed_args(rng)
            if style == "gemini":
                obj: Any = {"name": name, "args": args}
            elif style == "default":
                obj = {"tool": {"function": name, "parameters": args}}
            else:
                shape = rng.randrange(3)
                if shape == 0:
                    fn = {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}
                    obj = {
                        "tool_calls": [{"id": f"call_{i}_{j}", "type": "function", "function": fn}]
                    }
                elif shape == 1:
                    obj = {"function": {"name": name, "arguments": args}}
                else:
                    obj = {"tool": {"function": {"name": name, "arguments": args}}}
            indent = rng.choice((None, None, 2))
            payload = json.dumps(obj, ensure_ascii=False, indent=indent)
            parts.append(f"\n\n{payload}\n\n{_prose(rng)}")
            calls.append((name, args))
        docs.append(Doc("".join(parts), calls))
    return docs


def chunked(doc: Doc, rng: random.Random, lo: int, hi: int, whole: bool) -> list[str]:
    """Cuts ``doc.text`` into chunks of ``lo``..``hi`` characters; with ``whole``, a cut that
    falls inside a protected span moves to the end of the span."""
    cuts, pos, n = [], 0, len(doc.text)
    while pos < n:
        pos = min(n, pos + rng.randint(lo, hi))
        if whole:
            for a, b in doc.protect:
                if a < pos < b:
                    pos = b
        cuts.append(pos)
    out, prev = [], 0
    for c in cuts:
        out.append(doc.text[prev:c])
        prev = c
    return out


def _quiet_import(module: str) -> Any | None:
    """Imports an autobyteus module without its import-time banners on stdout/stderr."""
    sink = io.StringIO()
    with redirect_stdout(sink), redirect_stderr(sink):
        return optional_module(module)


def autobyteus_runner(kind: str) -> Callable[[list[str]], list[Call]] | None:
    """autobyteus' streaming pipeline for one syntax: a ``ParsingStreamingResponseHandler``
    (its ``StreamingParser`` state machine plus the ``ToolInvocationAdapter`` that turns
    segments into tool invocations), fed the chunks one by one, then ``finalize()``."""
    handlers = _quiet_import(
        "autobyteus.agent.streaming.handlers.parsing_streaming_response_handler"
    )
    if handlers is None:
        return None
    logging.getLogger("autobyteus").setLevel(logging.WARNING)
    from autobyteus.agent.streaming.parser.json_parsing_strategies import registry
    from autobyteus.agent.streaming.parser.parser_context import ParserConfig

    handler_cls = handlers.ParsingStreamingResponseHandler
    config = None
    parser_name = {"xml_tool": "xml", "sentinel": "sentinel"}.get(kind, "json")
    if parser_name == "json":
        profile = {
            "json_openai": registry.OPENAI_PROFILE,
            "json_gemini": registry.GEMINI_PROFILE,
            "json_default": registry.DEFAULT_PROFILE,
        }[kind]
        config = ParserConfig(
            json_tool_patterns=list(profile.signature_patterns), json_tool_parser=profile.parser
        )

    def run(chunks: list[str]) -> list[Call]:
        handler = handler_cls(parser_name=parser_name, config=config)
        feed = handler.feed
        for chunk in chunks:
            feed(chunk)
        handler.finalize()
        return [(inv.name, inv.arguments) for inv in handler.get_all_invocations()]

    return run


@dataclass
class PeerRow:
    label: str
    syntax: str
    chunking: str
    docs: list[Doc]
    chunks: list[list[str]]
    times: dict[str, float] = field(default_factory=dict)  # wall clock
    cpu: dict[str, float] = field(default_factory=dict)
    correct: dict[str, int] = field(default_factory=dict)
    status: str = ""

    @property
    def nbytes(self) -> int:
        return sum(len(d.text.encode()) for d in self.docs)

    @property
    def nchunks(self) -> int:
        return sum(len(c) for c in self.chunks)

    @property
    def ratio(self) -> float | None:
        """autobyteus' CPU time / toolsift's."""
        if "toolsift" in self.cpu and "autobyteus" in self.cpu:
            return self.cpu["autobyteus"] / self.cpu["toolsift"]
        return None

    @property
    def ratio_wall(self) -> float | None:
        if "toolsift" in self.times and "autobyteus" in self.times:
            return self.times["autobyteus"] / self.times["toolsift"]
        return None


TOKEN_CHUNKS = (1, 8)  # characters per chunk, uniform: roughly an LLM token or two


def peer_rows(settings: Settings) -> list[PeerRow]:
    n = settings.docs
    rows = []
    specs: list[tuple[str, str, list[Doc], bool]] = [
        ("xml_tool", "xml_tool", xml_tool_docs(n), False),
        ("sentinel", "sentinel", sentinel_docs(n), False),
        ("sentinel, markers whole", "sentinel", sentinel_docs(n), True),
        ("json_openai", "json_openai", json_docs("openai", n), False),
        ("json_gemini", "json_gemini", json_docs("gemini", n), False),
        ("json_default", "json_default", json_docs("default", n), False),
    ]
    lo, hi = TOKEN_CHUNKS
    for label, syntax, docs, whole in specs:
        rng = random.Random(f"{SEED}-chunks-{label}")
        chunks = [chunked(d, rng, lo, hi, whole) for d in docs]
        how = f"{lo}-{hi} chars" + (", markers never cut" if whole else "")
        rows.append(PeerRow(label, syntax, how, docs, chunks))
    return rows


def measure_peer_row(row: PeerRow, settings: Settings) -> None:
    peer = autobyteus_runner(row.syntax)
    fns: dict[str, Callable[[], Any]] = {}
    if row.syntax in ENGINE_SYNTAXES:
        syntax = row.syntax
        fns["toolsift"] = lambda: [toolsift_stream(c, syntax) for c in row.chunks]
    else:
        row.status = NOT_AVAILABLE
    if peer is not None:
        fns["autobyteus"] = lambda: [peer(c) for c in row.chunks]
    elif not row.status:
        row.status = "autobyteus not installed"
    if not fns:
        return
    best = best_of(fns, settings.peer_runs)
    for label, b in best.items():
        row.times[label] = b.wall
        row.cpu[label] = b.cpu
        row.correct[label] = sum(got == d.calls for got, d in zip(b.out, row.docs, strict=True))


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


@dataclass
class Results:
    small: Stream
    big: Stream
    toolsift_small: float = 0.0
    toolsift_small_cpu: float = float("inf")
    toolsift_big: float = 0.0
    toolsift_small_ok: bool = False
    toolsift_big_ok: bool = False
    ts_tenths_small: Tenths | None = None
    ts_tenths_big: Tenths | None = None
    jiter: tuple[float, bool, int, float] | None = None  # wall, correct, errors, CPU
    jiter_tenths_small: Tenths | None = None
    jiter_big: Estimate | None = None
    jiter_big_ok: bool = False
    growth_small: Best | None = None  # 20 KB, timed in the same round-robin as 200 KB
    growth_big: Best | None = None
    jiter_estimate: Estimate | None = None
    pjp: Estimate | None = None
    pjp_ok: bool = False
    peers: list[PeerRow] = field(default_factory=list)


def run_all(settings: Settings, log: Callable[[str], None]) -> Results:
    res = Results(hermes_write_file(settings.small_bytes), hermes_write_file(settings.big_bytes))
    small, big = res.small, res.big
    if "hermes" not in ENGINE_SYNTAXES:
        log(f"hermes: {NOT_AVAILABLE}")
        return res
    jparse, pparse = _jiter_parse(), _pjp_parse()
    expected = [(small.name, small.arguments)]

    log(f"row 1: {small.nbytes} B reply, {len(small.deltas)} deltas")
    fns: dict[str, Callable[[], Any]] = {"toolsift": lambda: toolsift_stream(small.deltas)}
    best = best_of(fns, settings.toolsift_runs)
    res.toolsift_small = best["toolsift"].wall
    res.toolsift_small_cpu = best["toolsift"].cpu
    res.toolsift_small_ok = best["toolsift"].out == expected
    if jparse is not None:
        jb = best_of(
            {
                "toolsift": lambda: toolsift_stream(small.deltas),
                "jiter": lambda: reparse_stream(small.deltas, jparse),
            },
            settings.jiter_runs,
        )
        res.toolsift_small = min(res.toolsift_small, jb["toolsift"].wall)
        res.toolsift_small_cpu = min(res.toolsift_small_cpu, jb["toolsift"].cpu)
        r = jb["jiter"].out
        res.jiter = (jb["jiter"].wall, reparse_correct(r.value, small), r.errors, jb["jiter"].cpu)
        res.jiter_tenths_small = tenth_blocks(lambda: Reparser(jparse).feed, small.deltas, 2)
        res.jiter_estimate = sampled_reparse(
            small.deltas, jparse, settings.pjp_windows, settings.pjp_window, settings.pjp_reps
        )
    if pparse is not None:
        log("row 1: partial_json_parser, sampled windows")
        res.pjp = sampled_reparse(
            small.deltas, pparse, settings.pjp_windows, settings.pjp_window, settings.pjp_reps
        )
        res.pjp_ok = reparse_correct(res.pjp.value, small)
    res.ts_tenths_small = tenth_blocks(_toolsift_feed, small.deltas, settings.profile_runs)

    log(f"row 2: {big.nbytes} B reply, {len(big.deltas)} deltas")
    bb = best_of(
        {
            "small": lambda: toolsift_stream(small.deltas),
            "big": lambda: toolsift_stream(big.deltas),
        },
        settings.toolsift_runs,
    )
    res.growth_small, res.growth_big = bb["small"], bb["big"]
    res.toolsift_small = min(res.toolsift_small, bb["small"].wall)
    res.toolsift_small_cpu = min(res.toolsift_small_cpu, bb["small"].cpu)
    res.toolsift_big = bb["big"].wall
    res.toolsift_big_ok = bb["big"].out == [(big.name, big.arguments)]
    res.ts_tenths_big = tenth_blocks(_toolsift_feed, big.deltas, settings.profile_runs)
    if jparse is not None:
        log("row 2: jiter, sampled windows over the 200 KB stream")
        res.jiter_big = sampled_reparse(
            big.deltas, jparse, settings.pjp_windows, settings.jiter_big_window, 1
        )
        res.jiter_big_ok = reparse_correct(res.jiter_big.value, big)

    for row in peer_rows(settings):
        log(f"row 3: {row.label} ({len(row.docs)} documents, {row.nbytes} B)")
        measure_peer_row(row, settings)
        res.peers.append(row)
    return res


def _ms(s: float) -> str:
    return f"{s * 1e3:,.2f}" if s < 0.1 else f"{s * 1e3:,.0f}"


def _tenths(t: Tenths | None) -> tuple[float, float]:
    """CPU seconds per delta, first and last 10% (NaN when not measured)."""
    return (t.first_cpu, t.last_cpu) if t is not None else (float("nan"), float("nan"))


def _us(s: float) -> str:
    return f"{s * 1e6:,.2f}" if s < 1e-3 else f"{s * 1e6:,.0f}"


def _x(factor: float) -> str:
    return f"{factor:,.1f}{TIMES}" if factor < 100 else f"{factor:,.0f}{TIMES}"


def _ok(flag: bool) -> str:
    return "yes" if flag else "**no**"


def _mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _kb(nbytes: int) -> str:
    return f"{nbytes / 1000:g} KB"


def row1_table(res: Results, settings: Settings) -> list[str]:
    s = res.small
    n = len(s.deltas)
    ts = res.toolsift_small
    lines = [
        f"### 1. {_kb(s.content_bytes)} `write_file` content, {DELTA_CHARS}-character deltas "
        "(`hermes`)",
        "",
        f"One reply of {s.nbytes:,} UTF-8 bytes ({len(s.text):,} characters): a sentence, then "
        '`<tool_call>{"name": "write_file", "arguments": {...}}</tool_call>` whose '
        f"`content` is {_kb(s.content_bytes)} of generated code (quotes, backslashes, braces, "
        f"tabs, newlines, non-ASCII), cut into {n:,} deltas. Re-parse = at every delta, parse "
        "the accumulated text from the call's first `{` (up to `</tool_call>` once it has "
        "arrived) with a partial-JSON parser, as a client without an incremental parser does; "
        "its last value is the call. Total = best wall-clock time; CPU = best CPU time of the "
        "process (`time.process_time`), which other processes on a busy machine inflate less; "
        "the speed-ups and goals use CPU time. First/last 10% = CPU time of one delta, the mean "
        "over the block of the first (last) 10% of the deltas before the final one, each block "
        "timed as a whole in a full run, best of several runs; the final delta, which completes "
        "`</tool_call>` and so does the call's one-off end work (its arguments decoded into "
        "Python objects), is timed apart and reported in the goals.",
        "",
        "| Implementation | Total (ms) | CPU (ms) | Per delta, first 10% (µs) "
        "| Per delta, last 10% (µs) | toolsift is (CPU; wall) | Final arguments correct "
        "| How measured |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    tc = res.toolsift_small_cpu
    f, last = _tenths(res.ts_tenths_small)
    lines.append(
        f"| toolsift.StreamParser | {_ms(ts)} | {_ms(tc)} | {_us(f)} | {_us(last)} | baseline | "
        f"{_ok(res.toolsift_small_ok)} | best of "
        f"{settings.toolsift_runs * 2 + settings.jiter_runs} full runs; per-delta columns: "
        f"best of {settings.profile_runs} runs timing the two blocks |"
    )
    if res.jiter is None:
        lines.append("| jiter re-parse | not installed | | | | | | |")
    else:
        t, ok, errors, cpu = res.jiter
        f, last = _tenths(res.jiter_tenths_small)
        lines.append(
            f'| jiter re-parse (`partial_mode="trailing-strings"`) | {_ms(t)} | {_ms(cpu)} | '
            f"{_us(f)} | {_us(last)} | {_x(cpu / tc)} faster; {_x(t / ts)} | {_ok(ok)} | "
            f"best of {settings.jiter_runs} full runs; per-delta columns: best of 2 runs; "
            f"{errors} prefixes rejected |"
        )
    if res.pjp is None:
        lines.append("| partial_json_parser re-parse | not installed | | | | | | |")
    else:
        e = res.pjp
        first, last_pt = e.points_cpu[0][1], e.points_cpu[-1][1]
        lines.append(
            f"| partial_json_parser re-parse (`loads`, vLLM's pattern) | ~{_ms(e.total)} "
            f"(extrapolated) | ~{_ms(e.total_cpu)} | {_us(first)} (first {e.window}) | "
            f"{_us(last_pt)} (last {e.window}) | ~{_x(e.total_cpu / tc)} faster; "
            f"~{_x(e.total / ts)} | {_ok(res.pjp_ok)} | sampled, see below |"
        )
    if res.pjp is not None:
        e = res.pjp
        pts = ", ".join(f"{x:,.0f}: {_us(y)}" for x, y in e.points_cpu)
        check = ""
        if res.jiter is not None and res.jiter_estimate is not None:
            je = res.jiter_estimate
            measured, est = res.jiter[0], je.total
            m_cpu, e_cpu = res.jiter[3], je.total_cpu
            check = (
                f" The same method applied to jiter estimates {_ms(est)} ms against "
                f"{_ms(measured)} ms measured ({(est / measured - 1) * 100:+.0f}%), CPU time "
                f"{_ms(e_cpu)} ms against {_ms(m_cpu)} ms ({(e_cpu / m_cpu - 1) * 100:+.0f}%)."
            )
        lines += [
            "",
            f"partial_json_parser is not run over all {n:,} deltas (minutes). Its total is "
            f"extrapolated: {len(e.points)} windows of {e.window} consecutive deltas, evenly "
            f"spaced from the first delta to the last, each timed (best of {settings.pjp_reps}) "
            "after priming the re-parser, untimed, with the text before the window; the cost "
            "of one delta is taken as piecewise linear in the delta index between window "
            "centres and summed over every delta (the trapezoid rule). Its correctness is the "
            f"value after the real last delta. CPU µs per delta at window centre: {pts}.{check}",
        ]
    return lines


def row2_table(res: Results) -> list[str]:
    s, b = res.small, res.big
    lines = [
        "### 2. Growth: 20 KB vs 200 KB of content",
        "",
        "Same generator and deltas. toolsift's two sizes are timed in one round-robin (best "
        "wall-clock time of each, and best CPU time of the process, which a busy machine "
        "inflates less); per-delta columns as in row 1 (CPU time). jiter: 20 KB from row 1; "
        "200 KB extrapolated from sampled windows as partial_json_parser in row 1 (a full run "
        "takes minutes), its per-delta columns being its first and last window (CPU time).",
        "",
        "| Implementation | Content | Deltas | Total (ms) | CPU (ms) | Per delta, first 10% (µs) "
        "| Per delta, last 10% (µs) | Last / first | Final arguments correct |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for stream, bst, prof, ok in (
        (s, res.growth_small, res.ts_tenths_small, res.toolsift_small_ok),
        (b, res.growth_big, res.ts_tenths_big, res.toolsift_big_ok),
    ):
        f, last = _tenths(prof)
        wall, cpu = (bst.wall, bst.cpu) if bst is not None else (float("nan"), float("nan"))
        lines.append(
            f"| toolsift.StreamParser | {_kb(stream.content_bytes)} | {len(stream.deltas):,} | "
            f"{_ms(wall)} | {_ms(cpu)} | {_us(f)} | {_us(last)} | {last / f:.2f} | {_ok(ok)} |"
        )
    if res.jiter is not None:
        f, last = _tenths(res.jiter_tenths_small)
        lines.append(
            f"| jiter re-parse | {_kb(s.content_bytes)} | {len(s.deltas):,} | "
            f"{_ms(res.jiter[0])} | | {_us(f)} | {_us(last)} | {last / f:.1f} | "
            f"{_ok(res.jiter[1])} |"
        )
        if res.jiter_big is not None:
            e = res.jiter_big
            f, last = e.points_cpu[0][1], e.points_cpu[-1][1]
            lines.append(
                f"| jiter re-parse | {_kb(b.content_bytes)} | {len(b.deltas):,} | "
                f"~{_ms(e.total)} (extrapolated) | ~{_ms(e.total_cpu)} | {_us(f)} (first "
                f"{e.window}) | {_us(last)} "
                f"(last {e.window}) | {last / f:.1f} | {_ok(res.jiter_big_ok)} |"
            )
    return lines


def row3_table(res: Results, settings: Settings) -> list[str]:
    lines = [
        "### 3. toolsift vs autobyteus' streaming parser, same texts, same chunks",
        "",
        f"{settings.docs} generated replies per row (prose, then one or two calls, then prose), "
        "each cut into chunks of 1-8 characters (seeded), fed chunk by chunk to a new parser "
        "per reply. autobyteus: `ParsingStreamingResponseHandler(parser_name=..., "
        "config=...)` from `autobyteus.agent.streaming.handlers`, i.e. its `StreamingParser` "
        "state machine plus the `ToolInvocationAdapter` that turns segments into "
        "`ToolInvocation(name, arguments)`; `feed(chunk)` per chunk, `finalize()`, "
        "`get_all_invocations()`. Parser names: `xml` (`<tool name=...>`), `sentinel` "
        "(`[[SEG_START {...}]]...[[SEG_END]]`) and `json` with the OpenAI, Gemini or default "
        "profile of `json_parsing_strategies.registry` (its signature patterns and parser). "
        "toolsift: `StreamParser(syntax)`, `feed(chunk)`, `finish()`, `result().calls`. "
        "Correct = the list of (name, arguments) of the reply equals the generated one. Times = "
        f"best of {settings.peer_runs} round-robin passes over all replies, CPU time (wall "
        "clock in parentheses); the speed-up uses CPU time.",
        "",
        "| Syntax | Chunks | Replies | Input | toolsift (ms) | autobyteus (ms) | toolsift is "
        "| toolsift correct | autobyteus correct |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|",
    ]

    def both(label: str, missing: str) -> str:
        if label not in row.times:
            return missing
        return f"{_ms(row.cpu[label])} ({_ms(row.times[label])})"

    for row in res.peers:
        n = len(row.docs)
        ts = both("toolsift", NOT_AVAILABLE)
        ab = both("autobyteus", "not installed")
        ratio = f"{_x(row.ratio)} faster" if row.ratio is not None else "n/a"
        tc = f"{row.correct['toolsift']}/{n}" if "toolsift" in row.correct else "n/a"
        ac = f"{row.correct['autobyteus']}/{n}" if "autobyteus" in row.correct else "n/a"
        lines.append(
            f"| {row.label} | {row.chunking} ({row.nchunks:,}) | {n} | {row.nbytes / 1e3:,.1f} KB "
            f"| {ts} | {ab} | {ratio} | {tc} | {ac} |"
        )
    return lines


def goals(res: Results) -> list[str]:
    """PASS/FAIL per goal, judged on CPU time (wall-clock time shown alongside)."""
    out = []
    if "hermes" not in ENGINE_SYNTAXES:
        return [f"- rows 1-2 (hermes): {NOT_AVAILABLE}"]
    ts, tc = res.toolsift_small, res.toolsift_small_cpu
    ok = res.toolsift_small_ok
    out.append(
        f"- {_mark(tc <= 0.005 and ok)}: toolsift, 20 KB in 4-char deltas, total ≤ 5 ms: "
        f"{_ms(tc)} ms CPU, {_ms(ts)} ms wall clock (arguments correct: {_ok(ok)})"
    )
    if res.jiter is None:
        out.append(f"- UNKNOWN: ≥ 10{TIMES} jiter re-parse: jiter not installed")
    else:
        f, fw = res.jiter[3] / tc, res.jiter[0] / ts
        out.append(
            f"- {_mark(f >= 10 and ok and res.jiter[1])}: ≥ 10{TIMES} faster than jiter "
            f"re-parse: {_x(f)} CPU, {_x(fw)} wall clock"
        )
    if res.pjp is None:
        out.append(f"- UNKNOWN: ≥ 1000{TIMES} partial_json_parser re-parse: not installed")
    else:
        f, fw = res.pjp.total_cpu / tc, res.pjp.total / ts
        out.append(
            f"- {_mark(f >= 1000 and ok and res.pjp_ok)}: ≥ 1000{TIMES} faster than "
            f"partial_json_parser re-parse: ~{_x(f)} CPU, ~{_x(fw)} wall clock (extrapolated "
            "from sampled windows)"
        )
    small, big = res.growth_small, res.growth_big
    if small is not None and big is not None:
        g, gw = big.cpu / small.cpu, big.wall / small.wall
        out.append(
            f"- {_mark(g <= 11 and res.toolsift_big_ok)}: 200 KB costs ≤ 11{TIMES} the 20 KB "
            f"time: {g:.2f}{TIMES} CPU ({_ms(big.cpu)} ms vs {_ms(small.cpu)} ms), "
            f"{gw:.2f}{TIMES} wall clock (same round-robin)"
        )
    f, last = _tenths(res.ts_tenths_big)
    out.append(
        f"- {_mark(0.67 <= last / f <= 1.5)}: per-delta cost late ≈ early (taken as last 10% "
        f"of the streaming deltas within 0.67-1.5{TIMES} of first 10%), 200 KB: first "
        f"{_us(f)} µs, last {_us(last)} µs ({last / f:.2f}{TIMES}, CPU time); the delta that "
        f"ends the call, timed apart: {_ms(res.ts_tenths_big.close_cpu)} ms "
        "(the call's arguments decoded once)"
        if res.ts_tenths_big is not None
        else "- UNKNOWN: per-delta cost late ≈ early: not measured"
    )
    for row in res.peers:
        n = len(row.docs)
        if row.status:
            out.append(f"- UNKNOWN: ≥ 15{TIMES} autobyteus, {row.label}: {row.status}")
            continue
        r, rw = row.ratio or 0.0, row.ratio_wall or 0.0
        same = row.correct.get("toolsift") == n and row.correct.get("autobyteus") == n
        note = ""
        if not same:
            note = (
                f"; correct: toolsift {row.correct.get('toolsift')}/{n}, "
                f"autobyteus {row.correct.get('autobyteus')}/{n}"
            )
        ok = r >= 15 and row.correct.get("toolsift") == n
        out.append(
            f"- {_mark(ok)}: ≥ 15{TIMES} autobyteus, {row.label}: {_x(r)} CPU, {_x(rw)} wall "
            f"clock{note}"
        )
    return out


def machine() -> list[str]:
    versions = ", ".join(f"{d} {dist_version(d)}" for d in PACKAGES)
    return [
        f"- Platform: {platform.platform()}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical CPUs (shared with other processes: "
        "compare ratios from one run, not absolute times across runs)",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Packages: {versions}",
        f"- Engine syntaxes: {', '.join(ENGINE_SYNTAXES)}",
        f"- toolsift native module: {_native_build()}",
    ]


def _native_build() -> str:
    """File name and modification time of the extension module (builds change during a day)."""
    path = Path(toolsift._native.__file__)
    stamp = datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
    return f"`{path.name}`, built {stamp:%Y-%m-%d %H:%M} UTC"


def report(res: Results, settings: Settings, quick: bool) -> str:
    mode = " (--quick: fewer runs, not for publishing)" if quick else ""
    parts = [
        f"## Streaming (benches/stream_compare.py){mode}",
        "",
        "Generated by `benches/stream_compare.py`; everything between its markers is rewritten "
        f"on each run. Inputs are generated (seed {SEED}); every implementation runs in one "
        "process, timed runs alternate between implementations and the GC is off while "
        "timing. Ratios come from the same run.",
        "",
        "Machine:",
        "",
        *machine(),
        "",
        "Reproduce with:",
        "",
        "```sh",
        REPRODUCE,
        "```",
        "",
        "Goals:",
        "",
        *goals(res),
        "",
    ]
    if "hermes" in ENGINE_SYNTAXES:
        parts += [*row1_table(res, settings), "", *row2_table(res), ""]
    else:
        parts += [f"Rows 1-2 (hermes): {NOT_AVAILABLE}.", ""]
    parts += [*row3_table(res, settings), ""]
    return "\n".join(parts).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and replies")
    parser.add_argument("--write", metavar="FILE", type=Path, help="write the report into FILE")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    res = run_all(settings, log)
    section = report(res, settings, args.quick)
    print(section)
    if args.write:
        write_section(args.write, TITLE, BEGIN, END, section)
        log(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
