"""``_native.utf8_len`` is the UTF-8 size of any ``str`` (lone surrogates as ``surrogatepass``
encodes them), whatever its width, cache or type."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from toolsift._native import has_long_digit_run, utf8_len


class Text(str):
    pass


def size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_utf8_len_is_the_size_of_the_surrogatepass_encoding(text: str) -> None:
    fresh = text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
    assert utf8_len(fresh) == size(text)
    assert utf8_len(Text(fresh)) == size(text)


def test_every_width_and_a_cached_utf8() -> None:
    for text in ["", "ascii", "café ÿ", "日本 \ud800", "emoji 😀 \udfff", "\U0010ffff"]:
        assert utf8_len(text) == size(text)
    cached = "日本語".encode().decode()
    before = sys.getsizeof(cached)
    has_long_digit_run(cached)  # reads it as UTF-8, which CPython then keeps in the `str`
    assert sys.getsizeof(cached) > before
    assert utf8_len(cached) == 9
