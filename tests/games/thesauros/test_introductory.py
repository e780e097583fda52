"""Thesauros, the introductory game (EN l.1662-1702, FR l.1657-1696): its setup, its Slush Fund
transfers, and whole games for 2, 3 and 4 players with every invariant after every decision."""
from __future__ import annotations

import pytest

from .helpers import at, drive, formula, item, labels, start, zone
from .test_full_games import finished, play_checked

INTRO = "introductory"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_introductory_setup(players):
    """$55 plus the compensation (EN l.1692); Mask, then the two other level-0 intro cards face up,
    deck A (the 4 blue-diver cards) on top of deck B (EN l.1674-1680); maps #1-#4 on the $4-$7
    spaces, then the others at random up to 9 (5 at 2 players) (EN l.1684-1688). With 2 players
    the standard game lays only 5 random maps, so some of #1-#4 are missing for some seed."""
    e = start(players, variant=INTRO)
    assert labels(e)[-1] == "55"
    row = [item(e, x)["name"] for x in zone(e, "tech_row")]
    assert row[0] == "mask" and sorted(row[1:]) == ["booster_engine", "harpoon"]
    deck = [item(e, x)["intro"] for x in zone(e, "tech_deck")]
    assert deck == ["a"] * 4 + ["b"] * 8
    track = {s: [item(e, x)["number"] for x in zone(e, f"price_space[{s}]")] for s in range(1, 11)}
    assert sum(len(v) for v in track.values()) == (5 if players == 2 else 9)
    on_track = {n for v in track.values() for n in v}
    assert {1, 2, 3, 4} <= on_track                 # laid first; a later copy only moves them


def test_introductory_slush_fund_is_a_transfer_source():
    """EN l.1702, FR l.417: in the introductory game money may leave the Slush Fund for another
    account (the year's fee paid); in the standard game it never does (EN l.401)."""
    for variant, money, reach in ((INTRO, 55, 55 - 1), (None, 50, 0)):
        e = start(2, variant=variant)
        drive(e, at("action"), budget={"hr": 0, "rd": 0, "ge": 0, "me": 0})
        assert formula(e, 'accounts["sf"]') == money
        assert formula(e, 'funds(accounts["hr"])') == reach


@pytest.mark.parametrize("players", [2, 3, 4])
def test_introductory_full_games(players):
    finished(play_checked(players, 1, "random", INTRO), players)


def test_the_standard_game_draws_every_map_at_random():
    def numbers(e):
        return {item(e, x)["number"] for k in range(1, 11) for x in zone(e, f"price_space[{k}]")}
    assert any(not {1, 2, 3, 4} <= numbers(start(2, seed=s)) for s in range(6))
