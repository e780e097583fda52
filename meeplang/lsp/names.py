"""The names a game declares, where, and what they are; the built-in names beside them. Hover
shows a declaration and its terms; go to definition jumps to it, in an included file or in the
base game of a variant."""
from __future__ import annotations

import re
from dataclasses import dataclass

from meeplang.dsl.builtins import COUNTER_FUNCTIONS, FUNCTIONS, VALUES
from meeplang.dsl.errors import Pos
from meeplang.dsl.terms import is_language
from meeplang.dsl.yamlpos import YMap

# section -> what its keys declare
SECTIONS = {"counters": "counter", "zones": "zone", "items": "item", "actions": "action",
            "triggers": "trigger", "tables": "table", "formulas": "formula", "options": "option",
            "graphs": "graph"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Declaration:
    name: str
    kind: str
    pos: Pos  # of its key
    detail: str  # what it says, on one line
    terms: dict  # language -> the rulebook's word for it

    def describe(self) -> str:
        lines = [f"**{self.kind}** `{self.name}`"]
        if self.detail:
            lines.append(f"`{self.detail}`")
        if self.terms:
            lines.append(" · ".join(f"{lang}: {word}" for lang, word in self.terms.items()))
        lines.append(f"declared at {self.pos}")
        return "\n\n".join(lines)


def declarations(doc: YMap) -> dict[str, Declaration]:
    """Every declared name of a merged game document (includes and variant overlays applied:
    each key keeps the position of the file that gave it)."""
    terms = doc.get("terms") if isinstance(doc.get("terms"), YMap) else {}
    out = {}
    for section, kind in SECTIONS.items():
        entries = doc.get(section)
        if not isinstance(entries, YMap):
            continue
        for key, value in entries.items():
            name = str(key).partition("(")[0].strip()  # formulas: `name(a, b)`
            word = terms.get(name)
            out.setdefault(name, Declaration(
                name, kind, entries.key_pos.get(key, entries.pos),
                (f"{key}: " if kind == "formula" else "") + one_line(value),
                {str(k): str(v) for k, v in word.items() if is_language(str(k))}
                if isinstance(word, dict) else {}))
    return out


def one_line(value, limit: int = 120) -> str:
    if isinstance(value, dict):
        text = ", ".join(f"{k}: {one_line(v, limit)}" for k, v in value.items())
    elif isinstance(value, list):
        text = "[" + ", ".join(one_line(v, limit) for v in value) + "]"
    else:
        text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def builtin(name: str) -> str | None:
    """A built-in function's or value's signature, for hover."""
    if name in FUNCTIONS:
        lo, hi, result, kinds = FUNCTIONS[name]
        args = ", ".join(kinds[min(i, len(kinds) - 1)] for i in range(max(lo, len(kinds))))
        more = ", ..." if hi > max(lo, len(kinds)) else ""
        return f"**built-in function** `{name}({args}{more}) -> {result}`"
    if name in COUNTER_FUNCTIONS:
        return f"**built-in function** `{name}(counter) -> {COUNTER_FUNCTIONS[name]}`"
    if name in VALUES:
        return f"**built-in value** `{name}`: {VALUES[name]}"
    return None


def word_at(line: str, col: int) -> tuple[str, int] | None:
    """The name under a 0-based column, and where it starts."""
    for match in WORD.finditer(line):
        if match.start() <= col <= match.end():
            return match.group(), match.start()
    return None
