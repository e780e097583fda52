"""Endeavor: Deep Sea: the rulebook's worked examples and the digest's scenarios E1-E35 (digest §7)
on the game itself, each asserting the rulebook's numbers. Where the icons are lost, the sample
data of components.yaml stands in and the test checks the mechanism. Positions are set up by
moving components (helpers.put and friends), never by doing a rule's work."""
from __future__ import annotations

import pytest

from .helpers import (disc_to, finish, formula, item, labels, lay, me, one, play, preset, put,
                      recruit_into_team, refresh, start, sub_to, to_turns, zone)


def turn_start(players: int = 3, seed: int = 0, **options):
    """Seat 0's first turn of round 1 (Phase 1 answered quietly)."""
    e = to_turns(start(players, seed, **options))
    assert e.decision.player == 0 and e.decision.kind == "action"
    return e


def activate(e, name: str, seat: int = 0) -> str:
    """Seat's specialist `name` joins the team and is activated."""
    s = recruit_into_team(e, seat, name)
    refresh(e)
    play(e, f"activate {s}")
    return s


def offered(e) -> list[str]:
    """The actions offered now, without their choices ("travel sub#0.1" -> "travel") and
    without the free action of spending a dive token, offered at every decision of the turn."""
    return sorted({x.split(" ")[0] for x in labels(e)} - {"spend_dive_token"})


def first(e, action: str) -> str:
    """The first option of `action` offered now."""
    return next(x for x in labels(e) if x.split(" ")[0] == action)


def top_token(e, tile: str, special: str | None, research: int) -> str:
    """A dive token with this face put on top of the tile's dive stack."""
    t = next(x for x in zone(e, "token_supply")
             if item(e, x)["special"] == special and item(e, x)["research"] == research)
    put(e, t, f"dive_stack[{tile}]", top=True)
    return t


# ---------------------------------------------------------------- setup (FR l.116-170)
def test_rulebook_e1_dive_stack_of_the_launch_zone():
    e = start(3)
    assert len(zone(e, "dive_stack[star_of_the_seas]")) == 4     # FR l.122-125: its site shows 4
    assert len(zone(e, "token_supply")) == 30 - 4


def test_the_first_player_is_drawn_at_random_and_takes_the_wave_token():
    # FR l.113-114: "Déterminez le premier joueur au hasard et donnez-lui le pion Vague"
    waves = {seed: start(4, seed, first=None).state["counters"]["wave"] for seed in range(16)}
    assert set(waves.values()) == {0, 1, 2, 3}
    assert start(4, 5, first=None).state["counters"]["wave"] == waves[5]   # seeded
    e = start(4, 5, first=None)
    assert e.decision.player == waves[5] and e.decision.kind == "do recruit"  # 1a from the Wave


def test_rulebook_e2_launch_and_its_arrival_bonus():
    e = start(3)
    # seat 1 has not played yet: 1 disc on the Team Leader, 1 in transit (the Star's arrival
    # bonus), 28 in reserve (FR l.141-146)
    assert (len(zone(e, "activation_spaces@1")), len(zone(e, "transit@1")), len(zone(e, "reserve@1"))) \
        == (1, 1, 28)
    s = zone(e, "subs@1")[0]
    assert item(e, item(e, s)["at"])["name"] == "star_of_the_seas"
    assert len(zone(e, "sub_supply@1")) == 2


def test_each_player_takes_30_discs_20_impact_tokens_3_submersibles_and_cubes_on_0():
    """FR l.116-121: "30 disques, 5 cubes, 20 pions Impact et 3 submersibles"; "Placez vos 5
    cubes sur la case 0 de chacune de vos pistes d'attribut et sur la piste de recherche"."""
    e = start(3)
    for p in (1, 2):                                              # not played yet
        assert len(zone(e, f"impact_supply@{p}")) == 20
        assert len(zone(e, f"subs@{p}")) + len(zone(e, f"sub_supply@{p}")) == 3
        assert sum(len(zone(e, f"{z}@{p}")) for z in ("reserve", "transit", "activation_spaces")) \
            == 30
        assert [e.state["players"][p][a] for a in ("reputation", "inspiration", "coordination",
                                                    "ingenuity", "research")] == [0] * 5


def test_the_specialists_tray_stacks_of_5_4_3_2_and_three_rank_5_tiles_a_slot():
    """FR l.151-160: ranks 1-4 in stacks of identical tiles, "5 de chaque", 4, 3, 2; rank 5:
    "placez-en trois au hasard dans chacun des emplacements ... (soit 9 en tout)"."""
    e = start(3)
    for k in ("r1a", "r2b", "r3c", "r4a"):
        tiles = [item(e, x) for x in zone(e, f"stack[{k}]")]
        rank = tiles[0]["rank"]
        assert len(tiles) == {1: 5, 2: 4, 3: 3, 4: 2}[rank]            # before any recruitment
        assert len({t["name"] for t in tiles}) == 1
    slots = [[item(e, x) for x in zone(e, f"stack[{k}]")] for k in ("r5a", "r5b", "r5c")]
    assert [len(s) for s in slots] == [3, 3, 3]
    names = [t["name"] for s in slots for t in s]
    assert all(t["rank"] == 5 for s in slots for t in s) and len(set(names)) == 9


def test_four_starting_journals_are_displayed():
    """FR l.101-105: the 4 starting journals are revealed (the display keeps 4)."""
    e = start(3)
    assert len(zone(e, "display")) == 4


# ---------------------------------------------------------------- Phase 1 (FR l.180-300)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_wave_token_goes_to_the_left_each_round(players):
    """FR l.877-879: "le joueur qui avait le pion Vague le passe a son voisin de gauche, qui
    devient le nouveau premier joueur" (the left neighbour is the next seat clockwise; at 2
    players left and right are the same seat, so 3-5 tell them apart)."""
    e = start(players, rounds=players)
    holders = []
    while e.decision is not None:
        wave = e.state["counters"]["wave"]
        if not holders or holders[-1] != wave:             # a new round: Phase 1 from the holder
            holders.append(wave)
            assert e.decision.player == wave and e.state["phase"] == "preparation"
        d = e.decision
        play(e, next((t for t in ("pass_", "[]", "end turn", "stop", "skip") if t in d.labels),
                     d.labels[0]) if "recover []" not in d.labels else "recover []")
    assert holders == list(range(players))                 # 0, 1, 2, ...: each round, the left


