"""Wording the issue found wrong in the explanations (#34): a zone's refill and recycle said with
an article and no agreement to guess, an automa's seats without "(s)", Thesauros's accounts by the
books' names rather than their keys, no English code in a French option text."""
from __future__ import annotations

import pytest

from meeplang.dsl.resolve import load_game
from meeplang.visualizer.prose import explain
from tests.language.helpers import make_game

BAG = """\
game: bag
players: 2
terms:
  bag: {en: Bag, fr: Sac}
  discard: {en: Discard pile, fr: Défausse, fr_grammar: f}
  display: {en: Display, fr: Présentoir}
  token: {en: Token, fr: Jeton}
zones:
  bag: {visibility: hidden, recycle: discard}
  discard: {}
  display: {capacity: 2, refill_from: bag}
items:
  token: {count: 6, zone: bag}
scoring:
  score: 0
"""


@pytest.mark.parametrize("lang, recycle, refill", [
    ("fr", "- Sac, face cachée ; quand il n'y reste rien, on y remet la défausse après mélange.",
     "- Présentoir, au plus 2, que l'on complète toujours depuis le sac."),
    ("en", "- Bag, face down; when empty, the discard pile is shuffled into it.",
     "- Display, holding at most 2, kept full from the bag."),
])
def test_a_zone_refilled_or_recycled_from_another_names_it_with_its_article(
        tmp_path, lang, recycle, refill):
    said = explain(make_game(tmp_path, BAG), lang)
    assert recycle in said and refill in said
    assert "mélangée" not in said and "complétée" not in said  # no gender to guess


@pytest.fixture(scope="module")
def solo():
    game = load_game("new-eden", "solo")
    return {lang: explain(game, lang) for lang in ("en", "fr")}


def test_one_automa_seat_is_said_as_one(solo):
    assert "Deep Thought 4200 joue une place selon les règles (un automa)." in solo["fr"]
    assert "Deep Thought 4200 plays one seat by the rules (an automa)." in solo["en"]
    assert "(s)" not in solo["fr"] + solo["en"]


@pytest.mark.parametrize("variant", [None, "lawless"])
def test_thesauros_accounts_are_said_by_the_books_names(variant):
    """FR l.385-391 and EN l.378-383 name the five accounts; their keys are code."""
    game = load_game("thesauros", variant)
    fr, en = explain(game, "fr"), explain(game, "en")
    assert "Liste des comptes : Ressources Humaines, Recherche & Développement, Achats " \
           "Généraux, Frais de Missions et Caisse Noire" in fr
    assert "Account list: Human Resources, Research & Development, General Expenses, Mission " \
           "Expenses and Slush Fund" in en
    for key in ("hr", "rd", "ge", "me", "sf"):
        assert f"« {key} »" not in fr and f"“{key}”" not in en


def test_endeavor_solo_s_option_says_no_code_in_french():
    fr = explain(load_game("endeavor-deep-sea", "solo"), "fr")
    line = next(x for x in fr.splitlines() if x.startswith("- Effets « Les autres » en solo"))
    assert "nobody" not in line and "you," not in line and "vous (AMBIGU)" not in line
    assert line.endswith("personne (« les autres joueurs, mais pas vous », FR l.698-700) ou toi "
                         "(AMBIGU).")


FEES = """\
game: fees
players: 2
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  fees: {en: Fee, fr: Frais, fr_grammar: pl}
counters:
  coins: {per: player, initial: 2}
tables:
  fees: [1, 3, 6]
scoring:
  score: coins
"""


@pytest.mark.parametrize("source, fr, en", [
    # the index's own difference, then the outer one: brackets say which is which
    ("fees[coins - 1] - 2", "(les frais pour tes pièces − 1) − 2",
     "(the fee for your coins − 1) − 2"),
    ("2 + fees[coins - 1]", "2 + (les frais pour tes pièces − 1)",
     "2 + (the fee for your coins − 1)"),
    ("fees[coins] - 2", "les frais pour tes pièces − 2", "the fee for your coins − 2"),
    ("fees[coins - 1]", "les frais pour tes pièces − 1", "the fee for your coins − 1"),
])
def test_an_index_ending_in_a_difference_is_bracketed_as_an_operand(tmp_path, source, fr, en):
    from meeplang.dsl.parser import parse_expression
    from meeplang.visualizer.prose import Sentences

    game = make_game(tmp_path, FEES)
    assert [str(Sentences(game, lang).expr(parse_expression(source)))
            for lang in ("fr", "en")] == [fr, en]


