"""The step API (`Game.start` -> meeplang.State): a game played one decision at a time from
Python gives the game `play` gives, and its copies, undo, views and refusals behave."""
from __future__ import annotations

import json
import pydoc
import subprocess
import sys

import pytest

import meeplang
from meeplang.interpreter.choices import action_id


def pig_policy(choice) -> str:
    """Roll until the turn holds 12, then stop (a scripted, deterministic pig player)."""
    if "stop" in choice.labels and choice.view["counters"]["turn_total"] >= 12:
        return "stop"
    return "roll" if "roll" in choice.labels else "stop"


def test_stepping_pig_by_hand_gives_the_log_play_gives(tmp_path):
    pig = meeplang.load("pig")
    state = pig.start(players=2, seed=5)
    steps = 0
    while not state.over:
        state.apply(pig_policy(state.decision))
        steps += 1
    result = pig.play(players=2, seed=5, agents=[pig_policy])
    assert steps == result.decisions > 10
    assert state.log == result.log and state.scores == result.scores
    assert state.winners == result.winners and state.decision is None
    state.write_log(tmp_path / "step.jsonl")
    result.write_log(tmp_path / "play.jsonl")
    assert (tmp_path / "step.jsonl").read_bytes() == (tmp_path / "play.jsonl").read_bytes()


def _snapshot(state) -> tuple:
    d = state.decision
    return (json.dumps(state.view(None), sort_keys=True), state.log, state.choices,
            None if d is None else (d.player, d.kind, d.labels, d.ids), state.history(0))


def test_a_copy_plays_on_alone():
    state = meeplang.load("pig").start(players=2, seed=3)
    for _ in range(4):
        state.apply("roll" if "roll" in state.decision.labels else "stop")
    before = _snapshot(state)
    twin = state.copy()
    assert _snapshot(twin) == before
    for _ in range(6):
        if twin.over:
            break
        twin.apply(twin.legal[-1])
    assert _snapshot(state) == before and twin.choices != state.choices
    state.apply(twin.choices[len(state.choices)])  # the same choice on both: the same dice
    assert state.log[-1] == twin.log[len(state.log) - 1]


@pytest.mark.parametrize("target, players, moves", [("pig", 2, 9), ("goofspiel", 2, 7),
                                                     ("new-eden", 2, 40)])
def test_undo_returns_to_the_same_decision_and_state(target, players, moves):
    """Undo after copies were made (each a copy of data): the state, log, decision
    and what each seat saw are those of the game stepped afresh to the same point."""
    game = meeplang.load(target)
    state = game.start(players=players, seed=2)
    for i in range(moves):
        if i % 3 == 0:
            state.copy()
        state.apply(i % len(state.legal))
    fresh = game.start(players=players, seed=2)
    for choice in state.choices[:-1]:
        fresh.apply(choice)
    last = state.choices[-1]
    after = _snapshot(state)
    state.undo()
    assert _snapshot(state) == _snapshot(fresh)
    state.apply(last)  # and on again to where it was
    assert _snapshot(state) == after


def test_undo_of_nothing_is_refused():
    state = meeplang.load("pig").start(players=2)
    with pytest.raises(meeplang.MeeplangError, match="no choice to undo"):
        state.undo()


def test_a_seat_sees_its_own_hand_and_not_the_others():
    state = meeplang.load("goofspiel").start(players=2, seed=1)
    hand0 = [x for x in state.view(0)["zones"]["hand@0"]]
    assert "?" not in hand0 and len(hand0) == 13
    assert state.view(1)["zones"]["hand@0"] == ["?"] * 13
    assert not any(item.startswith("bid_card#0.") for item in state.view(1)["items"])
    d = state.decision
    assert d.player == 0 and d.secret and d.view == state.view(0)
    state.apply(d.options[4])
    assert state.history(0) == [(0, d.options[4].label)]
    assert state.history(1) == [(0, None)]  # seat 1 does not see seat 0's secret bid
    assert state.decision.player == 1 and state.decision.view["zones"]["hand@0"] == ["?"] * 13


