"""The limits every game runs within (docs/security.md), each tested at its edge: whole numbers
within ±10**18, work charged per value gone through, at most 20,000 decisions per game, at most
100 players; and the bounds a declaration states hold from its first value."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import LoadError, MeeplangError, RuleError, RuleSyntaxError, SchemaError
from meeplang.dsl.limits import MAX_INT, MAX_PLAYERS
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import MAX_DECISIONS, Engine
from meeplang.interpreter.simulation import play_game

GAME = """\
game: g
players: 2
counters:
  x: {initial: 0}
setup: |
  {rule}
scoring:
  score: x
"""


def setup_error(write_game, rule: str, budget: int | None = None) -> RuleError:
    game = load_game(write_game(GAME.replace("{rule}", rule.replace("\n", "\n  "))))
    with pytest.raises(RuleError) as info:
        if budget is None:
            Engine(game, 2, 0).start()
        else:
            Engine(game, 2, 0, step_budget=budget).start()
    return info.value


def runs(write_game, rule: str, budget: int | None = None) -> Engine:
    game = load_game(write_game(GAME.replace("{rule}", rule.replace("\n", "\n  "))))
    engine = Engine(game, 2, 0) if budget is None else Engine(game, 2, 0, step_budget=budget)
    engine.start()
    return engine


@pytest.mark.parametrize("expr", [f"{MAX_INT} + 0", f"{MAX_INT} - 1 + 1", f"0 - {MAX_INT}",
                                  "1000000000 * 1000000000"])
def test_numbers_up_to_the_bound_are_computed(write_game, expr):
    engine = runs(write_game, f"set x to {expr}")
    assert abs(engine.state["counters"]["x"]) == MAX_INT


@pytest.mark.parametrize("expr", [f"{MAX_INT} + 1", f"0 - {MAX_INT} - 1",
                                  "1000000000 * 1000000001"])
def test_one_past_the_bound_stops_at_the_operator(write_game, expr):
    error = setup_error(write_game, f"set x to {expr}")
    assert "is beyond the limit of ±1,000,000,000,000,000,000" in error.message
    assert (error.pos.line, error.pos.col) == (6, 12)


def test_squaring_forever_stops_at_once(write_game):
    error = setup_error(write_game, "let y = 3\nrepeat 40 times:\n  let y = y * y\nset x to y")
    assert error.message.startswith("the number ") and "beyond the limit" in error.message
    assert (error.pos.line, error.pos.col) == (8, 13)


def test_a_number_in_rule_text_is_bounded_where_it_is_written(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game(GAME.replace("{rule}", "set x to 1" + "0" * 5000)))
    assert str(info.value).startswith("g/game.yaml:6:12: error: the number 10000000000000000000..."
                                      " is beyond the limit")
    load_game(write_game(GAME.replace("{rule}", f"set x to {MAX_INT}")))
    with pytest.raises(RuleSyntaxError):
        load_game(write_game(GAME.replace("{rule}", f"set x to {MAX_INT + 1}")))


@pytest.mark.parametrize("value", [str(MAX_INT + 1), str(-MAX_INT - 1), "1" + "0" * 100, "9" * 5000])
def test_a_number_in_yaml_is_bounded_where_it_is_written(write_game, value):
    with pytest.raises(LoadError) as info:
        load_game(write_game(GAME.replace("x: {initial: 0}", f"x: {{initial: {value}}}")))
    assert str(info.value).startswith("g/game.yaml:4:16: error: the number ")
    assert "beyond the limit" in str(info.value)


def test_work_inside_a_loop_pass_is_charged(write_game):
    error = setup_error(write_game, "while true:\n  let m = sum(v for v in range(1, 100000))")
    assert error.message.startswith("step budget of 2000000 exceeded")
    assert error.pos.line == 7


def test_an_empty_range_costs_nothing_and_gives_nothing_back(write_game):
    error = setup_error(write_game, "while true:\n  let l = range(100000, 1)", budget=10_000)
    assert error.message.startswith("step budget of 10000 exceeded")


def test_lists_of_lists_are_charged_for_every_value(write_game):
    error = setup_error(write_game, "let l = [range(1, 100000) for v in range(1, 100000)]")
    assert "step budget of 2000000 exceeded" in error.message
    assert error.pos.line == 6


def test_the_step_budget_holds_at_its_edge(write_game):
    rule = "let l = [v * 2 for v in range(1, 1000) if v % 3 == 0]\nset x to sum(l)"
    used = runs(write_game, rule).steps
    assert used >= 2000  # the 1,000 values of range, then the 1,000 the comprehension goes through
    assert runs(write_game, rule, budget=used).state["counters"]["x"] == 333 * 334 * 3
    assert "step budget of" in setup_error(write_game, rule, budget=used - 1).message


NEVER_ENDS = """\
game: g
players: 2
counters:
  x: {initial: 0}
