"""Deterministic corpora for the benchmarks: tool-argument JSON, broken JSON, tool-call replies.

Everything is generated from seeded :class:`random.Random` instances (one per document, seeded
by a string, so it does not depend on ``PYTHONHASHSEED``); no network and no files are needed.
Document ``i`` depends only on ``(seed, i)``, so ``valid_json_docs(10)`` is a prefix of
``valid_json_docs(1000)``.

Expected values are always computed from the Python value a document was written from, never by
running a JSON repair library.

>>> docs = valid_json_docs(3)
>>> docs == valid_json_docs(3) and all(200 <= len(d.encode()) <= 5000 for d in docs)
True
>>> text, expected = malformed_json_docs(1)[0]
>>> isinstance(expected, dict)
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "BREAKAGES",
    "DEFAULT_SEED",
    "TOOL_CALL_LAYOUTS",
    "MalformedCase",
    "ToolCallCase",
    "malformed_json_cases",
    "malformed_json_docs",
    "same_value",
    "tool_call_cases",
    "tool_call_responses",
    "valid_json_docs",
]

DEFAULT_SEED = 1729

MIN_DOC_BYTES = 200
MAX_DOC_BYTES = 5000

#: The breakages ``malformed_json_cases`` applies, one or two per document.
BREAKAGES: tuple[str, ...] = (
    "single_quotes",
    "trailing_commas",
    "python_literals",
    "truncated",
    "fenced_with_prose",
    "unquoted_keys",
    "line_comments",
    "raw_newlines",
)

#: How ``tool_call_cases`` lays out the call: after the marker on the same line, on the next
#: line, with the marker inside a ```json fence, or with the fence after the marker.
TOOL_CALL_LAYOUTS: tuple[str, ...] = ("inline", "next_line", "fence_around", "fence_after")


def _rng(kind: str, seed: int, i: int) -> random.Random:
    return random.Random(f"toolsift-bench/{kind}/{seed}/{i}")


def same_value(a: Any, b: Any) -> bool:
    """Deep equality that also compares types, so ``1``, ``1.0``, ``True`` and ``"1"`` differ.

    >>> same_value({"a": [1, 2.5]}, {"a": [1, 2.5]}), same_value([1], [True]), same_value(1, 1.0)
    (True, False, False)
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

_WORDS = (
    "the a an of to for with on in from by report quarterly revenue forecast deploy staging "
    "cluster latency budget invoice customer order shipment warehouse meeting agenda summary "
    "draft review release notes migration database index query cache timeout retry backoff "
    "user account password reset token session region bucket archive export import schedule "
    "weekly monthly update status pending approved rejected urgent follow up attach document "
    "spreadsheet chart metric dashboard alert incident postmortem rollout feature flag beta "
    "pricing discount renewal contract vendor supplier ticket priority owner team project"
).split()

_UNICODE = (
    "café",
    "naïve façade",
    "Zürich",
    "東京都渋谷区",
    "São Paulo",
    "Москва",
    "Αθήνα",
    "서울 데이터",
    "launch 🚀",
    "done ✅",
    "½ price",
    "→ next step",
    "— em dash",
    "Ünïcödé",
    "مرحبا",
    "€1.299,00",
)

_QUOTED = (
    'He said "ship it" before lunch',
    'the "beta" flag stays on',
    'labelled "urgent" by ops',
    'a "quoted" word and a backslash \\ here',
    'path C:\\Users\\ada\\Documents\\report "final".docx',
    "tab\tseparated\tvalues",
)

_FIRST = ("Ada", "Grace", "Alan", "Linus", "Margaret", "Ken", "Barbara", "Edsger", "Frances")
_LAST = ("Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Thompson", "Liskov", "Allen")
_CITIES = (
    ("Paris", 48.8566, 2.3522),
    ("Zürich", 47.3769, 8.5417),
    ("東京", 35.6762, 139.6503),
    ("São Paulo", -23.5505, -46.6333),
    ("Nairobi", -1.2921, 36.8219),
    ("Reykjavík", 64.1466, -21.9426),
    ("Seattle", 47.6062, -122.3321),
)
_COMMENTS = (
    "in UTC",
    "default is 10",
    "optional",
    "TODO confirm with the user",
    "ISO 8601",
    "milliseconds",
    "keep in sync with the schema",
    "deprecated, still accepted",
)
_PROSE = (
    "Sure, I can help with that.",
    "Here's what I found after looking at the request.",
    "I've put the arguments together below.",
    "Let me know if anything needs to change.",
    "This should cover every field you mentioned.",
    "I'll use the defaults where you didn't specify a value.",
    "The request is ready to send.",
    "Based on your message, this is the payload.",
    "Double-check the dates before you run it.",
    "I kept the original order of the items.",
)


