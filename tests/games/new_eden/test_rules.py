"""New Eden: rules beyond the rulebook's scenarios, and the options that select the other readings
of the ambiguous points (games/new-eden/README.md)."""
from __future__ import annotations

import pytest

from .helpers import (advance, auctions_2p, cell, end_turn, formula, item, labels, me, modules,
                      phase, plain, play, put, refresh, start, stay_home, where, zone)


def on_board(e, x, at):
    old = next((c for c in zone(e, "board_a") if cell(e, c) == at), None)
    if old is not None:
        put(e, old, "box")
    put(e, x, "board_a", at=at)


def test_a_purchase_overflow_destroys_a_built_card_not_the_one_being_bought():
    """FR l.116-131, 286: pay and move the damage marker, then place the card; only cards already
    built ("déjà créées") can be destroyed: the overflow trigger runs `timing: immediately`."""
    e = start(4)
    old, new = modules(e, 2)
    put(e, plain(e, old, "crab"), "station[crab]@0")
    on_board(e, plain(e, new, "crab"), (4, 1))
    me(e)["damage"] = 15
    refresh(e)
    play(e, f"buy_card {new}")                   # +1 damage: 16 -> 15, one module lost
    assert where(e, old) == "box"                # the crab arm's only built card (the only option)
    assert zone(e, "station[crab]@0") == [new]   # the bought card is built afterwards
    assert me(e)["damage"] == 15


def test_nothing_is_lost_when_nothing_can_be_destroyed():
    e = start(4)
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research"), "station[research]@0")
    put(e, "extension#0.3", "station[octopus]@0", top=True)
    me(e)["damage"] = 15
    refresh(e)
    play(e, "power_plant")
    assert me(e)["damage"] == 15 and where(e, r) == "station[research]@0"
    assert where(e, "extension#0.3") == "station[octopus]@0"
    assert any(ev.get("event") == "cannot" and ev["action"] == "destroy_module" for ev in e.events)


def test_deeples_on_a_destroyed_module_go_back_to_the_dome():
    e = start(4)
    (c,) = modules(e, 1)
    put(e, plain(e, c, "crab"), "station[crab]@0")
    (d,) = zone(e, "crew@0")
    item(e, d).update(site=c, standing=True)
    me(e)["damage"] = 15
    refresh(e)
    play(e, "power_plant")
    assert where(e, c) == "box"
    assert item(e, d)["site"] is None and item(e, d)["standing"] is False


def test_a_deeple_moves_back_through_the_dome_to_another_arm():
    """§10.7: from where it lies, along its arm or through the dome (space 0) to another arm."""
    e = start(4)
    s1, c1 = modules(e, 2)
    put(e, plain(e, s1, "shell"), "station[shell]@0")
    put(e, plain(e, c1, "crab"), "station[crab]@0")
    (d,) = zone(e, "crew@0")
    item(e, d)["site"] = s1
    assert formula(e, "distance(a, b)", a=s1, b=c1) == 2
    item(e, "start_oxygen#0.1")["bottles"] = [1]
    refresh(e)
    play(e, "move_deeples start_oxygen#0.1", d)
    assert [t for t in labels(e) if t in ("None", s1, c1)] == ["None", s1]


def test_two_bottles_on_the_same_deeple_chain():
    e = start(4)
    s1, s2, s3 = modules(e, 3)
    for x in (s1, s2, s3):
        put(e, plain(e, x, "shell", worksites=1, points=2), "station[shell]@0")
    item(e, "start_oxygen#0.2")["bottles"] = [1, 2]
    refresh(e)
    (d,) = zone(e, "crew@0")
    play(e, "move_deeples start_oxygen#0.2", d, s1, d)
    assert [t for t in labels(e) if t in ("None", s1, s2, s3)] == ["None", s1, s2, s3]
    play(e, s3, f"activate {s3}")
    assert item(e, d)["standing"] is True and me(e)["points"] == 2


def test_several_modules_activate_after_one_move():
    e = start(4)
    s1, s2 = modules(e, 2)
    for x in (s1, s2):
        put(e, plain(e, x, "shell", worksites=1, points=2), "station[shell]@0")
    d2 = zone(e, "deeple_supply")[0]
    put(e, d2, "crew@0")
    item(e, "start_oxygen#0.2")["bottles"] = [1, 2]
    refresh(e)
    d1 = zone(e, "crew@0")[0]
    play(e, "move_deeples start_oxygen#0.2", d1, s1, d2, s2)
    play(e, f"activate {s1}")
    assert labels(e)[:2] == [f"activate {s2}", "skip"]
    play(e, f"activate {s2}")
    assert me(e)["points"] == 4


