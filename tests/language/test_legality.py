"""Legality derived from effects: an action is offered only if its effect can run to its end
(rehearsals, interpreter/rehearsal.py), `can(...)` in conditions, and free actions that would
leave an inner decision with nothing to choose."""
import pytest

from meeplang.dsl.errors import RuleError

from .helpers import make_game, play_labels, start

SHOP = """
game: shop
players: 1
counters:
  coins: {per: player, initial: 2, min: 0}
  goods: {per: player, initial: 0}
  penalties: {per: player, initial: 0}
zones:
  pile: {}
  hand: {per: player}
  market: {}
items:
  card: {count: 1, zone: pile}
  ware: {count: WARES, zone: market}
flow:
  - turns: {first: 0, actions: [buy, draw, trade, guarded, rest], per_turn: 1, until: one_round}
actions:
  buy:                                  # can pay only with 3 coins
    effect: |
      pay 3 coins
      gain 1 goods
  draw: {effect: move top(pile) to hand}
  trade:                                # an inner choice: needs a ware in the market
    effect: |
      choose w in market
      move w to hand
  guarded:                              # the author's `requires:` decides, no rehearsal
    requires: coins >= 2
    effect: gain 1 goods
  rest:
    effect: |
      if not can(buy) and not can(trade):    # "a player who cannot act loses 1"
        add 1 to penalties
scoring: {score: goods}
"""


def test_offered_only_if_the_effect_can_run_to_its_end(tmp_path):
    e = start(make_game(tmp_path, SHOP.replace("WARES", "0")), players=1)
    assert e.decision.labels == ["draw", "guarded", "rest"]      # cannot pay 3; no ware to choose
    e = start(make_game(tmp_path, SHOP.replace("WARES", "1").replace("initial: 2, min", "initial: 3, min"),
                        name="rich"), players=1)
    assert e.decision.labels == ["buy", "draw", "trade", "guarded", "rest"]


def test_the_pile_it_draws_from_must_not_be_empty(tmp_path):
    text = SHOP.replace("WARES", "0").replace("card: {count: 1", "card: {count: 0")
    e = start(make_game(tmp_path, text), players=1)
    assert "draw" not in e.decision.labels


def test_can_in_a_condition_is_the_same_question(tmp_path):
    game = make_game(tmp_path, SHOP.replace("WARES", "0"))
    e = play_labels(start(game, players=1), ["rest"])
    assert e.state["players"][0]["penalties"] == 1
    e = play_labels(start(make_game(tmp_path, SHOP.replace("WARES", "1"), name="one"), players=1),
                    ["rest"])
    assert e.state["players"][0]["penalties"] == 0                # trade can run


def test_a_rehearsal_leaves_the_game_as_it_was(tmp_path):
    game = make_game(tmp_path, SHOP.replace("WARES", "2"))
    e = start(game, players=1, seed=3)
    before = (repr(e.state), e.rng.getstate(), list(e.events))
    assert e.can("trade", 0, {}) and not e.can("buy", 0, {})
    assert (repr(e.state), e.rng.getstate(), list(e.events)) == before


def test_a_mistake_in_the_rules_is_reported_not_read_as_impossible(tmp_path):
    text = SHOP.replace("WARES", "1").replace("move w to hand", "move w to hand\n      gain w goods")
    with pytest.raises(RuleError, match="must be a whole number"):
        start(make_game(tmp_path, text), players=1)


FREE = """
game: free
players: 1
counters:
  burned: {per: player, initial: 0}
zones:
  tokens: {}
  ashes: {}
  hand: {per: player}
items:
  token: {count: TOKENS, zone: tokens}
flow:
  - turns: {first: 0, actions: [pick], free_actions: [burn], per_turn: 1, until: one_round}
actions:
  pick:
    effect: |
      choose t in tokens
      move t to hand
  burn:                                 # a free action that takes a token away
    effect: |
      move top(tokens) to ashes
      add 1 to burned
scoring: {score: 0}
"""


def test_a_free_action_that_would_empty_an_inner_choice_is_not_offered_there(tmp_path):
    e = start(make_game(tmp_path, FREE.replace("TOKENS", "1")), players=1)
    play_labels(e, ["pick"])                     # once burned, nothing would be left to choose
    assert e.decision.labels == ["token#1"]      # (it used to abort: "nothing is left to choose")
    e = start(make_game(tmp_path, FREE.replace("TOKENS", "2"), name="two"), players=1)
    play_labels(e, ["pick"])
    assert e.decision.labels == ["token#1", "token#2", "burn"]
    play_labels(e, ["burn"])
    assert e.decision.labels == ["token#2"]      # burning again would empty it
    play_labels(e, ["token#2"])
    assert e.decision is None and e.state["players"][0]["burned"] == 1
