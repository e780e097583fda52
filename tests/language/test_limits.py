"""Use limits: several on one action (`limit:` takes a list), shared by all players
(`shared: true`), and `uses(action, period)` reading the count of a named period."""
import pytest

from meeplang.dsl.errors import ResolveError, RuleError, UsageError

from .helpers import make_game, play_labels, start

LIMITS = """
game: limits
players: [2, 2]
counters:
  gold: {per: player, initial: 0}
  last_price: {per: player, initial: 0}
flow:
  - repeat: 3
    steps:
      - phase: round
        steps:
          - turns: {first: 0, actions: [dig, claim, done], until: all_passed}
actions:
  dig:                               # twice a round, three times in the game
    limit: [{times: 2, per: round}, {times: 3, per: game}]
    effect: |
      gain 1 gold
      set last_price to uses("dig", "round") * 10 + uses("dig", "game")
      end turn
  claim:                             # once a round among all players
    limit: {times: 1, per: round, shared: true}
    effect: end turn
  done: {effect: pass}
scoring: {score: gold}
"""


def test_every_limit_of_an_action_applies_and_uses_reads_a_named_period(tmp_path):
    e = start(make_game(tmp_path, LIMITS))
    play_labels(e, ["dig", "done", "dig"])
    assert e.state["players"][0]["last_price"] == 22      # 2nd use this round, 2nd this game
    assert e.decision.labels == ["claim", "done"]          # the round's two digs are used
    with pytest.raises(UsageError, match="dig is not allowed now: it was used 2 times this round "
                                         r"\(at most 2\)"):
        e.choose_label("dig")
    play_labels(e, ["done"])                                # round 2
    play_labels(e, ["dig"])
    assert e.state["players"][0]["last_price"] == 13
    assert e.decision.labels == ["dig", "claim", "done"]   # player 1 has used none
    play_labels(e, ["done"])
    assert e.decision.labels == ["claim", "done"]          # 3 in the game: no more digs


def test_a_shared_limit_counts_every_players_uses(tmp_path):
    e = start(make_game(tmp_path, LIMITS))
    play_labels(e, ["claim"])
    assert e.decision.player == 1 and e.decision.labels == ["dig", "done"]
    with pytest.raises(UsageError, match="claim is not allowed now: it was used 1 times this "
                                         "round by all players together"):
        e.choose_label("claim")
    play_labels(e, ["done", "done"])                        # a new round: claim again
    assert "claim" in e.decision.labels


def test_uses_without_a_period_reads_the_first_limit(tmp_path):
    game = make_game(tmp_path, LIMITS.replace('uses("dig", "round") * 10', 'uses("dig") * 10'))
    e = start(game)
    play_labels(e, ["dig"])
    assert e.state["players"][0]["last_price"] == 11


@pytest.mark.parametrize("old, new, message", [
    ("per: round, shared", "per: rund, shared", "unknown period 'rund'; did you mean 'round'?"),
    ("{times: 3, per: game}", "{times: 3, per: round}", "dig: two limits for the same period"),
    ("shared: true}", "shared: yes_please}", "limit.shared must be true or false, not a string"),
])
def test_misuse_is_a_positioned_error(tmp_path, old, new, message):
    assert old in LIMITS
    with pytest.raises(Exception, match=r"g/game\.yaml:\d+:\d+: error: ") as info:
        make_game(tmp_path, LIMITS.replace(old, new))
    assert message in str(info.value)


def test_uses_of_a_period_the_action_does_not_limit_stops_at_the_rule(tmp_path):
    e = start(make_game(tmp_path, LIMITS.replace('uses("dig", "game")', 'uses("dig", "turn")')))
    with pytest.raises(RuleError, match=r"uses\(\): dig has no limit per turn \(its limits are "
                                        r"per round, game\)"):
        play_labels(e, ["dig"])


def test_action_boxes_draw_the_limits(tmp_path):
    from meeplang.visualizer.dot import dot_source

    text = dot_source(make_game(tmp_path, LIMITS), "actions", "en")
    assert "at most 2 per round" in text and "at most 1 per round (shared)" in text
    assert "au plus 3 par game" in dot_source(make_game(tmp_path, LIMITS), "actions", "fr")