def test_rulebook_e3_e4_recruitment_level_and_the_immediate_gain_counts_for_effort():
    e = start(2)
    # recruitment level 2 from round 2 on: Reputation 1, the round-1 recruit's +1 (sample)
    e.state["players"][1]["inspiration"] = 1           # effort level 2, 3 once raised
    e = to_turns(e)
    while e.state["counters"]["wave"] != 1 or e.state["phase"] != "preparation":
        play(e, "pass_")
    assert e.decision.player == 1
    ranks = sorted({item(e, x.split(" ")[1])["rank"] for x in labels(e)})
    assert ranks == [1, 2]                              # E3: ranks 1-2 only
    nav = next(x.split(" ")[1] for x in labels(e) if item(e, x.split(" ")[1])["name"] == "navigator")
    transit = len(zone(e, "transit@1"))
    play(e, f"recruit {nav}")
    assert me(e, 1)["inspiration"] == 2                 # +1 Inspiration at once ...
    assert len(zone(e, "transit@1")) == transit + 3     # ... so 1b moves 3 discs (E4)


def rank5_recruit(keep: dict[str, int]):
    """Seat 1 at recruitment level 5 (sample: Reputation 7) about to recruit in round 1, the
    rank-5 slots holding `keep` tiles each (the others put back in the box)."""
    e = start(3)
    me(e, 1)["reputation"] = 7
    for k, n in keep.items():
        for x in zone(e, f"stack[{k}]")[:len(zone(e, f"stack[{k}]")) - n]:
            put(e, x, "specialist_box")
    while e.decision.player != 1 or e.decision.kind != "do recruit":
        play(e, "recover []" if e.decision.kind == "do recover" else labels(e)[0])
    return e


def available_rank5(e) -> list[str]:
    return [zone(e, f"stack[{k}]")[0] for k in ("r5a", "r5b", "r5c") if zone(e, f"stack[{k}]")]   # tops


def test_the_last_rank5_tile_of_a_slot_is_replaced_from_another_slot():
    """FR l.254-256: "Si vous recrutez le dernier specialiste de rang 5 d'un emplacement,
    deplacez une autre tuile de rang 5 du casier pour combler l'emplacement vacant de maniere a
    ce qu'il y ait toujours trois specialistes de rang 5 disponibles"."""
    e = rank5_recruit({"r5a": 1, "r5b": 1, "r5c": 3})
    last = zone(e, "stack[r5a]")[0]
    below = zone(e, "stack[r5c]")[1]                   # r5c's second tile, not yet available
    assert below not in available_rank5(e) and last in available_rank5(e)
    play(e, f"recruit {last}", "raise_any inspiration")   # its immediate gain (sample), then the slot
    assert last in zone(e, "team@1")
    assert [len(zone(e, f"stack[{k}]")) for k in ("r5a", "r5b", "r5c")] == [1, 1, 2]
    assert len(available_rank5(e)) == 3 and below in available_rank5(e)   # three available


def test_the_recruiter_picks_the_slot_that_fills_the_empty_one():
    e = rank5_recruit({"r5a": 1, "r5b": 2, "r5c": 3})
    play(e, f"recruit {zone(e, 'stack[r5a]')[0]}", "raise_any inspiration")
    assert e.decision.player == 1 and sorted(labels(e)) == ["refill_rank5_slot r5b",
                                                            "refill_rank5_slot r5c"]
    play(e, "refill_rank5_slot r5b")
    assert [len(zone(e, f"stack[{k}]")) for k in ("r5a", "r5b", "r5c")] == [1, 1, 3]


def test_no_rank5_tile_left_to_move_leaves_the_slot_empty():
    e = rank5_recruit({"r5a": 1, "r5b": 1, "r5c": 1})
    play(e, f"recruit {zone(e, 'stack[r5a]')[0]}", "raise_any inspiration")
    assert [len(zone(e, f"stack[{k}]")) for k in ("r5a", "r5b", "r5c")] == [0, 1, 1]
    assert "refill" not in e.decision.kind and e.decision.player == 1     # on to 1b-1c


def test_rulebook_e5_recovery_level_one_the_player_chooses():
    e = turn_start(2)
    tl = next(s for s in zone(e, "team@0") if item(e, s)["rank"] == 0)
    pilot = activate(e, "pilot")
    while e.state["phase"] != "preparation" or e.decision.kind != "do recover":
        play(e, "pass_" if "pass_" in labels(e) else
             next(t for t in ("end turn", "skip", "stop") if t in labels(e)) if any(
                 t in labels(e) for t in ("end turn", "skip", "stop")) else labels(e)[0])
        if e.decision.kind == "do recover" and e.decision.player != 0:
            play(e, "recover []")
    on = {item(e, d)["spec"]: d for d in zone(e, "activation_spaces@0")}
    assert set(on) == {tl, pilot}
    assert sorted(labels(e)) == sorted(["recover []", f"recover [{on[tl]}]", f"recover [{on[pilot]}]"])
    play(e, f"recover [{on[tl]}]")
    assert zone(e, "activation_spaces@0") == [on[pilot]]       # the Pilot stays blocked this round


def test_rulebook_e6_round_one_recovery_gives_back_the_team_leader_disc():
    e = start(3)
    play(e, labels(e)[0])                               # recruit
    d = zone(e, "activation_spaces@0")[0]
    assert labels(e) == ["recover []", f"recover [{d}]"]
    n = len(zone(e, "transit@0"))
    play(e, f"recover [{d}]")
    assert zone(e, "activation_spaces@0") == [] and zone(e, "transit@0")[-1] == d
    assert len(zone(e, "transit@0")) == n + 1


# ---------------------------------------------------------------- activation (FR l.305-330)
def test_rulebook_e7_single_action_reef_diver_dives():
    e = turn_start()
    n = len(zone(e, "transit@0"))
    diver = activate(e, "reef_diver")
    play(e, first(e, "dive"))
    assert len(zone(e, "transit@0")) == n - 1 and any(
        item(e, d)["spec"] == diver for d in zone(e, "activation_spaces@0"))
    assert len(zone(e, "dive_tokens@0")) == 1 and len(zone(e, "dive_stack[star_of_the_seas]")) == 3


def test_rulebook_e8_choice_action_one_of_travel_or_conservation():
    e = turn_start()
    lay(e, "lagoon", 1, 2)                                # a conservation site next door
    sub_to(e, 0, "lagoon")
    me(e)["research"] = 5
    activate(e, "ecologist")
    assert offered(e) == ["conservation", "skip", "travel"]
    play(e, first(e, "travel"))
    assert "conservation" not in offered(e)               # one of them only


