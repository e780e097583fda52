"""New Eden: the rulebook's worked examples (EX1-EX4) and the scenarios derived from its rules
(D1-D15), as written in scenarios.md (this folder).

Each test starts a game, sets the scenario's position by editing the state, drives the decisions by
label and checks the rulebook's numbers. "FR l.N" is a line of the French rulebook."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError

from .helpers import (advance, at_phase, cell, clear, end_turn, formula, item, labels, me,
                      modules, pass_all, phase, play, put, refresh, start, stay_home, where, zone)


def plain(e, x, category, **fields):
    """Make x a module of this category with no Research effect and no printed symbols."""
    item(e, x).update(category=category, research=None, up=0, down=0, **fields)
    return x


def fired(e, name):
    return [ev for ev in e.events if ev.get("event") == "trigger" and ev["trigger"] == name]


# ---------------------------------------------------------------------------- EX1 (T-NE-02)
def ex1_board(e):
    """FR l.125-129: the example's board (illustrative cards a..i)."""
    cards = list(zone(e, "board_a"))
    clear(e, "board_a")
    names = "abcdefghi"
    cells = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 2), (4, 1), (4, 2), (4, 3)]
    card = {}
    for name, x, at in zip(names, cards, cells):
        put(e, x, "board_a", at=at)
        card[name] = x
    plain(e, card["f"], "shell")
    me(e)["coins"], me(e)["damage"] = 5, 2
    refresh(e)
    return card


def test_rulebook_ex1():
    e = start(4)
    c = ex1_board(e)
    play(e, f"buy_card {c['f']}")
    assert (me(e)["coins"], me(e)["damage"]) == (2, 2)        # row 3: 3 coins, damage 0
    assert zone(e, "station[shell]@0")[-1] == c["f"]
    # row 3 emptied: rows 1 and 2 drop one row, columns kept; row 4 unchanged; row 1 empty
    assert {n: cell(e, c[n]) for n in "abcdeghi"} == {
        "a": (2, 1), "b": (2, 2), "c": (2, 3), "d": (3, 1), "e": (3, 3),
        "g": (4, 1), "h": (4, 2), "i": (4, 3)}
    assert formula(e, "row_price[row(x)]", x=c["a"]) == 6
    assert formula(e, "row_damage[row(x)]", x=c["a"]) == -1
    assert formula(e, "row_price[row(x)]", x=c["d"]) == 3


def test_rulebook_ex1_buying_from_a_row_that_keeps_cards_moves_nothing():
    e = start(4)
    c = ex1_board(e)
    me(e)["coins"] = 10
    refresh(e)
    play(e, f"buy_card {c['a']}")                             # row 1 still holds b and c
    assert {n: cell(e, c[n]) for n in "bcdefghi"} == {
        "b": (1, 2), "c": (1, 3), "d": (2, 1), "e": (2, 3), "f": (3, 2),
        "g": (4, 1), "h": (4, 2), "i": (4, 3)}
    assert (me(e)["coins"], me(e)["damage"]) == (0, 0)       # 10 coins, damage 2 - 3 stops at 0


# ---------------------------------------------------------------------------- EX2, D5 (T-NE-07)
def black_market(players=4):
    """Start of Phase B, the Nautilus holder P = seat 0 (it passed first), every offered card a
    plain shell house (so no Research effect changes the counts)."""
    e = start(players)
    pass_all(e)
    assert phase(e) == "black_market" and e.decision.player == 0 and e.decision.secret
    assert e.state["counters"]["nautilus"] == 0
    for p in range(players):
        for x in zone(e, f"offer@{p}"):
            plain(e, x, "shell")
    return e


def picks(xs):
    return "[" + ", ".join(xs) + "]"