actions:
  wait: {effect: add 1 to x}
flow:
  - turns:
      first: 0
      actions: [wait]
      until: never
scoring:
  score: x
"""


def test_a_never_ending_game_stops_at_the_turns_step(write_game):
    game = load_game(write_game(NEVER_ENDS))
    engine = Engine(game, 2, 0)
    engine.max_decisions = 50
    d = engine.start()
    with pytest.raises(RuleError) as info:
        for _ in range(50):
            d = engine.choose(0)
        assert d is not None  # the 50th decision was still allowed
        engine.choose(0)
    assert str(info.value) == ("g/game.yaml:8:5: error: the game has asked for 50 decisions and is "
                               "not over: does it ever end? (stopped at the step that asks)")
    assert MAX_DECISIONS == 20_000


@pytest.mark.parametrize("players, ok", [(MAX_PLAYERS, True), (MAX_PLAYERS + 1, False)])
def test_players_are_bounded(write_game, players, ok):
    folder = write_game(GAME.replace("players: 2", f"players: {{min: 2, max: {players}}}")
                        .replace("{rule}", "add 1 to x"))
    if ok:
        assert load_game(folder).max_players == MAX_PLAYERS
    else:
        with pytest.raises(SchemaError, match=f"players: at most 100 players, not {players}"):
            load_game(folder)


BOUNDS = [
    ("counter-initial-below-min", "  x: {initial: 0}", "  x: {initial: -1, min: 0}",
     "g/game.yaml:4:16: error: counter x: initial -1 is out of its bounds (at least 0)"),
    ("counter-initial-above-max", "  x: {initial: 0}", "  x: {initial: 11, min: 0, max: 10}",
     "g/game.yaml:4:16: error: counter x: initial 11 is out of its bounds (0..10)"),
    ("counter-min-above-max", "  x: {initial: 0}", "  x: {initial: 0, min: 5, max: 1}",
     "g/game.yaml:4:3: error: counter x: min 5 is larger than max 1"),
    ("option-default-above-max", "counters:",
     "options:\n  n: {default: 9, min: 1, max: 5}\ncounters:",
     "g/game.yaml:4:16: error: option n: default 9 is out of its bounds (1..5)"),
    ("option-min-above-max", "counters:", "options:\n  n: {default: 3, min: 5, max: 1}\ncounters:",
     "g/game.yaml:4:3: error: option n: min 5 is larger than max 1"),
]


@pytest.mark.parametrize("name, old, new, message", BOUNDS, ids=[b[0] for b in BOUNDS])
def test_a_declaration_out_of_its_own_bounds_is_refused(write_game, name, old, new, message):
    text = GAME.replace(old, new).replace("set x to", "")
    with pytest.raises(SchemaError) as info:
        load_game(write_game(text.replace("{rule}", "add 1 to x")))
    assert str(info.value) == message


def test_a_computed_initial_value_out_of_bounds_stops_at_the_counter(write_game, stop_message):
    text = GAME.replace("  x: {initial: 0}", "  x: {initial: 0}\n  y: {initial: x - 1, min: 0}")
    game = load_game(write_game(text.replace("{rule}", "add y to x")))
    assert stop_message(game) == ("g/game.yaml:5:3: error: counter y starts at -1, out of its "
                                  "bounds (at least 0)")


def test_an_option_given_out_of_bounds_is_named_with_its_bounds(write_game):
    text = GAME.replace("counters:", "options:\n  n: {default: 3, min: 1}\ncounters:")
    game = load_game(write_game(text.replace("{rule}", "add n to x")))
    with pytest.raises(MeeplangError) as info:
        Engine(game, 2, 0, {"n": 0})
    assert info.value.message == "option n=0 is out of bounds (at least 1)"
    with pytest.raises(MeeplangError) as info:
        Engine(game, 2, 0, {"n": MAX_INT + 1})
    assert "None" not in info.value.message