def test_an_illegal_option_gives_the_reason_and_changes_nothing():
    state = meeplang.load("pig").start(players=2, seed=1, options={"target": 4})
    while "roll" in state.decision.labels:
        state.apply("roll")
    before = _snapshot(state)
    reason = state.why_not("roll")
    assert "requires points + turn_total < target" in reason
    with pytest.raises(meeplang.MeeplangError, match="requires points"):
        state.apply("roll")
    with pytest.raises(meeplang.MeeplangError, match="not one of the options"):
        state.apply("fly")
    with pytest.raises(meeplang.MeeplangError, match="not an option here"):
        state.apply(7)
    old = state.decision.options[0]
    assert state.why_not("stop") is None
    state.apply("stop")
    if not state.over and state.decision.labels != [old.label]:
        with pytest.raises(meeplang.MeeplangError, match="another decision"):
            state.apply(old)
    state.undo()
    assert _snapshot(state) == before


def test_options_have_stable_ids_labels_and_actions():
    state = meeplang.load("pig").start(players=2, seed=1)
    d = state.decision
    assert [(o.index, o.label, o.action) for o in d.options] == [(0, "roll", "roll"),
                                                                 (1, "stop", "stop")]
    assert d.ids == [action_id("roll"), action_id("stop")] and len(set(d.ids)) == 2
    assert d.by_id(action_id("stop")).label == "stop"
    with pytest.raises(meeplang.MeeplangError, match="not legal here"):
        d.by_id(12345)


def test_returns_and_scores():
    state = meeplang.load("pig").start(players=3, seed=4, options={"target": 10})
    assert state.returns() == [0.0, 0.0, 0.0]
    while not state.over:
        state.apply(pig_policy(state.decision))
    (winner,) = state.winners
    assert state.returns() == [1.0 if p == winner else -0.5 for p in range(3)]
    assert state.returns("score") == [float(s) for s in state.scores]
    assert state.scores[winner] >= 10
    with pytest.raises(meeplang.MeeplangError):
        state.returns("money")


def test_a_bad_seat_or_bits_is_refused():
    game = meeplang.load("pig")
    with pytest.raises(meeplang.MeeplangError, match="not one of this game's seats"):
        game.start(players=2).view(5)
    with pytest.raises(meeplang.MeeplangError, match="bits"):
        game.start(players=2, bits=0)


def test_a_missing_game_is_an_error_without_a_position():
    with pytest.raises(meeplang.MeeplangError) as caught:
        meeplang.load("no-such-game").start()
    assert str(caught.value).startswith("error: no game named 'no-such-game' (bundled games: ")
    assert "<unknown>" not in caught.value.render()


def test_python_dash_m_meeplang_is_the_command():
    proc = subprocess.run([sys.executable, "-m", "meeplang", "games", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "pig" in [g["name"] for g in json.loads(proc.stdout)["games"]]


def test_help_shows_a_short_guide():
    text = pydoc.render_doc(meeplang, renderer=pydoc.plaintext)
    for needed in ("meeplang.load(", ".start(", ".apply(", "agents=", "meeplang.openspiel",
                   "meeplang.pettingzoo", "python -m meeplang"):
        assert needed in text, needed


def test_the_package_is_typed():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "py.typed" in config["package-data"]["meeplang"]
    assert (root / "meeplang" / "py.typed").exists()


def test_the_public_names_have_docstrings():
    import inspect

    from meeplang.interpreter.engine import Engine

    missing = []
    owners = [getattr(meeplang, name) for name in meeplang.__all__ if name != "__version__"]
    for owner in owners + [Engine]:
        members = inspect.getmembers(owner) if inspect.isclass(owner) else [(owner.__name__,
                                                                             owner)]
        for name, member in members:
            if name.startswith("_") or not (inspect.isfunction(member)
                                            or isinstance(member, property)):
                continue
            if owner is Engine and name not in ("start", "choose", "choose_label", "why_illegal",
                                                "over", "view", "fork", "keep_undo", "undo",
                                                "score_of"):
                continue  # the engine's services for compiled rules
            if not (member.__doc__ or "").strip():
                missing.append(f"{getattr(owner, '__name__', owner)}.{name}")
    assert missing == []
