"""Rules as prose: every construct of the language has its sentence in every language, French
grammar is done by the templates' grammar, and `meeplang explain` says each bundled game as the
golden files under tests/visualizer/explain/ (regenerate: python -m meeplang.regen_explanations)."""
from __future__ import annotations

import html
import inspect
import re

import attrs
import pytest

from meeplang.dsl import ast, model
from meeplang.dsl.resolve import load_game
from meeplang.cli import main
from tests.language.helpers import make_game
from meeplang.visualizer import dot_source
from meeplang.visualizer.prose import TEMPLATES, Sentences, explain, regen
from meeplang.visualizer.prose.grammar import GRAMMARS, Phrase


def constructs() -> list[str]:
    """Every construct class: the attrs classes defined in the syntax tree and the Game model."""
    return [f"{module.__name__}.{name}" for module in (ast, model)
            for name, cls in inspect.getmembers(module, inspect.isclass)
            if attrs.has(cls) and cls.__module__ == module.__name__]


def test_every_construct_has_a_template_in_every_language():
    assert len(constructs()) > 50
    missing = [f"{qualified} has no sentence template in {lang} (visualizer/prose/{lang}.py)"
               for qualified in constructs() for lang in TEMPLATES
               if qualified.rsplit(".", 1)[1] not in TEMPLATES[lang]]
    assert not missing, "\n".join(missing)


def test_every_form_of_a_construct_is_in_every_language():
    en = TEMPLATES["en"]
    missing = []
    for lang, table in TEMPLATES.items():
        for name, entry in en.items():
            theirs = table.get(name)
            if isinstance(entry, dict):
                gone = sorted(set(entry) - set(theirs if isinstance(theirs, dict) else {}))
                missing += [f"{name}.{form} has no template in {lang}" for form in gone]
            elif (entry is None) != (theirs is None):
                missing.append(f"{name}: en and {lang} disagree on whether it has a sentence")
    assert not missing, "\n".join(missing)


def test_the_template_test_names_a_missing_class_and_language(monkeypatch):
    monkeypatch.delitem(TEMPLATES["fr"], "AuctionStmt")
    with pytest.raises(AssertionError) as failure:
        test_every_construct_has_a_template_in_every_language()
    assert "meeplang.dsl.ast.AuctionStmt has no sentence template in fr (visualizer/prose/fr.py)" in str(
        failure.value)


@pytest.mark.parametrize("text, notes, form, said", [
    ("Centrale", {"f"}, "the", "la centrale"),
    ("Centrale", {"f"}, "of", "de la centrale"),
    ("Centrale", {"f"}, "to", "à la centrale"),
    ("Horizon", set(), "the", "l'horizon"),
    ("Objectif", set(), "of", "de l'objectif"),
    ("Total du tour", set(), "to", "au total du tour"),
    ("Total du tour", set(), "of", "du total du tour"),
    ("Pièces", {"f", "pl"}, "of", "des pièces"),
    ("Pièces", {"f", "pl"}, "to", "aux pièces"),
    ("Pièces", {"f", "pl"}, "your", "tes pièces"),
    ("Main", {"f"}, "your", "ta main"),
    ("Extension", {"f"}, "your", "ton extension"),
    ("Main", {"f"}, "their", "sa main"),
    ("Carte", {"f"}, "a", "une carte"),
    ("Marqueur Nautilus", set(), "the", "le marqueur Nautilus"),
    ("New Eden", {"name"}, "the", "New Eden"),
])
def test_french_articles_elisions_and_contractions(text, notes, form, said):
    assert format(Phrase(text, GRAMMARS["fr"], noun=True, notes=frozenset(notes)), form) == said


@pytest.mark.parametrize(("lang", "text", "form", "said"), [
    ("en", "The scenario's special rules", "the", "the scenario's special rules"),
    ("en", "The scenario's special rules", "of", "of the scenario's special rules"),
    ("en", "Each round's start", "your", "each round's start"),
    ("en", "Theme", "the", "the theme"),  # a word, not the article
    ("fr", "Le début de chaque manche", "the", "le début de chaque manche"),
    ("fr", "Le début de chaque manche", "of", "du début de chaque manche"),
    ("fr", "L'équipe du joueur", "to", "à l'équipe du joueur"),
    ("fr", "Lagon", "the", "le lagon"),
])
def test_a_term_that_begins_with_its_own_article_takes_no_other(lang, text, form, said):
    assert format(Phrase(text, GRAMMARS[lang], noun=True), form) == said


