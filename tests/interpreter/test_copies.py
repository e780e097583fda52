"""A copy of a game made of data (Engine.fork on the lowered engine, interpreter/copying.py), and
the copy the engine keeps at the start of a round of secret choices (`at_secret_start`), are the
game replayed from its start: the same state, random state, decision and engine counters, and the
same game after it (the same log, choice for choice), over whole games of every bundled game and
of the small games of the language targets, at decisions inside turns, `do:` steps and rounds of
secret choices."""
from __future__ import annotations

import random

import pytest

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.copying import copyable
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
    a round of secret choices, there and at the round's start; returns how many copies were made
    of data, and how many were made inside a round of secret choices."""
    live = Engine(game, players, seed, options)
    live.keep_secret_start()
    rng = random.Random(seed)
    by_data = secret = 0
    try:
        d = live.start()
        while d is not None and len(live.choices) < most:
            at_start = live.secret_mark is not None
            if len(live.choices) % every == 0 or at_start:
                copies = [(live.fork(record=True), list(live.choices))]
                by_data += copyable(live)
                if at_start:
                    secret += 1
                    by_data += live.secret_start is not None
                    copies.append((live.at_secret_start(record=True), live.choices[:live.secret_mark]))
                for copy, made in copies:
                    want = replayed(live, made)
                    assert where(copy) == where(want), f"{game.name} seed {seed} at {len(made)}"
                    assert go_on(copy, len(made), after) == go_on(want, len(made), after)
            d = live.choose(rng.randrange(len(d.options)))
    except MeeplangError:
        pass  # the rules stopped the game (the copies agreed up to there)
    return by_data, secret


@pytest.mark.parametrize("name, players", BUNDLED)
def test_copies_of_bundled_games_are_the_games_replayed(name, players):
    every = 7 if name.startswith("new-eden") else 3
    by_data, secret = assert_copies_agree(load_game(name), players, 1, every, 60)
    assert by_data >= 3  # copies of data, not replays
    if name.startswith("new-eden") and players > 1:
        assert secret  # the black market's secret picks


@pytest.mark.parametrize("name, players", EURO)
def test_copies_of_the_euro_games_are_the_games_replayed(name, players):
    by_data, _ = assert_copies_agree(load_game(name), players, 1, 9, 40)
    assert by_data >= 1


def test_copies_in_a_phase_with_free_actions_are_the_games_replayed():
    """New Eden's auctions offer the free actions with this option: copies inside the phase
    hold its window of free actions."""
    game = load_game("new-eden")
    options = {"free_actions_in_auctions": True}
    assert assert_copies_agree(game, 3, 2, 5, 40, options=options)[0] >= 3


def test_copies_of_the_target_games_are_the_games_replayed(tmp_path):
    games = target_games(tmp_path)
    assert len(games) > 20
    by_data = 0
    for game in games:
        players = max(game.min_players, min(game.max_players, 3))
        for seed in range(2):
            by_data += assert_copies_agree(game, players, seed, 3, 20, 60)[0]
    assert by_data > 50


def test_a_round_of_secret_choices_is_believed_from_the_copy_kept_at_its_start():
    """What a seat may believe in the middle of a round of secret choices starts from the copy
    the engine keeps at the round's first decision (no replay of the game), once asked; before
    that, from a replay, which gives the same game."""
    game = load_game("goofspiel")
    e = Engine(game, 2, 3)
    d = e.start()
    d = e.choose(0)  # the first seat's secret pick of the first round
    assert d.secret and e.secret_mark == 0 and e.secret_start is None
    replay = e.at_secret_start()  # not kept yet: replayed
    e.keep_secret_start()
    while e.secret_mark is None or e.secret_mark == 0:
        d = e.choose(0)
    assert e.secret_start is not None and e.secret_start.choices == e.choices[:e.secret_mark]
    assert e.secret_start.decision.secret
    before = (e.state, e.choices)
    kept = e.at_secret_start()
    assert kept is not e.secret_start and where(kept) == where(replayed(e, e.choices[:e.secret_mark]))
    assert (e.state, e.choices) == before  # the game itself is left as it was
    assert replay.choices == [] and replay.decision.secret
