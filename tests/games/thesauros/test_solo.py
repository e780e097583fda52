"""Thesauros solo (EN l.1609-1660, FR l.1586-1655): the virtual opponent's patents and their
royalties to the bank (EX-24), the 2 hats, no Zone 10, the early-museum bonus and the target a
win must exceed; whole games with every invariant after every decision."""
from __future__ import annotations

import pytest

from meeplang.interpreter.engine import Engine

from .helpers import (accounts, at, counter, drive, formula, game, in_quadrimester, item, items_of,
                      labels, me, play, put, start, zone)
from .test_full_games import play_checked

SOLO = "solo"
RICH = {"hr": 20, "rd": 20, "ge": 10, "me": 0}


def solo(seed: int = 0, options: dict | None = None) -> Engine:
    e = Engine(game(SOLO), 1, seed, options)
    e.start()
    while e.decision.kind == "do drop_hat":
        play(e, labels(e)[0])                       # keep the last two hats
    return e


def test_solo_setup_two_hats_no_envelope_virtual_mask():
    """EX-24 (EN l.1597, FR l.1607): the Mask on space 1, on a virtual-opponent cube: the virtual
    opponent owns its patent and has bought one (2 left of the 2-player 3); 2 hats kept
    (EN l.1623); no envelope (FR l.1596)."""
    e = start(1, 0, SOLO)
    assert labels(e)[0].startswith("drop_hat") and len(labels(e)) == 4     # the 2-player hats
    e = solo()
    assert len(zone(e, "hat_supply")) == 2
    mask = zone(e, "tech_row")[0]
    assert item(e, mask)["name"] == "mask" and item(e, mask)["patent"] == 1
    assert formula(e, f'copies_left(first([t for t in tech_row if t.name == "mask"]))') == 2
    assert [item(e, x)["patent"] for x in zone(e, "tech_row")[1:]] == [None, 1]   # sample spaces 1, 3, 5...
    assert zone(e, "envelope_desk@0") == [] and formula(e, "is_automa(players[1])")


def test_rulebook_ex_24_royalties_of_a_virtual_patent_go_to_the_bank():
    """EX-24: buying a Mask costs G + H, the royalty H paid to the bank (EN l.1606, FR l.1618)."""
    e = solo()
    drive(e, at("action"), budget=RICH)
    for m, z in (("0.1", "2"), ("0.2", "6"), ("0.3", "6")):
        play(e, f"place_meeple meeple#{m}", z)
    drive(e, lambda e: any(x.startswith("buy_item") for x in labels(e)))
    mask = zone(e, "tech_row")[0]
    bank, other = counter(e, "bank"), accounts(e, 1)
    play(e, f"buy_item {mask}")
    c = item(e, mask)
    assert accounts(e, 0)["rd"] == 20 - (c["g"] - 2 + c["h"])          # the Boss's $2 off G only
    assert counter(e, "bank") == bank + c["g"] - 2 + c["h"]
    assert accounts(e, 1) == other and c["sold"] == 2


def _open_every_room_in(q: int, options: dict | None = None, given: dict | None = None) -> Engine:
    """Sponsor the 3 rooms and fill two of them; the player's Boss sells the last treasure into
    the third in quadrimester q (the rest of the game plays the plain policy). `given`: the
    player's counters as a scenario has them at the start of q."""
    e = solo(0, options)
    drive(e, in_quadrimester(q))
    me(e, 0).update(given or {})
    for r in (1, 2, 3):
        item(e, items_of(e, "door", room=r)[0])["sponsor"] = 0
    cells = items_of(e, "cell", shark=False)
    for r, size in ((1, 2), (2, 3)):
        for _ in range(size - len(zone(e, f"room[{r}]"))):
            put(e, cells.pop(), f"room[{r}]")
    put(e, cells.pop(), "treasures@0")
    drive(e, lambda e: e.decision.kind == "choose z" and e.decision.player == 0)
    play(e, "8")
    drive(e, lambda e: any(x.startswith("sell_treasure") for x in labels(e)))
    play(e, next(x for x in labels(e) if x.startswith("sell_treasure")), "3", "hr")
    drive(e, lambda e: False)
    return e


@pytest.mark.parametrize("q, bonus", [(1, 30), (7, 20), (8, 10), (9, 0)])
def test_rulebook_solo_early_museum_bonus(q, bonus):
    """EN l.1634-1637: the 3 rooms open by the end of Q6 +30, Q7 +20, Q8 +10, Q9 +0; the game
    ends after that quadrimester's salaries (EN l.1139)."""
    e = _open_every_room_in(q)
    assert e.result is not None and counter(e, "quad") == q
    p = e.state["players"][0]
    assert e.result["scores"][0] == p["rp"] + formula(e, "final_points(players[0])") + bonus


def test_rulebook_solo_win_needs_the_rooms_and_more_than_the_target():
    """EN l.1639: a win needs the 3 rooms open and more than 70 RP (80 in FR l.1635, the option
    `solo_target`); the virtual opponent never wins."""
    e = _open_every_room_in(1)
    score = e.result["scores"][0]
    assert score > 0 and e.result["winners"] == ([0] if score > 70 else [])
    for target, won in ((score - 1, [0]), (score, [])):
        e = _open_every_room_in(1, {"solo_target": target})
        assert e.result["scores"][0] == score and e.result["winners"] == won
    e = start(1, 0, SOLO)
    drive(e, lambda e: False)
    assert e.result["winners"] == []                # the plain policy opens no room


