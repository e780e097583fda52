"""The README's tutorial is true: its game checks, plays as shown, and its typo gives the error shown."""
import re
from pathlib import Path

import pytest

from meeplang.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _tutorial(tmp_path, monkeypatch):
    text = README.read_text(encoding="utf-8")
    for name in ("race", "race2"):  # the tutorial's game, and its copy with a choice
        game = re.search(rf"```yaml\n(game: {name}\n.*?)```", text, re.S).group(1)
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.yaml").write_text(game, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return text


def _shown_block(text, command):
    """The lines the README shows after `$ command`, up to the next prompt or fence."""
    block = text.split(f"$ {command}\n", 1)[1]
    return block.split("\n$ ")[0].split("```")[0].strip()


def test_readme_tutorial_check_and_play(tmp_path, monkeypatch, capsys):
    text = _tutorial(tmp_path, monkeypatch)
    assert main(["check", "race/"]) == 0
    assert capsys.readouterr().out.strip() == _shown_block(text, "meeplang check race/")
    assert main(["play", "race/", "--players", "3", "--seed", "4"]) == 0
    shown = _shown_block(text, "meeplang play race/ --players 3 --seed 4")
    assert capsys.readouterr().out.strip() == shown


def test_readme_tutorial_choice_step(tmp_path, monkeypatch, capsys):
    """The "Add a choice" step: its game checks and plays as shown."""
    text = _tutorial(tmp_path, monkeypatch)
    for command in ("meeplang check race2/",
                    "meeplang play race2/ --players 2 --seed 4 --agents greedy,random"):
        assert main(command.split()[1:]) == 0
        assert capsys.readouterr().out.strip() == _shown_block(text, command)


def test_readme_tutorial_typo_error(tmp_path, monkeypatch, capsys):
    text = _tutorial(tmp_path, monkeypatch)
    path = tmp_path / "race" / "game.yaml"
    path.write_text(path.read_text().replace("add die to position", "add die to postion"))
    assert main(["check", "race/"]) == 1
    err = capsys.readouterr().err
    shown = re.search(r"```\n(race/game.yaml:.*?)```", text, re.S).group(1)
    assert err.strip() == shown.strip()


