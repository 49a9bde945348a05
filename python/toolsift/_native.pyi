"""Type stubs for the Rust extension module ``toolsift._native`` (checked by stubtest)."""

from collections.abc import Sequence
from typing import Any, Literal, final

from typing_extensions import disjoint_base

from toolsift.model import ParseIssue, ParseResult, ToolCall

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "ArgumentDelta",
    "ArgumentsJsonDelta",
    "BatchRun",
    "DeferredText",
    "LazyField",
    "NativeArgsPreview",
    "NativePattern",
    "NativeStream",
    "SegmentEnd",
    "SegmentStart",
    "StreamCore",
    "TextDelta",
    "Unbuilt",
    "has_long_digit_run",
    "json_verdict",
    "lenient_loads",
    "loads_exact",
    "loads_known",
    "parse",
    "parse_arrow_buffers",
    "repair_and_load",
    "repair_json",
    "scan_json_spans",
    "utf8_len",
    "without_surrogates",
]

DEFAULT_MAX_DEPTH: int

@final
class DeferredText:
    """A result's text not yet made a ``str`` (``toolsift.model`` makes it on first read)."""

    def __str__(self) -> str: ...

@disjoint_base
class Unbuilt:
    """The native base of ``toolsift.model.ToolCall`` and ``ParseResult``: where the fields a
    native parse leaves unbuilt wait until read (``LazyField`` builds each on its first
    read)."""

@final
class LazyField:
    """The descriptor over a ``toolsift.model`` field a native parse leaves unbuilt: the
    first read builds the value and stores it in the slot ``slot`` (a member descriptor)."""

    def __new__(cls, slot: object, field: str) -> LazyField: ...
    def __get__(self, instance: object, owner: object = None, /) -> Any: ...
    def __set__(self, instance: object, value: object, /) -> None: ...
    def __delete__(self, instance: object, /) -> None: ...

def scan_json_spans(
    text: str, *, single_quotes: bool = False, max_depth: int = ...
) -> tuple[list[tuple[int, int, str, int, bool]], list[tuple[int, str, int]], str]:
    """Every balanced span ``(start, end, kind, depth, mismatched)`` in code points, the spans
    still open at the end ``(start, kind, depth)``, and the closers that would close them."""

def repair_json(
    text: str, *, max_depth: int = ..., report: bool = True
) -> tuple[bytes, list[tuple[str, int]]]:
    """Repaired JSON as UTF-8 bytes and ``(kind, byte_offset)`` for every repair (an empty
    list when ``report`` is false)."""

def repair_and_load(text: str, max_depth: int) -> Any:
    """Repairs ``text`` and loads the result as the parsers load arguments: by the reader of
    ``loads_known``, else with orjson, or with ``loads_exact`` when it holds a run of 19+
    digits or is nested deeper than orjson allows."""

def loads_exact(data: str | bytes) -> object:
    """Loads valid JSON without recursion, keeping integers beyond 64 bits exact."""

def loads_known(text: str) -> tuple[object] | None:
    """``(value,)`` of JSON text known to be valid, read by the one-pass reader that loads
    call arguments, or ``None`` for text it leaves to orjson and ``loads_exact`` (nesting
    deeper than 128, an integer of more than 18 digits, an escaped lone surrogate). On text
    that is not JSON the result is unspecified; it never crashes."""

def parse(text: Any, syntax: str | Sequence[str] | None = None, **options: Any) -> ParseResult:
    """``toolsift.parse`` (see ``toolsift.parsing``): answers a ``str`` with one syntax name
    and the thread's previous options itself, and hands every other call to
    ``toolsift.parsing._parse``."""

def utf8_len(text: str) -> int:
    """``len(text.encode("utf-8", "surrogatepass"))``, without encoding ``text``."""

def has_long_digit_run(data: str | bytes) -> bool:
    """True when ``data`` has a run of 19+ ASCII digits (an integer that may not fit 64 bits)."""

def lenient_loads(
    text: str | bytes | bytearray | memoryview,
    *,
    max_depth: int = ...,
    precheck: bool = True,
) -> Any:
    """Loads JSON, repairing it first when it is malformed (see ``toolsift.lenient_loads``)."""

def json_verdict(data: object) -> Literal[0, 1, 2]:
    """0 when ``data`` (str or bytes) is certainly not strict JSON; 2 when it may be and has a
    run of 19+ digits; 1 otherwise, and for any other type."""

def parse_arrow_buffers(
    offsets: bytes,
    data: bytes,
    start: int,
    length: int,
    syntaxes: list[str],
    *,
    marker: str | None = None,
    max_payload_chars: int | None = None,
    workers: int | None = None,
) -> dict[str, dict[str, Any]]:
    """Calls and issues of the rows of a ``large_string`` array, as column buffers."""

