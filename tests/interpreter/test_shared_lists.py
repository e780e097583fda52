"""Work on lists that share structure is charged to the step budget (issue #32 G).

`let a = [a, a]` forty times is 41 lists holding 2**40 values: comparing two such values,
searching for one, moving or doing one, or storing one in an item's field goes through every
value, and was charged one step (it ran for hours, or copied 1.9 GB). Each now charges what it
goes through (compile.weigh) and stops at the budget, with the error at the operation, in the
closures and in the generated code alike, charging the same."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import RuleError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.simulation import play_game

GAME = """\
game: dag
players: [2, 2]
zones:
  box: {{}}
items:
  thing: {{count: 1, zone: box, fields: {{v: 0}}}}
flow:
  - turns: {{first: 0, actions: [go], per_turn: 1, until: one_round}}
actions:
  go:
    effect: |
      let a = [1]
      let b = [1]
      repeat {times} times:
        let a = [a, a]
        let b = [b, b]
      {op}
scoring: {{score: 0}}
"""

OPS = {
    "==": ("let z = a == b", 17),
    "!=": ("let z = a != b", 17),
    "in": ("let z = a in [b]", 15),
    "not in": ("let z = a not in [b, 1]", 15),
    "do": ("do a", 7),
    "move": ("move a to box", 7),
    "field": ("for each t in box: set t.v to a", 32),
}


@pytest.fixture(params=["generated", "closures"])
def mode(request, monkeypatch):
    if request.param == "closures":
        monkeypatch.setenv("MEEPLANG_CLOSURES", "1")
    else:
        monkeypatch.delenv("MEEPLANG_CLOSURES", raising=False)
    return request.param


@pytest.mark.parametrize("op", OPS)
def test_work_on_shared_lists_stops_at_the_budget(write_game, mode, op):
    text, col = OPS[op]
    game = load_game(write_game(GAME.format(times=40, op=text), name=f"dag_{mode}"))
    with pytest.raises(RuleError) as info:
        play_game(game, 2, 0)
    assert str(info.value).startswith(f"dag_{mode}/game.yaml:17:{col}: error: ")
    assert "steps" in info.value.message


@pytest.mark.parametrize("op", ["==", "!=", "in", "not in", "field"])
def test_small_shared_lists_work_and_cost_the_same_both_ways(write_game, monkeypatch, op):
    """Six doublings (64 values): the operation is done, and charged alike in the closures and
    in the generated code (charged: more than the one step it took before)."""
    text, _ = OPS[op]
    steps = {}
    for mode in ("generated", "closures"):
        monkeypatch.setenv("MEEPLANG_CLOSURES", "1" if mode == "closures" else "0")
        game = load_game(write_game(GAME.format(times=6, op=text), name=f"small_{mode}"))
        steps[mode] = play_game(game, 2, 0).steps
    assert steps["generated"] == steps["closures"]
    monkeypatch.setenv("MEEPLANG_CLOSURES", "1")
    baseline = play_game(load_game(write_game(GAME.format(times=6, op="let z = 1"),
                                              name="base")), 2, 0).steps
    assert steps["closures"] > baseline + 64
