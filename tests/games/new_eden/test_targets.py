"""New Eden: the clauses of the language targets a review found no test protecting, each played
through the rules of the bundled game to the situation, then its outcome asserted."""
from __future__ import annotations

from .helpers import cell, end_turn, item, labels, me, play, put, refresh, start, zone


def on_the_board(e, card_id: str, at: tuple) -> str:
    """The module card `card_id` of the game's data, laid on the market's cell `at` in place of
    the card there (the Given): a real card, bought and built by the rules."""
    x = next(m for m, it in e.state["items"].items() if it.get("id") == card_id)
    old = next((y for y in zone(e, "board_a") if cell(e, y) == at), None)
    if old is not None:
        put(e, old, "box")
    put(e, x, "board_a", at=at)
    return x


def others_pass(e) -> None:
    """The other seats pass until seat 0's turn comes back."""
    while e.decision.player != 0:
        play(e, "pass_development")


def test_T_NE_05_oxygen_activates_only_when_all_worksites_are_filled():
    """FR l.145-152: seat 0 builds 1A-04 (a shell house with 2 worksites, 4 points) and 1A-10 (a
    shipyard: one more deeple); a 2-bottle oxygen card brings one deeple there: one worksite of
    two is filled, nothing to activate; a second card brings the other: the module activates,
    both deeples stand, 4 points."""
    e = start(4)
    shell = on_the_board(e, "1A-04", (4, 1))
    yard = on_the_board(e, "1A-10", (4, 2))
    refresh(e)
    play(e, f"buy_card {shell}")
    end_turn(e)
    others_pass(e)
    play(e, f"buy_card {yard}")
    end_turn(e)
    d1, d2 = zone(e, "crew@0")
    assert zone(e, "station[shell]@0") == [shell] and item(e, shell)["worksites"] == 2
    points = me(e)["points"]
    play(e, "move_deeples start_oxygen#0.1", d1, shell)      # bottle of 2 (sample): one deeple
    assert item(e, d1)["site"] == shell and not item(e, d1)["standing"]
    assert not any(x.startswith("activate") for x in labels(e)) and me(e)["points"] == points
    end_turn(e)
    play(e, "move_deeples start_oxygen#0.2", d2, shell, d1, shell)   # bottles 1 and 1: the second
    assert f"activate {shell}" in labels(e)
    play(e, f"activate {shell}")
    assert item(e, d1)["standing"] and item(e, d2)["standing"]
    assert me(e)["points"] == points + 4


def test_T_NE_12_a_research_extension_built_later_gives_nothing_for_earlier_cards():
    """FR l.458 and D12: seat 0 builds Research card 1A-13 (R1), then the Research extension (6
    coins), then Research card 1A-14 (R2): +3 points for 1A-14 only, nothing for 1A-13 when
    the extension is built nor after."""
    e = start(4)
    first = on_the_board(e, "1A-13", (4, 1))
    later = on_the_board(e, "1A-14", (4, 2))
    refresh(e)
    points = me(e)["points"]
    play(e, f"buy_card {first}")
    assert first in zone(e, "station[research]@0") and me(e)["points"] == points
    end_turn(e)
    others_pass(e)
    assert me(e)["coins"] >= 6
    tile = next(t for t in zone(e, "extension_tiles@0") if item(e, t)["name"] == "research")
    play(e, f"build_extension {tile}")
    assert me(e)["points"] == points                          # nothing for the card built before
    play(e, f"buy_card {later}")
    assert later in zone(e, "station[research]@0") and me(e)["points"] == points + 3
