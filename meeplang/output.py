"""Output that fits where it goes: rich tables on a terminal; plain, unwrapped lines in a pipe or a
file (a reader or a script must never find a phrase cut in two by a terminal width); one JSON
object under `--json`, errors included, so a script always has something to parse on stdout."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from meeplang.dsl.errors import MeeplangError, UsageError


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

        Console(file=stream, emoji=False).print(rich_table(table))  # user text stays text
    else:
        print("\n".join(plain_lines(table)), file=stream)


def plain_lines(table: Table) -> list[str]:
    """The title, the header and the rows in aligned columns, then the caption, each on one line
    however long it is."""
    widths = [max([len(name)] + [len(row[i]) for row in table.rows])
              for i, name in enumerate(table.columns)]

    def line(cells) -> str:
        return "  ".join(c.ljust(w) if name in table.left else c.rjust(w)
                         for c, w, name in zip(cells, widths, table.columns)).rstrip()

    out = [table.title, line(table.columns)] + [line(row) for row in table.rows]
    return out + ([table.caption] if table.caption else [])


def rich_table(table: Table):
    """The table for rich, every text escaped: a variant named `[bold]x` is printed as written."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    drawn = RichTable(title=escape(table.title), caption=escape(table.caption) or None)
    for name in table.columns:
        drawn.add_column(escape(name), justify="left" if name in table.left else "right")
    for row in table.rows:
        drawn.add_row(*(escape(cell) for cell in row))
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
