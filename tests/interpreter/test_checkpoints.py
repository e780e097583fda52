"""A copy of a game made from a checkpoint (interpreter/checkpoint.py) is the game replayed from
its start: the same state, random state, decision and engine counters, and the same game after
it (the same log, choice for choice), over whole games of every bundled game and of the small
games of the language targets, at decisions inside turns, `do:` steps and rounds of secret
choices."""
from __future__ import annotations

import random

import pytest

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine

from codegen.test_differential import target_games
from codegen.test_logs_differential import BUNDLED, EURO


def replayed(engine, choices: list) -> Engine:
    """The reference: a new game, the choices made one by one from its start."""
    e = Engine(engine.game, engine.humans, engine.seed, engine.options_given)
    e.start()
    for i in choices:
        e.choose(i)
    return e


def where(e) -> tuple:
    """Everything a copy must share with the game it copies, but its past events."""
    d = e.decision
    return (e.state, e.rng.getstate(), e.choices, e.choosers, e.steps, e.asked_at, e.limit,
            e.turns_taken, e.depth, e.windows, e.pending, e.pending_now, e.secret_mark, e.frames,
            None if d is None else (d.player, d.kind, d.labels, d.why, d.secret), e.result)


def go_on(e, seed: int, decisions: int) -> tuple:
    """The same random choices for at most `decisions` decisions: (events since, the error)."""
    rng, start, error = random.Random(seed), len(e.events), None
    try:
        d = e.decision
        for _ in range(decisions):
            if d is None:
                break
            d = e.choose(rng.randrange(len(d.options)))
    except MeeplangError as exc:
        error = str(exc)
    return e.events[start:], error


def assert_copies_agree(game, players: int, seed: int, every: int, after: int,
                        most: int = 400, options: dict | None = None) -> tuple[int, int]:
    """Play a random game, copying it both ways every `every` decisions and at every decision of
    a round of secret choices, there and at the round's start; returns how many copies came from
    a checkpoint, and how many were made inside a round of secret choices."""
    live = Engine(game, players, seed, options)
    rng = random.Random(seed)
    restored = secret = 0
    try:
        d = live.start()
        while d is not None and len(live.choices) < most:
            marks = [live.choices] + ([live.choices[:live.secret_mark]]
                                      if live.secret_mark is not None else [])
            if len(live.choices) % every == 0 or len(marks) > 1:
                secret += len(marks) - 1
                for made in marks:
                    restored += bool(live.checkpoints) and live.replay_length() < len(made)
                    copy, want = live.fork(made, record=True), replayed(live, made)
                    assert where(copy) == where(want), f"{game.name} seed {seed} at {len(made)}"
                    assert go_on(copy, len(made), after) == go_on(want, len(made), after)
            d = live.choose(rng.randrange(len(d.options)))
    except MeeplangError:
        pass  # the rules stopped the game (the copies agreed up to there)
    return restored, secret


@pytest.mark.parametrize("name, players", BUNDLED)
def test_copies_of_bundled_games_are_the_games_replayed(name, players):
    every = 7 if name.startswith("new-eden") else 3
    restored, secret = assert_copies_agree(load_game(name), players, 1, every, 60)
    assert restored >= 3  # most copies came from a checkpoint, not from the start
    if name.startswith("new-eden") and players > 1:
        assert secret  # the black market's secret picks


@pytest.mark.parametrize("name, players", EURO)
def test_copies_of_the_euro_games_are_the_games_replayed(name, players):
    restored, _ = assert_copies_agree(load_game(name), players, 1, 9, 40)
    assert restored >= 1


def test_copies_in_a_phase_with_free_actions_are_the_games_replayed():
    """New Eden's auctions offer the free actions with this option: checkpoints inside the
    phase hold its window of free actions."""
    game = load_game("new-eden")
    options = {"free_actions_in_auctions": True}
    assert assert_copies_agree(game, 3, 2, 5, 40, options=options)[0] >= 3


def test_copies_of_the_target_games_are_the_games_replayed(tmp_path):
    games = target_games(tmp_path)
    assert len(games) > 20
    restored = 0
    for game in games:
        players = max(game.min_players, min(game.max_players, 3))
        for seed in range(2):
            restored += assert_copies_agree(game, players, seed, 3, 20, 60)[0]
    assert restored > 50


def test_a_game_keeps_checkpoints_only_once_forked():
    game = load_game("pig")
    e = Engine(game, 2, 0)
    d = e.start()
    for _ in range(10):
        d = e.choose(0)
    assert e.checkpoints == [] and not e.checkpointing  # plain play pays nothing
    copy = e.fork()
    assert e.checkpoints and e.checkpointing and not copy.checkpointing
    before = e.checkpoints[-1]
    e.choose(e.decision.labels.index("stop"))  # the next turn: a flow boundary
    assert e.checkpoints[-1] is not before and e.checkpoints[-1].choices == len(e.choices)
