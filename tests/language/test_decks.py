"""Deck operations declared on zones: `refill_from:` (a row kept full from a deck) and
`recycle:` (an empty bag takes back its discards, shuffled), plus `peek` to search a deck."""
import pytest

from meeplang.dsl.errors import MeeplangError

from .helpers import make_game, play_labels, start

ROW = """
game: t
players: [2, 3]
tables:
  slots: {2: 2, 3: 3}
zones:
  bag: {visibility: hidden, recycle: discard}
  row: {capacity: "by_players(slots)", refill_from: bag}
  discard: {}
  hand: {per: player}
items:
  token: {count: 4, zone: bag}
flow:
  - turns: {first: 0, actions: [take, burn], per_turn: 1, until: never}
actions:
  take:
    choose: t in row
    effect: move t to hand
  burn:
    choose: t in row
    effect: |
      move t to discard
      deal 1 from bag to hand
scoring: {score: count(hand)}
"""


def test_a_row_is_kept_full_from_its_source(tmp_path):
    e = start(make_game(tmp_path, ROW), players=2)
    assert e.state["zones"]["row"] == ["token#1", "token#2"]     # filled after setup
    play_labels(e, ["take token#1"])
    assert e.state["zones"]["row"] == ["token#2", "token#3"]     # at once, from the top
    assert start(make_game(tmp_path, ROW, name="three"), players=3).state["zones"]["row"] == [
        "token#1", "token#2", "token#3"]


def test_an_empty_bag_takes_back_its_discards_shuffled(tmp_path):
    e = start(make_game(tmp_path, ROW), players=2)
    play_labels(e, ["take token#1", "take token#2"])           # bag: token#4
    play_labels(e, ["burn token#3"])           # the bag is empty: the discard goes back first
    assert e.state["zones"]["hand@0"] == ["token#1", "token#3"]
    assert e.state["zones"]["row"] == ["token#4"]               # nothing left to refill it
    assert e.state["zones"]["discard"] == [] and e.state["zones"]["bag"] == []
    assert any(ev.get("event") == "shuffle" and ev["zone"] == "bag" for ev in e.events)


def test_dealing_more_than_a_bag_and_its_discards_hold_is_not_possible(tmp_path):
    e = start(make_game(tmp_path, ROW.replace("deal 1 from bag", "deal 9 from bag")), players=2)
    assert e.decision.labels == ["take token#1", "take token#2"]  # burn could not deal 9
    with pytest.raises(MeeplangError, match="not a legal way to burn"):
        play_labels(e, ["burn token#1"])


@pytest.mark.parametrize("bad, message", [
    ("row: {refill_from: bag}", "refill_from needs a `capacity:`"),
    ("row: {capacity: 2, refill_from: bog}", "unknown zone 'bog'; did you mean 'bag'?"),
    ("row: {capacity: 2, recycle: row}", "recycle: 'row' must be another single zone"),
])
def test_deck_link_errors_are_positioned(tmp_path, bad, message):
    text = f"game: t\nplayers: 1\nzones:\n  bag: {{}}\n  {bad}\nflow: [{{do: 'shuffle bag'}}]\n" \
           "scoring: {score: count(row)}\n"
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, text)
    assert message in str(err.value) and err.value.pos.line == 5
