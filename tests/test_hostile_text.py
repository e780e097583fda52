"""Hostile text in a game file meets the terminal: lone surrogates are refused where they are
written (they are no characters, and have no UTF-8), control characters in titles, names, terms
and logged texts are printed escaped (`\\u001b`), never obeyed: they cannot clear the screen, set
the window's title or forge an `ok:` line."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from meeplang.cli import main
from meeplang.output import SafeStream, one_line, safe_text

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

SURROGATE_GAME = r'''
game: g
title: "Race \uD800"
players: [2, 2]
scoring: {score: 0}
'''


@pytest.mark.parametrize("command", [
    ["check"], ["play"], ["explain"], ["diagram", "--format", "dot", "-o", "-"],
    ["report", "-o", "r"], ["simulate", "-n", "2"], ["check", "--deep", "-n", "1"],
])
def test_a_lone_surrogate_is_refused_where_it_is_written(write_game, capsys, command):
    name = write_game(SURROGATE_GAME)
    assert main([*command[:1], name, *command[1:]]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("g/game.yaml:2:8: error: the text holds \\uD800, half of a UTF-16 "
                          "surrogate pair, which is not a character")


def test_a_lone_surrogate_in_a_key_is_refused(write_game, capsys):
    name = write_game(r'''
        game: g
        players: [2, 2]
        terms:
          "x\uDC00": {en: X}
        scoring: {score: 0}
    ''')
    assert main(["check", name]) == 1
    assert "g/game.yaml:4:3: error: the text holds \\uDC00" in capsys.readouterr().err


def test_a_surrogate_from_the_command_line_is_printed_escaped(tmp_path):
    """A file name that is not UTF-8 reaches Python as surrogates; printing it is no crash."""
    name = b"\xff.dot"
    proc = subprocess.run([sys.executable, "-m", "meeplang.cli", "diagram", "pig", "--format",
                           "dot", "-o", name], capture_output=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"\\udcff.dot\n"
    assert (tmp_path / name.decode("utf-8", "surrogateescape")).exists()


@pytest.mark.parametrize("args", [["replay", "\ud800"], ["cite", "pig", "--rulebook", "fr=\ud800"],
                                  ["report", "pig", "-o", "\ud800"], ["view", "\ud800"]])
def test_a_lone_surrogate_as_a_file_name_is_an_error_not_a_crash(args, capsys, tmp_path,
                                                                 monkeypatch):
    """A lone surrogate (no UTF-8 bytes for it) as a file name: no file can have it; each
    command says so (exit 1 at the file, or 2) instead of an internal error."""
    monkeypatch.chdir(tmp_path)
    status = main(args)
    err = capsys.readouterr().err
    assert status in (1, 2), err
    assert "internal error" not in err, err
    assert "not valid text" in err or "cannot" in err, err


HOSTILE = "\x1b[2J\x1b]0;pwned\x07\r\nok: fake\x9b31m\x7f"

HOSTILE_GAME = r'''
game: g
title: "Race \e[2J\e]0;pwned\a\r\nok: fake\x9b31m\x7f"
players: [2, 2]
terms:
  roll: {en: "Roll \e[2J\r\nchoose> 0"}
counters:
  position: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [roll], per_turn: 1, until: never}
actions:
  roll:
    effect: "log \"said \e]0;x\a\r\x85[9] fake option\"\nadd 1 to position\nif position >= 2:\n  end game"
scoring: {score: position}
'''


def assert_safe(text: str) -> None:
    assert RAW.search(text) is None, repr(text)


@pytest.mark.parametrize("command", [
    ["check"], ["check", "--json"], ["play"], ["play", "--json"], ["play", "--trace"],
    ["explain"], ["explain", "--format", "md"], ["simulate", "-n", "2"], ["games"],
])
def test_control_characters_are_printed_escaped(write_game, capsys, command):
    name = write_game(HOSTILE_GAME)
    args = [*command[:1], *([name] if command[0] != "games" else []), *command[1:]]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert_safe(out)
    assert_safe(err)
    assert not any(line.startswith("ok: fake") for line in out.splitlines())
    if "--json" in command:  # still JSON, and the escape reads back as the very character
        data = json.loads(out)
        if command[0] == "play":
            assert data["game"] == "g"
    if command == ["check"]:
        assert out == ("ok: g (Race \\u001b[2J\\u001b]0;pwned\\u0007\\u000d\\u000aok: "
                       "fake\\u009b31m\\u007f, 2 players, 1 actions, 0 triggers, 1 warnings)\n")


def test_the_human_prompt_shows_texts_on_one_line(write_game, capsys, monkeypatch):
    name = write_game(HOSTILE_GAME)
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 10))
    assert main(["play", name, "--agents", "human"]) == 0
    out = capsys.readouterr().out
    assert_safe(out)
    assert "· event log, text said \\u001b]0;x\\u0007\\u000d\\u0085[9] fake option" in out
    assert not any(line.startswith("[9]") or line.startswith("  [9]") for line in out.splitlines())


def test_errors_quote_hostile_text_escaped(write_game, capsys):
    name = write_game("game: g\ntitle: \"\\e]0;x\\a\"\nplayers: [2, 2]\nscoring: {score: nope}\n")
    assert main(["check", name]) == 1
    assert_safe(capsys.readouterr().err)


def test_the_escapes():
    assert safe_text("a\tb\nc\x1bd\x9be\ud800") == "a\tb\nc\\u001bd\\u009be\\ud800"
    assert one_line("a\nb\u2028c\td") == "a\\u000ab\\u2028c\\u0009d"
    stream = io.StringIO()
    SafeStream(stream).write("x\x1b[2Jy")
    assert stream.getvalue() == "x\\u001b[2Jy"
    assert json.loads(safe_text(json.dumps(HOSTILE, ensure_ascii=False))) == HOSTILE


def test_a_closed_pipe_is_no_error(tmp_path):
    """`meeplang explain new-eden | head -1`: the reader has all it wanted."""
    proc = subprocess.run(f"'{sys.executable}' -m meeplang.cli explain new-eden | head -c 10",
                          shell=True, capture_output=True, timeout=120)
    assert proc.stderr == b"" and len(proc.stdout) == 10


def test_arguments_argparse_echoes_are_escaped(capsys):
    with pytest.raises(SystemExit):
        main(["check", "pig", "\x1b[2J\x1b]0;title\x07"])
    err = capsys.readouterr().err
    assert "unrecognized arguments: \\u001b[2J\\u001b]0;title\\u0007" in err
    assert_safe(err)
