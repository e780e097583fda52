"""The rulebook's numbers that no worked example shows at work, each pinned by a position played
through the rules: the 18-point end and its tie-break, the Store's top row, the public contract
slots, the Spy's "draw 4, keep 1", the 12 neutral X keys. Each test fails when its number
changes (benchmarks/mutation.py finds none of them surviving)."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError

from .helpers import (cubes, dive_with_key, diver, empty_out, item, labels, me, place_diver, play,
                      put, refresh, start, types, use, with_module, zone)


def quiet_turn(e, seat: int) -> None:
    """Seat `seat` plays key 1 and declines everything (no Sponsor, no thruster, no diver's
    action), so the turn changes no score and no cube."""
    play(e, f"take_turn key#{seat}.1")
    while e.decision is not None and e.decision.player == seat:
        ls = labels(e)
        play(e, next((x for x in ["skip", "0", "surface", "end turn"] if x in ls), ls[0]))


def contract_for_one_metal(e, points: int) -> str:
    """The only public contract: 1 metal for `points`; seat 0 has 1 metal in zone 3, nothing
    else in her dig zones."""
    empty_out(e, "public")
    c = zone(e, "deck")[0]
    item(e, c).update(needs=["metal"], groups=[], points=points, credit=0, battery=0)
    put(e, c, "public")
    for seat in range(e.n):
        for level in range(1, 6):
            empty_out(e, f"dig[{level}]@{seat}")
    cubes(e, "dig[3]@0", "metal")
    return c


def complete_then_finish_the_round(e, c) -> None:
    refresh(e)
    play(e, "complete_contract 3", c)
    play(e, labels(e)[0])                                # the metal
    for seat in range(e.n):
        quiet_turn(e, seat)


@pytest.mark.parametrize("before, points, ends", [(16, 2, True), (16, 1, False), (15, 5, True)])
def test_the_round_ends_once_a_player_reaches_18(before, points, ends):
    """FR l.347: « Dès qu'un joueur atteint ou dépasse 18 points de notoriété [...], terminez le
    tour de table en cours »: 18 or more ends the game at the end of the round, 17 does not."""
    e = start(2)
    c = contract_for_one_metal(e, points)
    me(e)["notoriety"] = before
    complete_then_finish_the_round(e, c)
    assert me(e)["notoriety"] == before + points
    assert (e.decision is None) == ends
    if ends:
        assert e.result["scores"] == [before + points, 0] and e.result["winners"] == [0]
    else:
        assert e.decision.player == 0                    # a new round begins


@pytest.mark.parametrize("extra0, extra1, winners", [(2, 0, [0]), (0, 2, [1]), (1, 1, [0, 1])])
def test_a_tie_goes_to_the_most_resources_in_the_dig_zones(extra0, extra1, winners):
    """FR l.349: « En cas d'égalité, le joueur qui possède le plus de ressources dans ses zones
    de fouille l'emporte. » Both players end on 18; an equal count is a shared win."""
    e = start(2)
    c = contract_for_one_metal(e, 2)
    me(e, 0)["notoriety"], me(e, 1)["notoriety"] = 16, 18
    cubes(e, "dig[5]@0", *["plant"] * extra0)
    cubes(e, "dig[5]@1", *["fuel"] * extra1)
    complete_then_finish_the_round(e, c)
    assert e.result["scores"] == [18, 18]
    assert e.result["tie_breaks"] == [[extra0], [extra1]]
    assert e.result["winners"] == winners


def trader_sells_a_technology(module: bool):
    """FR l.469: a Trader at L5 with 1 technology, the technology column of the Store empty."""
    e = start()
    trader = place_diver(e, "trader", 5)
    if module:
        with_module(e, trader)
    empty_out(e, "store[technology]")
    empty_out(e, "dig[5]@0")
    tech, = cubes(e, "dig[5]@0", "technology")
    dive_with_key(e, 5)
    play(e, "sell", tech)
    return e


@pytest.mark.parametrize("gain, credits, notoriety", [("credits", 3 + 3, 0), ("notoriety", 3, 1)])
def test_the_store_top_row_pays_3_credits_or_1_notoriety(gain, credits, notoriety):
    """FR l.469: « Si elle avait possédé 1 technologie au niveau 5, elle aurait alors pu la vendre
    pour 3 crédits ou 1 point de notoriété » (the top row, FR l.453)."""
    e = trader_sells_a_technology(module=False)
    assert labels(e) == ["credits", "notoriety"]
    play(e, gain)
    assert (me(e)["credits"], me(e)["notoriety"]) == (credits, notoriety)
    assert types(e, "store[technology]") == ["technology"]


