"""Errors carry the position of the bad input and print as `path:line:col: error: message`.

Every stage has its own subclass so callers (and tests) can tell where a problem was found, but the
CLI treats them alike: print, exit 1, never a traceback.
"""
from __future__ import annotations

import attrs


@attrs.frozen
class Pos:
    """A place in a source file (1-based line and column)."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


UNKNOWN = Pos("<unknown>", 0, 0)


def pos_at_index(path: str, data, index: int) -> Pos:
    """The position of `data[index]` in a file's text or bytes (lines end at "\\n"; the column
    counts characters, a byte that is not UTF-8 as one)."""
    nl = b"\n" if isinstance(data, bytes) else "\n"
    start = data.rfind(nl, 0, index) + 1
    before = data[start:index]
    if isinstance(before, bytes):
        before = before.decode("utf-8", "replace")
    return Pos(path, data.count(nl, 0, index) + 1, len(before) + 1)

_source_cache: dict[str, list[str]] = {}


def remember_source(path: str, text: str) -> None:
    """Keep a file's text so errors can quote the offending line."""
    _source_cache[path] = text.splitlines()


def source_line(path: str, line: int) -> str | None:
    lines = _source_cache.get(path)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


class MeeplangError(Exception):
    """The one error class the tools raise for bad rules or bad input."""

    stage = "error"

    def __init__(self, message: str, pos: Pos | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos or UNKNOWN
        self.hint = hint

    def __str__(self) -> str:
        """`path:line:col: error: message`, or `error: message` when the error has no place in a
        file (a game name that does not exist, a bad argument)."""
        if self.pos == UNKNOWN:
            return f"error: {self.message}"
        return f"{self.pos}: error: {self.message}"

    def render(self) -> str:
        """The message, the quoted source line and a caret under the column."""
        out = [str(self)]
        text = source_line(self.pos.path, self.pos.line)
        if text is not None and len(text) <= 400:
            out.append("    " + text.replace("\t", " "))
            out.append("    " + " " * max(self.pos.col - 1, 0) + "^")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class LoadError(MeeplangError):
    """Reading files: YAML syntax, unsafe YAML, includes, sizes."""


class SchemaError(MeeplangError):
    """The YAML tree does not have the shape of a game file."""


class RuleSyntaxError(MeeplangError):
    """A rule string does not parse."""


class ResolveError(MeeplangError):
    """Names, arity and types: the rules parse but do not make sense."""


class RuleError(MeeplangError):
    """A rule failed while a game was running (negative count, division by zero, runaway loop)."""


class Impossible(RuleError):
    """A rule cannot be carried out in this state: a payment past a counter's bound, nothing to
    choose, too few items to take, a full zone. A rehearsal reads it as "not possible now"; any
    other rule error is a mistake in the rules and is reported."""


class UsageError(MeeplangError):
    """Bad use of the API or CLI (unknown game, bad player count, illegal choice)."""


@attrs.frozen
class Warning_:
    message: str
    pos: Pos

    def __str__(self) -> str:
        return f"{self.pos}: warning: {self.message}"
