"""The worked examples of the Otys rulebook (FR), each played through the rules with its numbers:
the Given is arranged at the first turn decision, the When is a list of decisions, the Then is
the rulebook's outcome. Failure cases included. Ex. n follows the numbering of the rules digest."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError

from .helpers import (cubes, dive_with_key, empty_out, item, labels, me, place_diver, play, put,
                      refresh, sponsor_at, sponsor_ids, start, types, use, with_module, zone)


def played(e, *keys, seat=0):
    """These keys are already in the row below the board, in this order."""
    for k in keys:
        put(e, k, f"key_row@{seat}")


def test_rulebook_ex_1_engineer_upgrades_the_mechanic_and_the_hacker_returns_all_keys():
    """FR l.245-251: Noélie plays key 1, declines Sponsor 3, her Engineer pays 1 credit and
    upgrades the Mechanic; key 1 meets the Hacker, so every played key comes back."""
    e = start()
    sponsor_at(e, 3, 1)
    engineer = place_diver(e, "engineer", 1)
    surface = zone(e, "queue@0")[:3]
    played(e, "key#0.2", "key#0.3", "key#0.4", "key#0.5", "own_x#0.1")   # the next key meets the Hacker
    refresh(e)
    play(e, "take_turn key#0.1", "1", "0")
    assert labels(e)[-1] == "skip"                       # the sponsor is optional
    play(e, "skip", "0")                                 # no sponsor, no thruster
    use(e)                                               # the Engineer acts
    play(e, "upgrade_mechanic", "surface")
    assert (me(e)["credits"], me(e)["mechanic"]) == (3 - 1, 1)
    assert zone(e, "key_row@0") == []                    # all her keys are back, active side up
    assert sorted(zone(e, "keys@0")) == ["key#0.1", "key#0.2", "key#0.3", "key#0.4", "key#0.5",
                                         "own_x#0.1"]
    assert zone(e, "queue@0")[:4] == [engineer] + surface   # S1-S3 shift to S2, S3, L1


def test_rulebook_ex_1_an_upgraded_hacker_is_met_one_key_sooner():
    """FR l.503, 508: with 5 keys placed, the Hacker moved one notch left is met at the end of the
    turn; the Mechanic upgraded instead, the keys stay in the row."""
    e = start()
    place_diver(e, "engineer", 1)
    played(e, "key#0.2", "key#0.3", "key#0.4", "key#0.5")
    dive_with_key(e, 1)
    play(e, "upgrade_hacker", "surface")                 # 5 after one upgrade: met now
    assert zone(e, "key_row@0") == []
    e = start()
    place_diver(e, "engineer", 1)
    played(e, "key#0.2", "key#0.3", "key#0.4", "key#0.5")
    dive_with_key(e, 1)
    play(e, "upgrade_mechanic", "surface")
    assert zone(e, "key_row@0") == ["key#0.2", "key#0.3", "key#0.4", "key#0.5", "key#0.1"]


def test_rulebook_ex_2_x_key_rotates_the_display_and_sponsor_3_recovers_key_4():
    """FR l.275-279: Pauline plays her X key at level 2; the display rotates first, so Sponsor 3
    (level 1 before) is used at level 2 to recover key 4; her Fuels expert with module finds a
    fuel and a battery, and surfaces."""
    e = start()
    sponsor_at(e, 3, 1)
    before = sponsor_ids(e)
    fuels = place_diver(e, "fuels", 2)
    with_module(e, fuels)
    played(e, "key#0.2", "key#0.4")
    put(e, "neutral_x#1", "key_row@0")                   # a neutral X key played earlier
    empty_out(e, "dig[2]@0")
    refresh(e)
    play(e, "take_turn own_x#0.1", "2", "0")
    assert sponsor_ids(e) == [before[4]] + before[:4]    # level 5 -> 1, the others down one
    use(e)                                               # Sponsor 3, now at level 2
    assert labels(e) == ["key#0.2", "key#0.4"]           # her own played keys, not the neutral one
    play(e, "key#0.4", "0")
    use(e)
    play(e, "find", "gain_battery", "surface")
    assert "key#0.4" in zone(e, "keys@0")
    assert zone(e, "key_row@0") == ["key#0.2", "neutral_x#1", "own_x#0.1"]   # the gap closed
    assert types(e, "dig[2]@0") == ["fuel"] and me(e)["batteries"] == 1 + 1
    assert zone(e, "queue@0")[0] == fuels


def test_rulebook_ex_2_a_neutral_x_key_cannot_be_recovered_by_sponsor_3():
    e = start()
    sponsor_at(e, 3, 2)
    put(e, "neutral_x#1", "key_row@0")
    refresh(e)
    play(e, "take_turn key#0.2", "2", "0")
    assert labels(e) == ["0", "1"]                       # Sponsor 3 is not offered: no own key below


def test_rulebook_ex_3_thruster_moves_the_metals_expert_two_levels_then_oxygen():
    """FR l.287-291: Delphine plays key 4 (Sponsor 1: +1 credit), spends a battery to move her
    Metals expert from L2 to L4 (capacity 3), finds a metal there and keeps it down with oxygen."""
    e = start()
    sponsor_at(e, 1, 4)
    metals = place_diver(e, "metals", 2)
    me(e)["mechanic"], me(e)["batteries"] = 2, 2
    empty_out(e, "dig[4]@0")
    at3, at4 = zone(e, "queue@0")[5], zone(e, "queue@0")[6]
    refresh(e)
    play(e, "take_turn key#0.4", "4", "0")
    use(e)                                               # +1 credit
    play(e, "1", metals)
    assert labels(e) == ["1", "3", "4", "5"]             # capacity 3 from L2
    play(e, "4")
    assert zone(e, "queue@0")[4:7] == [at3, at4, metals]  # L3, L4 moved up
    use(e)
    play(e, "find", "oxygen")
    assert (me(e)["credits"], me(e)["batteries"]) == (3 + 1, 2 - 2)
    assert types(e, "dig[4]@0") == ["metal"]
    assert zone(e, "queue@0")[6] == metals               # stays at L4
    assert zone(e, "key_row@0") == ["key#0.4"]


@pytest.mark.parametrize("upgrades, reach", [(0, ["1", "3"]), (1, ["1", "3", "4"])])
def test_rulebook_ex_3_capacity_1_cannot_move_two_levels(upgrades, reach):
    """The Mechanic's capacity is 1 at the start, 2 after one upgrade (FR l.501, Ex. 1)."""
    e = start()
    sponsor_at(e, 1, 4)
    metals = place_diver(e, "metals", 2)
    me(e)["batteries"], me(e)["mechanic"] = 2, upgrades
    refresh(e)
    play(e, "take_turn key#0.4", "4", "0", "skip", "1", metals)
    assert labels(e) == reach
    if upgrades == 0:
        with pytest.raises(UsageError, match="'4' is not one of the options"):
            e.choose_label("4")


