"""Thesauros: the rulebook's worked examples (EX-nn, numbered as in the rules digest) played on
the game itself, asserting the rulebook's numbers. Where a number lies on a board value lost
with the images, the test reads the sample table instead of a printed value, and says so."""
from __future__ import annotations

import pytest

from .helpers import (accounts, at, counter, drive, equip, formula, in_quadrimester, item,
                      items_of, keep_items, labels, me, play, put, run, start, supply, zone)

RICH = {"hr": 20, "rd": 20, "ge": 10, "me": 0}        # the rest goes to the Slush Fund


def placements(e, script):
    """Each (meeple, zone) in turn: place it, post no envelope, choose its line."""
    for m, z in script:
        play(e, f"place_meeple meeple#{m}", "skip", z)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rulebook_ex_01_setup_compensation_once(players):
    """EN l.350: $50, plus $2/$4/$6 for the 2nd/3rd/4th place; years 2 and 3: $30/$10 + $5 a map,
    no compensation again (EN l.356-362)."""
    e = start(players)
    for seat in range(players):
        assert e.decision.player == seat and labels(e)[-1] == str(50 + 2 * seat)
        drive(e, lambda e: e.decision.player != seat)
    put(e, items_of(e, "map", number=2)[0], "maps@1")
    assert [formula(e, f"income_of(players[{s}])") for s in range(players)][:2] == [50, 52]
    drive(e, lambda e: counter(e, "year") == 2)
    assert [formula(e, f"income_of(players[{s}])") for s in range(players)][:2] == [30, 35]


@pytest.mark.parametrize("players, zone_2, zone_3", [(4, 5, 4), (3, 4, 3)])
def test_rulebook_ex_04_05_waiting_lines_by_player_count(players, zone_2, zone_3):
    """EN l.425-427: the blue line (Zone 2) holds 5 meeples at 4p and 4 at 3p; the red one
    (Zone 3 here) 4 and 3; a full line is not offered any more."""
    e = start(players)
    drive(e, at("action"), budget=RICH)
    offered = []

    def fill(e):
        if e.decision.kind == "choose z":
            offered.append("2" in labels(e))
            return "2" if "2" in labels(e) else "3" if "3" in labels(e) else "6"
        return None
    drive(e, at("may one of"), answer=fill)
    assert len(zone(e, "line[2]")) == zone_2 and len(zone(e, "line[3]")) == zone_3
    assert offered[:zone_2 + 1] == [True] * zone_2 + [False]


def test_rulebook_ex_06_apprenticeship_in_zone_2():
    """EN l.496-504: line Red Boss, Red worker, Green worker, Green Boss. Red hats its worker just
    before its Boss acts; Green hats its worker just before that worker acts, which then pays
    $2 less on the bank part in that same action."""
    e = start(3)
    drive(e, at("action"), budget=RICH)
    placements(e, [("0.1", "2"), ("1.2", "6"), ("2.1", "6"), ("0.2", "2"), ("1.3", "2"),
                   ("2.2", "6"), ("0.3", "6"), ("1.1", "2"), ("2.3", "6")])
    assert zone(e, "line[2]") == ["meeple#0.1", "meeple#0.2", "meeple#1.3", "meeple#1.1"]
    assert e.decision.player == 0 and labels(e) == ["put_hat", "skip"]
    play(e, "put_hat", "skip", "skip")                 # Red's Boss and SW#2 take no action
    assert item(e, "meeple#0.2")["hat"] is not None
    assert e.decision.player == 1 and labels(e) == ["put_hat", "skip"]
    play(e, "put_hat")
    card = _option(e, "develop")
    rd = accounts(e, 1)["rd"]
    play(e, f"develop {card}")
    assert accounts(e, 1)["rd"] == rd - (item(e, card)["d"] - 2)
    assert item(e, card)["patent"] == 1


@pytest.mark.parametrize("players, hats", [(2, 1), (3, 2), (4, 3)])
def test_rulebook_hats_per_zone_by_player_count(players, hats):
    """EN l.315: 3 hats per zone at 4 players, 2 at 3, 1 at 2; the rest stay in the box."""
    e = start(players)
    held = [item(e, h)["zones"] for h in zone(e, "hat_supply")]
    assert sorted(map(tuple, held)) == sorted([(2,), (3,), (5, 7), (8,)] * hats)


def _option(e, action):
    """The first card an action is offered with."""
    return next(x for x in labels(e) if x.startswith(action + " "))[len(action) + 1:]


@pytest.mark.parametrize("sw2_buys_from_green", [True, False])
def test_rulebook_ex_27_bank_part_discounted_royalty_in_full(sw2_buys_from_green):
    """Line 2: Red's Boss, Green's worker, Red's worker, who gets the #2 hat before the Boss acts.
    Green's basic worker develops and buys: D + G + H, all to the bank. Red's SW#2 then either
    buys that item: G - 2 to the bank and H in full to Green (FR l.576), or develops and buys
    another: D + G + H - 2 to the bank."""
    e = start(2)
    drive(e, at("action"), budget=RICH)
    placements(e, [("0.1", "2"), ("1.2", "2"), ("0.2", "2"), ("1.1", "6"), ("0.3", "6"), ("1.3", "6")])
    play(e, "put_hat", "skip")                               # Red's Boss takes no action
    x = _option(e, "develop_and_buy")
    c = item(e, x)
    bank = counter(e, "bank")
    play(e, f"develop_and_buy {x}")
    assert accounts(e, 1)["rd"] == 20 - (c["d"] + c["g"] + c["h"])
    assert counter(e, "bank") == bank + c["d"] + c["g"] + c["h"] and c["patent"] == 1
    assert e.decision.player == 0 and item(e, "meeple#0.2")["hat"] is not None
    bank = counter(e, "bank")
    if sw2_buys_from_green:
        play(e, f"buy_item {x}")
        assert accounts(e, 0)["rd"] == 20 - (c["g"] - 2 + c["h"])
        assert accounts(e, 1)["rd"] == 20 - (c["d"] + c["g"] + c["h"]) + c["h"]
        assert counter(e, "bank") == bank + c["g"] - 2
        assert supply(e, 0) == ["metal_detector", c["name"]] and c["sold"] == 2
    else:
        y = _option(e, "develop_and_buy")
        d = item(e, y)
        play(e, f"develop_and_buy {y}")
        assert accounts(e, 0)["rd"] == 20 - (d["d"] + d["g"] + d["h"] - 2)
        assert counter(e, "bank") == bank + d["d"] + d["g"] + d["h"] - 2