ROUNDS = """\
game: rounds
players: 2
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  round: {en: Round, fr: Manche, fr_grammar: f}
  build: {en: Build, fr: Construction, fr_grammar: f}
  trade: {en: Trade, fr: Échange}
  earn: {en: Earn, fr: Gagner}
  sell: {en: Sell, fr: Vendre}
  stop_building: {en: Stop building, fr: Arrêter de construire}
  stop_trading: {en: Stop trading, fr: Arrêter d'échanger}
  stop: {en: Stop, fr: Arrêter}
counters:
  coins: {per: player, initial: 0}
flow:
  - repeat: 2
    as: round
    steps:
      - phase: build
        steps:
          - turns: {first: 0, actions: [earn, sell, stop_building], per_turn: 1, until: all_passed}
      - phase: trade
        steps:
          - turns: {first: 0, actions: [earn, sell, stop_trading], per_turn: 1, until: all_passed}
  - turns: {first: 0, actions: [earn, stop], per_turn: 1, until: all_passed}
actions:
  earn:
    limit: {times: 3, per: build}
    effect: gain 1 coins
  sell:
    limit: {times: 2, per: trade}
    effect: gain 2 coins
  stop_building:
    effect: pass
  stop_trading:
    effect: pass
  stop:
    effect: pass
scoring:
  score: coins
"""


@pytest.mark.parametrize("lang, first, second", [
    ("fr", "Au plus 3 fois par manche.", "Au plus 2 fois par phase « Échange »."),
    ("en", "At most 3 times per round.", "At most 2 times per phase “Trade”."),
])
def test_a_limit_per_the_phase_that_opens_each_round_is_per_round(tmp_path, lang, first, second):
    """A count that starts again with the first phase of each round starts again with each
    round, whichever phase the action is used in: said by the round's term; a later phase's
    limit stays that phase's."""
    said = explain(make_game(tmp_path, ROUNDS), lang)
    assert f"  - {first}\n" in said and f"  - {second}\n" in said


def test_new_eden_power_plant_is_limited_per_round_fr_l418():
    """FR l.418: the power plant, at most 3 times « par manche » (also used in phase B)."""
    game = load_game("new-eden")
    fr, en = explain(game, "fr"), explain(game, "en")
    assert "- Action libre « Centrale »\n  - Au plus 3 fois par manche.\n  - Gagne 5 pièces." in fr
    assert "- Free action “Power plant”\n  - At most 3 times per round.\n  - Gain 5 coins." in en
    assert "par phase « Développement »" not in fr


@pytest.mark.parametrize("lang, building, trading, stopping", [
    ("fr", "Passe : tu ne joues plus jusqu'à la fin de la manche.",
     "Passe : tu ne joues plus jusqu'à la fin de la phase « Échange ».",
     "Passe : tu ne joues plus pendant cette étape."),
    ("en", "Pass: you take no more turns until the end of the round.",
     "Pass: you take no more turns until the end of phase “Trade”.",
     "Pass: you take no more turns in this step."),
])
def test_a_pass_names_the_period_it_ends(tmp_path, lang, building, trading, stopping):
    """In the phase that opens each round: the round (by its term); in another phase: that
    phase; turns in no phase: the step."""
    said = explain(make_game(tmp_path, ROUNDS), lang)
    heads = {"fr": ("- Action « Arrêter de construire »", "- Action « Arrêter d'échanger »"),
             "en": ("- Action “Stop building”", "- Action “Stop trading”")}[lang]
    for head, sentence in zip(heads, (building, trading)):
        assert f"{head}\n  - {sentence}\n" in said
    assert said.rstrip().count(stopping) == 1


def test_new_eden_passing_ends_your_round_fr_l162():
    """FR l.162: « Tu ne peux alors plus faire d'action pendant cette manche »."""
    game = load_game("new-eden")
    assert "- Action « Passer son tour »\n  - Passe : tu ne joues plus jusqu'à la fin de la " \
           "manche.\n" in explain(game, "fr")
    assert "- Action “Pass”\n  - Pass: you take no more turns until the end of the round.\n" \
        in explain(game, "en")


