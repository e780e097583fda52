"""Text that reads as something it is not is a warning, and an error with `check --strict`:
bidirectional controls, words mixing Latin, Greek and Cyrillic letters, and keys that look the
same as another key beside them (dsl/lookalike.py)."""
from __future__ import annotations

import pytest

from meeplang.cli import main
from meeplang.dsl.lookalike import skeleton
from meeplang.dsl.resolve import load_game

BASE = """\
game: g
title: "{title}"
players: [2, 2]
terms:
  coins: {{en: "{term}"}}
counters:
  coins: {{per: player, initial: 0}}
  {other}: {{per: player, initial: 0}}
flow:
  - turns: {{first: 0, actions: [earn], per_turn: 1, until: one_round}}
actions:
  earn:
    effect: gain 1 coins
scoring: {{score: coins}}
"""


def game_text(title="Race", term="Coins", other="gold"):
    return BASE.format(title=title, term=term, other=other)


@pytest.mark.parametrize("title,message,where", [
    ("Race \u202egnirts", "holds the bidirectional control U+202E", "2:8"),
    ("Race \u2066x\u2069", "holds the bidirectional control U+2066", "2:8"),
    ("R\u0430ce", "'Rаce' mixes Cyrillic and Latin letters: it looks like 'Race' but is not",
     "2:8"),
])
def test_a_text_that_reads_as_another_is_a_warning(write_game, capsys, title, message, where):
    name = write_game(game_text(title=title))
    warnings = [str(w) for w in load_game(name).warnings]
    assert any(w.startswith(f"g/game.yaml:{where}: warning: ") and message in w
               for w in warnings), warnings
    assert main(["check", name]) == 0
    assert main(["check", "--strict", name]) == 1


@pytest.mark.parametrize("other", ["ｃｏｉｎｓ", "Coins", "с\u043eins"])
def test_a_key_that_looks_like_its_neighbour_is_a_warning(write_game, other):
    name = write_game(game_text(other=other))
    warnings = [str(w) for w in load_game(name).warnings]
    assert any(f"{other!r} looks like 'coins' beside it but is another name" in w
               and w.startswith("g/game.yaml:8:3: warning: ") for w in warnings), warnings


def test_ordinary_text_in_other_scripts_is_no_warning(write_game):
    name = write_game(game_text(title="Ἀθῆναι · Москва · Forêt d'été", term="Pièces"))
    assert not [w for w in load_game(name).warnings if "letters" in str(w) or "bidi" in str(w)]


def test_the_skeleton():
    assert skeleton("ｃｏｉｎｓ") == skeleton("Сoins") == skeleton("coins") == "coins"
    assert skeleton("coins") != skeleton("cions")