def test_locked_on_arrival_reading():
    """§10.7: by default a lying deeple moves again later (FR l.150); with locked_on_arrival a
    deeple that ended a move at a module stays there for the round (FR l.139)."""
    for locked, movable in ((False, True), (True, False)):
        e = start(4, locked_on_arrival=locked)
        (s1,) = modules(e, 1)
        put(e, plain(e, s1, "shell", worksites=2), "station[shell]@0")
        refresh(e)
        (d,) = zone(e, "crew@0")
        play(e, "move_deeples start_oxygen#0.1", d, s1)
        assert item(e, d)["site"] == s1 and not item(e, d)["standing"]
        assert (d in formula(e, "movable(you)")) is movable


def test_the_discard_collapse_option_in_isolation():
    """The card discarded is alone in its row: the rows above drop with discard_collapses only."""
    for collapses, expected in ((True, (4, 2)), (False, (3, 2))):
        e = start(2, seed=5, discard_collapses=collapses)
        cards = list(zone(e, "board_a"))
        for x in cards:
            put(e, x, "box")
        a, b, c = cards[:3]
        put(e, a, "board_a", at=(2, 2))
        put(e, b, "board_a", at=(3, 1))                          # the leftmost: discarded next
        put(e, c, "board_a", at=(4, 3))
        refresh(e)
        play(e, f"buy_card {c}")                                 # seat 0 (row 4 emptied: a, b drop)
        end_turn(e)
        assert (cell(e, a), cell(e, b)) == ((3, 2), (4, 1))
        play(e, "move_deeples start_oxygen#1.1")
        stay_home(e)
        end_turn(e)                                              # before seat 0's turn: b discarded
        assert where(e, b) == "box"
        assert cell(e, a) == expected                            # row 4 emptied by the discard


def test_bonus_cards_per_module_or_once():
    for per_module, coins in ((True, 3), (False, 1)):
        e = start(2, bonus_per_module=per_module)
        b1, b2 = zone(e, "bonus_display")
        item(e, b1).update(category="crab", reward="coin")
        item(e, b2).update(category="octopus", reward="points")
        for x in modules(e, 3):
            put(e, plain(e, x, "crab"), "station[crab]@0")
        before = me(e)["coins"], me(e)["points"]
        play(e, "pass_development", "pass_development", "[]", "[]")
        advance(e, lambda e: phase(e) == "development")
        assert me(e)["coins"] - before[0] == coins               # no octopus: no points
        assert me(e)["points"] - before[1] == 3                  # only the passing points


def test_phase_d_resets_deeples_oxygen_and_the_auction_rows():
    e = start(2)
    (s1,) = modules(e, 1)
    put(e, plain(e, s1, "shell", worksites=1, points=2), "station[shell]@0")
    item(e, "start_oxygen#0.1")["bottles"] = [2]
    refresh(e)
    (d,) = zone(e, "crew@0")
    play(e, "move_deeples start_oxygen#0.1", d, s1, f"activate {s1}")
    assert item(e, d)["standing"] and not item(e, "start_oxygen#0.1")["face_up"]
    advance(e, lambda e: phase(e) == "auctions")
    rows = {r: list(zone(e, f"lot[{r}]")) for r in (1, 2, 3, 4)}
    advance(e, lambda e: phase(e) == "development")              # every row unsold (all `out`)
    assert item(e, d)["site"] is None and not item(e, d)["standing"]     # FR l.269
    assert item(e, "start_oxygen#0.1")["face_up"]                       # FR l.270
    assert all(where(e, x) == "box" for r in rows for x in rows[r])     # FR l.272
    assert len(zone(e, "marker_supply")) == 4
    assert len(zone(e, "bonus_used")) == 2 and len(zone(e, "bonus_display")) == 2
    assert e.state["counters"]["nautilus"] == 1                # seat 1 passed first in round 1


def test_coin_points_on_collapse():
    for keep, score in ((True, 1), (False, 0)):
        e = start(2, coins_score_on_collapse=keep)
        for x in modules(e, 2):
            put(e, plain(e, x, "crab", value=4), "station[crab]@0")
        me(e).update(points=0, coins=9, damage=1)                # limit 0: the station collapses
        assert formula(e, "holds(you)") is False
        assert e.score_of(0) == score


