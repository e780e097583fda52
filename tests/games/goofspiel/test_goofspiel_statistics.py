"""Goofspiel played at random by the engine against an independent reference (and pyspiel).

The reference is a plain loop written from OpenSpiel's rules for goofspiel(num_cards=13,
points_order=random, returns_type=total_points): each round a prize is drawn at random from the
remaining prize cards, both players bid a card of their hand chosen uniformly at random, the
higher bid scores the prize's value and a tie discards it; the return is each player's total.

By symmetry a uniformly random bid ties with probability 1/13 in every round, so the expected
discarded value is 91/13 = 7 and each player's expected total is (91 - 7) / 2 = 42.
"""
from __future__ import annotations

import math
import random

import pytest

from .. import openspiel_compare as compare
from ..openspiel_compare import assert_close, summarize

N_CARDS = 13


def reference_game(rng: random.Random):
    prizes = list(range(1, N_CARDS + 1))
    hands = [list(range(1, N_CARDS + 1)) for _ in range(2)]
    points = [0, 0]
    while prizes:
        prize = prizes.pop(rng.randrange(len(prizes)))
        bids = [hand.pop(rng.randrange(len(hand))) for hand in hands]
        if bids[0] != bids[1]:
            points[0 if bids[0] > bids[1] else 1] += prize
    return points


def stats(samples):
    """Mean points of each seat and seat 0's win rate (a strict win: ties are nobody's)."""
    return summarize({
        "points0": [s[0] for s in samples],
        "points1": [s[1] for s in samples],
        "win0": [1.0 if s[0] > s[1] else 0.0 for s in samples],
    })


def sample_pyspiel(n: int, seed: int):
    return compare.sample_pyspiel(
        f"goofspiel(num_cards={N_CARDS},points_order=random,returns_type=total_points)", n, seed,
        lambda state: [int(round(r)) for r in state.returns()])


def assert_expected_mean(s, z: float):
    for name in ("points0", "points1"):
        m, var, n = s[name]
        assert abs(m - 42) <= z * math.sqrt(var / n), (name, m)


def test_reference_total_is_91_minus_ties():
    rng = random.Random(3)
    for _ in range(200):
        points = reference_game(rng)
        assert sum(points) <= 91 and all(p >= 0 for p in points)


def _check(n: int, z: float):
    mine = stats(compare.sample_meeplang("goofspiel", n, seed=1))
    ref = stats(compare.sample_reference(reference_game, n, seed=2))
    assert_expected_mean(mine, z)
    assert_expected_mean(ref, z)
    assert_close(mine, ref, z, f"goofspiel, meeplang vs reference, {n} games")


def _check_pyspiel(n: int, z: float):
    mine = stats(compare.sample_meeplang("goofspiel", n, seed=1))
    theirs = stats(sample_pyspiel(n, seed=4))
    assert_close(mine, theirs, z, f"goofspiel, meeplang vs pyspiel, {n} games")


def test_goofspiel_statistics_match_the_reference_2000_games():
    _check(2000, 5.0)


def test_goofspiel_statistics_match_pyspiel_2000_games():
    _check_pyspiel(2000, 5.0)


@pytest.mark.slow
def test_goofspiel_statistics_match_the_reference_10000_games():
    _check(10_000, 4.0)


@pytest.mark.slow
def test_goofspiel_statistics_match_pyspiel_10000_games():
    _check_pyspiel(10_000, 4.0)
