"""A value a statement names (`let stocked = ...`, `keep 1 as kept`, `roll d4 as double`) is said
by its term in explanations; without one, in a game whose terms have languages, `check` warns at
the statement, since the sentences would show the name, code, in every language (#34)."""
from __future__ import annotations

from meeplang.cli import main
from meeplang.dsl.resolve import load_game
from meeplang.visualizer.prose import explain

GAME = """\
game: g
players: 2
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  earn: {en: Earn, fr: Gagner}
  die: {en: Die, fr: Dé}
counters:
  coins: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [earn], per_turn: 1, until: one_round}
actions:
  earn:
    effect: |
      roll d6 as die
      let doubled = die * 2
      for each p in players:
        gain doubled coins
scoring: {score: coins}
"""


def test_a_named_value_without_a_term_is_a_warning_at_its_statement(write_game, capsys):
    name = write_game(GAME)
    assert main(["check", name]) == 0
    err = capsys.readouterr().err.splitlines()
    # `die` has a term; `p` is one letter, a placeholder; `doubled` is shown as code
    assert err == ["g/game.yaml:15:7: warning: value 'doubled' has no term (en, fr): "
                   "explanations show it as 'doubled'"]
    assert main(["check", "--strict", name]) == 1


def test_with_its_term_the_value_is_said_in_words(write_game, capsys):
    name = write_game(GAME.replace("  die: {en: Die, fr: Dé}",
                                   "  die: {en: Die, fr: Dé}\n"
                                   "  doubled: {en: Double roll, fr: Double du dé}"))
    assert main(["check", "--strict", name]) == 0
    fr = explain(load_game(name), "fr")
    assert "Soit le double du dé : le dé × 2." in fr and "doubled" not in fr


def test_a_game_without_languages_is_not_asked_for_terms(write_game, capsys):
    text = GAME.replace("  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}\n"
                        "  earn: {en: Earn, fr: Gagner}\n  die: {en: Die, fr: Dé}\n", "")
    name = write_game(text.replace("terms:\n", ""))
    assert main(["check", name]) == 0
    assert "value 'doubled'" not in capsys.readouterr().err


def test_the_bundled_games_name_every_value_by_a_term():
    for game, variants in (("otys", ("advanced", "author", "solo")),
                           ("thesauros", ("lawless", "solo")),
                           ("endeavor-deep-sea", ("coop", "solo")), ("new-eden", ("solo",))):
        for v in (None, *variants):
            warned = [str(w) for w in load_game(game, v).warnings if "has no term" in str(w)]
            assert warned == [], (game, v)
    fr = explain(load_game("otys"), "fr")
    assert "Soit les types stockés :" in fr and "stocked" not in fr