def test_rulebook_ex_28_technology_reveal_schedule():
    """EN l.1080-1084: after the maintenance of Q1..Q5 Zone 2 shows 4, 5, 7, 8, 10 cards, none
    more from Q6 on."""
    e = start(2)
    seen = []
    for q in range(2, 10):
        drive(e, in_quadrimester(q))
        seen.append(len(zone(e, "tech_row")))
    assert seen == [4, 5, 7, 8, 10, 10, 10, 10]


@pytest.mark.parametrize("hr, rd, paid, fees", [(5, 10, 4, [("accounts[rd]", 3, 3)]),
                                                (1, 4, 1, [("accounts[rd]", 1, 3)])])
def test_rulebook_ex_29_salaries_with_forced_transfers(hr, rd, paid, fees):
    """EN l.1052-1058: year 3, 4 workers, HR $5 and R&D $10: $3 moves from R&D with a $3 fee and
    all are paid. With HR $1 and R&D $4, R&D can give only $1: 3 workers unpaid, -3 RP."""
    e = start(2)
    drive(e, lambda e: counter(e, "year") == 3)
    for x in zone(e, "recruits@0")[:2]:                       # two workers recruited earlier
        put(e, x, "rest@0")
    budget = {"hr": hr, "rd": rd, "ge": 0, "me": 0}
    drive(e, at("action"), budget=budget)
    assert accounts(e, 0)["hr"] == hr and accounts(e, 0)["rd"] == rd
    rp, reward = me(e, 0)["rp"], formula(e, "mussel_track[cube[6]].rp")
    into_ge = lambda e: "ge" if e.decision.kind == "choose account" and e.decision.player == 0 else None
    drive(e, in_quadrimester(8), answer=into_ge)
    assert accounts(e, 0)["hr"] == 0 and accounts(e, 0)["rd"] == rd - sum(a + f for _, a, f in fees)
    moved = [(t["from"], t["amount"], t["fee"]) for t in e.events
             if t["event"] == "transfer" and t.get("player", 0) == 0][-len(fees):]
    assert moved == fees
    assert me(e, 0)["rp"] == rp + 5 * reward - (4 - paid)


def _posting(schedule):
    """Answer `may post_envelope` with post_envelope at the n-th time each seat is asked."""
    asked: dict = {}

    def answer(e):
        d = e.decision
        if d.kind == "may post_envelope":
            asked[d.player] = asked.get(d.player, 0) + 1
            return "post_envelope" if schedule.get(d.player) == asked[d.player] else "skip"
        return None
    return answer


def test_rulebook_ex_20_sealed_bribes_sort_the_turn_order():
    """EN l.1040-1042: order Green, Red, Blue, White; envelopes posted by White, Blue, Green;
    bids Green $6, White $6, Blue $3 -> White, Green, Blue, Red (White posted first), $15 to the
    bank, taken from the Slush Funds."""
    e = start(4)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 0})
    sf = [accounts(e, s)["sf"] for s in range(4)]
    drive(e, at("secret bid"), answer=_posting({3: 1, 2: 2, 0: 3}))
    assert [x.split("#")[1] for x in zone(e, "envelope_slots")] == ["3.1", "2.1", "0.1"]
    bank = counter(e, "bank")
    bids = {0: "6", 2: "3", 3: "6"}
    while e.decision.kind == "secret bid":
        play(e, bids[e.decision.player])
    drive(e, in_quadrimester(2))
    assert sorted(range(4), key=lambda s: me(e, s)["place"]) == [3, 0, 2, 1]
    assert [sf[s] - accounts(e, s)["sf"] for s in range(4)] == [6, 0, 3, 6]
    salaries = 4 * 2 * 2
    assert counter(e, "bank") == bank + 15 + salaries
    assert e.decision.player == 3                   # the next placement follows the new order


def test_rulebook_ex_20_an_envelope_without_a_bid_costs_1_rp():
    """EN l.1028, FR l.1005: a player who posted but does not bid loses 1 RP and takes no part."""
    e = start(4)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 0})
    drive(e, at("secret bid"), answer=_posting({3: 1, 2: 2, 0: 3}))
    rp = [me(e, s)["rp"] for s in range(4)]
    bids = {0: "6", 2: "0", 3: "6"}
    while e.decision.kind == "secret bid":
        play(e, bids[e.decision.player])
    drive(e, in_quadrimester(2))
    assert sorted(range(4), key=lambda s: me(e, s)["place"]) == [3, 0, 1, 2]
    # every meeple fished a $ in Zone 6; Blue alone lost its RP
    assert [me(e, s)["rp"] - rp[s] for s in range(4)] == [0, 0, -1, 0]


def test_rulebook_ex_23_engine_combination():
    """EN l.1250: base engine + Super Engine + Medium Engine: 1-4 spaces for $0, 5-6 for $1,
    7 for $2, no farther."""
    e = start(2)
    red, green = zodiac(e, 0), zodiac(e, 1)
    equip(e, f"aboard[{item(e, red)['slot']}]", ["super_engine", "medium_engine"])
    assert formula(e, "reach(x)", x=red) == 7
    assert [formula(e, f"move_cost(x, {d})", x=red) for d in range(1, 8)] == [0, 0, 0, 0, 1, 1, 2]
    # the base engine alone: 2 spaces free, a 3rd for $1 (EN l.1236)
    assert formula(e, "reach(x)", x=green) == 3 and formula(e, "move_cost(x, 3)", x=green) == 1


def test_rulebook_ex_25_mussels_at_the_last_space():
    """FR l.853, EN l.871: the gold cube under the last reward (1 RP): each meeple gains 1 RP, the
    Boss $2 more; the cube stays at the end."""
    e = start(2)
    e.state["counters"]["cube[6]"] = 3
    drive(e, in_quadrimester(2))
    assert [me(e, s)["rp"] for s in range(2)] == [13, 13]
    assert accounts(e, 0)["hr"] == 50 + 2 - 2 * 2 and counter(e, "cube[6]") == 3


def test_rulebook_mussels_cube_moves_once_per_quadrimester_used():
    """FR l.853: $1, then $2: the cube moves one space after each quadrimester Zone 6 was used."""
    e = start(2)
    drive(e, in_quadrimester(2))
    assert accounts(e, 0)["hr"] == 50 + (1 + 2) + 1 + 1 - 4 and counter(e, "cube[6]") == 2
    drive(e, in_quadrimester(3))
    assert accounts(e, 0)["hr"] == 51 + (2 + 2) + 2 + 2 - 4 and counter(e, "cube[6]") == 3