def test_rulebook_e9_multiple_action_in_either_order_three_discs():
    e = turn_start()
    me(e)["research"] = 5
    for _ in range(3):
        put(e, zone(e, "reserve@0")[0], "transit@0")
    busy = len(zone(e, "activation_spaces@0"))
    activate(e, "researcher")
    assert offered(e) == ["publication", "sonar", "stop"]
    play(e, first(e, "publication"))
    while "sonar" not in offered(e):                       # the journal, if several match
        play(e, labels(e)[0])
    assert "publication" not in offered(e)
    play(e, first(e, "sonar"))
    while e.decision.player == 0 and "end turn" not in labels(e):
        play(e, labels(e)[0])
    # 3 discs from transit: the activation's, the sonar track's, the publication site's
    assert len(zone(e, "activation_spaces@0")) == busy + 1
    assert formula(e, 'ocean_discs(you, "sonar")') == formula(e, 'ocean_discs(you, "publication")') == 1


def test_rulebook_e10_zone_actions_of_the_star_of_the_seas():
    e = turn_start()
    me(e)["research"] = 5
    leader = next(s for s in zone(e, "team@0") if item(e, s)["rank"] == 0)
    put(e, next(d for d in zone(e, "activation_spaces@0") if item(e, d)["spec"] == leader), "transit@0")
    item(e, zone(e, "transit@0")[-1])["spec"] = None
    refresh(e)
    play(e, f"activate {leader}")
    assert offered(e) == ["dive", "publication", "skip", "sonar", "travel"]   # not conservation


# ---------------------------------------------------------------- travel (FR l.400-440)
def ocean_for_travel(e):
    """Kelp Forest at (2, 3) under the Star; four steps east to the Frozen Reef; the Brine Pool
    at depth 4 two steps below."""
    lay(e, "atoll", 1, 5)
    lay(e, "lagoon", 1, 6)
    lay(e, "sunken_ruins", 2, 4)
    lay(e, "seagrass_meadow", 2, 5)
    lay(e, "shipwreck", 2, 6)
    lay(e, "frozen_reef", 3, 6)
    lay(e, "twilight_zone", 3, 3)
    lay(e, "hydrothermal_vents", 3, 4)
    lay(e, "brine_pool", 4, 3)


def destinations(e, extra=0):
    s = zone(e, "subs@0")[0]
    return sorted(formula(e, f"[t.name for t in destinations(you, s, {extra})]", s=s))


def test_rulebook_e11_travel_range_and_depth_by_tech_level():
    e = turn_start()
    ocean_for_travel(e)
    sub_to(e, 0, "kelp_forest")
    me(e)["ingenuity"] = 4                                 # tech level 3 (sample table)
    dest = destinations(e)
    assert "frozen_reef" not in dest                       # 4 steps away
    assert "brine_pool" not in dest                        # depth 4
    assert {"twilight_zone", "hydrothermal_vents", "shipwreck", "star_of_the_seas"} <= set(dest)
    assert "frozen_reef" in destinations(e, 1) and "brine_pool" in destinations(e, 1)


def test_rulebook_e11_passing_through_deeper_zones_never_ends_too_deep():
    e = turn_start(pass_through_deeper=True)                # the other reading of FR l.410-440
    ocean_for_travel(e)
    sub_to(e, 0, "kelp_forest")
    me(e)["ingenuity"] = 4
    assert "brine_pool" not in destinations(e)             # still too deep to reach
    assert "frozen_reef" not in destinations(e)


def test_rulebook_e12_arrival_bonus_of_the_destination_only():
    e = turn_start()
    ocean_for_travel(e)
    sub_to(e, 0, "kelp_forest")
    me(e)["ingenuity"] = 4
    research = me(e)["research"]
    activate(e, "pilot")
    play(e, first(e, "travel"), f"voyage {one(e, 'hydrothermal_vents')}")      # through the Ruins (+1 research there)
    assert me(e)["ingenuity"] == 5 and me(e)["research"] == research


def test_rulebook_e27_travel_from_the_vents_plus_one_tech_level():
    e = turn_start()
    ocean_for_travel(e)
    sub_to(e, 0, "hydrothermal_vents")
    me(e)["ingenuity"] = 4                                 # tech 3, +1 from the zone
    assert "brine_pool" in destinations(e) and "frozen_reef" in destinations(e)


def journal_in_hand(e, name: str) -> str:
    """Seat 0 holds the journal `name` (its action space free) and may use it now."""
    j = one(e, name)
    put(e, j, "journals@0")
    refresh(e)
    return j


def test_travel_plus_goes_one_zone_further_or_deeper_not_two():
    """FR l.719-722: "Faites une action Voyage en bénéficiant d'un niveau de technologie
    supplémentaire (vous pouvez aller une zone plus loin ou plus profond que la normale)"."""
    e = turn_start()
    ocean_for_travel(e)
    lay(e, "hadal_trench", 5, 3)                           # depth 5, under the Brine Pool
    sub_to(e, 0, "kelp_forest")
    me(e)["ingenuity"] = 4                                 # tech level 3 (sample table)
    play(e, f"journal_action {journal_in_hand(e, 'tide_tables')}")
    if any(x.startswith("travel_plus") for x in labels(e)):   # which submersible (one here)
        play(e, first(e, "travel_plus"))
    dest = sorted(item(e, x.split(" ")[1])["name"] for x in labels(e) if x.startswith("voyage"))
    assert "frozen_reef" in dest                           # 4 steps: one zone further
    assert "brine_pool" in dest                            # depth 4: one level deeper
    assert "hadal_trench" not in dest                      # depth 5: two deeper
    assert set(destinations(e)) < set(dest)                # and every plain Travel's zone


def test_remote_conservation_on_a_site_at_the_depth_of_a_submersible():
    """FR l.724-727: "Faites une action Conservation sur un site qui se trouve a la meme
    profondeur que l'un de vos submersibles, meme s'il ne se trouve pas directement sur ce
    site"."""
    e = turn_start()
    ocean_for_travel(e)
    sub_to(e, 0, "sunken_ruins")                           # depth 2
    me(e)["research"] = 12
    play(e, f"journal_action {journal_in_hand(e, 'ice_bulletin')}")
    sites = sorted(x.split(" ")[1] for x in labels(e) if x.startswith("conservation_remote"))
    # depth 2: the Kelp Forest's and the Meadow's sites (remote) and the Ruins' (here); not the
    # Atoll's or the Lagoon's (depth 1), nor the Twilight Zone's, the Vents' or the Frozen Reef's
    # (depth 3)
    assert sites == ["kelp_c1", "meadow_c1", "ruins_c1", "ruins_c2", "ruins_c3"]
    play(e, "conservation_remote kelp_c1")
    assert me(e)["research"] == 12 - 1                     # the site's cost (sample)
    assert [item(e, d)["owner"] for d in zone(e, "site[kelp_c1]")] == [0]


