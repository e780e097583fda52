"""Helpers for the New Eden tests: start a game, set up a scenario's position by editing the
state (keeping `loc`, cells and the pending decision consistent), and drive decisions by label."""
from __future__ import annotations

from functools import lru_cache

from meeplang.dsl.resolve import load_game
from meeplang.interpreter import invariants
from meeplang.interpreter.compile import Ctx
from meeplang.interpreter.engine import Engine

from ..state import item, labels, me, reoffer, zone  # noqa: F401 (re-exported to the tests)

MAIN = ["buy_card", "move_deeples", "pass_development"]   # the Phase A turn's actions


@lru_cache(maxsize=None)
def game(variant: str | None = None):
    return load_game("new-eden", variant)


def start(players: int = 4, variant: str | None = None, seed: int = 0, **options) -> Engine:
    e = Engine(game(variant), players, seed, options or None)
    e.start()
    return e


# ------------------------------------------------------------------ reading the state
def cell(e: Engine, x: str):
    c = e.state["cells"].get(x)
    return None if c is None else tuple(c)


def where(e: Engine, x: str) -> str:
    return e.state["loc"][x]


def modules(e: Engine, n: int, **fields) -> list[str]:
    """n module cards taken from the (shuffled) supply of later rounds, with these fields set:
    the scenario's illustrative cards. Their own data does not matter for the scenario."""
    pool = [x for x in zone(e, "module_supply") if item(e, x)["round"] == 3]
    assert len(pool) >= n
    out = pool[:n]
    for x in out:
        item(e, x).update(fields)
    return out


def formula(e: Engine, text: str, seat: int = 0, **local):
    """Evaluate a Meeplang expression (formulas included) for `seat` in the current state."""
    from meeplang.dsl.parser import parse_expression
    from meeplang.interpreter.compile import _Compiler
    fn = _Compiler(e.prog, e.game).ex(parse_expression(text), set(local))
    return fn(Ctx(e.state, seat, dict(local), e))


# ------------------------------------------------------------------ editing the state
def _ref(e: Engine, key: str):
    name, _, owner = key.partition("@")
    member = None
    if "[" in name:
        name, _, member = name[:-1].partition("[")
        member = int(member) if member.isdigit() else member
    return e.prog.zone_ref(name, int(owner) if owner else None, member)


def put(e: Engine, x: str, key: str, top: bool = False, at: tuple | None = None) -> None:
    """Move item x to the zone with state key `key` (e.g. "station[crab]@0", "market_row[1]"),
    at the top or the bottom, or on grid cell `at`; leaving a grid never makes it settle."""
    ref = _ref(e, key)
    if at is None:
        e.move_item(x, ref, top, None, False)
    else:
        old = e.state["loc"][x]
        e._leave(x, old, False)
        e._enter(x, ref, False, None, at)


def plain(e: Engine, x: str, category: str, **fields) -> str:
    """Make x a module of this category with no Research effect and no printed symbols."""
    item(e, x).update(category=category, research=None, up=0, down=0, **fields)
    return x


def clear(e: Engine, key: str, to: str = "box") -> None:
    for x in list(zone(e, key)):
        put(e, x, to)


def refresh(e: Engine) -> None:
    """After editing the state at a Phase A turn decision, offer what the rules offer now."""
    reoffer(e, MAIN)


# ------------------------------------------------------------------ driving
def play(e: Engine, *labels: str) -> Engine:
    """Answer decisions by label, checking every invariant after each one."""
    for text in labels:
        assert e.decision is not None, f"game over before {text!r}"
        e.choose_label(text)
        broken = invariants.check(e)
        assert not broken, broken
    return e


def pass_all(e: Engine) -> Engine:
    """Every seat passes in turn until the decision is no longer a Phase A turn."""
    while (e.decision is not None and e.decision.kind == "action"
           and "pass_development" in labels(e)):
        play(e, "pass_development")
    return e


def phase(e: Engine) -> str | None:
    return e.state["phase"]


def quiet_choice(d) -> str:
    """A harmless answer to any decision: pass, buy nothing, bid out, skip, else the first."""
    for text in ("end turn", "pass_development", "[]", "out", "skip"):
        if text in d.labels:
            return text
    return d.labels[0]


def advance(e: Engine, stop) -> Engine:
    """Answer every decision quietly until `stop(e)` holds (checked before each decision)."""
    while e.decision is not None and not stop(e):
        play(e, quiet_choice(e.decision))
    assert e.decision is not None, "the game ended first"
    return e


def next_round(e: Engine) -> Engine:
    """Answer quietly until the next round's first Phase A decision of seat 0."""
    left = False
    while True:
        left = left or phase(e) != "development"
        if left and phase(e) == "development" and e.decision.player == 0 \
                and e.decision.kind == "action":
            return e
        play(e, quiet_choice(e.decision))


def at_phase(name: str, seat: int | None = None):
    return lambda e: phase(e) == name and (seat is None or e.decision.player == seat)


def end_turn(e: Engine) -> Engine:
    """After the turn's main action free actions are still offered (FR l.168 « à tout moment de
    ton tour »): end it."""
    assert "end turn" in labels(e), labels(e)
    return play(e, "end turn")


def stay_home(e: Engine) -> Engine:
    """Answer the deeple moves of a move action by keeping each deeple in the dome."""
    while e.decision is not None and e.decision.kind in ("choose deeple", "choose target"):
        play(e, "None" if e.decision.kind == "choose target" else labels(e)[0])
    return e


# ------------------------------------------------------------------ shared positions
def auctions_2p(coins: int = 6, oxygen_cards: int = 4, **options) -> Engine:
    """Phase C with 2 players: P (seat 0) holds the Nautilus marker, chooses the first row and
    opens; row 1 holds P's three black-market leftovers, row 2 the other seat's (plain shell
    houses); P has `coins` coins and `oxygen_cards` face-up oxygen cards."""
    e = start(2, **options)
    pass_all(e)
    for p in (0, 1):
        for x in zone(e, f"offer@{p}"):
            plain(e, x, "shell")
    play(e, "[]", "[]")
    assert phase(e) == "auctions" and e.decision.kind == "choose row" and e.decision.player == 0
    assert labels(e) == ["1", "2", "3", "4"]
    me(e)["coins"] = coins
    for x in list(zone(e, "construction_supply"))[: oxygen_cards - 2]:
        put(e, x, "oxygen@0")
    return e
