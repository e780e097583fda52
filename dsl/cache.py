"""A cache of checked games, like Python's .pyc files: the same inputs give the same Game.

A loaded game depends only on (a) the bytes of the files that can take part (every file in the
game folder, since an include may have any name, and a variant file given by path), (b) the
Meeplang code that reads them (this package's sources, the grammar, the schema), and (c) the
working folder (positions of games outside the bundled folder are shown relative to it). The key hashes all three, so any change
makes a new entry; nothing is ever invalidated by time.

Only successful loads are stored (a Game, warnings included); errors are recomputed every time.
Entries are written atomically (temporary file, then rename) in a folder only the user can read,
and an entry that cannot be read is ignored and rewritten. The cache is:
  - `$MEEPLANG_CACHE_DIR` if set, else `$XDG_CACHE_HOME/meeplang`, else `~/.cache/meeplang`;
  - off with `MEEPLANG_CACHE=off` (or `0`/`no`), or when the folder cannot be created;
  - at most MAX_ENTRIES entries: writing one more removes the oldest.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

FORMAT = 1  # bump when the pickled layout changes in a way the code digest would not show
MAX_FILES = 500  # a game folder with more files than this is not cached (hashing costs time)
MAX_BYTES = 20 * 1024 * 1024  # nor one holding more bytes than this
MAX_ENTRIES = 256  # beyond this, the least recently written entries go (an edit makes a new one)


def cache_dir() -> Path | None:
    if os.environ.get("MEEPLANG_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    given = os.environ.get("MEEPLANG_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeplang"


@functools.cache
def code_digest() -> str:
    """The hash of everything in Meeplang that decides what a game file loads to."""
    from .grammar import grammar_path

    here = Path(__file__).resolve().parent
    grammars = grammar_path().parent
    h = hashlib.sha256(f"format {FORMAT}".encode())
    for path in sorted(here.glob("*.py")) + sorted(here.glob("*.json")) + sorted(
            grammars.glob("*.lark")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def key_for(folder: Path, variant: str | None, variant_file: Path | None,
            game_file: Path | None = None) -> str | None:
    """The cache key of one load, or None when it should not be cached (a folder too big to hash
    quickly: more than MAX_FILES files or MAX_BYTES bytes)."""
    h = hashlib.sha256(code_digest().encode())
    h.update(f"\0{os.getcwd()}\0{folder.resolve()}\0{variant}\0{variant_file}\0{game_file}\0"
             .encode())
    files = []
    for root, dirs, names in os.walk(folder):  # every file: an include may have any name
        dirs.sort()
        for name in sorted(names):
            path = Path(root) / name
            files.append((str(path.relative_to(folder)), path))
            if len(files) > MAX_FILES:
                return None
    if variant_file is not None:
        files.append((str(Path(variant_file).resolve()), Path(variant_file)))
    total = 0
    for name, path in files:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        total += len(data)
        if total > MAX_BYTES:
            return None
        h.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def get(key: str):
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{key}.pickle", "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001 - unpickling a damaged entry can raise anything: a miss
        return None


def put(key: str, game) -> None:
    folder = cache_dir()
    if folder is None:
        return
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(game, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{key}.pickle")
        tmp = None
        _prune(folder)
    except (OSError, pickle.PicklingError, RecursionError):
        pass  # a cache that cannot be written only costs time
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _prune(folder: Path) -> None:
    """Keep the newest MAX_ENTRIES entries: every edit of a game file writes a new one."""
    entries = list(folder.glob("*.pickle"))
    if len(entries) <= MAX_ENTRIES:
        return
    def written(path):
        try:
            return path.stat().st_mtime_ns
        except OSError:
            return 0
    for old in sorted(entries, key=written)[:len(entries) - MAX_ENTRIES]:
        try:
            old.unlink()
        except OSError:
            pass