def test_remote_conservation_at_the_depth_of_any_of_your_submersibles():
    e = turn_start()
    ocean_for_travel(e)
    sub_to(e, 0, "sunken_ruins")                           # depth 2
    second = zone(e, "sub_supply@0")[0]
    put(e, second, "subs@0")
    item(e, second)["at"] = one(e, "frozen_reef")          # depth 3
    me(e)["research"] = 12
    assert formula(e, "[c for c in site_names if conservable(c, 0, true)]") == \
        ["kelp_c1", "ruins_c1", "ruins_c2", "ruins_c3", "meadow_c1", "vents_c1", "vents_c2",
         "frozen_c1", "twilight_c1", "twilight_c2"]


# ---------------------------------------------------------------- sonar and discover (FR l.455-540)
def test_rulebook_e13_sonar_track_choice_leftmost_free_space():
    e = turn_start()
    sub_to(e, 0, "calm_waters")
    yellow = disc_to(e, 1, "sonar_track[calm_right]", "sonar")   # Yellow on the right track's space 1
    activate(e, "lab_assistant")                                  # "Sonar"
    assert sorted(labels(e)) == ["skip", "sonar calm_left", "sonar calm_right"]   # or not (FR l.339)
    research = me(e)["research"]
    play(e, "sonar calm_right")
    assert zone(e, "sonar_track[calm_right]")[0] == yellow        # the disc goes on space 2 ...
    assert zone(e, "sonar_track[calm_right]")[1].startswith("disc#0.")
    assert labels(e) == ["discover", "skip"] and me(e)["research"] == research   # ... and may Discover


def discover_position(e):
    """Seat 0 in the Calm Waters, about to Discover "1-2" from the right sonar track's space 2."""
    sub_to(e, 0, "calm_waters")
    disc_to(e, 1, "sonar_track[calm_right]", "sonar")
    activate(e, "lab_assistant")


def test_rulebook_e14_discover_draw_two_keep_one_place_below():
    e = turn_start()
    put(e, one(e, "atoll"), "pile[1]", top=True)                  # the Atoll and the Ruins on top
    put(e, one(e, "sunken_ruins"), "pile[2]", top=True)
    discover_position(e)
    play(e, "sonar calm_right", "discover")
    assert labels(e) == ["pile[1]", "pile[2]"]                   # levels 1-2 have room
    play(e, "pile[1]", "pile[2]")                                 # the Atoll and the Ruins
    ruins, atoll = one(e, "sunken_ruins"), one(e, "atoll")
    assert sorted(labels(e)) == sorted([ruins, atoll])
    research = me(e)["research"]
    play(e, ruins)
    assert labels(e) == ["4"]                                     # the only level-2 space: below Calm
    play(e, "4")
    assert tuple(e.state["cells"][ruins]) == (2, 4)
    assert zone(e, "pile[1]")[-1] == atoll                        # the Atoll to the bottom
    assert len(zone(e, "dive_stack[sunken_ruins]")) == 4          # its dive site's 4 tokens
    assert me(e)["research"] == research + 2                      # its discovery bonus (sample)


def test_a_dive_token_waits_until_the_discover_is_resolved():
    """FR l.336-337 « résoudre complètement chaque action avant de passer à la suivante », l.594-596
    tokens « avant et/ou après avoir activé un spécialiste, ou même entre les actions qu'il vous
    offre »: a Sonar dive token is not offered while a Discover draws, keeps and places its tile
    (its own Discover could take the space this one needs); it is once the Sonar is done."""
    e = turn_start()
    token = top_token(e, "star_of_the_seas", "sonar", 2)
    put(e, token, "dive_tokens@0")
    discover_position(e)
    assert f"spend_dive_token {token}" in labels(e)               # activated, its action not begun
    play(e, "sonar calm_right", "discover")
    while e.decision.kind != "action":                            # the draw, the keep, the space
        assert f"spend_dive_token {token}" not in labels(e), e.decision.kind
        play(e, labels(e)[0])
    assert f"spend_dive_token {token}" in labels(e)               # after the action: free again


def test_rulebook_e15_discover_falls_back_to_the_shallowest_open_level():
    e = turn_start()
    for col, name in zip((1, 2, 5, 6), ("atoll", "lagoon", "reef_edge", "shallows")):
        lay(e, name, 1, col)                                      # level 1 is full
    lay(e, "sunken_ruins", 2, 4)                                  # room at level 3, below it
    lay(e, "twilight_zone", 3, 3)                                 # room at level 4, below it
    for x in list(zone(e, "pile[2]")):
        put(e, x, "tile_box")                                     # no level-2 tile left
    discover_position(e)
    play(e, "sonar calm_right", "discover")
    assert labels(e) == ["pile[3]"]                               # the shallowest one only


def test_discover_with_one_tile_left_in_its_piles_draws_that_one():
    """FR l.485-487, 510-514: a Discover draws two tiles from its levels' piles and keeps one;
    the fallback to other levels is for a Discover that cannot be resolved at all. With one tile
    left in the piles of "1-2" (level 2 has room, its pile is spent), the Discover draws the one
    tile there is, keeps it and places it (no game stops on a pile that ran short)."""
    e = turn_start()
    atoll = one(e, "atoll")
    for x in list(zone(e, "pile[1]")) + list(zone(e, "pile[2]")):
        if x != atoll:
            put(e, x, "tile_box")
    discover_position(e)
    play(e, "sonar calm_right", "discover")                      # a reward one may decline
    while e.decision.kind in ("draw pile", "keep t"):
        assert labels(e) in (["pile[1]"], [atoll])              # only the Atoll to draw and keep
        play(e, labels(e)[0])
    assert e.decision.kind == "choose col" and zone(e, "drawn_tiles@0") == [atoll]
    play(e, labels(e)[0])
    assert atoll in zone(e, "ocean") and zone(e, "pile[1]") == [] and zone(e, "drawn_tiles@0") == []


def test_rulebook_e16_discover_when_the_play_area_is_complete():
    e = turn_start()
    for level in range(1, 6):
        for x in list(zone(e, f"pile[{level}]")):
            put(e, x, "tile_box")
    discover_position(e)
    research = me(e)["research"]
    play(e, "sonar calm_right", "discover")
    assert me(e)["research"] == research + 1                      # the fixed reward (sample)
    assert e.decision.kind == "action"                            # nothing drawn


