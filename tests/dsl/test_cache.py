"""The cache of checked games (dsl/cache.py): a second load of the same bytes skips reading,
validating, parsing and checking; any change to a file that takes part is a new load; errors
and warnings behave exactly as without the cache; and nothing read back from the cache folder is
trusted (its owner and mode, each entry's type, key and files are checked; only Meeplang's model
classes can be unpickled; only the cache's own files are pruned)."""
from __future__ import annotations

import os
import pickle

import pytest

from meeplang.dsl import cache, resolve
from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game

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
def no_building(monkeypatch):
    """After this, loading must come from the cache: building a game fails the test."""
    def forbid():
        def fail(source):
            raise AssertionError("the game was built again instead of coming from the cache")
        monkeypatch.setattr(resolve, "build_game", fail)
    return forbid


def entries(folder):
    return sorted(p.name for p in folder.glob(f"*{cache.SUFFIX}")) if folder.exists() else []


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
    assert len(entries(cache_dir)) == 1  # the same load: its entry is rewritten


def test_a_new_variant_file_in_the_folder_is_a_new_load(write_game, cache_dir, tmp_path):
    name = write_game(GAME)
    assert load_game(name).variants == ()
    (tmp_path / name / "variants").mkdir()
    (tmp_path / name / "variants" / "rich.yaml").write_text(
        "extends: g\ncounters:\n  coins: {initial: 9}\n")
    assert load_game(f"{name}:rich").counters["coins"].initial.value == 9
    assert [v[0] for v in load_game(name).variants] == ["rich"]  # the listing changed
    assert len(entries(cache_dir)) == 2


def test_errors_are_never_cached(write_game, cache_dir):
    name = write_game(GAME.replace("gain 1 coins", "gain 1 coinz"))
    for _ in range(2):
        with pytest.raises(MeeplangError, match="coinz"):
            load_game(name)
    assert entries(cache_dir) == []


@pytest.mark.parametrize("planted", [
    b"not a pickle",
    pickle.dumps(["a list, not an entry"]),
    pickle.dumps((cache.FORMAT, "another key", (), None)),
], ids=["garbage", "wrong type", "wrong key"])
def test_an_unsound_entry_is_ignored_and_rewritten(write_game, cache_dir, planted):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    entry.write_bytes(planted)
    assert load_game(name) == game
    assert entry.read_bytes() != planted


class _Payload:
    """What an attacker plants: unpickling it would call os.system."""

    def __reduce__(self):
        return (os.system, ("touch pwned",))


def test_a_planted_entry_cannot_run_code(write_game, cache_dir, tmp_path):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    key = entry.name[:-len(cache.SUFFIX)]
    entry.write_bytes(pickle.dumps((cache.FORMAT, key, (), _Payload())))
    assert load_game(name) == game
    assert not (tmp_path / "pwned").exists()


def test_another_games_entry_under_this_key_is_not_played(write_game, cache_dir, tmp_path):
    load_game(write_game(GAME, name="a"))
    other = write_game(GAME.replace("game: g", "game: other"), name="b")
    load_game(other)
    key_a = cache.key_for(tmp_path / "a", None, None)
    key_b = cache.key_for(tmp_path / "b", None, None)
    (cache_dir / f"{key_b}{cache.SUFFIX}").rename(cache_dir / f"{key_a}{cache.SUFFIX}")
    assert load_game("a").name == "g"


def test_a_folder_others_can_write_is_not_used(write_game, cache_dir, capsys):
    cache_dir.mkdir(mode=0o700)
    os.chmod(cache_dir, 0o777)
    name = write_game(GAME)
    load_game(name)
    load_game(name)
    assert entries(cache_dir) == []
    err = capsys.readouterr().err
    assert err.count("not using the cache folder") == 1 and "others can write" in err


def test_a_link_as_cache_folder_is_not_used(write_game, cache_dir, tmp_path):
    (tmp_path / "real").mkdir(mode=0o700)
    cache_dir.symlink_to(tmp_path / "real")
    load_game(write_game(GAME))
    assert entries(tmp_path / "real") == []


def test_the_cache_can_be_turned_off(write_game, cache_dir, monkeypatch):
    monkeypatch.setenv("MEEPLANG_CACHE", "off")
    name = write_game(GAME)
    load_game(name)
    load_game(name)
    assert entries(cache_dir) == []


