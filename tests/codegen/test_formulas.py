"""Formulas in generated code: a plain function of the context and its arguments, or, when a
part of its body is a function the runtime calls with the context alone (`otherwise`), a
function of a context holding them, as the closure is. Both give the closures' values."""
from __future__ import annotations

import re

from meeplang.interpreter.codegen import generate
from meeplang.interpreter.compile import compiled
from meeplang.interpreter.engine import Engine

from language.helpers import make_game

FORMULAS = """
game: formulas
players: [2, 2]
counters: {points: {per: player, initial: 3}}
formulas:
  shadow(x): count([x for x in players if x > 0]) + x
  from_seat(n): count([p for p in players if p >= n])
  total(p): sum(q.points + p.points for q in players)
  first_of(xs): first(xs) otherwise 10
flow: []
scoring:
  score: "100 * shadow(5) + 10 * from_seat(you) + total(you) + first_of([]) + first_of([1])"
"""


def test_formulas_take_their_arguments_unless_a_part_needs_a_context(tmp_path):
    source = generate(make_game(tmp_path, FORMULAS)).source
    plain = set(re.findall(r"^def (formula\d+)\(c, t\d+\):", source, re.M))
    contextual = set(re.findall(r"^def (formula\d+)\(c\):", source, re.M))
    assert len(plain) == 3 and len(contextual) == 1
    called = set(re.findall(r"(formula\d+)\(Ctx\(", source))
    assert called == contextual  # only the formula with `otherwise` builds a context per call


def test_formulas_compute_what_the_closures_compute(tmp_path, monkeypatch):
    game = make_game(tmp_path, FORMULAS)
    # shadow(5): the comprehension's x is its own (1 seat above 0) -> 6; from_seat: 2 or 1;
    # total: 3 + 3 + 2 * 3; first_of: 10, then 1
    expected = [600 + 20 + 12 + 11, 600 + 10 + 12 + 11]
    generated = Engine(game, 2, seed=0)
    generated.start()
    assert generated.prog is not compiled(game)
    assert generated.result["scores"] == expected
    monkeypatch.setenv("MEEPLANG_CLOSURES", "1")
    closures = Engine(game, 2, seed=0)
    closures.start()
    assert closures.result["scores"] == expected
