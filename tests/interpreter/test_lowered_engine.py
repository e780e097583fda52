"""Engine 3's differential test: the engine lowered to routines whose position is data
(the default, interpreter/lowering.py) against the generator engine (MEEPLANG_LOWERED=0). Lowering is chosen at
import, so each side runs in a process of its own (meeplang/lowered_check.py): both play the
same games and print the SHA-256 of each log, which must be equal; the lowered side also copies
each game at random decisions by data and by replay (the two copies must agree and play on
alike) and takes a choice back with undo. The fast tier runs a sample; the slow tier every
bundled game, variant and player count."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest



def _run(args: list[str], lowered: bool) -> list[str]:
    env = dict(os.environ, MEEPLANG_LOWERED="1" if lowered else "0")
    out = subprocess.run([sys.executable, "-m", "meeplang.lowered_check", *args]
                         + ([] if lowered else ["--plain"]),
                         env=env, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.splitlines()


def _compare(args: list[str]) -> None:
    lowered, plain = _run(args, True), _run(args, False)
    logs = [line for line in lowered if "copies checked" not in line]
    assert logs == plain, "a lowered game's log differs from the generator engine's"
    copies = [line for line in lowered if "copies checked" in line]
    assert copies and all(int(line.rsplit(" ", 1)[1]) > 0 for line in copies), copies


def test_lowered_engine_plays_the_same_games_and_copies_them_as_data():
    _compare(["--games", "2", "--copies", "3", "--most-players", "2", "--only", "pig",
              "--only", "goofspiel:descending", "--only", "new-eden:solo",
              "--only", "thesauros:introductory"])


@pytest.mark.slow
def test_lowered_engine_on_every_game():
    _compare(["--games", "2", "--copies", "6"])


UNDO_PLAIN = """
from meeplang.dsl.errors import UsageError
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import load_cached
e = Engine(load_cached("pig", None), 2, 1)
e.start()
for call, words in ((e.keep_undo, "undo needs the lowered engine"), (e.undo, "keep_undo")):
    try:
        call()
    except UsageError as exc:
        assert words in str(exc), str(exc)
    else:
        raise AssertionError(f"{call.__name__} did not refuse")
print("refused")
"""


def test_undo_needs_the_lowered_engine():
    """On the generator engine (MEEPLANG_LOWERED=0), undo says what it needs rather than half
    working."""
    out = subprocess.run([sys.executable, "-c", UNDO_PLAIN], capture_output=True, text=True,
                         env=dict(os.environ, MEEPLANG_LOWERED="0"), timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "refused", out.stderr[-2000:]


def test_the_engine_runs_lowered_by_default():
    """Without MEEPLANG_LOWERED, the engine is lowered, and a game keeps undo."""
    from meeplang.interpreter import lowered
    from meeplang.interpreter.copying import copyable
    from meeplang.interpreter.engine import Engine
    from meeplang.interpreter.simulation import load_cached

    if os.environ.get("MEEPLANG_LOWERED") == "0":
        pytest.skip("this process runs the generator engine on purpose")
    assert lowered()
    e = Engine(load_cached("pig", None), 2, 1)
    e.start()
    assert copyable(e)
    e.keep_undo()
    before = dict(e.state["counters"]), list(e.choices)
    e.choose(0)
    e.undo()
    assert (dict(e.state["counters"]), list(e.choices)) == before


FALLBACK = """
from meeplang.interpreter.copying import copyable
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import load_cached
e = Engine(load_cached("pig", None), 2, 5)
d = e.start()
for _ in range(6):
    d = e.choose(0)
assert copyable(e)
e._gen.L.append(x for x in ())  # a plain generator on the chain: not data
copy = e.fork()
assert copy.choices == e.choices and copy.state == e.state and copy._gen is not e._gen
d2 = copy.choose(0)
assert d2 is not None and e.decision is d
print("replayed")
"""


def test_a_game_that_cannot_be_copied_as_data_is_forked_by_replay():
    """Something on the chain that is not data (a plain generator) is no internal error: the
    copy is made by replaying the choices, as the generator engine does."""
    out = subprocess.run([sys.executable, "-c", FALLBACK], capture_output=True, text=True,
                         env=dict(os.environ, MEEPLANG_LOWERED="1"), timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "replayed", out.stderr[-2000:]
