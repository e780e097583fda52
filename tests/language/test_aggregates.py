"""`any(...)` and `all(...)` over a comprehension stop at the first value that decides, like
Python's; the other aggregates see every value."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import RuleError

from .helpers import make_game, start

GAME = """\
game: g
players: {{min: 1, max: 1}}
counters:
  result: {{initial: 0}}
flow:
  - do: |
      set result to if {expr} then 1 else 0
scoring:
  score: result
"""


def value(tmp_path, expr: str) -> int:
    engine = start(make_game(tmp_path, GAME.format(expr=expr)), players=1)
    assert engine.result is not None
    return engine.result["scores"][0]


@pytest.mark.parametrize(("expr", "expected"), [
    ("any(x > 2 for x in [1, 2, 3])", 1),
    ("any(x > 5 for x in [1, 2, 3])", 0),
    ("any(x > 0 for x in [])", 0),
    ("any(x for x in [1, 2, 3] if x > 3)", 0),
    ("any(x == 2 for x in [1, 2, 3] if x > 1)", 1),
    ("all(x > 0 for x in [1, 2, 3])", 1),
    ("all(x > 1 for x in [1, 2, 3])", 0),
    ("all(x > 9 for x in [])", 1),
    ("all(x > 1 for x in [1, 2, 3] if x > 1)", 1),
    ("all(x for x in [0, 1] if x > 0)", 1),
])
def test_any_and_all_over_comprehensions(tmp_path, expr, expected):
    assert value(tmp_path, expr) == expected


def test_any_stops_at_the_first_true_value(tmp_path):
    # "a" > 1 cannot be compared: reaching it would stop the game with an error
    assert value(tmp_path, 'any(x > 1 for x in [1, 2, "a"])') == 1
    with pytest.raises(RuleError, match="cannot compare"):
        value(tmp_path, 'any(x > 5 for x in [1, 2, "a"])')


def test_all_stops_at_the_first_false_value(tmp_path):
    assert value(tmp_path, 'all(x < 2 for x in [1, 2, "a"])') == 0
    with pytest.raises(RuleError, match="cannot compare"):
        value(tmp_path, 'all(x < 5 for x in [1, 2, "a"])')


def test_the_loop_variable_does_not_leak(tmp_path):
    assert value(tmp_path, "any(x > 1 for x in [1, 2]) and count([x for x in [7]]) == 1") == 1
