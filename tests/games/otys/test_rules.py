"""Otys rules without a worked example in the rulebook: the Spy's copy (FR l.483-485) and the
author's variant (FR l.487), the Sponsor sides (FR l.365-413) and the
thrusters before or after the Sponsor (FR l.268)."""
from __future__ import annotations

from .helpers import (cubes, dive_with_key, diver, empty_out, item, labels, me, place_diver, play,
                      put, refresh, roles, sponsor_at, start, types, use, with_module, zone)


def spy_copies_the_fuels_expert(variant=None):
    """Seat 0's Spy at L1 copies seat 1's Fuels expert at L1, on seat 0's board."""
    e = start(2, variant)
    place_diver(e, "spy", 1, seat=0)
    place_diver(e, "fuels", 1, seat=1)
    empty_out(e, "dig[1]@0")
    sponsor_at(e, 3, 1)                                 # no key played: Sponsor 3 is not offered
    refresh(e)
    play(e, "take_turn key#0.1", "1", "0", "0")
    use(e)
    assert labels(e) == ["spy_contracts", "spy_copy 1"]   # 2 players: one neighbour
    play(e, "spy_copy 1", "find")                      # the copied Fuels expert's own choice
    return e


def test_the_spy_copies_a_neighbour_diver_on_its_own_board():
    e = spy_copies_the_fuels_expert()
    theirs = zone(e, "queue@1")[:]
    play(e, "surface")
    assert types(e, "dig[1]@0") == ["fuel"] and me(e, 0)["credits"] == 3 - 1
    assert zone(e, "queue@1") == theirs and me(e, 1)["credits"] == 3   # the credit to the supply
    assert roles(e, 0)[0] == "spy"


def test_authors_variant_the_copied_diver_surfaces_and_its_owner_is_paid():
    e = spy_copies_the_fuels_expert("author")
    assert e.decision.player == 1 and labels(e) == ["surface", "oxygen"]   # its owner decides
    play(e, "surface", "surface")
    assert roles(e, 1)[0] == "fuels" and roles(e, 0)[0] == "spy"
    assert (me(e, 0)["credits"], me(e, 1)["credits"]) == (3 - 1, 3 + 1)
    e = spy_copies_the_fuels_expert("author")
    play(e, "oxygen", "surface")                        # a battery keeps it down
    assert roles(e, 1)[3] == "fuels" and me(e, 1)["batteries"] == 0


def test_advanced_sponsor_3_brings_the_level_5_diver_to_the_top():
    e = start()
    sponsor_at(e, 3, 2, "advanced")
    scout = place_diver(e, "scout", 5)
    refresh(e)
    play(e, "take_turn key#0.2", "2", "0")
    use(e)
    assert zone(e, "queue@0")[0] == scout


def test_advanced_sponsor_1_makes_the_engineer_free():
    e = start()
    sponsor_at(e, 1, 3, "advanced")
    place_diver(e, "engineer", 3)
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    use(e)
    play(e, "0")
    use(e)
    play(e, "upgrade_hacker", "surface")
    assert me(e)["credits"] == 3 and me(e)["hacker"] == 1


def test_sponsor_2_the_engineer_acts_twice():
    e = start()
    sponsor_at(e, 2, 3)
    place_diver(e, "engineer", 3)
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    use(e)
    play(e, "0")
    use(e)
    play(e, "upgrade_hacker")
    use(e)
    play(e, "upgrade_mechanic", "surface")
    assert (me(e)["credits"], me(e)["hacker"], me(e)["mechanic"]) == (1, 1, 1)


def test_sponsor_4_equips_the_diver_for_2_credits_and_1_notoriety():
    e = start()
    sponsor_at(e, 4, 3)
    d = place_diver(e, "plants", 3)
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    use(e)
    use(e)
    play(e, "find", "gain_credit", "surface")           # the module works this very turn
    assert (me(e)["credits"], me(e)["notoriety"]) == (3 - 2 + 1, 1)
    assert zone(e, "queue@0")[0] == d == diver(e, "plants")


def shown_sides(e) -> list[str]:
    return [next(side for side in ("standard", "advanced") if item(e, s)["shown"] == item(e, s)[side])
            for s in zone(e, "display")]


def test_the_standard_game_shows_every_standard_side_and_the_advanced_variant_draws_them():
    """FR l.199: the standard side only in a first game; « par la suite, déterminez aléatoirement
    quelle face sera jouée » (variants/advanced.yaml replaces the setup action)."""
    for seed in range(6):
        assert shown_sides(start(2, seed=seed)) == ["standard"] * 5
    drawn = [shown_sides(start(2, "advanced", seed)) for seed in range(6)]
    assert {side for sides in drawn for side in sides} == {"standard", "advanced"}
    assert len({tuple(sides) for sides in drawn}) > 1    # a new draw each game


