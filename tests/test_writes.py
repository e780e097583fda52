"""Every file Meeplang writes is written whole or not at all (dsl/atomic.py): a disk that fills up
or fails part-way through a write leaves what was there before intact, no temporary file behind,
and an error (exit 1) naming the file that could not be written.

Each write site is tested with the write failing after half its bytes (ENOSPC: a full disk;
EIO: a failing one)."""
from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from fuzz.faults import KINDS, Faults

from meeplang.cli import main
from meeplang.dsl import atomic
from meeplang.dsl.atomic import create_file, write_file, write_files



def failing_writes(monkeypatch, code, after: int = 0, cache: bool = False):
    """Let `after` writes through, then write half of the next one and fail with `code`. The
    cache of checked games is off, so that its entries (written or not, by whether an earlier
    test in this process loaded the game) do not shift the count."""
    if not cache:
        monkeypatch.setenv("MEEPLANG_CACHE", "off")
    real = atomic.write_all
    calls = []

    def write(fd, data):
        calls.append(len(data))
        if len(calls) > after:
            os.write(fd, bytes(data[: len(data) // 2]))
            raise OSError(code, os.strerror(code))
        real(fd, data)

    monkeypatch.setattr(atomic, "write_all", write)
    return calls


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob(f"{atomic.TEMP_PREFIX}*"))


# ------------------------------------------------------------ the helper itself
@pytest.mark.parametrize("code", KINDS)
def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch, code):
    target = tmp_path / "f.txt"
    target.write_text("old content")
    failing_writes(monkeypatch, code)
    with pytest.raises(OSError) as exc:
        write_file(target, "new content, longer than the old")
    assert exc.value.errno == code and exc.value.filename == str(target)
    assert target.read_text() == "old content"
    assert leftovers(tmp_path) == []


def test_a_write_replaces_the_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    target.chmod(0o640)
    write_file(target, "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640
    write_file(tmp_path / "fresh", b"\x00\x01")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "fresh").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("failing", [0, 1, 2])
def test_files_written_together_are_all_old_or_all_new(tmp_path, monkeypatch, failing):
    names = ["a", "b", "c"]
    for name in names:
        (tmp_path / name).write_text(f"old {name}")
    failing_writes(monkeypatch, errno.ENOSPC, after=failing)
    with pytest.raises(OSError) as exc:
        write_files([(tmp_path / name, f"new {name}") for name in names])
    assert exc.value.filename == str(tmp_path / names[failing])
    assert [(tmp_path / n).read_text() for n in names] == [f"old {n}" for n in names]
    assert leftovers(tmp_path) == []


def test_text_that_has_no_utf8_is_refused_before_anything_is_written(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    with pytest.raises(OSError) as exc:
        write_file(target, "a \ud800 b")
    assert exc.value.filename == str(target) and "not a character" in exc.value.strerror
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_create_never_replaces_anything_not_even_a_dangling_link(tmp_path):
    (tmp_path / "file").write_text("mine")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "folder").mkdir()
    for name in ("file", "dangling", "folder"):
        with pytest.raises(FileExistsError):
            create_file(tmp_path / name, "new")
    assert (tmp_path / "file").read_text() == "mine"
    assert not (tmp_path / "nowhere").exists()
    assert leftovers(tmp_path) == []
    create_file(tmp_path / "new", "text")
    assert (tmp_path / "new").read_text() == "text"


# ------------------------------------------------------------ every write site, by kind
@pytest.mark.parametrize("code", KINDS)
def test_play_log(tmp_path, monkeypatch, capsys, code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.jsonl").write_text("the previous game's log\n")
    failing_writes(monkeypatch, code)
    assert main(["play", "pig", "--seed", "3", "--log", "game.jsonl"]) == 1
    err = capsys.readouterr().err
    assert err == f"meeplang: error: game.jsonl: {os.strerror(code)}\n"
    assert (tmp_path / "game.jsonl").read_text() == "the previous game's log\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", KINDS)
def test_save_file(tmp_path, monkeypatch, code):
    from meeplang.dsl.resolve import load_game
    from meeplang.interpreter.engine import Engine
    from meeplang.interpreter.log import save_file

    engine = Engine(load_game("pig"), 2, 1)
    engine.start()
    (tmp_path / "s.json").write_text("an older save\n")
    failing_writes(monkeypatch, code)
    with pytest.raises(OSError):
        save_file(str(tmp_path / "s.json"), engine)
    assert (tmp_path / "s.json").read_text() == "an older save\n"
    assert leftovers(tmp_path) == []


REPORT_FILES = ["games.csv", "scores.png", "scores.svg", "win_rates.png", "win_rates.svg",
                "lengths.png", "lengths.svg", "summary.json", "index.html"]


@pytest.mark.parametrize("failing", range(len(REPORT_FILES)))
@pytest.mark.parametrize("code", KINDS)
def test_simulate_report_is_the_old_one_or_the_new_one(tmp_path, monkeypatch, capsys, code,
                                                        failing):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    for name in REPORT_FILES:
        (out / name).write_text(f"previous run's {name}")
    failing_writes(monkeypatch, code, after=failing)
    assert main(["simulate", "pig", "-n", "4", "--report", "out"]) == 1
    err = capsys.readouterr().err
    assert err == f"meeplang: error: out/{REPORT_FILES[failing]}: {os.strerror(code)}\n"
    assert {p.name: p.read_text() for p in out.iterdir()} == \
        {name: f"previous run's {name}" for name in REPORT_FILES}


@pytest.mark.parametrize("code", KINDS)
def test_new_variant(tmp_path, monkeypatch, capsys, code):
    monkeypatch.chdir(tmp_path)
    failing_writes(monkeypatch, code)
    assert main(["new", "variant", "pig", "house"]) == 1
    assert capsys.readouterr().err == f"meeplang: error: house.yaml: {os.strerror(code)}\n"
    assert list(tmp_path.iterdir()) == []


def test_new_variant_does_not_follow_a_dangling_link(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert main(["new", "variant", "pig", "house", "-o", "house.yaml"]) == 2
    assert "house.yaml exists already" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere.yaml").exists()


@pytest.mark.parametrize("code", KINDS)
def test_diagram(tmp_path, monkeypatch, capsys, code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pig.dot").write_text("digraph previous {}\n")
    failing_writes(monkeypatch, code)
    assert main(["diagram", "pig", "-o", "pig.dot"]) == 1
    assert capsys.readouterr().err == f"meeplang: error: pig.dot: {os.strerror(code)}\n"
    assert (tmp_path / "pig.dot").read_text() == "digraph previous {}\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", KINDS)
def test_report(tmp_path, monkeypatch, capsys, code):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "index.html").write_text("<p>previous</p>")
    failing_writes(monkeypatch, code)
    assert main(["report", "pig", "-o", "r"]) == 1
    assert capsys.readouterr().err == f"meeplang: error: r/index.html: {os.strerror(code)}\n"
    assert (tmp_path / "r" / "index.html").read_text() == "<p>previous</p>"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", KINDS)
def test_cache_entry(tmp_path, monkeypatch, write_game, code):
    """A cache entry that cannot be written is no entry (and no half of one): the game loads."""
    from meeplang.dsl import cache
    from meeplang.dsl.resolve import load_game

    monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(tmp_path / "cache"))
    name = write_game("""
        game: g
        players: [2, 2]
        scoring: {score: 0}
    """)
    real = atomic.write_all
    failing_writes(monkeypatch, code, cache=True)
    assert load_game(name).name == "g"
    assert list((tmp_path / "cache").iterdir()) == []
    monkeypatch.setattr(atomic, "write_all", real)
    load_game(name)
    assert len([p for p in (tmp_path / "cache").iterdir() if p.name.endswith(cache.SUFFIX)]) == 1


