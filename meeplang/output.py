"""Output that fits where it goes: rich tables on a terminal; plain, unwrapped lines in a pipe or a
file (a reader or a script must never find a phrase cut in two by a terminal width); one JSON
object under `--json`, errors included, so a script always has something to parse on stdout.

Text from a game file (titles, names, terms, logged texts) reaches the terminal as text, never as
a command to it: while a command runs, standard output and error escape every control character
but tab and line feed (ESC, CR, the C1 controls, DEL...) and lone surrogates as `\\u001b`, the
same in plain text and inside JSON strings (where it is the JSON escape of that very character).
A title cannot clear the screen, set the window's title or forge an `ok:` line; a one-line field
escapes line feeds too (`one_line`)."""
from __future__ import annotations

import contextlib
import json
import re
import sys
from dataclasses import dataclass, field

from meeplang.dsl.errors import MeeplangError, UsageError


# C0 controls but tab and line feed, DEL, C1 controls, and lone surrogates (no UTF-8 for them)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _escape(match) -> str:
    return f"\\u{ord(match.group()):04x}"


def safe_text(text: str) -> str:
    """`text` with the characters a terminal would obey escaped (`\\u001b`)."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` for a one-line field (a title in `ok: ...`): line breaks escaped as well."""
    return _UNSAFE_LINE.sub(_escape, str(text))


class SafeStream:
    """A text stream that escapes what `safe_text` escapes on the way out; everything else (its
    buffer for binary output, isatty, flush) is the stream's own."""

    def __init__(self, stream):
        self.raw = stream

    def write(self, text: str) -> int:
        return self.raw.write(safe_text(text))

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.raw, name)


def raw_stream(stream):
    """The stream under a SafeStream (rich writes its own escape sequences: it gets the raw
    stream, and text already made safe)."""
    return stream.raw if isinstance(stream, SafeStream) else stream


@contextlib.contextmanager
def safe_output():
    """Standard output and error as SafeStreams inside the `with`."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


@dataclass
class Table:
    """A table as data: the terminal draws it with rich, a pipe gets aligned plain lines."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    caption: str = ""
    left: frozenset = frozenset()  # columns aligned left (the others are numbers: right)


def on_terminal(stream=None) -> bool:
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def print_table(table: Table, stream=None) -> None:
    stream = stream or sys.stdout
    if on_terminal(stream):
        from rich.console import Console

        Console(file=raw_stream(stream), emoji=False).print(rich_table(table))  # text stays text
    else:
        print("\n".join(plain_lines(table)), file=stream)


def plain_lines(table: Table) -> list[str]:
    """The title, the header and the rows in aligned columns, then the caption, each on one line
    however long it is."""
    rows = [[one_line(c) for c in row] for row in table.rows]
    widths = [max([len(name)] + [len(row[i]) for row in rows])
              for i, name in enumerate(table.columns)]

    def line(cells) -> str:
        return "  ".join(c.ljust(w) if name in table.left else c.rjust(w)
                         for c, w, name in zip(cells, widths, table.columns)).rstrip()

    out = [one_line(table.title), line(table.columns)] + [line(row) for row in rows]
    return out + ([one_line(table.caption)] if table.caption else [])


def rich_table(table: Table):
    """The table for rich, every text escaped: a variant named `[bold]x` is printed as written."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    def text(s: str) -> str:
        return escape(one_line(s))

    drawn = RichTable(title=text(table.title), caption=text(table.caption) or None)
    for name in table.columns:
        drawn.add_column(text(name), justify="left" if name in table.left else "right")
    for row in table.rows:
        drawn.add_row(*(text(cell) for cell in row))
    return drawn


def error_object(exc: MeeplangError) -> dict:
    """An error as `--json` prints it: what went wrong, and where."""
    out = {"ok": False, "error": {"kind": "usage" if isinstance(exc, UsageError) else "rules",
                                  "stage": type(exc).__name__, "message": exc.message}}
    if exc.pos.line:
        out["error"].update(path=exc.pos.path, line=exc.pos.line, col=exc.pos.col)
    if exc.hint:
        out["error"]["hint"] = exc.hint
    return out


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))
