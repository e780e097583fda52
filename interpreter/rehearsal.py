"""Rehearsals: could this effect run to its end from here? Legality derived from effects.

An action with no `requires:` whose effect holds a statement that can fail (compile.can_fail) is
offered only if a rehearsal succeeds. So is rule text performed by value, and a free action
offered beside an inner decision (it must leave that decision something to choose).

A rehearsal runs the effect on the live game with nothing recorded and no free actions, answers
its inner decisions one path after another (depth first: the first option first), and puts the
game back exactly as it was after every run: the state from a snapshot kept on the engine, the
items' fields from a journal of what the rehearsal set, the random state if it drew. It succeeds
when one path ends (or ends the turn or the game) without a rule error: it can pay, the piles it
takes from are not empty, its choices have options. When REHEARSAL_RUNS runs are spent without an answer, the effect is taken as
possible (a rehearsal never forbids what it could not check). Rehearsals nest (an effect that
offers actions by value rehearses them) up to MAX_NESTING deep, below which options are taken as
possible and the depth-first search of the outer rehearsal tries them one by one.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable

from meeplang.dsl.errors import Impossible

from .compile import _MISSING, EndGame, EndTurn

REHEARSAL_RUNS = 64
MAX_NESTING = 2

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
                _restore(eng, saved)
                eng.record = False
                eng.windows.append((None, ()))
            runs += 1
            if _run(run(*args), list(paths.pop()), paths):
                return True
        return False
    finally:
        _end(eng, saved)


@contextmanager
def trial(eng):
    """Within it, rules run on the game as a rehearsal does (unrecorded, no free actions, the
    fields they set and the random state journaled); afterwards the game is as it was. Yields
    what `_restore` needs to go back to the start in between."""
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
    eng.windows.append((None, ()))  # no free actions inside a rehearsal
    return saved


def _end(eng, saved: tuple) -> None:
    _restore(eng, saved)
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
    return (_snapshot(eng), eng.moves, len(eng.field_undo), len(eng.events),
            eng.record, eng.steps, eng.turns_taken, eng.depth, list(eng.windows),
            list(eng.pending), list(eng.pending_now), eng.secret_mark)


def _snapshot(eng) -> dict:
    """A copy of the game's state to go back to, but for the items' data: a rehearsal puts back
    the fields it sets from `eng.field_undo`. The outermost rehearsal keeps its copy on the
    engine and brings it up to date by copying only what changed since (most of the state is
    the same from one decision to the next; where the items are, the largest part, is not even
    compared when no item moved since: `eng.moves`); nested rehearsals take a copy of their own."""
    from .engine import copy_state

    if eng.rehearsing or eng.snapshot is None:
        snap = copy_state(eng.state)
        del snap["items"]
        if eng.rehearsing:
            return snap
        eng.snapshot = snap
    else:
        _update(eng.snapshot, eng.state, eng.moves != eng.snapshot_moves)
    eng.snapshot_moves = eng.moves
    return eng.snapshot


def _restore(eng, saved: tuple) -> None:
    """Back to the saved game, in place (paused rules hold references to the state's lists),
    copying out of the snapshot so that it serves again for the next run."""
    (state, moves, undo, events, eng.record, eng.steps, eng.turns_taken, eng.depth, windows,
     pending, pending_now, eng.secret_mark) = saved
    if eng.moves != moves:  # items moved: put them back, a change like any other
        _update(eng.state, state, True)
        eng.moves += 1
        if state is eng.snapshot:
            eng.snapshot_moves = eng.moves
    else:
        _update(eng.state, state, False)
    changed = eng.field_undo
    while len(changed) > undo:  # the items' fields, last change first
        data, name, old = changed.pop()
        if old is _MISSING:
            del data[name]
        else:
            data[name] = old
    if eng.rng_marks[-1] is not None:  # it drew: the random state goes back too
        eng.rng.setstate(eng.rng_marks[-1])
    del eng.events[events:]
    eng.windows[:] = windows
    eng.pending[:] = pending
    eng.pending_now[:] = pending_now


def _update(dst: dict, src: dict, places: bool) -> None:
    """Make the state `dst` equal to `src` in place, copying only the parts that differ (a
    comparison runs in C: cheap next to a copy), so that neither shares a list with the other.
    Not the items' data (see _snapshot); where the items are (zones, places, cells, peeks) only
    with `places` (the caller knows they are equal otherwise)."""
    _set_dict(dst["counters"], src["counters"])
    _set_dict(dst["soon"], src["soon"])
    if dst["uses"] != src["uses"]:
        _set_lists(dst["uses"], src["uses"])
    for p, snap in zip(dst["players"], src["players"]):
        _set_dict(p, snap)
    if dst["fired"] != src["fired"]:
        dst["fired"][:] = src["fired"]
    if places:
        _set_dict(dst["loc"], src["loc"])
        if dst["cells"] != src["cells"]:
            _set_lists(dst["cells"], src["cells"])
        if dst["zones"] != src["zones"]:
            _set_lists(dst["zones"], src["zones"])
        if "known" in src:  # peeks
            _set_lists(dst.setdefault("known", {}), src["known"])
        else:
            dst.pop("known", None)
    dst["turn"]["player"] = src["turn"]["player"]
    dst["turn"]["passed"][:] = src["turn"]["passed"]
    dst["phase"] = src["phase"]


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