def test_rulebook_ex_30_final_scoring_maps_and_money():
    """EN l.1150-1170: maps {2, 2, 2, 5}: 4 + 2 for the collection of three; $47 spread over the
    accounts, Slush Fund included: 4 RP."""
    e = start(2)
    before = formula(e, "final_points(you)")
    for x in items_of(e, "map", number=2)[:3] + items_of(e, "map", number=5)[:1]:
        put(e, x, "maps@0")
    assert formula(e, "final_points(you)") - before == 4 + 2
    before = formula(e, "final_points(you)")
    for a, v in zip(("hr", "rd", "ge", "me", "sf"), (10, 7, 5, 5, 20)):
        me(e, 0)[f"accounts[{a}]"] = v
    assert formula(e, "final_points(you)") - before == 4


def _line_up(e, script):
    """Placements in turn order; `script` maps a seat to its list of (meeple, zone)."""
    done: dict = {}

    def answer(e):
        d = e.decision
        if d.kind == "action" and d.labels[0].startswith("place_meeple"):
            k = done.get(d.player, 0)
            done[d.player] = k + 1
            m, z = script[d.player][k]
            answer.zone = z
            return f"place_meeple meeple#{m}"
        if d.kind == "choose z":
            return answer.zone
        return None
    return answer


@pytest.mark.parametrize("boss, price", [(False, 5), (True, 3)])
def test_rulebook_ex_09_flea_market_price_rise(boss, price):
    """EN l.646-654: two #2 maps stacked on the $5 space, $6 taken, $7 free: buying the top one
    costs $5 ($3 for the Boss) and the remaining #2 moves up to $7."""
    e = start(2)
    for s in range(1, 11):
        for x in list(zone(e, f"price_space[{s}]")):
            put(e, x, "box")
    two = items_of(e, "map", number=2)
    put(e, two[0], "price_space[4]")
    put(e, two[1], "price_space[4]")
    put(e, items_of(e, "map", number=3)[0], "price_space[5]")
    buyer = "0.1" if boss else "0.2"
    other = "0.2" if boss else "0.1"
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 10, "me": 0})
    drive(e, at("may one of"), answer=_line_up(e, {0: [(buyer, "3"), (other, "6"), ("0.3", "6")],
                                                    1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    assert labels(e) == ["buy_map 4", "buy_map 5", "skip"]
    play(e, "buy_map 4")
    assert accounts(e, 0)["ge"] == 10 - price
    assert zone(e, "price_space[4]") == [] and zone(e, "price_space[6]") == [two[1]]
    assert zone(e, "maps@0") == [two[0]]


def test_rulebook_ex_10_a_second_copy_moves_to_a_cheaper_space():
    """FR l.276-284: a drawn #2 joins the #2 on $5 and the stack moves to the nearest free
    cheaper space, a $3 one; a new number then takes the cheapest free space of $4 or more."""
    e = start(2)
    for s in range(1, 11):
        for x in list(zone(e, f"price_space[{s}]")):
            put(e, x, "map_bag")
    ones, twos, threes, fours = (items_of(e, "map", number=n) for n in (1, 2, 3, 4))
    put(e, ones[0], "price_space[3]")
    put(e, twos[0], "price_space[4]")
    put(e, threes[0], "price_space[5]")
    put(e, fours[0], "map_bag", top=True)
    put(e, twos[1], "map_bag", top=True)             # drawn first at the maintenance of Q1
    drive(e, in_quadrimester(2))
    track = {s: zone(e, f"price_space[{s}]") for s in range(1, 11) if zone(e, f"price_space[{s}]")}
    assert track == {2: [twos[1], twos[0]], 3: [ones[0]], 4: [fours[0]], 5: [threes[0]]}
    assert formula(e, "map_prices[2]") == 3


def test_rulebook_ex_11_first_map_holder_keeps_one_of_three_face_down():
    """EN l.680-688: the first player to get a map of a number draws 3 dig-site tiles, keeps 1
    face down on that site (the others go under the pile); the holders of that number's maps may
    look at it, the others see its back until a holder's zodiac arrives there."""
    e = start(3)
    for s in range(1, 11):
        for x in list(zone(e, f"price_space[{s}]")):
            put(e, x, "box")
    threes = items_of(e, "map", number=3)
    put(e, threes[0], "price_space[3]")
    put(e, threes[1], "price_space[3]")
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 10, "me": 0})
    drive(e, at("may one of"), answer=_line_up(e, {
        0: [("0.2", "3"), ("0.1", "6"), ("0.3", "6")], 1: [("1.2", "3"), ("1.1", "6"), ("1.3", "6")],
        2: [("2.1", "6"), ("2.2", "6"), ("2.3", "6")]}))
    pile = list(zone(e, "dig_pile"))
    play(e, "buy_map 3")
    assert e.decision.player == 0 and labels(e) == pile[:3]     # Red keeps one of the top 3
    play(e, pile[1])
    assert zone(e, "dig_site[3]") == [pile[1]] and zone(e, "dig_pile") == pile[3:] + [pile[0], pile[2]]
    assert e.decision.player == 1                 # Blue buys the other #3, moved up to $5: no draw
    play(e, "buy_map 4")
    assert zone(e, "dig_pile") == pile[3:] + [pile[0], pile[2]]
    views = [e.view(s)["zones"]["dig_site[3]"] for s in range(3)]
    assert views == [[pile[1]], [pile[1]], ["?"]]


def zodiac(e, seat):
    """The seat's own zodiac."""
    return items_of(e, "zodiac", skipper=seat)[0]


def _at_sea(e, seat, site, gear, diver="0.1", tile="t1"):
    """A position at the start of Q2: seat's first zodiac on dig site `site` with `diver` and
    the items `gear` aboard, the seat holding that site's map; the sample tile `tile` lies on the
    site."""
    x = zodiac(e, seat)
    item(e, x)["at"] = f"d{site}"
    put(e, f"meeple#{diver}", f"crew[{item(e, x)['slot']}]")
    put(e, items_of(e, "map", number=site)[-1], f"maps@{seat}")
    put(e, items_of(e, "dig_tile", name=tile)[0], f"dig_site[{site}]")
    equip(e, f"aboard[{item(e, x)['slot']}]", gear)
    return x


def _to_zone_5(e, diver):
    """Drive to seat 0's Zone 5 decision, never placing the diver (the first placement decision
    of Q2 was offered before the diver went aboard)."""
    def answer(e):
        d = e.decision
        if d.kind == "action" and d.player == 0:
            return next(x for x in d.labels if not x.endswith(diver))
        return None
    return drive(e, lambda e: e.decision.kind == "do any of" and e.decision.player == 0,
                 answer=answer)


def _cell(e, tile, column, row):
    return items_of(e, "cell", tile=tile, column=column, row=row)[0]


@pytest.mark.parametrize("diver", ["0.1", "0.2"])
def test_rulebook_ex_16_shark_roll_with_cage_and_spear_gun(diver):
    """EN l.801-803: the Boss with a Spear Gun and a Shark Cage kills a shark on any die
    (1 + 2 + 1 = 4); a basic worker with both kills on 2-6. Either way the diver goes on down and
    takes the treasure below (sample tile t1, column 2: $3, a shark, then $7 at level 3)."""
    kills = {}
    for seed in range(8):
        e = start(2, seed=seed)
        drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
        _at_sea(e, 0, 1, ["spear_gun", "shark_cage", "tank"], diver=diver)
        shark, treasure = _cell(e, "t1", 2, 2), _cell(e, "t1", 2, 3)
        _to_zone_5(e, diver)
        play(e, f"dive {treasure}")
        die = [ev["value"] for ev in e.events if ev["event"] == "roll"][-1]
        killed = shark in zone(e, "cold_room@0")
        assert killed == (diver == "0.1" or die >= 2), (seed, die)
        assert treasure in zone(e, "treasures@0")
        kills[die] = killed
    assert 1 in kills or diver == "0.1"


def test_rulebook_a_shark_without_weapon_or_cage_bars_the_column():
    """EN l.779: with no Harpoon, Spear Gun nor Cage aboard, a diver cannot pass a shark: the
    treasure under it is not offered, the one above it is."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 1, ["tank"])
    _to_zone_5(e, "0.1")
    assert f"dive {_cell(e, 't1', 2, 1)}" in labels(e) and f"dive {_cell(e, 't1', 2, 3)}" not in labels(e)


@pytest.mark.parametrize("spot, gear, boss, gain", [
    ("lobster", ["lobster_pot"], False, 8), ("lobster", ["lobster_pot"], True, 10),
    ("coastal", ["spear_gun"], True, 8), ("coastal", ["harpoon"], False, 5),
    ("tourist", [], True, 6), ("tourist", [], False, 4)])
def test_rulebook_ex_26_lagoon_trips(spot, gear, boss, gain):
    """EN l.895-913: lobster $8, coastal fishing $5 with a Harpoon or $6 with a Spear Gun, a
    tourist tour $4; $2 more with the Boss (or a SW#5/7)."""
    e = start(2)
    equip(e, "item_supply@0", gear)
    drive(e, at("action"))
    lagoon = ("0.1", "7") if boss else ("0.2", "7")
    other = ("0.2", "6") if boss else ("0.1", "6")
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0
          and "lagoon_trip" in labels(e),
          answer=_line_up(e, {0: [lagoon, other, ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    play(e, "lagoon_trip")
    play(e, labels(e)[0])                                   # Red's zodiac, docked in port
    assert labels(e) == [s for s in ("lobster", "coastal", "tourist", "island")
                         if s in (spot, "tourist", "island")]     # the tour and the island need nothing more
    hr = accounts(e, 0)["hr"]
    play(e, spot, *["skip"] * len(supply(e, 0)))            # nothing loaded by choice: the
    aboard = [item(e, t)["name"] for t in zone(e, f"aboard[{item(e, zodiac(e, 0))['slot']}]")]
    assert aboard == gear                                   # destination's item goes aboard
    play(e, "hr")                                           # then the salaries of 2 workers
    assert accounts(e, 0)["hr"] == hr + gain - 2 * 2


@pytest.mark.parametrize("seller", [0, 1])
def test_rulebook_ex_19_a_full_room_opens_for_its_sponsor(seller):
    """EN l.964-986: Red sponsors the 4th room (sample: 2 spaces worth 2 and 3 RP, opening 2 RP).
    A treasure sold into its last free space fills it: Red, the sponsor, gains 2 RP at once,
    whoever sold; the seller gets the treasure's value (sample cell: $3) and, the room being
    open, 3 RP at the end for it instead of the 2 of an unsold or incomplete-room treasure."""
    e = start(3)
    door = items_of(e, "door", room=4)[0]
    item(e, door)["sponsor"] = 0
    first, sold = _cell(e, "t1", 2, 1), _cell(e, "t1", 3, 1)
    put(e, first, "room[4]")
    item(e, first)["seller"] = 2
    put(e, sold, f"treasures@{seller}")
    drive(e, at("action"))
    lines = {s: [(f"{s}.2", "8" if s == seller else "6"), (f"{s}.1", "6"), (f"{s}.3", "6")]
             for s in range(3)}
    drive(e, lambda e: e.decision.kind == "may one of" and "sell_treasure " + sold in labels(e),
          answer=_line_up(e, lines))
    before = formula(e, f"treasure_points(players[{seller}])")
    assert before == 2                                  # unsold: 2 RP
    rp = [me(e, s)["rp"] for s in range(3)]
    hr = accounts(e, seller)["hr"]
    play(e, f"sell_treasure {sold}")
    assert labels(e) == ["4", "0"]                      # the sponsored room, or the storeroom
    play(e, "4", "hr")
    assert item(e, door)["open"] and zone(e, "room[4]") == [first, sold]
    assert [me(e, s)["rp"] - rp[s] for s in range(3)] == [2, 0, 0]
    assert accounts(e, seller)["hr"] == hr + item(e, sold)["value"] - 2 * 2 == hr + 3 - 4   # salaries
    assert formula(e, f"treasure_points(players[{seller}])") == 3
    assert formula(e, "treasure_points(players[2])") == 2   # the first space of that room


def test_rulebook_the_game_ends_after_the_salaries_when_every_room_is_open():
    """EN l.1139-1140: the final scoring follows the Salary phase of the quadrimester in which
    every room in play is open; that quadrimester's maintenance does not run."""
    e = start(2)
    for r in (1, 2, 3):
        item(e, items_of(e, "door", room=r)[0])["sponsor"] = 1
    cells = items_of(e, "cell", shark=False)
    for r, size in ((1, 2), (2, 3), (3, 1)):
        for _ in range(size if r != 3 else 0):
            put(e, cells.pop(), f"room[{r}]")
    put(e, cells.pop(), "treasures@0")
    drive(e, at("action"))
    lines = {0: [("0.1", "8"), ("0.2", "6"), ("0.3", "6")], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0
          and "sell_treasure" in labels(e)[0], answer=_line_up(e, lines))
    play(e, labels(e)[0], "3", "hr")
    drive(e, lambda e: False)
    assert e.result is not None and counter(e, "quad") == 1
    assert len(zone(e, "tech_row")) == 3                # no maintenance: no card revealed


def test_rulebook_advertising_track_moves_only_when_used():
    """EN l.1002-1006, FR l.306: an advertiser pays its space's cost (sample) from GE and gains the
    RP above the gold cube, 4 at the start; the cube then moves one space, and not in a
    quadrimester nobody advertised."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 10, "me": 0})
    lines = {0: [("0.2", "9"), ("0.1", "6"), ("0.3", "6")], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}
    drive(e, lambda e: e.decision.kind == "may one of" and "advertise" in labels(e),
          answer=_line_up(e, lines))
    rp = me(e, 0)["rp"]
    play(e, "advertise")
    assert me(e, 0)["rp"] == rp + 4 and accounts(e, 0)["ge"] == 10 - formula(e, "ad_costs[1]")
    drive(e, in_quadrimester(2))
    assert counter(e, "cube[9]") == 2
    drive(e, in_quadrimester(3))                         # nobody advertised in Q2
    assert counter(e, "cube[9]") == 2


def _dives(e):
    return sorted(x[len("dive "):] for x in labels(e) if x.startswith("dive "))


@pytest.mark.parametrize("gear, rows", [([], [1]), (["mask"], [1, 2]), (["tank"], [1, 2, 3]),
                                        (["tank", "mask"], [1, 2, 3]), (["scuba_gear"], [1, 2, 3, 4])])
def test_rulebook_ex_15_21_the_best_diving_item_sets_the_depth(gear, rows):
    """EN l.773, 1206: a level can be entered with an item reaching it ("the one that can do more
    can do less"); a Tank reaches 3 levels below the surface. Sample tile t1: no weapon aboard,
    so nothing under a shark is offered (EN l.779)."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 1, gear)
    _to_zone_5(e, "0.1")
    free = [(c, r) for c, r in ((1, 2), (2, 1), (3, 1), (3, 2), (3, 4), (4, 1)) if r in rows]
    assert _dives(e) == sorted(_cell(e, "t1", c, r) for c, r in free)


def test_rulebook_ex_17_a_sonar_treasure_costs_the_sonar_s_use():
    """EN l.819-821: taking a sonar-icon treasure with a Basic Sonar costs $1 from ME. Sample tile
    t4, column 1: a shark (passed with a Cage alone, no roll), then a $5 sonar treasure."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 4, ["mask", "shark_cage"], tile="t4")
    _to_zone_5(e, "0.1")
    sonar = _cell(e, "t4", 1, 2)
    assert sonar not in _dives(e)                             # no sonar aboard
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 4, ["mask", "shark_cage", "basic_sonar"], tile="t4")
    _to_zone_5(e, "0.1")
    me_before = accounts(e, 0)["me"]
    play(e, f"dive {sonar}")
    assert accounts(e, 0)["me"] == me_before - 1 and sonar in zone(e, "treasures@0")
    assert _cell(e, "t4", 1, 1) in zone(e, "seabed")          # the shark fled, not killed
    assert not [ev for ev in e.events if ev["event"] == "roll"]


@pytest.mark.parametrize("players, rooms", [(2, [1, 2, 3]), (3, [1, 2, 3, 4]), (4, [1, 2, 3, 4, 5])])
def test_rulebook_ex_18_rooms_by_player_count(players, rooms):
    """EN l.949: some rooms exist only at 4 players (sample layout: room 5, 3 spaces; room 4 from
    3 players); only the rooms in play can be sponsored, and only they must open to end the game."""
    e = start(players)
    assert formula(e, "rooms_in_play()") == rooms
    assert formula(e, "capacity(room[5])") == 3


def test_rulebook_ex_12_the_seaplane_pilot_swaps_with_the_meeple_aboard():
    """EN l.704-712: a meeple at sea (a basic worker) swaps with the Boss, the Zone 4 pilot: the
    Boss is now aboard and dives with its advantages (a second treasure from the column), the
    worker goes back to the rest area."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    zodiac = _at_sea(e, 0, 1, ["scuba_gear"], diver="0.2")
    crew = f"crew[{item(e, zodiac)['slot']}]"

    drive(e, lambda e: e.decision.kind == "may one of" and "seaplane" in labels(e),
          answer=_line_up(e, {0: [("0.1", "4"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    keep_items(play(e, "seaplane", zodiac, "swap_pilot"))
    assert zone(e, crew) == ["meeple#0.1"] and "meeple#0.2" in zone(e, "rest@0")
    _to_zone_5(e, "0.2")
    first = _cell(e, "t1", 3, 1)
    play(e, f"dive {first}")
    deeper = [_cell(e, "t1", 3, 2), _cell(e, "t1", 3, 4)]
    assert labels(e) == [f"second_treasure {x}" for x in deeper] + ["skip"]
    play(e, f"second_treasure {deeper[1]}")
    assert zone(e, "treasures@0") == [first, deeper[1]]


def test_rulebook_ex_02_the_introductory_budget_hint_is_advice():
    """EN l.391, 1696: in the introductory game the player board advises at least $12 in HR;
    it is advice only, so any HR amount from $0 may be budgeted and the game goes on."""
    e = start(2, variant="introductory")
    assert e.decision.kind == "choose amount" and labels(e)[:13] == [str(n) for n in range(13)]
    drive(e, at("action"), budget={"hr": 0, "rd": 20, "ge": 20, "me": 15})
    assert accounts(e, 0)["hr"] == 0


def test_rulebook_ex_03_a_short_hr_payment_is_made_up_by_transfers():
    """EN l.405, FR l.413: year 2, HR $4, R&D $8, ME $4, $12 due from HR: the rules move $6 from
    R&D (fee $2) and $2 from ME (fee $2); HR pays $12 and is empty, the bank gets $4 in fees."""
    e = start(2)
    drive(e, lambda e: counter(e, "year") == 2)
    drive(e, at("action"), budget={"hr": 4, "rd": 8, "ge": 0, "me": 4})
    bank = counter(e, "bank")
    run(e, 'pay 12 from accounts["hr"] to bank')
    assert [accounts(e, 0)[a] for a in ("hr", "rd", "me")] == [0, 0, 0]
    moved = [(t["from"], t["amount"], t["fee"]) for t in e.events if t["event"] == "transfer"]
    assert moved == [("accounts[rd]", 6, 2), ("accounts[me]", 2, 2)]
    assert counter(e, "bank") == bank + 12 + 4


def test_rulebook_ex_07_the_booster_engine_goes_one_space_further_for_1():
    """EN l.583, 1240: a Booster Engine lets the zodiac move one more space for $1: with the
    base engine (2 spaces free, a 3rd for $1, EN l.1236) it reaches 4 spaces, the 4th for $1 more."""
    e = start(2)
    x = zodiac(e, 0)
    assert formula(e, "reach(x)", x=x) == 3
    equip(e, f"aboard[{item(e, x)['slot']}]", ["booster_engine"])
    assert formula(e, "reach(x)", x=x) == 4
    assert [formula(e, f"move_cost(x, {d})", x=x) for d in range(1, 5)] == [0, 0, 1, 2]


@pytest.mark.parametrize("swap", [True, False])
def test_rulebook_ex_13_the_boss_flown_aboard_fights_sharks_better(swap):
    """EN l.732-736: the Boss in the Zone 4 line swaps with a basic worker at sea: the diver then
    gets +1 against sharks (and 2 treasures of a column, EX-12); without the swap, the worker
    dives with no bonus. (The counter-case, renting a seaplane in Zone 5, is not encoded.)"""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    zodiac = _at_sea(e, 0, 1, ["spear_gun", "tank"], diver="0.2")
    drive(e, lambda e: e.decision.kind == "may one of" and "seaplane" in labels(e),
          answer=_line_up(e, {0: [("0.1", "4"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    keep_items(play(e, "seaplane", zodiac, "swap_pilot" if swap else "skip"))
    assert formula(e, "shark_bonus(x)", x=zodiac) == (1 if swap else 0)


@pytest.mark.parametrize("holds_5, cost", [(False, 2), (True, 1)])
def test_rulebook_ex_14_no_passing_a_site_whose_map_you_lack(holds_5, cost):
    """EN l.763, FR l.747: a zodiac may not pass through a dig-site space whose map its player
    lacks, so the way round is longer (FR: 8 spaces on the real sea). On the sample sea, from
    site 2 to site 6 is 5 spaces through site 5, 7 spaces round it: with the base engine, a Super
    and a Medium Engine (EX-23) the long way costs $2 from ME, the short one $1."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 2, ["super_engine", "medium_engine"])
    put(e, items_of(e, "map", number=6)[0], "maps@0")
    if holds_5:
        put(e, items_of(e, "map", number=5)[0], "maps@0")
    _to_zone_5(e, "0.1")
    assert formula(e, 'steps_between(sea, "d2", "d6", forbidden(you))') == (5 if holds_5 else 7)
    me_before = accounts(e, 0)["me"]
    play(e, "sail d6")
    assert accounts(e, 0)["me"] == me_before - cost


def test_rulebook_the_eleventh_card_reservation():
    """EN l.1094-1098: with the 10 spaces of Zone 2 taken (from Q6 on, EX-28), a meeple may still
    reserve: at the maintenance its owner chooses an 11th and last card from the deck, placed face
    up on it; the meeple goes back to the 1st space of the Zone 2 line and may buy it next."""
    e = start(2)
    drive(e, in_quadrimester(6), budget={"hr": 20, "rd": 20, "ge": 0, "me": 0})
    assert len(zone(e, "tech_row")) == 10
    drive(e, lambda e: e.decision.kind == "may one of" and "reserve_tech" in labels(e),
          answer=_line_up(e, {0: [("0.2", "2"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    deck = list(zone(e, "tech_deck"))
    play(e, "reserve_tech")
    drive(e, lambda e: e.decision.kind == "search card")
    assert e.decision.player == 0 and sorted(labels(e)) == sorted(deck)
    play(e, deck[-1])
    assert zone(e, "tech_row")[10] == deck[-1] and zone(e, "tech_deck") == deck[:-1]
    assert zone(e, "line[2]") == ["meeple#0.2"]
    drive(e, lambda e: e.decision.kind == "may one of")
    assert e.decision.player == 0 and f"develop {deck[-1]}" in labels(e)
    assert "reserve_tech" not in labels(e)                  # no 12th card


def test_rulebook_satellite_detection_brings_two_satellite_maps():
    """EN l.1280-1284: buying a Satellite Detection item also takes 2 satellite maps of the
    numbers chosen (one tile per number, EN l.96-100); they are maps for the rest of the game:
    income, access to their dig sites (the first holder keeps 1 of 3 tiles there) and scoring."""
    e = start(3)
    card = items_of(e, "tech", name="satellite_detection")[0]
    put(e, card, "tech_row")
    item(e, card)["patent"] = 1
    drive(e, at("action"), budget={"hr": 20, "rd": 20, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and f"buy_item {card}" in labels(e),
          answer=_line_up(e, {0: [("0.1", "2"), ("0.2", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")],
                              2: [("2.1", "6"), ("2.2", "6"), ("2.3", "6")]}))
    play(e, f"buy_item {card}")
    tray = list(zone(e, "satellite_tray"))
    assert len(tray) == 7 and labels(e) == tray
    play(e, tray[2])
    assert e.decision.kind == "keep kept" and len(zone(e, "drawn_tiles@0")) == 3
    play(e, labels(e)[0])
    assert labels(e) == tray[:2] + tray[3:]
    play(e, tray[5])
    play(e, labels(e)[0])
    assert zone(e, "maps@0") == [tray[2], tray[5]] and zone(e, "dig_site[3]") and zone(e, "dig_site[6]")
    assert supply(e, 0) == ["metal_detector", "satellite_detection"]
    assert formula(e, "holds(you, 6)") and not formula(e, "holds(players[1], 6)")
    drive(e, lambda e: counter(e, "year") == 2)
    assert formula(e, "income_of(you)") == 30 + 2 * 5          # $5 a map (EN l.356)


@pytest.mark.parametrize("tile, check", [
    ("improved_spear_gun", "sum(t.bonus for t in held(x)) == 1 and min(t.kills_at for t in weapons(x)) == 4"),
    ("improved_medium_engine", "reach(x) == 6 and move_cost(x, 5) == 1 and move_cost(x, 6) == 2"),
    ("improved_basic_sonar", 'max([t.reach for t in held(x) if t.detects == "sonar"]) == 3')])
def test_rulebook_improved_items_found_on_the_island(tile, check):
    """EN l.1416-1420, 931: a Technological Item found on the island joins the supply: an
    improved Spear Gun (+1 against sharks), an improved Medium Engine (3 spaces for $1, with the
    base engine's 2 free and 1 for $1), an improved Basic Sonar (3 levels below the surface)."""
    e = start(2)
    put(e, items_of(e, "island_tile", name=tile)[0], "island", top=True)
    drive(e, at("action"))
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0
          and "lagoon_trip" in labels(e),
          answer=_line_up(e, {0: [("0.2", "7"), ("0.1", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    play(e, "lagoon_trip")
    play(e, labels(e)[0], "island", *["skip"] * len(supply(e, 0)))
    assert supply(e, 0) == [tile]                      # the Metal Detector is aboard: it went there
    x = zodiac(e, 0)
    put(e, zone(e, "item_supply@0")[0], f"aboard[{item(e, x)['slot']}]")
    assert formula(e, check, x=x)


@pytest.mark.parametrize("post", [True, False])
def test_rulebook_a_recruit_may_post_the_envelope_after_the_placements(post):
    """EN l.453-455: an envelope not posted before the player runs out of meeples cannot be
    posted later in the quadrimester, except by a worker just recruited in Zone 1, before it
    joins a line (the special case: recruits only act once every meeple is placed)."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 20, "rd": 0, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e),
          answer=_line_up(e, {0: [("0.1", "1"), ("0.2", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    assert zone(e, "envelope_slots") == [] and zone(e, "rest@0") == []
    play(e, "recruit")
    assert e.decision.kind == "may post_envelope"
    play(e, "post_envelope" if post else "skip", "6")
    assert len(zone(e, "envelope_slots")) == (1 if post else 0)
    drive(e, lambda e: e.decision.kind == "secret bid" or counter(e, "quad") == 2)
    assert (e.decision.kind == "secret bid" and e.decision.player == 0) == post


# ------------------------------------------------------------------ items per zodiac
def _second_zodiac(e, seat):
    """Given: the seat bought a second zodiac (it waits in port)."""
    x = next(x for x in items_of(e, "zodiac") if item(e, x)["skipper"] is None)
    item(e, x)["skipper"] = seat
    return x


def _aboard(e, x, names):
    return equip(e, f"aboard[{item(e, x)['slot']}]", names)


def test_rulebook_ex_08_a_zodiac_carries_its_own_equipment():
    """EN l.617: the zodiac holding the default swimsuit, a Metal Detector, a Mask, a Lobster
    Pot and an additional engine may land on the island, fish lobster, dive to the Mask's level 2
    and move with the base engine and one more; the player's other zodiac, empty, can do none of
    it (swimsuit level 1, base engine only: 3 spaces)."""
    e = start(2)
    equipped, empty = zodiac(e, 0), _second_zodiac(e, 0)
    put(e, zone(e, "item_supply@0")[0], f"aboard[{item(e, equipped)['slot']}]")   # the Detector
    _aboard(e, equipped, ["mask", "lobster_pot", "booster_engine"])
    said = ('[equipped(x, lagoon_needs["island"]), equipped(x, lagoon_needs["lobster"]),'
            ' depth(x), reach(x), count(engines(x))]')
    assert formula(e, said, x=equipped) == [True, True, 2, 4, 2]
    assert formula(e, said, x=empty) == [False, False, 1, 3, 1]


def test_rulebook_ex_22_two_zodiacs_reach_2_and_4_levels():
    """EN l.1216, FR l.1201: the blue zodiac reaches 2 levels below the surface, the green one 4
    (a Mask aboard one, Scuba Gear aboard the other): from the same dig site (sample tile t1,
    no weapon aboard, so nothing under its shark) the green one is offered the level-4 treasure
    too, the blue one not."""
    e = start(2)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    blue = _at_sea(e, 0, 1, ["mask"])
    green = _second_zodiac(e, 0)
    item(e, green)["at"] = "d1"
    put(e, "meeple#0.2", f"crew[{item(e, green)['slot']}]")
    _aboard(e, green, ["scuba_gear"])
    shallow = [(1, 2), (2, 1), (3, 1), (3, 2), (4, 1)]
    offered = "[c for c in seabed if reachable(x, c)]"
    assert sorted(formula(e, offered, x=blue)) == sorted(_cell(e, "t1", c, r) for c, r in shallow)
    assert sorted(formula(e, offered, x=green)) == sorted(_cell(e, "t1", c, r) for c, r in shallow + [(3, 4)])
    assert [formula(e, "depth(x)", x=x) for x in (blue, green)] == [2, 4]


def test_rulebook_a_zodiac_carries_at_most_two_additional_engines():
    """EN l.619, 742: only 2 additional engines can be added to the one on the zodiac: with two
    aboard, a third is not loaded (another item still is)."""
    e = start(2)
    x = zodiac(e, 0)
    booster, medium = _aboard(e, x, ["booster_engine", "medium_engine"])
    spare_engine, mask = equip(e, "item_supply@0", ["super_engine", "mask"])
    can_load = "can(load_item with t = t, ships = [x])"
    assert not formula(e, can_load, x=x, t=spare_engine) and formula(e, can_load, x=x, t=mask)
    put(e, medium, "item_supply@0")
    assert formula(e, can_load, x=x, t=spare_engine)


def test_rulebook_items_are_loaded_when_a_zodiac_leaves_port():
    """EN l.613, 623: items bought go to the supply; they are exchanged with a zodiac in port:
    here when it goes to sea, the supply's Mask goes aboard and the Detector stays."""
    e = start(2)
    mask = equip(e, "item_supply@0", ["mask"])[0]
    drive(e, at("action"))
    drive(e, lambda e: e.decision.kind == "may one of" and e.decision.player == 0
          and "go_to_sea" in labels(e),
          answer=_line_up(e, {0: [("0.1", "7"), ("0.2", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    x = zodiac(e, 0)
    play(e, "go_to_sea", x, "skip", f"load_item {x}")
    assert zone(e, f"aboard[{item(e, x)['slot']}]") == [mask] and supply(e, 0) == ["metal_detector"]
    assert e.decision.kind == "do sail"                        # then it sails


def _reserve_and_sail(e, reservers):
    """Each seat has a zodiac at sea (seat s on site s + 1); each seat of `reservers` places a
    worker in Zone 4 and reserves a seaplane there; drive to seat 0's Zone 5 turn. Returns
    whether seat 0 is offered a rental."""
    seats = range(e.n)
    for seat in seats:
        _at_sea(e, seat, seat + 1, [], diver=f"{seat}.1", tile=f"t{seat + 1}")
    line_up = _line_up(e, {s: [(f"{s}.2", "4" if s in reservers else "6"), (f"{s}.3", "6")]
                           for s in seats})

    def answer(e):
        return "seaplane" if "seaplane" in labels(e) else line_up(e)
    drive(e, lambda e: e.decision.player == 0 and ("rent_seaplane" in labels(e)
                                                    or e.decision.kind == "do any of"),
          answer=answer)
    return "rent_seaplane" in labels(e)


def test_rulebook_ex_13_no_seaplane_left_to_rent_in_zone_5():
    """EN l.732-736, FR l.715-719: with no meeple of yours in Zone 4 and both grey seaplanes
    reserved there, no seaplane can be rented in Zone 5: no item nor pilot exchange."""
    e = start(3)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    assert not _reserve_and_sail(e, [1, 2])
    assert zone(e, "grey_seaplanes") == [] and len(zone(e, "seaplanes_out")) == 2


@pytest.mark.parametrize("players, reservers, price", [(3, [], 3), (3, [1], 4), (2, [], 3), (2, [1], 3)])
def test_rulebook_seaplane_rental_price(players, reservers, price):
    """EN l.732: a grey seaplane still in Zone 4 is rented for $3 if 2 are left, $4 if only 1;
    FR l.713: $3 for the last one too at 1-2 players. Paid from ME; then it flies items: the
    supply's Mask goes aboard the zodiac at sea."""
    e = start(players)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    assert _reserve_and_sail(e, reservers)
    mask = equip(e, "item_supply@0", ["mask"])[0]
    x = zodiac(e, 0)
    before = accounts(e, 0)["me"]
    play(e, "rent_seaplane", "skip", f"load_item {x}")
    assert accounts(e, 0)["me"] == before - price
    assert mask in zone(e, f"aboard[{item(e, x)['slot']}]") and supply(e, 0) == ["metal_detector"]
    assert len(zone(e, "seaplanes_out")) == len(reservers) + 1


def _zodiacs_about_to_cross(quad: int, variant: str | None = None):
    """Seat 0's turn in Zone 5 of quadrimester `quad`, on the sample sea: a zodiac at dig site 1
    with a Mask and the #3 map (so it may sail to site 3 through b5), and a second zodiac waiting
    at b5 with a recruit aboard. Returns the game, the mover and the other zodiac."""
    e = start(2) if variant is None else start(2, variant=variant)
    drive(e, in_quadrimester(quad), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    mover = _at_sea(e, 0, 1, ["mask"])
    put(e, items_of(e, "map", number=3)[-1], "maps@0")
    other = _second_zodiac(e, 0)
    item(e, other)["at"] = "b5"
    put(e, "meeple#0.4", f"crew[{item(e, other)['slot']}]")    # a recruit, never placed
    _to_zone_5(e, "0.1")
    return e, mover, other


def test_rulebook_zodiacs_that_cross_exchange_items_and_meeples():
    """EN l.758, FR l.741: your zodiacs that cross during a move exchange items; FR also lets
    the meeples aboard swap. Sample sea: from site 1 to site 3 through b5, where the other
    zodiac waits: the Mask goes over, the meeples swap. Going to a2's side instead meets nobody."""
    for meet in (True, False):
        e, mover, other = _zodiacs_about_to_cross(2)
        if not meet:
            play(e, "sail a1")
            assert e.decision.kind == "do any of"               # nothing to exchange
            continue
        play(e, "sail d3", f"load_item {other}", "swap_crews")
        assert [item(e, t)["name"] for t in zone(e, f"aboard[{item(e, other)['slot']}]")] == ["mask"]
        assert zone(e, f"crew[{item(e, mover)['slot']}]") == ["meeple#0.4"]
        assert zone(e, f"crew[{item(e, other)['slot']}]") == ["meeple#0.1"]


@pytest.mark.parametrize("order", [("0.2", "0.1", "0.3"), ("0.2", "0.3", "0.1")])
def test_rulebook_one_boss_trains_one_worker_a_quadrimester(order):
    """FR l.484, 494: with its Boss in the line, the player's "1er ouvrier de base" learns from it,
    the hat put on just before the first of the two acts. Red's line 2 is worker, Boss, worker
    (or worker, worker, Boss) at 3 players, 2 hats of Zone 2 left: the first worker is hatted;
    the second is not, once the first has acted and left the line."""
    e = start(3)
    drive(e, at("action"), budget=RICH)
    lines = _line_up(e, {0: [(m, "2") for m in order], 1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")],
                         2: [("2.1", "6"), ("2.2", "6"), ("2.3", "6")]})
    drive(e, lambda e: e.decision.kind != "action" and "put_hat" in labels(e), answer=lines)
    assert e.decision.player == 0 and zone(e, "line[2]") == [f"meeple#{m}" for m in order]
    play(e, "put_hat")
    assert item(e, f"meeple#{order[0]}")["hat"] is not None
    offered = []
    while zone(e, "line[2]"):
        offered.append("put_hat" in labels(e))
        play(e, "skip")                               # no action taken in Zone 2
    assert offered == [False] * 3
    assert item(e, f"meeple#{order[1]}")["hat"] is None and item(e, f"meeple#{order[2]}")["hat"] is None
    assert len(formula(e, "hats_left(2)")) == 1


def test_rulebook_a_q1_recruit_cannot_join_zone_4():
    """FR l.520: the recruit goes on a free space of a line "sauf zones 1, 5 et 10. Il sera donc
    activé dès ce tour"; Zone 4 is skipped in Q1 (EN l.696), so in Q1 its line is not offered to
    a recruit, who would otherwise stand there until Q2."""
    e = start(2)
    drive(e, at("action"), budget={"hr": 30, "rd": 0, "ge": 0, "me": 0})
    drive(e, lambda e: e.decision.kind == "may one of" and "recruit" in labels(e),
          answer=_line_up(e, {0: [("0.1", "1"), ("0.2", "6"), ("0.3", "6")],
                              1: [("1.1", "6"), ("1.2", "6"), ("1.3", "6")]}))
    play(e, "recruit", "skip")
    assert labels(e) == ["2", "3", "6", "7", "8", "9"]


def test_rulebook_a_shark_that_fled_is_not_faced_again_by_the_second_treasure():
    """FR l.790: a shark not killed "est considéré en fuite provisoire jusqu'à ce que votre
    plongeur soit remonté à bord" (EN l.1334, 1339: it "disappears until the end of your turn").
    The Boss with a Harpoon and a Tank (sample tile t10, column 3: a shark, then $5 and $7)
    faces the shark once on the way to the $5, and not again on the way on down to the $7."""
    fled = 0
    for seed in range(6):
        e = start(2, seed=seed)
        drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
        _at_sea(e, 0, 1, ["harpoon", "tank"], tile="t10")
        shark, first, second = (_cell(e, "t10", 3, r) for r in (1, 2, 3))
        _to_zone_5(e, "0.1")
        rolls = len([ev for ev in e.events if ev["event"] == "roll"])
        play(e, f"dive {first}", f"second_treasure {second}")
        assert zone(e, "treasures@0") == [first, second]
        assert len([ev for ev in e.events if ev["event"] == "roll"]) == rolls + 1
        fled += shark not in zone(e, "cold_room@0")
    assert fled > 0
