"""Smaller constructs: list slices `L[a:b]`, `max`/`min` with a default for an empty list,
multiset helpers (`contains`, `fits_groups`), an item's home zone (`home(x)`), and an auction
whose bids may go beyond one's means with its bid history bound."""
import pytest

from meeplang.dsl.errors import ResolveError, RuleError, RuleSyntaxError
from meeplang.dsl.parser import parse_expression

from .helpers import make_game, play_labels, start

BAG = """
game: bag
players: [2, 2]
tables:
  cubes: [{type: plant}, {type: plant}, {type: metal}, {type: fuel}]
counters:
  result: {per: player, initial: 0}
  money: {per: player, initial: "[3, 5][you]", min: 0}
zones:
  supply: {}
  dig: {per: player}
  board: {}
items:
  cube: {from: cubes, zone: supply}
  pawn: {per: player, count: 1, zone: dig}
actions:
  take:
    effect: |
      move top(supply) to board
      move top(dig) to board
  back:
    effect: |
      for each x in board:
        move x to home(x)
  probe:
    choose: what in ["slice", "max", "min", "contains", "groups", "ungrouped"]
    effect: |
      let kinds = [x.type for x in supply]
      if what == "slice": set result to count(kinds[1:3]) * 10 + count(kinds[:-1])
      elif what == "max": set result to max([x.type == "gold" for x in supply if x.type == "gold"], 7)
      elif what == "min": set result to min([1 for x in board], 9)
      elif what == "contains": set result to (if contains(kinds, ["plant", "plant", "metal"]) and not contains(kinds, ["metal", "metal"]) then 1 else 0)
      elif what == "groups": set result to (if fits_groups(kinds, [2, 1]) and fits_groups(kinds, [1, 1, 1]) then 1 else 0)
      else: set result to (if fits_groups(["plant", "plant", "metal"], [1, 1, 1]) then 1 else 0)
  sell:
    effect: |
      auction among players paying money beyond means as winner, price, bids
      set result to count(bids) * 100 + price
flow:
  - turns: {first: 0, actions: [take, back, probe, sell], per_turn: 1, until: never}
scoring: {score: result}
"""


def _probe(tmp_path, what):
    e = start(make_game(tmp_path, BAG))
    play_labels(e, [f"probe {what}"])
    return e.state["players"][0]["result"]


@pytest.mark.parametrize("what, value", [
    ("slice", 2 * 10 + 3),      # kinds[1:3] holds 2 values, kinds[:-1] 3
    ("max", 7),                 # max of an empty list: the default
    ("min", 9),
    ("contains", 1),            # {plant, plant, metal} is in the bag, {metal, metal} is not
    ("groups", 1),              # 2-1 and 1-1-1 fit {plant, plant, metal, fuel}
    ("ungrouped", 0),           # 1-1-1 needs three different kinds: {plant, plant, metal} fails
])
def test_list_helpers(tmp_path, what, value):
    assert _probe(tmp_path, what) == value


def test_an_item_goes_back_to_its_home_zone(tmp_path):
    e = start(make_game(tmp_path, BAG))
    play_labels(e, ["take", "take"])
    assert e.state["zones"]["board"] == ["cube#1", "pawn#0.1", "cube#2", "pawn#1.1"]
    play_labels(e, ["back"])
    assert e.state["zones"]["board"] == []
    assert e.state["zones"]["supply"][-2:] == ["cube#1", "cube#2"]
    assert (e.state["zones"]["dig@0"], e.state["zones"]["dig@1"]) == (["pawn#0.1"], ["pawn#1.1"])


def test_an_auction_beyond_means_offers_bids_up_to_the_richest_and_binds_the_bids(tmp_path):
    e = start(make_game(tmp_path, BAG))
    play_labels(e, ["sell"])
    assert e.decision.labels == ["out", "1", "2", "3", "4", "5"]   # player 0 holds 3
    play_labels(e, ["4", "5", "out"])
    assert e.state["players"][0]["result"] == 2 * 100 + 5


def test_max_of_an_empty_list_without_default_stops_with_a_hint(tmp_path):
    e = start(make_game(tmp_path, BAG.replace('if x.type == "gold"], 7)', 'if x.type == "gold"])')))
    with pytest.raises(RuleError, match=r"max\(\): max\(\) of nothing \(give a default: "
                                        r"max\(L, 0\)\)"):
        play_labels(e, ["probe max"])


@pytest.mark.parametrize("old, new, error, message", [
    ("count(kinds[1:3])", 'count(kinds[1:"x"])', ResolveError,
     "a slice bound must be a number, but this is a string"),
    ("count(kinds[1:3])", "count(3[1:3])", ResolveError,
     "what is sliced must be a list, but this is a number"),
    ("count(kinds[1:3])", "count(kinds[1:3:4])", RuleSyntaxError, "unexpected"),
])
def test_misuse_is_a_positioned_error(tmp_path, old, new, error, message):
    with pytest.raises(error, match=r"g/game\.yaml:\d+:\d+: error: ") as info:
        make_game(tmp_path, BAG.replace(old, new))
    assert message in str(info.value)


def test_slices_print_back_as_written():
    from meeplang.dsl.ast import expr_source

    for text in ["L[1:2]", "L[:-1]", "L[a + 1:]", "L[:]"]:
        assert expr_source(parse_expression(text)) == text
