"""Goofspiel (OpenSpiel's goofspiel(num_cards=13, points_order=random, returns_type=total_points))
played by the engine."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import play_game


@pytest.fixture(scope="module")
def goof():
    return load_game("goofspiel")


def value(e, item):
    return e.state["items"][item]["value"]


def check_finished(e, num_cards=13):
    """Everything a finished game must satisfy, recomputed from the state and the reveals."""
    s = e.state
    z = s["zones"]
    prizes = [f"prize#{i}" for i in range(1, num_cards + 1)]
    won = {p: z[f"won@{p}"] for p in (0, 1)}
    assert sorted(won[0] + won[1] + z["discard"]) == sorted(prizes)
    assert z["prizes"] == [] and z["prize_shown"] == []
    for p in (0, 1):
        assert z[f"hand@{p}"] == []
        assert sorted(z[f"played@{p}"]) == sorted(f"bid_card#{p}.{i}"
                                                  for i in range(1, num_cards + 1))
        assert s["players"][p]["points"] == sum(value(e, x) for x in won[p])
    assert e.result["scores"] == [s["players"][0]["points"], s["players"][1]["points"]]
    reveals = [ev["values"] for ev in e.events if ev["event"] == "reveal"]
    assert len(reveals) == num_cards
    ties = sum(value(e, a) == value(e, b) for a, b in reveals)
    assert ties == len(z["discard"])
    # each round the higher bid took the prize: the played piles give the bids in order
    for rnd, (a, b) in enumerate(reveals):
        assert z["played@0"][rnd] == a and z["played@1"][rnd] == b
    top = max(e.result["scores"])
    assert e.result["winners"] == [p for p in (0, 1) if e.result["scores"][p] == top]


@pytest.mark.parametrize("agents", ["random", "first", "first,random"])
def test_goofspiel_finishes_consistently(goof, agents):
    for seed in range(20):
        e = play_game(goof, 2, seed, agents)
        assert len(e.choices) == 26
        check_finished(e)


def test_goofspiel_with_greedy_agents(goof):
    for seed in range(2):
        check_finished(play_game(goof, 2, seed, "greedy,random"))


def test_equal_bids_every_round_discard_every_prize(goof):
    e = play_game(goof, 2, 5, "first")  # both always bid their lowest card
    assert e.result["scores"] == [0, 0]
    assert e.result["winners"] == [0, 1]
    assert len(e.state["zones"]["discard"]) == 13


def test_the_higher_bid_takes_the_prize(goof):
    e = Engine(goof, 2, seed=8)
    d = e.start()
    while d is not None:
        # seat 1 bids its lowest card (1, 2, ..., 13); seat 0 its second lowest (2, 3, ..., 13)
        # and its 1 at the end: seat 0 wins the first 12 rounds, seat 1 the last one
        d = e.choose(1 if d.player == 0 and len(d.options) > 1 else 0)
    check_finished(e)
    assert e.state["zones"]["discard"] == []
    (last,) = e.state["zones"]["won@1"]
    assert e.result["scores"] == [91 - value(e, last), value(e, last)]
    assert e.state["zones"]["played@0"][-1] == "bid_card#0.1"
    assert e.state["zones"]["played@1"][-1] == "bid_card#1.13"


def test_each_round_reveals_one_prize_and_asks_both_players(goof):
    e = Engine(goof, 2, seed=3)
    d = e.start()
    seen = []
    while d is not None:
        shown = e.state["zones"]["prize_shown"]
        assert len(shown) == 1
        seen.append((shown[0], d.player, d.secret))
        assert d.labels == e.state["zones"][f"hand@{d.player}"]
        d = e.choose(0)
    assert [p for _, p, _ in seen] == [0, 1] * 13
    assert all(secret for _, _, secret in seen)
    assert len({prize for prize, _, _ in seen}) == 13


@pytest.mark.parametrize("num_cards", [1, 2, 5, 20])
def test_option_num_cards(goof, num_cards):
    for seed in range(5):
        e = play_game(goof, 2, seed, "random", options={"num_cards": num_cards})
        assert len(e.choices) == 2 * num_cards
        check_finished(e, num_cards)


def test_prize_order_varies_with_the_seed(goof):
    firsts = set()
    for seed in range(40):
        e = Engine(goof, 2, seed=seed)
        e.start()
        firsts.add(e.state["zones"]["prize_shown"][0])
    assert len(firsts) >= 8  # 13 equally likely first prizes


def test_goofspiel_is_for_two_players_only(goof):
    with pytest.raises(UsageError) as info:
        Engine(goof, 3)
    assert info.value.message == "goofspiel is for 2 players, not 3"
    with pytest.raises(UsageError):
        Engine(goof, 2, options={"num_cards": 0})