# ---------------------------------------------------------------- dive and tokens (FR l.545-612)
def test_rulebook_e17_dive_then_spend_for_research_or_travel_or_keep_one():
    e = turn_start()
    token = top_token(e, "star_of_the_seas", "travel", 3)
    activate(e, "reef_diver")
    play(e, first(e, "dive"))
    assert zone(e, "dive_tokens@0") == [token]
    assert sorted(labels(e)) == ["end turn", f"spend_dive_token {token}"]
    play(e, f"spend_dive_token {token}")
    assert sorted(labels(e)) == ["research", "special"]           # either, never both
    research = me(e)["research"]
    play(e, "research")
    assert me(e)["research"] == research + 3 and zone(e, "token_discard") == [token]


def test_rulebook_e17_a_second_token_must_be_spent_at_the_end_of_the_turn():
    e = turn_start()
    kept = top_token(e, "star_of_the_seas", None, 1)
    put(e, kept, "dive_tokens@0")
    found = top_token(e, "star_of_the_seas", "travel", 3)
    activate(e, "reef_diver")
    play(e, first(e, "dive"), "end turn")
    assert e.decision.player == 0 and sorted(labels(e)) == sorted([kept, found])
    play(e, found, "research")
    assert zone(e, "dive_tokens@0") == [kept]


def test_rulebook_e18_token_conservation_costs_one_less():
    e = turn_start()
    lay(e, "lagoon", 1, 2)                                        # lagoon_c1 costs 2
    sub_to(e, 0, "lagoon")
    token = top_token(e, "star_of_the_seas", "conservation_discounted", 2)
    put(e, token, "dive_tokens@0")
    me(e)["research"] = 1
    refresh(e)
    play(e, f"spend_dive_token {token}", "special")
    assert me(e)["research"] == 0                                  # 2 - 1
    assert [item(e, d)["owner"] for d in zone(e, "site[lagoon_c1]")] == [0]


def spend_disc_for_research(research: int):
    e = turn_start()
    token = top_token(e, "star_of_the_seas", "disc_for_research", 1)
    put(e, token, "dive_tokens@0")
    me(e)["research"] = research
    transit, reserve = len(zone(e, "transit@0")), len(zone(e, "reserve@0"))
    refresh(e)
    play(e, f"spend_dive_token {token}", "special")
    assert (len(zone(e, "transit@0")), len(zone(e, "reserve@0"))) == (transit - 1, reserve + 1)
    return e


def test_rulebook_e19_token_discards_a_disc_for_five_research():
    assert me(spend_disc_for_research(4))["research"] == 4 + 5


def test_rulebook_e20_research_is_capped_at_twelve():
    assert me(spend_disc_for_research(10))["research"] == 12     # 10 + 5, the excess is lost


# ---------------------------------------------------------------- conservation, publication
def test_rulebook_e21_conservation_pays_the_site_cost():
    e = turn_start()
    lay(e, "lagoon", 1, 2)
    sub_to(e, 0, "lagoon")
    me(e)["research"] = 3
    activate(e, "ecologist")
    placed = len(formula(e, "impact_tokens_played(you)"))
    play(e, "conservation lagoon_c1")
    assert me(e)["research"] == 1                                  # cost 2
    assert [item(e, d)["owner"] for d in zone(e, "site[lagoon_c1]")] == [0]
    assert offered(e) == ["place_impact", "skip"]                 # its reward: 1 impact, or not
    play(e, "place_impact a1")
    assert len(formula(e, "impact_tokens_played(you)")) == placed + 1


def test_rulebook_e22_publication_takes_the_journal_you_and_others():
    e = turn_start()
    teaching = one(e, "effective_teaching_of_ecosystem_risks")
    if teaching not in zone(e, "display"):                        # on display, 4 journals
        put(e, zone(e, "display")[0], "journal_deck", top=True)
        put(e, teaching, "display")
    me(e)["research"] = 4
    others = [me(e, 1)["research"], me(e, 2)["research"]]
    ingenuity = me(e)["ingenuity"]
    activate(e, "archivist")                                      # "Publication"
    play(e, "publication star_p2")                                # its icon: risk
    if e.decision.kind == "choose j":
        play(e, teaching)
    assert zone(e, "journals@0") == [teaching] and me(e)["research"] == 1     # cost 3
    assert me(e)["ingenuity"] == ingenuity + 2                    # "You": two icons (sample) ...
    assert offered(e) == ["promote", "skip"]                      # ... and may promote
    play(e, "skip")
    assert len(zone(e, "display")) == 4 and teaching not in zone(e, "display")   # refilled
    assert [me(e, 1)["research"], me(e, 2)["research"]] == [r + 1 for r in others]   # "Others"
    assert me(e)["research"] == 1                                 # ... but not the publisher


def test_rulebook_e23_promotion_flips_and_returns_the_disc_to_the_reserve():
    e = turn_start()
    token = top_token(e, "star_of_the_seas", "promote", 1)
    put(e, token, "dive_tokens@0")
    pilot = activate(e, "pilot")                                  # its Travel is skipped below
    while not any(x.startswith("spend_dive_token") for x in labels(e)):
        play(e, "skip" if "skip" in labels(e) else labels(e)[0])
    disc = next(d for d in zone(e, "activation_spaces@0") if item(e, d)["spec"] == pilot)
    ingenuity, reserve = me(e)["ingenuity"], len(zone(e, "reserve@0"))
    play(e, f"spend_dive_token {token}", "special")
    play(e, f"promote {pilot}")
    assert item(e, pilot)["promoted"]                             # Skipper, the Senior side
    assert disc not in zone(e, "activation_spaces@0") and zone(e, "reserve@0")[-1] == disc
    assert len(zone(e, "reserve@0")) == reserve + 1               # to the reserve, not transit
    assert me(e)["ingenuity"] == ingenuity + 1                    # its promotion reward (sample)


# ---------------------------------------------------------------- declining (FR l.339-340, 348-349)
def journal_on_display(e, name: str) -> str:
    j = one(e, name)
    if j not in zone(e, "display"):
        put(e, zone(e, "display")[0], "journal_deck", top=True)
        put(e, j, "display")
    return j


@pytest.mark.parametrize("name, action", [("pilot", "travel"), ("reef_diver", "dive"),
                                          ("lab_assistant", "sonar"),
                                          ("archivist", "publication")])
def test_a_specialist_may_be_activated_without_doing_its_action(name, action):
    """FR l.339-340 « Vous pouvez activer un spécialiste sans pour autant accomplir la ou les
    actions qu'il vous offre »: the single-action Juniors too (their icon is a « may »)."""
    e = turn_start()
    me(e)["research"] = 4                                         # a Publication can be paid
    journal_on_display(e, "effective_teaching_of_ecosystem_risks")
    tokens = len(zone(e, "dive_stack[star_of_the_seas]"))
    s = activate(e, name)
    assert offered(e) == sorted([action, "skip"])
    play(e, "skip")
    assert any(item(e, d)["spec"] == s for d in zone(e, "activation_spaces@0"))   # activated
    assert len(zone(e, "dive_stack[star_of_the_seas]")) == tokens and me(e)["research"] == 4
    assert zone(e, "dive_tokens@0") == [] and zone(e, "journals@0") == []