def test_the_key_depends_on_code_target_and_working_folder(write_game, cache_dir, tmp_path,
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


def test_old_entries_are_removed_beyond_the_limit_and_nothing_else(write_game, cache_dir,
                                                                  tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    cache_dir.mkdir(mode=0o700)
    theirs = ["notes.pickle", "photo.jpg", "0" * 64 + ".pickle"]
    for other in theirs:
        (cache_dir / other).write_text("the user's own file")
    keys = []
    for i, name in enumerate(("a", "b", "c")):
        load_game(write_game(GAME, name=name))
        keys.append(cache.key_for(tmp_path / name, None, None))
        stamp = 1_000_000_000 * (i + 1)  # distinct write times, oldest first
        os.utime(cache_dir / f"{keys[-1]}{cache.SUFFIX}", ns=(stamp, stamp))
    assert entries(cache_dir) == sorted(f"{k}{cache.SUFFIX}" for k in keys[1:])  # a went
    assert all((cache_dir / other).exists() for other in theirs)


def test_an_entry_over_the_byte_cap_is_not_stored(write_game, cache_dir, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 1000)
    load_game(write_game(GAME))
    assert entries(cache_dir) == []


def test_an_included_file_of_any_name_is_part_of_the_entry(write_game, cache_dir, tmp_path):
    extra = "counters:\n  bonus: {initial: 1}\n"
    name = write_game(GAME + "include: [more.txt]\n", files={"more.txt": extra})
    assert load_game(name).counters["bonus"].initial.value == 1
    (tmp_path / name / "more.txt").write_text(extra.replace("initial: 1", "initial: 2"))
    assert load_game(name).counters["bonus"].initial.value == 2


def test_unrelated_files_in_the_folder_are_never_read(write_game, cache_dir, tmp_path,
                                                      no_building):
    name = write_game(GAME)
    folder = tmp_path / name
    os.mkfifo(folder / "a-fifo")  # reading it would wait for ever
    (folder / "zeros").symlink_to("/dev/zero")  # reading it would never end
    with open(folder / "huge.bin", "wb") as f:
        f.truncate(3 * 1024 ** 3)  # 3 GB, sparse
    first = load_game(name)
    no_building()
    assert load_game(name) == first


def test_an_entry_over_the_byte_cap_is_not_read(write_game, cache_dir, monkeypatch, no_building):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    size = entry.stat().st_size
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", size)  # at the cap: read
    assert cache.get(entry.name[:-len(cache.SUFFIX)]) == game
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", size - 1)  # one byte over: a miss
    assert cache.get(entry.name[:-len(cache.SUFFIX)]) is None


def test_an_entry_that_is_a_link_is_not_followed(write_game, cache_dir, tmp_path):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    elsewhere = tmp_path / "elsewhere"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.get(entry.name[:-len(cache.SUFFIX)]) is None
    assert load_game(name) == game


# ------------------------------------------------------------ signed entries (issue #32 H)
def _forged(entry_bytes: bytes, key: bytes | None = None) -> bytes:
    """The entry's own key and file hashes, with another model in it (a changed title): what
    a planted entry looks like; signed with `key` if given, else left with the old signature."""
    mac, data = entry_bytes[:cache.MAC_BYTES], entry_bytes[cache.MAC_BYTES:]
    fmt, key_name, seen, game = pickle.loads(data)
    import attrs

    forged = pickle.dumps((fmt, key_name, seen, attrs.evolve(game, title={"en": "Planted"})))
    return (cache._mac(key, forged) if key else mac) + forged


@pytest.mark.parametrize("signed_with", ["old signature", "another key"])
def test_a_planted_entry_with_the_right_key_and_file_hashes_is_not_used(
        write_game, cache_dir, tmp_path, signed_with):
    name = write_game(GAME)
    game = load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    other_key = os.urandom(cache.KEY_BYTES) if signed_with == "another key" else None
    entry.write_bytes(_forged(entry.read_bytes(), other_key))
    loaded = load_game(name)
    assert loaded.title != {"en": "Planted"} and loaded == game


def test_an_entry_signed_with_the_users_key_is_used(write_game, cache_dir, no_building):
    """The signature is what decides: the same forgery signed with the user's key is trusted
    (so the test above fails for the right reason)."""
    name = write_game(GAME)
    load_game(name)
    (entry,) = cache_dir.glob(f"*{cache.SUFFIX}")
    entry.write_bytes(_forged(entry.read_bytes(), cache.signing_key()))
    no_building()
    assert load_game(name).title == {"en": "Planted"}


def test_the_key_is_made_once_outside_the_cache_folder(write_game, cache_dir, tmp_path,
                                                      monkeypatch):
    key = tmp_path / "config" / "cache-key"
    monkeypatch.setenv("MEEPLANG_CACHE_KEY", str(key))
    load_game(write_game(GAME))
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == cache.KEY_BYTES
    first = key.read_bytes()
    load_game(write_game(GAME.replace("initial: 3", "initial: 4"), name="h"))
    assert key.read_bytes() == first and not (cache_dir / "cache-key").exists()


def test_a_key_others_can_read_turns_the_cache_off(write_game, cache_dir, tmp_path, monkeypatch,
                                                  capsys):
    key = tmp_path / "cache-key"
    key.write_bytes(os.urandom(cache.KEY_BYTES))
    key.chmod(0o644)
    monkeypatch.setenv("MEEPLANG_CACHE_KEY", str(key))
    monkeypatch.setattr(cache, "_noted", set())
    load_game(write_game(GAME))
    assert entries(cache_dir) == []
    assert f"its signing key {key} must be a file of yours that only you can read" \
        in capsys.readouterr().err
