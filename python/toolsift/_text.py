"""Input text the Rust core can take: valid UTF-8.

A Python ``str`` may hold lone surrogates (from ``surrogateescape`` decoding or a broken
stream), which UTF-8 cannot encode. They are replaced by U+FFFD one for one, so code-point
offsets into the original text stay valid; values read from such text hold U+FFFD there.

>>> without_surrogates("a\\udc80b") == "a\\ufffdb"
True
"""

from __future__ import annotations

from ._native import without_surrogates

__all__ = ["without_surrogates"]