UNDER_AN_OPTION = """
game: bonus
players: [2, 2]
options:
  bonus_per: {default: phase, doc: "auction: one more move after each won auction; phase: once per phase"}
counters: {moves: {per: player, initial: 0}}
flow:
  - repeat: 2
    steps:
      - phase: auctions
        steps:
          - turns: {first: 0, actions: [win, done], until: all_passed}
actions:
  win:
    effect: |
      may do extra
      end turn
  extra:
    limit: {times: 1, per: auctions, if: 'bonus_per == "phase"'}
    effect: gain 1 moves
  done: {effect: pass}
scoring: {score: moves}
"""


@pytest.mark.parametrize("bonus_per, offered", [("phase", ["win", "done"]),
                                                ("auction", ["extra", "skip"])])
def test_a_limit_with_if_applies_only_while_its_condition_holds(tmp_path, bonus_per, offered):
    e = start(make_game(tmp_path, UNDER_AN_OPTION), options={"bonus_per": bonus_per})
    play_labels(e, ["win", "extra", "done", "win"])     # the first won auction: one more move
    assert e.state["players"][0]["moves"] == 1
    assert e.decision.labels == offered                 # the second: only without the limit
    if bonus_per == "phase":
        play_labels(e, ["done", "done"])                # a new phase: the limit starts again
        play_labels(e, ["win"])
        assert e.decision.labels == ["extra", "skip"]


@pytest.mark.parametrize("old, new, message", [
    ("""if: 'bonus_per == "phase"'""", "if: 'player_count + 1'",
     "a limit's `if:` must be a condition"),
    ("""if: 'bonus_per == "phase"'""", "if: 'bonus_pr == 1'",
     "unknown name 'bonus_pr'; did you mean 'bonus_per'?"),
    ("""if: 'bonus_per == "phase"'""", "if: [phase]", "limit.if must be string or boolean, not a list"),
    ("{times: 1,", "{times: -1,", "a use limit is a number of times, 0 or more, not -1"),
])
def test_a_bad_limit_is_a_positioned_error(tmp_path, old, new, message):
    assert old in UNDER_AN_OPTION
    with pytest.raises(Exception, match=r"g/game\.yaml:19:\d+: error: ") as info:
        make_game(tmp_path, UNDER_AN_OPTION.replace(old, new))
    assert message in str(info.value)


def test_a_limit_under_a_condition_is_said_and_drawn_with_it(tmp_path):
    from meeplang.visualizer.dot import dot_source
    from meeplang.visualizer.prose import explain

    game = make_game(tmp_path, UNDER_AN_OPTION.replace(
        "  win:\n", "  win:\n    limit: {times: 2, per: game, if: 'player_count == 2'}\n"))
    assert "at most 2 per game, if player_count == 2" in dot_source(game, "actions", "en",
                                                                     text="rules")
    drawn = dot_source(game, "actions", "fr")   # on two lines in the box
    assert "au plus 2 par game, si le nombre de</FONT>" in drawn and ">joueurs vaut 2<" in drawn
    said = explain(game, "fr")
    assert "Au plus une fois par phase « auctions », si l'option « bonus per » est « phase »." in said
    assert "At most once per phase “auctions”, if option “bonus per” is “phase”." in explain(game, "en")


PER_TURN = """
game: per_turn
players: 2
counters:
  n: {initial: PER}
  gold: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [dig, done], per_turn: N, until: all_passed}
actions:
  dig: {effect: gain 1 gold}
  done: {effect: pass}
scoring: {score: gold}
"""


@pytest.mark.parametrize("n", ["0", "-1"])
def test_a_turn_of_no_action_is_refused_where_it_is_said(tmp_path, n):
    # per_turn 0 used to play as 1 (the count is checked after each action): say so instead
    with pytest.raises(ResolveError) as info:
        make_game(tmp_path, PER_TURN.replace("PER", "1").replace("N", n))
    assert f"error: a turn has at least 1 action: per_turn is {n}" in str(info.value)
    assert ":8:55:" in str(info.value)


def test_a_turn_of_no_action_computed_in_play_stops_at_the_rule(tmp_path):
    e_game = make_game(tmp_path, PER_TURN.replace("PER", "0").replace("N", "n"))
    with pytest.raises(RuleError, match=r":8:55: error: a turn has at least 1 action: "
                                        r"per_turn is 0"):
        start(e_game)


def test_per_turn_counts_the_main_actions_of_each_turn(tmp_path):
    e = start(make_game(tmp_path, PER_TURN.replace("PER", "2").replace("N", "n")))
    play_labels(e, ["dig", "dig"])
    assert e.decision.player == 1
