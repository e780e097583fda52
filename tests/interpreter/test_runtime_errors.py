"""Rules that fail while a game runs: a RuleError at the rule's position, and `meeplang play`
exits 1 with that message and no traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from meeplang.dsl.errors import MeeplangError, RuleError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import play_game
from meeplang.cli import main

GAME = """\
game: g
players: 2
counters:
  x: {initial: 0}
  low: {initial: 0, min: 0}
zones:
  deck: {}
  hand: {per: player}
items:
  card: {count: 3, zone: deck}
setup: |
  add 1 to x
  {rule}
scoring:
  score: x + low + count(deck) + count(hand)
"""

# (name, the second setup line, exact message; the rule stands at line 13, column 3)
CASES = [
    ("negative-repeat", "repeat -1 times: add 1 to x",
     "g/game.yaml:13:3: error: cannot repeat a negative number of times (-1)"),
    ("negative-deal", "deal x - 2 from deck to hand",
     "g/game.yaml:13:3: error: cannot deal a negative number of items (-1)"),
    ("floor-division-by-zero", "let y = 1 // 0\n  add y to x",
     "g/game.yaml:13:11: error: division by zero (1 // 0)"),
    ("modulo-by-zero", "let zero = x - 1\n  add 5 % zero to x",
     "g/game.yaml:14:7: error: division by zero (5 % 0)"),
    ("inexact-division", "add 5 / 2 to x",
     "g/game.yaml:13:7: error: 5 / 2 is not a whole number; use // to round down"),
    ("below-minimum", "subtract x + 1 from low",
     "g/game.yaml:13:3: error: low would become -2, below its minimum 0"),
    ("index-out-of-range", "add [1, 2][x + 1] to x",
     "g/game.yaml:13:7: error: no entry 2 (IndexError)"),
    ("max-of-nothing", "add max(c for c in []) to x",
     "g/game.yaml:13:7: error: max(): max() of nothing (give a default: max(L, 0))"),
    ("move-nothing", "move top(hand) to deck",
     "g/game.yaml:13:3: error: cannot move nothing (an empty zone?): not an item"),
    ("in-a-number", "if 1 in [x][0]: add 1 to x",
     "g/game.yaml:13:6: error: `in` looks through a zone or a list, not 1"),
    ("not-in-a-text", "if 1 not in [\"abc\"][0]: add 1 to x",
     "g/game.yaml:13:6: error: `in` looks through a zone or a list, not 'abc'"),
]


@pytest.mark.parametrize("name,rule,message", CASES, ids=[c[0] for c in CASES])
def test_runtime_error_message(write_game, stop_message, name, rule, message):
    assert stop_message(load_game(write_game(GAME.replace("{rule}", rule)))) == message


@pytest.mark.parametrize("name,rule,message", CASES, ids=[c[0] for c in CASES])
def test_play_cli_exits_1_with_the_message(write_game, capsys, name, rule, message):
    folder = write_game(GAME.replace("{rule}", rule))
    assert main(["play", folder, "--seed", "3"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0] == message
    assert "Traceback" not in err


def test_runaway_loop_stops_at_the_step_budget(write_game):
    game = load_game(write_game(GAME.replace("{rule}", "while true: add 1 to x")))
    with pytest.raises(RuleError) as info:
        Engine(game, 2, seed=0, step_budget=5000).start()
    assert str(info.value) == ("g/game.yaml:13:3: error: step budget of 5000 exceeded: does a rule "
                               "loop forever? (stopped here)")


def test_runaway_loop_default_limit_through_the_cli(write_game, capsys):
    folder = write_game(GAME.replace("{rule}", "while true: add 1 to x"))
    assert main(["play", folder]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == ("g/game.yaml:13:3: error: 200,000 steps in a row without asking "
                                   "any player anything: does a rule loop forever? (stopped here)")
    assert err.splitlines()[1] == "      while true: add 1 to x"
    assert "Traceback" not in err


def test_runaway_turns_stop_at_the_step_budget(write_game):
    game = load_game(write_game("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        actions:
          idle: {effect: end turn}
        flow:
          - turns:
              actions: [idle]
              until: never
        scoring:
          score: x
        """))
    with pytest.raises(RuleError) as info:
        play_game(game, 2, 0, "first", step_budget=300)
    assert "step budget of 300 exceeded" in info.value.message
    assert info.value.pos.path == "g/game.yaml"