def test_the_trader_module_adds_1_to_the_top_row():
    """FR l.459-463: with its module the Trader gains 1 more, credits or notoriety."""
    e = trader_sells_a_technology(module=True)
    play(e, "notoriety")
    assert me(e)["notoriety"] == 1 + 1


@pytest.mark.parametrize("players, slots", [(2, 2), (3, 3), (4, 3)])
def test_public_contract_slots(players, slots):
    """FR l.202: one contract in each public slot (3 on the Colony board); « à 2 joueurs, laissez
    toujours un emplacement de contrat public vide ». Completing one refills the slot."""
    e = start(players)
    assert len(zone(e, "public")) == slots
    c = zone(e, "public")[0]
    item(e, c).update(needs=["metal"], groups=[], points=1, credit=0, battery=0)
    for level in range(1, 6):
        empty_out(e, f"dig[{level}]@0")
    cubes(e, "dig[3]@0", "metal")
    refresh(e)
    play(e, "complete_contract 3", c)
    play(e, labels(e)[0])                                # the metal
    assert len(zone(e, "public")) == slots and c not in zone(e, "public")


def test_the_spy_draws_4_contracts_keeps_1_and_puts_3_under_the_deck():
    """FR l.481: « payer 1 crédit à la réserve puis piocher 4 cartes Contrat. Choisissez une carte
    parmi celles piochées [...] et remettez sous la pioche les autres cartes »."""
    e = start()
    place_diver(e, "spy", 2)
    deck = zone(e, "deck")[:]
    dive_with_key(e, 2)
    play(e, "spy_contracts")
    assert sorted(labels(e)) == sorted(deck[:4])         # the top 4, to choose 1 from
    play(e, deck[2])
    assert zone(e, "hand@0") == [deck[2]] and me(e)["credits"] == 3 - 1
    assert zone(e, "deck")[:len(deck) - 4] == deck[4:]
    assert sorted(zone(e, "deck")[len(deck) - 4:]) == sorted([deck[0], deck[1], deck[3]])


def test_twelve_neutral_x_keys_then_none_to_take():
    """FR l.100: « 16 jetons Clé X dont 4 à la couleur des joueurs »: 12 neutral ones, in a pile
    beside the Colony board (FR l.203). The Metals expert with its module takes one (FR l.436);
    once all 12 are taken, its bonus is not offered (the reading of FR l.436 in README.md)."""
    e = start(4)
    assert len(zone(e, "neutral_supply")) == 12
    metals = place_diver(e, "metals", 1)
    with_module(e, metals)
    empty_out(e, "dig[1]@0")
    for x in zone(e, "neutral_supply")[:11]:
        put(e, x, "keys@1")
    dive_with_key(e, 1)
    play(e, "find")
    assert "take_neutral_x" in labels(e)                 # the 12th is still there
    play(e, "take_neutral_x")
    assert zone(e, "neutral_supply") == [] and diver(e, "metals") == metals


@pytest.mark.parametrize("level, capacity", [(1, 3), (2, 3), (3, 4), (4, 5), (5, 6)])
def test_the_dig_zones_hold_3_3_4_5_6_cubes(level, capacity):
    """FR l.303: « trois emplacements pour les zones 1 et 2, quatre pour la zone 3, cinq pour la
    zone 4 et six pour la zone 5 »; the Trader cannot buy into a full zone (FR l.455)."""
    for held, offered in [(capacity - 1, ["sell", "buy"]), (capacity, None)]:
        e = start()
        place_diver(e, "trader", level)
        empty_out(e, f"dig[{level}]@0")
        mine = cubes(e, f"dig[{level}]@0", *["metal"] * held)
        refresh(e)
        play(e, f"take_turn key#0.{level}", str(level), "0")
        if "skip" in labels(e):
            play(e, "skip")
        play(e, "0")
        use(e)
        if offered:
            assert labels(e) == offered
        else:                                            # only the sale is left: it asks which cube
            assert labels(e) == mine


