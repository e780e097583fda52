"""Generated expression code against the closures of interpreter/compile.py, on real play.

Every expression site of every bundled game and of the language-target test games is compiled
both ways. A few random playouts run the closures (the reference); each time one is called, its
generated twin is called on the same context, and both must give the same value (or the same
error, message and position included), charge the same work to the budget and leave the locals
as the other left them. So does each listing of a choice's legal values (codegen's `listing`).
"""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game

from language.helpers import make_game
from language.targets import test_endeavor, test_otys, test_thesauros

from .pairing import playouts

PLAYOUTS = 3


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
    if diff.generated.listings:
        assert diff.listing_calls() > 0


def test_generated_expressions_agree_with_closures_on_target_games(tmp_path):
    games = target_games(tmp_path)
    assert len(games) > 20
    calls = listings = 0
    for game in games:
        diff = playouts(game, range(PLAYOUTS))
        calls += sum(diff.calls.values())
        listings += diff.listing_calls()
    assert calls > 1000 and listings > 100
