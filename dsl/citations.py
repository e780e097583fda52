"""Rulebook citations as data: the `# FR l.418` comments of a game's files, each attached to the
rule it annotates.

A citation is a rulebook tag (`FR`, `EN`: the book in that language) and `l.` with line numbers
or ranges, several separated by commas: `FR l.418`, `EN l.254-256`, `FR l.304, 308`, `FR l.139 vs
l.150-152` (a second `l.` in the same comment, or on the comment lines right below, cites the same
book). It stands in a YAML comment or in a comment of rule text (`gain plant_income coins  # FR
l.418`). A comment at the end of a line annotates what that line writes (the deepest entry that
holds it: `tables.plant_income`, `actions.power_plant.limit`); a comment on a line of its own
annotates the next line that is not a comment. Comments are found with YAML's own scanner, so a `#`
inside a quoted string is never one; inside a block of rule text (`|`), a `#` outside a "string"
starts the rule text's comment, as the rule grammar says.

`read(source)` gives the citations of a loaded (merged) game and warnings for malformed ones;
`meeplang check` shows the warnings, `meeplang cite` (dsl/concordance.py) reads the citations.
"""
from __future__ import annotations

import re

import attrs
import yaml

from .errors import Pos, Warning_, _source_cache
from .yamlpos import YList, YMap, YStr

BOOKS = ("FR", "EN")  # the rulebook tags: the languages Meeplang has


@attrs.frozen
class Citation:
    """One rulebook citation and the rule it annotates."""

    book: str  # "fr" or "en"
    lines: tuple  # ((first, last), ...): the book's lines it cites, in order, ranges inclusive
    pos: Pos  # where `FR l.…` is written
    rule: str  # the path of the rule it annotates (`actions.power_plant.limit`); "" the file
    rule_pos: Pos | None  # where that rule's entry is written
    code: str  # the line it annotates, without its comment (the rule as written)
    code_line: int  # that line's number in the file (0: the file itself)
    comment: str  # the whole comment it stands in

    def line_numbers(self) -> list[int]:
        return [n for lo, hi in self.lines for n in range(lo, hi + 1)]

    def label(self) -> str:
        """`FR l.254-256, 260` as written, normalised."""
        return f"{self.book.upper()} l." + ", ".join(
            str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in self.lines)


# ---------------------------------------------------------------- comments in a file
@attrs.frozen
class Comment:
    line: int  # 1-based
    col: int  # 1-based column of the `#`
    text: str  # after the `#`
    alone: bool  # nothing but blanks before it on its line
    in_rule: bool  # a comment of rule text inside a block scalar


_SCANNED: dict = {}


def comments(text: str) -> list[Comment]:
    """Every comment of a YAML file's text: YAML's and rule text's (in `|` and `>` blocks)."""
    got = _SCANNED.get(text)
    if got is None:
        got = _scan(text)
        if len(_SCANNED) > 256:
            _SCANNED.clear()
        _SCANNED[text] = got
    return got


def _scan(text: str) -> list[Comment]:
    lines = text.split("\n")
    covered: dict[int, list] = {}  # 0-based line -> [(from col, to col or None)]
    block: set[int] = set()  # 0-based lines inside a block scalar's content
    headers: dict[int, int] = {}  # a block scalar's header line -> the column after `|`
    try:
        tokens = list(yaml.scan(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return []  # the loader has already said what is wrong with the file
    for tok in tokens:
        start, end = tok.start_mark, tok.end_mark
        if isinstance(tok, yaml.ScalarToken) and tok.style in ("|", ">"):
            last = end.line if end.column else end.line - 1
            block.update(range(start.line + 1, last + 1))
            headers[start.line] = start.column + 1
            continue
        if start.line == end.line:
            covered.setdefault(start.line, []).append((start.column, end.column))
        else:
            covered.setdefault(start.line, []).append((start.column, None))
            for n in range(start.line + 1, end.line):
                covered.setdefault(n, []).append((0, None))
            covered.setdefault(end.line, []).append((0, end.column))
    out = []
    for n, raw in enumerate(lines):
        if n in block:
            col = _rule_comment(raw)
            if col is not None:
                out.append(Comment(n + 1, col + 1, raw[col + 1:].rstrip("\r"),
                                   not raw[:col].strip(), True))
            continue
        spans = covered.get(n, [])
        start = headers.get(n, 0)
        for col in range(start, len(raw)):
            if raw[col] != "#" or (col and raw[col - 1] not in " \t"):
                continue
            if any(a <= col and (b is None or col < b) for a, b in spans):
                continue
            out.append(Comment(n + 1, col + 1, raw[col + 1:].rstrip("\r"),
                               not raw[:col].strip(), False))
            break
    return out


def _rule_comment(raw: str) -> int | None:
    """The column of a rule-text comment's `#` on a line of a block scalar (outside strings)."""
    quote = False
    for col, ch in enumerate(raw):
        if ch == '"' and (col == 0 or raw[col - 1] != "\\"):
            quote = not quote
        elif ch == "#" and not quote:
            return col
    return None


# ---------------------------------------------------------------- citations in a comment
_L = re.compile(r"(?<![A-Za-z0-9_])l\.")
_BOOK_BEFORE = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z]{2})\s*$")
_REF = re.compile(r"\s*(\d+)(?:\s*[-–]\s*(\d+)?)?")
_MORE = re.compile(r"\s*,\s*(?=\d)")


