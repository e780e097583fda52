"""What the rules changed, for `meeplang play --trace`: every change of the state, under the rule
line that made it.

Only a traced engine (`Engine(..., trace=True)`) pays for this. It keeps a copy of the state as
last noted (`Engine.seen`, starting from the components as made, `Engine.trace_start`), and
notes what differs from it (`note`): before and after every statement that changes the state
(its program is compiled with every such statement wrapped by `traced`), at every decision and
at the end of the game. So `Engine.changes` is complete: the start state with every change
applied in order is the state at each decision and at the end (tests/interpreter/
test_trace_changes.py replays the final state hash of each log this way). What a statement
changed stands under its line; what the engine itself changed between statements (whose turn
it is, the phase, use counts, triggers fired) stands under no line (`at` None).

Only what really ran is noted: nothing while a rehearsal runs (interpreter/rehearsal.py tries an
option to see whether it can be taken, then puts the game back) nor while an agent looks ahead
in place (interpreter/lookahead.py), and as they put the state back exactly, the next note
finds nothing of theirs.

The log and replay never see any of this: the changes go to `engine.changes`, not to
`engine.events`.
"""
from __future__ import annotations

import copy

# Statements that only hold others (their inner statements are traced one by one), or that change
# nothing in the state themselves.
NOT_TRACED = frozenset({"IfStmt", "ForEachStmt", "RepeatStmt", "WhileStmt", "DoStmt",
                        "LetStmt", "ControlStmt", "LogStmt"})
# How deep a change names its place in each part of the state: a counter, a seat's counter, a
# zone's list, an item's zone, an item's field, ... (a deeper difference is a change of the whole
# value at that depth). A part not listed changes as a whole.
DEPTH = {"counters": 1, "players": 2, "zones": 1, "loc": 1, "items": 2, "cells": 1, "uses": 1,
         "soon": 1, "turn": 1, "known": 1}


class _Absent:
    """The value of a place that does not exist (before it is made, after it is removed)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


def traced(fn, pos, is_gen: bool):
    """`fn` (a compiled statement) that also notes what it changed, under `pos`'s line."""
    at = f"{pos.path}:{pos.line}"
    if is_gen:
        def run_gen(c):
            eng = c.eng
            if eng.rehearsing:
                return (yield from fn(c))
            stack = eng.trace_at
            note(eng, stack[-1] if stack else None)  # what ran before this statement
            stack.append(at)
            try:
                return (yield from fn(c))
            finally:
                note(eng, at)
                stack.pop()
        return run_gen

    def run(c):
        eng = c.eng
        if eng.rehearsing:
            return fn(c)
        stack = eng.trace_at
        note(eng, stack[-1] if stack else None)
        stack.append(at)
        try:
            return fn(c)
        finally:
            note(eng, at)
            stack.pop()
    return run


def note(eng, at: str | None) -> None:
    """Note what changed since the last note, under `at` (`path:line`, or None: the engine)."""
    changes = diff(eng.seen, eng.state)
    if changes:
        eng.changes.append((len(eng.events), at, changes))


def diff(seen: dict, s: dict) -> list[tuple]:
    """The changes from `seen` to the state `s`, each (path, before, after) with `ABSENT` for a
    place that is not there; `seen` is brought up to date (with copies)."""
    out: list[tuple] = []
    _diff((), seen, s, None, out)  # part by part: each comparison of equal parts runs in C
    return out


def _diff(path: tuple, old, new, depth, out: list) -> None:
    """Changes below `path` (whose values are `old`, a copy, and `new`, the live state), recorded
    in `out` and copied into `old`'s holder by the caller."""
    for key in list(old) if isinstance(old, dict) else range(len(old)):
        if isinstance(old, dict) and key not in new:
            out.append((path + (key,), old[key], ABSENT))
            del old[key]
    keys = new.keys() if isinstance(new, dict) else range(len(new))
    for key in keys:
        value = new[key]
        if isinstance(old, dict):
            before = old.get(key, ABSENT)
        else:
            before = old[key]
        if before is not ABSENT and type(before) is type(value) and before == value:
            continue
        left = DEPTH.get(key, 0) if depth is None else depth - 1
        if left > 0 and before is not ABSENT and isinstance(value, (dict, list)) and \
                type(before) is type(value) and (isinstance(value, dict) or
                                                 len(before) == len(value)):
            _diff(path + (key,), before, value, left, out)
            continue
        out.append((path + (key,), before, copy.deepcopy(value)))
        old[key] = copy.deepcopy(value)


def apply(state: dict, change: tuple) -> None:
    """Apply one change (path, before, after) to a state, copying what it sets."""
    path, _, after = change
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    if after is ABSENT:
        del holder[path[-1]]
    else:
        holder[path[-1]] = copy.deepcopy(after)


def describe(change: tuple) -> str | None:
    """A change as the trace prints it (`coins of player 1: 3 → 4`, `card#3: deck → hand@1`);
    None for what another line already says (a zone's items when they moved)."""
    path, before, after = change
    part = path[0]
    if part == "counters" and len(path) == 2:
        return f"{path[1]}: {_v(before)} → {_v(after)}"
    if part == "players" and len(path) == 3:
        return f"{path[2]} of player {path[1]}: {_v(before)} → {_v(after)}"
    if part == "loc" and len(path) == 2:
        return f"{path[1]}: {'(new)' if before is ABSENT else before} → " \
               f"{'(gone)' if after is ABSENT else after}"
    if part == "items" and len(path) == 3:
        return f"{path[1]}.{path[2]}: {_v(before)} → {_v(after)}"
    if part == "zones" and len(path) == 2:
        if isinstance(before, list) and isinstance(after, list) and \
                sorted(before) != sorted(after):
            return None  # items came or went: their places say so
        return f"{path[1]}: order {_v(before)} → {_v(after)}"
    if part == "turn" and len(path) == 2:
        return f"turn's {path[1]}: {_v(before)} → {_v(after)}"
    if part == "uses" and len(path) == 2:
        return f"uses of {path[1]}: {_v(before)} → {_v(after)}"
    name = "".join(f"[{k!r}]" if i else str(k) for i, k in enumerate(path))
    return f"{name}: {_v(before)} → {_v(after)}"


SHOWN = 8  # a list's first values shown; a text's first characters are 60


def _v(value) -> str:
    """A value as the trace shows it, on one line: a list's first values, a text's first line."""
    if value is None:
        return "none"
    if value is ABSENT:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        more = f", ... ({len(value)} in all)" if len(value) > SHOWN else ""
        return "[" + ", ".join(_v(x) for x in value[:SHOWN]) + more + "]"
    text = str(value)
    if "\n" in text or len(text) > 60:
        return text.split("\n")[0][:57] + "..."
    return text