@pytest.mark.parametrize("agents, seed", [("random", 1), ("greedy", 2)])
def test_solo_full_games(agents, seed):
    e = play_checked(1, seed, agents, SOLO)
    assert e.result is not None and len(e.result["scores"]) == 2 and e.result["scores"][1] == 0
    assert 1 <= counter(e, "quad") <= 9
    assert all(w == 0 for w in e.result["winners"])
    assert me(e, 1)["rp"] == 10                     # the virtual opponent never scores


@pytest.mark.slow
def test_solo_full_games_many_seeds():
    for seed in range(3, 12):
        play_checked(1, seed, "random", SOLO)
        play_checked(1, seed, "first", SOLO)


@pytest.mark.parametrize("q, level", [(6, 3), (7, 2), (8, 1), (9, 0)])
def test_solo_trophy_indiana_jones(q, level):
    """EN l.1649, FR l.1645: the museum filled in the 8th, 7th or 6th quadrimester earns the
    Indiana Jones trophy's 1st, 2nd or 3rd level (the 9th none)."""
    e = _open_every_room_in(q)
    assert me(e, 0)["trophy[indiana_jones]"] == level


@pytest.mark.parametrize("fished, ads, level", [(0, 0, 0), (49, 13, 0), (50, 14, 1), (74, 19, 1),
                                                (75, 20, 2), (99, 23, 2), (100, 24, 3)])
def test_solo_trophies_kings_of_fishing_and_advertising(fished, ads, level):
    """EN l.1650-1652: King of Advertising at 14/20/24 advertising RP, King of Fishermen at
    $50/$75/$100 of fishing income (the mussels earn the workers $0 in Q9, the Boss sells)."""
    e = _open_every_room_in(9, {"solo_target": 0}, {"fishing_income": fished, "ad_points": ads})
    p = me(e, 0)
    assert e.result["winners"] == [0] and p["fishing_income"] == fished
    assert p["trophy[king_of_fishermen]"] == level == p["trophy[king_of_advertising]"]


@pytest.mark.parametrize("score, level", [(79, 0), (80, 1), (89, 1), (90, 2), (99, 2), (100, 3)])
def test_solo_trophy_boss_of_the_year(score, level):
    """EN l.1648: Boss of the Year, a won game's final score of 80+, 90+, 100+ (the RP marker
    set at the start so that the game, the museum opened in Q1, ends on that score)."""
    plain = _open_every_room_in(1, {"solo_target": 0}).result["scores"][0]
    e = _open_every_room_in(1, {"solo_target": 0}, {"rp": 10 + score - plain})
    assert e.result["scores"][0] == score and e.result["winners"] == [0]
    assert me(e, 0)["trophy[boss_of_the_year]"] == level


def test_solo_trophies_need_a_win():
    """EN l.1648-1652: Boss of the Year, King of Advertising and King of Fishermen say "Win ...":
    a lost game earns none of them; Indiana Jones asks only for the museum filled."""
    rich = {"fishing_income": 100, "ad_points": 30, "rp": 100}
    e = _open_every_room_in(1, None, rich)
    assert e.result["winners"] == [0]
    e = _open_every_room_in(1, {"solo_target": e.result["scores"][0]}, rich)
    assert e.result["winners"] == [] and [me(e, 0)[f"trophy[{t}]"] for t in (
        "boss_of_the_year", "king_of_advertising", "king_of_fishermen", "indiana_jones")] == [0, 0, 0, 3]


def test_solo_fishing_income_counts_the_mussels():
    """EN l.1652: the fishing income cube counts the $ from fishing (mussels here: $1 each, the
    Boss $2 more, FR l.853), not other earnings."""
    e = solo()
    drive(e, in_quadrimester(2))
    assert me(e, 0)["fishing_income"] == 1 + 1 + (1 + 2)
    drive(e, in_quadrimester(3))
    assert me(e, 0)["fishing_income"] == 5 + 2 + 2 + (2 + 2)


def test_solo_advertising_points_count_the_rp_of_zone_9():
    """EN l.1650: the advertising cube counts the RP gained by advertising (4 at first, FR l.306)."""
    e = solo()
    drive(e, at("action"), budget=RICH)
    for m, z in (("0.2", "9"), ("0.1", "6"), ("0.3", "6")):
        play(e, f"place_meeple meeple#{m}", z)
    drive(e, lambda e: "advertise" in labels(e))
    play(e, "advertise")
    assert me(e, 0)["ad_points"] == 4


def test_rulebook_solo_has_no_slush_fund():
    """FR l.1596: the solo player takes the player's material "sauf le jeton Dessous de table et
    la Caisse noire" (EN l.1605 "There is no black box"): the budget splits the $50 among HR, R&D, GE and ME (three amounts asked,
    the rest into ME), and no money is hidden anywhere else."""
    e = solo()
    asked = []
    while e.decision.kind == "choose amount":
        asked.append(labels(e)[-1])
        play(e, "10")
    assert asked == ["50", "40", "30"]
    assert accounts(e) == {"hr": 10, "rd": 10, "ge": 10, "me": 20}
