"""New Eden: every rulebook number pinned by a test that fails when the number changes.

The mutation harness (benchmarks/mutation.py) changes each number and comparison of the game's
files by the smallest step; each test here kills mutants the worked examples (test_rulebook.py)
leave alive. The docstring of each test gives the rulebook line ("FR l.N") the number comes from."""
from __future__ import annotations

import pytest

from .helpers import (advance, cell, formula, item, labels, me, modules, pass_all, phase, play,
                      put, refresh, start, stay_home, zone)


def plain(e, x, category, **fields):
    """Make x a module of this category with no Research effect and no printed symbols."""
    item(e, x).update(category=category, research=None, up=0, down=0, value=0, **fields)
    return x


def on_board(e, row, col):
    return next(x for x in zone(e, "board_a") if cell(e, x) == (row, col))


def buy_research(e, kind, coins=1, damage=0):
    """Seat 0 buys a Research card of this kind from row 4 (1 coin, +1 damage, FR l.121)."""
    (r,) = modules(e, 1)
    plain(e, r, "research")
    item(e, r)["research"] = kind
    put(e, on_board(e, 4, 1), "box")
    put(e, r, "board_a", at=(4, 1))
    me(e).update(coins=coins, damage=damage)
    refresh(e)
    play(e, f"buy_card {r}")
    return r


# ---------------------------------------------------------------------------- prices by row
@pytest.mark.parametrize("row, price, damage_change", [(1, 10, -3), (2, 6, -1), (3, 3, 0), (4, 1, 1)])
def test_row_price_and_damage(row, price, damage_change):
    """FR l.118-121: a card of row 1 costs 10 coins and moves the damage marker back three
    spaces, row 2 costs 6 and -1, row 3 costs 3 and 0, row 4 costs 1 and +1."""
    e = start(4)
    x = plain(e, on_board(e, row, 2), "shell")
    me(e).update(damage=5, coins=12)
    refresh(e)
    play(e, f"buy_card {x}")
    assert (me(e)["coins"], me(e)["damage"]) == (12 - price, 5 + damage_change)


def test_a_row_price_is_the_least_coins_that_buy():
    """FR l.116: you may buy a card only if you can pay the price left of its row."""
    e = start(4)
    x = on_board(e, 2, 1)
    me(e).update(coins=5)
    refresh(e)
    assert f"buy_card {x}" not in labels(e)
    me(e).update(coins=6)
    refresh(e)
    assert f"buy_card {x}" in labels(e)


# ---------------------------------------------------------------------------- Research cards
@pytest.mark.parametrize("kind, damage", [("R7a", 6), ("R7b", 11)])
def test_r7_damage(kind, damage):
    """FR l.390: « Avance immédiatement ton marqueur de dégâts de cinq ou dix cases »: R7a +5,
    R7b +10 (plus row 4's +1)."""
    e = start(4)
    buy_research(e, kind)
    assert me(e)["damage"] == damage


def test_r4_repairs_five():
    """FR l.378: « tu recules immédiatement ton marqueur de dégâts de cinq cases »."""
    e = start(4)
    buy_research(e, "R4", damage=9)
    assert me(e)["damage"] == 9 + 1 - 5


def test_r1_gives_five_coins():
    """FR l.366: R1 gives five coins at once."""
    e = start(4)
    buy_research(e, "R1", coins=1)
    assert me(e)["coins"] == 5


def test_r8_gives_five_coins_to_every_other_player():
    """FR l.394: « tous les autres joueurs reçoivent immédiatement cinq pièces »."""
    e = start(3)
    before = [me(e, p)["coins"] for p in range(3)]
    buy_research(e, "R8", coins=before[0])
    assert [me(e, p)["coins"] - before[p] for p in range(3)] == [-1, 5, 5]


def test_the_research_extension_gives_three_points_per_research_card_built_after_it():
    """FR l.458: three points for each Research card built after the Research extension."""
    e = start(4)
    put(e, "extension#0.4", "built_extensions@0")
    me(e)["points"] = 0
    buy_research(e, "R2")
    assert me(e)["points"] == 3


# ---------------------------------------------------------------------------- final scoring
def crabs_with_research(e, kinds, complete=2, incomplete=1):
    """Seat 0 with `complete` activated crabs, `incomplete` other crabs, and Research cards."""
    crabs = modules(e, complete + incomplete)
    for i, x in enumerate(crabs):
        put(e, plain(e, x, "crab", worksites=1), "station[crab]@0")
        if i < complete:
            d = next(d for d in list(zone(e, "deeple_supply")))
            put(e, d, "crew@0")
            item(e, d).update(site=x, standing=True)
    for kind in kinds:
        (r,) = modules(e, 1)
        put(e, plain(e, r, "research"), "station[research]@0")
        item(e, r)["research"] = kind
    return crabs


