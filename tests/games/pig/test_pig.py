"""Pig (OpenSpiel's pig(players=2, winscore=100, horizon=1000)) played by the engine."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import play_game


@pytest.fixture(scope="module")
def pig():
    return load_game("pig")


def test_pig_declares_what_openspiel_has(pig):
    assert (pig.min_players, pig.max_players) == (2, 10)
    assert pig.options["target"].default == 100
    assert pig.options["horizon"].default == 1000
    assert set(pig.actions) == {"roll", "stop"}
    assert pig.warnings == ()


def test_player_zero_starts(pig):
    """OpenSpiel's pig: player 0 moves first."""
    for players in (2, 3):
        assert Engine(pig, players, 0).start().player == 0


@pytest.mark.parametrize("agents", ["random", "first", "random,first"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pig_finishes_with_a_legal_result(pig, agents, players):
    for seed in range(15):
        e = play_game(pig, players, seed, agents)
        scores, winners = e.result["scores"], e.result["winners"]
        assert len(scores) == players
        assert e.state["counters"]["moves"] <= 1000
        # the game ends when a stop reaches the target, or at the horizon with no winner
        if winners:
            assert len(winners) == 1 and scores[winners[0]] >= 100
            assert all(s < 100 for p, s in enumerate(scores) if p != winners[0])
        else:
            assert e.state["counters"]["moves"] == 1000
            assert all(s < 100 for s in scores)


def test_pig_with_greedy_agents_finishes(pig):
    for seed in range(2):
        e = play_game(pig, 2, seed, "greedy")
        assert e.result["winners"] or e.state["counters"]["moves"] == 1000


def test_rolling_is_legal_only_below_the_target_and_a_one_ends_the_turn(pig):
    for seed in range(20):
        e = Engine(pig, 3, seed)
        d = e.start()
        while d is not None:
            s = e.state
            total = s["players"][d.player]["points"] + s["counters"]["turn_total"]
            assert d.labels == (["roll", "stop"] if total < 100 else ["stop"])
            before = len(e.events)
            d = e.choose(seed % len(d.options) if len(d.options) > 1 else 0)
            rolls = [ev for ev in e.events[before:] if ev["event"] == "roll"]
            if rolls and rolls[0]["value"] == 1 and d is not None:
                assert s["counters"]["turn_total"] == 0
                assert d.player == (rolls[0]["player"] + 1) % 3


@pytest.mark.parametrize("target", [1, 10, 30])
def test_option_target(pig, target):
    for seed in range(10):
        e = play_game(pig, 2, seed, "random", options={"target": target})
        scores, winners = e.result["scores"], e.result["winners"]
        assert winners == [p for p in range(2) if scores[p] >= target]
        assert len(winners) == 1


def test_option_horizon_stops_the_game_without_a_winner(pig):
    # `first` always rolls while it may; 5 rolls bank nothing
    e = play_game(pig, 2, 0, "first", options={"horizon": 5})
    assert e.state["counters"]["moves"] == 5
    assert len(e.choices) == 5
    assert e.result["scores"] == [0, 0]
    assert e.result["winners"] == []


def test_target_bounds_are_checked(pig):
    with pytest.raises(UsageError):
        Engine(pig, 2, options={"target": 0})
    with pytest.raises(UsageError):
        Engine(pig, 11)


def test_always_stopping_never_scores(pig):
    e = Engine(pig, 2, 0)
    d = e.start()
    while d is not None:
        d = e.choose(d.labels.index("stop"))
    assert e.result["scores"] == [0, 0]
    assert e.result["winners"] == []
    assert len(e.choices) == 1000
    assert not any(ev["event"] == "roll" for ev in e.events)


def test_the_short_variant_is_to_50_for_two_to_four():
    """variants/short.yaml: a quicker game for 2 to 4 players, first to 50."""
    short = load_game("pig", "short")
    assert (short.min_players, short.max_players) == (2, 4)
    with pytest.raises(UsageError):
        Engine(short, 5)
    e = play_game(short, 2, 0, "random")
    assert max(e.result["scores"]) >= 50 and short.options["target"].default == 50
