"""benchmarks/floor.py times goofspiel and pig written by hand against the engine's state and
decision protocol, as the floor of what generated code can reach. That floor means something only
if it plays the same games: with the same seed and the same answers, the same options at every
decision and the same final state as the engine."""
from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def floor():
    sys.path.insert(0, str(ROOT))
    try:
        spec = importlib.util.spec_from_file_location("floor_bench", ROOT / "benchmarks" / "floor.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT))
    return module


@pytest.mark.parametrize("name", ["goofspiel", "pig"])
def test_the_floor_plays_the_engines_games(floor, name):
    rules = getattr(floor, f"{name}_rules")
    template = floor.template_of(name)
    game = floor.load_game(name)
    for seed in range(20):
        engine, hand = floor.Engine(game, 2, seed=seed, record=False), floor.FloorEngine(rules, template, seed)
        rng = random.Random(seed)
        ours, theirs = engine.start(), hand.start()
        while ours is not None:
            assert theirs is not None and (ours.player, len(ours.options)) == (theirs.player, len(theirs.options))
            i = rng.randrange(len(ours.options))
            ours, theirs = engine.choose(i), hand.choose(i)
        assert theirs is None
        for part in ("zones", "loc", "players", "counters"):
            assert engine.state[part] == hand.state[part], (seed, part)