@pytest.mark.parametrize("kinds, points", [(["R5"], 6), (["R6"], 4), (["R5", "R6"], 10)])
def test_r5_and_r6_points_per_complete_crab(kinds, points):
    """FR l.382: three points for each complete crab with R5; l.386: two with R6."""
    e = start(2)
    crabs_with_research(e, kinds, complete=2, incomplete=1)
    assert formula(e, "complete_crabs(you)") == 2
    assert formula(e, "crab_points(you)") == points


@pytest.mark.parametrize("reading, points", [("always", 6), ("if_holds", 0)])
def test_r5_scores_even_if_the_station_collapses(reading, points):
    """FR l.382 has no « si ta station résiste » (R4, R7, R8 have it: l.378, 390, 394): by default
    R5's points count when the station collapses; `crab_research_scoring: if_holds` is the other
    reading."""
    e = start(2, crab_research_scoring=reading)
    crabs_with_research(e, ["R5"])
    me(e).update(damage=15, points=0, coins=0)
    assert formula(e, "holds(you)") is False
    assert e.score_of(0) == points


@pytest.mark.parametrize("coins, points", [(4, 0), (5, 1), (9, 1), (10, 2)])
def test_one_point_per_five_coins(coins, points):
    """FR l.468: one point for every five coins."""
    e = start(2)
    me(e).update(coins=coins)
    assert formula(e, "coin_points(you)") == points


@pytest.mark.parametrize("r2, ups", [(0, 0), (1, 3), (2, 6)])
def test_r2_moves_the_red_marker_three_spaces(r2, ups):
    """FR l.370: « tu peux avancer ton marqueur de trois cases »."""
    e = start(2)
    for _ in range(r2):
        (r,) = modules(e, 1)
        put(e, plain(e, r, "research"), "station[research]@0")
        item(e, r)["research"] = "R2"
    assert formula(e, "ups(you)") == ups


@pytest.mark.parametrize("damage, limit, holds", [(4, 5, True), (5, 5, True), (6, 5, False)])
def test_the_station_holds_up_to_its_limit(damage, limit, holds):
    """FR l.300, 480: the station holds when the damage marker is not beyond the red marker."""
    e = start(2)
    for x in modules(e, limit):
        put(e, plain(e, x, "octopus"), "station[octopus]@0")
    me(e)["damage"] = damage
    assert formula(e, "stability(you)") == limit
    assert formula(e, "holds(you)") is holds


# ---------------------------------------------------------------------------- bonus cards
@pytest.mark.parametrize("reward, coins, points", [("coin", 2, 0), ("points", 0, 4)])
def test_a_bonus_card_pays_one_coin_or_two_points_per_module(reward, coins, points):
    """FR l.265: each matching module earns the bonus shown, « soit une pièce, soit deux
    points »."""
    e = start(2)
    pass_all(e)
    for b in zone(e, "bonus_display"):
        item(e, b).update(category="shell", reward=reward)
    zone_bonus = list(zone(e, "bonus_display"))
    for b in zone_bonus[1:]:
        item(e, b)["category"] = "nothing"
    for x in modules(e, 2):
        put(e, plain(e, x, "shell"), "station[shell]@0")
    me(e).update(coins=0, points=0)
    advance(e, lambda e: phase(e) == "development")
    assert (me(e)["coins"], me(e)["points"]) == (coins, points)


@pytest.mark.parametrize("counts, points", [(True, 6), (False, 4)])
def test_the_repair_tile_matches_an_octopus_bonus_card(counts, points):
    """FR l.448: the Repair extension is « une pieuvre de réparation supplémentaire … un module »:
    with two octopus cards it earns an octopus bonus card 3 x 2 points (`repair_tile_counts_as_octopus:
    false`: 2 x 2), as it adds +1 to the stability (test_rulebook_d9)."""
    e = start(2, repair_tile_counts_as_octopus=counts)
    pass_all(e)
    first, *rest = zone(e, "bonus_display")
    item(e, first).update(category="octopus", reward="points")
    for b in rest:
        item(e, b)["category"] = "nothing"
    for x in modules(e, 2):
        put(e, plain(e, x, "octopus"), "station[octopus]@0")
    put(e, "extension#0.3", "station[octopus]@0", top=True)
    me(e).update(coins=0, points=0)
    advance(e, lambda e: phase(e) == "development")
    assert me(e)["points"] == points


