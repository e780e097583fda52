"""Checkpoints: a game remembered as data where its rules are paused only in the flow, so that a
copy of it (search: interpreter/search.py, lookahead.py) need not replay it from the start.

A running game is a stack of Python generators (the flow, a turn, an action, a statement that
asks), and a generator cannot be copied. So a copy is made by replaying choices: the game is a
pure function of its seed and choices. What makes that cheap is where the replay starts. At a flow
boundary (a `do:` step starts, or the next turn of a `turns:` step is due) nothing is paused but
the flow steps themselves, and where they stand is data: which step of a list, which pass of a
`repeat`, which branch of an `if`, the seats and count of a `turns:` step (Engine.frames, kept by
the flow steps of interpreter/compile.py). A checkpoint holds that, a copy of the state, the
random state and the engine's counters. A copy restores the latest checkpoint before its
decision (the flow steps resume from their records instead of starting afresh) and replays only
the choices made since: a turn's worth, not a game's.

A game keeps checkpoints only once it has been forked (Engine.fork): plain playouts pay nothing.
"""
from __future__ import annotations

from typing import Any

KEEP = 4  # checkpoints kept per game, the latest: a copy at an earlier decision (the start of a
# round of secret choices) finds one before it


def copy_state(state: dict) -> dict:
    """A copy of plain-data state, faster than deepcopy for its known two-level layout."""
    out = dict(state)
    out["counters"] = dict(state["counters"])
    out["players"] = [dict(p) for p in state["players"]]
    out["zones"] = {k: list(v) for k, v in state["zones"].items()}
    out["loc"] = dict(state["loc"])
    out["items"] = {k: dict(v) for k, v in state["items"].items()}
    out["cells"] = {k: list(v) for k, v in state["cells"].items()}
    out["uses"] = {k: list(v) for k, v in state["uses"].items()}
    out["fired"] = list(state["fired"])
    out["soon"] = dict(state["soon"])
    out["turn"] = {"player": state["turn"]["player"], "passed": list(state["turn"]["passed"])}
    if "known" in state:
        out["known"] = {k: list(v) for k, v in state["known"].items()}
    return out


def _pending(events: list) -> list:
    """Events waiting for their triggers, each with a copy of what its triggers will see."""
    return [(event, target, seat, dict(local)) for event, target, seat, local in events]


class Checkpoint:
    """The game at a flow boundary, taken from the engine `eng` whose flow context is `c`."""

    __slots__ = ("choices", "choosers", "state", "rng", "frames", "flow_locals", "counts",
                 "windows", "pending", "pending_now", "secret_mark")

    def __init__(self, eng: Any, c: Any):
        self.choices = len(eng.choices)  # the choices made before it
        self.choosers = tuple(eng.choosers)
        self.state = copy_state(eng.state)
        self.rng = eng.rng.getstate()
        self.frames = [tuple(f) for f in eng.frames]  # records hold only immutable values
        self.flow_locals = dict(c.v)
        self.counts = (eng.steps, eng.asked_at, eng.limit, eng.turns_taken, eng.depth)
        self.windows = list(eng.windows)
        self.pending = _pending(eng.pending)
        self.pending_now = _pending(eng.pending_now)
        self.secret_mark = eng.secret_mark

    def restore(self, eng: Any, choices: list) -> dict:
        """Put a fresh engine (not started) where this checkpoint was, the first `self.choices`
        of `choices` made; returns the flow's variables. Everything is copied: the checkpoint
        serves again."""
        m = self.choices
        eng.state = copy_state(self.state)
        eng.rng.setstate(self.rng)
        eng.resume = [list(f) for f in self.frames] or None
        eng.steps, eng.asked_at, eng.limit, eng.turns_taken, eng.depth = self.counts
        eng.windows = list(self.windows)
        eng.pending = _pending(self.pending)
        eng.pending_now = _pending(self.pending_now)
        eng.secret_mark = self.secret_mark
        eng.choices = list(choices[:m])
        eng.choosers = list(self.choosers)
        return dict(self.flow_locals)


def take(eng: Any, c: Any) -> None:
    """At a flow boundary of a game that keeps checkpoints: one more, unless the latest was taken
    since the last decision (the same replay would follow it) or a rehearsal is running."""
    kept = eng.checkpoints
    if eng.rehearsing or (kept and kept[-1].choices == len(eng.choices)):
        return
    kept.append(Checkpoint(eng, c))
    if len(kept) > KEEP:
        del kept[0]


def latest(kept: list, choices: list, made: list) -> Checkpoint | None:
    """The latest checkpoint from which `choices` can be replayed: taken at most that many choices
    in, of a game (`made`: its choices) whose first choices were these."""
    n = len(choices)
    for cp in reversed(kept):
        if cp.choices <= n and choices[:cp.choices] == made[:cp.choices]:
            return cp
    return None
