"""Engine 3: a game copied by data (Engine.fork, interpreter/copying.py) at random decisions,
inner ones included, agrees with the same game replayed from its start and plays on alike, and
undo gives back the game as it was (meeplang/copies_check.py). The fast tier runs a sample; the
slow tier every bundled game, variant and player count."""
from __future__ import annotations

import pytest

from meeplang.copies_check import _configurations, check_copies
from meeplang.interpreter.copying import copyable
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import game_seed, load_cached


def _check(only: list[str] | None, most_players: int | None, copies: int) -> None:
    configurations = list(_configurations(only, most_players))
    assert configurations
    for full, game, players in configurations:
        checked = check_copies(game, players, game_seed(1, 0), copies)
        assert checked > 0, f"{full} {players}: no copy checked"


def test_copies_by_data_agree_with_replays_and_undo_gives_the_game_back():
    _check(["pig", "goofspiel:descending", "new-eden:solo", "thesauros:introductory"], 2, 3)


@pytest.mark.slow
def test_copies_by_data_on_every_game():
    _check(None, None, 6)


def test_a_game_is_data_from_its_start_and_keeps_undo():
    """Where the rules stand is a routine (interpreter/lowering.py) in every process: there is
    no other engine to switch to."""
    e = Engine(load_cached("pig", None), 2, 1)
    e.start()
    assert copyable(e)
    e.keep_undo()
    before = dict(e.state["counters"]), list(e.choices)
    e.choose(0)
    e.undo()
    assert (dict(e.state["counters"]), list(e.choices)) == before


def test_a_game_that_cannot_be_copied_as_data_is_forked_by_replay_and_refuses_undo():
    """Something on the chain that is not data (a plain generator) is no internal error: the
    copy is made by replaying the choices, and undo says what it needs."""
    from meeplang.dsl.errors import UsageError

    e = Engine(load_cached("pig", None), 2, 5)
    d = e.start()
    for _ in range(6):
        d = e.choose(0)
    assert copyable(e)
    e._gen.L.append(x for x in ())  # a plain generator on the chain: not data
    copy = e.fork()
    assert copy.choices == e.choices and copy.state == e.state and copy._gen is not e._gen
    assert copy.choose(0) is not None and e.decision is d
    e.keep_undo()
    made = list(e.choices)
    with pytest.raises(UsageError, match="undo cannot be kept here: a plain generator"):
        e.choose(0)
    assert e.choices == made and e.decision is d  # refused before anything changed