@pytest.mark.parametrize("module", [False, True])
@pytest.mark.parametrize("row, column", [(3, 2), (4, 3)])
def test_the_lower_store_rows_pay_1_credit_and_no_notoriety(row, column, module):
    """FR l.453: only the top row gives notoriety; a fuel sold into row 3 gives 1 credit (FR
    l.467); row 4 is read as row 3 (its values are lost with the board's picture). With its
    module the Trader gains 1 more, and every row may give notoriety (FR l.463)."""
    e = start()
    trader = place_diver(e, "trader", 5)
    if module:
        with_module(e, trader)
    empty_out(e, "store[fuel]")
    cubes(e, "store[fuel]", *["fuel"] * column)
    empty_out(e, "dig[5]@0")
    fuel, = cubes(e, "dig[5]@0", "fuel")
    dive_with_key(e, 5)
    play(e, "sell", fuel)
    assert labels(e) == (["credits", "notoriety"] if module else ["credits"])
    play(e, "notoriety" if module else "credits")
    assert (me(e)["credits"], me(e)["notoriety"]) == ((3, 1) if module else (3 + 1, 0))
    assert len(zone(e, "store[fuel]")) == row


def engineer_turn(e):
    place_diver(e, "engineer", 1)
    dive_with_key(e, 1)


@pytest.mark.parametrize("tech, other", [("mechanic", "hacker"), ("hacker", "mechanic")])
def test_a_technician_is_upgraded_at_most_3_times(tech, other):
    """FR l.507: each technician tile moves at most 3 times; with one at 3 the Engineer can only
    upgrade the other (no question asked)."""
    e = start()
    me(e)[tech] = 2
    engineer_turn(e)
    assert labels(e) == ["upgrade_mechanic", "upgrade_hacker"]
    play(e, f"upgrade_{tech}")
    assert me(e)[tech] == 3
    e = start()
    me(e)[tech] = 3
    engineer_turn(e)
    assert (me(e)[tech], me(e)[other], me(e)["credits"]) == (3, 1, 3 - 1)


@pytest.mark.parametrize("start_level, reach", [(1, ["2", "3", "4", "5"]), (2, ["1", "3", "4", "5"])])
def test_after_a_3rd_upgrade_the_mechanic_moves_a_diver_4_levels(start_level, reach):
    """The reading of FR l.501 (option capacity_after_third, default 4): from level 1 a diver
    reaches level 5, and never below level 5, the deepest (FR l.303: 5 dig zones)."""
    e = start()
    metals = place_diver(e, "metals", start_level)
    me(e)["mechanic"], me(e)["batteries"] = 3, 1
    refresh(e)
    play(e, "take_turn key#0.3", "3", "0")
    if "skip" in labels(e):
        play(e, "skip")
    play(e, "1", metals)
    assert labels(e) == reach


def test_an_x_key_may_be_played_at_any_level_1_to_5():
    """FR l.261: « vous pouvez jouer un jeton Clé X à un niveau, que vous ayez encore ou non le
    jeton Clé de ce niveau »; a numbered key only at its own level."""
    e = start()
    play(e, "take_turn own_x#0.1")
    assert labels(e) == ["1", "2", "3", "4", "5"]
    e = start()
    play(e, "take_turn key#0.3")
    assert labels(e) == ["3"]


def test_the_hacker_sends_the_neutral_x_keys_back_to_the_supply():
    """FR l.237: the key meets the Hacker: « récupérez automatiquement tous vos jetons à
    l'exception des éventuels jetons Clé X neutres, que vous devez remettre dans la réserve »."""
    e = start()
    for k in ["key#0.2", "key#0.3", "key#0.4", "neutral_x#1", "own_x#0.1"]:
        put(e, k, "key_row@0")
    assert len(zone(e, "neutral_supply")) == 11
    refresh(e)
    quiet_turn(e, 0)                                     # key 1, the 6th: it meets the Hacker
    assert zone(e, "key_row@0") == []
    assert sorted(zone(e, "keys@0")) == ["key#0.1", "key#0.2", "key#0.3", "key#0.4", "key#0.5",
                                         "own_x#0.1"]
    assert "neutral_x#1" in zone(e, "neutral_supply") and len(zone(e, "neutral_supply")) == 12


