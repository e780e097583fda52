"""Abilities declared on what grants them: `while_held:` on an item kind changes gains,
payments and use limits for the player holding one, and only while they hold it."""
import pytest

from meeplang.dsl.errors import MeeplangError

from .helpers import make_game, play_labels, start

ROLES = """
game: roles
players: 2
tables:
  roles:
    - {name: scholar, more_research: 1, rebate: 0, dives: 0}
    - {name: banker, more_research: 0, rebate: 2, dives: 0}
    - {name: captain, more_research: 0, rebate: 0, dives: 1}
counters:
  coins: {per: player, initial: 5, min: 0}
  research: {per: player, initial: 0}
zones:
  roles_box: {}
  roles_held: {per: player}
items:
  role:
    from: roles
    zone: roles_box
    while_held:
      bonus: {research: this.more_research}      # "when you gain research: gain 1 more"
      discount: {coins: this.rebate}             # "you pay 2 coins less"
      extra_limit: {dive: this.dives}            # "you may dive once more each turn"
flow:
  - turns: {first: 0, actions: [take, study, buy, dive], until: one_round}
actions:
  take:
    choose: r in roles_box
    effect: |
      move r to roles_held
  study: {effect: gain 2 research}
  buy:
    effect: |
      pay 3 coins
      end turn
  dive:
    limit: {times: 1, per: turn}
    effect: gain 0 research
scoring: {score: research}
"""


def role(e, name):
    return next(i for i, it in e.state["items"].items() if it.get("name") == name)


def test_held_items_change_gains_payments_and_limits(tmp_path):
    e = start(make_game(tmp_path, ROLES))
    me, other = e.state["players"]
    play_labels(e, ["study"])
    assert me["research"] == 2                       # no role yet
    play_labels(e, [f"take {role(e, 'scholar')}", "study"])
    assert me["research"] == 2 + 3                   # +1 on each gain while held
    play_labels(e, [f"take {role(e, 'banker')}", "buy"])
    assert me["coins"] == 5 - 1                      # pays 2 less
    play_labels(e, ["study"])
    assert other["research"] == 2                    # the other seat holds nothing


def test_extra_limit_while_held(tmp_path):
    e = start(make_game(tmp_path, ROLES))
    play_labels(e, ["dive"])
    assert "dive" not in e.decision.labels           # once per turn
    e = start(make_game(tmp_path, ROLES, name="captain"))
    play_labels(e, [f"take {role(e, 'captain')}", "dive"])
    assert "dive" in e.decision.labels               # the captain: once more
    play_labels(e, ["dive"])
    assert "dive" not in e.decision.labels


def test_only_while_held(tmp_path):
    e = start(make_game(tmp_path, ROLES.replace("move r to roles_held", "move r to roles_held\n      move r to roles_box")))
    play_labels(e, [f"take {role(e, 'scholar')}", "study"])
    assert e.state["players"][0]["research"] == 2    # given back at once: no bonus


def test_a_bonus_names_a_player_counter(tmp_path):
    with pytest.raises(MeeplangError, match="unknown player counter 'reserch'.*while_held bonus"):
        make_game(tmp_path, ROLES.replace("bonus: {research:", "bonus: {reserch:"))
    with pytest.raises(MeeplangError, match="extra_limit needs an action with a `limit:`"):
        make_game(tmp_path, ROLES.replace("extra_limit: {dive:", "extra_limit: {study:"), name="lim")


def test_the_report_shows_what_held_items_grant(tmp_path):
    from meeplang.visualizer.report import build_html
    game = make_game(tmp_path, ROLES)
    assert "on each gain of research" in build_html(game, "", lang="en")
    assert "à chaque paiement de coins" in build_html(game, "", lang="fr")
