"""Thesauros: the rulebook's worked examples (EX-nn, numbered as in the rules digest) played on
the game itself, asserting the rulebook's numbers. Where a number lies on a board value lost
with the images, the test reads the sample table instead of a printed value, and says so."""
from __future__ import annotations

import pytest

from .helpers import (accounts, at, counter, drive, formula, in_quadrimester, item, items_of,
                      labels, me, play, put, start, zone)

RICH = {"hr": 20, "rd": 20, "ge": 10, "me": 0}        # the rest goes to the Slush Fund


def placements(e, script):
    """Each (meeple, zone) in turn: place it, post no envelope, choose its line."""
    for m, z in script:
        play(e, f"place meeple#{m}", "skip", z)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rulebook_ex_01_setup_compensation_once(players):
    """EN l.350: $50, plus $2/$4/$6 for the 2nd/3rd/4th place; years 2 and 3: $30/$10 + $5 a map,
    no compensation again (EN l.356-362)."""
    e = start(players)
    for seat in range(players):
        assert e.decision.player == seat and labels(e)[-1] == str(50 + 2 * seat)
        drive(e, lambda e: e.decision.player != seat)
    put(e, items_of(e, "map", number=2)[0], "maps@1")
    assert [formula(e, f"income(players[{s}])") for s in range(players)][:2] == [50, 52]
    drive(e, lambda e: counter(e, "year") == 2)
    assert [formula(e, f"income(players[{s}])") for s in range(players)][:2] == [30, 35]


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
        assert me(e, 0)[f"gear[{c['name']}]"] == 1 and c["sold"] == 2
    else:
        y = _option(e, "develop_and_buy")
        d = item(e, y)
        play(e, f"develop_and_buy {y}")
        assert accounts(e, 0)["rd"] == 20 - (d["d"] + d["g"] + d["h"] - 2)
        assert counter(e, "bank") == bank + d["d"] + d["g"] + d["h"] - 2


def test_rulebook_ex_28_technology_reveal_schedule():
    """EN l.1070-1080: after the maintenance of Q1..Q5 Zone 2 shows 4, 5, 7, 8, 10 cards, none
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