def test_rulebook_ex2():
    e = black_market()
    X, Y, Z = zone(e, "offer@0")
    me(e)["coins"], me(e)["damage"] = 8, 4
    play(e, picks([X, Y]))
    # before every player has chosen, no other seat sees P's cards or coins
    assert e.decision.player == 1 and e.decision.secret
    for seat in (1, 2, 3):
        view = e.view(seat)
        assert view["players"][0]["coins"] == "?"
        assert view["zones"]["offer@0"] == ["?", "?", "?"]
        assert X not in view["items"] and Z not in view["items"]
    assert me(e)["coins"] == 8 and zone(e, "offer@0") == [X, Y, Z]   # nothing happens yet
    for p in (1, 2, 3):                                      # the others buy all three
        play(e, picks(zone(e, f"offer@{p}")))
    # Phase C has started (its first decision: the Nautilus holder chooses a row)
    assert phase(e) == "auctions" and e.decision.kind == "choose row"
    assert (me(e)["coins"], me(e)["damage"]) == (5, 7)      # 2 cards: 3 coins, 3 damage
    assert zone(e, "station[shell]@0") == [X, Y]            # built face up once all had chosen
    assert zone(e, "bought@0") == [] and zone(e, "offer@0") == []
    # Z went face down on the first empty row, revealed for the auctions
    assert zone(e, "lot[1]") == [Z]
    assert all(zone(e, f"lot[{r}]") == [] for r in (2, 3, 4))
    assert "1" in labels(e)                                 # and row 1 can be auctioned


def test_rulebook_ex2_leftovers_are_face_down_until_phase_c():
    e = black_market()
    X, Y, Z = zone(e, "offer@0")
    play(e, picks([X, Y]), picks([]), picks([]), picks([]))
    # the game moved on to Phase C: the black-market rows, where leftovers wait face down, are
    # `visibility: hidden`; the rows revealed for the auctions are public
    assert e.game.zones["market_row"].visibility == "hidden"
    assert e.game.zones["lot"].visibility == "public"
    assert zone(e, "lot[1]") == [Z]                          # P placed first (Nautilus holder)
    assert [len(zone(e, f"lot[{r}]")) for r in (2, 3, 4)] == [3, 3, 3]


def test_rulebook_d5():
    e = black_market()
    X, Y, Z = zone(e, "offer@0")
    me(e)["coins"], me(e)["damage"] = 8, 4
    play(e, picks([X, Y, Z]))
    seat1 = list(zone(e, "offer@1"))
    play(e, picks([]), picks(zone(e, "offer@2")), picks(zone(e, "offer@3")))
    assert (me(e)["coins"], me(e)["damage"]) == (2, 10)     # 3 cards: 6 coins, 6 damage
    assert zone(e, "offer@0") == []
    assert zone(e, "lot[1]") == seat1                       # P claimed no row: seat 1 took row 1
    assert zone(e, "station[shell]@0") == [X, Y, Z]


# ---------------------------------------------------------------------------- EX3 (T-NE-11)
def test_rulebook_ex3():
    e = start(4)
    o1, o2, o3 = (plain(e, x, "octopus", value=v) for x, v in zip(modules(e, 3), (1, 5, 3)))
    for x in (o1, o2, o3):
        put(e, x, "station[octopus]@0")
    (s1,) = modules(e, 1)
    put(e, plain(e, s1, "shell", value=8), "station[shell]@0")
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research", value=4), "station[research]@0")
    item(e, r)["research"] = "R2"
    me(e).update(points=16, coins=6, damage=4)
    assert formula(e, "ups(you)") == 6 and formula(e, "downs(you)") == 0
    assert formula(e, "stability(you)") == 6
    assert formula(e, "coin_points(you)") == 1              # 6 coins: one point
    assert formula(e, "holds(you)") is True                 # damage 4 below the red marker at 6
    assert formula(e, "station_value(you)") == 21           # 1 + 5 + 3 + 8 + 4
    assert e.score_of(0) == 38                              # the final-scoring rule of game.yaml


