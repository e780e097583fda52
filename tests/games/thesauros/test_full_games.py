"""Thesauros: whole games for 2, 3 and 4 players with the random and greedy agents, finishing
without error, with every invariant (structural, and those of game.yaml: money never negative in
any account, every meeple counted, each dig-site cell in one place, 9 quadrimesters at most)
holding after every decision."""
from __future__ import annotations

import pytest

from meeplang.interpreter.engine import Engine

from ..state import play_with_invariants
from .helpers import game


def play_checked(players: int, seed: int, agents: str, variant: str | None = None) -> Engine:
    return play_with_invariants(game(variant), players, seed, agents)


def finished(e: Engine, players: int) -> None:
    r = e.result
    assert r is not None and len(r["scores"]) == players
    assert 1 <= e.state["counters"]["quad"] <= 9 and e.state["counters"]["year"] <= 3
    best = max(r["scores"])
    assert r["winners"] and all(r["scores"][w] == best for w in r["winners"])
    places = sorted(p["place"] for p in e.state["players"])
    assert places == list(range(1, players + 1))      # the Zone 10 track stays a turn order


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_games_random(players):
    finished(play_checked(players, 0, "random"), players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_game_greedy(players):
    agents = ",".join(["greedy"] + ["random"] * (players - 1))
    finished(play_checked(players, 7, agents), players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_games_many_seeds(players):
    for seed in range(1, 12):
        finished(play_checked(players, seed, "random"), players)
        finished(play_checked(players, seed, "first"), players)
