"""New Eden: whole games for 2, 3 and 4 players and both solo modes, with the random and first
agents (and the greedy one), finishing without error and with every invariant (structural, and
declared in game.yaml) holding after every decision."""
from __future__ import annotations

import pytest

from meeplang.interpreter.agents import GreedyAgent

from ..state import play_with_invariants
from .helpers import game, labels, me, pass_all, play, start

TARGETS = [(None, 2), (None, 3), (None, 4), ("solo", 1), ("solo-hard", 1)]


def play_checked(variant, players, seed, agents, options=None):
    return play_with_invariants(game(variant), players, seed, agents, options)


def finished(e, players):
    r = e.result
    assert r is not None and len(r["scores"]) == e.n
    assert r["winners"] and all(0 <= w < e.n for w in r["winners"])
    s = e.state
    # three rounds were played: six bonus cards used, no card left on any board or in any hand
    assert len(s["zones"]["bonus_used"]) == 6 and s["zones"]["bonus_display"] == []
    assert s["zones"]["board_a"] == [] and s["zones"]["module_supply"] == []
    for key, items in s["zones"].items():
        if key.startswith(("market_row", "lot", "offer", "bought", "row_marker")):
            assert items == [], key
    assert len(s["zones"]["marker_supply"]) == 4
    best = max(r["scores"])
    assert all(r["scores"][w] == best for w in r["winners"])


@pytest.mark.parametrize("agents", ["random", "first"])
@pytest.mark.parametrize("variant, players", TARGETS)
def test_full_games(variant, players, agents):
    for seed in range(3):
        finished(play_checked(variant, players, seed, agents), players)


def test_the_greedy_agent_at_the_black_market():
    """The greedy agent's secret-round lookahead copes with the free actions offered beside the
    secret purchase (it once replayed a free action's index on the decision asked again)."""
    e = start(2)
    pass_all(e)
    d = e.decision
    assert d.secret and d.labels[-1].startswith("build_extension") and me(e)["coins"] >= 6
    assert 0 <= GreedyAgent(d.player, 0).choose(e, d, None) < len(d.options)


# The greedy agent's lookahead in a secret round keeps its own earlier free actions of that round
# (the power plant before choosing) and guesses only the others' hidden picks.
@pytest.mark.parametrize("variant, players", TARGETS)
def test_full_game_with_the_greedy_agent(variant, players):
    finished(play_checked(variant, players, 7, "greedy,random"), players)


@pytest.mark.parametrize("options", [
    {"overflow_loss": "per_point"}, {"stability_max": 14},
    {"repair_tile_counts_as_octopus": False}, {"coins_score_on_collapse": False},
    {"bonus_per_module": False}, {"discard_collapses": False}, {"locked_on_arrival": True},
    {"free_actions_in_auctions": True}])
def test_full_games_with_the_other_readings(options):
    for players in (2, 3, 4):
        finished(play_checked(None, players, 11, "random", options), players)


def test_free_actions_during_the_auctions_change_the_bids_offered():
    """With free_actions_in_auctions, an extension built while bidding lowers the bids offered."""
    e = start(3, free_actions_in_auctions=True)
    pass_all(e)
    play(e, "[]", "[]", "[]")
    play(e, "1")                                             # seat 0 chooses row 1 and opens
    assert e.decision.kind == "bid" and "10" in labels(e)
    play(e, "build_extension extension#0.1")                 # 6 coins: 4 left
    assert me(e)["coins"] == 4
    assert [t for t in labels(e) if t.isdigit()] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("options", [
    {"dt_bid_rounding": "down"}, {"dt_row_damage": False}, {"dt_bids_on_empty_row": False}])
def test_solo_games_with_the_other_readings(options):
    finished(play_checked("solo", 1, 5, "random", options), 1)


@pytest.mark.slow
@pytest.mark.parametrize("variant, players", TARGETS)
def test_many_full_games(variant, players):
    for seed in range(100, 140):
        for agents in ("random", "first,random"):
            finished(play_checked(variant, players, seed, agents), players)