def parse(text: str, book: str | None = None):
    """The citations of one comment's text: a list of (book or None, ((lo, hi), ...), column of
    the citation in `text` (0-based), problem or None), and the last book named (for the comment
    lines right below)."""
    found = []
    for m in _L.finditer(text):
        before = _BOOK_BEFORE.search(text, 0, m.start())
        start, problem = m.start(), None
        if before:
            tag = before.group(1)
            if tag in BOOKS:
                book, start = tag, before.start(1)
            elif tag.upper() in BOOKS:
                problem = f"write the rulebook as {tag.upper()}, not {tag!r}"
                book, start = tag.upper(), before.start(1)
            elif tag.isupper():
                problem = (f"unknown rulebook {tag!r} (a citation names its book by language: "
                           f"{' or '.join(BOOKS)})")
                start = before.start(1)
        refs, at = [], m.end()
        while True:
            r = _REF.match(text, at)
            if not r:
                break
            lo, hi = int(r.group(1)), r.group(2)
            if r.group(0).rstrip().endswith(("-", "–")) and hi is None:
                problem = problem or f"the range 'l.{lo}-' has no last line"
            hi = int(hi) if hi is not None else lo
            if lo < 1:
                problem = problem or "rulebook lines start at 1"
            elif hi < lo:
                problem = problem or f"the range 'l.{lo}-{hi}' ends before it starts"
            refs.append((lo, hi))
            at = r.end()
            more = _MORE.match(text, at)
            if not more:
                break
            at = more.end()
        if not refs and re.match(r"[A-Z](?:-[A-Z])?\b", text[m.end():]):
            continue  # `l.N`: the notation itself, as a header comment explains it
        if not refs:
            word = text[m.end():].split()[0] if text[m.end():].split() else ""
            problem = problem or (f"'l.' is not followed by a line number (found {word!r})" if word
                                  else "'l.' is not followed by a line number")
        if book is None and problem is None:
            problem = "the citation names no rulebook (write FR l.N or EN l.N)"
        found.append((book, tuple(refs), start, problem))
    tail = _BOOK_BEFORE.search(text.rstrip())
    if tail and tail.group(1) in BOOKS:  # `(« arrive sur », FR` and `l.609` on the next line
        book = tail.group(1)
    return found, book


# ---------------------------------------------------------------- the rules they annotate
@attrs.frozen
class _Entry:
    path: str
    file: str
    start: int
    end: int
    depth: int
    pos: Pos
    value: object = attrs.field(eq=False, repr=False, default=None)


def _entries(doc: YMap, n_lines: dict) -> list[_Entry]:
    out: list[_Entry] = []

    def walk(node, path: str, depth: int, end_of: dict):
        if isinstance(node, YMap):
            kids = [(str(k), node.key_pos.get(k, node.pos), v) for k, v in node.items()]
        elif isinstance(node, YList):
            kids = [(_item_label(v, i), node.pos_of(i), v) for i, v in enumerate(node)]
        else:
            return
        by_file: dict = {}
        for label, pos, value in kids:
            by_file.setdefault(pos.path, []).append((pos.line, label, pos, value))
        for file, group in by_file.items():
            group.sort(key=lambda g: g[0])
            for i, (line, label, pos, value) in enumerate(group):
                if i + 1 < len(group):
                    end = max(line, group[i + 1][0] - 1)
                else:
                    end = end_of.get(file, n_lines.get(file, line))
                sub = f"{path}.{label}" if path and not label.startswith("[") else path + label
                out.append(_Entry(sub, file, line, end, depth, pos, value))
                walk(value, sub, depth + 1, {**end_of, file: end})

    walk(doc, "", 1, {})
    # an entry ends where the next entry of its file that is not inside it starts (a variant's
    # entry among the base's children must not stretch a base entry over its neighbours)
    by_file: dict = {}
    for e in out:
        by_file.setdefault(e.file, []).append(e)
    clipped = []
    for entries in by_file.values():
        entries.sort(key=lambda e: (e.start, e.depth))
        for i, e in enumerate(entries):
            end = e.end
            for f in entries[i + 1:]:
                if f.start > e.start and not (f.path.startswith(e.path + ".")
                                              or f.path.startswith(e.path + "[")):
                    end = min(end, f.start - 1)
                    break
            clipped.append(attrs.evolve(e, end=max(e.start, end)))
    return clipped