# ---------------------------------------------------------------------------- EX4 (T-NE-05)
def ex4(bottles):
    e = start(4)
    O = "start_oxygen#0.1"
    item(e, O)["bottles"] = bottles
    item(e, "start_oxygen#0.2")["face_up"] = False           # P has only O face up
    s1, s2 = modules(e, 2)
    plain(e, s1, "shell", worksites=2, points=2)
    plain(e, s2, "shell", worksites=1, points=3)
    put(e, s1, "station[shell]@0")
    put(e, s2, "station[shell]@0")
    refresh(e)
    (d,) = zone(e, "crew@0")
    assert item(e, d)["site"] is None and not item(e, d)["standing"]
    play(e, f"move_deeples {O}", d)
    return e, O, s1, s2, d


def test_rulebook_ex4():
    e, O, s1, s2, d = ex4([2])
    assert formula(e, "distance(none, m)", m=s2) == 2
    targets = [t for t in labels(e) if t in ("None", s1, s2)]
    assert targets == ["None", s1, s2]
    points = me(e)["points"]
    play(e, s2)
    assert e.decision.kind == "may activate" and labels(e)[:2] == [f"activate {s2}", "skip"]
    play(e, f"activate {s2}")
    assert item(e, d)["site"] == s2 and item(e, d)["standing"] is True
    assert me(e)["points"] == points + 3
    assert formula(e, "activated(you, m)", m=s2) is True
    assert item(e, O)["face_up"] is False
    assert d not in formula(e, "movable(you)")
    end_turn(e)                                             # free actions could follow (FR l.160)
    assert e.decision.player == 1
    # P's next turn: no face-up oxygen card, so no move_deeples
    while e.decision.player != 0:
        play(e, "pass_development")
    assert not any(t.startswith("move_deeples") for t in labels(e))


def test_rulebook_ex4_a_bottle_of_one_does_not_reach_the_second_module():
    e, O, s1, s2, d = ex4([1])
    assert [t for t in labels(e) if t in ("None", s1, s2)] == ["None", s1]


# ---------------------------------------------------------------------------- D1 (T-NE-01, 02)
def test_rulebook_d1():
    e = start(4)
    a = next(x for x in zone(e, "board_a") if cell(e, x) == (1, 2))
    me(e).update(damage=0, coins=12)
    refresh(e)
    play(e, f"buy_card {a}")
    assert (me(e)["coins"], me(e)["damage"]) == (2, 0)      # the -3 stops at 0
    assert not fired(e, "module_lost")


# ---------------------------------------------------------------------------- D2 (T-NE-04)
def test_rulebook_d2():
    e = start(4)
    me(e).update(damage=3, coins=0)
    refresh(e)
    play(e, "power_plant", "power_plant", "power_plant")
    assert (me(e)["coins"], me(e)["damage"]) == (15, 13)    # 3 + 1 + 3 + 6
    assert formula(e, 'uses("power_plant")') == 3
    assert "power_plant" not in labels(e)                   # a 4th use is not offered
    with pytest.raises(UsageError, match="power_plant is not allowed now: it was used 3 times"):
        e.choose_label("power_plant")
    # Phase B of the same round: still not offered (the count restarts with the next Phase A)
    advance(e, at_phase("black_market", 0))
    assert "power_plant" not in labels(e)
    advance(e, lambda e: phase(e) == "development" and e.decision.player == 0
            and e.decision.kind == "action")
    assert "power_plant" in labels(e)


# ---------------------------------------------------------------------------- D3 (T-NE-01)
def d3(**options):
    e = start(4, **options)
    me(e)["damage"] = 14
    e.state["uses"]["power_plant"] = [1, 0, 0, 0]
    c1, c2, s1, r = modules(e, 4)
    put(e, plain(e, c1, "crab"), "station[crab]@0")
    put(e, plain(e, c2, "crab"), "station[crab]@0")
    put(e, plain(e, s1, "shell"), "station[shell]@0")
    put(e, plain(e, r, "research"), "station[research]@0")
    put(e, "extension#0.3", "station[octopus]@0", top=True)     # the repair tile
    coins = me(e)["coins"]
    refresh(e)
    play(e, "power_plant")                                      # the 2nd use: +3
    return e, coins, c1, c2, s1


