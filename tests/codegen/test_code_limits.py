"""The Python a game's rules make is bounded (interpreter/codegen.py): per function, per module,
and in how deep its loops and blocks nest. A rule past a bound is refused by `meeplang check`
at the rule, and by `play` the same way: never Python's own "too many statically nested
blocks" (a traceback, exit 3), never a module that takes gigabytes to compile."""
from __future__ import annotations

import pytest

from meeplang.cli import main
from meeplang.dsl.errors import RuleError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter import codegen
from meeplang.interpreter.engine import Engine

GAME = """\
game: g
players: 2
counters:
  x: {initial: 0}
setup: |
RULE
scoring:
  score: x
"""


def _game(write_game, lines: list[str]) -> str:
    return write_game(GAME.replace("RULE", "\n".join("  " + line for line in lines)))


def _nested_loops(n: int) -> list[str]:
    return [" " * 2 * i + f"for each v{i} in [1]:" for i in range(n)] + [" " * 2 * n +
                                                                         "add 1 to x"]


def test_loops_nested_past_the_bound_are_refused_at_the_loop(write_game, capsys):
    folder = _game(write_game, _nested_loops(21))  # Python compiles at most 20 in one function
    assert main(["check", folder]) == 1
    err = capsys.readouterr().err
    line, col = 6 + codegen.MAX_LOOP_NESTING, 3 + 2 * codegen.MAX_LOOP_NESTING
    assert err.startswith(f"g/game.yaml:{line}:{col}: error: loops nested more than 16 deep")
    assert main(["play", folder, "--players", "2"]) == 1  # not an internal error (3)
    assert "loops nested more than 16 deep" in capsys.readouterr().err
    import meeplang

    (error,) = meeplang.load(folder).check().errors  # the Python API says the same
    assert (error.line, error.col) == (line, col) and "loops nested" in error.message


def test_loops_nested_up_to_the_bound_run(write_game):
    folder = _game(write_game, _nested_loops(codegen.MAX_LOOP_NESTING))
    e = Engine(load_game(folder), 2, 0)
    e.start()
    assert e.state["counters"]["x"] == 1


def test_blocks_nested_past_the_bound_are_refused(write_game, capsys):
    depth = codegen.MAX_BLOCK_NESTING + 1
    lines = [" " * 2 * i + "if x >= 0:" for i in range(depth)] + [" " * 2 * depth + "add 1 to x"]
    folder = _game(write_game, lines)
    assert main(["check", folder]) == 1
    line, col = 6 + depth, 3 + 2 * depth  # the innermost block's statement
    assert capsys.readouterr().err.startswith(
        f"g/game.yaml:{line}:{col}: error: blocks nested more than 50 deep")


def _wide(n: int) -> str:
    """A rule of about 5 characters per `x + x` that makes about 200 of Python for each."""
    return "let l = [" + ", ".join(["x + x"] * n) + "]"


def test_a_rule_that_makes_too_much_python_is_refused_at_the_rule(write_game, capsys):
    folder = _game(write_game, ["set x to 1", _wide(600), "set x to count(l)"])
    assert main(["check", folder]) == 1
    err = capsys.readouterr().err
    assert err.startswith("g/game.yaml:6:3: error: this rule makes ")  # the rule's first line
    assert "more than the 100,000 one rule may" in err
    with pytest.raises(RuleError, match="one rule may"):
        Engine(load_game(folder), 2, 0)


def test_the_same_rule_a_little_shorter_runs(write_game):
    folder = _game(write_game, ["set x to 1", _wide(400), "set x to count(l)"])
    e = Engine(load_game(folder), 2, 0)
    e.start()
    assert e.state["counters"]["x"] == 400


def test_rules_that_make_too_much_python_together_are_refused_at_the_one_past(write_game,
                                                                             monkeypatch, capsys):
    # each action makes about 60,000 characters: within the bound per rule; a bound of 200,000
    # for the module (4,000,000 in play, which would take 70 such actions) stops at the fourth
    monkeypatch.setattr(codegen, "MAX_MODULE_CHARS", 200_000)
    actions = "".join(f"  a{i}:\n    effect: |\n      {_wide(300)}\n" for i in range(6))
    folder = write_game(GAME.replace("setup: |\nRULE\n", "") + "actions:\n" + actions)
    assert main(["check", folder]) == 1
    err = capsys.readouterr().err
    assert "error: the rules make more than 200,000 characters of Python by this one" in err
    line = int(err.split(":")[1])
    assert line in (10 + 3 * i for i in range(6))  # an action's effect (the fourth written out)


def test_the_bundled_games_are_far_within_the_bounds():
    for name in ("new-eden", "thesauros", "endeavor-deep-sea:coop", "otys:solo"):
        game, _, variant = name.partition(":")
        source = codegen.generate(load_game(game, variant or None)).source
        assert len(source) * 10 < codegen.MAX_MODULE_CHARS
        functions = source.split("\ndef ")
        assert max(map(len, functions)) * 10 < codegen.MAX_FUNCTION_CHARS
