"""Thesauros Lawless! (EN l.1440-1590, FR l.1418-1575): the setup, the mercenary auction after
the Maintenance of Q3, Q5, Q7 and Q8, placing a mercenary, its wages, the front and back
mercenary spaces, each zone's dirty trick (once a game), the black seaplane, the mercenary maps,
the underwater mine, and whole games with every invariant after every decision."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from meeplang.cli import main
from meeplang.interpreter.engine import Engine

from ..state import reoffer
from .helpers import (accounts, counter, drive, equip, formula, game, in_quadrimester, item,
                      items_of, labels, me, play, put, start, supply, zone)
from .test_full_games import finished, play_checked

LAWLESS = "lawless"
PLACEMENT = ["place_meeple", "place_mercenary", "keep_mercenaries"]
TRICKS = yaml.safe_load((Path(game(LAWLESS).folder) / "variants" / "lawless.yaml").read_text()
                        )["add"]["tables"]["mercenary_tricks"]


def lawless(players: int = 2, seed: int = 0) -> Engine:
    return start(players, seed, LAWLESS)


def is_trick(e: Engine, z: int) -> bool:
    """The decision waiting is the mercenary's `may do` of Zone z's dirty trick."""
    return e.decision is not None and labels(e)[0].strip() == str(TRICKS[z]).strip()


def hire(e: Engine, z: int, q: int = 2, budget: dict | None = None) -> int:
    """Given a mercenary in the rest area of the first player of quadrimester q's placement, who
    places it first on Zone z's mercenary space (no envelope, if one is offered). Returns
    that seat."""
    drive(e, lambda e: counter(e, "quad") == q and e.decision.kind == "action",
          budget=budget or {"hr": 30, "rd": 10, "ge": 10})
    seat = e.decision.player
    put(e, items_of(e, "mercenary")[0], f"hired@{seat}")
    reoffer(e, PLACEMENT)
    play(e, f"place_mercenary {z}")
    if e.decision.kind == "may post_envelope":          # FR l.1459 (EN l.1481 offers none)
        play(e, "skip")
    return seat


def do_trick(e: Engine, z: int, *answers: str) -> Engine:
    """Play on (the plain policy) until Zone z's mercenary offers its trick, do it, answer."""
    drive(e, lambda e: is_trick(e, z))
    return play(e, labels(e)[0], *answers)


