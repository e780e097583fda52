"""Reading a game folder (dsl/folder.py): only the files the loader names are read, each a regular
file inside the folder whose size is checked before reading; nothing else in the folder (a FIFO,
a link to /dev/zero, gigabytes of other data) is ever opened, with the cache on or off."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from meeplang.dsl import folder as files
from meeplang.dsl.errors import LoadError
from meeplang.dsl.resolve import load_game
from meeplang.dsl.yamlpos import MAX_FILE_BYTES

GAME = """\
game: g
players: 2
counters:
  coins: {per: player, initial: 3, min: 0}
actions:
  earn:
    effect: gain 1 coins
flow:
  - phase: main
    steps:
      - turns: {first: 0, actions: [earn], until: one_round}
scoring:
  score: coins
"""


@pytest.fixture(params=["cache on", "cache off"])
def cache_mode(request, monkeypatch, tmp_path):
    if request.param == "cache off":
        monkeypatch.setenv("MEEPLANG_CACHE", "off")
    else:
        monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(tmp_path / "cache"))


def hostile_neighbours(folder):
    """What a Downloads folder may hold: reading any of these would hang or exhaust memory."""
    os.mkfifo(folder / "a-fifo")
    (folder / "zeros.yaml").symlink_to("/dev/zero")
    with open(folder / "huge.bin", "wb") as f:
        f.truncate(3 * 1024 ** 3)  # 3 GB, sparse: costs nothing unless read


def test_odd_files_beside_the_game_are_never_read(write_game, tmp_path, cache_mode):
    folder = write_game(GAME)
    hostile_neighbours(tmp_path / folder)
    assert load_game(folder).name == "g"
    assert load_game(f"{folder}/game.yaml").name == "g"


def test_a_yaml_given_by_path_does_not_scan_its_folder(write_game, tmp_path, cache_mode):
    write_game(GAME)
    (tmp_path / "g" / "variants").mkdir()
    (tmp_path / "g" / "variants" / "rich.yaml").write_text("extends: g\n")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    hostile_neighbours(downloads)
    (downloads / "rich.yaml").write_text("extends: ../g\ncounters:\n  coins: {initial: 9}\n")
    assert load_game(str(downloads / "rich.yaml")).counters["coins"].initial.value == 9


@pytest.mark.parametrize("make, message", [
    (os.mkfifo, "not a regular file"),
    (lambda p: p.symlink_to("/dev/zero"), "leaves the game folder"),
    (lambda p: p.mkdir(), "not a regular file"),
    (lambda p: open(p, "wb").truncate(MAX_FILE_BYTES + 1), "file is larger than 2 MB"),
], ids=["fifo", "link to /dev/zero", "folder", "sparse file over the limit"])
def test_an_odd_game_file_is_refused_at_once(write_game, tmp_path, cache_mode, make, message):
    write_game(GAME.replace("players: 2", "players: 2\ninclude: [more.yaml]"))
    make(tmp_path / "g" / "more.yaml")
    with pytest.raises(LoadError, match=message) as info:
        load_game("g")
    assert str(info.value.pos) in ("g/more.yaml:1:1", "g/game.yaml:3:11")


def test_a_variant_file_linked_out_of_the_folder_is_refused(write_game, tmp_path, cache_mode):
    write_game(GAME)
    (tmp_path / "g" / "variants").mkdir()
    (tmp_path / "elsewhere.yaml").write_text("extends: g\n")
    (tmp_path / "g" / "variants" / "x.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(LoadError, match="a link that leaves the game folder"):
        load_game("g:x")


def test_a_game_file_exactly_at_the_size_limit_is_read(write_game, tmp_path, cache_mode):
    data = GAME.encode()
    write_game(data + b"#" * (MAX_FILE_BYTES - len(data) - 1) + b"\n")
    assert os.path.getsize(tmp_path / "g" / "game.yaml") == MAX_FILE_BYTES
    assert load_game("g").name == "g"


def test_a_small_file_is_read_without_a_buffer_of_the_limit(tmp_path):
    # found by the fuzzer: every log read asked os.read for 64 MB (its limit), which a process
    # near its memory limit could not get (MemoryError)
    import tracemalloc

    path = tmp_path / "small.log"
    path.write_bytes(b"x" * 1000)
    tracemalloc.start()
    try:
        data = files.read_bytes(path, "small.log", limit=64 * 1024 * 1024)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data == b"x" * 1000 and peak < 1024 * 1024


def test_a_file_that_grew_since_its_size_was_taken_is_read_up_to_the_limit(tmp_path):
    path = tmp_path / "growing.log"
    path.write_bytes(b"y" * 200_000)
    fd = os.open(path, os.O_RDONLY)
    try:  # its size was taken at 10 bytes: the rest is read too, up to the limit
        assert files._read_up_to(fd, 10, 150_001) == b"y" * 150_001
    finally:
        os.close(fd)


def test_a_file_given_by_path_that_links_out_of_its_folder_is_never_read(
        write_game, tmp_path, capsys, cache_mode):
    """A shared folder's `house.yaml` may be a link to a private file: it was read (to see whether
    it is a variant) before its link was refused, and the error quoted its first line."""
    from meeplang.cli import main

    write_game(GAME)
    (tmp_path / "private.txt").write_text("root:$6$secret-hash:19000:0:99999:7:::\n")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "house.yaml").symlink_to(tmp_path / "private.txt")
    with pytest.raises(LoadError, match="a link that leaves the game folder"):
        load_game("shared/house.yaml")
    assert main(["check", "shared/house.yaml"]) == 1
    assert main(["play", "g", "--variant", "shared/house.yaml"]) == 1
    out = capsys.readouterr()
    assert "secret-hash" not in out.out + out.err


def test_a_file_no_read_can_take_is_an_error_at_the_file():
    """/proc/self/mem is a "regular file" whose every read at 0 fails (EIO), as a failing disk's
    may: an error at the file, not "output: Input/output error"."""
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc")
    with pytest.raises(LoadError) as info:
        files.read_bytes(Path("/proc/self/mem"), "mem.yaml")
    assert str(info.value) == "mem.yaml:1:1: error: cannot read file: Input/output error"


def test_includes_cannot_multiply_the_size_of_a_game(write_game, tmp_path, cache_mode):
    """Each file is at most 2 MB, the files of one load at most 4 MB together: 20 includes of
    1.9 MB each took 108 s and 620 MB to check. The include that passes the bound is refused
    before it is parsed."""
    from meeplang.dsl.loader import MAX_GAME_BYTES

    part = b"# filler\n" * ((MAX_FILE_BYTES - 1000) // 9)  # comments: cheap to parse
    files_ = {f"p{i}.yaml": part for i in range(3)}
    text = GAME.replace("players: 2", "players: 2\ninclude: [p0.yaml, p1.yaml, p2.yaml]")
    write_game(text, files=files_)
    assert 2 * len(part) + len(text) <= MAX_GAME_BYTES < 3 * len(part)
    with pytest.raises(LoadError) as info:
        load_game("g")
    assert str(info.value) == ("g/game.yaml:3:29: error: the game's files together (the game "
                               "file, its includes and variants) are larger than 4 MB")


def test_a_file_includes_at_most_32_files(write_game, cache_mode):
    names = ", ".join(f"p{i}.yaml" for i in range(33))
    write_game(GAME.replace("players: 2", f"players: 2\ninclude: [{names}]"),
               files={f"p{i}.yaml": f"tables: {{t{i}: [1]}}\n" for i in range(33)})
    with pytest.raises(LoadError, match=r"include: at most 32 files") as info:
        load_game("g")
    assert info.value.pos.line == 3 and info.value.pos.col == 11 + names.index("p32.yaml")
    write_game(GAME.replace("players: 2", f"players: 2\ninclude: [{names[:names.index(', p32')]}]"))
    assert load_game("g").tables["t31"] == [1]
