"""Shared by the statistics tests: random playouts of the Meeplang game and of OpenSpiel's, and
the mean/variance summary the comparisons use."""
from __future__ import annotations

import functools
import math
import random

import pytest

from meeplang.dsl.resolve import load_game
from meeplang.interpreter.simulation import play_game


@functools.cache
def sample_meeplang(name: str, n: int, seed: int) -> tuple:
    """Final scores of n random 2-player games (a tuple, so the cache can keep it)."""
    game = load_game(name)
    return tuple(tuple(play_game(game, 2, seed * 1_000_003 + i, "random", record=False)
                       .result["scores"]) for i in range(n))


def sample_reference(reference_game, n: int, seed: int) -> list:
    """Final scores of n games of a hand-written reference loop, `reference_game(rng)`."""
    rng = random.Random(seed)
    return [reference_game(rng) for _ in range(n)]


def sample_pyspiel(spec: str, n: int, seed: int, final_scores) -> list:
    """n games of OpenSpiel's `spec` with uniformly random legal actions and chance outcomes
    drawn by their probabilities; `final_scores(state)` reads the players' points."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(spec)
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                players = game.num_players()
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(final_scores(state))
    return out


def summarize(columns: dict) -> dict:
    """-> {name: (mean, variance, n)} for each column of numbers."""
    out = {}
    for name, xs in columns.items():
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        out[name] = (m, var, len(xs))
    return out


def assert_close(a: dict, b: dict, z: float, what: str) -> None:
    """Every mean of `a` within z standard errors of `b`'s (the report is printed with -s)."""
    report = []
    for name in a:
        (ma, va, na), (mb, vb, nb) = a[name], b[name]
        se = math.sqrt(va / na + vb / nb)
        report.append(f"{name}: {ma:.3f} vs {mb:.3f} (se {se:.3f}, z {abs(ma - mb) / se:.2f})")
        assert abs(ma - mb) <= z * se, f"{what}: " + "; ".join(report)
    print(f"\n{what}: " + "; ".join(report))
