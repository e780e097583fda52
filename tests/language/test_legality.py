"""Legality derived from effects: an action is offered only if its effect can run to its end
(rehearsals, interpreter/rehearsal.py), `can(...)` in conditions, and free actions that would
leave an inner decision with nothing to choose."""
import pytest

from meeplang.dsl.errors import RuleError

from .helpers import cells, make_game, play_labels, start

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
  - turns: {first: 0, actions: [pick], free_actions: [burn], free_actions_at: any_time, per_turn: 1,
            until: one_round}
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


def test_a_rehearsal_that_draws_and_sets_fields_leaves_the_game_as_it_was(tmp_path):
    # each of the three paths shuffles, sets a field and moves a ware, then cannot pay: all put back
    text = SHOP.replace("WARES", "3").replace("zone: market}", "zone: market, fields: {sold: 0}}") \
        .replace("      move w to hand\n", "      shuffle market\n      set w.sold to 1\n"
                 "      move w to hand\n      pay 3 coins\n")
    e = start(make_game(tmp_path, text), players=1, seed=3)
    before = (repr(e.state), e.rng.getstate())
    assert not e.can("trade", 0, {})
    assert (repr(e.state), e.rng.getstate()) == before
    assert "trade" not in e.decision.labels
    assert [e.state["items"][f"ware#{i}"]["sold"] for i in (1, 2, 3)] == [0, 0, 0]



@pytest.mark.parametrize("moves", ["shuffle market\n", "move w to hand\n", "peek market\n",
                                   "shuffle market\n      move w to hand\n"])
def test_a_rehearsal_puts_back_what_it_moved_after_the_game_moved_on(tmp_path, moves):
    # the rehearsal of `trade` moves wares (or only shuffles or peeks), then cannot pay; in
    # between two of them the game itself moves a ware: each puts back the places of its own start
    text = SHOP.replace("WARES", "6").replace("[buy, draw, trade, guarded, rest], per_turn: 1",
                                              "[sell, trade], per_turn: 2") \
        .replace("      move w to hand\n", "      " + moves + "      pay 3 coins\n") \
        .replace("actions:\n", "actions:\n  sell: {effect: move top(market) to pile}\n", 1)
    e = start(make_game(tmp_path, text), players=1, seed=3)
    assert e.decision.labels == ["sell"]         # trade was rehearsed: it cannot pay
    play_labels(e, ["sell"])
    assert e.state["zones"]["market"] == [f"ware#{i}" for i in range(2, 7)]
    assert e.state["zones"]["pile"] == ["card#1", "ware#1"] and "known" not in e.state
    before = (repr(e.state), e.rng.getstate())
    assert not e.can("trade", 0, {})
    assert (repr(e.state), e.rng.getstate()) == before


GRID_SHOP = """
game: grid_shop
players: 1
counters:
  coins: {per: player, initial: 0, min: 0}
tables:
  cards: [{name: a}, {name: b}, {name: c}]
zones:
  deck: {}
  board: {grid: {rows: 2, columns: 2}, gravity: rows}
  taken: {}
items:
  card: {from: cards, zone: deck}
setup: |
  place top(deck) on board at 1, 1
  place top(deck) on board at 1, 2
  place top(deck) on board at 2, 1
flow:
  - turns: {first: 0, actions: [take, stop], until: never}
actions:
  take:                   # every path moves a card on or off the grid, then cannot pay
    choose: card in board
    effect: |
      MOVE
      pay 1 coins
  stop: {effect: end game}
scoring: {score: 0}
"""


@pytest.mark.parametrize("move", ["move card to taken", "place card on board at 2, 2"])
def test_a_rehearsal_puts_back_the_cells_of_a_grid(tmp_path, move):
    # taking c empties row 2, so gravity drops row 1: every cell changes, and all go back
    e = start(make_game(tmp_path, GRID_SHOP.replace("MOVE", move)), players=1)
    assert e.decision.labels == ["stop"]
    assert cells(e, "board") == {"a": (1, 1), "b": (1, 2), "c": (2, 1)}
    assert e.state["zones"]["board"] == ["card#1", "card#2", "card#3"]
    assert e.state["zones"]["taken"] == [] and len(e.state["cells"]) == 3


SPEND = """
game: spend
players: 1
counters:
  coins: {per: player, initial: 3, min: 0}
zones:
  shop: {}
  hand: {per: player}
items:
  gem: {count: 1, zone: shop, fields: {price: 3}}
formulas:
  budget(): coins
flow:
  - turns: {first: 0, actions: [pick], free_actions: [spend], free_actions_at: any_time, per_turn: 1,
            until: one_round}
actions:
  pick:
    effect: |
      choose g in shop where WHERE
      move g to hand
  spend:                                # a free action that changes only a counter
    effect: lose 1 coins
scoring: {score: 0}
"""


@pytest.mark.parametrize("where, offered", [("g.price <= coins", False),
                                            ("g.price <= budget()", False),
                                            ("g.price >= 1", True)])
def test_a_free_action_that_changes_only_counters_is_rehearsed_against_choices_that_read_them(
        tmp_path, where, offered):
    # the options of the first two read coins (directly, through a formula): spending one empties
    # them; the third's read no counter, so spending leaves them as they were
    e = start(make_game(tmp_path, SPEND.replace("WHERE", where)), players=1)
    play_labels(e, ["pick"])
    assert e.decision.labels == ["gem#1"] + (["spend"] if offered else [])


NESTED = """
game: nested
players: 1
counters:
  coins: {per: player, initial: COINS, min: 0}
  goods: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [shop, hire, rest], per_turn: 1, until: one_round}
actions:
  shop: {effect: do buy}                  # a plain `do` of an action that can fail half way
  hire: {effect: do guarded_hire}         # one that its `requires:` skips: never a failure
  buy:
    takes: []
    effect: |
      pay 2 coins
      gain 1 goods
  guarded_hire:
    takes: []
    requires: coins >= 1
    effect: gain 1 goods
  rest: {effect: gain 0 goods}
scoring: {score: goods}
"""


@pytest.mark.parametrize("coins, offered", [(0, ["hire", "rest"]), (2, ["shop", "hire", "rest"])])
def test_doing_a_named_action_that_can_fail_is_rehearsed(tmp_path, coins, offered):
    """The effect `do buy` can fail as `buy` can: its caller is rehearsed and offered only when
    the named action can run to its end (its `pay`); a `do` that `requires:` skips is no failure."""
    e = start(make_game(tmp_path, NESTED.replace("COINS", str(coins))), players=1)
    assert e.decision.labels == offered
