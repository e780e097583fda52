"""When free actions are offered (`free_actions_at:` on a `turns` step or a phase): between
actions by default, where no rule is half done (Endeavor FR l.336-337 « résolvez chaque action
entièrement », l.594-596 tokens « avant et/ou après [...] ou même entre les actions »), or at
any time (New Eden FR l.168 « à tout moment de ton tour », l.215 « à tout moment de cette
phase »)."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import MeeplangError

from .helpers import make_game, play_labels, start

TURNS = """
game: between
players: 2
counters:
  coins: {per: player, initial: 0}
  tips: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [work], free_actions: [tip], per_turn: 1, free_after_last: true,
            until: one_round AT}
actions:
  work:                                 # one action: a choice of its own, then two others
    effect: |
      choose n from 1 to 2
      gain n coins
      may do bonus
      do chore
  bonus:
    effect: |
      choose m from 1 to 2
      gain m coins
  chore: {effect: gain 1 coins}
  tip: {effect: gain 1 tips}
triggers:
  thanks:                               # what the action sets off is part of it
    when: after bonus
    effect: |
      choose k from 1 to 2
      gain k coins
scoring: {score: coins}
"""


def test_by_default_free_actions_wait_for_the_actions_to_be_resolved(tmp_path):
    e = start(make_game(tmp_path, TURNS.replace(" AT", "")))
    assert e.decision.labels == ["work", "tip"]               # the turn chooses its action
    play_labels(e, ["work"])
    assert e.decision.labels == ["1", "2"]                    # inside it: not offered
    play_labels(e, ["1"])
    assert e.decision.labels == ["bonus", "skip", "tip"]      # between `work`'s actions
    play_labels(e, ["tip", "bonus"])
    assert e.decision.labels == ["1", "2"]                    # inside `bonus`
    play_labels(e, ["1"])
    assert e.decision.labels == ["1", "2"]                    # its after-trigger: still inside
    play_labels(e, ["1"])
    assert e.decision.labels == ["tip", "end turn"]           # after the last action
    play_labels(e, ["tip", "end turn"])
    assert e.decision.player == 1
    assert e.state["players"][0] == {"coins": 1 + 1 + 1 + 1, "tips": 2}


def test_at_any_time_they_are_offered_inside_actions_too(tmp_path):
    e = start(make_game(tmp_path, TURNS.replace(" AT", ", free_actions_at: any_time")))
    play_labels(e, ["work"])
    assert e.decision.labels == ["1", "2", "tip"]
    play_labels(e, ["tip", "1", "bonus"])
    assert e.decision.labels == ["1", "2", "tip"]             # inside `bonus`
    play_labels(e, ["1"])
    assert e.decision.labels == ["1", "2", "tip"]             # the trigger (not a forced one)
    assert e.state["players"][0]["tips"] == 1


PHASE = """
game: phase
players: 2
counters:
  coins: {per: player, initial: 0}
  tips: {per: player, initial: 0}
flow:
  - phase: market
    free_actions: [tip] AT
    steps:
      - do: |
          for each p in players:
            do trade for p
          secretly each player chooses bid from 0 to 1
actions:
  trade:
    effect: |
      choose n from 1 to 2
      gain n coins
  tip: {effect: gain 1 tips}
scoring: {score: coins}
"""


def test_a_phase_offers_them_at_the_decisions_of_its_steps_not_inside_an_action(tmp_path):
    e = start(make_game(tmp_path, PHASE.replace(" AT", "")))
    assert (e.decision.player, e.decision.labels) == (0, ["1", "2"])   # inside `trade`
    play_labels(e, ["1", "2"])
    assert e.decision.labels == ["0", "1", "tip"]             # a choice the flow itself asks
    play_labels(e, ["tip", "0"])
    assert e.decision.labels == ["0", "1", "tip"]             # every player's
    play_labels(e, ["1"])
    assert e.decision is None and [p["tips"] for p in e.state["players"]] == [1, 0]


def test_a_phase_at_any_time_offers_them_inside_actions(tmp_path):
    e = start(make_game(tmp_path, PHASE.replace(" AT", "\n    free_actions_at: any_time")))
    assert e.decision.labels == ["1", "2", "tip"]


@pytest.mark.parametrize("text, message", [
    (TURNS.replace(" AT", ", free_actions_at: always"), "free_actions_at"),
    (PHASE.replace("    free_actions: [tip] AT\n", "    free_actions_at: any_time\n"),
     "free_actions_at says when free actions are offered, but this step has no free_actions"),
])
def test_free_actions_at_is_checked(tmp_path, text, message):
    with pytest.raises(MeeplangError, match=message) as info:
        make_game(tmp_path, text)
    assert info.value.pos is not None and info.value.pos.line > 0