def test_rulebook_d3():
    e, coins, c1, c2, s1 = d3()
    assert me(e)["damage"] == 15 and me(e)["coins"] == coins + 5
    assert fired(e, "module_lost")
    assert e.decision.player == 0 and e.decision.kind == "do destroy_module"
    assert labels(e) == ["destroy_module crab", "destroy_module shell"]   # no free actions here
    play(e, "destroy_module crab")
    assert where(e, c2) == "box" and zone(e, "station[crab]@0") == [c1]
    assert zone(e, "station[shell]@0") == [s1]
    assert e.decision.kind == "action" and e.decision.player == 0     # the turn goes on


def test_rulebook_d3_per_point():
    e, coins, c1, c2, s1 = d3(overflow_loss="per_point")
    assert me(e)["damage"] == 15 and me(e)["coins"] == coins + 5
    play(e, "destroy_module crab")                                   # excess 2: two destructions
    assert labels(e) == ["destroy_module crab", "destroy_module shell"]
    play(e, "destroy_module crab")
    assert where(e, c1) == "box" and where(e, c2) == "box"
    assert e.decision.kind == "action"


# ---------------------------------------------------------------------------- D4 (T-NE-10)
@pytest.mark.parametrize("players, gains", [(4, [0, 3, 2, 1]), (3, [0, 3, 2]), (2, [0, 3])])
def test_rulebook_d4(players, gains):
    e = start(players)
    assert e.decision.player == 0 and e.state["counters"]["nautilus"] == 0
    before = [me(e, p)["points"] for p in range(players)]
    play(e, "move_deeples start_oxygen#0.1", "deeple#1", "None")     # seat 0 acts, without passing
    end_turn(e)
    for p in range(1, players):                                      # A, B, C pass in order
        assert e.decision.player == p
        play(e, "pass_development")
        if p == 1:
            assert e.state["counters"]["nautilus"] == 1             # at once, before B's turn
    assert e.decision.player == 0
    play(e, "pass_development")                                      # D passes last
    assert [me(e, p)["points"] - before[p] for p in range(players)] == gains
    assert e.state["counters"]["nautilus"] == 1


# ---------------------------------------------------------------------------- D6, D7 (T-NE-09)
def auctions_2p(coins=6, oxygen_cards=4):
    """Phase C with 2 players: P (seat 0) holds the Nautilus marker, chooses the first row and
    opens; row 1 holds P's three black-market leftovers (plain shell houses)."""
    e = start(2)
    pass_all(e)
    for p in (0, 1):
        for x in zone(e, f"offer@{p}"):
            plain(e, x, "shell")
    play(e, "[]", "[]")
    assert phase(e) == "auctions" and e.decision.kind == "choose row" and e.decision.player == 0
    assert labels(e) == ["1", "2", "3", "4"]
    me(e)["coins"] = coins
    for x in list(zone(e, "construction_supply"))[: oxygen_cards - 2]:
        put(e, x, "oxygen@0")
    return e


def test_rulebook_d6():
    e = auctions_2p()
    clear(e, "lot[1]")                                   # row 1 is empty
    damage = me(e)["damage"]
    play(e, "1", "4", "out")                             # P bids 4, the other player drops out
    assert me(e)["coins"] == 2
    assert len(zone(e, "row_marker[1]")) == 1
    for _ in range(3):                                   # empty row: 3 extra moves (FR l.233-238)
        assert e.decision.kind == "may move_deeples" and labels(e)[-1] == "skip"
        stay_home(play(e, labels(e)[0]))
    assert e.decision.kind == "may extra_move"           # then once more, for one damage (FR l.248)
    play(e, "extra_move")
    assert me(e)["damage"] == damage + 1
    stay_home(e)                                         # (with the last face-up oxygen card)
    assert e.decision.kind == "choose row" and e.decision.player == 0   # P picks the next row
    assert labels(e) == ["2", "3", "4"]
    play(e, "2")
    assert e.decision.kind == "choose opener" and e.decision.player == 0


