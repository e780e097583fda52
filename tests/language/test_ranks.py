"""`scoring: ranks:`: a table of titles by final score (a solo game's honour table), checked when
the game loads, given with the result and said by `meeplang explain`."""
from __future__ import annotations

import json

import pytest

from meeplang.cli import main
from meeplang.dsl.errors import MeeplangError
from meeplang.visualizer.prose import explain

from .helpers import make_game, play_labels, start

GAME = """
game: honours
players: 1
terms:
  points: {en: Points, fr: Points, fr_grammar: pl}
  score_points: {en: Score points, fr: Marquer des points}
  novice: {en: Novice, fr: Novice}
  adept: {en: Adept, fr: Adepte}
  master: {en: Master, fr: Maître}
counters:
  points: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [score_points], per_turn: 1, until: one_round}
actions:
  score_points:
    choose: n from 0 to 30
    effect: gain n points
scoring:
  score: points
  ranks: {RANKS}
"""
RANKS = "{0: novice, 10: adept, 20: master}"


def honours(tmp_path, ranks: str = RANKS):
    return make_game(tmp_path, GAME.replace("{RANKS}", ranks))


@pytest.mark.parametrize("points, title", [(0, "novice"), (9, "novice"), (10, "adept"),
                                           (19, "adept"), (20, "master"), (30, "master")])
def test_a_final_score_earns_the_title_of_the_highest_threshold_it_reaches(tmp_path, points, title):
    e = play_labels(start(honours(tmp_path), players=1), [f"score_points {points}"])
    assert e.result["scores"] == [points] and e.result["ranks"] == [title]


def test_a_score_below_the_first_threshold_has_no_title(tmp_path):
    e = play_labels(start(honours(tmp_path, "{5: adept}"), players=1), ["score_points 4"])
    assert e.result["ranks"] == [None]


def test_a_game_without_ranks_gives_none_in_its_result(tmp_path):
    game = make_game(tmp_path, GAME.replace("  ranks: {RANKS}\n", ""))
    e = play_labels(start(game, players=1), ["score_points 4"])
    assert "ranks" not in e.result


@pytest.mark.parametrize("ranks, message", [
    ("{0: novice, 20: adept, 10: master}", "go up, lowest first: 10 comes after 20"),
    ("{0: novice, 10: adept, 20: grandmaster}", "unknown term 'grandmaster'"),
    ("{0: novice, ten: adept}", "a whole number (a final score), not 'ten'"),
    ("[novice, adept]", "scoring.ranks must be a mapping"),
    ("{}", "maps final scores to terms")])
def test_the_checker_refuses_a_bad_table(tmp_path, ranks, message):
    with pytest.raises(MeeplangError) as err:
        honours(tmp_path, ranks)
    assert message in str(err.value) and err.value.pos.line == 20   # the `ranks:` line


def test_explain_says_the_table_in_english_and_french(tmp_path):
    game = honours(tmp_path)
    assert ("Your final score earns a title: “Novice” for 0 to 9, “Adept” for 10 to 19 or "
            "“Master” for 20 or more.") in explain(game, "en")
    assert ("Ton score final te vaut un titre : « Novice » de 0 à 9, « Adepte » de 10 à 19 ou "
            "« Maître » pour 20 ou plus.") in explain(game, "fr")


def test_play_shows_the_title(tmp_path, capsys):
    honours(tmp_path)
    folder = str(tmp_path / "g")
    assert main(["play", folder, "--players", "1", "--agents", "first"]) == 0
    assert "player 0 (first): 0 (Novice)" in capsys.readouterr().out
    assert main(["play", folder, "--players", "1", "--agents", "first", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ranks"] == ["novice"]
