"""The README's tutorial is true: its game checks, plays as shown, and its typo gives the error shown."""
import re
from pathlib import Path

from meeplang.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _tutorial(tmp_path, monkeypatch):
    text = README.read_text(encoding="utf-8")
    game = re.search(r"```yaml\n(game: race.*?)```", text, re.S).group(1)
    (tmp_path / "race").mkdir()
    (tmp_path / "race" / "game.yaml").write_text(game, encoding="utf-8")
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
    assert capsys.readouterr().out.startswith("ok: pig:fast ")
    assert main(["simulate", "fast-pig.yaml", "--players", "2", "-n", "40", "--compare", "base",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decisions_mean"] < out["compare"]["summary"]["decisions_mean"]
