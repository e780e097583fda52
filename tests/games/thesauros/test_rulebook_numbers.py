"""Thesauros: the rulebook numbers written in the rules of game.yaml and the variants (counts,
RP awards, limits, the calendar) that neither a worked example nor test_numbers.py reaches,
each pinned by a position played through the rules (benchmarks/mutation.py changes the number;
its test fails). The README's "Pinned numbers" lists the lines and the passes."""
from __future__ import annotations

import pytest

from .helpers import (accounts, at, counter, drive, formula, in_quadrimester, item, labels, me, play, put,
                      start, supply, zone)
from .test_lawless import do_trick, hire
from .test_rulebook import _line_up
from .test_solo import _open_every_room_in, solo


def recruit_into_zone_6(e) -> None:
    """The meeple whose turn it is in Zone 1 recruits; no envelope; the recruit goes to Zone 6."""
    play(e, "recruit", "skip", "6")


def test_the_2nd_recruit_brings_the_double_action_tile_the_3rd_1_rp():
    """EN l.543-547 (FR l.526-534): "No bonus if it is the 1st; the Double Action tile that was
    underneath if it is the 2nd; 1 Reputation point if it is the 3rd"."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 30, "rd": 0, "ge": 0, "me": 0})
    lines = {0: [("0.1", "1"), ("0.2", "1"), ("0.3", "6")], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e), answer=_line_up(e, lines))
    seen = []
    for _ in range(2):
        recruit_into_zone_6(e)
        seen.append((me(e, 0)["double_tiles"], me(e, 0)["rp"]))
    drive(e, at("action"))                                # Q2: the Boss recruits the 3rd
    lines = {0: [("0.1", "1")] + [(f"0.{n}", "6") for n in range(2, 6)],
             1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e), answer=_line_up(e, lines))
    rp = me(e, 0)["rp"]
    recruit_into_zone_6(e)
    seen.append((me(e, 0)["double_tiles"], me(e, 0)["rp"] - rp))
    assert seen == [(0, 10), (1, 10), (1, 1)]
    assert zone(e, "recruits@0") == []


def test_the_zodiac_store_has_two_spaces():
    """EN l.887 (FR l.869): "Move the meeple to one of the two available spaces in the Zodiac
    store": at 4 players, a third meeple of the pontoon finds the store full."""
    e = start(4)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 30})
    lines = {s: [(f"{s}.{n}", "7" if s == 0 else "6") for n in (1, 2, 3)] for s in range(4)}
    drive(e, lambda e: e.decision.kind == "may one of" and "buy_zodiac" in labels(e), answer=_line_up(e, lines))
    for _ in range(2):
        play(e, "buy_zodiac")
        play(e, labels(e)[0])
    assert accounts(e, 0)["me"] == 30 - (6 - 2) - 8         # the Boss's $2 off the first
    assert e.decision.player == 0 and "go_to_sea" in labels(e) and "buy_zodiac" not in labels(e)


def test_the_turn_order_is_scored_at_the_end_of_years_1_and_2():
    """EN l.1117 (FR l.1102): "Each of the first two years ends with a Reputation Point scoring
    phase": at 3 players 4/2/1 twice by the start of year 3, every seat having played alike."""
    e = start(3)
    drive(e, lambda e: counter(e, "year") == 3)
    rp = [me(e, s)["rp"] for s in range(3)]
    assert [r - rp[-1] for r in rp] == [2 * 3, 2 * 1, 0]


