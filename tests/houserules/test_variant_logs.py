"""A log of a game with a variant file replays from any folder, and refuses an edited file."""
import json

import pytest

from meeplang.dsl.errors import LoadError
from meeplang.cli import main

FAST = "variant: fast\nextends: pig\noptions:\n  target: {default: 30}\n"


@pytest.fixture
def fast_pig(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fast-pig.yaml").write_text(FAST)
    return tmp_path / "fast-pig.yaml"


def test_play_a_variant_file_then_replay_its_log_elsewhere(fast_pig, tmp_path, monkeypatch, capsys):
    assert main(["play", "fast-pig.yaml", "--players", "2", "--log", "g.jsonl"]) == 0
    head = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert head["variant"] == "fast" and head["variant_file"]["path"] == str(fast_pig.resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 0
    assert "every event identical" in capsys.readouterr().out


def test_a_changed_variant_file_is_refused(fast_pig, tmp_path):
    from meeplang.interpreter.log import replay

    assert main(["play", "fast-pig.yaml", "--players", "2", "--log", "g.jsonl"]) == 0
    fast_pig.write_text(FAST.replace("30", "40"))
    with pytest.raises(LoadError, match="another version of .*fast-pig.yaml"):
        replay("g.jsonl")


def test_play_game_with_variant_file_and_deep_check_of_a_file(fast_pig, capsys):
    assert main(["play", "pig", "--variant", "fast-pig.yaml", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "fast"
    assert main(["check", "--deep", "fast-pig.yaml", "-n", "1"]) == 0
    assert "ok: fast-pig.yaml with 2 players" in capsys.readouterr().out
