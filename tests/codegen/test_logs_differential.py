"""The generated program plays exactly as the closures: the same logs, byte for byte.

Each game is played twice with the same seed and the same random choices: once by the engine as
it runs by default (blocks and expression sites generated, interpreter/generated.py), once with
`MEEPLANG_CLOSURES=1` (the closures of interpreter/compile.py alone, the reference). The log
lines, the work charged and any rule error that stops the game (its message and position) must
be the same.
"""
from __future__ import annotations

import random

import pytest

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.codecheck import LOWERED_BUILTINS, load
from meeplang.interpreter.codegen import generate
from meeplang.interpreter.compile import Compiled
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.generated import closures_only
from meeplang.interpreter.log import log_lines

from language.helpers import make_game
from .test_differential import target_games

BUNDLED = [("new-eden", 2), ("new-eden", 3), ("new-eden", 4), ("new-eden:solo", 1),
           ("goofspiel", 2), ("goofspiel:descending", 2), ("pig", 2), ("pig", 4),
           ("pig:short", 3)]
# the euro games' decisions cost more: one game each, its first 150 decisions
EURO = [("otys", 3), ("otys:solo", 1), ("endeavor-deep-sea", 3), ("endeavor-deep-sea:coop", 2),
        ("thesauros", 3), ("thesauros:introductory", 2)]


def played(game, players: int, seed: int, closures: bool, monkeypatch, most: int = 600) -> tuple:
    """(log lines, steps, the error that stopped the game or None) of one random game."""
    if closures:
        monkeypatch.setenv("MEEPLANG_CLOSURES", "1")
    else:
        monkeypatch.delenv("MEEPLANG_CLOSURES", raising=False)
    engine = Engine(game, players, seed)
    assert closures_only() == closures
    rng = random.Random(seed)
    error = None
    try:
        d = engine.start()
        while d is not None and len(engine.choices) < most:
            d = engine.choose(rng.randrange(len(d.options)))
    except MeeplangError as exc:
        error = str(exc)
    return log_lines(engine), engine.steps, error


def assert_same_play(game, players: int, seeds, monkeypatch, most: int = 600) -> None:
    for seed in seeds:
        want = played(game, players, seed, True, monkeypatch, most)
        got = played(game, players, seed, False, monkeypatch, most)
        assert got == want, f"{game.name} {players}p seed {seed}"


@pytest.mark.parametrize("name, players", BUNDLED)
def test_bundled_games_play_the_same_generated_or_not(name, players, monkeypatch):
    game = load_game(name)
    load(generate(game), Compiled(game))  # the module verifies (or this raises)
    assert_same_play(game, players, range(3), monkeypatch)


@pytest.mark.parametrize("name, players", EURO)
def test_euro_games_play_the_same_generated_or_not(name, players, monkeypatch):
    game = load_game(name)
    assert_same_play(game, players, range(1), monkeypatch, most=150)


def test_target_games_play_the_same_generated_or_not(tmp_path, monkeypatch):
    games = target_games(tmp_path)
    assert len(games) > 20
    for game in games:
        players = max(game.min_players, min(game.max_players, 3))
        assert_same_play(game, players, range(2), monkeypatch)


def test_the_engine_runs_generated_blocks_unless_switched_off(monkeypatch):
    game = load_game("pig")
    monkeypatch.delenv("MEEPLANG_CLOSURES", raising=False)
    effect = Engine(game, 2).prog.actions["stop"].effect_plain
    builtins = LOWERED_BUILTINS  # the lowered steps' own few
    assert effect.__name__.startswith("b") and effect.__globals__["__builtins__"] == builtins
    monkeypatch.setenv("MEEPLANG_CLOSURES", "1")
    closure = Engine(game, 2).prog.actions["stop"].effect_plain
    assert getattr(closure, "__globals__", {}).get("__builtins__") != {}


SEAT = """
game: seat
players: 2
counters:
  coins: {per: player, initial: 0}
zones:
  hand: {per: player}
flow:
  - turns: {first: 0, actions: [look], until: never}
actions:
  look:
    effect: |
      let p = SEAT
      EFFECT
scoring: {score: coins}
"""


@pytest.mark.parametrize("seat", ["5", "0 - 1"])
@pytest.mark.parametrize("effect", ["set coins to p.coins", "p gains 1 coins",
                                    "for each x in p.hand:\n  end game",
                                    "move top(hand) to p.hand", "set coins to count(p.hand)",
                                    "if empty(p.hand):\n  end game",
                                    "if count(p.hand) < 3:\n  end game"])
def test_a_number_that_is_no_seat_is_no_player_generated_or_not(tmp_path, monkeypatch, seat,
                                                                 effect):
    # found in review: p.coins, `p gains` and the generated count(p.hand) with p = 5 were raw
    # Python errors; with p = -1 they read or paid the last seat
    text = SEAT.replace("SEAT", seat).replace("EFFECT", effect.replace("\n", "\n      "))
    game = make_game(tmp_path, text)
    want = played(game, 2, 0, True, monkeypatch)
    assert want[2] is not None and "is not a player" in want[2]
    assert played(game, 2, 0, False, monkeypatch) == want
