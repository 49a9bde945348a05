"""How much of a streamed JSON text is settled: bytes that lenient repair will keep as written.

Argument fragments go to an OpenAI client as they arrive, and the client only ever appends, so
a fragment may be sent only once no later repair can rewrite it. toolsift's repair keeps the
model's bytes up to each defect and changes only the defect (a trailing comma dropped, a quote
swapped, a closer appended), so the settled prefix is: everything read while the text is
still strict JSON, minus a pending comma (it may turn out to be trailing), a key before
its colon (repair drops a key the text ends in; before the first key's colon, the object's
`{` too, as a set of strings is read as a list) and a token still being read (a number, a
literal, an escape). After the first byte strict JSON forbids,
nothing more is settled.
"""

from __future__ import annotations

import re

__all__ = ["JsonPrefix"]

_STRING_RUN = re.compile(r'[^"\\\x00-\x1f]*')
_BLANKS = " \t\n\r"
_NUMBER = frozenset("0123456789+-.eE")
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS = ("true", "false", "null")
# What may follow a number or a literal for repair to keep it: a byte of another kind (`0x`,
# `true\\`) makes repair read the whole run as one unquoted string.
_AFTER_SCALAR = frozenset(_BLANKS + ",}]")


class JsonPrefix:
    """Feed text with :meth:`push`; :attr:`settled` is the length of its settled prefix."""

    def __init__(self) -> None:
        self.settled = 0
        self._pos = 0
        self._stack: list[str] = []
        # value, first_key (after "{"), key, colon, after, string, escape, number, literal, end
        self._state = "value"
        self._is_key = False
        self._token_start = 0
        self._comma: int | None = None
        self._literal = ""  # the number or literal being read
        self._hex = 0
        self._broken = False
        self._value_end = 0
        self._key_start = 0
        # Where the innermost object's `{` is, while its first key waits for its colon: a
        # first key followed by a comma and a string makes repair read the braces as a set,
        # a list (`{"a", "b"}` → `["a", "b"]`), so the `{` itself is not settled yet.
        self._brace = 0
        self._first_key = False

    def push(self, text: str) -> int:
        """Reads ``text``; returns the settled length of everything pushed so far."""
        if self._broken:
            self._pos += len(text)
            return self.settled
        i, n = 0, len(text)
        while i < n:
            state = self._state
            if state == "string":
                run = _STRING_RUN.match(text, i)
                i = run.end() if run else i
                if i == n:
                    break
                c = text[i]
                if c == '"':
                    self._close_value("colon" if self._is_key else None, self._pos + i + 1)
                elif c == "\\":
                    self._token_start = self._pos + i
                    self._state = "escape"
                else:
                    return self._break(i)
                i += 1
                continue
            c = text[i]
            if not self._step(c, self._pos + i):
                return self._break(i)
            i += 1
        self._pos += n
        self._settle()
        return self.settled

    def _settle(self) -> None:
        if self._state == "first_key":
            end = self._brace
        elif self._state == "colon" or (
            self._is_key and self._state in ("string", "escape", "unicode")
        ):
            # Repair drops a key the text ends in: a key settles once its colon is read.
            end = self._brace if self._first_key else self._key_start
        elif self._state in ("escape", "unicode", "number", "literal"):
            end = self._token_start
        elif self._state == "end":
            end = self._value_end
        elif self._comma is not None:
            end = self._comma
        else:
            end = self._pos
        self.settled = max(self.settled, end)

    def _break(self, i: int) -> int:
        self._pos += i
        self._settle()
        self._broken = True
        return self.settled

    def _close_value(self, next_state: str | None, end: int) -> None:
        if next_state is not None:
            self._state = next_state
        elif self._stack:
            self._state = "after"
        else:
            # Blanks after the whole value are not part of it.
            self._state, self._value_end = "end", end

    def _start_value(self, c: str, at: int) -> bool:
        self._comma = None
        if c == '"':
            self._is_key = False
            self._state = "string"
        elif c in "{[":
            self._brace = at
            self._stack.append(c)
            self._state = "first_key" if c == "{" else "first_value"
        elif c in "-0123456789":
            self._token_start, self._state, self._literal = at, "number", c
        elif c in "tfn":
            self._token_start, self._state, self._literal = at, "literal", c
        else:
            return False
        return True

    def _step(self, c: str, at: int) -> bool:
        state = self._state
        if state == "escape":
            if c == "u":
                self._state, self._hex = "unicode", 0
            elif c in '"\\/bfnrt':
                self._state = "string"
            else:
                return False
            return True
        if state == "unicode":
            if c not in "0123456789abcdefABCDEF":
                return False
            self._hex += 1
            if self._hex == 4:
                self._state = "string"
            return True
        if state == "number":
            if c in _NUMBER:
                self._literal += c
                return True
            if c not in _AFTER_SCALAR or not _STRICT_NUMBER.fullmatch(self._literal):
                return False  # repair rewrites the number (or the run it begins)
            self._close_value(None, at)
            return self._step(c, at)
        if state == "literal":
            if self._literal in _LITERALS:
                # A whole word settles only with what follows it (`truex` becomes a string).
                if c not in _AFTER_SCALAR:
                    return False
                self._close_value(None, at)
                return self._step(c, at)
            self._literal += c
            return any(w.startswith(self._literal) for w in _LITERALS)
        if c in _BLANKS:
            return True
        if state in ("value", "first_value"):
            if state == "first_value" and c == "]":
                return self._close_container("[", at)
            return self._start_value(c, at)
        if state in ("first_key", "key"):
            if state == "first_key" and c == "}":
                return self._close_container("{", at)
            if c != '"':
                return False
            self._comma, self._is_key, self._state = None, True, "string"
            self._key_start = at
            self._first_key = state == "first_key"
            return True
        if state == "colon":
            if c != ":":
                return False
            self._state = "value"
            return True
        if state == "after":
            if c == ",":
                self._comma = at
                self._state = "key" if self._stack[-1] == "{" else "value"
                return True
            return self._close_container("{" if c == "}" else "[" if c == "]" else "", at)
        return False

    def _close_container(self, opener: str, at: int) -> bool:
        if not opener or not self._stack or self._stack[-1] != opener:
            return False
        self._stack.pop()
        self._close_value(None, at + 1)
        return True
