"""Costs with parts and payees: `cost: {from: COUNTER, PART: AMOUNT or {amount, to}}`, discounts
that name a part, the family's automatic transfers, and actions whose price cannot be paid not
being offered."""
import pytest

from meeplang.dsl.errors import ResolveError, SchemaError
from meeplang.dsl.errors import UsageError

from .helpers import make_game, play_labels, start

SHOP = """
game: shop
players: [2, 2]
options:
  fee: {default: 1}
tables:
  goods: [{name: lamp, price: 4, tax: 1}, {name: boat, price: 9, tax: 2}]
counters:
  coins: {per: player, initial: 6, min: 0}
  purse:
    per: player
    each: [main, spare]
    initial: "if key == \\"main\\" then 2 else 5"
    min: 0
    transfer: {fee: fee, from: [spare], into: [main]}
  bank: {initial: 0}
zones:
  shelf: {}
items:
  good: {from: goods, zone: shelf, fields: {maker: 1}}
actions:
  buy:
    choose: g in shelf
    cost:
      from: coins
      price: {amount: g.price, to: g.maker}   # to the maker (a player)
      tax: {amount: g.tax, to: bank}           # to a counter
      wrapping: 1                              # to nobody: the supply
    discount: {price: 1}
    effect: end turn
  tip:
    cost:
      from: purse["main"]
      tip: {amount: 4, to: bank}
    effect: end turn
  stop: {effect: end game}
flow:
  - turns: {first: 0, actions: [buy, tip, stop], until: never}
scoring: {score: coins}
"""


def _p(e, seat):
    return e.state["players"][seat]


def test_each_part_goes_to_its_payee_and_the_discount_to_its_part(tmp_path):
    e = start(make_game(tmp_path, SHOP))
    assert e.decision.labels == ["buy good#1", "tip", "stop"]    # the boat: 8 + 2 + 1 > 6
    play_labels(e, ["buy good#1"])          # lamp: 4 - 1 to player 1, 1 to the bank, 1 away
    assert (_p(e, 0)["coins"], _p(e, 1)["coins"], e.state["counters"]["bank"]) == (1, 9, 1)


def test_a_part_paid_to_the_payer_costs_nothing(tmp_path):
    e = start(make_game(tmp_path, SHOP))
    play_labels(e, ["tip"])                   # player 0 tips; then player 1, the maker, buys
    assert e.decision.player == 1
    assert e.decision.labels == ["buy good#1", "buy good#2", "tip", "stop"]  # the boat: 2 + 1
    play_labels(e, ["buy good#2"])            # own boat: only the tax and the wrapping
    assert (_p(e, 1)["coins"], e.state["counters"]["bank"]) == (6 - 2 - 1, 4 + 2)


def test_a_price_from_a_family_member_uses_its_transfers(tmp_path):
    e = start(make_game(tmp_path, SHOP), options={"fee": 1})
    play_labels(e, ["tip"])                   # main 2: 2 more from spare, which pays a fee of 1
    assert (_p(e, 0)["purse[main]"], _p(e, 0)["purse[spare]"]) == (0, 5 - 2 - 1)
    e = start(make_game(tmp_path, SHOP), options={"fee": 4})
    assert e.decision.labels == ["buy good#1", "stop"]   # 2 + (5 - 4) < 4: no tip
    with pytest.raises(UsageError, match=r"tip is not allowed now: its cost \(.*game.yaml:\d+:\d+\)"
                                         r" is more than can be paid"):
        e.choose_label("tip")


@pytest.mark.parametrize("old, new, error, message", [
    ("      from: coins\n", "", SchemaError, "actions.buy.cost: 'from' is a required property"),
    ("discount: {price: 1}", "discount: {prize: 1}", ResolveError,
     "unknown cost part 'prize'; did you mean 'price'?"),
    ("      from: coins\n", "      from: g.price\n", ResolveError,
     "a cost is paid from a counter"),
    ("tax: {amount: g.tax, to: bank}", "tax: {to: bank}", SchemaError, "tax"),
    ("to: g.maker}", "to: shelf}", ResolveError, "who is paid must be a player, but this is a zone"),
])
def test_misuse_is_a_positioned_error(tmp_path, old, new, error, message):
    assert old in SHOP
    with pytest.raises(error, match=r"g/game\.yaml:\d+:\d+: error: ") as info:
        make_game(tmp_path, SHOP.replace(old, new))
    assert message in str(info.value)


@pytest.mark.parametrize("lang, word", [("en", "cost: "), ("fr", "coût : ")])
def test_action_boxes_draw_the_parts_payees_and_discounts(tmp_path, lang, word):
    from meeplang.visualizer.dot import dot_source

    import re

    text = re.sub(r"</FONT><BR/><FONT POINT-SIZE=\"10\">", " ",
                  dot_source(make_game(tmp_path, SHOP), "actions", lang))
    assert word + "price g.price → g.maker, tax g.tax → bank, wrapping 1 (1 " in text
    assert word + "tip 4 → bank" in text