def _sentence(rng: random.Random, lo: int = 5, hi: int = 14) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(lo, hi))]
    roll = rng.random()
    if roll < 0.25:
        words.insert(rng.randrange(len(words)), rng.choice(_UNICODE))
    elif roll < 0.4:
        words.insert(rng.randrange(len(words)), rng.choice(_QUOTED))
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice((".", ".", ".", "!", "?"))


def _text(rng: random.Random, lo: int = 1, hi: int = 3) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(lo, hi)))


def _multiline(rng: random.Random) -> str:
    paragraphs = [_text(rng, 1, 3) for _ in range(rng.randint(2, 4))]
    return rng.choice(("\n", "\n\n")).join(paragraphs)


def _code(rng: random.Random) -> str:
    name = rng.choice(("handler", "load_rows", "render", "compute_total", "sync"))
    var = rng.choice(("event", "rows", "payload", "items"))
    return rng.choice(
        (
            f"def {name}({var}):\n"
            f'    """Process {var}."""\n'
            f"    if not {var}:\n"
            f'        return {{"status": 204, "body": ""}}\n'
            f'    return {{"status": 200, "body": {var}["q"]}}\n',
            f"function {name}({var}) {{\n"
            f'\tconst out = {var}.map((x) => ({{ id: x.id, label: "item " + x.id }}));\n'
            f"\treturn out.filter(Boolean);\n"
            f"}}\n",
            f"SELECT id, name, created_at\nFROM {var}\n"
            f"WHERE email = 'ada@example.com' AND note LIKE '%\"vip\"%'\n"
            f"ORDER BY created_at DESC\nLIMIT {rng.randint(5, 500)};\n",
            f"# {name}\n\nRun `make {name}` and check the {var} folder.\n"
            f'> "{_sentence(rng, 3, 6)}"\n',
        )
    )


def _email(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST).lower()}.{rng.choice(_LAST).lower()}@example.com"


def _date(rng: random.Random) -> str:
    return f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _timestamp(rng: random.Random) -> str:
    return f"{_date(rng)}T{rng.randint(0, 23):02d}:{rng.choice((0, 15, 30, 45)):02d}:00Z"


def _number(rng: random.Random) -> int | float:
    return rng.choice(
        (
            rng.randint(0, 100),
            rng.randint(-5000, 5000),
            rng.randint(10**9, 2**53),
            round(rng.uniform(-1000, 1000), rng.randint(1, 6)),
            rng.choice((0.5, 1e-07, 6.02e23, -0.0001, 3.14159, 2.5e-05)),
        )
    )


