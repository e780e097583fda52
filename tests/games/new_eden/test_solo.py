"""New Eden solo against Deep Thought 4200 (FR l.500-530): S1-S4 and D14 of the scenarios.

`--players 1` gives 2 seats: seat 0 the human, seat 1 Deep Thought ("DT"), an automa seat played by
the rules and the `automa.decide` policies; no agent is ever asked to decide for it."""
from __future__ import annotations

import pytest

from .helpers import (cell, clear, end_turn, formula, item, labels, me, modules, next_round,
                      phase, plain, play, put, refresh, start, stay_home, where, zone)

DT = 1


def automa_moves(e):
    return [ev["option"] for ev in e.events if ev.get("event") == "automa"]


def asked(e, seat):
    return [ev for ev in e.events if ev.get("event") == "decision" and ev["player"] == seat]


# ---------------------------------------------------------------------------- S1 (T-NE-14)
@pytest.mark.parametrize("row_damage", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_rulebook_s1(seed, row_damage):
    board = {cell(start(3, seed=seed), x): x for x in zone(start(3, seed=seed), "board_a")}
    e = start(1, "solo", seed=seed, dt_row_damage=row_damage)   # the same shuffle as the 3p game
    assert e.state["counters"]["nautilus"] == DT                # FR l.506
    assert automa_moves(e) == ["dt_take_card"]                  # DT's first turn, asked to nobody
    assert asked(e, DT) == []
    assert where(e, board[(1, 1)]) == "box"                     # the 2-player discard came first
    taken = board[(4, 3)]                                       # then the rightmost (cheapest) card
    category = item(e, taken)["category"]
    assert where(e, taken) == f"station[{category}]@{DT}"
    research = item(e, taken)["research"]
    assert me(e, DT)["coins"] == 10 + (5 if research == "R1" else 0)   # it paid nothing
    expected_damage = (1 if row_damage else 0) + {"R4": -5, "R7a": 5, "R7b": 10}.get(research, 0)
    assert me(e, DT)["damage"] == max(0, expected_damage)
    assert me(e, DT)["points"] == (3 if category == "research" else 0)  # its Research extension
    assert e.decision.player == 0


def test_dt_takes_the_bottom_card_of_the_rightmost_column():
    e = start(1, "solo", seed=0)
    col3 = [x for x in zone(e, "board_a") if cell(e, x)[1] == 3]
    for x in col3:                                              # empty column 3
        put(e, x, "box")
    play(e, "move_deeples start_oxygen#0.1")
    stay_home(e)
    # before DT's turn the discard took the leftmost card; DT took the bottom card of column 2
    last = [ev for ev in e.events if ev.get("event") == "automa"][-1]
    assert last["option"] == "dt_take_card"
    assert all(cell(e, x)[1] <= 2 for x in zone(e, "board_a"))


# ---------------------------------------------------------------------------- S2 (T-NE-14)
def test_rulebook_s2():
    e = start(1, "solo", seed=0)
    assert e.decision.player == 0 and phase(e) == "development"
    clear(e, "board_a")
    for k in ("crab", "shell", "octopus", "shipyard", "oxygen", "research"):
        for x in list(zone(e, f"station[{k}]@{DT}")):
            if item(e, x)["kind"] == "module":
                put(e, x, "box")
    s, c, o = modules(e, 3)
    put(e, plain(e, s, "shell", points=3), f"station[shell]@{DT}")
    put(e, plain(e, c, "crab", coins=2), f"station[crab]@{DT}")
    put(e, plain(e, o, "octopus", repair=2), f"station[octopus]@{DT}")
    assert zone(e, f"station[octopus]@{DT}") == ["extension#1.3", o]   # the repair tile, built
    me(e, DT)["damage"] = 6                                     # (round 1: DT has not activated yet)
    points, coins = me(e, DT)["points"], me(e, DT)["coins"]
    deeples = {d: dict(item(e, d)) for d in zone(e, f"crew@{DT}")}
    refresh(e)
    play(e, "move_deeples start_oxygen#0.1")                    # the human acts without passing
    stay_home(e)
    end_turn(e)
    assert automa_moves(e)[-1] == "dt_activate_all"             # DT's only legal automa action
    assert me(e, DT)["points"] == points + 3
    assert me(e, DT)["coins"] == coins + 2
    assert me(e, DT)["damage"] == 6 - 3 - 2                      # the repair tile and o
    assert {d: dict(item(e, d)) for d in zone(e, f"crew@{DT}")} == deeples   # no deeple moved
    assert all(item(e, x)["face_up"] for x in zone(e, f"oxygen@{DT}"))     # no oxygen card used
    play(e, "move_deeples start_oxygen#0.2")
    stay_home(e)
    end_turn(e)
    assert automa_moves(e)[-1] == "pass_development"            # DT passes on its next turn
    assert me(e, DT)["points"] == points + 3 + 3                 # first to pass: 3 points
    assert e.state["counters"]["nautilus"] == DT
    assert asked(e, DT) == []


def test_dt_activates_again_in_the_next_round():
    """FR l.512: DT's one activation is per round (« S'il n'y a plus de cartes sur le plateau,
    Deep Thought active … Deep Thought passe le tour suivant »): a new round lets it activate
    again."""
    e = start(1, "solo", seed=0)
    next_round(e)                                               # DT activated in round 1
    assert "dt_activate_all" in automa_moves(e)
    before = len(automa_moves(e))
    clear(e, "board_a")
    refresh(e)
    play(e, "move_deeples start_oxygen#0.1")
    stay_home(e)
    end_turn(e)
    assert automa_moves(e)[before:] == ["dt_activate_all"]


# ---------------------------------------------------------------------------- S3 (FR l.514-522)
def to_black_market(variant="solo", seed=0, **options):
    e = start(1, variant, seed=seed, **options)
    play(e, "pass_development")                                 # the human passes first
    assert phase(e) == "black_market" and e.decision.player == 0 and e.decision.secret
    return e


def test_rulebook_s3():
    e = to_black_market()
    assert len(zone(e, "market_row[3]")) == 3 and len(zone(e, "market_row[4]")) == 3
    assert zone(e, "market_row[1]") == [] and zone(e, "market_row[2]") == []
    view = e.view(0)
    assert view["zones"]["market_row[3]"] == ["?"] * 3          # face down
    assert len(labels(e)) >= 8 and labels(e)[0] == "[]"         # every subset of the 3 cards
    mine, dts = list(zone(e, "offer@0")), list(zone(e, f"offer@{DT}"))
    play(e, "[]")
    assert asked(e, DT) == []                                   # DT was not asked (policy: [])
    assert all(where(e, x) == "box" for x in dts)               # DT's three cards are removed
    # Phase C has begun (the cards are revealed): the human's leftovers took the first empty row
    assert zone(e, "lot[1]") == mine and zone(e, "lot[2]") == []
    assert len(zone(e, "lot[3]")) == 3 and len(zone(e, "lot[4]")) == 3


@pytest.mark.parametrize("gift", [1, 2, 3])
def test_rulebook_s3_harder(gift):
    e = to_black_market("solo-hard", dt_gift=gift)
    dts = list(zone(e, f"offer@{DT}"))
    for x in dts:
        plain(e, x, "shell")
    coins, damage = me(e, DT)["coins"], me(e, DT)["damage"]
    play(e, "[]")
    assert zone(e, f"station[shell]@{DT}")[-gift:] == dts[:gift]   # built at once
    assert all(where(e, x) == "box" for x in dts[gift:])
    assert (me(e, DT)["coins"], me(e, DT)["damage"]) == (coins, damage)   # free, no damage


@pytest.mark.parametrize("gift", [0, 4])
def test_harder_mode_gives_one_two_or_three_cards(gift):
    """FR l.522 « en donnant une, deux ou même trois cartes à Deep Thought »: `dt_gift` is 1..3."""
    from meeplang.dsl.errors import UsageError
    with pytest.raises(UsageError, match=r"option dt_gift=\d is out of bounds \(1\.\.3\)"):
        start(1, "solo-hard", dt_gift=gift)


# ---------------------------------------------------------------------------- S4 (FR l.524-526)
def to_auctions(buy: int, seed=0, **options):
    e = to_black_market(seed=seed, **options)
    play(e, "[" + ", ".join(zone(e, "offer@0")[:buy]) + "]")
    assert phase(e) == "auctions" and e.decision.kind == "choose blocked"
    return e


def test_rulebook_s4():
    e = to_auctions(buy=1)
    assert len(zone(e, "lot[1]")) == 2 and zone(e, "lot[2]") == []
    assert labels(e) == ["1", "3", "4"]                         # rows holding at least one card
    three, four = list(zone(e, "lot[3]")), list(zone(e, "lot[4]"))
    play(e, "3", "4")
    assert all(where(e, x) == "box" for x in three + four)
    assert len(zone(e, "row_marker[3]")) == 1 and len(zone(e, "row_marker[4]")) == 1
    assert formula(e, "lot_choices()") == [1]
    # the human holds the Nautilus marker (passed first): chooses the row, which must be row 1
    assert e.decision.kind == "choose row" and labels(e) == ["1"]
    play(e, "1")
    assert e.decision.kind == "bid" and e.decision.player == 0
    play(e, "out")                                              # the human stays out: DT bids half
    dt_bid = [ev for ev in e.events if ev.get("event") == "automa"][-1]
    assert dt_bid["kind"] == "bid"
    # DT won row 1, never activated (its policies), and chose the empty row 2 and itself to open
    moves = automa_moves(e)
    assert moves[-3:] == ["2", "1", moves[-1]]
    assert e.decision.kind == "bid" and e.decision.player == 0   # DT opened row 2 with its half
    coins = me(e, DT)["coins"]
    half = (coins + 1) // 2
    assert labels(e) == ["out"] + [str(b) for b in range(half + 1, me(e)["coins"] + 1)]


def test_rulebook_s4_after_buying_all_three():
    e = to_auctions(buy=3)
    assert labels(e) == ["3", "4"]
    play(e, "3", "4")
    assert formula(e, "lot_choices()") == [1, 2]                # two empty rows are auctioned
    assert e.decision.kind == "choose row" and labels(e) == ["1", "2"]


# ---------------------------------------------------------------------------- D14 (T-NE-15)
def d14(dt_coins, rounding="up"):
    """The card row chosen, DT the opener with dt_coins, the human with 10 coins."""
    e = to_auctions(buy=0, dt_bid_rounding=rounding)
    e.state["counters"]["nautilus"] = DT                        # DT chooses the row and opens
    me(e, DT)["coins"], me(e)["coins"] = dt_coins, 10
    play(e, "3", "4")                                           # block rows 3 and 4
    assert automa_moves(e)[-2:] == ["1", str((dt_coins + (1 if rounding == "up" else 0)) // 2)
                                    if dt_coins else "out"]
    assert e.decision.kind == "bid" and e.decision.player == 0
    return e


@pytest.mark.parametrize("rounding, bid", [("up", 5), ("down", 4)])
def test_rulebook_d14(rounding, bid):
    e = d14(9, rounding)
    assert labels(e) == ["out"] + [str(b) for b in range(bid + 1, 11)]
    row1 = list(zone(e, "lot[1]"))
    play(e, str(bid + 1))                                       # one more: DT's policy says out
    assert automa_moves(e)[-1] == "out"
    assert me(e)["coins"] == 10 - (bid + 1)
    assert all(where(e, x).endswith("@0") for x in row1)        # the human built the row
    assert asked(e, DT) == []


def d14_human_opens(dt_coins=10):
    """The card row chosen by the human, who opens; DT with dt_coins, the human with 10 coins."""
    e = to_auctions(buy=0)
    e.state["counters"]["nautilus"] = 0                         # the human chooses the row and opens
    me(e, DT)["coins"], me(e)["coins"] = dt_coins, 10
    play(e, "3", "4", "1")                                      # block rows 3 and 4, choose row 1
    assert e.decision.kind == "bid" and e.decision.player == 0
    assert labels(e) == ["out"] + [str(b) for b in range(1, 11)]
    return e


def test_rulebook_d14_human_opens_at_half():
    """FR l.526: DT always offers half its coins; you win only by offering one coin more. Opening
    at exactly its half (5 of 10) does not beat it: DT holds at 5, and 6 wins."""
    e = d14_human_opens()
    play(e, "5")
    assert automa_moves(e)[-1] == "5"                           # DT's half holds against your 5
    assert e.decision.kind == "bid" and e.decision.player == 0
    assert labels(e) == ["out"] + [str(b) for b in range(6, 11)]
    row1 = list(zone(e, "lot[1]"))
    play(e, "6")
    assert automa_moves(e)[-1] == "out"
    assert me(e)["coins"] == 4 and me(e, DT)["coins"] == 10
    assert all(where(e, x).endswith("@0") for x in row1)


def test_rulebook_d14_dt_takes_the_row_at_its_half():
    e = d14_human_opens()
    row1 = list(zone(e, "lot[1]"))
    play(e, "5", "out")                                         # you open at DT's half and stop
    assert me(e)["coins"] == 10 and me(e, DT)["coins"] == 5     # DT paid its half
    assert all(where(e, x).endswith(f"@{DT}") for x in row1)


def test_rulebook_d14_human_opening_below_half_is_raised_to_half():
    e = d14_human_opens()
    play(e, "3")
    assert automa_moves(e)[-1] == "5"
    assert labels(e) == ["out"] + [str(b) for b in range(6, 11)]


def test_rulebook_d14_dt_without_coins_stays_out():
    e = d14(0)
    assert labels(e) == ["out"] + [str(b) for b in range(1, 11)]
    play(e, "1")
    assert me(e)["coins"] == 9


# ---------------------------------------------------------------------------- readings (README)
@pytest.mark.parametrize("reading, crab_points", [("activated", 6), ("none", 0)])
def test_dt_crabs_it_activated_are_complete(reading, crab_points):
    """FR l.382: R5 gives 3 points per complete (activated) crab; DT activates all its modules
    without deeples (l.512): by default those crabs are complete (`dt_complete_crabs`)."""
    e = start(1, "solo", seed=0, dt_complete_crabs=reading)
    clear(e, "board_a")
    crabs = modules(e, 2)
    for x in crabs:
        put(e, plain(e, x, "crab", coins=0), f"station[crab]@{DT}")
    (r,) = modules(e, 1)
    put(e, plain(e, r, "research"), f"station[research]@{DT}")
    item(e, r)["research"] = "R5"
    refresh(e)
    play(e, "move_deeples start_oxygen#0.1")
    stay_home(e)
    end_turn(e)
    assert automa_moves(e)[-1] == "dt_activate_all"
    (late,) = modules(e, 1)                                     # a crab built after the activation
    put(e, plain(e, late, "crab"), f"station[crab]@{DT}")
    assert formula(e, "crab_points(you)", seat=DT) == crab_points


@pytest.mark.parametrize("reading, paid", [("bid", 5), ("free", 0)])
def test_dt_pays_its_bid(reading, paid):
    """FR l.229: the winner of an auction pays its bid; `dt_auction_price: free` reads DT's free
    Phase A card (l.512) into the auctions too."""
    e = to_auctions(buy=0, dt_auction_price=reading)
    e.state["counters"]["nautilus"] = 0
    me(e, DT)["coins"], me(e)["coins"] = 10, 10
    play(e, "3", "4", "1", "out")                               # you stay out: DT wins at its half
    assert me(e, DT)["coins"] == 10 - paid


@pytest.mark.parametrize("reading, damage", [("none", 0), ("market_only", 5)])
def test_dt_gift_damage(reading, damage):
    """FR l.522: DT builds the cards given to it « et ne subit aucun dégât »: by default not even
    R7a's +5 (`dt_gift_damage: market_only` waives only the black market's damage)."""
    e = to_black_market("solo-hard", dt_gift=1, dt_gift_damage=reading)
    (gift, *_) = zone(e, f"offer@{DT}")
    plain(e, gift, "research")
    item(e, gift)["research"] = "R7a"
    me(e, DT)["damage"] = 0
    play(e, "[]")
    assert where(e, gift) == f"station[research]@{DT}"
    assert me(e, DT)["damage"] == damage


def test_harder_mode_gives_three_cards_by_default():
    """FR l.522: « une, deux ou même trois cartes »: the harder mode's default is the hardest."""
    e = to_black_market("solo-hard")
    dts = list(zone(e, f"offer@{DT}"))
    for x in dts:
        plain(e, x, "shell")
    play(e, "[]")
    assert zone(e, f"station[shell]@{DT}")[-3:] == dts


@pytest.mark.parametrize("bids, first", [(True, None), (False, 1)])
def test_dt_on_the_empty_row(bids, first):
    """FR l.526 « toujours »: DT bids its half on the empty row too (`dt_bids_on_empty_row`);
    with `false` it stays out there, and your lowest bid is 1."""
    e = to_auctions(buy=0, dt_bids_on_empty_row=bids)
    e.state["counters"]["nautilus"] = 0
    play(e, "3", "4", "1", "out")                               # DT wins the card row at its half
    assert e.decision.kind == "bid" and e.decision.player == 0  # DT picked the empty row, opened
    lowest = int(labels(e)[1])
    assert lowest == (first if first is not None else (me(e, DT)["coins"] + 1) // 2 + 1)


def test_dt_starts_with_one_deeple_like_you():
    """FR l.33 (set up « comme pour la variante à deux joueurs », l.506): one deeple each; DT's
    Shipyard extension, built from the start (l.506), brings it three more (l.442)."""
    e = start(1, "solo", seed=0)
    assert len(zone(e, f"crew@{DT}")) == 1 + 3 and len(zone(e, "crew@0")) == 1


def test_dt_designated_to_open_the_empty_row_it_stays_out_of_offers_0():
    """FR l.253: the winner names who makes the first offer on the next row; with `designated_opener:
    must_bid` that opener must offer, 0 included (l.226 « Il est possible de commencer à 0 pièce »).
    DT names itself; where it stays out (`dt_bids_on_empty_row: false`) it offers 0, the least
    offer, and takes the empty row at 0 if you do not outbid it."""
    e = to_auctions(buy=0, dt_bids_on_empty_row=False, designated_opener="must_bid")
    e.state["counters"]["nautilus"] = 0
    play(e, "3", "4", "1", "out")                               # DT wins the card row at its half
    assert automa_moves(e)[-1] == "0"                           # and opens the empty row at 0
    assert e.decision.kind == "bid" and labels(e)[:2] == ["out", "1"]
    play(e, "out")
    won = [ev for ev in e.events if ev.get("event") == "auction"][-1]
    assert (won["winner"], won["price"]) == (DT, 0)
