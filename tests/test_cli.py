"""``toolsift extract`` on every input shape, both output formats, bad lines, workers."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

import toolsift
from toolsift.cli import extract, main

HERMES = '<tool_call>{"name": "read", "arguments": {"path": "a.py"}}</tool_call>'
TCJ = 'Sure. TOOL_CALL: {"tool": "search", "params": {"q": "rust"}}'
BROKEN = "<tool_call>{oops"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def jsonl(path: Path, records: list[Any], extra: str = "") -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n" + extra, encoding="utf-8")
    return path


def rows(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def run(*args: str) -> int:
    return main([*args])


def test_raw_text_lines_and_plain_strings(tmp_path: Path) -> None:
    src = jsonl(tmp_path / "in.jsonl", [{"text": TCJ}, TCJ, {"text": "nothing"}])
    out = tmp_path / "out.jsonl"
    assert run("extract", str(src), "-o", str(out), "-q") == 0
    got = rows(out)
    assert [(r["line"], r["transcript"], r["message"], r["name"]) for r in got] == [
        (1, 0, None, "search"),
        (2, 1, None, "search"),
    ]
    assert got[0]["arguments"] == {"q": "rust"}
    assert got[0]["span"] == list(toolsift.parse(TCJ).calls[0].span)
    assert got[0]["syntax"] == "tool_call_json" and got[0]["call_id"] == "call_0"


def test_openai_messages_with_per_record_syntax_and_issue_rows(tmp_path: Path) -> None:
    record = {
        "syntax": "hermes",
        "messages": [
            {"role": "user", "content": HERMES},  # not an assistant turn: not parsed
            {"role": "assistant", "content": "ok " + HERMES},
            {"role": "assistant", "content": [{"type": "text", "text": BROKEN}]},
            {"role": "assistant", "content": None, "tool_calls": []},
        ],
    }
    out = tmp_path / "out.jsonl"
    src = jsonl(tmp_path / "chat.jsonl", [record])
    assert run("extract", str(src), "-o", str(out), "-q") == 0
    got = rows(out)
    assert [(r["message"], r["name"], r["call_id"]) for r in got] == [
        (1, "read", "call_0"),
        (2, None, None),
    ]
    assert got[1]["issues"][0]["kind"] == "unterminated"
    assert run("extract", str(src), "-o", str(out), "-q", "--fail-on-issues") == 1


def test_sharegpt_conversations_and_roles(tmp_path: Path) -> None:
    record = {"conversations": [{"from": "human", "value": TCJ}, {"from": "gpt", "value": TCJ}]}
    src = jsonl(tmp_path / "sg.jsonl", [record])
    out = tmp_path / "out.jsonl"
    assert run("extract", str(src), "-o", str(out), "-q") == 0
    assert [r["message"] for r in rows(out)] == [1]
    assert run("extract", str(src), "-o", str(out), "-q", "--roles", "human,gpt") == 0
    assert [r["message"] for r in rows(out)] == [0, 1]


def test_selected_field_and_text_files(tmp_path: Path) -> None:
    jsonl(tmp_path / "f.jsonl", [{"body": HERMES, "text": "no"}])
    (tmp_path / "reply.txt").write_text(HERMES, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    args = ["extract", str(tmp_path), "-o", str(out), "-q", "--syntax", "hermes"]
    assert run(*args, "--field", "body") == 0
    assert sorted((Path(r["source"]).name, r["name"]) for r in rows(out)) == [
        ("f.jsonl", "read"),
        ("reply.txt", "read"),
    ]


def test_bad_lines_are_reported_skipped_or_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = jsonl(
        tmp_path / "in.jsonl",
        [{"text": TCJ}, {"no_text": 1}, {"text": TCJ, "syntax": "nope"}],
        extra="{not json\n",
    )
    out = tmp_path / "out.jsonl"
    assert run("extract", str(src), "-o", str(out)) == 0
    err = capsys.readouterr().err
    assert f"{src}:2: skipped: no field" in err
    assert f"{src}:3: skipped: unknown syntax 'nope'" in err
    assert f"{src}:4: skipped: not JSON" in err
    assert "3 bad records skipped" in err
    assert len(rows(out)) == 1
    assert run("extract", str(src), "-o", str(out), "--on-error", "fail") == 2
    assert f"{src}:2: no field" in capsys.readouterr().err


@pytest.mark.parametrize("enabled", [True, False])
def test_extract_pauses_the_collector_and_restores_it_even_on_failure(
    tmp_path: Path, enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real_rows_of = extract.rows_of

    def rows_of(unit: Any, result: Any) -> Any:
        seen.append(gc.isenabled())
        return real_rows_of(unit, result)

    monkeypatch.setattr(extract, "rows_of", rows_of)
    src = jsonl(tmp_path / "in.jsonl", [{"text": TCJ}, {"no_text": 1}])
    out = tmp_path / "out.jsonl"
    (gc.enable if enabled else gc.disable)()
    try:
        assert run("extract", str(src), "-o", str(out)) == 0
        assert seen == [False]  # paused while the slice's rows were made
        assert gc.isenabled() is enabled
        assert run("extract", str(src), "-o", str(out), "--on-error", "fail") == 2
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


def test_parquet_in_and_out(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "in.parquet"
    messages = [[{"role": "assistant", "content": TCJ}], [{"role": "user", "content": TCJ}]]
    pq.write_table(pa.table({"messages": messages, "syntax": ["tool_call_json", None]}), src)
    out_jsonl, out_parquet = tmp_path / "o.jsonl", tmp_path / "o.parquet"
    assert run("extract", str(src), "-o", str(out_jsonl), "-q") == 0
    assert run("extract", str(src), "-o", str(out_parquet), "-q") == 0
    from_parquet = pq.read_table(out_parquet).to_pylist()
    for row in from_parquet:
        row["arguments"] = orjson.loads(row["arguments"])
    assert from_parquet == rows(out_jsonl)
    assert [(r["line"], r["message"], r["name"]) for r in from_parquet] == [(1, 0, "search")]


def test_workers_1_and_2_write_identical_output(tmp_path: Path) -> None:
    corpus = EXAMPLES / "corpus" / "raw.jsonl"
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    assert run("extract", str(corpus), "-o", str(one), "-q", "--workers", "1") == 0
    assert run("extract", str(corpus), "-o", str(two), "-q", "--workers", "2") == 0
    assert one.read_bytes() == two.read_bytes()
    assert len(rows(one)) > 1000


def test_tools_file_types_values(tmp_path: Path) -> None:
    tools = [{"type": "function", "function": {"name": "read", "parameters": {}}}]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    other = HERMES.replace('"read"', '"write"')
    src = jsonl(tmp_path / "in.jsonl", [{"text": HERMES + other, "syntax": "hermes"}])
    out = tmp_path / "out.jsonl"
    assert (
        run("extract", str(src), "-o", str(out), "-q", "--tools", str(tmp_path / "tools.json")) == 0
    )
    got = rows(out)
    assert got[0]["issues"] == []
    assert got[1]["issues"][0]["kind"] == "unknown_tool"


def test_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("extract", str(tmp_path / "missing.jsonl")) == 2
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run("extract", "x", "--syntax", "nope")
    with pytest.raises(SystemExit):
        run("format", "calls.jsonl")  # --syntax is required


def test_summary_on_the_sample_corpus_via_python_m(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolsift",
            "extract",
            str(EXAMPLES),
            "-o",
            str(tmp_path / "o.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    for syntax in toolsift.SYNTAXES:
        if syntax != "think":  # the one syntax that holds no calls
            assert f"\n  {syntax} " in proc.stderr, syntax
    assert '"syntax": "think"' in (EXAMPLES / "corpus" / "raw.jsonl").read_text("utf-8")
    for part in ("calls per tool:", "issues by kind:", "MB/s end to end", "outside parsing"):
        assert part in proc.stderr


def test_progress_bar_draws_and_ends_its_line() -> None:
    import io

    from toolsift.cli.progress import Progress

    out = io.StringIO()
    bar = Progress(2_000_000, enabled=True, out=out)
    bar.advance(1_000_000)
    bar.close()
    text = out.getvalue()
    assert "\r[###############...............]  50% 1.0/2.0 MB" in text
    assert text.endswith("\n")
    quiet = io.StringIO()
    Progress(10, out=quiet).close()  # not a terminal: nothing
    assert quiet.getvalue() == ""


def test_manifest_prints_the_tools_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = [{"type": "function", "function": {"name": "read", "parameters": {}}}]
    (tmp_path / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    assert run("manifest", str(tmp_path / "tools.json"), "--syntax", "hermes") == 0
    out = capsys.readouterr().out
    assert out.strip() == toolsift.manifest(tools, syntax="hermes").strip()
    assert "read" in out


def test_format_writes_extracted_calls_back_in_another_syntax(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two = TCJ + "\n" + TCJ.replace("rust", "go")
    src = jsonl(tmp_path / "in.jsonl", [{"text": two}, {"text": BROKEN, "syntax": "hermes"}])
    calls, replies = tmp_path / "calls.jsonl", tmp_path / "replies.jsonl"
    assert run("extract", str(src), "-o", str(calls), "-q") == 0
    with calls.open("a", encoding="utf-8") as f:
        f.write("{broken\n")
    assert run("format", str(calls), "--syntax", "hermes", "-o", str(replies)) == 0
    assert f"{calls}:4: skipped: not JSON" in capsys.readouterr().err
    got = rows(replies)
    assert len(got) == 1 and got[0]["transcript"] == 0 and got[0]["syntax"] == "hermes"
    back = toolsift.parse(got[0]["text"], "hermes").calls
    assert [(c.name, c.arguments) for c in back] == [
        ("search", {"q": "rust"}),
        ("search", {"q": "go"}),
    ]
    assert run("format", str(calls), "--syntax", "hermes", "--on-error", "fail") == 2


def test_bench_reports_throughput_per_worker_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = jsonl(
        tmp_path / "in.jsonl", [{"text": TCJ}] * 50 + [{"text": HERMES, "syntax": "hermes"}]
    )
    assert run("bench", str(src), "--repeat", "1") == 0
    out = capsys.readouterr().out
    assert out.startswith("51 texts, ")
    assert "workers=1: " in out and "(1.00x of 1)" in out
