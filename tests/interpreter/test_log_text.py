"""A log Meeplang writes is a log Meeplang reads: one record a line whatever characters the game's
texts hold (U+0085, U+2028, U+2029 are written as JSON escapes and never split a line), a log
with a byte order mark is read as game files are, and a byte that is not UTF-8 is refused where
it stands."""
from __future__ import annotations

import json

import pytest

from meeplang.cli import main
from meeplang.dsl.errors import LoadError
from meeplang.interpreter import log as L
from meeplang.interpreter.deep_check import run_deep

BREAKS = ["\x85", "\u2028", "\u2029"]

# The rule text is a double-quoted YAML scalar, so `\\u2028` there is the character itself in
# the logged text; the option's text is a name a log's header holds.
GAME = r'''
game: seps
players: [2, 2]
options:
  motto: {default: "x\u2028y"}
flow:
  - turns: {first: 0, actions: [say], per_turn: 1, until: never}
actions:
  say:
    effect: "log \"one\u2028two\x85three\u2029four\"\nend game"
scoring: {score: 0}
'''


@pytest.fixture
def seps(write_game):
    return write_game(GAME, "seps")


def test_line_separators_in_texts_are_escaped_and_the_log_replays(seps, tmp_path, capsys):
    assert main(["play", seps, "--log", "l.jsonl", "--option", "motto=a\u2028b\x85c"]) == 0
    text = (tmp_path / "l.jsonl").read_text(encoding="utf-8")
    assert not any(c in text for c in BREAKS)
    assert len(text.splitlines()) == len(text.split("\n")) - 1  # any reader sees the same lines
    records = [json.loads(line) for line in text.splitlines()]
    assert records[0]["options"] == {"motto": "a\u2028b\x85c"}
    assert any(r.get("text") == "one\u2028two\x85three\u2029four" for r in records)
    capsys.readouterr()
    assert main(["replay", "l.jsonl"]) == 0, capsys.readouterr().err


def test_an_older_log_with_raw_separators_still_replays(seps, tmp_path):
    """Logs written before the escaping hold the characters raw: still one record a line."""
    assert main(["play", seps, "--log", "l.jsonl"]) == 0
    path = tmp_path / "l.jsonl"
    raw = path.read_text(encoding="utf-8")
    for c in BREAKS:
        raw = raw.replace(f"\\u{ord(c):04x}", c)
    assert "\u2028" in raw
    path.write_text(raw, encoding="utf-8")
    L.replay(str(path))


def test_deep_check_reads_the_log_text_back(seps):
    summary, broken = run_deep(seps, 1, "random", 0)
    assert broken is None and summary.replays >= 1


def test_deep_check_would_see_a_log_split_by_a_line_separator(seps, monkeypatch):
    """The round trip is of the text: a log that splits where it should not is a break."""
    monkeypatch.setattr(L, "_ESCAPED", __import__("re").compile("(?!)"))  # escape nothing
    real = L.records_of_text

    def splitlines_reader(text, path, fmt):  # how the old reader (and many tools) split lines
        return real("\n".join(text.splitlines()), path, fmt)

    monkeypatch.setattr("meeplang.interpreter.deep_check.records_of_text", splitlines_reader)
    _, broken = run_deep(seps, 1, "random", 0)
    assert broken is not None and "replay failed" in broken.what


def test_a_log_with_a_byte_order_mark_replays(tmp_path):
    assert main(["play", "pig", "--seed", "2", "--log", str(tmp_path / "l.jsonl")]) == 0
    path = tmp_path / "l.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert L.replay(str(path)).choices


def test_a_byte_that_is_not_utf8_is_refused_where_it_stands(tmp_path):
    assert main(["play", "pig", "--seed", "2", "--log", str(tmp_path / "l.jsonl")]) == 0
    path = tmp_path / "l.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3][:4] + "é".encode() + b"\xff" + lines[3][4:]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:4:6: error: cannot read: not UTF-8 text"


def test_a_nul_byte_in_a_game_file_is_refused_where_it_stands(write_game):
    from meeplang.dsl.resolve import load_game

    name = write_game(b"game: g\nplayers: [2, 2]\ntitle: ab\x00c\nscoring: {score: 0}\n")
    with pytest.raises(LoadError) as info:
        load_game(name)
    assert str(info.value) == "g/game.yaml:3:10: error: file contains a NUL byte"


def test_a_huge_differing_line_is_quoted_cut(tmp_path):
    assert main(["play", "pig", "--seed", "2", "--log", str(tmp_path / "l.jsonl")]) == 0
    path = tmp_path / "l.jsonl"
    lines = path.read_text().split("\n")
    record = json.loads(lines[2])
    record["padding"] = "x" * 5_000_000
    lines[2] = json.dumps(record)
    path.write_text("\n".join(lines))
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:3:1: error: replay differs from the log here: log says ")
    assert len(message) < 1000 and "(5,000,0" in message


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "dangling"])
def test_a_game_file_that_is_not_a_file_is_refused_as_such(write_game, tmp_path, capsys, kind):
    import os

    folder = tmp_path / "odd"
    folder.mkdir()
    target = folder / "game.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero" if kind == "dev-zero" else folder / "gone.yaml")
    assert main(["check", "odd"]) == 1
    err = capsys.readouterr().err
    # where it stands (the link's target for a dangling link), never "no game named"
    assert err.startswith(("odd/game.yaml:1:1: error: ", "odd/gone.yaml:1:1: error: cannot "
                           "read file")) and "no game named" not in err


def test_a_variant_that_is_a_fifo_is_refused_as_such(write_game, tmp_path, capsys):
    import os

    name = write_game("game: g\nplayers: [2, 2]\nscoring: {score: 0}\n")
    (tmp_path / name / "variants").mkdir()
    os.mkfifo(tmp_path / name / "variants" / "x.yaml")
    assert main(["check", f"{name}:x"]) == 1
    assert capsys.readouterr().err.startswith(
        "g/variants/x.yaml:1:1: error: not a regular file (a folder, device or pipe cannot be a "
        "game file)")
