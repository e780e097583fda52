"""Otys: whole games for 2, 3 and 4 players with the random and greedy agents finish without
error, with every invariant (structural, and those of game.yaml: 8 divers in each queue, dig zones
within 3/3/4/5/6, every cube counted) holding after every decision. The quick tier plays one
2-player game (the greedy agent plays quick in test_solo.py); the rest is slow."""
from __future__ import annotations

import pytest

from ..state import play_with_invariants
from .helpers import game

CAPACITIES = {1: 3, 2: 3, 3: 4, 4: 5, 5: 6}


def play_checked(variant, players, seed, agents, options=None):
    return play_with_invariants(game(variant), players, seed, agents, options)


def finished(e):
    """The game ended at the end of a round in which a player reached 18 (FR l.347), and the
    winners have the best score, ties broken by the cubes in the dig zones (FR l.349)."""
    r, s = e.result, e.state
    assert r is not None and max(r["scores"]) >= 18
    best = max(r["scores"])
    assert all(r["scores"][w] == best for w in r["winners"])
    tied = [p for p in range(e.n) if r["scores"][p] == best]
    cubes = [sum(len(s["zones"][f"dig[{l}]@{p}"]) for l in CAPACITIES) for p in range(e.n)]
    assert set(r["winners"]) == {p for p in tied if cubes[p] == max(cubes[q] for q in tied)}
    for p in range(e.n):
        assert len(s["zones"][f"queue@{p}"]) == 8
        assert all(len(s["zones"][f"dig[{l}]@{p}"]) <= c for l, c in CAPACITIES.items())


def test_full_game():
    """The quick tier: one game; `meeplang check --deep` (tests/test_deep_check.py) already plays
    every variant and player count with the invariants checked."""
    finished(play_checked(None, 2, 1, "random"))


@pytest.mark.slow
@pytest.mark.parametrize("variant, players, seed, agents", [
    (None, 2, 1, "greedy,random"), (None, 4, 1, "random"), ("advanced", 3, 4, "random"),
    (None, 3, 4, "random"), ("author", 4, 4, "random")])
def test_full_game_more(variant, players, seed, agents):
    finished(play_checked(variant, players, seed, agents))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2, 7))
def test_full_games_many_seeds(players, seed):
    for variant in [None, "advanced", "author"]:
        finished(play_checked(variant, players, seed, "random"))


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_full_games_greedy_many(players):
    finished(play_checked(None, players, 5, "greedy"))