def test_r5_r6_score_complete_crabs_only():
    e = start(2)
    c1, c2, r5, r6 = modules(e, 4)
    put(e, plain(e, c1, "crab", value=0), "station[crab]@0")
    put(e, plain(e, c2, "crab", value=0), "station[crab]@0")
    put(e, plain(e, r5, "research", value=0), "station[research]@0")
    put(e, plain(e, r6, "research", value=0), "station[research]@0")
    item(e, r5)["research"], item(e, r6)["research"] = "R5", "R6"
    (d,) = zone(e, "crew@0")
    item(e, d).update(site=c1, standing=True)                    # c1 complete, c2 not
    me(e).update(points=0, coins=0, damage=0)
    assert formula(e, "complete_crabs(you)") == 1
    assert e.score_of(0) == 3 + 2


@pytest.mark.parametrize("reading, next_chooser", [("opener", 1), ("chooser", 0)])
def test_who_picks_the_row_after_an_unsold_one(reading, next_chooser):
    """§10.11a, FR l.253: « Le dernier joueur ayant annoncé la dernière offre décide quelle est la
    prochaine ligne »: after an unsold row the opener (whose 0 was the last bid) picks by default;
    `unsold_row_chooser: chooser` gives it to whoever picked the unsold row."""
    from .helpers import pass_all
    e = start(2, unsold_row_chooser=reading)
    pass_all(e)
    play(e, "[]", "[]")
    assert phase(e) == "auctions" and e.decision.player == 0
    play(e, "1", "1", "out")                                     # P wins row 1 (its first row)
    while e.decision.kind != "choose row":
        play(e, "skip")
    play(e, "2", "1")                                            # P picks row 2, seat 1 opens
    assert e.decision.kind == "bid" and e.decision.player == 1
    play(e, "out", "out")                                        # unsold
    assert e.decision.kind == "choose row" and e.decision.player == next_chooser


@pytest.mark.parametrize("reading, offered_again", [("auction", True), ("phase", False)])
def test_the_move_for_one_damage_per_won_auction_or_per_phase(reading, offered_again):
    """§10.11d, FR l.248 « Il est possible, en plus, d'effectuer une fois l'action … lorsque tu
    avances ton marqueur de dégâts d'une case »: by default once after each auction you win;
    `extra_move_per: phase` allows it once in the whole Phase C."""
    e = auctions_2p(extra_move_per=reading)
    play(e, "1", "1", "out")                                     # P wins row 1 (3 cards)
    assert e.decision.kind == "may extra_move"
    play(e, "extra_move")
    stay_home(play(e, labels(e)[0]))                             # with its first oxygen card
    while e.decision.kind != "choose row":
        play(e, "skip")
    play(e, "2", "0", "1", "out")                                # P opens row 2 and wins it
    assert (e.decision.kind == "may extra_move") == offered_again


@pytest.mark.parametrize("reading, opening, row_2_to", [
    ("may_pass", ["out", "1", "2", "3", "4", "5"], None),
    ("must_bid", ["0", "1", "2", "3", "4", "5"], 1)])
def test_whether_a_designated_opener_may_pass(reading, opening, row_2_to):
    """§10.11b, FR l.253 « décide … qui fait la première offre »: by default the opener the
    winner names may open at 0 and take no part, as the Nautilus holder may (l.226); with
    `designated_opener: must_bid` it must offer, and its 0 wins the row if nobody outbids it.
    The Nautilus holder's own opening of the first row stays free to pass in both readings."""
    e = auctions_2p(designated_opener=reading)
    play(e, "1")
    assert labels(e)[0] == "out"                                 # the Nautilus holder, row 1
    play(e, "1", "out")                                          # P wins row 1 at 1
    while e.decision.kind != "choose row":
        play(e, "skip")
    row_2 = list(zone(e, "lot[2]"))
    me(e, 1)["coins"] = 5
    play(e, "2", "1")                                            # P picks row 2, seat 1 opens
    assert e.decision.player == 1 and labels(e) == opening
    play(e, opening[0], "out")                                   # its lowest answer; P drops out
    built = [x for x in row_2 if where(e, x) == "station[shell]@1"]
    assert built == (row_2 if row_2_to == 1 else [])
    assert me(e, 1)["coins"] == 5                                # a won row at 0 costs nothing
