"""Shared helpers for the Core test suite.

Tests that need a game write a small folder with a game.yaml into tmp_path (never into games/).
The `write_game` fixture changes the working directory to tmp_path, so error positions read
`<folder>/game.yaml:LINE:COL`, exactly as a user running `meeplang check <folder>` there sees them.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import textwrap

import pytest

# Checked games are cached (dsl/cache.py); the tests use a cache of their own, new for each run,
# so a second load of a game in the suite goes through the cache as it does for users.
# Its entries are signed with a key of its own too (never the user's ~/.config/meeplang/cache-key).
if "MEEPLANG_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="meeplang-test-cache-")
    os.environ["MEEPLANG_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)
if "MEEPLANG_CACHE_KEY" not in os.environ:
    _keys = tempfile.mkdtemp(prefix="meeplang-test-key-")
    os.environ["MEEPLANG_CACHE_KEY"] = os.path.join(_keys, "cache-key")
    atexit.register(shutil.rmtree, _keys, True)


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.fixture
def write_game(tmp_path, monkeypatch):
    """write_game(yaml_text, name="g", files={...}) -> folder name (relative to the cwd)."""
    monkeypatch.chdir(tmp_path)

    def write(text: str, name: str = "g", files: dict | None = None) -> str:
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        data = text if isinstance(text, bytes) else dedent(text).encode("utf-8")
        (folder / "game.yaml").write_bytes(data)
        for rel, content in (files or {}).items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content if isinstance(content, bytes) else dedent(content).encode())
        return name

    return write


@pytest.fixture
def load(write_game):
    """load(yaml_text) -> Game, loaded from a fresh folder `g` in tmp_path."""
    from meeplang.dsl.resolve import load_game

    def do(text: str, name: str = "g", **kw):
        return load_game(write_game(text, name, **kw))

    return do


@pytest.fixture
def stop_message():
    """stop_message(game, players=2, agents="random") -> the text of the RuleError that a game of
    these rules (seed 0) stops with; fails the test if it does not stop with one."""
    from meeplang.dsl.errors import RuleError
    from meeplang.interpreter.simulation import play_game

    def run(game, players: int = 2, agents: str = "random") -> str:
        with pytest.raises(RuleError) as info:
            play_game(game, players, 0, agents)
        return str(info.value)

    return run


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache folder of the test's own (dsl/cache.py), turned on."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEEPLANG_CACHE_DIR", str(folder))
    monkeypatch.delenv("MEEPLANG_CACHE", raising=False)
    return folder