def test_otys_a_payment_to_nobody_names_no_payee_and_the_spy_variant_names_its_own():
    """`pay fee from credits to copy_payee(neighbour)`: the base game's payee is none (the Spy's
    credit goes to the supply, FR l.483), the author's Spy variant pays the neighbour."""
    base = explain(load_game("otys"), "fr")
    author = explain(load_game("otys", "author"), "fr")
    copy = "- « Copier un plongeur voisin », faite par les règles"
    assert "  - Paie des crédits : le prix à payer.\n" in base[base.index(copy):]
    assert "au qui" not in base + author
    assert "  - Paie des crédits : le prix à payer au joueur que l'espion paie (le voisin).\n" \
        in author[author.index(copy):]


def test_otys_neutral_keys_agree_in_the_plural():
    assert "- 12 clés X neutres dans les clés X neutres." in explain(load_game("otys"), "fr")


@pytest.mark.parametrize("target", ["new-eden", "new-eden:solo", "thesauros", "thesauros:solo",
                                    "otys", "otys:author", "endeavor-deep-sea",
                                    "endeavor-deep-sea:solo", "goofspiel", "pig"])
def test_french_explanations_say_tu_throughout(target):
    """The sentences say « tu »; the games' French terms and summaries say it too, so no line
    mixes « tu » and « vous » (a quotation of a rulebook, in « », may say « vous »)."""
    name, _, variant = target.partition(":")
    fr = explain(load_game(name, variant or None), "fr")
    import re

    outside_quotes = re.sub(r"«[^»]*»", "«»", fr)
    found = [line for line in outside_quotes.splitlines()
             if re.search(r"\b(?:vous|votre|vos)\b", line, re.I)]
    assert found == []


HANDS = """\
game: hands
players: 2
terms:
  hand: {en: Hand, fr: Main, fr_grammar: f}
  tricks: {en: Tricks won, fr: Plis remportés, en_grammar: pl, fr_grammar: pl}
  dig: {en: Dig zone, fr: Zone de fouille, fr_grammar: f}
zones:
  hand: {per: player}
  tricks: {per: player}
  dig: {per: player, each: [1, 2, 3]}
scoring:
  score: 0
"""


@pytest.mark.parametrize("source, fr, en", [
    # a zone that holds things: the number of items in it
    ("count(hand)", "le nombre d'éléments de ta main", "the number of items in your hand"),
    # a zone whose term names what it holds: the number of those
    ("count(tricks)", "le nombre de tes plis remportés", "the number of your tricks won"),
    # a family of zones read whole: its members, in the plural
    ("count(dig)", "le nombre d'éléments de tes zones de fouille",
     "the number of items in your dig zones"),
    # one member of the family: that zone
    ("count(dig[2])", "le nombre d'éléments de ta zone de fouille (2)",
     "the number of items in your dig zone (2)"),
])
def test_the_count_of_a_zone_says_what_is_counted(tmp_path, source, fr, en):
    from meeplang.dsl.parser import parse_expression
    from meeplang.visualizer.prose import Sentences

    game = make_game(tmp_path, HANDS)
    assert [str(Sentences(game, lang).expr(parse_expression(source)))
            for lang in ("fr", "en")] == [fr, en]


def test_otys_tie_break_counts_the_items_of_the_five_dig_zones():
    """FR l.349: most resources in the dig zones, not "the number of your dig zone"."""
    game = load_game("otys")
    assert "- En cas d'égalité : le nombre d'éléments de tes zones de fouille (le plus grand " \
           "d'abord)." in explain(game, "fr")
    assert "the number of items in your dig zones" in explain(game, "en")


def test_a_formula_whose_term_ends_in_of_takes_its_argument_without_brackets():
    """Otys's `kinds(cubes)`, « Types de »: no brackets inside brackets in its contract rule."""
    game = load_game("otys")
    fr, en = explain(game, "fr"), explain(game, "en")
    assert "- Peut être réalisé (p, l, c) quand contient ce qu'il demande (les types de la zone " \
           "de fouille de p (l), c)." in fr
    assert "- Can be completed (p, l, c) when holds what it needs (the types of the dig zone of " \
           "p (l), c)." in en
    assert "types de (" not in fr and "types of (" not in en
