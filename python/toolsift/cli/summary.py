"""The table ``toolsift extract`` prints at the end: inputs, calls per syntax and per tool,
issues by kind, throughput and the share of time spent parsing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..model import ParseResult

__all__ = ["Summary"]

TOP_TOOLS = 15


@dataclass
class Summary:
    files: int = 0
    records: int = 0
    texts: int = 0
    bad_records: int = 0
    text_bytes: int = 0
    calls_by_syntax: Counter[str] = field(default_factory=Counter)
    calls_by_tool: Counter[str] = field(default_factory=Counter)
    issues_by_kind: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    parse_seconds: float = 0.0

    def add(self, result: ParseResult) -> None:
        for call in result.calls:
            self.calls_by_syntax[call.syntax] += 1
            self.calls_by_tool[call.name] += 1
        for issue in result.issues:
            self.issues_by_kind[issue.kind] += 1

    @property
    def issues(self) -> int:
        return sum(self.issues_by_kind.values())

    def render(self) -> str:
        calls = sum(self.calls_by_syntax.values())
        lines = [
            f"{self.files} files, {self.records} transcripts, {self.texts} texts parsed, "
            f"{self.bad_records} bad records skipped",
            f"{calls} calls, {self.issues} issues",
        ]

        def table(title: str, counts: Counter[str], limit: int | None = None) -> None:
            if not counts:
                return
            items = counts.most_common(limit)
            width = max(len(k) for k, _ in items)
            lines.append(f"{title}:")
            lines.extend(f"  {k:<{width}}  {v:>7}" for k, v in items)
            if limit is not None and len(counts) > limit:
                lines.append(f"  … and {len(counts) - limit} more")

        table("calls per syntax", self.calls_by_syntax)
        table("calls per tool", self.calls_by_tool, TOP_TOOLS)
        table("issues by kind", self.issues_by_kind)
        mb = self.text_bytes / 1e6
        rate = mb / self.seconds if self.seconds else 0.0
        share = 1 - self.parse_seconds / self.seconds if self.seconds else 0.0
        lines.append(
            f"{mb:.2f} MB of text in {self.seconds:.2f} s: {rate:.1f} MB/s end to end, "
            f"{share:.0%} of the time outside parsing"
        )
        return "\n".join(lines)