def test_french_elides_across_the_joins_of_templates():
    fr = GRAMMARS["fr"]
    assert fr.finish("si il reste une carte") == "s'il reste une carte"
    assert fr.finish("le nombre de un joueur") == "le nombre d'un joueur"
    assert fr.finish("la catégorie de a") == "la catégorie de a"  # a name, not a word
    assert format(Phrase("a", fr), "of") == "de a" and format(Phrase("un joueur", fr), "of") \
        == "d'un joueur"  # nor when `de` joins a one-letter name to its phrase


@pytest.mark.parametrize(("lang", "text", "plural"), [
    ("en", "Deeple", "Deeples"),
    ("en", "bid marker", "bid markers"),
    ("en", "box", "boxes"),
    ("en", "battery", "batteries"),
    ("en", "key", "keys"),
    ("fr", "Carte de construction", "Cartes de construction"),
    ("fr", "marqueur d'enchères", "marqueurs d'enchères"),
    ("fr", "Bateau", "Bateaux"),
    ("fr", "Journal", "Journaux"),
    ("fr", "Croix", "Croix"),
])
def test_the_regular_plural_of_a_term(lang, text, plural):
    assert GRAMMARS[lang].plural(text) == plural


@pytest.mark.parametrize(("lang", "plural", "one"), [
    ("en", "Batteries", "Battery"), ("en", "Bid markers", "Bid marker"), ("en", "Coins", "Coin"),
    ("en", "Boxes", "Box"), ("fr", "Pièces", "Pièce"),
    ("fr", "Cartes de construction", "Carte de construction"),
])
def test_a_plural_term_said_of_one(lang, plural, one):
    assert GRAMMARS[lang].singular(plural) == one


COUNTED = """\
game: counted
players: 2
terms:
  die: {en: Die, fr: Dé, en_plural: Dice}
  marker: {en: Bid marker, fr: Marqueur d'enchères}
  card: {en: Card, fr: Carte, fr_grammar: f}
  supply: {en: Supply, fr: Réserve, fr_grammar: f}
zones:
  supply: {}
items:
  die: {count: 3, zone: supply}
  marker: {count: 1, zone: supply}
  card: {count: player_count * 2, zone: supply}
  spare: {from: spares, zone_field: place}
tables:
  spares: [{id: a, place: supply}, {id: b, place: supply}]
scoring:
  score: 0
"""


def test_a_count_of_items_is_said_with_the_plural(tmp_path):
    game = make_game(tmp_path, COUNTED)
    en, fr = explain(game, "en"), explain(game, "fr")
    assert "3 dice in the supply" in en and "3 dés dans la réserve" in fr  # en_plural wins
    assert "1 bid marker in the supply" in en and "1 marqueur d'enchères dans la réserve" in fr
    assert "Cards, as many as the number of players × 2, in the supply" in en
    assert "Des cartes, autant que le nombre de joueurs × 2, dans la réserve" in fr
    assert "- One spare for each entry of the spares, in the place its entry names.\n" in en
    assert "pour chaque entrée du spares, à l'emplacement que nomme son entrée.\n" in fr


TINY = """\
game: tiny
players: 2
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  take: {en: Take, fr: Prendre}
  play: {en: Play, fr: Partie, fr_grammar: f}
counters:
  coins: {per: player, initial: 0}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}
actions:
  take:
    requires: coins < 3
    effect: |
      gain 1 coins
      if coins >= 2:
        gain 2 coins
scoring:
  score: coins
"""


def test_the_end_of_the_game_says_what_ends_the_last_step(tmp_path):
    """Otys ends at the end of the round in which a player has 18 notoriety (FR l.347): the
    section says so, in both languages, and the turns sentence does not say "until the game
    ends" before it; a loop's condition and turns until a condition are said the same way."""
    otys = load_game("otys")
    en, fr = explain(otys, "en"), explain(otys, "fr")
    end_en = en[en.index("End of the game"):]
    assert "That step ends at the end of a round once" in end_en and "at least 18" in end_en
    end_fr = fr[fr.index("Fin de la partie"):]
    assert "Cette étape finit à la fin d'un tour de table dès que" in end_fr and "18" in end_fr
    assert "until the end of a round once" in en and "until the game ends; the turns" not in en
    looped = TINY.replace("      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}",
                          "      - until: any(p.coins >= 3 for p in players)\n"
                          "        steps:\n"
                          "          - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}")
    assert looped != TINY
    text = explain(make_game(tmp_path, looped), "en")
    assert "That step ends when, before a pass, " in text[text.index("End of the game"):]
    tiny = explain(make_game(tmp_path, TINY), "en")
    assert "That step ends" not in tiny  # one round of turns: nothing more to say