def test_the_double_action_tile_gives_one_second_action_once():
    """EN l.440-442 (FR l.443, 538): the tile placed under a meeple lets it "play a 2nd action in
    the same Zone"; "This single-use token" then goes to the box. Red recruits twice in Q1 (the
    2nd brings the tile, kept in the rest area), puts it under its first meeple of Q2: 5 meeples fish 6 times in Q2,
    5 in Q3, and the tile is never offered again."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 30, "rd": 0, "ge": 0, "me": 0})
    lines = {0: [("0.1", "1"), ("0.2", "1"), ("0.3", "6")], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e), answer=_line_up(e, lines))
    recruit_into_zone_6(e)
    recruit_into_zone_6(e)
    offered, fished = [], {1: 0, 2: 0, 3: 0}

    def answer(e):
        d = e.decision
        if d.player == 0 and d.kind == "may put_double_tile":
            offered.append(counter(e, "quad"))
            return "put_double_tile" if counter(e, "quad") > 1 else "skip"   # kept in Q1 (FR l.532)
        if d.player == 0 and "fish_mussels" in d.labels:
            fished[counter(e, "quad")] += 1
        return None
    drive(e, in_quadrimester(4), answer=answer)
    assert offered == [1, 2] and fished == {1: 3, 2: 6, 3: 5}
    assert me(e, 0)["double_tiles"] == 0


def test_zone_4_takes_no_meeple_in_q1_only():
    """EN l.696 (FR l.676): "In the game's 1st Quadrimester [...] You must skip the resolution of Zone
    4": its line is not offered in Q1 (README, readings), and is from Q2 on."""
    e = start(2)
    drive(e, at("choose z"))
    assert labels(e) == ["1", "2", "3", "6", "7", "8", "9"]
    drive(e, lambda e: counter(e, "quad") == 2 and e.decision.kind == "choose z")
    assert labels(e) == ["1", "2", "3", "4", "6", "7", "8", "9"]


