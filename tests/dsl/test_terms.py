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


@pytest.mark.parametrize("name", [
    "new-eden", "new-eden:solo", "new-eden:solo-hard", "pig", "pig:short", "goofspiel",
    "goofspiel:descending", "otys", "otys:author", "otys:solo", "endeavor-deep-sea",
    "endeavor-deep-sea:coop", "endeavor-deep-sea:solo", "thesauros", "thesauros:introductory",
    "thesauros:lawless", "thesauros:solo"])
def test_every_bundled_game_has_all_its_terms_in_english_and_french(name):
    game_name, _, variant = name.partition(":")
    game = load_game(game_name, variant or None)
    assert _warnings(game) == []
    assert all(entry.get("en") and entry.get("fr") for entry in game.terms.values())


SHOP = """\
game: shop
players: 2
terms:
  coins: {en: Coins, fr: Pièces, fr_grammar: f pl}
  goods: {en: Goods, fr: Marchandises, fr_grammar: f pl}
  good: {en: Good, fr: Marchandise, fr_grammar: f}
  shelf: {en: Shelf, fr: Étagère, fr_grammar: f}
  buy: {en: Buy, fr: Acheter}
  play: {en: Play, fr: Partie, fr_grammar: f}
tables:
  goods: [{name: lamp, price: 4, tax: 1}, {name: boat, price: 9, tax: 2}]
counters:
  coins: {per: player, initial: 9}
zones:
  shelf: {}
items:
  good: {from: goods, zone: shelf}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [buy], per_turn: 1, until: one_round}
actions:
  buy:
    choose: g in shelf
    effect: |
      pay g.price from coins
scoring:
  score: coins + count([g for g in shelf if g.owner == you])
"""
FIELD_TERMS = """\
  price: {en: Price, fr: Prix}
  owner: {en: Owner, fr: Propriétaire}
"""


def test_a_field_the_rules_read_without_a_term_is_warned_where_it_is_first_read(tmp_path):
    warnings = _warnings(make_game(tmp_path, SHOP))
    assert warnings == [
        "26:13: field 'price' has no term (en, fr): explanations and diagrams show it as 'price'",
        "28:47: field 'owner' has no term (en, fr): explanations and diagrams show it as 'owner'"]


def test_a_field_with_its_term_is_not_warned_and_is_said_by_it(tmp_path):
    from meeplang.visualizer.prose.document import explain

    game = make_game(tmp_path, SHOP.replace("terms:\n", "terms:\n" + FIELD_TERMS))
    assert _warnings(game) == []
    # (`g` chosen on the shelf, where the goods are made: the good)
    assert "le prix de la marchandise" in explain(game, "fr")


def test_a_field_a_variant_reads_first_is_warned_in_the_variant(tmp_path):
    make_game(tmp_path, SHOP.replace("terms:\n", "terms:\n" + FIELD_TERMS), name="shop")
    variant = textwrap.dedent("""\
        variant: taxed
        extends: shop
        actions:
          buy:
            choose: g in shelf
            effect: |
              pay g.price + g.tax from coins
        """)
    path = tmp_path / "shop" / "taxed.yaml"
    path.write_text(variant, encoding="utf-8")
    assert [str(w) for w in load_game(str(path)).warnings] == [
        f"{path}:7:23: warning: field 'tax' has no term (en, fr): explanations and diagrams "
        "show it as 'tax'"]
    path.write_text(variant + "add:\n  terms:\n    tax: {en: Tax, fr: Taxe, fr_grammar: f}\n",
                    encoding="utf-8")
    assert load_game(str(path)).warnings == ()


def test_a_field_named_like_an_action_is_warned_until_it_has_a_term_of_its_own(tmp_path):
    # `g.buy` (how many a buyer takes) is not the action `buy`: said by the action's term, it
    # would read "the Buy of g"
    text = SHOP.replace("terms:\n", "terms:\n" + FIELD_TERMS).replace(
        "price: 4, tax: 1", "price: 4, tax: 1, buy: 1").replace(
        "price: 9, tax: 2", "price: 9, tax: 2, buy: 2").replace(
        "pay g.price from coins", "pay g.price * g.buy from coins")
    assert _warnings(make_game(tmp_path, text)) == [
        "28:23: field 'buy' has the name of action 'buy': explanations would say it by that "
        "action's term; give the field its own as `.buy`"]
    own = text.replace("terms:\n", "terms:\n  .buy: {en: Quantity bought, fr: Quantité achetée, "
                       "fr_grammar: f}\n")
    assert _warnings(make_game(tmp_path, own)) == []