def test_rulebook_d6_no_extra_move_without_oxygen():
    e = auctions_2p(oxygen_cards=2)
    clear(e, "lot[1]")
    play(e, "1", "4", "out")
    for _ in range(2):
        stay_home(play(e, labels(e)[0]))
    # both oxygen cards are face down: can(move_deeples) is false, so no 3rd move and no extra_move
    assert e.decision.kind == "choose row"
    assert not any(ev.get("kind") == "may extra_move" for ev in e.events)


def test_rulebook_d7():
    e = auctions_2p()
    u, v, w = zone(e, "lot[1]")
    damage = me(e)["damage"]
    play(e, "1", "4", "out")
    assert zone(e, "station[shell]@0") == [u, v, w]      # built (FR l.229)
    assert e.decision.kind == "may extra_move"           # no bonus move for 3 cards
    assert labels(e) == ["extra_move", "skip"]
    play(e, "extra_move")
    assert me(e)["damage"] == damage + 1


# ---------------------------------------------------------------------------- D8, D9 (T-NE-11)
def station(e, seat=0, **arms):
    for category, n in arms.items():
        for x in modules(e, n):
            put(e, plain(e, x, category, value=1), f"station[{category}]@{seat}")


def test_rulebook_d8():
    e = start(2)
    station(e, octopus=3, crab=5)
    assert (formula(e, "ups(you)"), formula(e, "downs(you)")) == (3, 5)
    assert formula(e, "stability(you)") == 0                 # max(0, min(15, 3) - 5)
    me(e).update(damage=0, points=0, coins=0)
    assert formula(e, "holds(you)") is True and e.score_of(0) == 8   # station value: 8 modules x 1
    me(e).update(damage=1, coins=5)
    assert formula(e, "holds(you)") is False and e.score_of(0) == 1  # only the coin point


def test_rulebook_d8_clamp_at_each_step():
    e = start(2)
    station(e, octopus=17, crab=3)                           # ups 17 stop at 15, then 3 downs
    assert formula(e, "stability(you)") == 12
    e2 = start(2, stability_max=14)
    station(e2, octopus=17, crab=3)
    assert formula(e2, "stability(you)") == 11


@pytest.mark.parametrize("tile, counts, limit",
                         [(False, True, 2), (True, True, 3), (True, False, 2)])
def test_rulebook_d9(tile, counts, limit):
    e = start(2, repair_tile_counts_as_octopus=counts)
    station(e, crab=2, octopus=1)
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research"), "station[research]@0")
    item(e, r)["research"] = "R2"
    if tile:
        put(e, "extension#0.3", "station[octopus]@0", top=True)
    assert formula(e, "stability(you)") == limit              # 0 + 1 (+1) + 3 - 2


def test_r3_removes_the_crab_downs():
    e = start(2)
    station(e, crab=2, octopus=1)
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research"), "station[research]@0")
    item(e, r)["research"] = "R3"
    assert formula(e, "stability(you)") == 1


# ---------------------------------------------------------------------------- D10 (T-NE-04)
@pytest.mark.parametrize("kind, coins, damage, points", [
    ("R9a", 7, 1, 0), ("R9b", 5, 1, 2), ("R9c", 5, 0, 0)])
def test_rulebook_d10(kind, coins, damage, points):
    e = start(4)
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research"), "station[research]@0")
    item(e, r)["research"] = kind
    me(e).update(coins=0, damage=0, points=0)
    refresh(e)
    play(e, "power_plant")
    assert (me(e)["coins"], me(e)["damage"], me(e)["points"]) == (coins, damage, points)


