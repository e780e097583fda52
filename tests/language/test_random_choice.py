"""`choose name in LIST at random`: chance picks one value ("determine the first player at random",
Endeavor FR l.113-114) from the game's seeded random source, so a seed gives the same pick, the
picks cover the list, and the log records the pick."""
import pytest

from meeplang.dsl.errors import ResolveError
from meeplang.dsl.ast import block_source
from meeplang.dsl.parser import parse_block

from .helpers import make_game, start

FIRST = """
game: first
players: [2, 5]
counters:
  first_player: {initial: 0}
  score: {per: player, initial: 0}
setup: |
  choose first in players at random
  set first_player to first
flow:
  - turns: {first: first_player, actions: [win], per_turn: 1, until: all_passed}
actions:
  win: {effect: "gain 1 score\\npass"}
scoring:
  score: score
"""


def test_the_pick_is_seeded_and_covers_the_list(tmp_path):
    g = make_game(tmp_path, FIRST)
    picks = {seed: start(g, 4, seed).state["counters"]["first_player"] for seed in range(40)}
    assert set(picks.values()) == {0, 1, 2, 3}
    assert all(start(g, 4, seed).state["counters"]["first_player"] == p for seed, p in picks.items())
    e = start(g, 4, 3)
    assert e.decision.player == picks[3]                          # the turns start there
    assert [ev["value"] for ev in e.events if ev["event"] == "random"] == [picks[3]]


def test_it_needs_a_list(tmp_path):
    with pytest.raises(ResolveError, match="what is chosen at random"):
        make_game(tmp_path, FIRST.replace("in players at random", "in 3 at random"))


def test_it_reads_back_as_written():
    text = "choose first in players at random"
    assert block_source(parse_block(text + "\n")).strip() == text
