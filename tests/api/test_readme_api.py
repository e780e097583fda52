"""The README's Python sections run as written (the match with fewer, shorter games)."""
from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def _blocks(section: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    body = text.split(f"### {section}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return re.findall(r"```python\n(.*?)```", body, re.S)


def test_step_a_game_from_python_runs_and_prints_what_it_says(capsys):
    (code,) = _blocks("Step a game from Python")
    exec(compile(code, "README.md", "exec"), {})
    first = capsys.readouterr().out.splitlines()[0]
    shown = re.search(r"# (0 action \[.*\])", code).group(1)
    assert first == shown


def test_write_your_own_agent_runs(capsys):
    (code,) = _blocks("Write your own agent")
    code = code.replace("n=20", "n=2").replace("mcts:100", "mcts:5")  # a shorter match
    # run as a module of its own, so that worker processes find its class by name
    module = types.ModuleType("readme_agent")
    sys.modules["readme_agent"] = module
    try:
        exec(compile(code, "README.md", "exec"), module.__dict__)
    finally:
        del sys.modules["readme_agent"]
    out = capsys.readouterr().out
    assert "<Simulation 2 games" in out


def test_openspiel_and_pettingzoo_runs():
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    (code,) = _blocks("OpenSpiel and PettingZoo")
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["other"].num_players() == 3 and namespace["e"].agents == []
