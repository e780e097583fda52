"""The Python API (`import meeplang`) gives what the command line prints, as values."""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import meeplang
from meeplang.interpreter.simulation import game_seed
from meeplang.cli import main

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def test_play_gives_the_scores_and_the_log_the_command_gives(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    result = meeplang.load("pig").play(players=3, seed=1)
    assert main(["play", "pig", "--players", "3", "--seed", "1", "--json", "--log", "x.jsonl"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert (result.scores, result.winners, result.decisions) == (
        cli["scores"], cli["winners"], cli["decisions"])
    logged = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    assert result.log == logged[1:]
    result.write_log(tmp_path / "api.jsonl")
    assert (tmp_path / "api.jsonl").read_text() == (tmp_path / "x.jsonl").read_text()


def test_load_takes_names_variants_folders_and_files(tmp_path):
    assert meeplang.load("pig:short").model.variant == "short"
    assert meeplang.load("pig", "short").players == (2, 4)
    assert meeplang.load("pig").with_variant("short").model.variant == "short"
    assert meeplang.load(ROOT / "games" / "goofspiel").name == "goofspiel"
    variant = tmp_path / "fast.yaml"
    variant.write_text("variant: fast\nextends: pig\noptions:\n  target: {default: 30, min: 1}\n")
    fast = meeplang.load(variant)
    assert fast.model.variant == "fast" and fast.play(seed=3).scores
    assert "pig" in meeplang.games() and "short" in meeplang.load("pig").variants
    with pytest.raises(meeplang.MeeplangError):
        meeplang.load("pig:short", "long")


def test_check_reports_errors_and_warnings_as_data(tmp_path):
    (tmp_path / "g").mkdir()
    game = tmp_path / "g" / "game.yaml"
    game.write_text("game: g\nplayers: [2, 2]\ncounters:\n  c: {}\n  spare: {}\nactions:\n  a:\n"
                    "    effect: add 1 to c\nflow:\n  - turns: {actions: [a]}\nscoring:\n"
                    "  score: c\n")
    check = meeplang.load(tmp_path / "g").check()
    assert check.ok and check.errors == []
    assert [(w.severity, w.line, w.col) for w in check.warnings] == [("warning", 5, 3)]
    assert "'spare' is never used" in check.warnings[0].message
    game.write_text(game.read_text().replace("add 1 to c", "add 1 to d"))
    check = meeplang.load(tmp_path / "g").check()
    assert not check.ok
    (error,) = check.errors
    assert (error.path.endswith("g/game.yaml"), error.line, error.col) == (True, 8, 22)
    assert "unknown counter 'd'" in error.message and str(error).startswith(error.path)
    assert not meeplang.load("nosuchgame").check().ok
    with pytest.raises(meeplang.MeeplangError):
        meeplang.load(tmp_path / "g").play()


def test_simulate_gives_records_and_the_summary_the_command_gives(capsys):
    sim = meeplang.load("pig").simulate(n=30, players=2, seed=4, jobs=2)
    assert [r["seed"] for r in sim.records] == [game_seed(4, i) for i in range(30)]
    assert main(["simulate", "pig", "-n", "30", "--seed", "4", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    for key in ("win_rates", "win_rate_ci", "mean_scores", "decisions_mean", "turns_mean"):
        assert sim.summary[key] == cli[key], key
    assert "Simulation 30 games" in repr(sim) and "<table>" in sim._repr_html_()


def test_reprs_are_short():
    game = meeplang.load("new-eden")
    assert repr(game) == ("<meeplang.Game new-eden: New Eden, 2-4 players, 15 actions, "
                          "2 variants>")
    assert len(repr(game.model)) < 120 and "new-eden" in repr(game.model)
    result = game.play(players=2, seed=1)
    assert len(repr(result)) < 200 and "<table>" in result._repr_html_()


def test_the_game_model_does_not_import_the_visualizer():
    tree = ast.parse((ROOT / "dsl" / "model.py").read_text())
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
    assert imported and not any("visualizer" in name.split(".") for name in imported)


def test_a_game_draws_itself_in_a_notebook():
    pig = meeplang.load("pig")
    assert "digraph" in pig.diagram()
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    assert pig._repr_svg_().lstrip().startswith(("<?xml", "<svg", "<!--"))


def _cell_value(source: str, namespace: dict):
    """Run a notebook cell as Jupyter does: statements, then the value of a last expression."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    return None


def test_the_quickstart_notebook_runs(monkeypatch, capsys):
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    assert cells and all(not c["outputs"] for c in notebook["cells"]
                         if c["cell_type"] == "code")  # committed without outputs
    namespace: dict = {}
    values = [_cell_value(source, namespace) for source in cells]
    assert isinstance(values[0], meeplang.Game) and values[1].ok
    assert "digraph" in capsys.readouterr().out
