"""An option's `min:` and `max:` are values the game can play: every bundled game and variant
ends without error with each numeric option at each of its bounds (random agents, the fewest
and the most players), through `check --deep`'s own `play_bounds`. The whole sweep is slow; the
fast suite keeps Otys (with the fewest players), whose Hacker's start once allowed 7 and 8 with 6 keys to place (FR l.84,
100, 178, 503), and the quick games."""
import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.deep_check import option_bounds, play_bounds, targets_of

FAST = ["otys", "otys:solo", "goofspiel", "pig", "new-eden:solo-hard"]
TARGETS = [t for g in bundled_games() for t in targets_of(g)]


def _game(target):
    base, _, variant = target.partition(":")
    return load_game(base, variant or None)


def test_the_sweep_covers_every_numeric_bound_of_the_sample():
    """The sample is not empty: Otys plays its Hacker's start at 4 (6, its max, is the default)
    and its Mechanic's capacity at 3 and 5; solo adds the Timers' start and step."""
    assert [(n, w, v) for n, w, v, _ in option_bounds(_game("otys"))] == [
        ("hacker_start", "min", 4), ("capacity_after_third", "min", 3),
        ("capacity_after_third", "max", 5)]
    assert ("timer_step", "max", 3) in [(n, w, v) for n, w, v, _ in
                                        option_bounds(_game("otys:solo"))]
    assert all(t in TARGETS for t in FAST)


@pytest.mark.parametrize("target", FAST)
def test_options_play_at_their_bounds(target):
    game = _game(target)                                 # the fewest players only, here
    broken = play_bounds(game, target, seed=0, counts=[game.min_players])
    assert broken is None, str(broken)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("target", TARGETS)
def test_every_bundled_option_plays_at_its_bounds(target, seed):
    game = _game(target)
    broken = play_bounds(game, target, seed=seed)
    assert broken is None, str(broken)
