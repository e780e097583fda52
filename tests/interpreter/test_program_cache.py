"""A game's program is made once and kept for the last few games only: a process that loads game
after game (a fuzz run, an editor session) must not keep every program alive."""
from __future__ import annotations

import gc
import weakref

from meeplang.interpreter.compile import PerGame
from meeplang.interpreter.generated import program
from meeplang.interpreter.simulation import play_game

GAME = """
    game: g
    players: 2
    counters:
      c: {initial: 0}
    setup: |
      add 1 to c
    scoring:
      score: c
    """


def test_a_program_is_made_once_per_game(load):
    game = load(GAME)
    assert program(game) is program(game)
    assert play_game(game, 2, 0).result["scores"] == [1, 1]


def test_old_games_are_let_go(load):
    first = load(GAME, name="g0")
    program(first)
    gone = weakref.ref(first)
    del first
    for i in range(1, 40):
        program(load(GAME, name=f"g{i}"))
    gc.collect()
    assert gone() is None


def test_the_last_used_game_is_kept_longest():
    made = []
    cache = PerGame(lambda g: made.append(g) or object(), size=2)
    a, b, c = ["a"], ["b"], ["c"]
    pa = cache.get(a)
    cache.get(b)
    assert cache.get(a) is pa  # used again: now the most recent
    cache.get(c)  # evicts b, the least recently used
    assert cache.get(a) is pa
    cache.get(b)
    assert made == [a, b, c, b]


def test_programs_are_kept_only_while_their_code_fits_the_budget():
    """Sixteen of the largest modules a game may generate would take gigabytes: the cache also
    weighs what it keeps (a program's generated code), and always keeps the newest."""
    made = []
    cache = PerGame(lambda g: made.append(g) or g, size=16, budget=10, weigh=len)
    a, b, c, big = "aaaa", "bbbb", "cc", "x" * 30
    for g in (a, b, c):
        cache.get(g)
    assert cache.weight == 10 and len(cache.entries) == 3
    cache.get(big)  # over the budget alone: kept, the others let go
    assert list(cache.entries) == [id(big)] and cache.weight == 30
    cache.get(a)
    assert list(cache.entries) == [id(a)] and made == [a, b, c, big, a]


def test_a_generated_program_weighs_its_module(load):
    prog = program(load(GAME))
    assert prog.code_chars > 100  # the module's source, in characters