# ---------------------------------------------------------------------------- free actions
def test_power_plant_five_coins_and_damage_by_use():
    """FR l.418-422: each use gives five coins; the damage is 1, then 3, then 6."""
    e = start(4)
    me(e).update(damage=0, coins=0)
    refresh(e)
    steps = []
    for _ in range(3):
        play(e, "power_plant")
        steps.append((me(e)["coins"], me(e)["damage"]))
    assert steps == [(5, 1), (10, 4), (15, 10)]


def test_an_extension_costs_six_coins():
    """FR l.434: « Chaque Extension coûte six pièces »."""
    e = start(4)
    me(e).update(coins=5)
    refresh(e)
    assert not any(x.startswith("build_extension") for x in labels(e))
    me(e).update(coins=6)
    refresh(e)
    play(e, "build_extension extension#0.2")
    assert me(e)["coins"] == 0


# ---------------------------------------------------------------------------- black market
@pytest.mark.parametrize("bought, coins, damage", [(0, 0, 0), (1, 1, 1), (2, 3, 3), (3, 6, 6)])
def test_black_market_price_by_count(bought, coins, damage):
    """FR l.196-199: none, one, two or three cards cost 0, 1, 3 or 6 coins and as much damage."""
    e = start(2)
    pass_all(e)
    for p in (0, 1):
        for x in zone(e, f"offer@{p}"):
            plain(e, x, "shell")
    me(e).update(coins=6, damage=2)                      # the subsets were offered with 10 coins
    offer = zone(e, "offer@0")[:bought]
    play(e, "[" + ", ".join(offer) + "]", "[]")
    assert (me(e)["coins"], me(e)["damage"]) == (6 - coins, 2 + damage)


