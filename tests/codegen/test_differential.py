"""Generated expression code against the closures of interpreter/compile.py, on real play.

Every expression site of every bundled game and of the language-target test games is compiled
both ways. A few random playouts run the closures (the reference); each time one is called, its
generated twin is called on the same context, and both must give the same value (or the same
error, message and position included), charge the same work to the budget and leave the locals
as the other left them.
"""
from __future__ import annotations

import random

import pytest

from dsl.errors import MeeplangError
from dsl.loader import bundled_games
from dsl.resolve import load_game
from interpreter.codecheck import load
from interpreter.codegen import generate
from interpreter.compile import Compiled
from interpreter.engine import Engine

from language.helpers import make_game
from language.targets import test_endeavor, test_otys, test_thesauros

PLAYOUTS = 3


class Differential:
    """An expression hook for Compiled: each closure of a generated site runs beside its twin."""

    def __init__(self, game):
        self.generated = generate(game)
        self.twins = load(self.generated, Compiled(game))
        self.calls: dict[int, int] = {}

    def hook(self, e, scope, fn):
        twin = self.twins.get(id(e))
        if twin is None:
            return fn

        def both(c):
            before, local = c.eng.steps, dict(c.v)
            want = _outcome(fn, c)
            after, c.eng.steps = c.eng.steps, before
            left = dict(c.v)  # a failing comprehension leaves its variable bound: so must the twin
            c.v.clear()
            c.v.update(local)
            got = _outcome(twin, c)
            where = f"{e.pos}: {type(e).__name__}"
            assert got[:2] == want[:2], f"{where}: generated {got[:2]!r}, closure {want[:2]!r}"
            assert c.eng.steps == after, f"{where}: charged {c.eng.steps - before}, " \
                                         f"closure {after - before}"
            assert c.v == left, where
            self.calls[id(e)] = self.calls.get(id(e), 0) + 1
            if want[0] == "error":
                raise want[2]
            return want[1]
        return both


def _outcome(fn, c) -> tuple:
    """("value", v, None) or ("error", (class, message with position), the exception)."""
    try:
        return ("value", fn(c), None)
    except Exception as exc:  # noqa: BLE001 - the comparison is the test
        return ("error", (type(exc).__name__, str(exc)), exc)


def playouts(game, seeds) -> Differential:
    diff = Differential(game)
    prog = Compiled(game, expr_hook=diff.hook)
    for seed in seeds:
        players = max(game.min_players, min(game.max_players, 2 + seed % 3))
        engine = Engine(game, players, seed)
        engine.prog = prog  # the same program, its closures paired with their twins
        rng = random.Random(seed)
        try:
            d = engine.start()
            while d is not None and len(engine.choices) < 400:
                d = engine.choose(rng.randrange(len(d.options)))
        except MeeplangError:
            pass  # a rule stopped the game: both sides agreed on the error (checked in `both`)
    return diff


def target_games(tmp_path):
    """The small games the language-target tests state (every module-level game text)."""
    games = []
    for module in (test_endeavor, test_otys, test_thesauros):
        for name, text in sorted(vars(module).items()):
            if isinstance(text, str) and name.isupper() and "flow:" in text:
                try:
                    games.append(make_game(tmp_path, text, name=f"{module.__name__}-{name}"))
                except MeeplangError:
                    continue  # a part of a game that its tests complete (`.format`, `+`)
    return games


@pytest.mark.parametrize("name", bundled_games())
def test_generated_expressions_agree_with_closures_on_bundled_games(name):
    game = load_game(name)
    diff = playouts(game, range(PLAYOUTS))
    assert len(diff.generated.names) > 10
    assert sum(diff.calls.values()) > 100  # the pairing ran on real play


def test_generated_expressions_agree_with_closures_on_target_games(tmp_path):
    games = target_games(tmp_path)
    assert len(games) > 20
    calls = 0
    for game in games:
        calls += sum(playouts(game, range(PLAYOUTS)).calls.values())
    assert calls > 1000
