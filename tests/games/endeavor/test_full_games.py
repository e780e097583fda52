"""Endeavor: Deep Sea: whole games for every competitive player count (2-5, Endeavor FR
l.996-1003), with the random and greedy agents, finishing without error and with every invariant
(structural, and declared in game.yaml) holding after every decision. More seeds are slow."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError
from meeplang.interpreter.engine import Engine

from ..state import play_with_invariants
from .helpers import game


def play_checked(variant, players, seed, agents, options=None):
    return play_with_invariants(game(variant), players, seed, agents, options)


def finished(e, players, rounds=6):
    """The game ended after its rounds with the components where the rules leave them."""
    r = e.result
    assert r is not None and len(r["scores"]) == players
    if e.game.variant is None:
        best = max(r["scores"])
        assert r["winners"] == [p for p in range(players) if r["scores"][p] == best]   # ties share
    s = e.state
    for p in range(players):
        team = s["zones"][f"team@{p}"]
        assert len(team) <= rounds + 1                # the Team Leader and one recruit a round
        assert len(s["zones"][f"dive_tokens@{p}"]) <= 1
        assert len(s["zones"][f"subs@{p}"]) + len(s["zones"][f"sub_supply@{p}"]) == 3


@pytest.mark.parametrize("variant, refused", [(None, 1), (None, 6), ("coop", 1), ("coop", 6),
                                               ("solo", 2)])
def test_player_counts(variant, refused):
    """The Co-Op bands run from "1j" to "5j" (FR l.996-1003) and solo is Co-Op with one player
    (FR l.1026): the competitive and Co-Op games are for 2 to 5 players, solo for 1 (README)."""
    with pytest.raises(UsageError, match=f"not {refused}"):
        Engine(game(variant), refused, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_full_games_random(players):
    finished(play_checked(None, players, players, "random"), players)


@pytest.mark.parametrize("variant, players, rounds", [("coop", 3, 6), ("solo", 1, 7)])
def test_full_games_coop_and_solo(variant, players, rounds):
    e = play_checked(variant, players, 2, "random")
    finished(e, players, rounds)
    assert e.result["winners"] in ([], list(range(players)))      # the group wins or loses


def test_full_game_greedy_two_players():
    finished(play_checked(None, 2, 1, "greedy,random"), 2)


@pytest.mark.slow
@pytest.mark.parametrize("variant, players", [(None, 2), (None, 3), (None, 4), (None, 5),
                                              ("coop", 2), ("coop", 4), ("coop", 5), ("solo", 1)])
@pytest.mark.parametrize("agents", ["random", "greedy"])
def test_full_games_more_seeds(variant, players, agents):
    for seed in range(10, 13):
        finished(play_checked(variant, players, seed, agents), players, 7 if variant == "solo" else 6)


def test_a_dive_token_spent_inside_a_discover_no_longer_stops_the_game():
    """The game of `meeplang simulate endeavor-deep-sea --players 3 -n 200` that stopped (game
    177): a Sonar dive token spent at a Discover's draw filled the space that Discover needed
    ("cannot keep 1 of the 2 drawn"). Free actions wait until the action is resolved (FR
    l.336-337), so the game ends."""
    finished(play_checked(None, 3, 469835129697, "random"), 3)