# ------------------------------------------------------------ by kind: every site, every call
# Every command that writes a file (found by where the project writes: dsl/atomic.py's callers and
# the cache), run once cleanly to learn what it writes and which writing calls it makes; then
# again over the previous run's files with one of those calls failing (tests/fuzz/faults.py).
# Each time: exit 1 and one line naming a file it was writing, every file as it was before, no
# temporary file left (or, when a failure does not stop it, exit 0 and every new file whole).
BOOKS = Path(__file__).parent / "translations"
SITES = {
    "play --log": (["play", "pig", "--seed", "3", "--log", "game.jsonl"], None),
    "simulate --report": (["simulate", "pig", "-n", "4", "--report", "out"], "matplotlib"),
    "diagram -o": (["diagram", "pig", "--format", "dot", "-o", "pig.dot"], None),
    "diagram --all-actions": (["diagram", "pig", "--all-actions", "charts", "--format", "dot"],
                              None),
    "report -o": (["report", "pig", "-o", "r"], "dot"),
    "new variant": (["new", "variant", "pig", "house"], None),
    "cite --html": (["cite", str(BOOKS / "market.yaml"), "--rulebook",
                     f"fr={BOOKS / 'books' / 'market.fr.txt'}", "--html", "cite.html"], None),
    "view -o": (["view", "seen.jsonl", "-o", "view.html"], "dot"),
    "aid -o": (["aid", "pig", "-o", "aid.svg"], None),
    "cache entry": (["check", "pig"], None),
}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "keys" not in p.relative_to(folder).parts}


