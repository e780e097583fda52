"""A list of changes (`meeplang.dsl.diff`) as the lines `meeplang diff` prints: each path, in a
reader's language with the games' terms when one is asked for, then its value before and after
(and where each side defines it, unless left out, as the golden readings' diffs do)."""
from __future__ import annotations

import json

import attrs

from ..labels import UI
from .paths import path_label


def changes_lines(a, b, changes: list, lang: str | None = None, where: bool = True) -> list[str]:
    """The lines for the changes from game `a` to game `b`; without `lang`, paths as they are."""
    label = labeller(a, b, lang)
    sides = ("before", "after") if lang is None else (UI[lang]["before"].lower(),
                                                      UI[lang]["after"].lower())
    nothing = "(none)" if lang is None else UI[lang]["none"]
    out = []
    for c in changes:
        out.append(label(c.path))
        for side, value, at in ((sides[0], c.before, c.where[0]), (sides[1], c.after, c.where[1])):
            text = nothing if value is None else _value_text(value)
            lines = text.rstrip("\n").split("\n")
            place = f"   ({at})" if at and where else ""
            out.append(f"  {side + ':':<8}{lines[0]}{place}")
            out += [f"  {'':<8}{line}" for line in lines[1:]]
    return out


def _value_text(value) -> str:
    """A value as the diff shows it: rule text as written; a whole declaration (an action
    added or removed) one field a line, its rule text indented below its key; other data as
    JSON."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict) or not value:
        return json.dumps(value, ensure_ascii=False)
    lines = []
    for key, field in value.items():
        if isinstance(field, str) and "\n" in field.strip("\n"):
            lines.append(f"{key}:")
            lines += [f"  {line}" for line in field.rstrip("\n").split("\n")]
        else:
            text = field if isinstance(field, str) else json.dumps(field, ensure_ascii=False)
            lines.append(f"{key}: {text}")
    return "\n".join(lines)


def labeller(a, b, lang: str | None):
    """How a path is said: as it is, or in `lang` with the games' terms (B's first, then A's for
    what B lacks)."""
    if lang is None:
        return lambda path: path
    both = attrs.evolve(b, terms={**a.terms, **b.terms})
    return lambda path: path_label(both, path, lang)
