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


def _open_every_room_in(q: int, options: dict | None = None) -> Engine:
    """Sponsor the 3 rooms and fill two of them; the player's Boss sells the last treasure into
    the third in quadrimester q (the rest of the game plays the plain policy)."""
    e = solo(0, options)
    drive(e, in_quadrimester(q))
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