def _run(folder: Path, argv: list[str], faults: Faults, capsys) -> tuple[int, str]:
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with faults:
            status = main(argv)
    finally:
        os.chdir(cwd)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("every", [pytest.param(False, id="each kind of call"),
                                   pytest.param(True, id="every call", marks=pytest.mark.slow)])
@pytest.mark.parametrize("site", SITES)
def test_a_write_failing_at_any_call_leaves_what_was_there(tmp_path, monkeypatch, capsys, site,
                                                             every):
    argv, needs = SITES[site]
    if needs == "matplotlib":
        pytest.importorskip("matplotlib")
    if needs == "dot" and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    if site == "simulate --report" and not every:
        pytest.skip("slow: test_simulate_report_is_the_old_one_or_the_new_one is its fast test")
    cached = site == "cache entry"
    monkeypatch.setenv("MEEPLANG_CACHE", "on" if cached else "off")
    monkeypatch.setenv("MEEPLANG_CACHE_KEY", str(tmp_path / "keys" / "cache-key"))

    def fresh(name: str) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(folder / "cache"))
        if site == "view -o":
            assert main(["play", "pig", "--seed", "1", "--log", str(folder / "seen.jsonl")]) == 0
        return folder

    clean = fresh("clean")
    before = _files(clean)
    counted = Faults()
    assert _run(clean, argv, counted, capsys)[0] == 0
    new = {k: v for k, v in _files(clean).items() if before.get(k) != v}
    assert new and counted.calls  # the command writes: the test can fail
    # the previous run's files, where the command writes (`new variant` never replaces a file)
    previous = {**before, **{k: f"previous run's {k}".encode() for k in new
                             if not cached and site != "new variant"}}
    points = range(len(counted.calls)) if every else sorted(
        {counted.calls.index(kind) for kind in counted.calls} | {len(counted.calls) - 1})
    wrong = []
    for n, at in enumerate(points):
        code = KINDS[n % 2] if not every else KINDS[at % 2]
        folder = fresh(f"at{at}")
        for name, data in previous.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        faults = Faults(code, at)
        status, err = _run(folder, argv, faults, capsys)
        kind = f"{counted.calls[at]} #{at} failing with {errno.errorcode[code]}"
        after = _files(folder)
        if leftovers(folder):
            wrong.append(f"{kind}: left {leftovers(folder)}")
        if "Traceback" in err or "internal error" in err:
            wrong.append(f"{kind}: {err}")
        elif cached:  # no entry, or a whole one (renamed into place): the game is checked
            from meeplang.dsl.cache import SUFFIX

            if status != 0 or any(not k.endswith(SUFFIX) for k in set(after) - set(previous)):
                wrong.append(f"{kind}: exit {status}, cache {sorted(after)}")
        elif status == 0:  # the failure did not stop it (keeping an old file's second name):
            # every file is a new one (plots, PDFs and timings differ from run to run)
            if any(k not in after or after[k] == previous.get(k) for k in new):
                wrong.append(f"{kind}: exit 0 but the files are not all new")
        elif status != 1 or not any(err == f"meeplang: error: {name}: {os.strerror(code)}\n"
                                    for name in new):
            wrong.append(f"{kind}: exit {status}, {err!r}")
        elif after != previous:
            changed = sorted(k for k in set(after) | set(previous)
                             if after.get(k) != previous.get(k))
            wrong.append(f"{kind}: changed {changed}")
    assert wrong == []
