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

    game = make_game(tmp_path, SHOP)
    text = re.sub(r"</FONT><BR/><FONT POINT-SIZE=\"10\">", " ",
                  dot_source(game, "actions", lang, text="rules"))
    assert word + "price g.price → g.maker, tax g.tax → bank, wrapping 1 (1 " in text
    assert word + "tip 4 → bank" in text
    prose = re.sub(r"</FONT><BR/><FONT POINT-SIZE=\"10\">", " ", dot_source(game, "actions", lang))
    said = {"en": "Price: 4 (tip) to the bank, paid from your purse", "fr": "Prix : 4 (tip) au "
            "bank, payé avec ton purse"}[lang]  # the test game has no terms: its keys
    assert said in prose


SOLO = """
game: solo
players: [1, 1]
automa: {name: rival, seats: 1, paid_into: bank}
tables:
  goods: [{name: lamp, price: 4, maker: 1}]
counters:
  coins: {per: player, initial: 10, min: 0}
  bank: {initial: 0}
zones:
  shelf: {}
items:
  good: {from: goods, zone: shelf}
actions:
  buy:
    choose: g in shelf
    cost:
      from: coins
      price: {amount: g.price, to: g.maker}     # the maker, whoever it is
      fee: {amount: 1, to: none}                # to the supply
    effect: end turn
  tip: {effect: "pay 2 from coins to 1"}
  stop: {effect: end game}
flow:
  - turns: {first: 0, actions: [buy, tip, stop], automa_actions: [stop], until: never}
scoring: {score: coins}
"""


@pytest.mark.parametrize("into, bank, rival", [("bank", 4, 10), ("none", 0, 10), (None, 0, 14)])
def test_what_is_paid_to_an_automa_goes_into_its_paid_into(tmp_path, into, bank, rival):
    text = SOLO if into == "bank" else SOLO.replace(
        "paid_into: bank", f"paid_into: {into}" if into else "doc: a rival")
    e = start(make_game(tmp_path, text), players=1)
    play_labels(e, ["buy good#1"])           # price 4 to the maker, the automa seat 1
    assert (_p(e, 0)["coins"], _p(e, 1)["coins"], e.state["counters"]["bank"]) == (5, rival, bank)


def test_a_pay_to_an_automa_seat_goes_into_its_paid_into_too(tmp_path):
    e = start(make_game(tmp_path, SOLO), players=1)
    play_labels(e, ["tip"])
    assert (_p(e, 0)["coins"], _p(e, 1)["coins"], e.state["counters"]["bank"]) == (8, 10, 2)


def test_a_variant_changes_one_payee(tmp_path):
    from meeplang.dsl.resolve import load_game

    make_game(tmp_path, SOLO, name="solo")
    (tmp_path / "solo" / "variants").mkdir()
    (tmp_path / "solo" / "variants" / "fee.yaml").write_text(
        "variant: fee\nextends: solo\nactions:\n  buy:\n    cost: {fee: {to: bank}}\n")
    e = start(load_game(str(tmp_path / "solo"), "fee"), players=1)
    play_labels(e, ["buy good#1"])           # the fee now goes to the bank; the price unchanged
    assert (_p(e, 0)["coins"], e.state["counters"]["bank"]) == (5, 5)


def test_paid_into_is_a_use_of_its_counter(tmp_path):
    """The bank only ever receives what is paid to the automa: it is used, not a stray counter."""
    assert [str(w) for w in make_game(tmp_path, SOLO).warnings] == []
    text = SOLO.replace("paid_into: bank", "paid_into: none")
    assert [w.message for w in make_game(tmp_path, text, name="out").warnings] == [
        "counter 'bank' is never used"]


@pytest.mark.parametrize("new, message", [
    ("paid_into: bnak", "unknown counter 'bnak'; did you mean 'bank'?"),
    ("paid_into: coins", "automa paid_into: 'coins' must be a counter of the game"),
])
def test_a_bad_paid_into_is_a_positioned_error(tmp_path, new, message):
    with pytest.raises(ResolveError, match=r"g/game\.yaml:4:\d+: error: ") as info:
        make_game(tmp_path, SOLO.replace("paid_into: bank", new))
    assert message in str(info.value)


@pytest.mark.parametrize("lang, word", [("en", "paid to the automa → bank"),
                                        ("fr", "payé à l'automa → bank")])
def test_turns_draw_where_the_automa_is_paid(tmp_path, lang, word):
    from meeplang.visualizer.dot import dot_source

    assert word in dot_source(make_game(tmp_path, SOLO), "phases", lang).replace("&#x27;", "'")