def test_advanced_sponsor_5_moves_a_cube_only_between_zones_where_one_can_go():
    """FR l.413: for a battery, a cube goes from this level's dig zone to another or back; a zone
    pair with nothing to move (both empty, or both full) is not offered."""
    e = start()
    sponsor_at(e, 5, 1, "advanced")
    for level in range(1, 6):
        empty_out(e, f"dig[{level}]@0")
    cubes(e, "dig[1]@0", "metal", "metal", "metal")      # full (capacity 3)
    cubes(e, "dig[2]@0", "plant", "plant", "plant")      # full too: nothing can move 1 <-> 2
    fuel, = cubes(e, "dig[4]@0", "fuel")
    refresh(e)
    play(e, "take_turn key#0.1", "1", "0")
    use(e)
    play(e, "move_cube")
    assert labels(e) == ["3", "4", "5"]
    play(e, "4")
    assert fuel not in labels(e) and len(labels(e)) == 3   # zone 1 is full: only its cubes go
    play(e, labels(e)[0])
    assert types(e, "dig[4]@0") == ["fuel", "metal"] and me(e)["batteries"] == 0


def test_sponsor_4_is_not_offered_without_2_credits():
    """FR l.401: the module costs 2 credits; with 1 the Sponsor is not offered, the turn goes on
    with the thrusters."""
    e = start()
    sponsor_at(e, 4, 3)
    place_diver(e, "plants", 3)
    me(e)["credits"] = 1
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    assert labels(e) == ["0", "1"]


def test_a_contract_drawn_by_the_spy_is_completed_only_once_kept():
    """FR l.481 « piocher 4 cartes Contrat. Choisissez une carte [...] et remettez sous la pioche
    les autres »: the draw is one action, resolved entirely. A contract among the four cannot be
    completed while the player chooses which one to keep (it would score and then be kept, or a
    second one kept); once the kept card is in hand, it can be, before the ascent (FR l.299)."""
    e = start()
    place_diver(e, "spy", 2)
    empty_out(e, "public")
    for level in range(1, 6):
        empty_out(e, f"dig[{level}]@0")
    cubes(e, "dig[3]@0", "metal")
    dive_with_key(e, 2)
    deck = zone(e, "deck")[:]                            # (the public row refilled from it)
    for c in deck[:4]:
        item(e, c).update(needs=["metal"], groups=[], points=2, credit=0, battery=0)
    for c in zone(e, "public"):
        item(e, c).update(needs=["technology"] * 3, groups=[])   # none of them can be completed
    play(e, "spy_contracts")
    assert sorted(labels(e)) == sorted(deck[:4])         # only the four: nothing free inside
    play(e, deck[1])
    assert "complete_contract 3" in labels(e)            # kept: it may be completed now
    play(e, "complete_contract 3", deck[1])
    play(e, labels(e)[0])                                # the metal
    assert me(e)["notoriety"] == 2 and deck[1] in zone(e, "contract_discard")
    assert zone(e, "hand@0") == []
    assert sorted(zone(e, "deck")[-3:]) == sorted([deck[0], deck[2], deck[3]])


def test_sponsor_4_flips_the_diver_activated_this_turn():
    """FR l.401: « retournez la tuile Plongeur que vous activez à ce tour ». A thruster brings the
    Plants expert from L2 to L3 before the Sponsor; Sponsor 4 flips it, the diver activated, not
    the Scout that was at L3 when the key was chosen. No thruster is offered after it (a move
    then would flip the same diver: the one activated), even with a battery left."""
    e = start()
    sponsor_at(e, 4, 3)
    scout = place_diver(e, "scout", 3)
    plants = place_diver(e, "plants", 2)
    assert roles(e)[4:6] == ["plants", "scout"]
    me(e)["batteries"] = 2
    refresh(e)
    play(e, "take_turn key#0.3", "3", "1", plants, "3")
    assert roles(e)[4:6] == ["scout", "plants"]
    use(e)                                               # Sponsor 4
    assert labels(e)[-1] == "skip" and "0" not in labels(e)   # the diver's action, at once
    use(e)
    play(e, "find", "gain_credit", "surface")            # the module works this very turn
    assert item(e, plants)["equipped"] and not item(e, scout)["equipped"]
    assert (me(e)["credits"], me(e)["notoriety"], me(e)["batteries"]) == (3 - 2 + 1, 1, 1)


def test_sponsor_4_is_not_offered_when_the_diver_activated_has_its_module():
    """FR l.401: the tile is turned to its module side; the diver at the key's level once the
    thrusters have moved already shows it, so the Sponsor is not offered."""
    e = start()
    sponsor_at(e, 4, 3)
    with_module(e, place_diver(e, "plants", 3))
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    assert labels(e) == ["0", "1"]                       # no Sponsor: the thrusters after it


