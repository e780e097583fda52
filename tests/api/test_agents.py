"""Agents of your own (functions, objects, classes) play in `play` and `simulate`, locally and on
worker processes, deterministically; one that cannot be sent or answers wrong is told so."""
from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

import meeplang

ROOT = Path(__file__).resolve().parents[2]


class Gambler:
    """Ten lines: rolls with a probability of its own, seeded by reset (so it is deterministic)."""

    name = "gambler"

    def reset(self, seat, seed):
        self.seat, self.rng = seat, random.Random(seed)

    def __call__(self, choice):
        assert choice.player == self.seat
        if "stop" in choice.labels and self.rng.random() < 0.3:
            return "stop"
        return choice.options[0]


def first_label(choice):
    return choice.labels[0]


def test_an_agent_of_your_own_plays_in_play_and_is_deterministic():
    pig = meeplang.load("pig")
    a = pig.play(players=3, seed=2, agents=[Gambler(), "random", Gambler])
    b = pig.play(players=3, seed=2, agents=[Gambler(), "random", Gambler])
    assert a.log == b.log and a.decisions > 3
    stops = [e for e in a.log if e["event"] == "decision" and e["option"] == "stop"]
    assert stops  # it did choose, not only the first option
    first = pig.play(players=2, seed=2, agents=[first_label])
    assert first.log == pig.play(players=2, seed=2, agents="first").log


def test_an_agent_object_is_copied_per_seat_and_game():
    """One object for both seats, over several games: each seat's copy starts fresh."""
    seen = []

    class Counter:
        calls = 0

        def __call__(self, choice):
            self.calls += 1
            seen.append((choice.player, self.calls))
            return choice.options[0]

    agent = Counter()
    meeplang.load("goofspiel").play(players=2, seed=1, agents=[agent])
    assert agent.calls == 0  # the object given is never played itself
    assert [c for p, c in seen if p == 0] == list(range(1, 14))
    assert [c for p, c in seen if p == 1] == list(range(1, 14))


def test_simulate_with_agents_of_your_own_on_two_workers_gives_the_serial_records():
    pig = meeplang.load("pig")
    parallel = pig.simulate(n=12, players=2, seed=3, agents=[Gambler(), "random"], jobs=2)
    serial = pig.simulate(n=12, players=2, seed=3, agents=[Gambler, "random"], jobs=1)
    assert parallel.records == serial.records
    assert parallel.summary["win_rates"] == serial.summary["win_rates"]


def test_an_agent_that_cannot_be_sent_to_workers_is_refused_clearly():
    pig = meeplang.load("pig")
    with pytest.raises(meeplang.MeeplangError, match=r"agent <lambda> cannot be sent to worker "
                       r"processes .*top level of a module.*jobs=1"):
        pig.simulate(n=4, players=2, agents=[lambda choice: 0], jobs=2)
    assert pig.simulate(n=2, players=2, agents=[lambda choice: 0], jobs=1).summary["games"] == 2


def test_a_wrong_answer_or_agent_is_a_clear_error():
    pig = meeplang.load("pig")
    with pytest.raises(meeplang.MeeplangError, match=r"agent liar \(seat 0\) answered 'fly': "
                       "'fly' is not one of the options; legal: roll, stop"):
        def liar(choice):
            return "fly"
        pig.play(players=2, agents=[liar])
    with pytest.raises(meeplang.MeeplangError, match="not callable"):
        pig.play(players=2, agents=[42])
    with pytest.raises(meeplang.MeeplangError, match="unknown agent 'genius'"):
        pig.simulate(n=2, players=2, agents=["genius"], jobs=2)


def test_the_example_agent_plays_against_mcts():
    path = ROOT / "examples" / "hold_at_20.py"
    spec = importlib.util.spec_from_file_location("hold_at_20", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["hold_at_20"] = module  # so that worker processes unpickle its class
    try:
        spec.loader.exec_module(module)
        agent = module.HoldAt20()
        result = meeplang.load("pig").play(players=2, seed=4, agents=[agent, "mcts:5"])
        stops = [e for e in result.log if e["event"] == "decision" and e["player"] == 0
                 and e["option"] == "stop"]
        assert stops and result.decisions > 10
        sim = meeplang.load("pig").simulate(n=2, players=2, agents=[agent, "mcts:5"], jobs=2)
        assert sim.summary["games"] == 2
    finally:
        del sys.modules["hold_at_20"]


@pytest.mark.slow
def test_simulate_on_dask_takes_agents_of_your_own():
    pytest.importorskip("distributed")
    pig = meeplang.load("pig")
    dask = pig.simulate(n=6, players=2, seed=1, agents=[Gambler(), "random"], jobs=2,
                        executor="dask")
    local = pig.simulate(n=6, players=2, seed=1, agents=[Gambler(), "random"])
    assert dask.records == local.records