def test_the_boss_looks_at_2_island_tiles_and_keeps_1():
    """EN l.931 (FR l.911): "The advantage of the Boss or a SW #5/7 is that you can secretly
    choose one tile from the two you have looked at, then place the one you don't choose back"."""
    e = start(2)
    drive(e, at("action"))
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0 and "lagoon_trip" in labels(e),
          answer=_line_up(e, {0: [("0.1", "7"), ("0.2", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    island = list(zone(e, "island"))
    play(e, "lagoon_trip")
    play(e, labels(e)[0], "island", *["skip"] * len(supply(e, 0)))  # no item loaded
    assert e.decision.kind == "keep kept" and labels(e) == island[:2]
    play(e, island[1])
    assert zone(e, "island") == island[2:] + island[:1]


@pytest.mark.parametrize("left", [1, 0])
def test_no_item_is_bought_once_the_last_copy_is_sold(left):
    """EN l.575 (FR l.562): "When the cube is in the last space of the column, it means that
    there are no more of this type of Item available to buy": with one copy left the patented
    Mask can be bought and an unpatented card developed and bought; with none, only developed."""
    e = start(2)
    mask, other = zone(e, "tech_row")[:2]
    item(e, mask)["patent"] = 1
    for card in (mask, other):
        item(e, card)["sold"] = item(e, card)["stock"][2] - left
    drive(e, at("action"), budget={"hr": 20, "rd": 20, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0,
          answer=_line_up(e, {0: [("0.2", "2"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    assert f"develop {other}" in labels(e)
    assert (f"buy_item {mask}" in labels(e)) == (left == 1)
    assert (f"develop_and_buy {other}" in labels(e)) == (left == 1)


def test_one_technology_reservation_a_quadrimester_for_all_players():
    """EN l.627 (FR l.614): "This action can only be performed by one player per Quadrimester
    and with only one of his meeples": once Red has reserved, Blue's meeples behind it in the
    Zone 2 line are no longer offered the reservation."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 20, "rd": 20, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and "reserve_tech" in labels(e),
          answer=_line_up(e, {0: [("0.2", "2"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.2", "2"), ("1.1", "2"), ("1.3", "6")]}))
    assert e.decision.player == 0
    play(e, "reserve_tech", "put_hat")                     # Blue hats its worker
    for _ in range(2):                                     # Blue's worker, then its Boss
        assert e.decision.player == 1 and labels(e)[-1] == "skip" and "reserve_tech" not in labels(e)
        play(e, "skip")


@pytest.mark.parametrize("q", [2, 3, 4, 5, 6])
def test_solo_rooms_open_by_q6_score_30_more(q):
    """EN l.1634 (FR l.1630): "+30 points if the objective is achieved before the end of the 6th
    Quadrimester", whichever quadrimester before it (test_solo.py plays Q1, Q7, Q8 and Q9)."""
    e = _open_every_room_in(q)
    assert e.result is not None and counter(e, "quad") == q
    assert e.result["scores"][0] == me(e, 0)["rp"] + formula(e, "final_points(players[0])") + 30


def test_solo_no_turn_order_points_and_no_bonus_without_the_museum():
    """EN l.1629 (FR l.1625): "As there is no Zone 10, no points are awarded for the turn order":
    after year 1 the player has the 10 RP of the start and the 3 RP of Q3's mussels, and the
    virtual opponent its 10. A game that opens no room scores RP + the final points, no bonus
    (EN l.1630-1637), and the virtual opponent scores 0."""
    e = solo()
    drive(e, lambda e: counter(e, "year") == 2)
    assert [me(e, 0)["rp"], me(e, 1)["rp"]] == [10 + 3, 10]
    drive(e, lambda e: False)
    assert e.result["scores"] == [me(e, 0)["rp"] + formula(e, "final_points(players[0])"), 0]


def test_introductory_maps_1_to_4_on_the_4_to_7_dollar_spaces():
    """EN l.1684 (FR l.1679): "Start by placing one copy of each of the Treasure Maps from Zones
    1 to 4 on the $4 to $7 spaces, then complete the series": at 2 players (seed 1) the one
    map added is a #5, on the next dearer space."""
    e = start(2, 1, "introductory")
    track = [(formula(e, f"map_prices[{s}]"), [item(e, x)["number"] for x in zone(e, f"price_space[{s}]")])
             for s in range(1, 11)]
    assert [t for t in track if t[1]] == [(4, [1]), (5, [2]), (6, [3]), (7, [4]), (8, [5])]


@pytest.mark.parametrize("q, from_top", [(1, 0), (3, 1)])
def test_a_reserved_card_is_the_first_of_the_quadrimester_s_reveals(q, from_top):
    """EN l.1080-1088 (FR l.1065-1071): 1 card after Q1, 2 after Q3; "if there is a meeple on the
    deck of cards, the card (or first of two) that is to be revealed, is chosen by the player";
    "the second card revealed is the one on the top of the deck". The meeple goes back to the
    1st space of the Zone 2 line (EN l.1098)."""
    e = start(2)
    drive(e, lambda e: counter(e, "quad") == q and e.decision.kind == "action",
          budget={"hr": 20, "rd": 20, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and "reserve_tech" in labels(e),
          answer=_line_up(e, {0: [("0.2", "2"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    row, deck = list(zone(e, "tech_row")), list(zone(e, "tech_deck"))
    play(e, "reserve_tech")
    drive(e, lambda e: e.decision.kind == "search card")
    play(e, deck[-1])
    drive(e, in_quadrimester(q + 1))
    assert zone(e, "tech_row") == row + [deck[-1]] + deck[:from_top]
    assert zone(e, "line[2]") == ["meeple#0.2"]


def test_lawless_a_bid_of_the_whole_slush_fund_can_be_paid():
    """EN l.1469 (FR l.1447): only "a price that they cannot pay" costs 1 RP: Red bids all of
    its $38 Slush Fund, Blue passes; Red pays $38 and recruits the mercenary, no RP lost."""
    e = start(2, 0, "lawless")
    drive(e, lambda e: e.decision.kind == "bid" and counter(e, "quad") == 5, budget={"hr": 50})
    assert e.decision.player == 0 and accounts(e, 0)["sf"] == 38
    rp = me(e, 0)["rp"]
    play(e, "38", "out")
    assert accounts(e, 0)["sf"] == 0 and me(e, 0)["rp"] == rp and len(zone(e, "hired@0")) == 1


@pytest.mark.parametrize("score, won", [(70, False), (71, True)])
def test_solo_a_win_needs_more_than_70(score, won):
    """EN l.1639: "You only win if all three Rooms of the Museum are open to the public and your
    Reputation exceeds 70 Reputation Points" (the default `solo_target`): the 3 rooms opened in
    Q1 with 70 RP in all is no win, with 71 it is."""
    plain = _open_every_room_in(1).result["scores"][0]
    e = _open_every_room_in(1, given={"rp": 10 + score - plain})
    assert e.result["scores"][0] == score and (e.result["winners"] == [0]) == won


def test_a_meeple_that_does_not_act_costs_1_rp_at_once():
    """EN l.472 (FR l.472): "If the player doesn't want to, or cannot, carry out an action [...],
    they immediately lose a Reputation Point on the score track"."""
    e = start(2)
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0 and "fish_mussels" in labels(e))
    rp = me(e, 0)["rp"]
    play(e, "skip")
    assert me(e, 0)["rp"] == rp - 1


def test_lawless_one_double_action_tile_of_three_is_used_at_a_time():
    """EN l.442: "This single-use token" goes to the box once used: a player holding the 3 tiles
    the Zone 1 mercenary stole (EN l.1491) has 2 left after putting one under a meeple."""
    e = start(2, 0, "lawless")
    seat = hire(e, 1)
    e.state["players"][1 - seat]["double_tiles"] = 1
    do_trick(e, 1)
    assert me(e, seat)["double_tiles"] == 3
    drive(e, lambda e: e.decision.kind == "may put_double_tile" and e.decision.player == seat)
    play(e, "put_double_tile")
    assert me(e, seat)["double_tiles"] == 2


def _q1_lines(e, budget, mine, until, theirs=(("1.1", "6"), ("1.2", "6"), ("1.3", "6"))):
    """Q1 at 2 players: the budget, then Red's meeples `mine` and Blue's `theirs` to their lines;
    stops at Red's first decision offering `until`."""
    drive(e, at("action"), budget=budget)
    return drive(e, lambda e: e.decision.player == 0 and any(x.split()[0] == until for x in labels(e)),
                 answer=_line_up(e, {0: list(mine), 1: list(theirs)}))


def test_only_the_boss_recruits_for_2_less():
    """FR l.516 (EN l.528): "Seul le boss bénéficie d'une réduction de 2$ à l'embauche d'un
    ouvrier": Red's Boss on the 1st space of Zone 1 pays the space's cost less $2, Red's worker
    on the 2nd pays its cost in full, from HR (costs read from the sample `recruit_costs`)."""
    e = _q1_lines(start(2), {"hr": 30, "rd": 0, "ge": 0, "me": 0}, [("0.1", "1"), ("0.2", "1"), ("0.3", "6")],
                  "recruit")
    cost = formula(e, "recruit_costs")
    paid = []
    for _ in range(2):
        hr = accounts(e)["hr"]
        recruit_into_zone_6(e)
        paid.append(hr - accounts(e)["hr"])
    assert paid == [cost[1] - 2, cost[2]]


def test_only_the_boss_advertises_for_2_less():
    """FR l.979 (EN l.1004): "Seul le boss bénéficie d'une réduction de -2$": Red's Boss then Red's
    worker advertise in Zone 9, paying the space's cost (sample `ad_costs`) less $2, then in
    full, from GE."""
    e = _q1_lines(start(2), {"hr": 20, "rd": 0, "ge": 20, "me": 0}, [("0.1", "9"), ("0.2", "9"), ("0.3", "6")],
                  "advertise")
    cost = formula(e, "ad_costs")
    paid = []
    for _ in range(2):
        ge = accounts(e)["ge"]
        play(e, "advertise")
        paid.append(ge - accounts(e)["ge"])
    assert paid == [cost[1] - 2, cost[2]]


@pytest.mark.parametrize("hat", [True, False])
def test_the_boss_and_a_sw8_sell_to_the_museum_for_2_more(hat):
    """FR l.969 (EN l.990): "Le boss et les ouvriers "OS n°8" bénéficient d'un gain supplémentaire
    de 2$ sur la vente au musée de chaque trésor": Red's worker (hatted #8 by the Boss behind
    it, or not) then Red's Boss each sell a treasure into the storeroom; each earns its value,
    +$2 for the SW#8 and the Boss."""
    e = start(2)
    treasures = [x for x in zone(e, "seabed") if not item(e, x)["shark"]][:2]
    for x in treasures:
        put(e, x, "treasures@0")
    e = _q1_lines(e, {"hr": 20, "rd": 0, "ge": 0, "me": 0}, [("0.2", "8"), ("0.1", "8"), ("0.3", "6")],
                  "put_hat")
    play(e, "put_hat" if hat else "skip")
    earned = []
    for x in treasures:
        rd = accounts(e)["rd"]
        play(e, f"sell_treasure {x}", "0", "rd")     # into the storeroom, the money into R&D
        earned.append(accounts(e)["rd"] - rd - item(e, x)["value"])
    assert earned == [2 if hat else 0, 2] and zone(e, "storeroom") == treasures


def test_a_sponsorship_is_paid_from_general_expenses():
    """FR l.389 (EN l.380): the GE account "finance [...] la location de salles au musée (zone 8)":
    Red's Boss sponsors a room, paying its cost less $2 from GE; no other account pays (HR
    then pays the quadrimester's salaries, $2 for each of the 2 workers)."""
    e = _q1_lines(start(2), {"hr": 10, "rd": 10, "ge": 10, "me": 10}, [("0.1", "8"), ("0.2", "6"), ("0.3", "6")],
                  "sponsor")
    before = accounts(e)
    play(e, "sponsor 2")
    cost = formula(e, "rooms[2].cost")
    assert accounts(e) == dict(before, ge=10 - (cost - 2), hr=before["hr"] - 2 * 2)


def test_a_sw57_looks_at_2_island_tiles_and_keeps_1():
    """FR l.911 (EN l.931): "L'avantage du boss ou d'un "OS n°5/7" est de pouvoir choisir
    secrètement une tuile parmi 2 regardées": Red's worker, hatted #5/7 by the Boss behind it in
    Zone 7, goes to the island and keeps one of the top 2 tiles."""
    e = _q1_lines(start(2), {"hr": 20, "rd": 0, "ge": 0, "me": 0}, [("0.2", "7"), ("0.1", "7"), ("0.3", "6")],
                  "put_hat")
    play(e, "put_hat")
    island = list(zone(e, "island"))
    play(e, "lagoon_trip")
    play(e, labels(e)[0], "island", *["skip"] * len(supply(e, 0)))  # no item loaded
    assert e.decision.kind == "keep kept" and labels(e) == island[:2]
    play(e, island[1])
    assert zone(e, "island") == island[2:] + island[:1]


@pytest.mark.parametrize("at_once", [True, False])
def test_the_2nd_recruit_may_take_its_double_action_tile_at_once(at_once):
    """FR l.527-532 (EN l.539-541): the 2nd recruit's Double Action tile goes "soit immédiatement
    sous ce meeple que vous venez de recruter [...] soit dans la salle de repos": Red's Boss and
    worker recruit in Q1, both recruits into Zone 6; the 2nd is offered its tile at once, and
    with it fishes twice in Q1 (4 fishings for Red), else the tile waits in the rest area."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 30, "rd": 0, "ge": 0, "me": 0})
    lines = {0: [("0.1", "1"), ("0.2", "1"), ("0.3", "6")], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e), answer=_line_up(e, lines))
    recruit_into_zone_6(e)
    assert e.decision.kind != "may put_double_tile"
    recruit_into_zone_6(e)
    assert e.decision.player == 0 and e.decision.kind == "may put_double_tile"
    play(e, "put_double_tile" if at_once else "skip")
    fished = []
    drive(e, in_quadrimester(2), answer=lambda e: fished.append(e.decision.player) if (
        "fish_mussels" in labels(e)) else None)
    assert fished.count(0) == (4 if at_once else 3)
    assert me(e, 0)["double_tiles"] == (0 if at_once else 1)


def test_no_recruit_once_the_3_are_recruited():
    """FR l.509 (EN l.520): "3 sont disponibles pour chaque joueur": once Red's 3 recruitable
    workers are in its rest area, Red's Boss in Zone 1 has no action (and loses 1 RP)."""
    e = start(2)
    for x in list(zone(e, "recruits@0")):
        put(e, x, "rest@0")
    drive(e, at("action"), budget={"hr": 30, "rd": 0, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.player == 0 and e.decision.kind == "may one of",
          answer=_line_up(e, {0: [("0.1", "1")] + [(f"0.{n}", "6") for n in range(2, 7)],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    assert "fish_mussels" in labels(e) and zone(e, "line[1]") == []     # Zone 1 is over:
    assert me(e, 0)["rp"] == 10 - 1 and "meeple#0.1" in zone(e, "rest@0")  # the Boss did not act
