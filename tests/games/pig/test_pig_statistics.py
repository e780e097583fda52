"""Pig played at random by the engine against an independent reference (and OpenSpiel's pyspiel).

The reference below is a plain loop written from OpenSpiel's rules for pig(players=2,
winscore=100): on your turn choose uniformly among the legal actions, where `roll` is legal only
while score + turn total < 100 and `stop` always is; a 1 loses the turn total and the turn; a stop
banks it; the game ends when a score reaches 100, or after 1000 player moves (rolls and stops)
with no winner. The engine's random agents also choose uniformly among the legal options.
"""
from __future__ import annotations

import functools
import math
import random

import pytest

from dsl.resolve import load_game
from interpreter.simulation import play_game

TARGET, HORIZON = 100, 1000


def reference_game(rng: random.Random):
    scores, turn_total, player, moves = [0, 0], 0, 0, 0
    while moves < HORIZON:
        legal = ["roll", "stop"] if scores[player] + turn_total < TARGET else ["stop"]
        action = rng.choice(legal)
        moves += 1
        if action == "stop":
            scores[player] += turn_total
            turn_total = 0
            if scores[player] >= TARGET:
                break
            player = 1 - player
            continue
        if moves >= HORIZON:  # OpenSpiel: the horizon is reached before the die is rolled
            break
        die = rng.randint(1, 6)
        if die == 1:
            turn_total = 0
            player = 1 - player
        else:
            turn_total += die
    return scores


def sample_reference(n: int, seed: int):
    rng = random.Random(seed)
    return [reference_game(rng) for _ in range(n)]


@functools.cache
def sample_meeplang(n: int, seed: int):
    game = load_game("pig")
    return tuple(tuple(play_game(game, 2, seed * 1_000_003 + i, "random", record=False)
                       .result["scores"]) for i in range(n))


def sample_pyspiel(n: int, seed: int):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("pig(players=2,winscore=100)")
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        # "Scores: 105 51, Turn total: 0\n..."
        text = str(state).split(",")[0].removeprefix("Scores: ")
        out.append([int(x) for x in text.split()])
    return out


def stats(samples):
    """-> {name: (mean, variance, n)} for mean points of each seat and seat 0's win rate."""
    columns = {
        "points0": [s[0] for s in samples],
        "points1": [s[1] for s in samples],
        "win0": [1.0 if s[0] >= TARGET else 0.0 for s in samples],
    }
    out = {}
    for name, xs in columns.items():
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        out[name] = (m, var, len(xs))
    return out


def assert_close(a, b, z: float, what: str):
    report = []
    for name in a:
        (ma, va, na), (mb, vb, nb) = a[name], b[name]
        se = math.sqrt(va / na + vb / nb)
        report.append(f"{name}: {ma:.3f} vs {mb:.3f} (se {se:.3f}, z {abs(ma - mb) / se:.2f})")
        assert abs(ma - mb) <= z * se, f"{what}: " + "; ".join(report)
    print(f"\npig {what}: " + "; ".join(report))


def test_reference_implements_the_rules():
    rng = random.Random(1)
    for _ in range(300):
        scores = reference_game(rng)
        assert sum(s >= TARGET for s in scores) <= 1
        assert all(s >= 0 for s in scores)


def _check(n: int, z: float):
    mine = stats(sample_meeplang(n, seed=1))
    ref = stats(sample_reference(n, seed=2))
    assert_close(mine, ref, z, f"meeplang vs reference, {n} games")
    return mine


def _check_pyspiel(n: int, z: float):
    mine = stats(sample_meeplang(n, seed=1))
    theirs = stats(sample_pyspiel(n, seed=4))
    assert_close(mine, theirs, z, f"meeplang vs pyspiel, {n} games")


def test_pig_statistics_match_the_reference_2000_games():
    _check(2000, 5.0)


def test_pig_statistics_match_pyspiel_2000_games():
    _check_pyspiel(2000, 5.0)


@pytest.mark.slow
def test_pig_statistics_match_the_reference_10000_games():
    _check(10_000, 4.0)


@pytest.mark.slow
def test_pig_statistics_match_pyspiel_10000_games():
    _check_pyspiel(10_000, 4.0)