@pytest.mark.parametrize("t, column, price", [("metal", 1, 3 - 1), ("fuel", 3, 1 - 1)])
def test_the_trader_module_buys_for_1_credit_less(t, column, price):
    """Player aid FR l.744: with its module the Trader pays « 1 crédit de moins lorsque vous
    achetez une ressource »: a metal of row 1 (3 credits, FR l.469) for 2; a fuel of row 3
    (1 credit, FR l.467) for nothing, never below 0."""
    e = start()
    with_module(e, place_diver(e, "trader", 5))
    empty_out(e, f"store[{t}]")
    cubes(e, f"store[{t}]", *[t] * column)
    empty_out(e, "dig[5]@0")
    dive_with_key(e, 5)                                  # nothing to sell: it buys
    play(e, t)
    assert me(e)["credits"] == 3 - price and types(e, "dig[5]@0") == [t]
    assert len(zone(e, f"store[{t}]")) == column - 1


@pytest.mark.parametrize("credit, battery", [(0, 1), (1, 1), (1, 0)])
def test_a_contract_one_time_bonus_of_1_credit_and_or_1_battery(credit, battery):
    """FR l.331: « prendre à la réserve : 1 crédit, 1 batterie ou 1 crédit et 1 batterie »."""
    e = start()
    c = contract_for_one_metal(e, 2)
    item(e, c).update(credit=credit, battery=battery)
    refresh(e)
    play(e, "complete_contract 3", c)
    play(e, labels(e)[0])                                # the metal
    assert (me(e)["notoriety"], me(e)["credits"], me(e)["batteries"]) == (2, 3 + credit, 1 + battery)


def scout_takes(e, front: str, back: str = "credits") -> str:
    """The Scout at L4 takes the first Reward token of level 4, shown with this front."""
    a = zone(e, "reward_display[4]")[0]
    item(e, a).update(front=front, colours=[], back=back)
    dive_with_key(e, 4)
    play(e, a)
    return a


def test_the_scout_pays_2_credits_and_1_with_its_module():
    """FR l.520: « en payant 2 crédits à la réserve »; FR l.529 with its module « vous ne devez
    plus payer que 1 crédit »."""
    for module, fee in [(False, 2), (True, 1)]:
        e = start()
        scout = place_diver(e, "scout", 4)
        if module:
            with_module(e, scout)
        a = scout_takes(e, "battery")
        assert me(e)["credits"] == 3 - fee and zone(e, "reward_slot[4]@0") == [a]


@pytest.mark.parametrize("front, notoriety, batteries", [("notoriety", 1, 1), ("battery", 0, 1 + 1)])
def test_a_reward_gives_1_notoriety_or_1_battery_at_once(front, notoriety, batteries):
    """FR l.551 « Recevez 1 jeton Batterie », l.563 « Gagnez 1 point de notoriété »: the token's
    immediate bonus, taken by the Scout."""
    e = start()
    place_diver(e, "scout", 4)
    scout_takes(e, front)
    assert (me(e)["notoriety"], me(e)["batteries"]) == (notoriety, batteries)


def test_a_permanent_reward_gives_1_notoriety_per_contract_at_its_depth():
    """FR l.575: the back « Gagnez 1 point de notoriété », each contract completed at the level
    of the token (FR l.567)."""
    e = start()
    place_diver(e, "scout", 4)
    c = contract_for_one_metal(e, 2)
    scout_takes(e, "battery", back="notoriety")
    play(e, "surface")
    put(e, zone(e, "dig[3]@0")[0], "dig[4]@0")           # the contract's metal, at the token's depth
    refresh(e)
    play(e, "complete_contract 4", c)
    play(e, labels(e)[0])
    play(e, "gain 1 notoriety")
    assert me(e)["notoriety"] == 2 + 1


def test_the_spy_pays_1_credit_and_nothing_with_its_module():
    """FR l.481 « vous devez payer 1 crédit à la réserve puis piocher 4 cartes Contrat »; FR l.491
    with its module « Vous ne devez plus payer 1 crédit »."""
    for module, fee in [(False, 1), (True, 0)]:
        e = start()
        spy = place_diver(e, "spy", 2)
        if module:
            with_module(e, spy)
        dive_with_key(e, 2)
        play(e, "spy_contracts", zone(e, "deck")[0])
        assert me(e)["credits"] == 3 - fee and len(zone(e, "hand@0")) == 1