# ------------------------------------------------------------------ listing and setup
def test_lawless_is_listed_for_2_to_4_players(capsys):
    assert main(["games", "--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    variants = {v["name"]: v for v in games["thesauros"]["variants"]}
    assert variants["lawless"]["players"] == [2, 4]


@pytest.mark.parametrize("players, maps", [(2, 5), (3, 7), (4, 7)])
def test_lawless_setup(players, maps):
    """EN l.1444-1449: 4 mercenaries, the black seaplane, the 7 mercenary maps (#1-#5 at 2
    players), the underwater mine; $55 instead of $50 (EN l.352); 3 level-0 cards on the
    first 3 spaces (FR l.1435)."""
    e = lawless(players)
    assert len(zone(e, "mercenary_supply")) == 4
    assert [item(e, x)["number"] for x in zone(e, "mercenary_maps")] == list(range(1, maps + 1))
    assert [item(e, x)["name"] for x in zone(e, "seaplane_dock") + zone(e, "mine_crate")] == \
        ["black_seaplane", "underwater_mine"]
    assert len(zone(e, "grey_seaplanes")) == 2                               # EN l.128
    assert [item(e, x)["pile"] for x in zone(e, "tech_row")] == ["level_0_pile"] * 3
    budgeting = e.decision.player                  # the first in turn order splits its budget
    for s in range(players):
        if s != budgeting:
            assert accounts(e, s)["hr"] == 55 + (0, 2, 4, 6)[me(e, s)["place"] - 1]


def test_lawless_first_technology_is_not_always_the_mask():
    """FR l.1435: 3 level-0 cards at random, "so not necessarily the Mask"."""
    firsts = {item(e, zone(e, "tech_row")[0])["name"] for e in (lawless(2, s) for s in range(8))}
    assert len(firsts) > 1


# ------------------------------------------------------------------ 1. the auction
def test_an_auction_follows_the_maintenance_of_q3_q5_q7_and_q8():
    """EN l.1461: "at the end of the 3, 5, 7 and 8 Quadrimesters (after their maintenance)"."""
    e, seen = lawless(), []

    def watch(e):
        if e.decision.kind == "bid":
            seen.append(counter(e, "quad"))
        return None
    drive(e, lambda e: False, answer=watch)
    assert sorted(set(seen)) == [3, 5, 7, 8]


def q5_auction(e: Engine) -> bool:
    """The auction after Q5's Maintenance (Q6's placement follows it, the accounts untouched);
    at Q3's the plain policy drops out."""
    return e.decision.kind == "bid" and counter(e, "quad") == 5


def test_the_highest_bidder_pays_from_the_slush_fund_to_the_bank_the_others_nothing():
    """EN l.1463-1467: bids strictly higher, in turn; the winner pays the bank from the Slush
    Fund and recruits a mercenary into the rest area."""
    e = lawless()
    drive(e, q5_auction, budget={"hr": 40})
    first = e.decision.player
    other = 1 - first
    sf = [accounts(e, s)["sf"] for s in (0, 1)]
    bank = counter(e, "bank")
    play(e, "3")
    assert e.decision.player == other and labels(e)[:2] == ["out", "4"]     # strictly higher
    play(e, "4", "out")
    assert accounts(e, other)["sf"] == sf[other] - 4 and accounts(e, first)["sf"] == sf[first]
    assert counter(e, "bank") == bank + 4
    assert len(zone(e, f"hired@{other}")) == 1 and len(zone(e, "mercenary_supply")) == 3


def test_a_last_bidder_who_cannot_pay_loses_1_rp_and_the_bidder_before_buys():
    """EN l.1469 (FR l.1447): the last bidder who cannot pay loses 1 RP; the bidder before last
    becomes the buyer (at their own bid)."""
    e = lawless()
    drive(e, q5_auction, budget={"hr": 50})
    sf = [accounts(e, s)["sf"] for s in (0, 1)]
    rp = [me(e, s)["rp"] for s in (0, 1)]
    assert e.decision.player == 0 and sf == [38, 40]
    play(e, "10", "39")
    assert labels(e)[-1] == "40"               # bids may go beyond one's means (up to $40)
    play(e, "40", "out")                       # seat 0 wins at $40 with $38 in its Slush Fund
    assert me(e, 0)["rp"] == rp[0] - 1 and zone(e, "hired@0") == [] and accounts(e, 0)["sf"] == 38
    assert len(zone(e, "hired@1")) == 1 and accounts(e, 1)["sf"] == 40 - 39 and me(e, 1)["rp"] == rp[1]


# ------------------------------------------------------------------ 2. placing, wages
def test_a_mercenary_goes_on_its_zone_space_with_its_employer_cube_and_no_double_action():
    """EN l.1477-1481: the mercenary's own space, a cube of your colour beside it, never a
    Double Action tile; it may post the envelope (FR l.1459)."""
    e = lawless()
    drive(e, lambda e: counter(e, "quad") == 2 and e.decision.kind == "action")
    seat = e.decision.player
    put(e, items_of(e, "mercenary")[0], f"hired@{seat}")
    e.state["players"][seat]["double_tiles"] = 1
    reoffer(e, PLACEMENT)
    assert [x for x in labels(e) if x.startswith("place_mercenary")] == \
        [f"place_mercenary {z}" for z in (1, 2, 3, 4, 7, 8, 9)]
    assert "keep_mercenaries" not in labels(e)          # the meeples must all be placed first
    play(e, "place_mercenary 9")
    assert labels(e) == ["post_envelope", "skip"]
    play(e, "post_envelope")
    assert zone(e, "mercenary_space[9]") == items_of(e, "mercenary")[:1]
    assert [item(e, x)["owner"] for x in zone(e, "mercenary_cube[9]")] == [seat]
    assert me(e, seat)["double_tiles"] == 1 and zone(e, f"envelope_desk@{seat}") == []


def test_each_zone_trick_is_done_once_a_game_the_cube_stays():
    """EN l.1570-1572: the cube of the player who used it stays until the end of the game, and
    no new mercenary can be played in that zone; the mercenary goes back to the box."""
    e = lawless()
    seat = hire(e, 9)
    do_trick(e, 9)
    assert zone(e, "mercenary_space[9]") == [] and items_of(e, "mercenary")[0] in zone(e, "box")
    assert [item(e, x)["owner"] for x in zone(e, "mercenary_cube[9]")] == [seat]
    drive(e, lambda e: counter(e, "quad") == 3 and e.decision.kind == "action")
    put(e, items_of(e, "mercenary")[1], f"hired@{e.decision.player}")
    reoffer(e, PLACEMENT)
    assert "place_mercenary 9" not in labels(e) and "place_mercenary 8" in labels(e)


def test_a_mercenary_that_does_not_act_costs_1_rp():
    """Like any meeple in a line (EN l.1586): declining the trick loses 1 RP."""
    e = lawless()
    seat = hire(e, 9)
    drive(e, lambda e: is_trick(e, 9))
    rp = me(e, seat)["rp"]
    play(e, "skip")
    assert me(e, seat)["rp"] == rp - 1 and zone(e, "mercenary_space[9]") == []


def _hr_after_salaries(keep: bool) -> int:
    """HR of Q2's first player after Q2's salaries, with or without a mercenary kept unused."""
    e = lawless()
    drive(e, lambda e: counter(e, "quad") == 2 and e.decision.kind == "action")
    seat = e.decision.player
    if keep:
        put(e, items_of(e, "mercenary")[0], f"hired@{seat}")
        reoffer(e, PLACEMENT)

    def kept(e):
        return "keep_mercenaries" if "keep_mercenaries" in labels(e) else None
    drive(e, in_quadrimester(3), answer=kept)
    return accounts(e, seat)["hr"]


def test_an_unused_mercenary_is_paid_2_at_the_salaries():
    """EN l.1564: $2 of wages for each mercenary still in the rest area."""
    assert _hr_after_salaries(False) - _hr_after_salaries(True) == 2


# ------------------------------------------------------------------ 3. resolution order
def _order(z: int, opponent_zone: int) -> list[str]:
    """Who acts in Zone z: the mercenary (seat A) and the opponent's meeples sent to z."""
    e = lawless()
    seat = hire(e, z)
    order = []

    def answer(e):
        d = e.decision
        if d.kind == "choose z" and d.player != seat and str(opponent_zone) in labels(e):
            return str(opponent_zone)
        if is_trick(e, z):
            order.append("mercenary")
            return labels(e)[0]
        if d.kind == "may one of" and d.player != seat and any(
                x.startswith(("advertise", "buy_map")) for x in labels(e)):
            order.append("meeple")
            return "skip"
        return None
    drive(e, in_quadrimester(3), answer=answer)
    return order


def test_a_front_mercenary_acts_before_the_line_and_a_back_one_after():
    """EN l.1485: a front space is resolved before the meeple on the 1st space, a back space
    after the last meeple (sample: Zone 9 front, Zone 3 back)."""
    front = _order(9, 9)
    assert front[0] == "mercenary" and "meeple" in front
    back = _order(3, 3)
    assert back[-1] == "mercenary" and "meeple" in back


# ------------------------------------------------------------------ 4. the tricks
def test_zone_1_steals_every_unused_double_action_tile():
    """EN l.1491: those under unrecruited meeples in Zone 1 and those on the players' boards."""
    e = lawless()
    seat = hire(e, 1)
    other = 1 - seat
    e.state["players"][other]["double_tiles"] = 1
    under = [x for s in (0, 1) for x in zone(e, f"recruits@{s}") if item(e, x)["tiles"] > 0]
    assert len(under) == 2
    do_trick(e, 1)
    assert me(e, seat)["double_tiles"] == 3 and me(e, other)["double_tiles"] == 0
    assert all(item(e, x)["tiles"] == 0 for x in under)


@pytest.mark.parametrize("owner, sold, gets_item", [(None, 0, True), ("other", 1, True),
                                                     ("other", None, False)])
def test_zone_2_steals_a_patent_and_a_copy_if_one_is_left(owner, sold, gets_item):
    """EN l.1499-1507: the patent of a face-up card becomes the recruiter's, with a copy of its
    item from the reserve (for an owned patent: if one is left)."""
    e = lawless()
    seat = hire(e, 2)
    card = zone(e, "tech_row")[0]
    c = item(e, card)
    c["patent"] = None if owner is None else 1 - seat
    c["sold"] = c["stock"][2] if sold is None else sold
    before, gear = c["sold"], supply(e, seat).count(c["name"])
    do_trick(e, 2)
    assert labels(e) == zone(e, "tech_row")             # any face-up card, yours excepted
    play(e, card)
    assert c["patent"] == seat
    assert supply(e, seat).count(c["name"]) == gear + gets_item and c["sold"] == before + gets_item


def test_zone_3_takes_two_mercenary_maps_that_pinpoint_sonar_treasures():
    """EN l.1513-1522, FR l.1495-1505: 2 mercenary maps of your choice give access to their
    sites (laid as usual if not yet on the board), and their holder alone needs no sonar there
    (FR l.1499)."""
    e = lawless()
    seat = hire(e, 3)
    other = 1 - seat
    tray = {item(e, x)["number"]: x for x in zone(e, "mercenary_maps")}
    do_trick(e, 3)
    for n in (2, 3):
        play(e, tray[n])
        if e.decision.kind == "keep kept":               # no site yet: keep 1 of 3 (EN l.1522)
            play(e, labels(e)[0])
    assert [item(e, x)["number"] for x in zone(e, f"maps@{seat}") if item(e, x)["precise"]] == [2, 3]
    assert len(zone(e, "dig_site[2]")) == 1 and len(zone(e, "dig_site[3]")) == 1
    assert formula(e, f"holds(players[{seat}], 2) and holds(players[{seat}], 3)")
    put(e, next(x for x in items_of(e, "map") if item(e, x)["number"] == 2), f"maps@{other}")
    site = item(e, zone(e, "dig_site[2]")[0])["name"]
    cells = [x for x in zone(e, "seabed") if item(e, x)["tile"] == site]
    for x in cells:
        sonar = item(e, x)["detect"] == "sonar"
        none = item(e, x)["detect"] == "none"
        assert formula(e, f"needs_no_tool(players[{seat}], c)", c=x) == (sonar or none)
        assert formula(e, f"needs_no_tool(players[{other}], c)", c=x) == none


def test_zone_4_grounds_the_grey_seaplanes_until_maintenance_and_steals_the_black_one():
    """EN l.1528-1532: the grey seaplanes unusable this quadrimester, repaired at the next
    Maintenance; the black seaplane the recruiter's, used free at the start of their Zone 5
    turn, then back to the box."""
    e = lawless()
    seat = hire(e, 4)
    do_trick(e, 4)
    assert zone(e, "grey_seaplanes") == [] and len(zone(e, "repair_shop")) == 2
    assert formula(e, "not can(seaplane with m = first(meeples_of(you)), z = 4)", seat)
    x = items_of(e, "zodiac", skipper=seat)[0]              # a zodiac at sea cannot rent one
    item(e, x)["at"] = "f1"                                 # in Zone 5 either (EN l.1528)
    put(e, f"meeple#{seat}.4", f"crew[{item(e, x)['slot']}]")
    assert formula(e, "not can(rent_seaplane)", seat)
    assert [item(e, x)["name"] for x in zone(e, f"spoils@{seat}")] == ["black_seaplane"]
    drive(e, in_quadrimester(3))
    assert len(zone(e, "grey_seaplanes")) == 2 and zone(e, "repair_shop") == []
    assert formula(e, "can(rent_seaplane)", seat)          # repaired
    mask = equip(e, f"item_supply@{seat}", ["mask"])[0]      # a Mask to fly to the zodiac
    drive(e, lambda e: labels(e) == ["fly_black_seaplane", "skip"])
    assert e.decision.player == seat and counter(e, "quad") == 3
    play(e, "fly_black_seaplane", "skip", f"load_item {x}")   # keeps the Detector, flies the Mask
    assert zone(e, f"aboard[{item(e, x)['slot']}]") == [mask]
    assert zone(e, f"spoils@{seat}") == [] and len(zone(e, "seaplanes_out")) == 0


def test_zone_7_mine_kills_the_sharks_and_destroys_the_treasures_of_a_3x3_area():
    """EN l.1538-1544, FR l.1522-1539: the mine, used at the start of one of your Zone 5 turns on
    any dig site (no zodiac, no map), covers 3x3 spaces right below the surface: its sharks go
    to your cold room, its treasures are destroyed."""
    e = lawless()
    seat = hire(e, 7)
    do_trick(e, 7)
    assert [item(e, x)["name"] for x in zone(e, f"spoils@{seat}")] == ["underwater_mine"]
    tile = items_of(e, "dig_tile", name="t1")[0]        # SAMPLE t1: sharks at columns 2 and 4, row 2
    put(e, tile, "dig_site[4]")                         # a dig site nobody holds a map of
    drive(e, lambda e: labels(e) == ["lay_mine", "skip"])
    assert e.decision.player == seat and counter(e, "quad") == 3
    play(e, "lay_mine")
    assert labels(e) == ["4"]
    n = 4
    play(e, "4")
    assert labels(e) == ["1", "2"]                    # 3 of the sample tile's 4 columns
    site = item(e, zone(e, f"dig_site[{n}]")[0])["name"]
    area = [x for x in zone(e, "seabed") if item(e, x)["tile"] == site
            and item(e, x)["row"] <= 3 and 2 <= item(e, x)["column"] <= 4]
    deeper = [x for x in zone(e, "seabed") if item(e, x)["tile"] == site and x not in area]
    sharks = list(zone(e, f"cold_room@{seat}"))
    assert any(item(e, x)["shark"] for x in area) and any(not item(e, x)["shark"] for x in area)
    play(e, "2")
    assert zone(e, f"cold_room@{seat}") == sharks + [x for x in area if item(e, x)["shark"]]
    assert zone(e, "destroyed") == [x for x in area if not item(e, x)["shark"]]
    assert [x for x in zone(e, "seabed") if item(e, x)["tile"] == site] == deeper
    assert zone(e, f"spoils@{seat}") == []


def _museum(e: Engine, seat: int) -> tuple[list, list]:
    """Given: room 1 (2 spaces) sponsored by `seat` with one treasure of each player, room 2
    (3 spaces) full and open, sponsored by the other player."""
    other = 1 - seat
    cells = items_of(e, "cell", shark=False)
    for r, sponsor in ((1, seat), (2, other)):
        item(e, items_of(e, "door", room=r)[0])["sponsor"] = sponsor
    one = [cells.pop(), cells.pop()]
    for x, s in zip(one, (seat, other)):
        put(e, x, "room[1]")
        item(e, x)["seller"] = s
    two = [cells.pop() for _ in range(3)]
    for x in two:
        put(e, x, "room[2]")
        item(e, x)["seller"] = other
    item(e, items_of(e, "door", room=2)[0])["open"] = True
    return one, two


def test_zone_8_swaps_two_treasures_cubes():
    """EN l.1546 (FR l.1547): swap the positions of two treasures, swapping the players' cubes."""
    e = lawless()
    seat = hire(e, 8)
    one, _ = _museum(e, seat)
    do_trick(e, 8)
    play(e, f"swap_treasures {one[0]}")
    assert labels(e) == [one[1]] + [x for x in zone(e, "room[2]")]   # another player's treasure
    play(e, one[1])
    assert [item(e, x)["seller"] for x in one] == [1 - seat, seat]


def test_zone_8_moving_a_treasure_out_of_an_open_room_closes_it():
    """EN l.1550 (FR l.1551): a room no longer full closes; its sponsor loses its opening RP."""
    e = lawless()
    seat = hire(e, 8)
    other = 1 - seat
    _, two = _museum(e, seat)
    put(e, zone(e, "room[1]")[1], "storeroom")        # room 1 has a free space
    rp = me(e, other)["rp"]
    do_trick(e, 8)
    play(e, f"move_treasure {two[0]}", "1")
    door = item(e, items_of(e, "door", room=2)[0])
    assert two[0] in zone(e, "room[1]") and not door["open"]
    assert me(e, other)["rp"] == rp - formula(e, "rooms[2].opening")
    assert item(e, items_of(e, "door", room=1)[0])["open"]          # room 1 is full: it opens


def test_zone_9_smears_every_opponent_by_4_rp_never_below_0():
    """EN l.1556-1560: every other player moves back 4 RP; never below zero."""
    e = lawless(3)
    seat = hire(e, 9)
    others = [s for s in range(3) if s != seat]
    me(e, others[1])["rp"] = 3
    rp = me(e, seat)["rp"], me(e, others[0])["rp"]
    do_trick(e, 9)
    assert (me(e, seat)["rp"], me(e, others[0])["rp"], me(e, others[1])["rp"]) == (rp[0], rp[1] - 4, 0)


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agents, seed", [("random", 3), ("greedy", 4)])
def test_lawless_full_games(players, agents, seed):
    e = play_checked(players, seed, ",".join([agents] + ["random"] * (players - 1)), LAWLESS)
    finished(e, players)
    cubes = sum(len(zone(e, f"mercenary_cube[{z}]")) for z in (1, 2, 3, 4, 7, 8, 9))
    hired = sum(len(zone(e, f"hired@{s}")) for s in range(players))
    assert cubes + hired + len(zone(e, "mercenary_supply")) == 4


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_lawless_full_games_many_seeds(players):
    for seed in range(5, 12):
        finished(play_checked(players, seed, "random", LAWLESS), players)
        finished(play_checked(players, seed, "first", LAWLESS), players)


@pytest.mark.parametrize("sonar_aboard", [False, True])
def test_a_satellite_map_is_a_plain_map_for_the_sonar(sonar_aboard):
    """EN l.1284 (FR l.1266-1268): a satellite map "plays the same role as a classic Treasure
    Map"; only the mercenary's maps are "much more specific" and spare their holder the sonar
    (FR l.1499). A diver whose player holds site 4's satellite map needs a sonar for a sonar
    treasure like any other (sample tile t4, column 1: a shark, then a $5 sonar treasure), and
    pays its use ($1 from ME for a Basic Sonar, EN l.819-821)."""
    from .test_rulebook import _at_sea, _cell, _dives, _to_zone_5
    e = lawless()
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    gear = ["mask", "shark_cage"] + (["basic_sonar"] if sonar_aboard else [])
    _at_sea(e, 0, 4, gear, tile="t4")
    for x in [x for x in zone(e, "maps@0") if item(e, x)["number"] == 4]:
        put(e, x, "map_bag")                                # site 4's map is a satellite one
    put(e, items_of(e, "satellite_map", number=4)[0], "maps@0")
    _to_zone_5(e, "0.1")
    sonar = _cell(e, "t4", 1, 2)
    assert (sonar in _dives(e)) == sonar_aboard
    if sonar_aboard:
        me_before = accounts(e, 0)["me"]
        play(e, f"dive {sonar}")
        assert accounts(e, 0)["me"] == me_before - 1 and sonar in zone(e, "treasures@0")
