"""`free_turn: true`: free actions may be the whole turn (`end turn` once one is taken, even
when a main action is legal)."""
from .helpers import make_game, play_labels, start

GAME = """
game: freeturn
players: 2
counters:
  coins: {per: player, initial: 0}
  dives: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [work], free_actions: [dive], per_turn: 1, until: one_round
            FREE_TURN}
actions:
  work: {effect: gain 1 coins}
  dive:
    limit: {times: 1, per: turn}
    effect: add 1 to dives
scoring: {score: coins}
"""


def test_a_free_action_may_be_the_whole_turn(tmp_path):
    e = start(make_game(tmp_path, GAME.replace("FREE_TURN", ", free_turn: true")))
    assert e.decision.labels == ["work", "dive"]          # nothing taken yet: no `end turn`
    play_labels(e, ["dive"])
    assert e.decision.labels == ["work", "end turn"]      # the dive may have been the turn
    play_labels(e, ["end turn"])
    assert e.decision.player == 1
    assert [(p["coins"], p["dives"]) for p in e.state["players"]] == [(0, 1), (0, 0)]


def test_without_it_a_legal_main_action_must_follow(tmp_path):
    e = start(make_game(tmp_path, GAME.replace("FREE_TURN", "")))
    play_labels(e, ["dive"])
    assert e.decision.labels == ["work"]
