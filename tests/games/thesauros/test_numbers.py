"""Thesauros: the rulebook's numbers that no worked example reaches, each pinned by a test that
plays (or reads) the rule holding it: change the number in tables.yaml and its test fails."""
from __future__ import annotations

from pathlib import Path

import pytest

from meeplang.dsl.mutation import game_mutants

from .helpers import accounts, at, counter, drive, formula, item, items_of, labels, me, play, put, start, zone
from .test_rulebook import _at_sea, _line_up, _posting, _to_zone_5


def test_min_bribe_is_2():
    """EN l.1022: "The minimum amount is $2"; a posted envelope bids $0 (and loses 1 RP) or $2+."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 0})
    drive(e, at("secret bid"), answer=_posting({0: 1}))
    assert labels(e)[:3] == ["0", "2", "3"]


def test_fishing_space_earns_2():
    """EN l.756: a zodiac stopping on a large fishing space earns $2 (into an account chosen)."""
    e = start(2)
    drive(e, lambda e: counter(e, "quad") >= 2, budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    zodiac = _at_sea(e, 0, 1, [])
    item(e, zodiac)["at"] = "a2"                          # next to the fishing space f1 (sample sea)
    _to_zone_5(e, "0.1")
    rd = accounts(e, 0)["rd"]
    play(e, "sail f1", "rd")
    assert accounts(e, 0)["rd"] == rd + 2


def test_the_second_store_zodiac_costs_8():
    """EN l.887: the two store spaces cost $6 and $8 from ME, each with 1 RP at once."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    drive(e, lambda e: e.decision.kind == "may one of" and "buy_zodiac" in labels(e),
          answer=_line_up(e, {0: [("0.2", "7"), ("0.3", "7"), ("0.1", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    rp = me(e, 0)["rp"]
    play(e, "buy_zodiac")
    play(e, labels(e)[0])
    assert accounts(e, 0)["me"] == 20 - 6
    drive(e, lambda e: e.decision.kind == "may one of" and "buy_zodiac" in labels(e))
    play(e, "buy_zodiac")
    play(e, labels(e)[0])
    assert accounts(e, 0)["me"] == 20 - 6 - 8 and me(e, 0)["rp"] == rp + 2


def test_nine_found_item_tiles_on_the_island():
    """EN l.309: 9 of the 12 Found Item tiles go on the island, the other 3 back in the box."""
    e = start(2)
    assert len(zone(e, "island")) == 9
    assert len([x for x in zone(e, "box") if x.startswith("island_tile#")]) == 3


def test_scoring_storeroom_1_and_shark_2():
    """EN l.1150, 1159: 1 point per treasure in the storeroom, 2 per shark killed."""
    e = start(2)
    before = formula(e, "final_points(you)")
    treasure = items_of(e, "cell", shark=False)[0]
    put(e, treasure, "storeroom")
    item(e, treasure)["seller"] = 0
    assert formula(e, "final_points(you)") == before + 1
    put(e, items_of(e, "cell", shark=True)[0], "cold_room@0")
    assert formula(e, "final_points(you)") == before + 1 + 2


def test_a_collection_needs_3_maps():
    """EN l.1164: 2 more points for each collection of at least 3 tiles of one number: two #2
    maps are 2 points, three are 3 + 2."""
    e = start(2)
    before = formula(e, "final_points(you)")
    twos = items_of(e, "map", number=2)
    put(e, twos[0], "maps@0")
    put(e, twos[1], "maps@0")
    assert formula(e, "final_points(you)") == before + 2
    put(e, twos[2], "maps@0")
    assert formula(e, "final_points(you)") == before + 3 + 2


@pytest.mark.parametrize("players, points", [(2, [2, 0]), (3, [4, 2, 1]), (4, [4, 2, 1, 0])])
def test_turn_order_points_by_player_count(players, points):
    """EN l.1121-1123: 4, 2, 1, 0 RP at 4 players; 4, 2, 1 at 3; 2 and 0 at 2, by the Zone 10
    track at the end of years 1 and 2 (and in the final scoring)."""
    e = start(players)
    assert [formula(e, f"influence(players[{s}])") for s in range(players)] == points
    drive(e, lambda e: counter(e, "year") == 2)      # every seat played alike (the plain policy)
    rp = [me(e, s)["rp"] for s in range(players)]
    assert [r - rp[-1] for r in rp] == [p - points[-1] for p in points]


def test_year_3_income_is_10_plus_5_a_map():
    """EN l.360: at the beginning of the 3rd year, $10 plus $5 per Treasure Map tile."""
    e = start(2)
    put(e, items_of(e, "map", number=1)[0], "maps@0")
    drive(e, lambda e: counter(e, "year") == 3)
    assert formula(e, "income_of(players[0])") == 15 and formula(e, "income_of(players[1])") == 10


@pytest.mark.parametrize("players, highest", [(2, 5), (3, 7), (4, 7)])
def test_maps_6_and_7_stay_in_the_box_at_2_players(players, highest):
    """FR l.282: at 1 or 2 players the treasure maps #6 and #7 stay in the box."""
    e = start(players)
    numbers = {item(e, x)["number"] for x in items_of(e, "map") if x not in zone(e, "box")}
    assert max(numbers) == highest


@pytest.mark.parametrize("players, shown", [(2, 5), (3, 9), (4, 9)])
def test_flea_market_maps_at_setup(players, shown):
    """EN l.284-285: 9 maps on the Flea Market track for 3 or 4 players, 5 for 1 or 2."""
    e = start(players)
    assert sum(len(zone(e, f"price_space[{s}]")) for s in range(1, 11)) == shown


@pytest.mark.parametrize("money, points", [(49, 4), (50, 5)])
def test_one_point_per_full_10_dollars(money, points):
    """EN l.1168: 1 point per unspent $10, the Slush Fund included."""
    e = start(2)
    before = formula(e, "final_points(you)") - formula(e, "sum(accounts) // money_per_point")
    for a in ("hr", "rd", "ge", "me"):
        me(e, 0)[f"accounts[{a}]"] = 0
    me(e, 0)["accounts[sf]"] = money
    assert formula(e, "final_points(you)") - before == points


def test_the_game_ends_after_the_salaries_of_q9():
    """EN l.1137-1140: the game ends after the Salaries of the 9th quadrimester: its Maintenance
    does not run, so a meeple that went to the zodiac store in Q9 is still there."""
    e = start(2)
    drive(e, lambda e: counter(e, "quad") == 9 and e.decision.kind == "action",
          budget={"hr": 30, "rd": 0, "ge": 0, "me": 10})
    drive(e, lambda e: e.decision.kind == "may one of" and "buy_zodiac" in labels(e),
          answer=_line_up(e, {0: [("0.2", "7"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    play(e, "buy_zodiac")
    play(e, labels(e)[0])
    drive(e, lambda e: False)
    assert e.result is not None and counter(e, "quad") == 9
    assert zone(e, "zodiac_store") == ["meeple#0.2"]


def test_the_board_values_lost_with_the_images_are_labelled_sample():
    """Values no rulebook line gives are listed under `sample:` (README, "Sample data"), so the
    mutation harness leaves them out and an owner of the game replaces them: the Flea Market's
    10 spaces, Zone 9's 5 spaces (Zone 6's 3 are FR l.853: $1, $2, 1 RP), the $2 compensation
    on the 1/2-player board (EN l.350 gives the 3-4 player side's $2/$4/$6) and solo's 5 cube
    spaces in Zone 2 (FR l.1604 counts them, the images placed them)."""
    found = game_mutants(Path(__file__).parents[3] / "games" / "thesauros")

    def whats(mutants, file, key):
        return {m.what for m in mutants if m.file.name == file
                and m.file.read_text(encoding="utf-8").split("\n")[m.line - 1].lstrip().startswith(key)}
    sample, live = found.sample, found.live
    assert whats(sample, "tables.yaml", "price_spaces:") and not whats(live, "tables.yaml", "price_spaces:")
    assert "5 -> 6" in whats(sample, "tables.yaml", "track_end:")
    assert "3 -> 4" in whats(live, "tables.yaml", "track_end:")
    assert whats(sample, "tables.yaml", "2: [0, 2]") and not whats(live, "tables.yaml", "2: [0, 2]")
    assert "2 -> 3" in whats(live, "tables.yaml", "4: [0, 2, 4, 6]")
    assert whats(sample, "solo.yaml", "virtual_spaces:") and not whats(live, "solo.yaml", "virtual_spaces:")
