"""`auction ... opener must bid [if COND]`: an opener who may not drop out at its opening bid.

By default an auction's first bidder may answer `out` like anyone else (an opening of 0 that
takes no part). With `opener must bid` it bids 0 or more, and its bid leads: if every other
bidder drops out, it wins, at 0 if it opened at 0. Afterwards it raises or drops out like the
others."""
import pytest

from meeplang.dsl.ast import block_source
from meeplang.dsl.errors import ResolveError
from meeplang.dsl.parser import parse_block

from .helpers import make_game, play_labels, start

AUCTIONS = """
game: opener
players: [3, 3]
counters:
  coins: {per: player, initial: 5, min: 0}
  held: {initial: 0}
  won_by: {initial: -1}
  paid: {initial: -1}
flow:
  - repeat: 2
    steps:
      - do: |
          auction among players_from(1) paying coins as winner, price opener must bid WHEN
          add 1 to held
          if winner != none:
            winner pays price coins
            set won_by to winner
            set paid to price
scoring:
  score: coins
"""


def game(tmp_path, when=""):
    return make_game(tmp_path, AUCTIONS.replace(" WHEN", when))


def test_the_opener_is_not_offered_out_and_wins_at_zero_when_all_others_drop_out(tmp_path):
    e = start(game(tmp_path), players=3)
    assert e.decision.player == 1 and e.decision.labels == ["0", "1", "2", "3", "4", "5"]
    play_labels(e, ["0"])                        # its 0 is a bid: the others must beat it
    assert e.decision.player == 2 and e.decision.labels[:2] == ["out", "1"]
    play_labels(e, ["out", "out"])
    assert e.state["counters"]["won_by"] == 1 and e.state["counters"]["paid"] == 0


def test_after_its_opening_the_opener_may_drop_out_like_anyone(tmp_path):
    e = start(game(tmp_path), players=3)
    play_labels(e, ["0", "2", "out"])            # player 2 raises to 2, player 0 drops out
    assert e.decision.player == 1 and e.decision.labels == ["out", "3", "4", "5"]
    play_labels(e, ["out"])
    assert e.state["counters"]["won_by"] == 2 and e.state["counters"]["paid"] == 2


def test_an_opener_without_coins_opens_at_zero(tmp_path):
    text = AUCTIONS.replace(" WHEN", "").replace("initial: 5,", 'initial: "[5, 0, 5][you]",')
    e = start(make_game(tmp_path, text), players=3)
    assert e.decision.player == 1 and e.decision.labels == ["0"]


def test_the_condition_says_which_auctions_have_an_opener_who_must_bid(tmp_path):
    e = start(game(tmp_path, " if held > 0"), players=3)
    assert e.decision.labels[0] == "out"         # the first auction: the opener may pass
    play_labels(e, ["out", "out", "out"])
    assert e.state["counters"]["won_by"] == -1   # nobody bid: no winner
    assert e.decision.labels[0] == "0"           # the second: it may not
    play_labels(e, ["0", "out", "out"])
    assert e.state["counters"]["won_by"] == 1


def test_without_the_clause_an_opening_may_be_out(tmp_path):
    text = AUCTIONS.replace(" opener must bid WHEN", "")
    e = start(make_game(tmp_path, text), players=3)
    assert e.decision.labels[:2] == ["out", "1"]


def test_the_clause_is_printed_back_as_written():
    """The diagrams draw a block from its printed source: the clause is kept, `if true` left out."""
    for text in ("auction among players paying coins as w, p opener must bid if held > 0\n",
                 "auction among players paying coins as w, p ties to 0 opener must bid\n"):
        assert block_source(parse_block(text)) == text
    assert block_source(parse_block(
        "auction among players paying coins as w, p opener must bid if true\n")) == \
        "auction among players paying coins as w, p opener must bid\n"


def test_the_condition_must_be_true_or_false(tmp_path):
    with pytest.raises(ResolveError, match=r"g/game\.yaml:13:\d+: error: what follows `opener "
                                           r"must bid if` must be a condition, but this is a number"):
        game(tmp_path, " if held")
