"""`play --trace` records only what really ran, and all of it: the start state with every change
of `Engine.changes` applied in order is the state at every decision, and its hash is the final
state hash the log records (interpreter/trace.py)."""
from __future__ import annotations

import copy
import random

import pytest

from meeplang.cli import main
from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game
from meeplang.interpreter import trace
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.state import state_hash

from tests.language.helpers import make_game, play_labels, start

# `buy` is rehearsed (its effect can fail): it gains 1 goods, then cannot pay 3 coins
SHOP = """
game: shop
players: 1
counters:
  coins: {per: player, initial: 2, min: 0}
  goods: {per: player, initial: 0}
  rounds: {initial: 0}
flow:
  - turns: {first: 0, actions: [buy, rest], per_turn: 1, until: rounds >= 2}
actions:
  buy:
    effect: |
      gain 1 goods
      pay 3 coins
  rest:
    effect: |
      add 1 to rounds
      gain 1 coins
scoring: {score: goods}
"""


def _targets():
    out = []
    for name in bundled_games():
        game = load_game(name)
        out.append((name, None, game.min_players, game.max_players))
        for variant, _, _ in game.variants:
            v = load_game(name, variant)
            out.append((name, variant, v.min_players, v.max_players))
    return out


TARGETS = _targets()
IDS = [n + (f":{v}" if v else "") for n, v, _, _ in TARGETS]


def _rebuild(game, players: int, seed: int) -> int:
    """Play a random game traced; at each decision and at the end, the start state with the
    changes so far applied must be the engine's state. Returns the decisions made."""
    eng = Engine(game, players, seed, trace=True)
    rng = random.Random(seed)
    d = eng.start()
    rebuilt, applied = copy.deepcopy(eng.trace_start), 0
    while True:
        while applied < len(eng.changes) and eng.changes[applied][0] <= len(eng.events):
            for change in eng.changes[applied][2]:
                trace.apply(rebuilt, change)
            applied += 1
        assert rebuilt == eng.state, f"the trace's changes stop matching at decision " \
                                     f"{len(eng.choices)}"
        if d is None:
            break
        d = eng.choose(rng.randrange(len(d.options)))
    assert applied == len(eng.changes)
    end = eng.events[-1]
    assert end["event"] == "end" and state_hash(rebuilt) == end["state"]
    return len(eng.choices)


@pytest.mark.parametrize("name,variant,least,most", TARGETS, ids=IDS)
def test_the_trace_rebuilds_every_state_of_a_game(name, variant, least, most):
    assert _rebuild(load_game(name, variant), least, 1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name,variant,least,most", TARGETS, ids=IDS)
def test_the_trace_rebuilds_every_state_of_many_games(name, variant, least, most):
    game = load_game(name, variant)
    for players in sorted({least, most, (least + most) // 2}):
        for seed in range(2, 6):
            _rebuild(game, players, seed)


def test_an_option_only_rehearsed_leaves_nothing_in_the_trace(tmp_path):
    e = start(make_game(tmp_path, SHOP), players=1, trace=True)
    assert e.decision.labels == ["rest"]  # `buy` was rehearsed (it gained 1 goods) and refused
    play_labels(e, ["rest"])
    assert e.decision.labels == ["buy", "rest"]  # 3 coins now: `buy` was rehearsed and can run
    play_labels(e, ["rest"])
    goods = [c for _, _, what in e.changes for c in what if c[0] == ("players", 0, "goods")]
    assert goods == []  # nobody bought anything
    coins = [(before, after) for _, _, what in e.changes for (path, before, after) in what
             if path == ("players", 0, "coins")]
    assert coins == [(2, 3), (3, 4)]


def test_each_change_stands_under_the_rule_that_made_it(tmp_path):
    e = start(make_game(tmp_path, SHOP), players=1, trace=True)
    play_labels(e, ["rest", "buy"])
    where = {c[0]: at for _, at, what in e.changes for c in what if at is not None}
    folder = tmp_path / "g" / "game.yaml"
    assert where[("counters", "rounds")] == f"{folder}:17"
    assert where[("players", 0, "goods")] == f"{folder}:13"
    assert where[("players", 0, "coins")] == f"{folder}:14"  # bought: paid 3 of its 3 coins


def test_what_the_engine_changes_stands_under_no_rule():
    e = Engine(load_game("pig"), 2, 1, trace=True)
    d = e.start()
    while d is not None and e.state["turn"]["player"] == 0:
        d = e.choose(d.labels.index("stop") if "stop" in d.labels else 0)
    turn = [(at, before, after) for _, at, what in e.changes for (path, before, after) in what
            if path == ("turn", "player")]
    assert turn == [(None, 0, 1)]  # whose turn it is: the flow's, not a rule line's


def test_the_printed_trace_shows_no_declined_option(tmp_path, capsys):
    folder = tmp_path / "shop"
    make_game(tmp_path, SHOP, name="shop")
    assert main(["play", str(folder), "--players", "1", "--seed", "1", "--agents", "first",
                 "--trace"]) == 0
    out = capsys.readouterr().out
    assert "goods of player 0" not in out.split("buy")[0]  # before anyone could buy
    assert "coins of player 0: 2 → 3" in out