@final
class BatchRun:
    """One schedule for a batch of groups ``(texts, syntaxes, marker, max_payload_chars,
    tool_calls, results, known_tools)``: iterating yields ``(group, start, found, fixed)`` per
    slice, in order; ``found`` holds a ``(content, calls, issues)`` per text, or with
    ``results`` (and ``tool_calls``) its ``ParseResult``; ``fixed`` the positions in the slice
    of texts read with lone surrogates replaced."""

    def __new__(
        cls,
        groups: list[
            tuple[
                Sequence[str],
                list[str],
                str | None,
                int | None,
                bool,
                bool,
                list[str | tuple[str, list[str] | None]],
            ]
        ],
        *,
        workers: int,
        min_slice_bytes: int = 65536,
        tail_slice_bytes: int = 16384,
    ) -> BatchRun: ...
    def __iter__(self) -> BatchRun: ...
    def __next__(
        self,
    ) -> tuple[int, int, list[Any], list[int]]: ...

@final
class NativeStream:
    """The incremental engine over the named syntaxes; events are tuples (see streaming.py)."""

    def __new__(
        cls,
        syntaxes: list[str],
        *,
        marker: str | None = None,
        max_payload_chars: int | None = None,
        previews: bool = True,
        max_depth: int | None = None,
        max_call_bytes: int | None = None,
        max_segment_bytes: int | None = None,
        max_calls: int | None = None,
        known_tools: list[str | tuple[str, list[str] | None]] | None = None,
    ) -> NativeStream: ...
    @staticmethod
    def syntax_names() -> list[str]: ...
    @staticmethod
    def auto_syntax_names() -> list[str]: ...
    @staticmethod
    def default_limits() -> tuple[int, int, int, int]: ...
    @staticmethod
    def start_markers(name: str) -> list[str]: ...
    def feed(self, chunk: str) -> list[Any]: ...
    def finish(self) -> list[Any]: ...
    def reset(self) -> None: ...
    def take_content(self) -> str: ...
    def parse_all(
        self, text: str, tool_calls: bool = False, lossy: bool = False
    ) -> tuple[str, list[Any], list[ParseIssue]]: ...
    def parse_result(self, text: str) -> ParseResult: ...

@disjoint_base
class StreamCore:
    """The native base of ``StreamParser``: ``feed`` reads text chunks in Rust."""

    def __new__(cls, *_args: Any, **_kwargs: Any) -> StreamCore: ...
    def _bind(self, native: NativeStream | None, keep: bool) -> None: ...
    def _acquire(self) -> None: ...
    def _release(self) -> None: ...
    def feed(self, chunk: Any) -> list[Any]: ...
    def _finish_engine(self) -> list[Any]: ...

@final
class NativePattern:
    """A pattern compiled by the ``regex`` crate (linear time, no backtracking)."""

    def __new__(cls, source: str) -> NativePattern: ...
    def group_names(self) -> list[str | None]: ...
    def find_all(self, text: str, max_matches: int) -> list[list[tuple[int, int] | None]]: ...

@final
class NativeArgsPreview:
    """Decoded string-argument deltas of one streamed arguments object."""

    def __new__(cls) -> NativeArgsPreview: ...
    def feed(self, fragment: str) -> list[tuple[str, str]]: ...

@final
class SegmentStart:
    """A segment begins: ``kind`` is ``text``, ``reasoning``, ``tool_call`` or a file kind."""

    def __new__(
        cls,
        segment_id: str,
        kind: str,
        syntax: str,
        name: str | None = None,
        metadata: list[tuple[str, str]] | None = None,
    ) -> SegmentStart: ...
    @property
    def segment_id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def syntax(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def metadata(self) -> dict[str, str]: ...

@final
class SegmentEnd:
    """A segment ends with its call, or the issue that explains why it is not one (a call
    may carry an issue too, such as a missing end marker)."""

    __match_args__ = ("segment_id", "call", "issue")
    def __new__(
        cls,
        segment_id: str,
        call: ToolCall | None = None,
        issue: ParseIssue | None = None,
    ) -> SegmentEnd: ...
    @property
    def segment_id(self) -> str: ...
    @property
    def call(self) -> ToolCall | None: ...
    @property
    def issue(self) -> ParseIssue | None: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class TextDelta:
    """More text of a text or reasoning segment."""

    def __new__(cls, segment_id: str, text: str) -> TextDelta: ...
    @property
    def segment_id(self) -> str: ...
    @property
    def text(self) -> str: ...

@final
class ArgumentDelta:
    """More decoded text of the string argument ``key``, as it streams."""

    def __new__(cls, segment_id: str, key: str, text: str) -> ArgumentDelta: ...
    @property
    def segment_id(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...

@final
class ArgumentsJsonDelta:
    """A fragment of the arguments' JSON text."""

    def __new__(cls, segment_id: str, text: str) -> ArgumentsJsonDelta: ...
    @property
    def segment_id(self) -> str: ...
    @property
    def text(self) -> str: ...

def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (same length)."""
