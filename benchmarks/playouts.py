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


def meeplang_rate(name: str, players: int, seconds: float) -> tuple[float, float]:
    game = load_game(name)
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e = Engine(game, players, seed=games, record=False)
        d = e.start()
        while d is not None:
            d = e.choose(rng.randrange(len(d.options)))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def openspiel_rate(spec: str, seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(spec)
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
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
        games += 1
    return games / (time.perf_counter() - start)


def handwritten_rate(name: str, seconds: float) -> float:
    """Games/s of the hand-written Python loop of this game (no interpreter)."""
    import importlib

    module = importlib.import_module(f"tests.games.{name}.test_{name}_statistics")
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        module.reference_game(rng)
        games += 1
    return games / (time.perf_counter() - start)


EURO_GAMES = (("new-eden", 4), ("new-eden", 2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    from meeplang.interpreter.native import status

    print(f"interpreter: {status()} (python -m meeplang.interpreter.native build|clean)")
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