def test_rulebook_ex_4_contract_completed_mid_turn():
    """FR l.315-319: Rodrigue plays key 5 (Sponsor 5: +1 battery), his Plants expert finds a plant
    in zone 5, and he completes a 3-point contract for 2 plants and 1 metal there at once; the
    other cubes stay, the public slot is refilled."""
    e = start(3)
    sponsor_at(e, 5, 5)
    plants = place_diver(e, "plants", 5)
    empty_out(e, "dig[5]@0")
    cubes(e, "dig[5]@0", "plant", "metal", "fuel")
    rodrigue = next(c for c in e.state["items"]
                    if c.startswith("contract#") and item(e, c)["needs"] == ["plant", "plant", "metal"])
    put(e, zone(e, "public")[-1], "deck", top=True)      # still 3 public contracts
    put(e, rodrigue, "public", top=True)
    for c in zone(e, "public")[1:]:
        item(e, c).update(needs=["technology"] * 3, groups=[])   # nothing else can be completed
    next_card = zone(e, "deck")[0]
    refresh(e)
    assert not any(x.startswith("complete_contract") for x in labels(e))
    play(e, "take_turn key#0.5", "5", "0")
    use(e)                                               # +1 battery
    play(e, "0")
    use(e)
    play(e, "find")
    assert "complete_contract 5" in labels(e)            # free, before the ascent
    play(e, "complete_contract 5", rodrigue)
    assert len(labels(e)) == 1                           # the 2 plants and the metal; the fuel stays
    play(e, labels(e)[0])
    assert me(e)["notoriety"] == 3 and me(e)["batteries"] == 1 + 1
    assert types(e, "dig[5]@0") == ["fuel"]
    assert rodrigue in zone(e, "contract_discard")
    assert zone(e, "public")[-1] == next_card and len(zone(e, "public")) == 3   # refilled
    play(e, "surface")
    assert zone(e, "queue@0")[0] == plants and zone(e, "key_row@0") == ["key#0.5"]


