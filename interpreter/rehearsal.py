"""Rehearsals: could this effect run to its end from here? Legality derived from effects.

An action with no `requires:` whose effect holds a statement that can fail (compile.can_fail) is
offered only if a rehearsal succeeds. So is rule text performed by value, and a free action
offered beside an inner decision (it must leave that decision something to choose).

A rehearsal runs the effect on the live game with nothing recorded and no free actions, answers
its inner decisions one path after another (depth first: the first option first), and puts the
game back exactly as it was after every run: counters, use counts and the turn from a copy taken
at its start, the items' fields and places from journals of what it changed (Engine.field_undo,
Engine.place_undo), the random state if it drew. So a rehearsal costs about what it changes
(most move nothing). It succeeds when one path ends (or ends the turn or the game) without a
rule error: it can pay, the piles it takes from are not empty, its choices have options. When
REHEARSAL_RUNS runs are spent without an answer, the effect is taken as possible (a rehearsal
never forbids what it could not check). Rehearsals nest (an effect that offers actions by value
rehearses them) up to MAX_NESTING deep, below which options are taken as possible and the
depth-first search of the outer rehearsal tries them one by one.

A rehearsal's work is the game's: the steps it takes stay charged to the step budget (and to the
stretch without a decision), so listing options that each cost a lot stops with the budget's
error at the rule, instead of running for minutes. Listing is part of the rules, the same on every
replay, so the budget is spent the same way each time. A `trial` (an agent looking ahead in
place, interpreter/lookahead.py) puts the steps back: an agent's thinking is not the game's.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable

from meeplang.dsl.errors import Impossible

from .compile import _MISSING, EndGame, EndTurn

REHEARSAL_RUNS = 64
MAX_NESTING = 2
CLOSED = (None, (), False)  # a free-action window that closes them all (Engine.windows)

def rehearse(eng, run: Callable[..., Any], *args) -> bool:
    """Can the generator made by `run(*args)` run to its end on this game? The game is unchanged
    afterwards."""
    if eng.rehearsing >= MAX_NESTING:
        return True
    saved = _begin(eng)
    try:
        paths: list = [()]
        runs = 0
        while paths:
            if runs == REHEARSAL_RUNS:
                return True
            if runs:
                _restore(eng, saved, charged=True)
                eng.record = False
                eng.windows.append(CLOSED)
            runs += 1
            if _run(run(*args), list(paths.pop()), paths):
                return True
        return False
    finally:
        _end(eng, saved, charged=True)


@contextmanager
def trial(eng):
    """Within it, rules run on the game as a rehearsal does (unrecorded, no free actions, the
    fields they set, the places they change and the random state journaled); afterwards the game
    is as it was. Yields what `_restore` needs to go back to the start in between."""
    saved = _begin(eng)
    try:
        yield saved
    finally:
        _end(eng, saved)


def _begin(eng) -> tuple:
    saved = _save(eng)
    eng.rng_marks.append(None)
    eng.rehearsing += 1
    eng.record = False
    eng.windows.append(CLOSED)  # no free actions inside a rehearsal
    return saved


def _end(eng, saved: tuple, charged: bool = False) -> None:
    _restore(eng, saved, charged)
    eng.rng_marks.pop()
    eng.rehearsing -= 1


def _run(gen, answers: list, paths: list) -> bool:
    """One path: the given answers first, then the first option, leaving the others in `paths`."""
    depth = 0
    try:
        d = gen.send(None)
        while True:
            if not d.options:
                return False
            if depth == len(answers):
                paths.extend(tuple(answers) + (j,) for j in range(len(d.options) - 1, 0, -1))
                answers.append(0)
            d = gen.send(d.options[answers[depth]])
            depth += 1
    except StopIteration:
        return True
    except (EndTurn, EndGame):
        return True
    except Impossible:
        return False
    finally:
        gen.close()


def _save(eng) -> tuple:
    """What a rehearsal goes back to: counters, use counts and the turn copied (a few small
    dicts), the journals of item fields set and of places changed marked (Engine.moving)."""
    s = eng.state
    counts = (dict(s["counters"]), [dict(p) for p in s["players"]],
              {k: list(v) for k, v in s["uses"].items()}, list(s["fired"]), dict(s["soon"]),
              s["turn"]["player"], list(s["turn"]["passed"]), s["phase"])
    return (counts, len(eng.field_undo), len(eng.place_undo), len(eng.events), eng.record,
            eng.steps, eng.turns_taken, eng.depth, list(eng.windows), list(eng.pending),
            list(eng.pending_now), eng.secret_mark, list(eng.acting), eng.busy)


def _restore(eng, saved: tuple, charged: bool = False) -> None:
    """Back to the saved game, in place (paused rules hold references to the state's lists),
    copying out of what was saved so that it serves again for the next run. With `charged`, the
    steps taken stay counted (a rehearsal's work is the game's)."""
    (counts, undo, places, events, eng.record, steps, eng.turns_taken, eng.depth, windows,
     pending, pending_now, eng.secret_mark, acting, eng.busy) = saved
    if not charged:
        eng.steps = steps
    s = eng.state
    counters, players, uses, fired, soon, s["turn"]["player"], passed, s["phase"] = counts
    _set_dict(s["counters"], counters)
    for live, then in zip(s["players"], players):
        _set_dict(live, then)
    if s["uses"] != uses:
        _set_lists(s["uses"], uses)
    if s["fired"] != fired:
        s["fired"][:] = fired
    _set_dict(s["soon"], soon)
    s["turn"]["passed"][:] = passed
    changed = eng.field_undo
    while len(changed) > undo:  # the items' fields, last change first
        data, name, old = changed.pop()
        if old is _MISSING:
            del data[name]
        else:
            data[name] = old
    if len(eng.place_undo) > places:
        eng.put_back_places(places)
    if eng.rng_marks[-1] is not None:  # it drew: the random state goes back too
        eng.rng.setstate(eng.rng_marks[-1])
    del eng.events[events:]
    eng.windows[:] = windows
    eng.acting[:] = acting
    eng.pending[:] = pending
    eng.pending_now[:] = pending_now


def _set_dict(live: dict, snap: dict) -> None:
    if live != snap:  # most of the state is untouched by a rehearsal
        live.clear()
        live.update(snap)


def _set_lists(live: dict, snap: dict) -> None:
    for key in [k for k in live if k not in snap]:
        del live[key]
    for key, value in snap.items():
        if key not in live:
            live[key] = list(value)
        elif live[key] != value:
            live[key][:] = value