def test_thrusters_before_the_sponsor_and_after_it():
    """FR l.268, 271: the batteries are spent « lors de l'étape 1 », several if you like: before
    the Sponsor (as the player aid lists it, l.793) and after it (Delphine, FR l.287). A thruster
    takes the Scout from L4 to L5 before advanced Sponsor 3, which then brings the diver in
    zone 5 (the Scout) to the top; the battery left may still be spent after the Sponsor."""
    e = start()
    sponsor_at(e, 3, 2, "advanced")
    scout = place_diver(e, "scout", 4)
    me(e)["batteries"] = 2
    refresh(e)
    play(e, "take_turn key#0.2", "2")
    assert labels(e) == ["0", "1", "2"]                  # before the Sponsor
    play(e, "1", scout, "5")
    use(e)                                               # Sponsor 3 advanced
    assert zone(e, "queue@0")[0] == scout
    assert labels(e) == ["0", "1"]                       # after the Sponsor
    play(e, "0")
    assert me(e)["batteries"] == 1


def spy_copies_the_engineer(spy_module: bool):
    """Seat 0's Spy at L1 copies seat 1's Engineer at L1 to upgrade seat 0's Hacker."""
    e = start(2)
    spy = place_diver(e, "spy", 1, seat=0)
    if spy_module:
        with_module(e, spy)
    place_diver(e, "engineer", 1, seat=1)
    refresh(e)
    play(e, "take_turn key#0.1", "1", "0", "0")
    use(e)
    play(e, "spy_copy 1", "upgrade_hacker", "surface")
    assert me(e, 0)["hacker"] == 1 and me(e, 1)["hacker"] == 0
    return e


def test_the_copied_diver_costs_what_it_costs_its_owner():
    """FR l.485: « Si le plongeur concurrent utilisé est un ingénieur, une négociante, un espion ou
    un éclaireur, vous devez vous acquitter normalement des éventuels coûts »: 1 credit for the
    Spy and 1 for the Engineer; with the Spy's module (FR l.491) only the Engineer's."""
    assert me(spy_copies_the_engineer(False))["credits"] == 3 - 1 - 1
    assert me(spy_copies_the_engineer(True))["credits"] == 3 - 1


def test_advanced_sponsor_4_flips_one_of_the_3_divers_at_the_surface():
    """FR l.403: « payez 2 crédits et retournez l'une de vos 3 tuiles Plongeur en surface sur sa
    face Plongeur avec module. Gagnez 1 point de notoriété »: only S1-S3, and not one that has its
    module already; the diver activated is not flipped."""
    e = start()
    sponsor_at(e, 4, 3, "advanced")
    s1, s2, s3, l1 = zone(e, "queue@0")[:4]
    with_module(e, s2)
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    use(e)
    assert labels(e) == [s1, s3]
    play(e, s3)
    assert item(e, s3)["equipped"] and not item(e, s1)["equipped"] and not item(e, l1)["equipped"]
    assert (me(e)["credits"], me(e)["notoriety"]) == (3 - 2, 1)


def test_a_thruster_moves_only_a_diver_at_levels_1_to_5():
    """FR l.268: the thruster moves one of your divers « vers le haut ou vers le bas » among the
    levels; the 3 divers at the surface (S1-S3) are not in the water and never move."""
    e = start()
    me(e)["batteries"] = 1
    refresh(e)
    play(e, "take_turn key#0.3", "3", "1")
    assert labels(e) == zone(e, "queue@0")[3:]           # L1-L5, not S1-S3


def test_the_technologies_expert_with_its_module_recovers_a_played_key():
    """FR l.439: with its module the Technologies expert also « récupérez un jeton Clé ou Clé X
    déjà joué (uniquement celui de votre couleur, pas un neutre) », back on the board."""
    e = start()
    with_module(e, place_diver(e, "technologies", 1))
    for k in ["key#0.2", "neutral_x#1", "own_x#0.1"]:
        put(e, k, "key_row@0")
    empty_out(e, "dig[1]@0")
    dive_with_key(e, 1)
    play(e, "find", "recover_key")
    assert labels(e) == ["key#0.2", "own_x#0.1"]         # not the neutral one
    play(e, "own_x#0.1", "surface")
    assert "own_x#0.1" in zone(e, "keys@0") and types(e, "dig[1]@0") == ["technology"]
    assert zone(e, "key_row@0") == ["key#0.2", "neutral_x#1", "key#0.1"]


def test_the_spy_copies_only_its_left_or_right_neighbour():
    """FR l.483: « un plongeur d'une équipe concurrente (située à votre gauche ou à votre droite) »:
    at 4 players, the player opposite is not a neighbour."""
    e = start(4)
    place_diver(e, "spy", 2)
    dive_with_key(e, 2)
    assert labels(e) == ["spy_contracts", "spy_copy 1", "spy_copy 3"]