def _scalar(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.08:
        return _multiline(rng)
    if roll < 0.35:
        return _sentence(rng, 1, 5)
    if roll < 0.6:
        return _number(rng)
    if roll < 0.75:
        return rng.random() < 0.5
    if roll < 0.85:
        return None
    return rng.choice(_UNICODE + _QUOTED)


def _record(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    """A generic nested record, as found in ``records``/``items`` arguments."""
    rec: dict[str, Any] = {
        "id": rng.randint(1, 10**6),
        "name": f"{rng.choice(_FIRST)} {rng.choice(_LAST)}",
        "active": rng.random() < 0.7,
        "score": round(rng.uniform(0, 100), 2),
        "tags": [rng.choice(_WORDS) for _ in range(rng.randint(0, 4))],
    }
    for _ in range(rng.randint(0, 3)):
        rec[rng.choice(("note", "owner", "updated_at", "ratio", "parent_id", "label"))] = _scalar(
            rng
        )
    if depth < 2 and rng.random() < 0.4:
        rec["meta"] = _record(rng, depth + 1)
    if rng.random() < 0.2:
        rec["display name"] = rng.choice(_UNICODE)  # a key that is not an identifier
    return rec


# --------------------------------------------------------------------------------------------
# Tool-argument documents
# --------------------------------------------------------------------------------------------

# A template returns (tool name, arguments, a list inside the arguments, a maker of one more
# item for that list); the list is what grows a document to its target size.
_Template = Callable[[random.Random], tuple[str, dict[str, Any], list[Any], Callable[[], Any]]]


def _search(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    sites: list[Any] = []
    args = {
        "query": _sentence(rng, 2, 6).rstrip(".!?"),
        "max_results": rng.choice((5, 10, 20, 50)),
        "safe_search": rng.random() < 0.8,
        "filters": {
            "language": rng.choice(("en", "de", "ja", "pt-BR", None)),
            "region": rng.choice(_CITIES)[0],
            "date_range": {"from": _date(rng), "to": _date(rng)},
        },
        "sites": sites,
    }
    return "search_web", args, sites, lambda: f"https://{rng.choice(_WORDS)}.example.org/"


def _write_file(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    sections: list[Any] = []
    args = {
        "path": rng.choice(("src/app/main.py", "docs/notes/READ ME.md", "C:\\tmp\\out.sql")),
        "content": _code(rng),
        "overwrite": rng.random() < 0.5,
        "encoding": "utf-8",
        "mode": rng.choice((420, 493, None)),
        "sections": sections,
    }

    def section() -> dict[str, Any]:
        return {"heading": _sentence(rng, 2, 5), "body": _multiline(rng), "level": 2}

    return "write_file", args, sections, section


def _send_email(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    attachments: list[Any] = []
    args = {
        "to": [_email(rng) for _ in range(rng.randint(1, 3))],
        "cc": [],
        "subject": _sentence(rng, 3, 8),
        "body": _multiline(rng),
        "priority": rng.choice(("high", "normal", None)),
        "attachments": attachments,
        "track_opens": rng.random() < 0.3,
    }

    def attachment() -> dict[str, Any]:
        return {
            "filename": f"{rng.choice(_WORDS)}_{rng.randint(1, 99)}.pdf",
            "size_bytes": rng.randint(1000, 9_000_000),
            "mime": "application/pdf",
            "inline": False,
        }

    return "send_email", args, attachments, attachment


def _calendar(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    city, lat, lon = rng.choice(_CITIES)
    attendees: list[Any] = []
    args = {
        "title": _sentence(rng, 2, 6),
        "start": _timestamp(rng),
        "end": _timestamp(rng),
        "all_day": False,
        "location": {"name": city, "lat": lat, "lon": lon},
        "reminders_min": [rng.choice((5, 10, 30, 60)) for _ in range(rng.randint(0, 3))],
        "description": _multiline(rng) if rng.random() < 0.6 else None,
        "attendees": attendees,
    }

    def attendee() -> dict[str, Any]:
        return {
            "name": f"{rng.choice(_FIRST)} {rng.choice(_LAST)}",
            "email": _email(rng),
            "optional": rng.random() < 0.3,
            "response": rng.choice(("accepted", "tentative", None)),
        }

    return "create_calendar_event", args, attendees, attendee


def _http(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    items: list[Any] = []
    args = {
        "method": rng.choice(("GET", "POST", "PUT", "PATCH")),
        "url": f"https://api.example.com/v{rng.randint(1, 3)}/{rng.choice(_WORDS)}",
        "headers": {
            "Content-Type": "application/json",
            "X-Request-Id": f"{rng.getrandbits(64):016x}",
            "Accept-Language": rng.choice(("en-US", "fr-FR", "ja-JP")),
        },
        "query": {"page": rng.randint(1, 20), "per_page": 50, "q": rng.choice(_UNICODE)},
        "body": {"items": items, "dry_run": rng.random() < 0.5, "comment": rng.choice(_QUOTED)},
        "retry": {"attempts": rng.randint(0, 5), "backoff_s": round(rng.uniform(0.1, 5), 2)},
        "timeout_s": None,
    }
    return "http_request", args, items, lambda: _record(rng)


def _update_records(
    rng: random.Random,
) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    records: list[Any] = []
    args = {
        "table": rng.choice(("customers", "orders", "tickets", "inventory")),
        "upsert": rng.random() < 0.5,
        "records": records,
        "returning": ["id", "updated_at"],
    }

    def record() -> dict[str, Any]:
        return {"id": rng.randint(1, 10**6), "fields": _record(rng, 1)}

    return "update_records", args, records, record


def _weather(rng: random.Random) -> tuple[str, dict[str, Any], list[Any], Callable[[], Any]]:
    city, lat, lon = rng.choice(_CITIES)
    extra: list[Any] = []
    args = {
        "location": city,
        "coordinates": [lat, lon],
        "units": rng.choice(("metric", "imperial")),
        "days": rng.randint(1, 14),
        "include": {"hourly": rng.random() < 0.5, "alerts": True, "air_quality": False},
        "lang": None,
        "compare_with": extra,
    }

    def other() -> dict[str, Any]:
        other_city, other_lat, other_lon = rng.choice(_CITIES)
        return {"location": other_city, "coordinates": [other_lat, other_lon], "days": 3}

    return "get_weather", args, extra, other


_TEMPLATES: tuple[_Template, ...] = (
    _search,
    _write_file,
    _send_email,
    _calendar,
    _http,
    _update_records,
    _weather,
)


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _tool_args(rng: random.Random, lo: int, hi: int) -> tuple[str, dict[str, Any]]:
    """A tool name and its arguments, about ``lo``..``hi`` bytes as spaced one-line JSON."""
    while True:
        name, args, grow, item = rng.choice(_TEMPLATES)(rng)
        if _size(args) <= hi:
            break
    target = int(lo * (hi / lo) ** rng.random())  # log-uniform: many small, some large
    size = _size(args)
    while size < target:
        grow.append(item())
        size += _size(grow[-1]) + 2  # ", " before it (an empty list overcounts by 2)
        if size > hi:
            grow.pop()
            break
    return name, args


# --------------------------------------------------------------------------------------------
# A JSON writer with LLM-style breakages
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    indent: int | None = None  # None: everything on one line
    compact: bool = False  # one-line only: "," and ":" without spaces
    quote: str = '"'
    python_literals: bool = False
    unquoted_keys: bool = False
    trailing_commas: bool = False
    line_comments: bool = False  # needs indent
    raw_newlines: bool = False


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


@dataclass
class _Writer:
    """Writes a value as (possibly broken) JSON and records where it could be truncated."""

    style: _Style
    rng: random.Random
    parts: list[str] = field(default_factory=list)
    pos: int = 0
    # (path of the container, index of the member, offset just after the comma that follows it)
    cuts: list[tuple[tuple[int, ...], int, int]] = field(default_factory=list)
    comments: int = 0

    def write(self, value: Any) -> str:
        self._value(value, (), 0)
        return "".join(self.parts)

    def _emit(self, s: str) -> None:
        self.parts.append(s)
        self.pos += len(s)

    def _string(self, s: str) -> str:
        q = self.style.quote
        if q == "'" and "'" in s:
            q = '"'  # as Python's repr does
        out = [q]
        for ch in s:
            if ch == q:
                out.append("\\" + q)
            elif ch == "\n" and self.style.raw_newlines:
                out.append("\n")
            elif ch in _ESCAPES:
                out.append(_ESCAPES[ch])
            elif ch < " ":
                out.append(f"\\u{ord(ch):04x}")
            else:
                out.append(ch)
        out.append(q)
        return "".join(out)

    def _key(self, key: str) -> str:
        if self.style.unquoted_keys and key.isidentifier() and key.isascii():
            return key
        return self._string(key)

    def _value(self, value: Any, path: tuple[int, ...], level: int) -> None:
        if isinstance(value, dict):
            self._container("{", "}", list(value.items()), path, level)
        elif isinstance(value, list):
            self._container("[", "]", [(None, v) for v in value], path, level)
        elif isinstance(value, str):
            self._emit(self._string(value))
        elif value is None or isinstance(value, bool):
            literals = {None: "null", True: "true", False: "false"}
            if self.style.python_literals:
                literals = {None: "None", True: "True", False: "False"}
            self._emit(literals[value])
        else:
            self._emit(json.dumps(value))

    def _container(
        self,
        open_: str,
        close: str,
        members: list[tuple[str | None, Any]],
        path: tuple[int, ...],
        level: int,
    ) -> None:
        style = self.style
        if not members:
            self._emit(open_ + close)
            return
        self._emit(open_)
        # The outermost container always gets one, others often, so each document has some.
        trailing = style.trailing_commas and (level == 0 or self.rng.random() < 0.5)
        for i, (key, value) in enumerate(members):
            if style.indent is not None:
                self._emit("\n" + " " * (style.indent * (level + 1)))
            elif i:
                self._emit("" if style.compact else " ")
            if key is not None:
                self._emit(self._key(key) + (":" if style.compact else ": "))
            self._value(value, (*path, i), level + 1)
            last = i == len(members) - 1
            if last and not trailing:
                continue
            self._emit(",")
            if not last:
                self.cuts.append((path, i, self.pos))
            if style.line_comments and (self.comments == 0 or self.rng.random() < 0.25):
                self._emit("  // " + self.rng.choice(_COMMENTS))
                self.comments += 1
        if style.indent is not None:
            self._emit("\n" + " " * (style.indent * level))
        self._emit(close)


def _dumps(value: Any, style: _Style, rng: random.Random) -> str:
    return _Writer(style, rng).write(value)


def _truncated(value: Any, path: tuple[int, ...], last: int) -> Any:
    """``value`` as a lenient parser must read it when the text stops right after the comma
    that follows member ``last`` of the container at ``path``: every open container is closed
    and keeps only its complete members."""
    if isinstance(value, dict):
        items = list(value.items())
        if not path:
            return dict(items[: last + 1])
        head = path[0]
        key, child = items[head]
        return {**dict(items[:head]), key: _truncated(child, path[1:], last)}
    assert isinstance(value, list)
    if not path:
        return value[: last + 1]
    head = path[0]
    return [*value[:head], _truncated(value[head], path[1:], last)]


def _has(value: Any, pred: Callable[[Any], bool]) -> bool:
    if pred(value):
        return True
    if isinstance(value, dict):
        return any(_has(v, pred) for v in value.values())
    if isinstance(value, list):
        return any(_has(v, pred) for v in value)
    return False


def _applicable(kind: str, value: Any) -> bool:
    if kind == "python_literals":
        return _has(value, lambda v: v is None or isinstance(v, bool))
    if kind == "raw_newlines":
        return _has(value, lambda v: isinstance(v, str) and "\n" in v)
    return True


def _is_valid_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# Public generators
# --------------------------------------------------------------------------------------------


def valid_json_docs(n: int, seed: int = DEFAULT_SEED) -> list[str]:
    """``n`` valid JSON documents of tool arguments, 200 B to 5 KB of UTF-8 each, in assorted
    formatting (compact, spaced, indented, ASCII-escaped)."""
    docs = []
    for i in range(n):
        rng = _rng("valid", seed, i)
        while True:
            _, args = _tool_args(rng, MIN_DOC_BYTES, MAX_DOC_BYTES - 1000)
            fmt = rng.choice(("compact", "spaced", "indent2", "indent4", "ascii"))
            if fmt == "compact":
                text = json.dumps(args, ensure_ascii=False, separators=(",", ":"))
            elif fmt == "spaced":
                text = json.dumps(args, ensure_ascii=False)
            elif fmt == "ascii":
                text = json.dumps(args)
            else:
                text = json.dumps(args, ensure_ascii=False, indent=int(fmt[-1]))
            if MIN_DOC_BYTES <= len(text.encode()) <= MAX_DOC_BYTES:
                break
        docs.append(text)
    return docs


@dataclass(frozen=True)
class MalformedCase:
    """One broken document: its ``text``, the ``expected`` value and the ``breakages`` applied."""

    text: str
    expected: Any
    breakages: tuple[str, ...]


def _choose_breakages(rng: random.Random, value: Any) -> tuple[str, ...]:
    while True:
        count = 1 if rng.random() < 0.6 else 2
        kinds = tuple(sorted(rng.sample(BREAKAGES, count), key=BREAKAGES.index))
        if {"truncated", "fenced_with_prose"} <= set(kinds):
            continue  # a truncated reply has no closing fence; keep the two apart
        if all(_applicable(k, value) for k in kinds):
            return kinds


def _fence(rng: random.Random, body: str) -> str:
    before = " ".join(rng.sample(_PROSE, rng.randint(1, 2)))
    label = rng.choice(("json", "json", "JSON", ""))
    after = "" if rng.random() < 0.4 else "\n\n" + rng.choice(_PROSE)
    return f"{before}\n\n```{label}\n{body}\n```{after}"


def malformed_json_cases(n: int, seed: int = DEFAULT_SEED) -> list[MalformedCase]:
    """``n`` broken tool-argument documents, each with one or two of :data:`BREAKAGES` whose
    repair is unambiguous, and the value a correct lenient parser returns."""
    cases: list[MalformedCase] = []
    i = 0
    attempt = 0
    while len(cases) < n:
        rng = _rng("malformed", seed, i * 1000 + attempt)
        _, value = _tool_args(rng, MIN_DOC_BYTES, MAX_DOC_BYTES - 1500)
        kinds = _choose_breakages(rng, value)
        style = _Style(
            indent=rng.choice((None, None, 2, 4)),
            quote="'" if "single_quotes" in kinds else '"',
            python_literals="python_literals" in kinds,
            unquoted_keys="unquoted_keys" in kinds,
            trailing_commas="trailing_commas" in kinds,
            line_comments="line_comments" in kinds,
            raw_newlines="raw_newlines" in kinds,
        )
        if style.line_comments and style.indent is None:
            style = replace(style, indent=2)  # a // comment runs to the end of its line
        if style.indent is None and rng.random() < 0.3:
            style = replace(style, compact=True)
        writer = _Writer(style, rng)
        text = writer.write(value)
        expected = value
        if "truncated" in kinds:
            # Cut right after a comma that follows a complete member, in the second half.
            late = [c for c in writer.cuts if c[2] >= len(text) // 2] or writer.cuts
            if not late:
                attempt += 1
                continue
            path, last, offset = rng.choice(late)
            text = text[:offset]
            expected = _truncated(value, path, last)
        if "fenced_with_prose" in kinds:
            text = _fence(rng, text)
        if _is_valid_json(text):  # cannot happen with the breakages above; stay honest
            attempt += 1
            continue
        cases.append(MalformedCase(text, expected, kinds))
        i += 1
        attempt = 0
    return cases


def malformed_json_docs(n: int, seed: int = DEFAULT_SEED) -> list[tuple[str, Any]]:
    """``(text, expected_value)`` for :func:`malformed_json_cases`."""
    return [(c.text, c.expected) for c in malformed_json_cases(n, seed)]


@dataclass(frozen=True)
class ToolCallCase:
    """One model reply holding exactly one ``TOOL_CALL``, and the call it holds."""

    text: str
    name: str
    arguments: dict[str, Any]
    layout: str
    json_style: str  # "valid", "single_quotes" or "trailing_commas"


_PROSE_JSON_SNIPPETS = (
    'The last run returned {"status": "ok", "cached": true} so the cache is warm.',
    "Config objects look like {retries: 3, verbose: false} in this project.",
    "A set literal such as {1, 2, 3} is not what the API wants.",
    "In the template, {user} and {date} are placeholders.",
    'Earlier I saw the error {"error": {"code": 429, "message": "slow down"}} from the API.',
)


def _paragraph(rng: random.Random) -> str:
    sentences = [rng.choice(_PROSE)] + [_sentence(rng) for _ in range(rng.randint(1, 4))]
    rng.shuffle(sentences)
    return " ".join(sentences)


def tool_call_cases(n: int, seed: int = DEFAULT_SEED) -> list[ToolCallCase]:
    """``n`` replies: 1-3 paragraphs of prose (sometimes with braces or JSON-looking text), then
    one ``TOOL_CALL`` whose JSON is valid or uses single quotes or trailing commas."""
    cases = []
    for i in range(n):
        rng = _rng("tool_call", seed, i)
        name, args = _tool_args(rng, 60, 2500)
        name_key, args_key = rng.choice(
            (("tool_name", "parameters"),) * 4 + (("tool", "params"), ("name", "parameters"))
        )
        call = {name_key: name, args_key: args}
        roll = rng.random()
        json_style = (
            "valid" if roll < 0.7 else "single_quotes" if roll < 0.85 else "trailing_commas"
        )
        style = _Style(
            indent=rng.choice((None, None, 2)),
            quote="'" if json_style == "single_quotes" else '"',
            trailing_commas=json_style == "trailing_commas",
        )
        payload = _dumps(call, style, rng)
        paragraphs = [_paragraph(rng) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            paragraphs[rng.randrange(len(paragraphs))] += " " + rng.choice(_PROSE_JSON_SNIPPETS)
        prose = "\n\n".join(paragraphs)
        layout = rng.choice(TOOL_CALL_LAYOUTS)
        if layout == "inline":
            body = f"{prose}\n\nTOOL_CALL: {payload}"
        elif layout == "next_line":
            body = f"{prose}\n\nTOOL_CALL:\n{payload}"
        elif layout == "fence_around":
            body = f"{prose}\n\n```json\nTOOL_CALL: {payload}\n```"
        else:
            body = f"{prose}\n\nTOOL_CALL:\n```json\n{payload}\n```"
        if rng.random() < 0.4:
            body += "\n\n" + rng.choice(_PROSE)
        cases.append(ToolCallCase(body, name, args, layout, json_style))
    return cases


def tool_call_responses(n: int, seed: int = DEFAULT_SEED) -> list[tuple[str, str, dict[str, Any]]]:
    """``(text, expected_name, expected_args)`` for :func:`tool_call_cases`."""
    return [(c.text, c.name, c.arguments) for c in tool_call_cases(n, seed)]