# ---------------------------------------------------------------------------- D11 (T-NE-06 family)
def test_rulebook_d11():
    e = start(4)
    me(e)["coins"] = 6
    refresh(e)
    tile = next(t for t in zone(e, "extension_tiles@0") if item(e, t)["name"] == "shipyard")
    supply = len(zone(e, "deeple_supply"))
    play(e, f"build_extension {tile}")
    assert me(e)["coins"] == 0
    assert zone(e, "built_extensions@0") == [tile]
    crew = zone(e, "crew@0")
    assert len(crew) == 4
    assert all(item(e, d)["site"] is None and not item(e, d)["standing"] for d in crew)
    assert len(zone(e, "deeple_supply")) == supply - 3


def test_repair_extension_is_inserted_at_the_head_of_the_arm():
    """T-NE-06: the repair tile goes first on the octopus arm: each octopus is one space farther."""
    e = start(4)
    o1, o2 = modules(e, 2)
    put(e, plain(e, o1, "octopus"), "station[octopus]@0")
    put(e, plain(e, o2, "octopus"), "station[octopus]@0")
    assert formula(e, "distance(none, m)", m=o2) == 2
    me(e)["coins"] = 6
    refresh(e)
    tile = next(t for t in zone(e, "extension_tiles@0") if item(e, t)["name"] == "repair")
    play(e, f"build_extension {tile}")
    assert zone(e, "station[octopus]@0") == [tile, o1, o2]
    assert formula(e, "distance(none, m)", m=o2) == 3
    assert formula(e, "distance(none, m)", m=tile) == 1


# ---------------------------------------------------------------------------- D12 (T-NE-12)
def test_rulebook_d12():
    e = start(4)
    r0, r1 = modules(e, 2)
    put(e, plain(e, r0, "research"), "station[research]@0")
    item(e, r0)["research"] = "R2"
    plain(e, r1, "research")
    item(e, r1)["research"] = "R1"
    old = next(x for x in zone(e, "board_a") if cell(e, x) == (4, 1))
    put(e, old, "box")
    put(e, r1, "board_a", at=(4, 1))
    me(e).update(coins=7, points=0, damage=0)
    refresh(e)
    tile = next(t for t in zone(e, "extension_tiles@0") if item(e, t)["name"] == "research")
    play(e, f"build_extension {tile}")
    assert (me(e)["coins"], me(e)["points"]) == (1, 0)       # nothing at once, nothing for r0
    play(e, f"buy_card {r1}")                                # row 4: 1 coin, +1 damage
    assert me(e)["points"] == 3                              # +3: a Research card built after it
    assert me(e)["coins"] == 1 - 1 + 5                       # R1: five coins
    assert me(e)["damage"] == 1


# ---------------------------------------------------------------------------- D13 (T-NE-03)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rulebook_d13(seed):
    board3 = {cell(start(3, seed=seed), x): x for x in zone(start(3, seed=seed), "board_a")}
    e = start(2, seed=seed)                 # same seed, same shuffle: the same 12 cards laid out
    assert fired(e, "two_player_discard") and e.decision.player == 0
    assert where(e, board3[(1, 1)]) == "box"                 # the leftmost, most expensive card
    assert len(zone(e, "board_a")) == 11
    # row 1 is not empty: nothing drops
    assert all(cell(e, board3[rc]) == rc for rc in board3 if rc != (1, 1))
    play(e, f"buy_card {board3[(4, 3)]}")
    end_turn(e)
    assert len(zone(e, "board_a")) == 10 and len(fired(e, "two_player_discard")) == 1
    play(e, f"buy_card {board3[(4, 2)]}")                    # before seat 1's turn: no discard
    end_turn(e)
    assert len(fired(e, "two_player_discard")) == 2          # then before seat 0's turn again
    assert where(e, board3[(2, 1)]) == "box"                 # the top card of the leftmost column
    assert cell(e, board3[(3, 1)]) == (3, 1) and cell(e, board3[(4, 1)]) == (4, 1)
    assert len(zone(e, "board_a")) == 8


