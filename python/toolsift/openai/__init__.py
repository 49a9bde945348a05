"""OpenAI-compatible output: what a server putting an open model behind the chat-completions
API sends.

``to_message(result)`` turns a :class:`~toolsift.ParseResult` into the assistant ``message``;
:class:`StreamAdapter` turns a token stream into ``choices[0].delta`` dicts whose concatenation
(what every OpenAI client does) gives that same message; :func:`merge_deltas` is that client
side, for tests and for proxies that re-assemble streams.

>>> import toolsift
>>> adapter = StreamAdapter("hermes")
>>> deltas = adapter.feed('Hi.<tool_call>{"name": "f", "arguments": {"q": "é"}}</tool_call>')
>>> deltas += adapter.finish()
>>> merge_deltas(deltas) == to_message(toolsift.parse(
...     'Hi.<tool_call>{"name": "f", "arguments": {"q": "é"}}</tool_call>', "hermes"))
True
>>> merge_deltas(deltas)["tool_calls"][0]["function"]
{'name': 'f', 'arguments': '{"q": "é"}'}
"""

from __future__ import annotations

from .adapter import StreamAdapter
from .message import merge_deltas, to_message

__all__ = ["StreamAdapter", "merge_deltas", "to_message"]