def test_readme_house_rule_file_checks_and_compares(tmp_path, monkeypatch, capsys):
    import json

    text = README.read_text(encoding="utf-8")
    rules = re.search(r"```yaml\n# fast-pig.yaml\n(.*?)```", text, re.S).group(1)
    (tmp_path / "fast-pig.yaml").write_text(rules, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "fast-pig.yaml"]) == 0
    assert capsys.readouterr().out.startswith("ok: fast-pig.yaml (")  # as play takes it
    assert main(["simulate", "fast-pig.yaml", "--players", "2", "-n", "40", "--compare", "base",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # base → variant, whichever is named first
    assert out["variant"] is None and out["compare"]["variant"] == "fast"
    assert out["compare"]["decisions"]["diff"] < 0


def test_readme_new_eden_house_rule_tutorial(tmp_path, monkeypatch, capsys):
    """Every command of the New Eden house-rule tutorial, as written (the simulation with fewer
    games), with the outputs it shows."""
    import json
    import shlex

    from meeplang.visualizer.render import have_dot

    text = README.read_text(encoding="utf-8")
    tutorial = text.split("## Tutorial: a New Eden house rule", 1)[1].split("\n## ", 1)[0]
    monkeypatch.chdir(tmp_path)
    assert main(["new", "variant", "new-eden", "house"]) == 0
    started = (tmp_path / "house.yaml").read_text()
    for entry in ("#   plant_income: 5", "#   passing_points: {2: [3, 0], 3: [3, 2, 0]",
                  "#   power_plant:\n#     limit: {times: 3, per: development}"):
        assert entry in started  # what the tutorial uncomments is listed
    rules = re.search(r"```yaml\n(# house.yaml.*?)```", tutorial, re.S).group(1)
    (tmp_path / "house.yaml").write_text(rules)
    capsys.readouterr()
    for command in ("meeplang check house.yaml", "meeplang diff new-eden house.yaml"):
        assert main(shlex.split(command)[1:]) == 0
        shown = _shown_block(tutorial, command)
        assert capsys.readouterr().out.strip() == shown  # base lines too: never stale

    (tmp_path / "house.yaml").write_text(rules.replace("plant_income:", "plant_incom:"))
    assert main(["check", "house.yaml"]) == 1
    shown = re.search(r"```\n(house.yaml:6:3: error: .*?)\n", tutorial).group(1)
    assert capsys.readouterr().err.splitlines()[0] == shown
    (tmp_path / "house.yaml").write_text(rules)

    block = tutorial.split("```sh\nmeeplang diagram", 1)[1].split("```")[0]
    for line in ("meeplang diagram" + block).strip().splitlines():
        args = shlex.split(line)[1:]
        if args[0] == "diagram" and not have_dot():
            continue
        if args[0] == "simulate":
            args[args.index("-n") + 1] = "6"
        assert main(args) == 0, line
        out = capsys.readouterr().out
        if "--trace" in args:
            excerpt = re.search(r"```\n(\{\"event\": \"decision.*?)```", tutorial, re.S).group(1)
            decision, *shown = excerpt.splitlines()
            lines = out.splitlines()
            at = next(i for i, line in enumerate(lines)
                      if line.startswith(decision.removesuffix(" ...")))
            # exactly, base lines included: the excerpt cannot go stale
            assert lines[at + 1:at + 1 + len(shown)] == shown
    assert (tmp_path / "house-game.jsonl").exists()
    block = tutorial.split("```sh\nmeeplang view", 1)[1].split("```")[0]
    for line in ("meeplang view" + block).strip().splitlines():
        if not have_dot():
            break
        args = shlex.split(line.split("  #")[0])[1:]
        assert main(args) == 0, line
        page = tmp_path / args[args.index("-o") + 1]
        assert "New Eden (house)" in page.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", "new-eden", "--players", "3", "-n", "6", "--compare", "house.yaml",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cmp = out["compare"]
    assert out["variant"] is None and cmp["variant"] == "house" and cmp["paired_games"] == 6
    for seat in cmp["seats"]:
        assert seat["mean_score_diff"] == pytest.approx(
            cmp["summary"]["mean_scores"][seat["seat"]] - out["mean_scores"][seat["seat"]])


def test_the_tutorial_runs_as_written_with_meeplang_on_the_path(tmp_path):
    """Every `meeplang ...` command of the tutorial, typed in a shell with the quick start's
    environment active, exits 0; those shown with their output print exactly that."""
    import os
    import shutil
    import subprocess
    import sys

    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "meeplang").exists():
        pytest.skip("the meeplang command is not installed beside this Python")
    text = README.read_text(encoding="utf-8")
    tutorial = text.split("## Tutorial", 1)[1].split("\n## ", 1)[0]
    _tutorial(tmp_path, pytest.MonkeyPatch())
    rules = re.search(r"```yaml\n# fast-pig.yaml\n(.*?)```", text, re.S).group(1)
    (tmp_path / "fast-pig.yaml").write_text(rules, encoding="utf-8")
    shown = re.findall(r"^\$ (meeplang .*)$", tutorial, re.M)
    typed = [line.split("  #")[0].strip()
             for block in re.findall(r"```sh\n(.*?)```", tutorial, re.S)
             for line in block.splitlines() if line.startswith("meeplang ")]
    assert len(shown) >= 2 and len(typed) >= 3
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for command in shown + typed:
        if " diagram " in f" {command} " and shutil.which("dot") is None:
            continue  # SVG needs Graphviz
        proc = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, (command, proc.stderr)
        if command in shown:
            assert proc.stdout.strip() == _shown_block(text, command)


def test_every_output_the_readme_shows_is_what_the_command_prints(tmp_path, monkeypatch, capsys):
    """Every `$ meeplang ...` of the README (outside the tutorials' own tests above too): its
    shown lines are lines of the real output, in order (`...` stands for lines left out)."""
    import shlex

    text = _tutorial(tmp_path, monkeypatch)
    house = re.search(r"```yaml\n(# house.yaml.*?)```", text, re.S).group(1)
    (tmp_path / "house.yaml").write_text(house, encoding="utf-8")
    commands = re.findall(r"^\$ (meeplang .*)$", text, re.M)
    assert len(commands) >= 8
    for command in commands:
        args = shlex.split(command.split(" > ")[0])[1:]
        assert main(args) == 0, command
        out = capsys.readouterr().out.splitlines()
        block = _shown_block(text, command)
        block = "" if block.startswith("$ ") else block  # another command follows at once
        shown = [line for line in block.splitlines() if line != "..."]
        at = 0
        for line in shown:
            assert line in out[at:], (command, line)
            at = out.index(line, at) + 1