def test_rulebook_e25_the_impact_reward_may_be_declined():
    """FR l.348-349 « Les récompenses et actions ne sont jamais obligatoires ; vous êtes libre
    d'y renoncer »: the Impact token of the zone's after-dive effect."""
    e = turn_start()
    lay(e, "sunken_ruins", 2, 4)
    sub_to(e, 0, "sunken_ruins")
    put(e, zone(e, "token_supply")[0], "dive_stack[sunken_ruins]")
    activate(e, "reef_diver")
    play(e, first(e, "dive"))
    assert offered(e) == ["place_impact", "skip"]
    play(e, "skip")
    assert formula(e, "impact_tokens_played(you)") == []


def test_the_promotion_of_a_journal_may_be_declined():
    """FR l.348-349: a journal's promotion (« You ») is a reward the publisher may decline."""
    e = turn_start()
    letters = journal_on_display(e, "ocean_letters")
    pilot = recruit_into_team(e, 0, "pilot")                      # a Junior to promote
    me(e)["research"] = 4
    activate(e, "archivist")
    play(e, "publication star_p2")                                # its icon: risk
    if e.decision.kind == "choose j":
        play(e, letters)
    assert zone(e, "journals@0") == [letters]
    assert offered(e) == ["promote", "skip"]
    play(e, "skip")
    assert not item(e, pilot)["promoted"]


def test_a_sonar_spaces_discover_may_be_declined():
    """FR l.348-349: the Discover a sonar space gives is a reward: nothing is drawn if declined."""
    e = turn_start()
    discover_position(e)
    piles = {level: list(zone(e, f"pile[{level}]")) for level in range(1, 6)}
    play(e, "sonar calm_right")
    assert offered(e) == ["discover", "skip"]
    play(e, "skip")
    assert e.decision.kind == "action"
    assert {level: list(zone(e, f"pile[{level}]")) for level in range(1, 6)} == piles


# ---------------------------------------------------------------- connections (FR l.560-585)
def test_rulebook_e24_connections_pay_the_active_player_first_then_clockwise():
    e = turn_start()
    lay(e, "shallows", 1, 2)
    lay(e, "continental_shelf", 2, 2)
    lay(e, "twilight_zone", 3, 2)
    sub_to(e, 0, "twilight_zone")
    disc_to(e, 1, "site[twilight_c2]", "conservation")          # Yellow: line c1-c2 (1 research)
    disc_to(e, 2, "site[twilight_p1]", "publication")           # Red: line p1-c1 (2 research)
    disc_to(e, 0, "site[twilight_p2]", "publication")           # Violet's own: line c1-p2 (3)
    me(e)["research"] = 2
    before = [me(e, p)["research"] for p in range(3)]
    activate(e, "ecologist")
    start = len(e.events)
    play(e, "conservation twilight_c1")                         # cost 2
    assert offered(e) == ["raise_lowest"]                       # the site's own reward first
    play(e, first(e, "raise_lowest"))
    gained = [me(e, p)["research"] - before[p] for p in range(3)]
    assert gained == [-2 + 1 + 2 + 3, 1, 2]                     # the c1-p2 line pays Violet once
    paid = [ev["player"] for ev in e.events[start:] if ev.get("trigger") == "connection_established"]
    assert paid == [0, 0, 0, 1, 2]                              # Violet first, then clockwise


def sonar_on_the_reef_edge(space_1_taken: bool):
    """Violet (Sonar) in the Reef Edge, whose track's space 2 is one end of a line (1 research)
    and Red's publication site the other; Yellow on space 1 if `space_1_taken`."""
    e = turn_start()
    lay(e, "reef_edge", 1, 5)
    sub_to(e, 0, "reef_edge")
    if space_1_taken:
        disc_to(e, 1, "sonar_track[reef_edge_sonar]", "sonar")
    disc_to(e, 2, "site[reef_edge_p1]", "publication")
    before = [me(e, p)["research"] for p in range(3)]
    start = len(e.events)
    activate(e, "lab_assistant")                                  # the zone's only track
    play(e, first(e, "sonar"))
    gained = [me(e, p)["research"] - before[p] for p in range(3)]
    paid = [ev["player"] for ev in e.events[start:] if ev.get("trigger") == "connection_established"]
    return gained, paid


def test_a_sonar_space_at_one_end_of_a_connection():
    # FR l.475-476: the disc placed by Sonar may establish a connection: space 2 is the line's end
    gained, paid = sonar_on_the_reef_edge(space_1_taken=True)
    assert paid == [0, 2]                                         # Violet first, then Red
    assert gained == [1 + 1, 0, 1]                                # space 2's reward (sample) + the line


def test_the_other_spaces_of_the_track_are_not_the_lines_end():
    gained, paid = sonar_on_the_reef_edge(space_1_taken=False)    # Violet's disc on space 1
    assert paid == [] and gained == [0, 0, 0]


# ---------------------------------------------------------------- zone icons (FR l.795-810)
def test_rulebook_e25_after_dive_here_one_impact():
    e = turn_start()
    lay(e, "sunken_ruins", 2, 4)
    sub_to(e, 0, "sunken_ruins")
    put(e, zone(e, "token_supply")[0], "dive_stack[sunken_ruins]")
    activate(e, "reef_diver")
    play(e, first(e, "dive"))
    assert len(zone(e, "dive_tokens@0")) == 1
    assert offered(e) == ["place_impact", "skip"]                # the zone's action effect
    play(e, "place_impact a1")
    assert len(formula(e, "impact_tokens_played(you)")) == 1


def test_rulebook_e26_special_space_lets_you_conserve_again_here():
    e = turn_start()
    lay(e, "sunken_ruins", 2, 4)
    sub_to(e, 0, "sunken_ruins")
    disc_to(e, 0, "site[ruins_c1]", "conservation")               # Violet holds the special space
    lay(e, "lagoon", 1, 2)
    lay(e, "shallows", 1, 1)
    put(e, zone(e, "reserve@0")[0], "transit@0")
    me(e)["research"] = 2
    activate(e, "marine_warden")                                 # "Dive Conservation"
    play(e, "conservation ruins_c2")                             # cost 2
    assert me(e)["research"] == 0
    while "place_impact" in offered(e):                        # its reward, the c1-c2 line's
        play(e, labels(e)[0])
    research = me(e)["research"]
    # the special space: another Conservation in this zone (only ruins_c3 is left), or not
    assert sorted(labels(e)) == ["conserve_again_here ruins_c3", "skip"]
    play(e, "conserve_again_here ruins_c3")
    assert [item(e, d)["owner"] for d in zone(e, "site[ruins_c3]")] == [0]
    assert me(e)["research"] == research + 1                      # cost 0, its reward; no third
    assert "conserve_again_here" not in offered(e)


