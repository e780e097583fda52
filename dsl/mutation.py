"""Mutants of a game's rules: the smallest change to each number and comparison of its files.

A rulebook number that no test pins can change without any test noticing. This module lists, for a
game folder (game.yaml, its includes, its variants), every such change with its `file:line:col`:

- a number (a table entry, an option's default, a `limit:`, a number in rule text): +1 and -1;
- a comparison in rule text: `<` <-> `<=`, `>` <-> `>=`, `==` <-> `!=`;
- two neighbouring numbers of one table row, or of one line of rule text, swapped.

Rule text is that of the rules' sections and that of the table cells `rule_text:` declares (an
effect written on a card, a reward by kind). Prose is left alone (`title`, `summary`, `terms`,
`doc`, quoted strings and comments inside rule text, a table's other strings), and so are a
table's keys, an option's `min`/`max` (the range of a reading, not a rule) and `invariants:`
(checks of the rules, which never change play).
Numbers a file declares SAMPLE (`sample: true` for the file, `sample: [table, table.field]`, or a
path of keys into nested maps, `sheet.target.3`) are not mutated but returned apart, so a report
can list them. benchmarks/mutation.py runs a game's tests against each mutant.
"""
from __future__ import annotations

import re
from pathlib import Path

import attrs

from .loader import GAME_FILE
from .yamlpos import YList, YMap, YStr, load_yaml_text

NOT_RULES = frozenset({"meeplang", "game", "variant", "extends", "include", "sample", "title",
                       "summary", "terms", "doc", "graphs", "invariants"})
OPTION_RANGE_KEYS = frozenset({"min", "max"})
FLIPPED = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}

# One token of rule text: a quoted string or a comment (skipped), a number, or a comparison.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|#[^\n]*|(?P<num>(?<![\w.])\d+(?![\w.]))|'
                    r'(?P<cmp><=|>=|==|!=|<|>)')
_NUMBER_AT = re.compile(r"[-+]?\d+(?:\.\d+)?")


@attrs.frozen
class Edit:
    """Replace `before` by `after` at 1-based (line, col) of a file."""

    line: int
    col: int
    before: str
    after: str


@attrs.frozen
class Mutant:
    file: Path
    edits: tuple  # of Edit, applied together (two for a swap)
    what: str     # e.g. "3 -> 4", "< -> <=", "swap 3, 2"

    @property
    def line(self) -> int:
        return self.edits[0].line

    def where(self, root: Path | None = None) -> str:
        shown = self.file.relative_to(root) if root is not None else self.file
        return f"{shown}:{self.line}:{self.edits[0].col}"

    def apply(self, text: str) -> str:
        lines = text.split("\n")
        # right to left, so an edit never moves the column of the next one
        for e in sorted(self.edits, key=lambda e: (e.line, e.col), reverse=True):
            row = lines[e.line - 1]
            assert row[e.col - 1:e.col - 1 + len(e.before)] == e.before, (self, row)
            lines[e.line - 1] = row[:e.col - 1] + e.after + row[e.col - 1 + len(e.before):]
        return "\n".join(lines)


@attrs.frozen
class Mutants:
    live: list     # Mutant: to run
    sample: list   # Mutant: numbers of sample data, left out


def game_files(folder: Path) -> list[Path]:
    """The files of a game: game.yaml, the files it includes, its variants."""
    main = folder / GAME_FILE
    doc = load_yaml_text(main.read_text(encoding="utf-8"), str(main))
    files = [main] + [folder / str(name) for name in doc.get("include") or []]
    return files + sorted((folder / "variants").glob("*.yaml"))


def game_mutants(folder: Path) -> Mutants:
    live, sample = [], []
    files = [(path, path.read_text(encoding="utf-8")) for path in game_files(folder)]
    docs = [(path, text, load_yaml_text(text, str(path))) for path, text in files]
    cells = rule_cells(doc for _, _, doc in docs)
    for path, text, doc in docs:
        flag = doc.get("sample")
        marks = set() if flag is True or flag is None else {str(s) for s in flag}
        finder = _Finder(path, text.split("\n"), marks, flag is True, cells)
        finder.walk(doc, ())
        live += finder.live
        sample += finder.sample
    return Mutants(live, sample)


def rule_cells(docs) -> dict:
    """table -> the fields of its rows that hold rule text, or None for every cell: what the
    `rule_text:` sections of a game's files (a variant's under `add:` too) declare."""
    found: dict = {}
    for doc in docs:
        for sec in (doc.get("rule_text"), (doc.get("add") or {}).get("rule_text")):
            for name, spec in (sec or {}).items():
                fields = (spec or {}).get("fields")
                found[str(name)] = None if fields is None else {str(f) for f in fields}
    return found


