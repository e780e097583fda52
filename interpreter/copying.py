"""A copy of a running game made of data alone (Engine 3): no replay.

When the engine runs lowered (interpreter/lowering.py; the default), where the rules stand
is a chain of `Routine`s whose locals are data, so a game is (rules, state, routines, random
state, the engine's counters), and a copy at any decision, inner ones included, is a copy of
those: the state (`copy_state_into`, which notes each container it copies so that a routine's
local that points into the state points into the copy's), then every attribute of the engine,
with one memo so shared values stay shared. The rules themselves (the game, its compiled
program, the syntax tree, options offered) are never copied: nothing changes them.

`Engine.fork` uses it when it can and falls back to a replay of the choices otherwise (a plain
Python generator on the chain, which no rule of the bundled games leaves).
"""
from __future__ import annotations

import random

from meeplang.dsl import ast as A
from meeplang.dsl.model import Game

from . import lowering
from .compile import Compiled, Ctx
from .decisions import ActionOption, Decision
from .lowering import NotCopyable, Routine, copy_value
from .state import FamilyRef, ZoneRef

# the engine's attributes: copied as data, or shared (the rules and what is made from them
# alone), or started afresh in the copy
COPIED = ("humans", "n", "seed", "trace", "changes", "trace_start",
          "seen", "trace_at", "budget", "max_depth", "steps", "max_decisions", "max_unasked",
          "asked_at", "limit", "turns_taken", "depth", "windows", "acting", "busy", "decision", "result", "secret_mark", "pending", "watching",
          "pending_now", "watching_now", "_gen", "rehearsing", "field_undo", "place_undo",
          "rng_marks", "frames", "keeps_secret_start")
# the rules, and caches of what depends on the rules alone (which seats a zone hides from, the
# items of each kind: items never change kind)
SHARED_ATTRS = ("game", "prog", "_hiding", "_kind_items", "opts", "options_given",
                "secret_start")  # (a copy of the game that nothing changes: only copied from)
PLAIN_LISTS = ("choices", "choosers")  # lists of whole numbers
# `history` (the copies undo goes back to) is the game's own: a copy starts without


def _share(*types_) -> None:
    lowering.SHARED.update(types_)


def _register_shared() -> None:
    """What routines may hold that nothing changes: shared by copies."""
    from meeplang.dsl.yamlpos import YStr
    _share(Compiled, Game, ActionOption, ZoneRef, FamilyRef, A.Pos,
           YStr)  # a name as the game file spells it (with its position): a string
    for value in vars(A).values():  # every node class of the syntax tree
        if isinstance(value, type) and value.__module__ == A.__name__:
            _share(value)
    from meeplang.dsl import model
    for value in vars(model).values():  # rules as declared: triggers, actions, zones...
        if isinstance(value, type) and value.__module__ == model.__name__:
            _share(value)
    from . import compile as comp
    for value in vars(comp).values():  # the compiled program's parts (CompiledAction...)
        if isinstance(value, type) and value.__module__ == comp.__name__ and value is not Ctx:
            _share(value)


_register_shared()


def _copy_ctx(self: Ctx, memo: dict) -> Ctx:
    out = memo[id(self)] = Ctx.__new__(Ctx)
    out.s, out.you = copy_value(self.s, memo), self.you
    out.v, out.eng = copy_value(self.v, memo), copy_value(self.eng, memo)
    return out


def _copy_decision(self: Decision, memo: dict) -> Decision:
    out = memo[id(self)] = Decision.__new__(Decision)
    for name in Decision.__slots__:
        if hasattr(self, name):
            setattr(out, name, copy_value(getattr(self, name), memo))
    return out


def _copy_random(self: random.Random, memo: dict) -> random.Random:
    out = memo[id(self)] = random.Random.__new__(random.Random)  # not seeded: setstate sets all
    out.setstate(self.getstate())
    return out


lowering.COPIERS.update({Ctx: _copy_ctx, Decision: _copy_decision, random.Random: _copy_random})


def copy_state_into(state: dict, memo: dict) -> dict:
    """A copy of the state, as state.copy_state makes it, noting in `memo` each list and dict
    it copies (a local that points into the state points into the copy)."""
    out = memo[id(state)] = dict(state)
    for key in ("counters", "loc", "soon"):
        if key in state:
            old = state[key]
            out[key] = memo[id(old)] = dict(old)
    players = state["players"]
    out["players"] = memo[id(players)] = [dict(p) for p in players]
    note = memo.update
    for key in ("zones", "cells", "uses", "known"):
        if key in state:
            old = state[key]
            new = out[key] = memo[id(old)] = {k: v[:] for k, v in old.items()}
            note(zip(map(id, old.values()), new.values()))  # each list's copy, in C loops
    items = state["items"]
    # an item's fields, one level deep as state.copy_state copies them: rules set a field
    # to a new value, they never change a list held in one
    out["items"] = memo[id(items)] = {k: dict(v) for k, v in items.items()}
    for key in ("fired",):
        old = state[key]
        out[key] = memo[id(old)] = old[:]
    turn = state["turn"]
    new_turn = out["turn"] = memo[id(turn)] = dict(turn)
    new_turn["passed"] = memo[id(turn["passed"])] = turn["passed"][:]
    for key, value in state.items():  # anything else a game keeps: copied in full
        if key not in out or out[key] is value and type(value) in (list, dict):
            out[key] = copy_value(value, memo)
    return out


def copyable(eng) -> bool:
    """Does where this game stands live in data (a lowered engine, nothing plain on the chain)?"""
    return type(eng._gen) is Routine


def copy_engine(eng, record: bool = False, into=None):
    """An independent copy of the game `eng` at its current decision, made of data (`into`: an
    engine object to make the copy in, for undo). Raises NotCopyable if something on the chain
    is not data."""
    if not copyable(eng):
        raise NotCopyable("the engine is not lowered: where the rules stand is a generator")
    cls = type(eng)
    e = cls.__new__(cls) if into is None else into
    memo: dict = {id(eng): e}
    e.state = copy_state_into(eng.state, memo)
    for name in SHARED_ATTRS:
        setattr(e, name, getattr(eng, name))
    e.rng = copy_value(eng.rng, memo)
    e.hiding = e if eng.hiding is eng else eng.hiding
    for name in COPIED:
        setattr(e, name, copy_value(getattr(eng, name), memo))
    for name in PLAIN_LISTS:
        setattr(e, name, getattr(eng, name)[:])
    e.record = record
    e.events = copy_value(eng.events, memo) if record else []
    e.history = None
    return e