def test_numbers_and_terms_come_from_the_model(tmp_path):
    game = make_game(tmp_path, TINY)
    fr = Sentences(game, "fr")
    lines = [line.text for line in fr.block(game.actions["take"].effect)]
    assert lines == ["Gagne 1 pièce.", "Si tes pièces valent au moins 2 : gagne 2 pièces."]
    en = Sentences(game, "en")
    assert str(en.expr(game.actions["take"].requires)) == "your coins are less than 3"


def test_a_construct_without_a_template_is_shown_as_its_rule_source(tmp_path, monkeypatch):
    game = make_game(tmp_path, TINY)
    monkeypatch.delitem(TEMPLATES["en"], "GainStmt")
    lines = [line.text for line in Sentences(game, "en").block(game.actions["take"].effect)]
    assert lines[0] == "gain 1 coins"


def test_a_variant_explanation_says_its_own_numbers():
    base, short = explain(load_game("pig"), "fr"), explain(load_game("pig", "short"), "fr")
    assert "l'objectif (100)" in base and "l'objectif (100)" not in short
    assert "l'objectif (50)" in short


def test_the_golden_explanations_are_up_to_date():
    found = regen.problems()
    assert not found, "\n".join(found) + f"\nregenerate with: {regen.REGEN_COMMAND}"


@pytest.mark.parametrize("target", ["new-eden", "new-eden:solo", "new-eden:solo-hard", "pig",
                                    "goofspiel"])
def test_french_explanations_have_no_untranslated_rule_words(target):
    game = load_game(*target.split(":"))
    text = explain(game, "fr")
    for english in (" the ", " for each ", " your ", " if ", " and ", "Choose", " gain "):
        assert english not in text, (target, english)
    # a quoted lower-case word is a code (an option's value) unless it is one of the French terms
    french = {entry["fr"] for entry in game.terms.values() if entry.get("fr")}
    codes = {m.group(1) for m in re.finditer(r"«\s*([a-z_]+)\s*»", text)} - french
    assert not codes, (target, sorted(codes))


def test_an_option_value_is_said_by_its_term(tmp_path):
    said = explain(load_game("new-eden"), "fr")
    assert "- Un joueur désigné pour ouvrir : « peut passer » — peut passer : " in said
    assert "l'option « Un joueur désigné pour ouvrir » est « doit enchérir »" in said
    assert "« must_bid »" not in said


OPTION_DOCS = """
game: docs
players: 2
terms:
  target: {en: Target, fr: Objectif}
  fast: {en: Fast game, fr: Partie rapide}
options:
  target: {default: 10, doc: {en: points needed to win, fr: points nécessaires pour gagner}}
  fast: {default: false, doc: half the rounds}
scoring: {score: target}
"""


def test_an_options_doc_is_said_in_the_readers_language_only(tmp_path):
    from meeplang.api import load

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "game.yaml").write_text(OPTION_DOCS, encoding="utf-8")
    game = load_game(str(folder))
    assert "- Target: 10 — points needed to win.\n- Fast game: no — half the rounds." in \
        explain(game, "en")
    assert "- Objectif : 10 — points nécessaires pour gagner.\n- Partie rapide : non.\n" in \
        explain(game, "fr")  # no English text in a French explanation
    warnings = [w for w in load(str(folder)).check().warnings if "doc" in w.message]
    assert [(w.line, w.message) for w in warnings] == [
        (9, "the doc of option 'fast' has no fr text (the game's terms are in en, fr): give it "
            "as `doc: {en: ..., fr: ...}`")]


