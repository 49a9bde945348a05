"""Writes the sample corpus under ``examples/corpus/``: agent transcripts in every syntax
``toolsift`` reads, in the three JSONL shapes the CLI takes.

Usage::

    python scripts/make_corpus.py [--out examples/corpus] [--transcripts 1000]

Deterministic: the same arguments write the same bytes. Each transcript names its syntax in a
``syntax`` field and holds prose, often a reasoning block, one to three tool calls taken from
the shared conformance cases (tests/fixtures/conformance) or, for the syntaxes without cases,
from templates below, and now and then a malformed call (cut off mid-way, or its JSON broken).
The shapes: ``raw.jsonl`` (``{"syntax", "text"}``), ``openai_chat.jsonl`` (OpenAI ``messages``
with system, user, assistant and tool turns; some assistant contents are lists of text parts)
and ``sharegpt.jsonl`` (ShareGPT ``conversations`` with ``from``/``value``). About a third of
the chat transcripts end with an assistant turn whose calls are OpenAI ``tool_calls`` objects
(the ``api_tool_call`` syntax).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import toolsift

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "conformance"
SEED = 20261122

DSML = "\uff5cDSML\uff5c"  # fullwidth bars, as DeepSeek writes them

#: Calls for syntaxes the conformance files have no case of (formats from SYNTAXES.md).
TEMPLATES = {
    "granite": '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo", "days": 3}}]',
    "deepseek_dsml": (
        f'<{DSML}function_calls>\n<{DSML}invoke name="get_weather">\n'
        f'<{DSML}parameter name="city" string="true">Oslo</{DSML}parameter>\n'
        f'<{DSML}parameter name="days" string="false">3</{DSML}parameter>\n'
        f"</{DSML}invoke>\n</{DSML}function_calls>"
    ),
}

PROSE = (
    "Let me check the repository layout first.",
    "The previous run failed because the cache was stale.",
    "I'll look at the configuration and then update it.",
    "Results so far: 3 matches, 1 warning — see below.",
    "Note that naïve retries can make things worse (x < y here).",
    "Les données sont prêtes; 日本語のテキストも含まれます。",
    "Use the {placeholder} syntax in templates, and [1] for references.",
    "Done. Tell me if you want the résumé in another format.",
    'The function returns a dict like {"ok": true} when it succeeds.',
    "I could not find that file; trying the parent directory next.",
)
QUESTIONS = (
    "What's the weather in Oslo for the next three days?",
    "Please fix the failing test in src/parser.rs.",
    "Summarise the last five commits.",
    "Find every TODO in the project and list them.",
    "Convert this CSV to JSON and save it as data.json.",
)
THOUGHTS = (
    "The user wants a forecast; the weather tool takes a city and a day count.",
    "I should read the test first, then the code it exercises.",
    "Listing the commits needs the git tool; five is a small number.",
)


def load_cases() -> dict[str, list[str]]:
    """Texts of the call cases of each syntax, in file order."""
    cases: dict[str, list[str]] = {}
    for name in ("design_doc_projects.jsonl", "open_models.jsonl"):
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("syntax") and row.get("expected_calls"):
                    cases.setdefault(row["syntax"], []).append(row["text"])
    for syntax, text in TEMPLATES.items():
        cases.setdefault(syntax, []).append(text)
    return cases


def prose(rng: random.Random) -> str:
    return " ".join(rng.choice(PROSE) for _ in range(rng.randint(1, 5)))


def malformed(rng: random.Random, call: str) -> str:
    """A call cut off part-way (streams that died), or with a brace dropped."""
    if rng.random() < 0.5 and "}" in call:
        cut = call.rfind("}")
        return call[:cut] + call[cut + 1 :]
    return call[: max(1, int(len(call) * rng.uniform(0.3, 0.9)))]


def reply(rng: random.Random, syntax: str, cases: list[str]) -> str:
    """One assistant reply: prose, maybe reasoning, calls, maybe a malformed call."""
    parts = []
    if rng.random() < 0.4:
        parts.append(f"<think>{rng.choice(THOUGHTS)} {prose(rng)}</think>\n")
    parts.append(prose(rng) + "\n")
    if not cases:  # a syntax without calls (think): reasoning and prose
        return f"<think>{rng.choice(THOUGHTS)}</think>\n" + "".join(parts)
    for _ in range(rng.randint(1, 3)):
        call = rng.choice(cases)
        parts.append((malformed(rng, call) if rng.random() < 0.1 else call) + "\n")
        if rng.random() < 0.3:
            parts.append(prose(rng) + "\n")
    return "".join(parts)


def openai_record(rng: random.Random, syntax: str, cases: list[str]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent with tools."},
        {"role": "user", "content": rng.choice(QUESTIONS)},
        {"role": "assistant", "content": reply(rng, syntax, cases)},
        {"role": "tool", "content": json.dumps({"ok": True, "lines": rng.randint(1, 90)})},
    ]
    second = reply(rng, syntax, cases)
    content: Any = [{"type": "text", "text": second}] if rng.random() < 0.3 else second
    messages.append({"role": "assistant", "content": content})
    if rng.random() < 0.3:
        messages.append(api_message(rng))
    return {"syntax": syntax, "messages": messages}


def api_message(rng: random.Random) -> dict[str, Any]:
    """An assistant turn whose calls the API returned as objects (OpenAI ``tool_calls``), the
    ``api_tool_call`` syntax; now and then with arguments cut off."""
    calls = []
    for i in range(rng.randint(1, 2)):
        args = json.dumps({"city": rng.choice(("Oslo", "Köln", "東京")), "days": rng.randint(1, 7)})
        if rng.random() < 0.1:
            args = args[: rng.randint(1, len(args) - 1)]
        function = {"name": "get_weather", "arguments": args}
        calls.append(
            {"id": f"call_{rng.randrange(10**6)}_{i}", "type": "function", "function": function}
        )
    return {"role": "assistant", "content": None, "tool_calls": calls}


def sharegpt_record(rng: random.Random, syntax: str, cases: list[str]) -> dict[str, Any]:
    conversations = [
        {"from": "system", "value": "You are a coding agent with tools."},
        {"from": "human", "value": rng.choice(QUESTIONS)},
        {"from": "gpt", "value": reply(rng, syntax, cases)},
        {"from": "observation", "value": "ok"},
        {"from": "gpt", "value": reply(rng, syntax, cases)},
    ]
    return {"syntax": syntax, "conversations": conversations}


def write(out: Path, transcripts: int) -> dict[str, int]:
    """Writes the three files; returns their sizes in bytes."""
    cases = load_cases()
    # Every text syntax toolsift knows; ``think`` holds no calls (its transcripts have reasoning
    # and prose only) and ``api_tool_call`` comes as ``tool_calls`` objects in the chat file.
    syntaxes = [s for s in toolsift.SYNTAXES if s != "api_tool_call"]
    missing = [s for s in syntaxes if s not in cases and s != "think"]
    if missing:
        raise SystemExit(f"no call case or template for {', '.join(missing)}")
    cases["think"] = []
    out.mkdir(parents=True, exist_ok=True)
    shapes = {
        "raw.jsonl": lambda rng, s: {"syntax": s, "text": reply(rng, s, cases[s])},
        "openai_chat.jsonl": lambda rng, s: openai_record(rng, s, cases[s]),
        "sharegpt.jsonl": lambda rng, s: sharegpt_record(rng, s, cases[s]),
    }
    sizes = {}
    for file, make in shapes.items():
        rng = random.Random(f"{SEED}-{file}")
        lines = []
        for i in range(transcripts):
            syntax = syntaxes[i % len(syntaxes)]  # every syntax, evenly
            lines.append(json.dumps(make(rng, syntax), ensure_ascii=False))
        data = "\n".join(lines) + "\n"
        (out / file).write_text(data, encoding="utf-8")
        sizes[file] = len(data.encode())
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "examples" / "corpus")
    parser.add_argument("--transcripts", type=int, default=1000, help="per file")
    args = parser.parse_args()
    for file, size in write(args.out, args.transcripts).items():
        print(f"{args.out / file}: {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
