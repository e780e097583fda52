"""Reading a game's state in the games' tests (a player's counters, a zone, an item, the options
of the decision waiting; each game's helpers.py re-exports these beside its own), and playing a
whole game with its invariants checked at every decision."""
from __future__ import annotations

from meeplang.interpreter import invariants
from meeplang.interpreter.agents import make_agents
from meeplang.interpreter.compile import Ctx
from meeplang.interpreter.engine import Engine


def me(e: Engine, seat: int = 0) -> dict:
    return e.state["players"][seat]


def zone(e: Engine, key: str) -> list:
    return e.state["zones"][key]


def item(e: Engine, x: str) -> dict:
    return e.state["items"][x]


def labels(e: Engine) -> list[str]:
    return e.decision.labels


def reoffer(e: Engine, main: list[str]) -> None:
    """After a test edited the state at a turn decision (a rulebook example's Given), offer what
    the rules offer now: the turn's `main` actions and its window of free actions."""
    d = e.decision
    assert d is not None and d.kind == "action", d
    c = Ctx(e.state, d.player, {}, e)
    free = e.free_window(d.player)
    d.options = e.action_options(c, main, False) + (e.action_options(c, free, True) if free else [])
    d._labels = None


def play_with_invariants(game, players: int, seed: int, agents: str,
                         options: dict | None = None) -> Engine:
    """A whole game played by `agents`, every invariant of the game checked after each
    decision (the failure names the decision)."""
    e = Engine(game, players, seed, options)
    seats = make_agents(agents, players, seed)
    d = e.start()
    assert invariants.check(e) == []
    steps = 0
    while d is not None:
        seat = seats[d.player]
        d = e.choose(seat.choose(e, d, e.view(d.player) if seat.needs_view else None))
        steps += 1
        broken = invariants.check(e)
        assert not broken, (game.name, game.variant, players, seed, agents, steps, broken)
    return e


def run_rule(e: Engine, action: str, seat: int = 0, **args) -> None:
    """Arrange a Given by playing the game's own rule (an action rules invoke, `takes:`), not by
    copying its effect into the test: `run_rule(e, "flip", diver=d)` fits d with its module as
    the rules do. The rule must ask nothing."""
    for asked in e.do_action(action, seat, None, False, args):
        raise AssertionError(f"{action} asked {asked!r}: play it through decisions instead")