def test_rulebook_e26_without_the_special_space_one_conservation():
    e = turn_start()
    lay(e, "sunken_ruins", 2, 4)
    sub_to(e, 0, "sunken_ruins")
    disc_to(e, 1, "site[ruins_c1]", "conservation")               # Yellow holds it, not Violet
    put(e, zone(e, "reserve@0")[0], "transit@0")
    me(e)["research"] = 2
    activate(e, "marine_warden")
    play(e, "conservation ruins_c2")
    while "place_impact" in offered(e):
        play(e, labels(e)[0])
    assert not any(x.startswith("conserve_again_here") for x in labels(e))


# ---------------------------------------------------------------- impact (FR l.815-860, 893-899)
def test_rulebook_e28_available_hexes_start_or_next_to_an_occupied_one():
    e = turn_start()
    put(e, zone(e, "impact_supply@1")[0], "hex[a1]")             # Yellow on the start hex a1
    assert formula(e, "[h for h in hex_names if available(h)]") == ["a2", "a3", "b1", "b2"]


def test_rulebook_e29_impact_board_scores_with_the_infinity_hex():
    e = turn_start()
    for h in ("a2", "b1", "b2"):                                  # three 1-VP hexes
        put(e, zone(e, "impact_supply@0")[0], f"hex[{h}]")
    put(e, zone(e, "impact_supply@0")[0], "hex[c1]")              # one 2-VP hex
    for _ in range(2):                                            # two tokens on the ∞ hex (2 VP)
        put(e, zone(e, "impact_supply@0")[0], "hex[inf]")
    assert formula(e, "impact_vp(you)") == 3 * 1 + 3 * 2


# ---------------------------------------------------------------- final scoring (FR l.905-1020)
def famous_adventurer_in_eleven_zones(promoted: bool):
    """E30's position: a 4-VP journal and the Famous Adventurer, Senior side or not, with 11
    zones holding Violet's discs or submersibles."""
    e = turn_start()
    put(e, one(e, "effective_teaching_of_ecosystem_risks"), "journals@0")   # 4 VP
    adventurer = one(e, "famous_adventurer")
    put(e, adventurer, "team@0")
    item(e, adventurer)["promoted"] = promoted                    # its Senior side, or not
    layout = [("atoll", 1, 2), ("lagoon", 1, 1), ("reef_edge", 1, 5), ("shallows", 1, 6),
              ("sunken_ruins", 2, 4), ("seagrass_meadow", 2, 2), ("shipwreck", 2, 5),
              ("hydrothermal_vents", 3, 3)]
    for name, r, c in layout:
        lay(e, name, r, c)
    # 11 zones with a disc or a submersible of Violet's: 3 submersibles, 8 discs
    subs = [zone(e, "subs@0")[0]] + list(zone(e, "sub_supply@0"))
    for s, name in zip(subs, ("star_of_the_seas", "calm_waters", "kelp_forest")):
        put(e, s, "subs@0")
        item(e, s)["at"] = one(e, name)
    for site in ("atoll_c1", "lagoon_c1", "reef_edge_p1", "shallows_c1", "ruins_c2",
                 "meadow_p1", "wreck_p1", "vents_c1"):           # 8 more zones
        disc_to(e, 0, f"site[{site}]", "conservation")
    disc_to(e, 0, "site[star_p1]", "publication")                 # a 2nd presence in a zone
    assert formula(e, "present_zones(you)") == 11
    return e


def test_rulebook_e30_journal_points_and_the_famous_adventurer():
    e = finish(famous_adventurer_in_eleven_zones(True))
    assert formula(e, "journal_vp(you)") + me(e)["specialist_vp"] == 4 + 3     # 4 + 11 // 3


def test_a_rank5_specialist_scores_on_its_senior_side_only():
    """FR l.927-929: "Chaque spécialiste Senior de rang 5 propose un décompte spécifique": the
    same Famous Adventurer, still Junior, scores nothing."""
    e = finish(famous_adventurer_in_eleven_zones(False))
    assert formula(e, "journal_vp(you)") + me(e)["specialist_vp"] == 4 + 0


# ---------------------------------------------------------------- mission objectives (FR l.945-1003)
SONAR_SPACES = ["star_sonar", "star_sonar", "star_sonar", "calm_left", "calm_left", "calm_right",
                "calm_right", "calm_right", "kelp_sonar", "kelp_sonar", "kelp_sonar",
                "reef_edge_sonar", "reef_edge_sonar", "meadow_sonar", "meadow_sonar"]
CONSERVATION = ["kelp_c1", "atoll_c1", "lagoon_c1", "shallows_c1", "shallows_c2", "ruins_c1",
                "ruins_c2", "ruins_c3", "shelf_c1", "vents_c1", "vents_c2", "twilight_c1",
                "twilight_c2", "brine_c1", "whale_c1", "trench_c1", "plain_c1"]
PUBLICATION = ["star_p1", "star_p2", "atoll_p1", "reef_edge_p1", "meadow_p1", "wreck_p1",
               "frozen_p1", "twilight_p1", "twilight_p2", "whale_p1", "seep_p1", "plain_p1"]


def objectives(sonar, publication, conservation, **options):
    """Violet, Yellow and Red with these many discs of each kind in the ocean."""
    e = turn_start(**options)
    spaces = {"sonar": iter(SONAR_SPACES), "publication": iter(PUBLICATION),
              "conservation": iter(CONSERVATION)}
    for kind, counts in (("sonar", sonar), ("publication", publication),
                         ("conservation", conservation)):
        for seat, n in enumerate(counts):
            for _ in range(n):
                where = next(spaces[kind])
                disc_to(e, seat, f"sonar_track[{where}]" if kind == "sonar" else f"site[{where}]", kind)
    return e


def objective(e, name, seat=0):
    return formula(e, f'objective_vp(you, "{name}")', seat)


def test_rulebook_e31_majority_clear_first():
    e = objectives([6, 4, 2], [0, 0, 0], [0, 0, 0])
    assert objective(e, "sonar_discs") == 6 + 5                    # 1 per disc + 1st place
    assert objective(e, "sonar_discs", 1) == 4 + 3                 # 2nd place (sample bonus)