def _item_label(item, index: int) -> str:
    """A list item in a path: a flow step by its name (or its phase's), else its index."""
    if isinstance(item, YMap):
        for key in ("name", "phase"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return f"[{index}]"


def rules(source) -> dict:
    """path -> the YAML value of every entry of a loaded game (what a citation's `rule` names)."""
    return {e.path: e.value for e in _entries(source.doc, {})}


def read(source) -> tuple[list[Citation], list[Warning_]]:
    """The citations in the files of a loaded game (dsl.loader.Source), each with the rule it
    annotates, and a warning for each malformed one."""
    doc = source.doc
    texts = {}
    for f in sorted(_files(doc)):
        lines = _source_cache.get(f)
        if lines is not None:
            texts[f] = lines
    entries = _entries(doc, {f: len(lines) for f, lines in texts.items()})
    by_file: dict = {}
    for e in entries:
        by_file.setdefault(e.file, []).append(e)
    cites, warnings = [], []
    for f, lines in texts.items():
        found = comments("\n".join(lines))
        code_lines = _code_lines(lines, found)
        book, previous = None, None
        for c in found:
            if previous is None or c.line != previous + 1:
                book = None  # a comment block starts: no book carried over
            previous = c.line
            parsed, book = parse(c.text, book)
            for cited_book, refs, col, problem in parsed:
                pos = Pos(f, c.line, c.col + 1 + col)
                if problem:
                    warnings.append(Warning_(f"malformed rulebook citation: {problem}", pos))
                    continue
                target = c.line if not c.alone else _next_code(code_lines, c.line)
                if c.alone and (not code_lines or c.line < code_lines[0]):
                    target = None  # the file's leading comments: about the whole file
                code = _code_of(lines, target, found) if target else ""
                entry = _annotated(by_file.get(f, []), target, code) if target else None
                if target and not c.in_rule and _KEY_LINE.match(code) and not any(
                        e.start == target for e in by_file.get(f, [])):
                    continue  # an entry a variant replaced: the game has no rule here
                cites.append(Citation(cited_book.lower(), refs, pos,
                                      entry.path if entry else "", entry.pos if entry else None,
                                      code, target or 0, c.text.strip()))
    return cites, warnings


def _files(node, out=None) -> set:
    out = set() if out is None else out
    if isinstance(node, YMap):
        out.add(node.pos.path)
        for k, v in node.items():
            out.add(node.key_pos.get(k, node.pos).path)
            _files(v, out)
    elif isinstance(node, YList):
        out.add(node.pos.path)
        for v in node:
            _files(v, out)
    elif isinstance(node, YStr):
        out.add(node.pos.path)
    return out


_KEY_LINE = re.compile(r"\s*(?:-\s+)?[\w.\"']+\s*:(?:\s|$)")


def _code_lines(lines: list[str], found: list[Comment]) -> list[int]:
    """1-based numbers of the lines that hold more than a comment."""
    alone = {c.line for c in found if c.alone}
    return [n for n, raw in enumerate(lines, 1) if raw.strip() and n not in alone]


def _next_code(code_lines: list[int], line: int) -> int | None:
    for n in code_lines:
        if n > line:
            return n
    return None


def _code_of(lines: list[str], line: int, found: list[Comment]) -> str:
    raw = lines[line - 1]
    for c in found:
        if c.line == line:
            raw = raw[:c.col - 1]
    return raw.strip()


def _annotated(entries: list[_Entry], line: int, code: str = "") -> _Entry | None:
    """What a line writes: the outermost entry that starts on it (`zodiac_store: {capacity: 2}`
    is the zone, not its capacity), else the innermost that holds it (a line of rule text); a
    line that closes a `[...]` or `{...}` opened above annotates the whole of it."""
    closes = sum(code.count(c) for c in "]}") > sum(code.count(c) for c in "[{")
    starting = [e for e in entries if e.start == line]
    if starting and not closes:
        return min(starting, key=lambda e: e.depth)
    best = None
    for e in entries:
        if closes and e.start == line:
            continue
        if e.start <= line <= e.end and (best is None or (e.depth, e.start) > (best.depth, best.start)):
            best = e
    return best


def warnings_of(source) -> list[Warning_]:
    """The malformed citations of a loaded game's files, as `check` warnings."""
    return read(source)[1]
