"""Output fits where it goes: whole lines in a pipe, and one JSON object under --json on every
command, errors included."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import pytest

from meeplang.cli import main
from meeplang.output import Table, plain_lines, print_table


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "meeplang.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_simulate_in_a_pipe_prints_whole_lines():
    proc = _run("simulate", "pig", "-n", "60")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    caption = [line for line in lines if "decisions per game" in line]
    assert len(caption) == 1 and "turns per game" in caption[0] and "ms per game" in caption[0]
    assert all(not line.startswith((" per game", "per game")) for line in lines)
    assert not any(ch in proc.stdout for ch in "┏┃━│")  # no box drawing in a pipe
    assert lines[0].startswith("pig: 60 games, 2 players, seed 0")


def test_a_table_is_plain_aligned_lines_off_a_terminal():
    table = Table("t", ["seat", "agent", "win rate"], [["0", "random", "5.0%"],
                                                        ["10", "first", "55.0%"]],
                  caption="a caption much longer than any terminal is wide " * 4,
                  left=frozenset({"agent"}))
    lines = plain_lines(table)
    assert lines == ["t", "seat  agent   win rate", "   0  random      5.0%",
                     "  10  first      55.0%", table.caption]
    out = io.StringIO()
    print_table(table, out)
    assert out.getvalue().splitlines() == lines


def test_a_table_on_a_terminal_is_drawn_by_rich():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    out = Tty()
    print_table(Table("t", ["seat"], [["0"]]), out)
    assert "┏" in out.getvalue() or "━" in out.getvalue()


def test_replay_json_of_a_wrong_log_prints_a_json_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "pig", "--seed", "1", "--log", "x.jsonl"]) == 0
    lines = (tmp_path / "x.jsonl").read_text().splitlines()
    event = json.loads(lines[-1])
    event["bogus"] = 1
    lines[-1] = json.dumps(event)
    (tmp_path / "x.jsonl").write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", "x.jsonl", "--json"]) == 1
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["ok"] is False
    assert data["error"]["path"] == "x.jsonl" and data["error"]["line"] == len(lines)
    assert "replay differs from the log" in data["error"]["message"]
    assert "replay differs" in err  # people still read it on stderr


@pytest.mark.parametrize("args,kind", [
    (["play", "nosuchgame", "--json"], "usage"),
    (["check", "pig:nosuch", "--json"], "usage"),
    (["simulate", "pig", "-n", "0", "--json"], "usage"),
    (["diagram", "nosuchgame", "--format", "dot", "--json"], "usage"),
    (["report", "nosuchgame", "--json"], "usage"),
    (["check", "--deep", "nosuchgame", "--json"], "usage"),
])
def test_every_command_prints_its_error_as_json(capsys, args, kind):
    assert main(args) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["error"]["kind"] == kind and data["error"]["message"]


def test_rule_errors_as_json_have_their_position(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.yaml").write_text(
        "game: g\nplayers: [2, 2]\ncounters:\n  c: {}\nactions:\n  a:\n    effect: add 1 to d\n"
        "flow:\n  - turns: {actions: [a]}\nscoring:\n  score: c\n")
    assert main(["check", str(tmp_path / "g"), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["kind"] == "rules" and error["line"] == 7 and "unknown" in error["message"]


def test_diagram_report_and_deep_check_have_json(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "pig", "--format", "dot", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"ok": True, "path": "pig.dot", "format": "dot"}
    assert "digraph" in (tmp_path / "pig.dot").read_text()
    assert main(["check", "--deep", "pig", "-n", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["broken"] is None
    # a game per variant and player count, and one per option bound and fewest/most players
    assert data["games"] == len(data["runs"]) + sum(len(b["players"]) for b in data["bounds"])
    assert {(b["target"], b["option"], b["value"]) for b in data["bounds"]} >= {
        ("pig", "target", 1), ("pig", "target", 100000), ("pig", "horizon", 1)}
    if shutil.which("dot"):
        assert main(["report", "pig", "-o", "r", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data == {"ok": True, "path": "r/index.html"}
