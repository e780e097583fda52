"""Mutated inputs fail only with Meeplang's own positioned errors (never a crash): bundled games,
logs of bundled games, and command lines (a sample here; benchmarks/fuzz.py runs many more)."""
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from meeplang.interpreter.log import log_lines
from meeplang.interpreter.simulation import play_game
from meeplang.dsl.resolve import load_game

from .mutations import (bundled_documents, copy_includes, dump, mutate, mutate_argv, mutate_log,
                        write_failure)
from .runner import try_cli, try_game, try_log

DOCS = bundled_documents()
PIG_LOG = log_lines(play_game(load_game("pig"), 2, 3, "random"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(DOCS)), seed=st.integers(0, 2**32 - 1))
def test_mutated_games_fail_only_with_positioned_errors(tmp_path_factory, name, seed):
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("mut")
    copy_includes(name, folder)
    (folder / "game.yaml").write_text(dump(mutate(DOCS[name], rng)), encoding="utf-8")
    escape = try_game(folder, seed % 1000)
    assert escape is None, escape


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_logs_fail_only_with_positioned_errors(tmp_path_factory, seed):
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    path.write_text("\n".join(mutate_log(PIG_LOG, random.Random(seed))) + "\n", encoding="utf-8")
    escape = try_log(path)
    assert escape is None, escape


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_command_lines_exit_cleanly(tmp_path_factory, seed):
    folder = tmp_path_factory.mktemp("cli")
    log = folder / "game.jsonl"
    log.write_text("\n".join(PIG_LOG) + "\n", encoding="utf-8")
    rng = random.Random(seed)
    argv = [str(log) if a == "LOG" else "out.file" if a == "OUT" else a for a in mutate_argv(rng)]
    escape = try_cli(argv, folder, write_failure(rng))
    assert escape is None, escape
