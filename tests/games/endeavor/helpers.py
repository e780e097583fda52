"""Helpers for the Endeavor: Deep Sea tests: start a game, set up a worked example's position by
moving components (keeping `loc`, cells and the pending decision consistent), and answer decisions
by label with every invariant checked after each one."""
from __future__ import annotations

from functools import lru_cache

from meeplang.dsl.resolve import load_game
from meeplang.interpreter import invariants
from meeplang.interpreter.compile import Ctx
from meeplang.interpreter.engine import Engine

from ..state import item, labels, me, reoffer, zone  # noqa: F401 (re-exported to the tests)

MAIN = ["activate", "journal_action", "pass_"]     # a turn's actions


@lru_cache(maxsize=None)
def game(variant: str | None = None):
    return load_game("endeavor-deep-sea", variant)


def start(players: int = 3, seed: int = 0, variant: str | None = None, first: int | None = 0,
          **options) -> Engine:
    """A game from the first seed from `seed` on whose random first player (Endeavor FR l.113-114)
    is seat `first` (the worked examples are told by the first player; None: any seat)."""
    while True:
        e = Engine(game(variant), players, seed, options or None)
        e.start()
        if first is None or e.state["counters"]["wave"] == first:
            return e
        seed += 1


# ------------------------------------------------------------------ reading the state
def named(e: Engine, name: str, kind: str | None = None) -> list[str]:
    """The ids of the items with this `name` field (all copies), in id order."""
    return [x for x, it in e.state["items"].items()
            if it.get("name") == name and (kind is None or it["kind"] == kind)]


def one(e: Engine, name: str) -> str:
    return named(e, name)[0]


def formula(e: Engine, text: str, seat: int = 0, **local):
    """Evaluate a Meeplang expression (formulas included) for `seat` in the current state."""
    from meeplang.dsl.parser import parse_expression
    from meeplang.interpreter.compile import _Compiler
    fn = _Compiler(e.prog, e.game).ex(parse_expression(text), set(local))
    return fn(Ctx(e.state, seat, dict(local), e))


# ------------------------------------------------------------------ setting up a position
def _ref(e: Engine, key: str):
    name, _, owner = key.partition("@")
    member = None
    if "[" in name:
        name, _, member = name[:-1].partition("[")
        member = int(member) if member.isdigit() else member
    return e.prog.zone_ref(name, int(owner) if owner else None, member)


def put(e: Engine, x: str, key: str, top: bool = False, at: tuple | None = None) -> None:
    """Move item x to the zone with state key `key` ("transit@0", "site[star_p1]"), at the top
    or the bottom, or on the ocean's cell `at` (row, column)."""
    ref = _ref(e, key)
    if at is None:
        e.move_item(x, ref, top, None, False)
    else:
        e._leave(x, e.state["loc"][x], False)
        e._enter(x, ref, False, None, at)


def preset(e: Engine, x: str, key: str) -> None:
    """Put item x at the bottom of the zone with state key `key` as part of the position, with no
    rule event (a token placed by `put` fires the zone's `enters` triggers at the next step)."""
    e.state["zones"][e.state["loc"][x]].remove(x)
    e.state["zones"][key].append(x)
    e.state["loc"][x] = key


def lay(e: Engine, name: str, row: int, col: int) -> str:
    """Put the Ocean tile `name` in play on the cell (row, col)."""
    t = one(e, name)
    put(e, t, "ocean", at=(row, col))
    return t


def sub_to(e: Engine, seat: int, name: str) -> str:
    """Move seat's submersible in play to the zone `name`."""
    s = zone(e, f"subs@{seat}")[0]
    item(e, s)["at"] = one(e, name)
    return s


def disc_to(e: Engine, seat: int, key: str, placed: str | None = None) -> str:
    """A disc of seat's reserve put on a site or track (`placed` as the action that put it)."""
    d = zone(e, f"reserve@{seat}")[0]
    put(e, d, key)
    item(e, d)["placed"] = placed
    return d


def recruit_into_team(e: Engine, seat: int, name: str) -> str:
    """A specialist of the tray joins seat's team (a position, not a recruitment)."""
    s = next(x for x in named(e, name) if e.state["loc"][x].startswith("stack"))
    put(e, s, f"team@{seat}")
    return s


def refresh(e: Engine) -> None:
    """After editing the state at a turn decision, offer what the rules offer now."""
    reoffer(e, MAIN)


# ------------------------------------------------------------------ driving
def play(e: Engine, *labels: str) -> Engine:
    """Answer decisions by label, checking every invariant after each one."""
    for text in labels:
        assert e.decision is not None, f"game over before {text!r}"
        assert text in e.decision.labels, (text, e.decision.labels)
        e.choose_label(text)
        broken = invariants.check(e)
        assert not broken, broken
    return e


def quiet(e: Engine, stop) -> Engine:
    """Answer every decision quietly (recruit the first, recover nothing, pass) until `stop(e)`."""
    while e.decision is not None and not stop(e):
        d = e.decision
        pick = next((t for t in ("pass_", "[]", "end turn", "stop", "skip") if t in d.labels),
                    d.labels[0])
        play(e, pick)
    assert e.decision is not None, "the game ended first"
    return e


def finish(e: Engine) -> Engine:
    """Answer every decision quietly to the end of the game."""
    quiet(e, lambda e: False) if False else None
    while e.decision is not None:
        d = e.decision
        play(e, next((t for t in ("pass_", "[]", "end turn", "stop", "skip") if t in d.labels),
                     d.labels[0]))
    return e


def to_turns(e: Engine) -> Engine:
    """Answer Phase 1 quietly until the first turn of the activation phase."""
    return quiet(e, lambda e: e.state["phase"] == "activation")
