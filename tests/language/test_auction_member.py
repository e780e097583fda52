"""`auction among PLAYERS paying FAMILY[KEY] ...`: an auction paid from one member of a counter
family ("bid from your Slush Fund", Thesauros EN l.1461, where the Slush Fund is one of five
accounts). The bids are bounded by that member only, never by the other members nor by what
the family's transfers could bring into it."""
import pytest

from meeplang.dsl.ast import block_source
from meeplang.dsl.errors import ResolveError
from meeplang.dsl.parser import parse_block

from .helpers import make_game, play_labels, start

FUND = """
game: fund
players: [2, 2]
tables:
  keys: [hr, sf]
  elsewhere: [me]
counters:
  accounts: {per: player, each: keys, initial: 'if key == "hr" then [9, 3][you] else [2, 4][you]', min: 0}
  won_by: {initial: -1}
  paid: {initial: -1}
flow:
  - do: |
      auction among players paying accounts[WHICH] BEYOND as winner, price
      if winner != none:
        pay price from winner.accounts["sf"]
        set won_by to winner
        set paid to price
scoring:
  score: 0
"""


def game(tmp_path, which='"sf"', beyond=""):
    return make_game(tmp_path, FUND.replace("WHICH", which).replace(" BEYOND", beyond))


def test_bids_are_bounded_by_the_member_paid_from(tmp_path):
    e = start(game(tmp_path), players=2)
    assert e.decision.player == 0 and e.decision.labels == ["out", "1", "2"]   # $2 in sf, $9 in hr
    play_labels(e, ["2"])
    assert e.decision.labels == ["out", "3", "4"]
    play_labels(e, ["4", "out"])
    assert (e.state["counters"]["won_by"], e.state["counters"]["paid"]) == (1, 4)
    assert e.state["players"][1]["accounts[sf]"] == 0 and e.state["players"][1]["accounts[hr]"] == 3


def test_beyond_means_reaches_what_the_richest_member_holds(tmp_path):
    e = start(game(tmp_path, beyond=" beyond means"), players=2)
    assert e.decision.labels == ["out", "1", "2", "3", "4"]     # the richest Slush Fund: $4


def test_the_key_may_be_computed_and_is_checked_when_the_auction_runs(tmp_path):
    e = start(game(tmp_path, which='keys[0]'), players=2)
    assert e.decision.labels[-1] == "9"                          # the HR member: $9
    with pytest.raises(Exception, match="accounts has no key 'me'"):
        start(game(tmp_path, which='elsewhere[0]'), players=2)


def test_a_family_needs_its_member_and_a_plain_counter_has_none(tmp_path):
    with pytest.raises(ResolveError, match=r"g/game\.yaml:\d+:\d+: error: counter 'accounts' is a "
                                           r"family: name the member paid from, e\.g\. accounts\['hr'\]"):
        make_game(tmp_path, FUND.replace("accounts[WHICH]", "accounts").replace(" BEYOND", ""))
    with pytest.raises(ResolveError, match=r"accounts has no key 'xx'"):
        game(tmp_path, which='"xx"')
    text = FUND.replace("paying accounts[WHICH]", 'paying won_by["sf"]').replace(" BEYOND", "")
    with pytest.raises(ResolveError, match="counter 'won_by' is not a family"):
        make_game(tmp_path, text)


def test_the_member_is_printed_back_as_written():
    text = 'auction among players paying accounts["sf"] beyond means as w, p, bids\n'
    assert block_source(parse_block(text)) == text
