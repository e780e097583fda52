"""Random-playout speed of the generic interpreter, and the ratio to OpenSpiel when installed.

    python benchmarks/playouts.py [--seconds 3]

Prints numbers; asserts nothing. One core (no parallelism). Random legal choices, no logging.

Three references for goofspiel-13 and pig-100: OpenSpiel (C++ driven from Python, one
`apply_action` per move), and the hand-written Python game loops the statistics tests check the
rules against (tests/games/*/test_*_statistics.py): the most a Python program can do, with no
interpreter at all. Then the cost per decision of each euro game against goofspiel's.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.engine import Engine  # noqa: E402


def random_game(new_engine):
    """A function that plays one game of `new_engine(seed)` (anything with the engine's
    `start`/`choose`) with random answers, and counts its decisions."""
    def play(seed: int, rng: random.Random) -> int:
        e = new_engine(seed)
        decisions = 0
        d = e.start()
        while d is not None:
            d = e.choose(rng.randrange(len(d.options)))
            decisions += 1
        return decisions
    return play


def meeplang_game(name: str, players: int):
    """One random game of the bundled game `name`."""
    game = load_game(name)
    return random_game(lambda seed: Engine(game, players, seed=seed, record=False))


def openspiel_game(spec: str):
    """The same for OpenSpiel's game `spec` (random legal actions, chance drawn from its
    outcomes), or None when pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(spec)

    def play(seed: int, rng: random.Random) -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                for action, prob in outcomes:
                    acc += prob
                    if r < acc:
                        break
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves
    return play


def handwritten_game(name: str):
    """The hand-written Python loop of this game (no interpreter) that its statistics test
    checks the rules against."""
    import importlib

    module = importlib.import_module(f"tests.games.{name}.test_{name}_statistics")

    def play(seed: int, rng: random.Random) -> int:
        module.reference_game(rng)
        return 0
    return play


def rate(play, seconds: float) -> tuple[float, float]:
    """Games/s and decisions/s (wall clock) of `play` for `seconds`."""
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play(games, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def meeplang_rate(name: str, players: int, seconds: float) -> tuple[float, float]:
    return rate(meeplang_game(name, players), seconds)


def openspiel_rate(spec: str, seconds: float) -> float | None:
    play = openspiel_game(spec)
    return None if play is None else rate(play, seconds)[0]


def handwritten_rate(name: str, seconds: float) -> float:
    return rate(handwritten_game(name), seconds)[0]


EURO_GAMES = (("new-eden", 4), ("new-eden", 2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    cases = [("goofspiel", 2, "goofspiel(num_cards=13,points_order=random,returns_type=total_points)"),
             ("pig", 2, "pig(players=2,winscore=100)")]
    print(f"{'game':<10} {'meeplang games/s':>17} {'decisions/s':>12} {'us/decision':>12} "
          f"{'hand-written':>13} {'openspiel':>10} {'vs openspiel':>13} {'vs hand-written':>16}")
    per_decision = {}
    for name, players, spec in cases:
        rate, dps = meeplang_rate(name, players, args.seconds)
        per_decision[name] = 1e6 / dps
        hand = handwritten_rate(name, args.seconds)
        ref = openspiel_rate(spec, args.seconds)
        ratio = f"{rate / ref:13.2f}" if ref else f"{'n/a':>13}"
        ref_text = f"{ref:10.0f}" if ref else f"{'missing':>10}"
        print(f"{name:<10} {rate:17.0f} {dps:12.0f} {1e6 / dps:12.1f} {hand:13.0f} {ref_text} "
              f"{ratio} {rate / hand:16.3f}")
    print()
    print(f"{'euro game':<16} {'decisions/s':>12} {'us/decision':>12} {'x goofspiel':>12}")
    for name, players in EURO_GAMES:
        _, dps = meeplang_rate(name, players, args.seconds)
        print(f"{name + f' ({players}p)':<16} {dps:12.0f} {1e6 / dps:12.1f} "
              f"{1e6 / dps / per_decision['goofspiel']:12.2f}")


if __name__ == "__main__":
    main()
