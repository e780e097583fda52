"""A cache of checked games, like Python's .pyc files, that trusts nothing it reads back.

A loaded game depends only on (a) the bytes of the files the loader read (game.yaml, includes,
variant files, the list of variants: dsl/folder.py records each with its hash), (b) the Meeplang
code that reads them (this package's sources, the grammar, the schema), and (c) the working folder
(positions of games outside the bundled folder are shown relative to it). An entry is filed under
the hash of (b), (c) and what was asked for (folder, variant, variant file), and holds the Game
with the list of (a): it is used only if every one of those files still hashes the same.

Trust rules (docs/security.md):
  - the folder is used only if it is the user's own and nobody else can write to it (a folder
    that is not is skipped, with a one-line note); it is created readable by the user only;
  - an entry is read only if it is a regular file of the user's, at most MAX_ENTRY_BYTES, and is
    unpickled by `_Unpickler`, which builds Meeplang's own model classes and plain data and
    nothing else (no other class, no function: a planted entry cannot run code);
  - what comes out must be an entry of this format, stored under the very key asked for, holding
    a Game: anything else is a miss, and the entry is rewritten;
  - only files named like entries (`<64 hex digits>.meeplang-game`) are ever pruned, oldest first,
    beyond MAX_ENTRIES entries or MAX_TOTAL_BYTES bytes.
Only successful loads are stored; errors are recomputed every time. The folder is
`$MEEPLANG_CACHE_DIR` if set, else `$XDG_CACHE_HOME/meeplang`, else `~/.cache/meeplang`; the
cache is off with `MEEPLANG_CACHE=off` (or `0`/`no`).
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import io
import os
import pickle
import re
import stat
import sys
from pathlib import Path

from . import folder as files
from .atomic import write_file

FORMAT = 3  # bump when the pickled layout changes in a way the code digest would not show
# (3: the model classes moved from dsl.* to meeplang.dsl.*, their pickled class paths)
SUFFIX = ".meeplang-game"
MAX_ENTRY_BYTES = 16 * 1024 * 1024  # a larger entry is neither written nor read
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # beyond this, the least recently written entries go
MAX_ENTRIES = 256  # and beyond this many entries (an edit rewrites its entry in place)
_ENTRY = re.compile(r"^[0-9a-f]{64}" + re.escape(SUFFIX) + "$")
_noted: set[str] = set()


def cache_dir() -> Path | None:
    if os.environ.get("MEEPLANG_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    given = os.environ.get("MEEPLANG_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeplang"


def _note(folder: Path, why: str) -> None:
    """Say once per process why the cache is not used (it only costs time)."""
    if str(folder) not in _noted:
        _noted.add(str(folder))
        print(f"meeplang: note: not using the cache folder {folder}: {why}", file=sys.stderr)


def _own(info: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def trusted_dir(create: bool = False) -> Path | None:
    """The cache folder if it is safe to use: a real folder (not a link) of the user's that no
    one else can write to; created (mode 700) when `create` and missing."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        if not create:
            return None
        try:
            folder.mkdir(parents=True, mode=0o700)
            info = os.lstat(folder)
        except OSError:
            return None
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        _note(folder, "it is not a folder (or is a link)")
    elif not _own(info):
        _note(folder, "it belongs to another user")
    elif info.st_mode & 0o022:
        _note(folder, f"others can write to it (chmod go-w {folder})")
    else:
        return folder
    return None


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
            game_file: Path | None = None) -> str:
    """The key of one load: what was asked for (the folder, variant, variant file, or a game file
    not named game.yaml), by which Meeplang, from which working folder. (The files' contents are
    checked against the entry, not hashed into its name.)"""
    where = Path(variant_file).resolve() if variant_file is not None else None
    game = Path(game_file).resolve() if game_file is not None else None
    return hashlib.sha256(f"{code_digest()}\0{os.getcwd()}\0{folder.resolve()}\0{variant}\0"
                          f"{where}\0{game}".encode()).hexdigest()


class _Unpickler(pickle.Unpickler):
    """Builds only Meeplang's model classes (the public classes of meeplang.dsl.model, meeplang.dsl.ast, meeplang.dsl.errors
    and the positioned YAML values of meeplang.dsl.yamlpos) and plain data: no function, no other class."""

    MODULES = ("meeplang.dsl.model", "meeplang.dsl.ast", "meeplang.dsl.errors", "meeplang.dsl.yamlpos")

    def find_class(self, module, name):
        if module in self.MODULES and not name.startswith("_"):
            value = getattr(importlib.import_module(module), name, None)
            if isinstance(value, type) and value.__module__ == module:
                return value
        raise pickle.UnpicklingError(f"{module}.{name} is not a Meeplang model class")


def get(key: str):
    """The Game stored under `key`, if its entry is sound and its files are unchanged; else None."""
    from .model import Game

    folder = trusted_dir()
    if folder is None:
        return None
    try:
        fd = os.open(folder / f"{key}{SUFFIX}", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not (stat.S_ISREG(info.st_mode) and _own(info) and
                    info.st_size <= MAX_ENTRY_BYTES):
                return None
            entry = _Unpickler(io.BytesIO(f.read(MAX_ENTRY_BYTES + 1))).load()
    except Exception:  # noqa: BLE001 - unpickling a damaged entry can raise anything: a miss
        return None
    if not (type(entry) is tuple and len(entry) == 4 and entry[0] == FORMAT and
            entry[1] == key and isinstance(entry[3], Game) and type(entry[2]) is tuple and
            all(type(r) is tuple and len(r) == 2 and all(type(x) is str for x in r)
                for r in entry[2])):
        return None
    return entry[3] if files.unchanged(list(entry[2])) else None


def put(key: str, game, seen: list) -> None:
    """Store `game` under `key` with the files it was read from (`seen`, see dsl/folder.py)."""
    folder = trusted_dir(create=True)
    if folder is None:
        return
    try:
        data = pickle.dumps((FORMAT, key, tuple(seen), game), protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > MAX_ENTRY_BYTES:
            return
        # readable by the user only; not flushed to the disk: a lost entry only costs time
        write_file(folder / f"{key}{SUFFIX}", data, mode=0o600, durable=False)
        _prune(folder)
    except (OSError, pickle.PicklingError, RecursionError):
        pass  # a cache that cannot be written only costs time


def _prune(folder: Path) -> None:
    """Keep the newest entries within MAX_ENTRIES and MAX_TOTAL_BYTES; touch nothing else."""
    entries = []
    for path in folder.iterdir():
        if _ENTRY.match(path.name):
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                entries.append((info.st_mtime_ns, info.st_size, path))
    entries.sort(reverse=True)
    total = 0
    for n, (_, size, path) in enumerate(entries):
        total += size
        if n >= MAX_ENTRIES or total > MAX_TOTAL_BYTES:
            try:
                path.unlink()
            except OSError:
                pass
