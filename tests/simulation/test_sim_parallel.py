"""Chunking and the runners: the same records whatever the split or the executor."""
from __future__ import annotations

import importlib.util

import pytest

from meeplang.dsl.errors import RuleError, UsageError
from meeplang.interpreter import parallel
from meeplang.interpreter.simulation import SimSpec, game_seed, play_chunk

PIG = SimSpec("pig", None, 2, 5, "random", {}, None)


@pytest.mark.parametrize("n,jobs", [(1, 1), (7, 2), (100, 3), (5000, 2), (10, 16)])
def test_chunks_cover_every_index_once(n, jobs):
    parts = parallel.chunks(n, jobs)
    assert [i for part in parts for i in part] == list(range(n))
    assert max(len(p) for p in parts) <= parallel.MAX_CHUNK


def test_records_come_back_in_index_order():
    parts = [[{"index": 3}, {"index": 4}], [{"index": 0}], [{"index": 1}, {"index": 2}]]
    assert [r["index"] for r in parallel.in_order(parts)] == [0, 1, 2, 3, 4]


def test_play_chunk_uses_derived_seeds():
    records = play_chunk(PIG, [2, 0])
    assert [r["index"] for r in records] == [2, 0]
    assert [r["seed"] for r in records] == [game_seed(5, 2), game_seed(5, 0)]
    assert records == play_chunk(PIG, [2]) + play_chunk(PIG, [0])


def test_play_chunk_refuses_other_rules():
    with pytest.raises(UsageError, match="other rules"):
        play_chunk(SimSpec("pig", None, 2, 0, rules="0000"), [0])


def test_pool_and_serial_runners_agree():
    serial = parallel.open_runner("local", 1)
    pool = parallel.open_runner("local", 2)
    try:
        assert isinstance(pool, parallel.PoolRunner)
        assert serial.run(PIG, 30) == pool.run(PIG, 30)
    finally:
        pool.close()


def test_rule_error_in_a_worker_keeps_its_position(pig_copy):
    (pig_copy / "variants" / "broken.yaml").write_text(
        "variant: broken\nextends: pig\nactions:\n  stop:\n    effect: |\n"
        "      set turn_total to 1 // turn_total\n      end turn\n", encoding="utf-8")
    spec = SimSpec(str(pig_copy), "broken", 2, 0)
    pool = parallel.open_runner("local", 2)
    try:
        with pytest.raises(RuleError, match="division by zero") as info:
            pool.run(spec, 10)
    finally:
        pool.close(failed=True)
    assert info.value.pos.line == 6 and "broken.yaml" in info.value.pos.path
    assert "--seed" in info.value.hint


def test_scheduler_needs_dask_executor():
    with pytest.raises(UsageError, match="--scheduler"):
        parallel.open_runner("local", 1, "tcp://127.0.0.1:8786")


def test_missing_dask_is_a_usage_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(UsageError, match=r"pip install meeplang\[dask\]"):
        parallel.open_runner("dask", 2)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="dask.distributed is not installed")
def test_dask_local_cluster_gives_the_same_records():
    runner = parallel.open_runner("dask", 2)
    try:
        records = runner.run(PIG, 20)
    finally:
        runner.close()
    assert records == parallel.SerialRunner().run(PIG, 20)