def test_rulebook_e32_tied_first_gives_no_second_place():
    e = objectives([0, 0, 0], [3, 4, 4], [0, 0, 0])
    assert objective(e, "publication_discs") == 3                  # Violet: no 2nd place
    assert objective(e, "publication_discs", 1) == objective(e, "publication_discs", 2) == 4 + 5


def test_rulebook_e33_clear_second():
    e = objectives([0, 0, 0], [0, 0, 0], [5, 7, 2])
    assert objective(e, "conservation_discs") == 5 + 4             # FR l.990-993: 5 + 4 = 9


def test_rulebook_e33_players_tied_for_second_all_get_it():
    e = objectives([4, 6, 4], [0, 0, 0], [0, 0, 0])
    assert [objective(e, "sonar_discs", p) for p in range(3)] == [4 + 3, 6 + 5, 4 + 3]


def test_rulebook_e34_zero_is_not_eligible():
    e = objectives([0, 0, 0], [0, 0, 0], [0, 0, 0])
    assert [objective(e, "conservation_discs", p) for p in range(3)] == [0, 0, 0]


def test_rulebook_e35_research_and_discs_one_point_per_three():
    e = turn_start()
    for d in list(zone(e, "transit@0")):
        put(e, d, "reserve@0")
    for _ in range(2):
        put(e, zone(e, "reserve@0")[0], "transit@0")              # 2 discs in transit
    me(e)["research"] = 2
    put(e, top_token(e, "star_of_the_seas", "travel", 3), "dive_tokens@0")   # stored: 3 research
    assert formula(e, "leftover_vp(you)") == (2 + 2 + 3) // 3 == 2


def test_rulebook_e36_the_final_score_of_69():
    """The score pad's example (FR l.938-1022): Violet's position of E29-E35 on one sheet scores
    9 + 7 + (11 + 3 + 9) + 2 = 41, and "Votre score final est de 69 points" (FR l.1022) leaves 28
    to the attribute tracks (the digest's inference; the bands are sample). Sites are chosen so
    that no connection is established."""
    e = turn_start(rounds=1)
    for name, r, c in [("atoll", 1, 2), ("lagoon", 1, 1), ("reef_edge", 1, 5), ("shallows", 1, 6),
                       ("sunken_ruins", 2, 4), ("seagrass_meadow", 2, 2), ("shipwreck", 2, 5),
                       ("hydrothermal_vents", 3, 3), ("brine_pool", 4, 3)]:
        lay(e, name, r, c)
    discs = {                                                     # E31, E32, E33 (seats 0, 1, 2)
        "sonar": [["star_sonar"] * 3 + ["calm_left"] * 2 + ["kelp_sonar"],
                  ["calm_right"] * 3 + ["kelp_sonar"], ["kelp_sonar", "reef_edge_sonar"]],
        "publication": [["reef_edge_p1", "meadow_p1", "wreck_p1"],
                        ["star_p1", "frozen_p1", "twilight_p1", "seep_p1"],
                        ["atoll_p1", "whale_p1", "plain_p1", "twilight_p2"]],
        "conservation": [["lagoon_c1", "shallows_c1", "ruins_c2", "vents_c1", "brine_c1"],
                         ["kelp_c1", "ruins_c3", "shelf_c1", "twilight_c2", "trench_c1", "plain_c1"],
                         []]}
    for kind, seats in discs.items():
        for seat, where in enumerate(seats):
            for w in where:
                disc_to(e, seat, f"sonar_track[{w}]" if kind == "sonar" else f"site[{w}]", kind)
    for h in ("a2", "b1", "b2", "c1", "inf", "inf"):             # E29: 3 x 1 + 3 x 2
        preset(e, zone(e, "impact_supply@0")[0], f"hex[{h}]")
    put(e, one(e, "effective_teaching_of_ecosystem_risks"), "journals@0")   # E30: 4 VP
    adventurer = one(e, "famous_adventurer")
    put(e, adventurer, "team@0")
    item(e, adventurer)["promoted"] = True                        # E30: 11 zones // 3
    for d in list(zone(e, "transit@0")):                          # E35: 2 discs, 2 + 3 research
        put(e, d, "reserve@0")
    for _ in range(2):
        put(e, zone(e, "reserve@0")[0], "transit@0")
    me(e)["research"] = 2
    put(e, top_token(e, "star_of_the_seas", "travel", 3), "dive_tokens@0")
    for a in ("reputation", "inspiration", "coordination", "ingenuity"):
        me(e)[a] = 5                                              # the Impact space: 4 x 7 = 28 (sample)
    refresh(e)
    finish(e)
    parts = [formula(e, f) for f in ("track_vp(you)", "impact_vp(you)", "journal_vp(you)",
                                     "specialist_vp", "leftover_vp(you)")]
    assert parts == [28, 9, 4, 3, 2]
    assert [objective(e, o) for o in ("sonar_discs", "publication_discs", "conservation_discs")] \
        == [6 + 5, 3, 5 + 4]
    assert e.result["scores"][0] == 69


# ---------------------------------------------------------------- attribute tracks (FR l.393-401)
def promote_the_pilot(ingenuity: int):
    """Seat 0 at Ingenuity `ingenuity` promotes its Pilot with a dive token: +1 Ingenuity."""
    e = turn_start()
    me(e)["ingenuity"] = ingenuity
    token = top_token(e, "star_of_the_seas", "promote", 1)
    put(e, token, "dive_tokens@0")
    pilot = recruit_into_team(e, 0, "pilot")
    refresh(e)
    transit = len(zone(e, "transit@0"))
    play(e, f"spend_dive_token {token}", "special")
    if e.decision.kind == "do promote":
        play(e, f"promote {pilot}")
    return e, transit


def test_the_first_time_on_an_extra_submersible_space_launches_one():
    e, transit = promote_the_pilot(2)                             # 2 -> 3, the icon (sample)
    assert me(e)["ingenuity"] == 3 and len(zone(e, "subs@0")) == 2
    s = zone(e, "subs@0")[1]
    assert item(e, item(e, s)["at"])["name"] == "star_of_the_seas"   # on the launch zone
    assert len(zone(e, "transit@0")) == transit + 1               # with its arrival bonus


def test_past_the_end_of_a_track_back_to_the_impact_space_and_one_impact():
    e, _ = promote_the_pilot(7)                                   # the last space, + 1
    assert me(e)["ingenuity"] == 5                                # back to the Impact space
    assert offered(e) == ["place_impact", "skip"]                 # ... and 1 impact (a « may »)
