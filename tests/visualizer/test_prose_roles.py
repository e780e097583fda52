"""`set COUNTER to PLAYER`, where the counter holds a player (a role: "the player with the
Nautilus marker"), says that the player takes the role, never the role becoming the player:
reference sentences in both languages, and the two sentences of New Eden that read inverted
(FR l.225: the Nautilus holder chooses the row; FR l.253: the last bidder, the winner, chooses the
next one)."""
from __future__ import annotations

import pytest

from meeplang.dsl.parser import parse_block
from meeplang.dsl.resolve import load_game
from meeplang.visualizer.prose import Sentences, explain
from meeplang.visualizer.prose.sentences import role_counters
from tests.language.helpers import make_game

ROLES = """\
game: roles
players: 3
terms:
  coins: {en: Coins, fr: Pièces, en_grammar: pl, fr_grammar: f pl}
  leader: {en: Leader, fr: Meneur}
  chooser: {en: Player choosing the row, fr: Joueur qui choisit la ligne}
  round: {en: Round, fr: Manche, fr_grammar: f}
  total: {en: Total, fr: Total}
  bid: {en: Bid, fr: Enchérir}
  claim: {en: Claim, fr: Revendiquer}
counters:
  coins: {per: player, initial: 5}
  leader: {}                  # a role: set to `you` below
  chooser: {}                 # a role: read as who chooses
  total: {initial: 0}         # an amount
flow:
  - do: |
      set leader to 0
  - phase: round
    steps:
      - turns: {first: leader, actions: [bid, claim], per_turn: 1, until: one_round}
      - do: |
          set chooser to leader
          choose p in players by chooser
          set total to count(players)
actions:
  bid:
    effect: |
      pay 1 coins
  claim:
    effect: |
      set leader to you
scoring:
  score: coins
"""


@pytest.fixture
def game(tmp_path):
    return make_game(tmp_path, ROLES)


def said(game, lang: str, source: str) -> list[str]:
    return [line.text for line in Sentences(game, lang).block(parse_block(source))]


def test_the_counters_that_hold_a_player_are_found_by_their_use(game):
    # `leader`: set to `you` and starts the turns; `chooser`: chooses; `total`: an amount
    assert role_counters(game) == {"leader", "chooser"}


@pytest.mark.parametrize("source, fr, en", [
    # a role given to the holder of another role
    ("set chooser to leader", "Le meneur devient le joueur qui choisit la ligne.",
     "The leader becomes the player choosing the row."),
    # a role given to a seat: that player, by their number
    ("set leader to 0", "Le joueur 1 devient le meneur.", "Player 1 becomes the leader."),
    # a role given to a chosen player
    ("choose p in players\nset chooser to p",
     "Choisis p parmi les joueurs. | p devient le joueur qui choisit la ligne.",
     "Choose p from the players. | p becomes the player choosing the row."),
    # a role taken by you, as before
    ("set leader to you", "Tu deviens le meneur.", "You become the leader."),
    # an amount is still set to its value
    ("set total to 3", "Mets le total à 3.", "Set the total to 3."),
])
def test_reference_sentences_of_set(game, source, fr, en):
    assert " | ".join(said(game, "fr", source)) == fr
    assert " | ".join(said(game, "en", source)) == en


@pytest.fixture(scope="module")
def new_eden():
    game = load_game("new-eden")
    return {lang: explain(game, lang) for lang in ("en", "fr")}


def test_new_eden_the_nautilus_holder_chooses_the_row_fr_l225(new_eden):
    assert "Le joueur avec le marqueur Nautilus devient le joueur qui choisit la prochaine " \
           "ligne." in new_eden["fr"]
    assert "The player with the Nautilus marker becomes the player choosing the next row." \
        in new_eden["en"]
    assert "Le joueur qui choisit la prochaine ligne devient le joueur avec le marqueur" \
        not in new_eden["fr"]


def test_new_eden_the_winner_chooses_the_next_row_fr_l253(new_eden):
    assert "Le gagnant devient le joueur qui choisit la prochaine ligne." in new_eden["fr"]
    assert "The winner becomes the player choosing the next row." in new_eden["en"]
    assert "devient le gagnant" not in new_eden["fr"]
    assert "to the winner" not in new_eden["en"]


def test_new_eden_the_first_player_takes_the_nautilus_marker_by_number(new_eden):
    assert "Le joueur 1 devient le joueur avec le marqueur Nautilus." in new_eden["fr"]
    assert "Mets le joueur avec le marqueur Nautilus à 0" not in new_eden["fr"]
    assert "Player 1 becomes the player with the Nautilus marker." in new_eden["en"]
