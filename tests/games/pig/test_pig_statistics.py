"""Pig played at random by the engine against an independent reference (and OpenSpiel's pyspiel).

The reference below is a plain loop written from OpenSpiel's rules for pig(players=2,
winscore=100): on your turn choose uniformly among the legal actions, where `roll` is legal only
while score + turn total < 100 and `stop` always is; a 1 loses the turn total and the turn; a stop
banks it; the game ends when a score reaches 100, or after 1000 player moves (rolls and stops)
with no winner. The engine's random agents also choose uniformly among the legal options.
"""
from __future__ import annotations

import random

import pytest

from .. import openspiel_compare as compare
from ..openspiel_compare import assert_close, summarize

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


def stats(samples):
    """-> {name: (mean, variance, n)} for mean points of each seat and seat 0's win rate."""
    return summarize({
        "points0": [s[0] for s in samples],
        "points1": [s[1] for s in samples],
        "win0": [1.0 if s[0] >= TARGET else 0.0 for s in samples],
    })


def _pig_scores(state):
    # "Scores: 105 51, Turn total: 0\n..."
    text = str(state).split(",")[0].removeprefix("Scores: ")
    return [int(x) for x in text.split()]


def sample_pyspiel(n: int, seed: int):
    return compare.sample_pyspiel("pig(players=2,winscore=100)", n, seed, _pig_scores)


def test_reference_implements_the_rules():
    rng = random.Random(1)
    for _ in range(300):
        scores = reference_game(rng)
        assert sum(s >= TARGET for s in scores) <= 1
        assert all(s >= 0 for s in scores)


def _check(n: int, z: float):
    mine = stats(compare.sample_meeplang("pig", n, seed=1))
    ref = stats(compare.sample_reference(reference_game, n, seed=2))
    assert_close(mine, ref, z, f"pig, meeplang vs reference, {n} games")
    return mine


def _check_pyspiel(n: int, z: float):
    mine = stats(compare.sample_meeplang("pig", n, seed=1))
    theirs = stats(sample_pyspiel(n, seed=4))
    assert_close(mine, theirs, z, f"pig, meeplang vs pyspiel, {n} games")


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