class _Finder:
    """Walks one file's YAML tree and collects its mutants."""

    def __init__(self, path: Path, lines: list[str], marks: set, all_sample: bool, cells: dict):
        self.path, self.lines, self.marks, self.all_sample = path, lines, marks, all_sample
        self.cells = cells
        self.live: list[Mutant] = []
        self.sample: list[Mutant] = []

    def is_sample(self, keys: tuple) -> bool:
        if self.all_sample:
            return True
        if keys[:1] == ("add",):  # a variant's new tables
            keys = keys[1:]
        if len(keys) < 2 or keys[0] != "tables":
            return False
        fields = [str(k) for k in keys[2:] if not isinstance(k, int)]
        path = [str(k) for k in keys[1:]]  # `sheet.target.3`: one key of a nested map
        return any(".".join(path[:i]) in self.marks for i in range(1, len(path) + 1)) or \
            any(f"{keys[1]}.{f}" in self.marks for f in fields)

    def is_rule_text(self, keys: tuple) -> bool:
        """Whether the string at `keys` is rule text: anywhere outside `tables:`, and in a
        table only the cells `rule_text:` declares (`tables.T.ROW.FIELD` with FIELD listed)."""
        if keys[:1] != ("tables",):
            return True
        if len(keys) < 3 or str(keys[1]) not in self.cells:
            return False
        fields = self.cells[str(keys[1])]
        return fields is None or (len(keys) == 4 and str(keys[3]) in fields)

    def add(self, mutant: Mutant, keys: tuple) -> None:
        (self.sample if self.is_sample(keys) else self.live).append(mutant)

    def walk(self, node, keys: tuple) -> None:
        if isinstance(node, YMap):
            entries = [(k, v, node.pos_of(k)) for k, v in node.items()
                       if not (isinstance(k, str) and k in NOT_RULES)
                       and not (len(keys) == 2 and keys[0] == "options" and k in OPTION_RANGE_KEYS)]
        elif isinstance(node, YList):
            entries = [(i, v, node.pos_of(i)) for i, v in enumerate(node)]
        else:
            return
        numbers, owners = [], []
        for key, value, pos in entries:
            if isinstance(value, (YMap, YList)):
                self.walk(value, keys + (key,))
            elif isinstance(value, YStr):
                if self.is_rule_text(keys + (key,)):
                    self.rule_text(value, keys + (key,))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                token = self.number_at(pos.line, pos.col)
                if token is not None:
                    numbers.append(token)
                    owners.append(keys + (key,))
                    for after in _neighbours(token.before):
                        self.add(Mutant(self.path, (attrs.evolve(token, after=after),),
                                        f"{token.before} -> {after}"), keys + (key,))
        self.swaps(numbers, keys, owners)

    def swaps(self, numbers: list, keys: tuple, owners: list | None = None) -> None:
        """Neighbours swapped; with `owners` (each number's keys), a swap of two sample numbers
        is sample too."""
        for i, (a, b) in enumerate(zip(numbers, numbers[1:])):
            if float(a.before) != float(b.before):
                both = owners is not None and all(self.is_sample(k) for k in owners[i:i + 2])
                self.add(Mutant(self.path, (attrs.evolve(a, after=b.before),
                                            attrs.evolve(b, after=a.before)),
                                f"swap {a.before}, {b.before}"), owners[i] if both else keys)

    def number_at(self, line: int, col: int) -> Edit | None:
        m = _NUMBER_AT.match(self.lines[line - 1], col - 1)
        return Edit(line, col, m.group(), m.group()) if m else None

    def rule_text(self, text: YStr, keys: tuple) -> None:
        for n, row in enumerate(str(text).split("\n"), 1):
            numbers = []
            for m in _TOKEN.finditer(row):
                token = m.group("num") or m.group("cmp")
                if token is None:
                    continue
                edit = self.locate(text, n, m.start() + 1, token)
                if edit is None:
                    continue
                if m.group("num"):
                    numbers.append(edit)
                    for after in _neighbours(token):
                        self.add(Mutant(self.path, (attrs.evolve(edit, after=after),),
                                        f"{token} -> {after}"), keys)
                else:
                    self.add(Mutant(self.path, (attrs.evolve(edit, after=FLIPPED[token]),),
                                    f"{token} -> {FLIPPED[token]}"), keys)
            self.swaps(numbers, keys)

    def locate(self, text: YStr, line: int, col: int, token: str) -> Edit | None:
        """The token's place in the file: where the string says, else (escapes in a quoted
        string shift columns) the nearest same token on that file line."""
        pos = text.pos_at(line, col)
        row = self.lines[pos.line - 1]
        if row[pos.col - 1:pos.col - 1 + len(token)] == token:
            return Edit(pos.line, pos.col, token, token)
        pattern = re.escape(token) if not token.isdigit() else rf"(?<![\w.]){token}(?![\w.])"
        found = [m.start() + 1 for m in re.finditer(pattern, row)]
        if found and line == 1:
            best = min(found, key=lambda c: abs(c - pos.col))
            return Edit(pos.line, best, token, token)
        if text.style in ('"', "'"):
            # a later line of a quoted string ("a\nb"): it sits on the string's own file line; the
            # k-th such token of the text is the k-th of that line when both hold as many
            rows = str(text).split("\n")
            offset = sum(len(r) + 1 for r in rows[:line - 1]) + col - 1
            inside = [m.start() for m in re.finditer(pattern, str(text))]
            here = [c for c in found if c > text.pos.col]
            if len(here) == len(inside) and offset in inside:
                return Edit(pos.line, here[inside.index(offset)], token, token)
        return None


def _neighbours(token: str) -> list[str]:
    value = float(token) if "." in token else int(token)
    return [_format(value + 1, token), _format(value - 1, token)]


def _format(value, like: str) -> str:
    return str(round(value, 6)) if "." in like else str(value)


def select(mutants: list, only: list[str], root: Path | None = None) -> list:
    """The mutants at the given places: `file:line` or `file:line:col` (file as `where` shows it)."""
    wanted = set(only)
    return [m for m in mutants
            if m.where(root) in wanted or m.where(root).rsplit(":", 1)[0] in wanted]
