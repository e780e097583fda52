"""`meeplang compile GAME[:VARIANT] [--emit-python]`."""
from __future__ import annotations

import ast
import re

from meeplang.cli import main


def test_emit_python_prints_the_module_with_each_rule_position(capsys):
    assert main(["compile", "pig:short", "--emit-python"]) == 0
    source = capsys.readouterr().out
    tree = ast.parse(source)
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    marks = re.findall(r"^# games/pig/(?:game\.yaml|variants/short\.yaml):[0-9]+$", source,
                       re.MULTILINE)
    assert functions and len(marks) == len(functions)
    assert "c.eng.opts['target']" in source  # `points + turn_total < target`, pig's roll


def test_compile_verifies_and_summarises(capsys):
    assert main(["compile", "goofspiel"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"ok: goofspiel: [0-9]+ blocks and [0-9]+ expressions compiled to Python",
                    out)


def test_errors_are_positioned_not_tracebacks(write_game, capsys):
    folder = write_game("""
        game: broken
        players: [2, 2]
        counters:
          score: {per: player, initial: 0}
        flow:
          - turns: {first: 0, actions: [go], until: one_round}
        actions:
          go:
            effect: |
              add 1 + to score
        """)
    assert main(["compile", str(folder), "--emit-python"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"game\.yaml:[0-9]+:[0-9]+: error: ", err) and "Traceback" not in err
    assert main(["compile", "no-such-game"]) == 2