@pytest.mark.parametrize("zone_types, fits", [
    (["technology", "fuel"], True), (["technology", "fuel", "plant"], True),   # extra cubes stay
    (["technology", "technology"], False), (["fuel"], False)])
def test_rulebook_ex_5a_fixed_combination(zone_types, fits):
    """FR l.335-337: a fixed contract is met only by the resources pictured, from one zone."""
    e = start()
    empty_out(e, "public")
    for c in zone(e, "deck")[:1]:
        item(e, c).update(needs=["technology", "fuel"], groups=[])
        put(e, c, "public")
    for l in range(1, 6):
        empty_out(e, f"dig[{l}]@0")
    cubes(e, "dig[4]@0", *zone_types)
    cubes(e, "dig[3]@0", "technology")                   # split over two zones: never enough
    cubes(e, "dig[2]@0", "fuel")
    refresh(e)
    assert ("complete_contract 4" in labels(e)) == fits
    assert not any(x in labels(e) for x in ["complete_contract 2", "complete_contract 3"])
    if fits:
        play(e, "complete_contract 4", zone(e, "public")[0])
        play(e, labels(e)[0])
        assert me(e)["notoriety"] == item(e, zone(e, "contract_discard")[-1])["points"]
        assert types(e, "dig[4]@0") == sorted(zone_types[2:])


@pytest.mark.parametrize("zone_types, fits", [
    (["plant", "metal", "fuel"], True), (["plant", "plant", "metal"], False),
    (["plant", "plant", "metal", "technology"], True)])
def test_rulebook_ex_5b_free_combination(zone_types, fits):
    """FR l.341-343: 1-1-1 is one resource of 3 different types: plant, metal, fuel, not plant,
    plant, metal."""
    e = start()
    empty_out(e, "public")
    c = zone(e, "deck")[0]
    item(e, c).update(needs=[], groups=[1, 1, 1])
    put(e, c, "public")
    for l in range(1, 6):
        empty_out(e, f"dig[{l}]@0")
    cubes(e, "dig[4]@0", *zone_types)
    refresh(e)
    assert ("complete_contract 4" in labels(e)) == fits
    if fits:
        play(e, "complete_contract 4", c)
        spent = [[item(e, x)["type"] for x in group.strip("[]").split(", ")] for group in labels(e)]
        assert all(len(set(s)) == 3 for s in spent)


def trader_example(module: bool = False):
    """FR l.467-471: Noélie's Trader at L5 with 1 metal and 2 fuels; the Store as set up:
    metal row 1, plant row 1, fuel rows 1-2, technology empty."""
    e = start()
    trader = place_diver(e, "trader", 5)
    if module:
        with_module(e, trader)
    for t in ["metal", "plant", "fuel", "technology"]:
        empty_out(e, f"store[{t}]")
    cubes(e, "store[metal]", "metal")
    cubes(e, "store[plant]", "plant")
    cubes(e, "store[fuel]", "fuel", "fuel")
    empty_out(e, "dig[5]@0")
    metal, fuel, _ = cubes(e, "dig[5]@0", "metal", "fuel", "fuel")
    me(e)["credits"] = 5
    refresh(e)
    play(e, "take_turn key#0.5", "5", "0")
    if "skip" in labels(e):
        play(e, "skip")
    play(e, "0")
    return e, trader, metal, fuel


