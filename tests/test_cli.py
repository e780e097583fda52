"""The `meeplang` command: games, check, play, replay; exit codes and error output."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from meeplang.dsl.resolve import load_game
from meeplang.interpreter.simulation import play_game
from meeplang.cli import main


def run(*args, cwd=None):
    """The installed console script if there is one, else `python -m meeplang.cli`."""
    exe = shutil.which("meeplang")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "meeplang.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_games_json_lists_the_bundled_games_with_players(capsys):
    assert main(["games", "--json"]) == 0
    out, err = capsys.readouterr()
    games = {g["name"]: g for g in json.loads(out)["games"]}
    assert games["pig"]["players"] == [2, 10]
    assert games["goofspiel"]["players"] == [2, 2]
    assert games["pig"]["title"] == "Pig"
    assert err == ""


def test_games_text_listing(capsys):
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pig = next(line for line in lines if line.startswith("pig "))
    assert "Pig" in pig and "2-10 players" in pig
    goof = next(line for line in lines if line.startswith("goofspiel "))
    assert "2 players" in goof and "2-2 players" not in goof
    solo = next(line for line in lines if line.startswith("  :solo "))
    assert solo.endswith(" 1 player")  # a fixed count says how many, once
    # the columns line up however long a variant's name is
    assert len({re.search(r"\d[\d-]* players?$", line).start() for line in lines}) == 1
    assert pig.index("Pig") == next(line for line in lines if "Goofspiel (" in line).index("Goof")


@pytest.mark.parametrize("game", ["goofspiel", "pig"])
def test_check_bundled_game(capsys, game):
    assert main(["check", game]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith(f"ok: {game} (")
    assert err == ""
    assert main(["check", "--strict", game]) == 0


def test_check_json(capsys):
    assert main(["check", "goofspiel", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert data["checked"][0] == {"game": "goofspiel", "warnings": [], "players": [2, 2]}


def test_play_json_log_and_replay(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "pig", "--players", "3", "--seed", "1", "--log", "x.jsonl", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert {"game", "variant", "players", "seed", "scores", "winners", "decisions",
            "final_state"} <= set(data)
    assert (data["game"], data["variant"], data["players"], data["seed"]) == ("pig", None, 3, 1)
    # the same game through the API: same seed, same (random) agents
    e = play_game(load_game("pig"), 3, 1, "random")
    assert data["scores"] == e.result["scores"]
    assert data["winners"] == e.result["winners"]
    assert data["decisions"] == len(e.choices)
    assert data["final_state"] == e.state
    log = (tmp_path / "x.jsonl").read_text().splitlines()
    assert sum(json.loads(line).get("event") == "decision" for line in log) == data["decisions"]
    # pig: a turn is one player's run of decisions, and the next turn is the next player's
    deciders = [json.loads(line)["player"] for line in log
                if json.loads(line).get("event") == "decision"]
    assert data["turns"] == 1 + sum(a != b for a, b in zip(deciders, deciders[1:])) > 3

    assert main(["replay", "x.jsonl"]) == 0
    out, err = capsys.readouterr()
    assert out == (f"replayed x.jsonl: {data['decisions']} decisions, every event identical; "
                   f"scores {data['scores']}, winners {data['winners']}\n")
    assert main(["replay", "x.jsonl", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "decisions": data["decisions"],
                                                   "scores": data["scores"],
                                                   "winners": data["winners"]}


def test_play_text_output(capsys):
    assert main(["play", "goofspiel", "--seed", "2", "--agents", "first"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Goofspiel: 2 players, seed 2, 26 decisions"
    assert out[1:] == ["  player 0 (first): 0  winner", "  player 1 (first): 0  winner"]


def test_a_solo_game_says_1_player(capsys):
    assert main(["play", "new-eden:solo", "--players", "1", "--seed", "1"]) == 0
    assert ": 1 player, seed 1, " in capsys.readouterr().out.splitlines()[0]


def test_play_with_an_option(capsys):
    assert main(["play", "goofspiel", "--option", "num_cards=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] == 8 and data["options"] == {"num_cards": 4}


def test_play_trace_shows_rule_lines(capsys):
    assert main(["play", "pig", "--seed", "4", "--trace", "--option", "horizon=3"]) == 0
    out = capsys.readouterr().out
    assert "games/pig/game.yaml:" in out and "| roll d6 as die" in out


@pytest.mark.parametrize("args,message", [
    (["play", "nosuchgame"], "meeplang: error: no game named 'nosuchgame'"),
    (["play", "pig", "--players", "1"], "meeplang: error: pig is for 2-10 players, not 1"),
    (["play", "goofspiel", "--players", "3"],
     "meeplang: error: goofspiel is for 2 players, not 3"),
    (["play", "pig", "--option", "target=0"],
     "meeplang: error: option target=0 is out of bounds (1..100000)"),
    (["play", "pig", "--option", "target"], "meeplang: error: --option takes NAME=VALUE, not 'target'"),
    (["play", "pig", "--option", "speed=3"], "meeplang: error: game 'pig' has no option 'speed'"),
    (["play", "pig", "--agents", "genius"], "meeplang: error: unknown agent 'genius'"),
    (["check", "pig:nosuch"], "meeplang: error: game 'pig' has no variant 'nosuch'"),
    # hostile arguments: refused before any work, in words (no Python wording, no huge echo)
    (["play", "pig", "--players", "10000000"],
     "meeplang: error: pig is for 2-10 players, not 10000000"),
    (["play", "pig", "--log", "."], "meeplang: error: --log .: this is a folder, not a file"),
    (["play", "pig", "--log", "no/such/folder/x.jsonl"],
     "meeplang: error: --log no/such/folder/x.jsonl: no folder 'no/such/folder'"),
    (["check", "--deep", "pig", "-n", "0"],
     "meeplang: error: -n 0: --deep plays at least 1 game per variant and player count"),
    (["check", "--deep", "pig", "-n", "-1"], "meeplang: error: -n -1: --deep plays at least 1"),
    (["play", "pig", "--option", "target=" + "9" * 4000],
     "meeplang: error: option target=2**13287 or more is out of bounds (1..100000)"),
    (["play", "pig", "--option", "target=" + "9" * 5000],
     "meeplang: error: option target takes a whole number, not '999999999999999999999999999999'..."),
    (["play", "pig", "--option", "horizon=" + "9" * 19],
     "meeplang: error: option horizon=9999999999999999999 is out of bounds (at least 1)"),
])
def test_bad_usage_exits_2(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message)
    assert "Traceback" not in err


def test_non_numeric_players_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "pig", "--players", "many"])
    assert info.value.code == 2
    assert "invalid int value: 'many'" in capsys.readouterr().err


def test_replay_of_a_missing_file_exits_1(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "gone.jsonl"]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("gone.jsonl:1:1: error: cannot read file: ")
    assert "Traceback" not in err


def test_real_command_play_and_replay(tmp_path):
    proc = run("play", "pig", "--players", "3", "--seed", "1", "--log", "x.jsonl", "--json",
               cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["players"] == 3 and len(data["scores"]) == 3
    proc = run("replay", "x.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"replayed x.jsonl: {data['decisions']} decisions")


def test_real_command_errors_have_no_traceback(tmp_path):
    proc = run("play", "nosuchgame", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("meeplang: error: no game named 'nosuchgame'")
    assert "Traceback" not in proc.stderr
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "game.yaml").write_text("game: bad\nplayers: 2\nscoring:\n  score: nope\n")
    proc = run("check", "bad", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == "bad/game.yaml:4:10: error: unknown name 'nope'"
    assert "Traceback" not in proc.stderr
    proc = run("play", "bad", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_a_broken_installation_is_an_error_without_traceback(monkeypatch, capsys):
    """A module of meeplang that cannot be imported (the interpreter refuses a stale compiled
    build it cannot remove) is reported in one line, exit 2."""
    import importlib

    from meeplang import cli

    real = importlib.import_module

    def refuse(name, *args):
        if name == "meeplang.simulate_cli":
            raise ImportError("the compiled interpreter in /x is older than its sources")
        return real(name, *args)

    monkeypatch.setattr(cli.importlib, "import_module", refuse)
    assert cli.main(["games"]) == 2
    err = capsys.readouterr().err
    assert err == "meeplang: error: the compiled interpreter in /x is older than its sources\n"


def test_report_onto_an_existing_file_is_a_usage_error(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("mine")
    assert main(["report", "pig", "-o", "taken"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("meeplang: error: -o taken: a file is in the way")
    assert (tmp_path / "taken").read_text() == "mine"


def test_a_log_that_cannot_be_written_is_an_error_not_a_crash(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ro").mkdir(mode=0o500)
    status = main(["play", "pig", "--log", "ro/x.jsonl"])
    out, err = capsys.readouterr()
    if status == 0:  # running as root: the folder's mode does not stop us
        assert (tmp_path / "ro" / "x.jsonl").exists()
    else:
        assert status == 1 and err.startswith("meeplang: error: ro/x.jsonl: Permission denied")


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_short_o_means_output_only(capsys, command):
    """-o is --output in diagram, report and new; where game options are taken it is no option
    but says which flag was meant."""
    with pytest.raises(SystemExit) as info:
        main([command, "pig", "-o", "target=30"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "-o is --output (diagram, report, new); a game option is --option target=30" in err
    assert "Traceback" not in err


def test_a_failing_simulated_game_s_hint_replays_it_with_option():
    from meeplang.interpreter.simulation import SimSpec, _replay_hint

    hint = _replay_hint(SimSpec("pig", None, 2, 0, "random", {"target": "30"}), 3)
    assert "--option target=30" in hint and " -o " not in hint
    stacked = _replay_hint(SimSpec("new-eden", ("solo", "h.yaml"), 1, 0), 0)
    assert "meeplang play new-eden --variant solo --variant h.yaml --players 1" in stacked
