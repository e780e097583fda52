"""Terms: every bundled game speaks English and French; the checker warns, at the right line,
about a term missing a language and about a name the rules show without a term; a variant adds
terms under `add:`."""
from __future__ import annotations

import textwrap

import pytest

from meeplang.dsl.resolve import load_game
from tests.language.helpers import make_game

GAME = """\
game: g
players: 2
terms:
  coins: {en: Coins, fr: Pièces, fr_grammar: f pl}
  take: {en: Take}
counters:
  coins: {per: player, initial: 0}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}
actions:
  take:
    effect: gain 1 coins
scoring:
  score: coins
"""


def _warnings(game) -> list[str]:
    return [f"{w.pos.line}:{w.pos.col}: {w.message}" for w in game.warnings]


def test_a_term_missing_a_language_and_a_name_without_a_term_are_warned_where_they_are(tmp_path):
    warnings = _warnings(make_game(tmp_path, GAME))
    assert "5:3: term 'take' has no fr text (the game's terms are in en, fr)" in warnings
    assert any(w.startswith("9:5: phase 'play' has no term (en, fr)") for w in warnings)
    assert len(warnings) == 2


def test_a_complete_term_table_has_no_warning(tmp_path):
    text = GAME.replace("take: {en: Take}", "take: {en: Take, fr: Prendre}\n  play: {en: Play, "
                        "fr: Partie, fr_grammar: f}")
    assert _warnings(make_game(tmp_path, text)) == []


def test_a_game_without_terms_is_not_asked_for_them(tmp_path):
    text = GAME.replace("  coins: {en: Coins, fr: Pièces, fr_grammar: f pl}\n  take: {en: Take}\n",
                        "").replace("terms:\n", "")
    assert _warnings(make_game(tmp_path, text)) == []


def test_a_variant_adds_terms_for_what_it_adds(tmp_path):
    text = GAME.replace("take: {en: Take}", "take: {en: Take, fr: Prendre}\n  play: {en: Play, "
                        "fr: Partie, fr_grammar: f}")
    folder = tmp_path / "g"
    make_game(tmp_path, text)
    variant = textwrap.dedent("""\
        variant: v
        extends: g
        add:
          counters:
            gems: {per: player, initial: 0}
          terms:
            gems: {en: Gems, fr: Gemmes, fr_grammar: f pl}
        actions:
          take:
            effect: |
              gain 1 coins
              gain 1 gems
        """)
    (folder / "v.yaml").write_text(variant, encoding="utf-8")
    game = load_game(str(folder / "v.yaml"))
    assert _warnings(game) == []
    assert game.term("gems", "fr") == "Gemmes"
    without = variant.replace("  terms:\n    gems: {en: Gems, fr: Gemmes, fr_grammar: f pl}\n",
                              "")
    assert without != variant
    (folder / "v.yaml").write_text(without, encoding="utf-8")
    assert [w.split(": ", 1)[1][:30] for w in _warnings(load_game(str(folder / "v.yaml")))] == [
        "counter 'gems' has no term (en"]


@pytest.mark.parametrize("name", ["new-eden", "new-eden:solo", "new-eden:solo-hard", "pig",
                                  "pig:short", "goofspiel", "goofspiel:descending"])
def test_every_bundled_game_has_all_its_terms_in_english_and_french(name):
    game_name, _, variant = name.partition(":")
    game = load_game(game_name, variant or None)
    assert _warnings(game) == []
    assert all(entry.get("en") and entry.get("fr") for entry in game.terms.values())