def test_two_player_discard_stops_once_the_nautilus_holder_has_passed():
    e = start(2)
    play(e, "pass_development")                              # seat 0 (Nautilus) passes
    n = len(fired(e, "two_player_discard"))
    play(e, labels(e)[0])                                    # seat 1 buys; its turns go on
    assert len(fired(e, "two_player_discard")) == n


# ---------------------------------------------------------------------------- D14: see test_solo.py
# ---------------------------------------------------------------------------- D15 (T-NE-11)
@pytest.mark.parametrize("damage, winners", [((6, 9), [0]), ((9, 6), [1]), ((6, 6), [0, 1])])
def test_rulebook_d15(damage, winners):
    """FR l.498: equal scores, the least damage wins. Both stations hold, so the tie is between
    two scores that count their station values (not two collapsed stations)."""
    from meeplang.interpreter.simulation import play_game
    from .helpers import game
    e = play_game(game(), 2, 4, "first")
    assert e.result is not None
    e.result = None                                          # score_of now computes, not reads, the score
    for p in (0, 1):
        marker = next(x for x in zone(e, "box"))                # a red-marker lift of 15
        item(e, marker).update(category="shell", research=None, value=0, up=15, down=0)
        put(e, marker, f"station[shell]@{p}")
        me(e, p)["damage"] = damage[p]
        assert formula(e, "holds(you)", seat=p) is True
    target = max(e.score_of(p) for p in (0, 1)) + 1             # scores read after the changes
    for p in (0, 1):
        me(e, p)["points"] += target - e.score_of(p)
    e._finish()                                              # the engine's final scoring, again
    assert e.result["scores"] == [target, target]
    assert e.result["winners"] == winners


# ---------------------------------------------------------------------------- T-NE-13
def test_r8_and_r10_hit_every_other_player():
    e = start(3)
    r8, r10, y1, y2, c1 = modules(e, 5)
    plain(e, r8, "research")
    item(e, r8)["research"] = "R8"
    plain(e, r10, "research")
    item(e, r10)["research"] = "R10"
    put(e, plain(e, y1, "shipyard", deeples=0), "station[shipyard]@1")
    put(e, plain(e, y2, "shipyard", deeples=0), "station[shipyard]@1")
    put(e, plain(e, c1, "crab"), "station[crab]@2")
    me(e, 1)["damage"] = 14
    coins = [me(e, p)["coins"] for p in range(3)]
    for x, at in ((r8, (4, 1)), (r10, (4, 2))):
        old = next(c for c in zone(e, "board_a") if cell(e, c) == at)
        put(e, old, "box")
        put(e, x, "board_a", at=at)
    refresh(e)
    play(e, f"buy_card {r8}")
    end_turn(e)
    assert [me(e, p)["coins"] - coins[p] for p in range(3)] == [-1, 5, 5]
    play(e, "move_deeples start_oxygen#1.1", "deeple#2", "None")   # seat 1 acts
    end_turn(e)
    play(e, "pass_development")                                     # seat 2 passes
    assert e.decision.player == 0
    refresh(e)
    play(e, f"buy_card {r10}")
    # seat 1: 2 shipyards -> 14 + 2 = 16, clamped at 15 with an overflow (it must destroy a module)
    assert me(e, 1)["damage"] == 15
    assert fired(e, "module_lost")
    # its only choice, the shipyard arm, loses its outer card
    assert where(e, y2) == "box" and where(e, y1) == "station[shipyard]@1"
    assert me(e, 2)["damage"] == 1                           # seat 2: one crab
