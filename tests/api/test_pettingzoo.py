"""meeplang.pettingzoo: every bundled game passes PettingZoo's api_test, its action masks are over
stable action ids, and an environment plays the game `play` plays."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import meeplang  # noqa: E402
from meeplang.interpreter.choices import action_id  # noqa: E402
from meeplang.pettingzoo import env  # noqa: E402


def _api_test(e, cycles: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice (a Box observation...), not failures
        api_test(e, num_cycles=cycles)


@pytest.mark.parametrize("name", meeplang.games())
def test_api_test_passes_for_every_bundled_game(name):
    _api_test(env(name), 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", meeplang.games())
def test_api_test_passes_over_long_runs(name):
    game = meeplang.load(name)
    for variant in [None, *game.variants]:
        model = game.with_variant(variant).model if variant else game.model
        for players in sorted({model.min_players, model.max_players}):
            _api_test(env(name, variant, players=players), 200 if name in ("pig", "goofspiel")
                      else 20)


def _step_policy(e, agent):
    """Pig's "hold at 12" through the environment's own observation and info."""
    observation, _, done, _, info = e.last()
    if done:
        return None
    names = e.observation_names
    turn_total = observation["observation"][names.index("counters.turn_total")]
    by_label = {label: i for i, label in info["legal"].items()}
    if "stop" in by_label and turn_total >= 12:
        return by_label["stop"]
    return by_label.get("roll", by_label.get("stop"))


def test_an_environment_plays_the_game_play_plays():
    e = env("pig", players=2)
    e.reset(seed=9)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        e.step(_step_policy(e, agent))
        for a, r in e.rewards.items():
            rewards[a] += r

    def hold_at_12(choice):
        if "stop" in choice.labels and choice.view["counters"]["turn_total"] >= 12:
            return "stop"
        return "roll" if "roll" in choice.labels else "stop"

    result = meeplang.load("pig").play(players=2, seed=9, agents=[hold_at_12])
    assert e.state.log == result.log and e.agents == []
    winner = result.winners[0]
    assert rewards == {f"player_{p}": 1.0 if p == winner else -1.0 for p in range(2)}


def test_masks_are_over_stable_ids_and_illegal_actions_are_refused():
    e = env("pig", players=2, options={"target": 6})
    e.reset(seed=1)
    observation, *_ , info = e.last()
    legal = sorted(observation["action_mask"].nonzero()[0].tolist())
    assert legal == sorted([action_id("roll"), action_id("stop")])
    assert info["legal"] == {action_id("roll"): "roll", action_id("stop"): "stop"}
    other = [a for a in e.possible_agents if a != e.agent_selection][0]
    assert not e.observe(other)["action_mask"].any()
    before = e.state.log
    with pytest.raises(meeplang.MeeplangError, match="not legal here"):
        e.step(12345)
    assert e.state.log == before
    while "roll" in e.infos[e.agent_selection]["legal"].values():  # roll up to the target
        e.step(action_id("roll"))
    assert action_id("roll") not in e.observe(e.agent_selection)["action_mask"].nonzero()[0]


def test_the_observation_is_what_the_seat_sees():
    e = env("goofspiel", options={"num_cards": 4})
    e.reset(seed=2)
    names = e.observation_names
    mine = e.observe("player_0")["observation"]
    theirs = e.observe("player_1")["observation"]
    assert mine[names.index("seat")] == 0 and theirs[names.index("seat")] == 1
    assert mine[names.index("zones.hand@1")] == 4  # a hidden hand's size is seen
    assert list(mine[1:]) == list(theirs[1:])  # nothing else differs at the start


def test_bad_settings_are_refused():
    with pytest.raises(meeplang.MeeplangError, match="returns must be"):
        env("pig", returns="money")
    with pytest.raises(meeplang.MeeplangError, match="render_mode"):
        env("pig", render_mode="human")
    with pytest.raises(meeplang.MeeplangError, match="no game named"):
        env("no-such-game")
