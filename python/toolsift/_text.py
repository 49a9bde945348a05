"""Input text the Rust core can take: valid UTF-8.

A Python ``str`` may hold lone surrogates (from ``surrogateescape`` decoding or a broken
stream), which UTF-8 cannot encode. They are replaced by U+FFFD one for one, so code-point
offsets into the original text stay valid; values read from such text hold U+FFFD there.
"""

from __future__ import annotations

import re

__all__ = ["without_surrogates"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (same length)."""
    return _SURROGATE.sub("\ufffd", text)