@pytest.mark.parametrize("coins, most", [(0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (6, 3)])
def test_black_market_needs_the_coins(coins, most):
    """FR l.196-199: one card costs 1 coin, two 3, three 6: the purchases offered are those you
    can pay."""
    e = start(2)
    me(e).update(coins=coins)                            # set before Phase B offers the subsets
    pass_all(e)
    picks = [x for x in labels(e) if x.startswith("[")]      # (the free actions are offered too)
    assert max(0 if x == "[]" else x.count(",") + 1 for x in picks) == most


@pytest.mark.parametrize("players, prefilled", [(2, [3, 4]), (3, [4]), (4, [])])
def test_prefilled_black_market_rows(players, prefilled):
    """FR l.190: with three players the bottom row is filled, with two the two bottom rows."""
    e = start(players)
    pass_all(e)
    assert [r for r in (1, 2, 3, 4) if len(zone(e, f"market_row[{r}]")) == 3] == prefilled


# ---------------------------------------------------------------------------- auction move bonus
@pytest.mark.parametrize("cards, moves", [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_auction_move_bonus_by_cards_won(cards, moves):
    """FR l.233-238: after winning a row of 0, 1, 2 or 3 cards, « trois fois », « deux fois »,
    « une fois » or no extra « Déplacer des deeples » action."""
    e = start(2)
    pass_all(e)
    for p in (0, 1):
        for x in zone(e, f"offer@{p}"):
            plain(e, x, "shell")
    play(e, "[]", "[]")
    assert phase(e) == "auctions" and e.decision.kind == "choose row"
    for x in list(zone(e, "construction_supply")):
        put(e, x, "oxygen@0")                            # enough face-up oxygen cards
    for x in list(zone(e, "lot[1]"))[cards:]:
        put(e, x, "box")
    me(e)["coins"] = 6
    play(e, "1", "1", "out")
    offered = 0
    while e.decision.kind == "may move_deeples":
        offered += 1
        stay_home(play(e, labels(e)[0]))
    assert offered == moves and e.decision.kind == "may extra_move"


@pytest.mark.parametrize("kind, value", [("R4", -5), ("R7a", 8), ("R7b", 20), ("R8", 15)])
def test_research_station_values(kind, value):
    """FR l.378 « tu perds cinq points », l.390 « huit ou vingt points », l.394 « quinze points »:
    the station values the card data must carry (rulebook numbers inside the sample deck)."""
    e = start(2)
    (x,) = [c for c in e.state["items"] if item(e, c).get("research") == kind]
    before = formula(e, "station_value(you)")
    put(e, x, "station[research]@0")
    assert formula(e, "station_value(you)") - before == value


@pytest.mark.parametrize("players, allowed", [(1, False), (2, True), (4, True), (5, False)])
def test_two_to_four_players(players, allowed):
    """FR l.165, 172, 190: the rules are given for two, three and four players (« une partie à
    trois ou quatre joueurs », the « variante à deux joueurs »); one player plays the solo game
    (l.500)."""
    from meeplang.dsl.errors import UsageError
    if allowed:
        assert start(players).decision is not None
    else:
        with pytest.raises(UsageError, match="for 2-4 players"):
            start(players)


# ---------------------------------------------------------------------------- Phase D, the rounds
def next_round(e):
    """Answer quietly until the next round's first Phase A decision of seat 0."""
    from .helpers import quiet_choice
    left = False
    while True:
        left = left or phase(e) != "development"
        if left and phase(e) == "development" and e.decision.player == 0 \
                and e.decision.kind == "action":
            return e
        play(e, quiet_choice(e.decision))


def activate_a_shell(e):
    (s1,) = modules(e, 1)
    put(e, plain(e, s1, "shell", worksites=1, points=2), "station[shell]@0")
    item(e, "start_oxygen#0.1")["bottles"] = [2]
    refresh(e)
    d = zone(e, "crew@0")[0]
    play(e, "move_deeples start_oxygen#0.1", d, s1, f"activate {s1}")
    assert item(e, d)["standing"]
    return d, s1


def test_deeples_come_back_after_rounds_one_and_two_but_not_three():
    """FR l.87: three rounds; l.269: « Récupérez tous vos deeples » in Phase D, except after the
    last round (l.382: the deeples stay to show the complete crabs)."""
    from .helpers import quiet_choice
    e = next_round(start(2))                                  # round 2
    d, _ = activate_a_shell(e)
    next_round(e)                                             # round 3
    assert item(e, d)["site"] is None and not item(e, d)["standing"]
    d, s1 = activate_a_shell(e)
    while e.decision is not None:
        play(e, quiet_choice(e.decision))
    assert e.result is not None                               # the game ends after round 3
    assert item(e, d)["site"] == s1 and item(e, d)["standing"]


def test_the_boards_spaces():
    """FR l.106: the card board's « douze cases », four price rows (l.118-121) of three; l.190:
    the three spaces of each black-market row (« chacun des trois emplacements »)."""
    e = start(4)
    assert formula(e, "capacity(board_a)") == 12
    assert formula(e, "max(row(c) for c in board_a)") == 4
    for r in (1, 2, 3, 4):
        assert formula(e, f"capacity(market_row[{r}])") == 3
        assert formula(e, f"capacity(lot[{r}])") == 3


def test_three_rounds():
    """FR l.87: the game lasts three rounds (« manches »)."""
    from .helpers import quiet_choice
    e = start(2)
    rounds, last = 1, phase(e)
    while e.decision is not None:
        if phase(e) == "development" and last != "development":
            rounds += 1
        last = phase(e)
        play(e, quiet_choice(e.decision))
    assert rounds == 3


def test_one_main_action_per_turn():
    """FR l.110: on your turn you take one of the three actions (then free actions, l.168)."""
    e = start(4)
    x = plain(e, on_board(e, 4, 1), "shell")
    me(e).update(coins=12)
    refresh(e)
    play(e, f"buy_card {x}")
    assert e.decision.player == 0
    assert not any(t.split(" ")[0] in ("buy_card", "move_deeples", "pass_development")
                   for t in labels(e))
    assert "end turn" in labels(e)


def test_r9c_never_repairs():
    """FR l.402: R9c is one damage less per use of the power plant, never a repair: two R9c cards
    make the first use (1 damage) cost nothing, not -1."""
    e = start(4)
    for _ in range(2):
        (r,) = modules(e, 1)
        put(e, plain(e, r, "research"), "station[research]@0")
        item(e, r)["research"] = "R9c"
    me(e).update(damage=5, coins=0)
    refresh(e)
    play(e, "power_plant")
    assert me(e)["damage"] == 5


def test_a_shipyard_brings_its_deeples():
    """FR l.348: a shipyard card brings its deeples, lying, yours for the rest of the game."""
    e = start(4)
    x = plain(e, on_board(e, 4, 1), "shipyard", deeples=2)
    crew = len(zone(e, "crew@0"))
    me(e).update(coins=12)
    refresh(e)
    play(e, f"buy_card {x}")
    assert len(zone(e, "crew@0")) == crew + 2


def test_the_oxygen_extension_brings_a_construction_card():
    """FR l.454: the Oxygen extension takes a construction card from the supply to your oxygen cards."""
    e = start(4)
    me(e).update(coins=6)
    refresh(e)
    before = len(zone(e, "oxygen@0"))
    play(e, "build_extension extension#0.2")
    assert len(zone(e, "oxygen@0")) == before + 1
    assert item(e, zone(e, "oxygen@0")[-1])["kind"] == "construction"
