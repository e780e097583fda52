"""Rehearsals: could this effect run to its end from here? Legality derived from effects.

An action with no `requires:` whose effect holds a statement that can fail (compile.can_fail) is
offered only if a rehearsal succeeds. So is rule text performed by value, and a free action
offered beside an inner decision (it must leave that decision something to choose).

A rehearsal runs the effect on the live game with nothing recorded and no free actions, answers
its inner decisions one path after another (depth first: the first option first), and puts the
game back exactly as it was after every run. It succeeds when one path ends (or ends the turn or
the game) without a rule error: it can pay, the piles it takes from are not empty, its choices
have options. When REHEARSAL_RUNS runs are spent without an answer, the effect is taken as
possible (a rehearsal never forbids what it could not check). Rehearsals nest (an effect that
offers actions by value rehearses them) up to MAX_NESTING deep, below which options are taken as
possible and the depth-first search of the outer rehearsal tries them one by one.
"""
from __future__ import annotations

from typing import Any, Callable

from meeplang.dsl.errors import Impossible

from .compile import EndGame, EndTurn

REHEARSAL_RUNS = 64
MAX_NESTING = 2

def rehearse(eng, run: Callable[..., Any], *args) -> bool:
    """Can the generator made by `run(*args)` run to its end on this game? The game is unchanged
    afterwards."""
    if eng.rehearsing >= MAX_NESTING:
        return True
    saved = _save(eng)
    eng.rehearsing += 1
    eng.record = False
    eng.windows.append((None, ()))  # no free actions inside a rehearsal
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
        _restore(eng, saved)
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
    from .engine import _copy_state

    return (_copy_state(eng.state), eng.rng.getstate(), len(eng.events), eng.record, eng.steps,
            eng.turns_taken, eng.depth, list(eng.windows), list(eng.pending),
            list(eng.pending_now), eng.secret_mark)


def _restore(eng, saved: tuple) -> None:
    """Back to the saved game, in place (paused rules hold references to the state's lists),
    copying out of the snapshot so that it serves again for the next run."""
    (state, rng, events, eng.record, eng.steps, eng.turns_taken, eng.depth, windows, pending,
     pending_now, eng.secret_mark) = saved
    live = eng.state
    for key in ("counters", "loc", "soon", "cells"):
        _set_dict(live[key], state[key])
    for key in ("zones", "uses"):
        _set_lists(live[key], state[key])
    for p, snap in zip(live["players"], state["players"]):
        _set_dict(p, snap)
    items = live["items"]
    for key, snap in state["items"].items():
        _set_dict(items[key], snap)
    live["fired"][:] = state["fired"]
    if "known" in state:  # peeks
        _set_lists(live.setdefault("known", {}), state["known"])
    else:
        live.pop("known", None)
    live["turn"]["player"] = state["turn"]["player"]
    live["turn"]["passed"][:] = state["turn"]["passed"]
    live["phase"] = state["phase"]
    eng.rng.setstate(rng)
    del eng.events[events:]
    eng.windows[:] = windows
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
