"""The README's Python examples run and print what the README says they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    found = re.findall(r"(`{3,})python\n(.*?)\n\1\n", README.read_text("utf-8"), re.DOTALL)
    return [body for _, body in found]


def test_readme_has_python_examples() -> None:
    assert len(_python_blocks()) >= 2


def test_readme_examples_print_what_they_claim() -> None:
    namespace: dict[str, object] = {}  # blocks build on each other, as a reader's session does
    for block in _python_blocks():
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, "README.md", "exec"), namespace)
        claimed = [
            line.strip()[2:]
            for line in block.splitlines()
            if line.strip().startswith("# ") and "print(" in block
        ]
        got = printed.getvalue().splitlines()
        for line in claimed:
            assert line in got, (line, got)
