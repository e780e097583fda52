"""Visibility per item: `visible_to:` on an item kind, `peek`, a secret choice among some
players, and neutral labels for a choice among items the chooser cannot see."""
import pytest

from meeplang.dsl.errors import MeeplangError

from .helpers import make_game, play_labels, start

CARDS = """
game: t
players: 3
zones:
  deck: {visibility: hidden}
  vault: {per: player, visibility: hidden}
  hand: {per: player, visibility: owner}
items:
  card: {count: 4, zone: deck, fields: {value: n, marked: false},
         visible_to: "item.marked or viewer == item.owner or viewer == key"}
  gem: {per: player, count: 1, zone: vault, visible_to: "viewer == item.owner"}
setup: |
  set deck[0].marked to true
flow:
  - turns: {first: 0, actions: [blind_draw, look, done], per_turn: 1, until: one_round}
actions:
  blind_draw:
    choose: c in deck
    effect: move c to hand
  look:
    effect: |
      peek top(deck, 2)
      choose c in deck
      move c to hand
      shuffle deck
  done: {effect: end turn}
scoring: {score: count(hand)}
"""


def test_visible_to_shows_an_item_its_zone_hides(tmp_path):
    e = start(make_game(tmp_path, CARDS), players=3)
    # card#1 is marked: everyone sees it; the rest of the deck is hidden; a gem only to its owner
    assert e.view(1)["zones"]["deck"] == ["card#1", "?", "?", "?"]
    assert e.view(1)["zones"]["vault@1"] == ["gem#1.1"] and e.view(0)["zones"]["vault@1"] == ["?"]
    assert "gem#1.1" not in e.view(0)["items"] and "card#2" not in e.view(0)["items"]


def test_a_blind_choice_shows_the_zone_and_place_not_the_item(tmp_path):
    e = start(make_game(tmp_path, CARDS), players=3)
    assert e.decision.labels == ["blind_draw card#1", "blind_draw deck 2", "blind_draw deck 3",
                                 "blind_draw deck 4", "look", "done"]
    play_labels(e, ["blind_draw deck 3"])
    assert e.state["zones"]["hand@0"] == ["card#3"]


def test_peek_shows_items_until_they_are_shuffled(tmp_path):
    e = start(make_game(tmp_path, CARDS), players=3)
    play_labels(e, ["done", "look"])          # seat 1 peeks at the top two, then chooses
    assert e.decision.labels == ["card#1", "card#2", "deck 3", "deck 4"]
    assert e.view(1)["zones"]["deck"] == ["card#1", "card#2", "?", "?"]
    assert e.view(2)["zones"]["deck"] == ["card#1", "?", "?", "?"]   # a peek is the peeker's
    play_labels(e, ["card#2"])                # then the deck is shuffled: the peek is over
    assert e.view(1)["zones"]["deck"].count("?") == 2


SECRET = """
game: t
players: 3
tables:
  posted: [true, false, true]
counters:
  coins: {per: player, initial: 5}
flow:
  - do: |
      secretly each p in [q for q in players if posted[q]] chooses bid from 1 to p.coins
      for each p in players:
        if bid[p] != none:
          p pays bid[p] coins
scoring: {score: coins}
"""


def test_a_secret_choice_among_some_players(tmp_path):
    e = start(make_game(tmp_path, SECRET), players=3)
    assert e.decision.secret and e.decision.player == 0
    play_labels(e, ["2"])
    assert e.decision.player == 2             # seat 1 did not post: not asked
    play_labels(e, ["5"])
    assert e.result["scores"] == [3, 5, 0]


@pytest.mark.parametrize("bad, message", [
    ("secretly each p in 3 chooses x from 1 to 2", "the players who choose must be a list"),
    ("peek 1 by deck", "who looks must be a player"),
])
def test_visibility_errors_are_positioned(tmp_path, bad, message):
    text = f"game: t\nplayers: 1\nzones: {{deck: {{}}}}\nflow: [{{do: '{bad}'}}]\nscoring: {{score: 0}}\n"
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, text)
    assert message in str(err.value) and err.value.pos.line == 4


def test_visible_to_is_checked(tmp_path):
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, """
            game: t
            players: 1
            zones: {deck: {visibility: hidden}}
            items: {card: {count: 1, zone: deck, visible_to: "viewer == owner_of(item)"}}
            flow: [{do: 'shuffle deck'}]
            scoring: {score: 0}
            """)
    assert "unknown function 'owner_of'" in str(err.value) and err.value.pos.line == 5
