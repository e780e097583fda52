"""Otys: the clauses of the language targets a review found no test protecting, each played
through the rules of the bundled game to the situation, then its outcome asserted."""
from __future__ import annotations

from .helpers import (empty_out, labels, me, place_diver, play, put, refresh, roles,
                      run_rule, sponsor_at, start, zone)


def test_T_OT_03_neutral_x_keys_go_to_the_supply():
    """FR l.237: the key that meets the Hacker is a neutral X key taken earlier (the Metals
    expert's module, FR l.424); « récupérez automatiquement tous vos jetons à l'exception des
    éventuels jetons Clé X neutres, que vous devez remettre dans la réserve »: the player's own
    six keys come back, the neutral one goes to the supply, by its kind."""
    e = start()
    run_rule(e, "take_neutral_x", 0)                   # the Metals expert's module, as its rule
    neutral = [k for k in zone(e, "keys@0") if k.startswith("neutral_x")]
    assert len(neutral) == 1 and len(zone(e, "neutral_supply")) == 11
    for k in ["key#0.2", "key#0.3", "key#0.4", "key#0.5", "own_x#0.1"]:
        put(e, k, "key_row@0")                         # five keys played earlier
    refresh(e)
    play(e, f"take_turn {neutral[0]}", "1")            # the 6th key placed: it meets the Hacker
    while e.decision is not None and e.decision.player == 0:
        play(e, next(x for x in ["skip", "0", "surface", "end turn"] if x in labels(e)))
    assert zone(e, "key_row@0") == []
    assert sorted(zone(e, "keys@0")) == ["key#0.1", "key#0.2", "key#0.3", "key#0.4", "key#0.5",
                                         "own_x#0.1"]
    assert neutral[0] in zone(e, "neutral_supply") and len(zone(e, "neutral_supply")) == 12


def test_T_OT_06_a_copied_spy_does_not_copy_again():
    """FR l.483-485: seat 0's Spy at L1 copies seat 1's Spy at L1; the copied Spy can only draw
    contracts (draw 4, keep 1, FR l.481), never copy a neighbour in turn, and its own credit is
    paid as well as the copier's (FR l.485)."""
    e = start(3)                                       # two neighbours a second copy could reach
    place_diver(e, "spy", 1, seat=0)
    place_diver(e, "spy", 1, seat=1)
    empty_out(e, "public")
    sponsor_at(e, 3, 1)
    refresh(e)
    play(e, "take_turn key#0.1", "1", "0", "0")
    play(e, next(x for x in labels(e) if x != "skip"))   # the Spy acts
    assert labels(e) == ["spy_contracts", "spy_copy 1", "spy_copy 2"]
    deck = zone(e, "deck")[:4]
    play(e, "spy_copy 1")
    assert sorted(labels(e)) == sorted(deck)           # the copied Spy draws: no copy offered
    play(e, deck[2])
    assert zone(e, "hand@0") == [deck[2]] and zone(e, "hand@1") == []
    assert me(e, 0)["credits"] == 3 - 1 - 1 and me(e, 1)["credits"] == 3
    theirs = zone(e, "queue@1")[:]
    play(e, "surface")
    assert roles(e, 0)[0] == "spy" and zone(e, "queue@1") == theirs   # theirs does not surface