def test_the_engineer_pays_1_credit_and_nothing_with_its_module():
    """FR l.499 « en payant 1 crédit à la réserve »; FR l.512 with its module « Vous ne devez
    plus payer 1 crédit »."""
    for module, fee in [(False, 1), (True, 0)]:
        e = start()
        engineer = place_diver(e, "engineer", 1)
        if module:
            with_module(e, engineer)
        dive_with_key(e, 1)
        play(e, "upgrade_hacker")
        assert me(e)["credits"] == 3 - fee and me(e)["hacker"] == 1


@pytest.mark.parametrize("players, plays", [(1, False), (2, True), (4, True), (5, False)])
def test_2_to_4_players(players, plays):
    """FR l.100: « 16 jetons Clé X dont 4 à la couleur des joueurs »: a colour for each of at most
    4 players; at least 2 (alone, the solo game of FR l.596 is its own variant)."""
    if plays:
        assert len(start(players).state["players"]) == players
    else:
        with pytest.raises(UsageError, match="otys is for 2-4 players"):
            start(players)


def test_the_store_starts_with_2_cubes_of_one_type_and_1_of_two_others():
    """FR l.201: « Prenez 2 ressources d'un même type et 2 autres ressources distinctes »: over
    some seeds each type is sometimes the doubled one and sometimes the one left out (the
    reading « drawn at random »)."""
    doubled, missing = set(), set()
    kinds = ["metal", "plant", "fuel", "technology"]
    for seed in range(24):
        e = start(2, seed=seed)
        counts = {t: len(zone(e, f"store[{t}]")) for t in kinds}
        assert sorted(counts.values()) == [0, 1, 1, 2]
        doubled |= {t for t, n in counts.items() if n == 2}
        missing |= {t for t, n in counts.items() if n == 0}
    assert doubled == missing == set(kinds)


def test_each_player_starts_with_a_cube_of_each_type_in_zones_2_to_5():
    """FR l.182: « Prenez 1 ressource de chaque type, puis placez-en une aléatoirement sur
    chacune de vos zones de fouille, à l'exception de la zone 1 »; FR l.188: 3 credits and 1
    battery. Over some seeds each type starts in each of the four zones."""
    seen = set()
    for seed in range(12):
        e = start(4, seed=seed)
        for p in range(4):
            assert zone(e, f"dig[1]@{p}") == []
            assert [len(zone(e, f"dig[{l}]@{p}")) for l in range(2, 6)] == [1, 1, 1, 1]
            assert sorted(types(e, f"dig[{l}]@{p}")[0] for l in range(2, 6)) == [
                "fuel", "metal", "plant", "technology"]
            assert (me(e, p)["credits"], me(e, p)["batteries"]) == (3, 1)
            seen |= {(l, types(e, f"dig[{l}]@{p}")[0]) for l in range(2, 6)}
    assert len(seen) == 4 * 4


@pytest.mark.parametrize("left, offered", [(4, True), (3, False)])
def test_the_spy_draws_only_from_a_deck_of_4_cards_or_more(left, offered):
    """FR l.481: « piocher 4 cartes Contrat »: with 4 cards left in the deck the Spy draws them
    all; with 3 the draw cannot be made (the rulebook does not say: the reading of the README)."""
    e = start()
    place_diver(e, "spy", 2)
    for c in zone(e, "deck")[left:]:
        put(e, c, "contract_discard")
    deck = zone(e, "deck")[:]
    dive_with_key(e, 2)
    if offered:
        assert labels(e) == ["spy_contracts", "spy_copy 1"]
        play(e, "spy_contracts", deck[0])
        assert zone(e, "hand@0") == [deck[0]] and sorted(zone(e, "deck")) == sorted(deck[1:])
    else:                                                # only the copy is left: it is under way
        assert "spy_contracts" not in labels(e) and zone(e, "deck") == deck


def test_a_contracts_reward_with_3_cards_left_draws_nothing():
    """FR l.555 « Piochez 4 cartes Contrat »: with 3 cards left the token is taken and its bonus
    does nothing (the reading of the README: a Reward that cannot act)."""
    e = start()
    place_diver(e, "scout", 4)
    for c in zone(e, "deck")[3:]:
        put(e, c, "contract_discard")
    deck = zone(e, "deck")[:]
    a = scout_takes(e, "contracts")
    assert zone(e, "reward_slot[4]@0") == [a] and zone(e, "deck") == deck
    assert zone(e, "hand@0") == [] and me(e)["credits"] == 3 - 2
