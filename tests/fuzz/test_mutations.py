"""Mutated bundled games fail only with Meeplang's own positioned errors (never a crash)."""
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from .mutations import bundled_documents, dump, mutate
from .runner import try_game

DOCS = bundled_documents()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(DOCS)), seed=st.integers(0, 2**32 - 1))
def test_mutated_games_fail_only_with_positioned_errors(tmp_path_factory, name, seed):
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("mut")
    (folder / "game.yaml").write_text(dump(mutate(DOCS[name], rng)), encoding="utf-8")
    escape = try_game(folder, seed % 1000)
    assert escape is None, escape
