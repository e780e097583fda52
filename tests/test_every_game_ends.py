"""Every bundled game, variant and player count ends, with random and with greedy agents: a sample
of `benchmarks/ends.py` (which plays 300 random and 30 greedy games of each; its table is in
benchmarks/README.md). The fast suite already plays one random game of each in
tests/test_deep_check.py; this slow tier plays other seeds and greedy seats."""
import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "ends.py"
_spec = importlib.util.spec_from_file_location("ends_benchmark", _PATH)
ends = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ends)

CONFIGS = ends.configurations()


def _id(config) -> str:
    name, variant, players = config
    return f"{name}{':' + variant if variant else ''}-{players}p"


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
@pytest.mark.parametrize("agents,n", [("random", 3), ("greedy", 1)])
def test_every_game_ends(config, agents, n):
    """Seeds other than the benchmark's (master seed 7), so the two look at different games."""
    name, variant, players = config
    records = ends.play_games((name, variant, players, agents, 7, range(n)))
    failed = [r for r in records if not r["ok"]]
    assert not failed, (f"`meeplang play {_id(config).rsplit('-', 1)[0]} --players {players} "
                        f"--seed {failed[0]['seed']} --agents {agents}`: {failed[0]['error']}")
    assert all(r["decisions"] > 0 for r in records)


def test_the_benchmark_finds_every_configuration():
    """The benchmark's table covers each bundled game's variants and player counts (so a new
    variant cannot be left out of it), and a failing game is a record with its seed, not an
    exception that stops the run."""
    names = {(n, v) for n, v, _ in CONFIGS}
    assert ("otys", "solo") in names and ("thesauros", "lawless") in names
    assert ("endeavor-deep-sea", "coop") in names and ("new-eden", None) in names
    assert [p for n, v, p in CONFIGS if (n, v) == ("endeavor-deep-sea", None)] == [2, 3, 4, 5]
    records = ends.play_games(("pig", None, 11, "random", 1, range(1)))
    assert records[0]["ok"] is False and "pig" in records[0]["error"] and "11" in records[0]["error"]