def test_rulebook_ex_6_trader_sells_the_metal_for_2_credits():
    e, _, metal, fuel = trader_example()
    use(e)
    play(e, "sell", metal)
    assert labels(e) == ["credits"]                      # row 2: no notoriety
    play(e, "credits")
    assert me(e)["credits"] == 5 + 2
    assert len(zone(e, "store[metal]")) == 2 and types(e, "dig[5]@0") == ["fuel", "fuel"]


def test_rulebook_ex_6_a_fuel_sells_for_1_credit():
    e, _, _, fuel = trader_example()
    use(e)
    play(e, "sell", fuel, "credits")
    assert me(e)["credits"] == 5 + 1


@pytest.mark.parametrize("t, price", [("metal", 3), ("plant", 3), ("fuel", 2)])
def test_rulebook_ex_6_buying_prices(t, price):
    e, *_ = trader_example()
    column = zone(e, f"store[{t}]")[:]
    use(e)
    play(e, "buy")
    assert labels(e) == ["metal", "plant", "fuel"]       # no technology in the Store
    play(e, t)
    assert me(e)["credits"] == 5 - price and len(zone(e, "dig[5]@0")) == 4
    assert zone(e, f"store[{t}]") == column[:-1] and column[-1] in zone(e, "dig[5]@0")   # the lowest


def test_rulebook_ex_6_with_the_module_3_credits_or_1_notoriety():
    for gain, after in [("credits", (5 + 3, 0)), ("notoriety", (5, 1))]:
        game, _, m, _ = trader_example(module=True)
        use(game)
        play(game, "sell", m)
        assert labels(game) == ["credits", "notoriety"]
        play(game, gain)
        assert (me(game)["credits"], me(game)["notoriety"]) == after


def test_rulebook_ex_7_scout_takes_a_reward_and_its_permanent_side_pays_later():
    """FR l.533: Pauline's Scout at L4 pays 2 credits, takes token A (1 fuel or 1 metal; +2
    credits permanent) and chooses metal; A goes to her L4 slot and level 4 is refilled. Then a
    contract completed with zone 4's cubes gives +2 credits more (FR l.567)."""
    e = start()
    scout = place_diver(e, "scout", 4)
    a, b = zone(e, "reward_display[4]")
    item(e, a).update(front="resource", colours=["fuel", "metal"], back="credits")
    item(e, b).update(front="battery", colours=[], back="notoriety")
    for l in range(1, 6):
        empty_out(e, f"dig[{l}]@0")
    empty_out(e, "public")
    c = zone(e, "deck")[0]
    item(e, c).update(needs=["metal"], groups=[], points=2, credit=0, battery=0)
    put(e, c, "public")
    dive_with_key(e, 4)
    assert labels(e) == [a, b]
    play(e, a, "metal", "find")
    assert me(e)["credits"] == 3 - 2 and types(e, "dig[4]@0") == ["metal"]
    assert zone(e, "reward_slot[4]@0") == [a]
    assert len(zone(e, "reward_display[4]")) == 2 and b in zone(e, "reward_display[4]")
    play(e, "surface")
    assert zone(e, "queue@0")[0] == scout
    play(e, "complete_contract 4", c)
    play(e, labels(e)[0])                                # the metal
    assert labels(e)[0] == "gain 2 credits" and "skip" in labels(e)   # "you may" gain it
    play(e, "gain 2 credits")
    assert me(e)["credits"] == 3 - 2 + 2 and me(e)["notoriety"] == 2


def test_rulebook_ex_3_capacity_3_reaches_three_levels_not_four():
    """FR l.287: Delphine's capacity « est de maximum 3 » (her Mechanic upgraded twice): from L1
    her Metals expert reaches L2 to L4, not L5."""
    e = start()
    sponsor_at(e, 1, 4)
    metals = place_diver(e, "metals", 1)
    me(e)["mechanic"], me(e)["batteries"] = 2, 2
    refresh(e)
    play(e, "take_turn key#0.4", "4", "1", metals)
    assert labels(e) == ["2", "3", "4"]
