"""The cache of checked games (dsl/cache.py): a second load of the same bytes skips reading,
validating, parsing and checking; any change to a file that can take part is a new load; errors
and warnings behave exactly as without the cache."""
from __future__ import annotations

import pytest

from dsl import cache, resolve
from dsl.errors import MeeplangError
from dsl.resolve import load_game

GAME = """\
game: g
players: 2
counters:
  coins: {per: player, initial: 3, min: 0}
  unused: {initial: 0}
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


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(folder))
    monkeypatch.delenv("MEEPLANG_CACHE", raising=False)
    return folder


@pytest.fixture
def no_building(monkeypatch):
    """After this, loading must come from the cache: building a game fails the test."""
    def forbid():
        def fail(source):
            raise AssertionError("the game was built again instead of coming from the cache")
        monkeypatch.setattr(resolve, "build_game", fail)
    return forbid


def entries(folder):
    return sorted(p.name for p in folder.glob("*.pickle")) if folder.exists() else []


def test_second_load_comes_from_the_cache(write_game, cache_dir, no_building):
    name = write_game(GAME)
    first = load_game(name)
    assert len(entries(cache_dir)) == 1
    no_building()
    second = load_game(name)
    assert second == first and second is not first
    assert [str(w) for w in second.warnings] == [str(w) for w in first.warnings]
    assert any("unused" in str(w) for w in second.warnings)  # warnings survive the cache
    assert second.rules_hash == first.rules_hash


def test_a_changed_file_is_loaded_again(write_game, cache_dir, tmp_path):
    name = write_game(GAME)
    assert load_game(name).counters["coins"].initial.value == 3
    (tmp_path / name / "game.yaml").write_text(GAME.replace("initial: 3", "initial: 4"))
    assert load_game(name).counters["coins"].initial.value == 4
    assert len(entries(cache_dir)) == 2


def test_a_new_variant_file_in_the_folder_is_a_new_key(write_game, cache_dir, tmp_path):
    name = write_game(GAME)
    load_game(name)
    (tmp_path / name / "variants").mkdir()
    (tmp_path / name / "variants" / "rich.yaml").write_text(
        "extends: g\ncounters:\n  coins: {initial: 9}\n")
    assert load_game(f"{name}:rich").counters["coins"].initial.value == 9
    assert load_game(name).counters["coins"].initial.value == 3
    assert len(entries(cache_dir)) == 3  # base, variant, and base again (the folder changed)


def test_errors_are_never_cached(write_game, cache_dir):
    name = write_game(GAME.replace("gain 1 coins", "gain 1 coinz"))
    for _ in range(2):
        with pytest.raises(MeeplangError, match="coinz"):
            load_game(name)
    assert entries(cache_dir) == []


def test_an_unreadable_entry_is_ignored_and_rewritten(write_game, cache_dir):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob("*.pickle")
    entry.write_bytes(b"not a pickle")
    assert load_game(name) == game
    assert entry.read_bytes().startswith(b"\x80")  # a pickle again


def test_the_cache_can_be_turned_off(write_game, cache_dir, monkeypatch):
    monkeypatch.setenv("MEEPLANG_CACHE", "off")
    name = write_game(GAME)
    load_game(name)
    load_game(name)
    assert entries(cache_dir) == []


def test_the_key_depends_on_code_files_and_working_folder(write_game, cache_dir, tmp_path,
                                                         monkeypatch):
    name = write_game(GAME)
    folder = tmp_path / name
    key = cache.key_for(folder, None, None)
    assert key == cache.key_for(folder, None, None)
    assert key != cache.key_for(folder, "rich", None)
    monkeypatch.setattr(cache, "code_digest", lambda: "another meeplang")
    assert key != cache.key_for(folder, None, None)
    monkeypatch.undo()
    monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(cache_dir))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # positions are shown relative to the cwd
    assert key != cache.key_for(folder, None, None)


def test_a_bundled_game_loads_the_same_from_the_cache(cache_dir, no_building):
    first = load_game("new-eden:solo")
    no_building()
    second = load_game("new-eden:solo")
    assert second == first
    assert [a.pos for a in second.actions.values()] == [a.pos for a in first.actions.values()]


def test_old_entries_are_removed_beyond_the_limit(write_game, cache_dir, tmp_path, monkeypatch):
    import os

    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    name = write_game(GAME)
    folder = tmp_path / name
    keys = []
    for i, initial in enumerate((4, 5, 6)):
        (folder / "game.yaml").write_text(GAME.replace("initial: 3", f"initial: {initial}"))
        load_game(name)
        keys.append(cache.key_for(folder, None, None))
        stamp = 1_000_000_000 * (i + 1)  # distinct write times, oldest first
        os.utime(cache_dir / f"{keys[-1]}.pickle", ns=(stamp, stamp))
    assert entries(cache_dir) == sorted(f"{k}.pickle" for k in keys[1:])  # 4 went, 5 and 6 stay


def test_an_included_file_of_any_name_is_part_of_the_key(write_game, cache_dir, tmp_path):
    extra = "counters:\n  bonus: {initial: 1}\n"
    name = write_game(GAME + "include: [more.txt]\n", files={"more.txt": extra})
    assert load_game(name).counters["bonus"].initial.value == 1
    (tmp_path / name / "more.txt").write_text(extra.replace("initial: 1", "initial: 2"))
    assert load_game(name).counters["bonus"].initial.value == 2


def test_a_folder_too_big_to_hash_is_not_cached(write_game, cache_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "MAX_FILES", 3)
    name = write_game(GAME, files={f"notes/{i}.md": "x" for i in range(5)})
    assert cache.key_for(tmp_path / name, None, None) is None
    load_game(name)
    assert entries(cache_dir) == []
