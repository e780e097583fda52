"""Stable action ids (interpreter/choices.py): an id names a move by its label whatever else is
legal; within a decision ids are distinct; the labels random games of the bundled games offer
share no id."""
from __future__ import annotations

import collections
import random

import pytest

from meeplang.interpreter.choices import action_id, option_ids
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import configurations, load_cached


def test_an_id_is_the_labels_whatever_else_is_offered():
    alone = option_ids(["stop"])
    assert alone == [action_id("stop")] == option_ids(["roll", "stop", "bid 3"])[1:2]
    assert option_ids(["stop", "roll"]) == [action_id("stop"), action_id("roll")]
    assert 0 <= action_id("stop") < 2 ** 20 and action_id("stop", 8) < 2 ** 8
    assert action_id("stop") == 825259  # the same on every machine and run (BLAKE2b, not hash())


def test_ids_within_a_decision_are_distinct_even_when_labels_collide():
    labels = [f"card#{i}" for i in range(16)]
    ids = option_ids(labels, bits=4)  # 16 labels in 16 ids: collisions must be moved aside
    assert sorted(ids) == list(range(16))
    assert option_ids(labels, bits=4) == ids  # deterministically
    first = min(labels)  # the label sorting first keeps its own id
    assert ids[labels.index(first)] == action_id(first, 4)
    assert option_ids(["a", "a", "b"], bits=4)[:2] == [action_id("a", 4)] * 2
    with pytest.raises(Exception, match="do not fit"):
        option_ids(labels + ["one more"], bits=4)


def _labels_of_random_games(targets: list[tuple]) -> dict:
    """Every label a random game offers, for each (game, variant, players)."""
    seen: dict = collections.defaultdict(set)
    for name, variant, players in targets:
        engine = Engine(load_cached(name, variant), players, 0, record=False)
        d, rng = engine.start(), random.Random(0)
        while d is not None:
            seen[name].update(d.labels)
            d = engine.choose(rng.randrange(len(d.options)))
    return seen


def _shared_ids(labels: set) -> list:
    by_id = collections.defaultdict(set)
    for label in labels:
        by_id[action_id(label)].add(label)
    return [sorted(v) for v in by_id.values() if len(v) > 1]


def test_the_short_games_labels_share_no_id():
    seen = _labels_of_random_games([("pig", None, 2), ("goofspiel", None, 2),
                                    ("new-eden", None, 2)])
    assert len(seen["new-eden"]) > 100
    assert _shared_ids(set().union(*seen.values())) == []


@pytest.mark.slow
def test_every_bundled_games_labels_share_no_id():
    """A random game of every bundled game and variant (about 800 labels): no two share an id at
    the default 2**20 (the collision check docs/api.md speaks of)."""
    fewest: dict = {}
    for name, variant, players in configurations():
        fewest.setdefault((name, variant), players)
    seen = _labels_of_random_games([(n, v, p) for (n, v), p in fewest.items()])
    assert len(set().union(*seen.values())) > 500
    assert _shared_ids(set().union(*seen.values())) == []