def test_explain_command_in_each_format(capsys):
    assert main(["explain", "pig", "--lang", "fr"]) == 0
    text = capsys.readouterr().out
    assert text == (regen.default_folder() / "pig.fr.txt").read_text(encoding="utf-8")
    assert main(["explain", "pig", "--variant", "short", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Pig to 50\n") and "\n## Actions\n" in md
    assert main(["explain", "goofspiel", "--format", "html", "--lang", "fr"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and '<html lang="fr">' in page
    assert page.count("<ul>") == page.count("</ul>") and "<li>Mélange la pioche des primes." in page


def test_explain_command_errors_are_positioned_or_usage(tmp_path, capsys):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(TINY.replace("gain 2 coins", "gain 2 coinz"))
    assert main(["explain", str(folder)]) == 1
    assert "game.yaml:19:9: error: unknown player counter 'coinz'" in capsys.readouterr().err
    assert main(["explain", "no-such-game"]) == 2
    assert main(["explain", "pig:short", "--variant", "long"]) == 2
    assert "two variants given: 'short' and 'long'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["explain", "pig", "--lang", "de"])
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


ENGLISH_RULE_WORDS = re.compile(
    r"\b(for each|in|to|from|where|if|else|and|or|not|gain|pay|move|deal|set|let|shuffle|"
    r"choose|do|may|times|end turn|end game|pass)\b|==|>=|<=|!=|\w\((?!s\))")  # not "action(s)"


def _labels(dot: str) -> str:
    """The words of every label of a DOT text (HTML tags, entities and ids left out)."""
    labels = re.findall(r"label=<(.*?)>\s*(?:\w+=|\])", dot, re.S)
    return html.unescape(re.sub(r"<[^>]*>", " ", " ".join(labels)))


@pytest.mark.parametrize("detail", ["phases", "actions", "full"])
def test_a_french_diagram_has_no_english_rule_code(detail):
    game = load_game("new-eden")
    words = _labels(dot_source(game, detail, "fr"))
    assert "Mets" in words or "Mélange" in words
    found = [m.group(0) for m in ENGLISH_RULE_WORDS.finditer(words)]
    assert not found, found[:10]
    code = _labels(dot_source(game, detail, "fr", text="rules"))
    assert "shuffle module_supply" in code  # --text rules keeps the rule code


def test_the_french_report_says_its_rules_in_french(tmp_path):
    from meeplang.visualizer.report import build_html

    page = build_html(load_game("new-eden"), "<svg></svg>", "fr")
    text = html.unescape(re.sub(r"<[^>]*>", " ", page.split("<body>", 1)[1]))
    assert "Paie 6 pièces." in text and "pay extension_cost coins" not in text
    rules = build_html(load_game("new-eden"), "<svg></svg>", "fr", text="rules")
    assert "pay extension_cost coins" in html.unescape(rules)


def test_the_python_api_explains_and_refuses_an_unknown_language_or_format():
    import meeplang
    from meeplang.dsl.errors import UsageError

    game = meeplang.load("pig")
    assert game.explain(lang="fr") == (regen.default_folder() / "pig.fr.txt").read_text("utf-8")
    with pytest.raises(UsageError, match="language"):
        game.explain(lang="de")
    with pytest.raises(UsageError, match="format"):
        game.explain(format="pdf")
    assert "Roll a 6-sided die" in game.diagram(detail="full")
    assert "roll d6 as die" in game.diagram(detail="full", text="rules")


@pytest.fixture(scope="module")
def new_eden_said():
    game = load_game("new-eden")
    return {lang: explain(game, lang) for lang in ("en", "fr")}


def test_parameters_and_comprehension_variables_are_never_read_as_terms(new_eden_said):
    # `has_extension(p, name)`: the parameter `name` is not the term of the field `name`
    assert "le nom de l'extension est name." in new_eden_said["fr"]
    assert "the name of the extension is name." in new_eden_said["en"]
    assert "le côté du module est side." in new_eden_said["fr"]
    assert "est le nom." not in new_eden_said["fr"] and "is the side." not in new_eden_said["en"]


def test_an_auction_names_its_winner_and_price_readably_and_its_ties_rule_once(new_eden_said):
    en, fr = new_eden_said["en"], new_eden_said["fr"]
    assert "the highest bidder wins: that is the winner, and their bid is the price; " in en
    assert "le plus offrant l'emporte : c'est le gagnant, et son offre est le prix ; " in fr
    # no one wins ties in the game (`wins_ties(): "none"`): no clause says who does
    assert "winning ties may" not in en and "gagne les égalités peut" not in fr
    solo = explain(load_game("new-eden", "solo"), "fr")  # the automa wins ties there
    auction = next(line for line in solo.splitlines() if "Enchères entre" in line)
    assert "le joueur qui gagne les égalités peut aussi égaler la plus forte enchère ;" in auction
    assert "winner is the winner" not in en and auction.count("égalités") == 1


def test_french_comparisons_with_an_expression_and_sets_of_a_player(new_eden_said):
    fr = new_eden_said["fr"]
    assert "où la ligne dépasse le nombre des lignes − " in fr and "vaut plus du" not in fr
    assert "valent plus de 0" in fr  # a written number keeps `plus de N`
    assert "Le joueur avec le marqueur Nautilus devient le joueur qui choisit la prochaine " \
           "ligne." in fr and "Mets le joueur qui choisit" not in fr  # the holder chooses


def test_french_agreement_elision_and_que_after_si(new_eden_said):
    fr = new_eden_said["fr"]
    assert "ses cartes achetées face cachée, visibles de son propriétaire seulement." in fr
    assert "la catégorie de a n'est pas" in fr and "d'a " not in fr
    assert "si le nombre de joueurs vaut 2 et que tu es le joueur avec le marqueur Nautilus " \
           "et qu'il reste" in fr
    assert "Construis une station" in fr and " vous " not in fr and "vos " not in fr


@pytest.mark.parametrize("source, said", [
    ("top(coins, 3)", "the top 3 of your coins"),
    ("top(coins, coins)", "the top items of your coins, as many as your coins"),
    ("top(coins)", "the top item of your coins"),
    ("max(coins)", "the highest of your coins"),
    ("max(coins, 2)", "the greater of your coins and 2"),
])
def test_a_built_in_call_takes_the_form_of_its_arguments(tmp_path, source, said):
    from meeplang.dsl.parser import parse_expression

    say = Sentences(make_game(tmp_path, TINY), "en")
    assert str(say.expr(parse_expression(source))) == said


@pytest.mark.parametrize("source, fr, en", [
    ("coins == none", "tes pièces n'existent pas", "your coins are none"),
    ("coins != none", "tes pièces existent", "your coins are not none"),
    ("coins in [1, 2]", "tes pièces sont 1 ou 2", "your coins are 1 or 2"),
    ("coins not in [1, 2]", "tes pièces ne sont ni 1 ni 2", "your coins are not 1 or 2"),
    ("coins not in [1, 2, 3]", "tes pièces ne sont ni 1, ni 2 ni 3", "your coins are not 1, 2 or 3"),
    ("coins not in [1]", "tes pièces ne sont pas 1", "your coins are not 1"),
    ("coins >= 2", "tes pièces valent au moins 2", "your coins are at least 2"),
])
def test_a_comparison_agrees_with_a_plural_subject(tmp_path, source, fr, en):
    assert _said_in_both(make_game(tmp_path, TINY), source) == (fr, en)


def _said_in_both(game, source: str) -> tuple:
    """An expression of `game` as said in French and in English."""
    from meeplang.dsl.parser import parse_expression

    return tuple(str(Sentences(game, lang).expr(parse_expression(source))) for lang in ("fr", "en"))


def test_a_condition_formula_and_lists_put_together_read_as_words(new_eden_said):
    en, fr = new_eden_said["en"], new_eden_said["fr"]
    assert "- The station holds (p) when the damage of p is at most " in en
    assert "- La station résiste (p) quand les dégâts de p valent au plus " in fr
    assert "- Places a deeple can go (p) is nowhere and the modules outside the station (p)." in en
    assert "the oxygen cards of p and the o in the station of p" in en
    # a count of a selection and a `not any(...)` read as words, in both languages
    assert "is the number of m in the station of p (research) where the research of m is r." in en
    assert " : le nombre de m de la station de p (recherche) où la recherche de m est r." in fr
    # (`t` ranges over the extensions not built, where the extensions are made: an extension)
    assert ("(p, name) when for none of the extensions not built of p, the name of the extension "
            "is name.") in en
    assert ("(p, name) quand pour aucune extension des extensions non construites de p, le nom de "
            "l'extension est") in fr
    # a sum of numbers stays a sum
    assert "3 × the number of Research cards (p, “R2”) + the sum of " in en


def test_markdown_escapes_what_markdown_would_read_as_markup(tmp_path):
    game = make_game(tmp_path, TINY.replace("en: Coins,", "en: '*Gold* coins_<b>',"))
    md = explain(game, "en", "md")
    assert r"\*gold\* coins\_\<b\>" in md.lower() and "*gold* coins_<b>" not in md.lower()
    assert "*gold* coins_<b>" in explain(game, "en", "text").lower()


CREW = """\
game: crew
players: 2
terms:
  crew: {en: Crew, fr: Équipage}
  boat: {en: Boat, fr: Bateau}
  diver: {en: Diver, fr: Plongeur}
  shark: {en: a shark, fr: un requin}
  boss: {en: the Boss, fr: le boss, en_grammar: cap}
  j: {en: Royalties (J), fr: Royalties (J), fr_grammar: pl}
  cost: {en: Cost, fr: Coût}
  hire: {en: Hire, fr: Engager}
  play: {en: Play, fr: Partie, fr_grammar: f}
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
tables:
  boats: [{cost: 2, shark: false, j: 1}, {cost: 3, shark: true, j: 2}]
counters:
  coins: {per: player, initial: 9}
zones:
  crew: {}
items:
  boat: {from: boats, zone: crew}
  diver: {count: 2, zone: crew, fields: {boss: "n == 1", cost: 1}}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [hire], per_turn: 1, until: one_round}
actions:
  hire:
    choose: j in crew where not j.shark and j.cost <= coins
    effect: |
      pay j.cost + j.j from coins
      if j.boss:
        gain 1 coins
scoring:
  score: coins
"""


def test_yes_no_fields_from_a_table_or_a_comparison_are_said_as_what_the_item_is(tmp_path):
    # `shark` is only ever true/false in the boats' table, `boss` a comparison; `cost` is a
    # number for both kinds
    game = make_game(tmp_path, CREW)
    fr = [line.text for line in Sentences(game, "fr").block(game.actions["hire"].effect)]
    assert fr[1] == "Si j est le boss : gagne 1 pièce."
    choice = explain(game, "en")
    assert "where j is not a shark and the cost of j is at most your coins" in choice


def test_a_one_letter_name_is_a_placeholder_while_the_field_of_that_name_has_its_term(tmp_path):
    game = make_game(tmp_path, CREW)
    en = [line.text for line in Sentences(game, "en").block(game.actions["hire"].effect)]
    assert en[0] == "Pay coins: the cost of j + the royalties (J) of j."


def test_a_field_named_like_an_action_is_said_by_its_own_term(tmp_path):
    # `j.hire` (what hiring the item costs in coins) beside the action `hire`
    text = CREW.replace("  cost: {en: Cost, fr: Coût}\n",
                        "  .hire: {en: Hiring fee, fr: Prix d'embauche}\n").replace(
        "fields: {boss: \"n == 1\", cost: 1}", "fields: {boss: \"n == 1\", hire: 1}").replace(
        "{cost: 2, shark: false, j: 1}, {cost: 3, shark: true, j: 2}",
        "{hire: 2, shark: false, j: 1}, {hire: 3, shark: true, j: 2}").replace(
        "j.cost", "j.hire")
    game = make_game(tmp_path, text)
    en, fr = explain(game, "en"), explain(game, "fr")
    assert "the hiring fee of j is at most your coins" in en
    assert "le prix d'embauche de j vaut au plus tes pièces" in fr
    assert "the hire of j" not in en.lower() and "l'engager de j" not in fr.lower()


CONDITION = """\
game: cond
players: 2
terms:
  rich: {en: is rich, fr: est riche, fr_grammar: pred}
  all_rich: {en: everyone is rich, fr: tout le monde est riche, fr_grammar: pred}
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  take: {en: Take, fr: Prendre}
  play: {en: Play, fr: Partie, fr_grammar: f}
counters:
  coins: {per: player, initial: 0}
formulas:
  rich(p): p.coins >= 5
  all_rich(): all(rich(p) for p in players)
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}
actions:
  take:
    requires: not all_rich()
    effect: |
      if rich(you):
        gain 1 coins
scoring:
  score: coins
"""


def test_a_condition_formula_is_one_in_every_language_and_is_called_without_empty_brackets(
        tmp_path):
    # `pred` is given in French only: what the formula is does not change with the language
    game = make_game(tmp_path, CONDITION)
    en, fr = explain(game, "en"), explain(game, "fr")
    assert "- Is rich (p) when the coins of p are at least 5." in en
    assert "- Est riche (p) quand les pièces de p valent au moins 5." in fr
    assert "If is rich (you): gain 1 coin." in en and "the is rich" not in en
    assert "it is not so that everyone is rich." in en and "()" not in en
    assert "il est faux que tout le monde est riche." in fr and "()" not in fr


def test_thesauros_says_its_capitalised_terms_and_zones_as_the_rulebook_writes_them():
    # the EN rulebook writes "Reputation Points", "Double Action tile", "Metal Detector" and
    # "Zone 7" with capitals (`en_grammar: cap`); a zone is feminine in French
    folder = regen.default_folder()
    en = (folder / "thesauros.en.txt").read_text(encoding="utf-8")
    fr = (folder / "thesauros.fr.txt").read_text(encoding="utf-8")
    assert "Gain 1 Reputation Point." in en and "Lose 1 Double Action tile." in en
    assert "One Metal Detector for each entry" in en and "to is the Zone 7: Port and Lagoon" in en
    for lowered in ("reputation Point", "double Action", "metal Detector", "zone 7"):
        assert lowered not in en
    assert "la position du zodiac devient la zone 7 : Port et lagon." in fr
    assert "le zone 7" not in fr


SMALL = """\
game: small
players: 2
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  take: {en: Take, fr: Prendre}
  rest: {en: Rest, fr: Repos}
  play: {en: Play, fr: Partie, fr_grammar: f}
  bonus: {en: Bonus, fr: Prime, fr_grammar: f}
  deck: {en: Deck, fr: Pioche, fr_grammar: f}
  hand: {en: Hand, fr: Main, fr_grammar: f}
  card: {en: Card, fr: Carte, fr_grammar: f}
counters:
  coins: {per: player, initial: 3}
zones:
  deck: {}
  hand: {per: player}
items:
  card: {count: 6, zone: deck}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}
actions:
  take:
    effect: |
      draw 2 from deck to hand, keep 1 as kept, return the rest to the bottom
      may do rest else lose 1 coins
  rest:
    effect: gain 1 coins
triggers:
  bonus:
    when: after take
    limit: {times: 1, per: turn}
    effect: gain 1 coins
scoring:
  score: coins
"""


def test_a_kept_name_an_inner_sentence_and_a_trigger_limit_read_as_words(tmp_path):
    game = make_game(tmp_path, SMALL)
    en, fr = explain(game, "en"), explain(game, "fr")
    # the name a draw gives what it keeps is said where it is given
    assert "Draw 2 from the deck into your hand, and keep 1 of them (kept); put the rest" in en
    assert "puis gardes-en 1 (kept) ; remets les autres" in fr
    # a statement said inside a sentence goes on without a capital letter
    assert "You may do “Rest”; if not, lose 1 coin." in en
    assert "Tu peux faire « Repos » ; sinon, perds 1 pièce." in fr
    # a trigger's limit of 1 is once, as an action's is
    assert "after “Take” (at most once per turn)" in en and "1 times" not in en
    assert "(au plus une fois par tour)" in fr


BANK = """\
game: bank
players: 2
terms:
  accounts: {en: Accounts, fr: Comptes, en_grammar: pl, fr_grammar: pl}
  damage: {en: Damage, fr: Dégâts, fr_grammar: pl}
  take: {en: Take, fr: Prendre}
  play: {en: Play, fr: Partie, fr_grammar: f}
  fee: {en: Transfer fee, fr: Frais de virement, fr_grammar: pl}
counters:
  fee: {initial: 2}
  accounts:
    per: player
    each: [a, b]
    initial: 5
    transfer: {fee: "{fee}", from: [a, b]}
  damage: {per: player, initial: 0}
flow:
  - phase: play
    steps:
      - turns: {first: 0, actions: [take], per_turn: 1, until: one_round}
actions:
  take:
    effect: pay 6 from accounts["a"]
scoring:
  score: accounts["a"]
  tie_break: ["-damage", 'accounts["b"]']
"""


@pytest.mark.parametrize("fee, en_fee, fr_fee", [
    ("2", "each paying a fee of 2", "chacun payant des frais de 2"),
    ("fee + 1", "each paying the transfer fee + 1", "chacun payant les frais de virement + 1")])
def test_a_transfer_and_tie_breaks_read_as_sentences(tmp_path, fee, en_fee, fr_fee):
    game = make_game(tmp_path, BANK.replace("{fee}", fee))
    en, fr = explain(game, "en"), explain(game, "fr")
    # one account that is short, said in the singular; the fee said once
    assert f"; a short account is made up from “a” and “b”, {en_fee}." in en
    assert f" ; s'il manque sur un compte, on complète avec « a » et « b », {fr_fee}." in fr
    assert "- Ties are broken by your damage (lowest first), then your accounts (“b”) " \
           "(highest first)." in en
    assert "- En cas d'égalité : tes dégâts (le plus petit d'abord), puis tes comptes (« b ») " \
           "(le plus grand d'abord)." in fr


def test_the_values_given_to_an_action_and_a_written_list_gone_through_are_all_of_them(tmp_path):
    text = SMALL.replace("      may do rest else lose 1 coins\n",
                         "      for each n in [1, 2, 3]:\n        do give with a = n, b = 2\n") \
        .replace("  rest:\n    effect: gain 1 coins\n",
                 "  rest:\n    effect: gain 1 coins\n  give:\n    takes: [a, b]\n"
                 "    effect: gain a + b coins\n") \
        .replace("  take: {en: Take, fr: Prendre}\n",
                 "  take: {en: Take, fr: Prendre}\n  give: {en: Give, fr: Donner}\n")
    game = make_game(tmp_path, text)
    en, fr = explain(game, "en"), explain(game, "fr")
    assert "- For each n in 1, 2 and 3: do “Give” with a = n and b = 2." in en
    assert "- Pour chaque n de 1, 2 et 3 : fais « Donner » avec a = n et b = 2." in fr


@pytest.mark.parametrize("source, fr, en", [
    ("full(hand)", "ta main est pleine", "your hand is full"),
    ("not full(hand)", "ta main n'est pas pleine", "your hand is not full"),
    ("full(coins)", "tes pièces sont pleines", "your coins are full"),
    ("not full(deck)", "la pioche n'est pas pleine", "the deck is not full"),
])
def test_full_agrees_with_its_zone(tmp_path, source, fr, en):
    assert _said_in_both(make_game(tmp_path, SMALL), source) == (fr, en)


BOUND = """\
game: bound
players: 2
terms:
  rows: {en: Rows, fr: Lignes, fr_grammar: f pl}
  display: {en: Display, fr: Présentoir}
  sponsor: {en: Sponsor, fr: Sponsor}
  score: {en: Score, fr: Score}
  tokens: {en: Tokens, fr: Jetons, fr_grammar: m pl}
  pick: {en: Pick, fr: Choisir}
  tally: {en: Tally, fr: Compter}
counters:
  score: {per: player, initial: 0}
zones:
  display: {}
  tokens: {per: player}
tables:
  rows: [1, 2, 3]
items:
  sponsor: {count: 3, zone: display}
flow:
  - turns: {first: 0, actions: [pick], per_turn: 1, until: one_round,
            until_round: "any(p.score >= 5 for p in players)"}
actions:
  pick:
    choose: r in rows where r > 1
    effect: |
      gain r score
      for each s in display:
        move s to tokens
  tally:
    effect: |
      choose t in tokens
      move t to display
      set score to count([r for r in rows if r > score])
      if all(q.score > 1 for q in players):
        gain 1 score
scoring:
  score: score
"""


def test_a_name_bound_over_a_plural_noun_or_a_place_of_one_piece_is_said_as_that_noun(tmp_path):
    """`p`, `r`, `s`, `t`: the rules' placeholders are said as the noun of what they range over
    (the singular of a plural term, or the one kind of piece made in a place), never alone."""
    game = make_game(tmp_path, BOUND)
    en, fr = explain(game, "en"), explain(game, "fr")
    assert "once for at least one of the players, the score of the player is at least 5" in en
    assert "dès que pour au moins un joueur des joueurs, le score du joueur vaut au moins 5" in fr
    assert "Choose a row from the rows where the row is more than 1." in en
    assert "Choisis une ligne parmi les lignes où la ligne vaut plus de 1." in fr
    assert "Gain score: the row." in en
    assert "For each sponsor in the display: put the sponsor into your tokens." in en
    assert "Pour chaque sponsor du présentoir : mets le sponsor dans tes jetons." in fr
    assert "Choose a token from your tokens." in en and "Choisis un jeton parmi tes jetons." in fr
    # `[r for r in rows if ...]` is the rows where ...
    assert "the number of the rows where the row is more than your score" in en
    assert "for each of the players, the score of the player is more than 1" in en
    for text in (en, fr):
        assert not re.search(r"(?<![\w'’])[prstq](?![\w'’])", text), text


@pytest.mark.parametrize("text,plain", [
    ("zones avec file d'attente", True), ("piles du casier", True), ("tuiles Océan", True),
    ("revues à l'étude", True), ("extensions non construites", False),
    ("cases libres valides", False)])
def test_french_says_a_plural_phrase_of_one_by_its_first_word_only_when_nothing_agrees(text,
                                                                                       plain):
    assert GRAMMARS["fr"].plain_head(text) is plain
    assert GRAMMARS["en"].plain_head(text) is True