def test_trigger_depth_limit_through_the_cli(write_game, capsys):
    folder = write_game("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        actions:
          ping: {effect: add 1 to x}
        triggers:
          again:
            when: after ping
            effect: do ping
        flow:
          - turns:
              actions: [ping]
              until: one_round
        scoring:
          score: x
        """)
    assert main(["play", folder]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == ("g/game.yaml:8:3: error: trigger 'again' nested more than 32 "
                                   "deep: do triggers set each other off?")
    assert "Traceback" not in err


def test_end_turn_outside_a_turn_points_at_the_statement(write_game):
    game = load_game(write_game(GAME.replace("{rule}", "end turn")))
    with pytest.raises(RuleError) as info:
        play_game(game, 2, 0)
    assert str(info.value) == "g/game.yaml:13:3: error: `end turn` outside of a turn"


@pytest.mark.parametrize("terms", [100, 400, 2000])
def test_long_flat_sum_is_computed_or_refused_cleanly(write_game, terms):
    """Found by this suite: a flat sum of ~330 terms passed the checker, then crashed the compiler
    with RecursionError. Now it must compute or be refused with a positioned error."""
    rule = "add " + " + ".join(["1"] * terms) + " to x"
    try:
        e = play_game(load_game(write_game(GAME.replace("{rule}", rule))), 2, 0)
    except MeeplangError as exc:
        # at the statement, or at the start of its rule block (line 12) when too deep to parse
        assert exc.pos.path == "g/game.yaml" and exc.pos.line in (12, 13)
        assert terms > 100
        return
    assert e.state["counters"]["x"] == 1 + terms


# A value of the wrong kind reaching a statement or operator at run time (here an item, where a
# number or a list is needed) must stop the game with a positioned RuleError, as `top(deck) + 1`
# and `set x to top(deck)` do.
WRONG_KIND = [
    ("for-each-over-an-item", "for each c in top(deck): add 1 to x", "TypeError in items_of"),
    ("choose-in-an-item", "choose c in top(deck)", "TypeError in items_of"),
    ("repeat-an-item-times", "repeat top(deck) times: add 1 to x", "TypeError comparing n < 0"),
    ("deal-an-item-count", "deal top(deck) from deck to hand", "TypeError comparing n < 0"),
    ("add-an-item-to-a-counter", "add top(deck) to x", "TypeError in int + str"),
    ("negate-an-item", "let y = -top(deck)", "TypeError in unary minus"),
    ("floor-divide-an-item", "let y = top(deck) // 2", "TypeError in //"),
    ("multiply-an-item", "let y = top(deck) * 2",
     "no error: Python string repetition gives 'card#1card#1'"),
]


@pytest.mark.parametrize("name,rule,what", WRONG_KIND, ids=[c[0] for c in WRONG_KIND])
def test_wrong_kind_at_run_time_is_a_rule_error(write_game, name, rule, what):
    game = load_game(write_game(GAME.replace("{rule}", rule)))
    with pytest.raises(RuleError) as info:
        play_game(game, 2, 0)
    assert info.value.pos.path == "g/game.yaml" and info.value.pos.line == 13


def test_a_huge_item_count_is_refused_not_a_hang(write_game):
    from meeplang.dsl.errors import RuleError
    from meeplang.dsl.resolve import load_game
    from meeplang.interpreter.simulation import play_game

    folder = write_game("""
game: g
players: 2
zones:
  deck: {}
items:
  card: {count: 1000000000000, zone: deck}
scoring:
  score: count(deck)
""")
    with pytest.raises(RuleError) as info:
        play_game(load_game(folder), 2, 0)
    lines = (Path(folder) / "game.yaml").read_text().splitlines()
    assert (info.value.pos.line, info.value.pos.col) == (lines.index("  card: {count: "
                                                                     "1000000000000, zone: deck}") + 1, 3)
    assert info.value.message == ("items card: a game may have at most 100000 items (this would "
                                  "make 1000000000000)")


def test_a_list_doubling_in_a_loop_is_stopped(write_game):
    from meeplang.dsl.errors import RuleError
    from meeplang.dsl.resolve import load_game
    from meeplang.interpreter.simulation import play_game

    folder = write_game("""
game: g
players: 2
counters:
  x: {initial: 0}
setup: |
  let l = [1]
  while true:
    let l = l + l
scoring:
  score: x
""")
    with pytest.raises(RuleError) as info:
        play_game(load_game(folder), 2, 0)
    assert info.value.message == "a list of more than 100000 values"
    lines = (Path(folder) / "game.yaml").read_text().splitlines()
    assert info.value.pos.line == lines.index("    let l = l + l") + 1


# Final scoring: a score, a tie-break or a winner that is not a number or a seat stops the game at
# the scoring rule (found by the fuzzer: `score: hand` used to escape as a TypeError).
SCORING_CASES = [
    ("score-is-a-zone", "  score: hand",
     "g/game.yaml:15:10: error: a score must be a whole number, not the zone hand@0"),
    ("tie-break-is-a-list", "  score: x\n  tie_break: [\"[1]\"]",
     "g/game.yaml:16:16: error: a tie-break must be a whole number, not [1]"),
    ("winner-is-not-a-seat", "  score: x\n  winners: \"[5]\"",
     "g/game.yaml:16:13: error: the winners must be seats from 0 to 1, got [5]"),
    ("winners-is-a-number", "  score: x\n  winners: \"x\"",
     "g/game.yaml:16:13: error: the winners must be a zone or a list, not 1"),
]


@pytest.mark.parametrize("name,scoring,message", SCORING_CASES, ids=[c[0] for c in SCORING_CASES])
def test_final_scoring_values_are_checked(write_game, stop_message, name, scoring, message):
    text = GAME.replace("{rule}", "add 0 to x").replace(
        "  score: x + low + count(deck) + count(hand)\n", scoring + "\n")
    assert stop_message(load_game(write_game(text))) == message
