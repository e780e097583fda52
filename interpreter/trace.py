"""What each rule statement changed, for `meeplang play --trace`: a counter before → after, an
item moving from → to, an item field changed, under the rule line that did it.

Only a traced engine (`Engine(..., trace=True)`) pays for this: its program is compiled with
every state-changing statement wrapped by `traced`, which compares the state before and after
the statement. The log and replay never see it: the changes go to `engine.changes`, not to
`engine.events`.
"""
from __future__ import annotations

# Statements that only hold others (their inner statements are traced one by one), or that ask
# a player (a generator: what they bind is local, what they run is traced inside).
NOT_TRACED = frozenset({"IfStmt", "ForEachStmt", "RepeatStmt", "WhileStmt", "DoStmt",
                        "LetStmt", "ControlStmt", "LogStmt"})


def traced(fn, pos):
    """`fn` (a plain compiled statement) that also records what it changed, at `pos`."""
    at = f"{pos.path}:{pos.line}"

    def run(c):
        before = snapshot(c.s)
        fn(c)
        changes = state_changes(before, c.s)
        if changes:
            c.eng.changes.append((len(c.eng.events), at, changes))
    return run


def snapshot(s: dict) -> tuple:
    """The parts of the state a rule changes: counters, each seat's counters, where each item
    is, and the items' fields."""
    return (dict(s["counters"]), [dict(p) for p in s["players"]], dict(s["loc"]),
            {k: dict(v) for k, v in s["items"].items()})


def state_changes(before: tuple, s: dict) -> list[str]:
    """Readable changes from a snapshot to the state now, in a stable order."""
    counters, players, loc, items = before
    out = [f"{k}: {_v(counters.get(k))} → {_v(v)}" for k, v in s["counters"].items()
           if counters.get(k) != v]
    for seat, (old, new) in enumerate(zip(players, s["players"])):
        out += [f"{k} of player {seat}: {_v(old.get(k))} → {_v(v)}" for k, v in new.items()
                if old.get(k) != v]
    out += [f"{item}: {loc.get(item, '(new)')} → {zone}" for item, zone in s["loc"].items()
            if loc.get(item) != zone]
    for item, fields in s["items"].items():
        old = items.get(item, {})
        out += [f"{item}.{k}: {_v(old.get(k))} → {_v(v)}" for k, v in fields.items()
                if old.get(k) != v]
    return out


def _v(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
