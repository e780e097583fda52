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
  - an entry is signed (HMAC-SHA256) with a secret key of the user's, kept outside the cache
    folder (`$MEEPLANG_CACHE_KEY`, else `$XDG_CONFIG_HOME/meeplang/cache-key`, else
    `~/.config/meeplang/cache-key`; 32 random bytes, mode 600, made on first use): an entry whose
    signature does not match (planted, copied from another machine or another user's cache,
    edited) is a miss before a byte of it is unpickled. A key file that is not a regular file of
    the user's that only the user can read turns the cache off, with a note;
  - what comes out must be an entry of this format, stored under the very key asked for, holding
    a Game: anything else is a miss, and the entry is rewritten;
  - the interpreter's lowered code (interpreter/lowering.py; `.meeplang-code` entries, the
    compiled form of the engine's own sources and of a game's generated module, filed under the
    hash of the source they were made from) is signed the same way: an entry this user's
    Meeplang did not write is never loaded;
  - only files named like entries (`<64 hex digits>.meeplang-game` or `.meeplang-code`) are ever pruned, oldest first,
    beyond MAX_ENTRIES entries or MAX_TOTAL_BYTES bytes.
Only successful loads are stored; errors are recomputed every time. The folder is
`$MEEPLANG_CACHE_DIR` if set, else `$XDG_CACHE_HOME/meeplang`, else `~/.cache/meeplang`; the
cache is off with `MEEPLANG_CACHE=off` (or `0`/`no`).
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import importlib
import io
import os
import pickle
import re
import secrets
import stat
import sys
from pathlib import Path

from . import folder as files
from .atomic import write_all, write_file

FORMAT = 4  # bump when the pickled layout changes in a way the code digest would not show
# (3: the model classes moved from dsl.* to meeplang.dsl.*, their pickled class paths; 4: signed)
SUFFIX = ".meeplang-game"
CODE_SUFFIX = ".meeplang-code"  # an entry of lowered code (interpreter/lowering.py)
MAX_ENTRY_BYTES = 16 * 1024 * 1024  # a larger entry is neither written nor read
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # beyond this, the least recently written entries go
MAX_ENTRIES = 256  # and beyond this many entries (an edit rewrites its entry in place)
KEY_BYTES = 32
MAC_BYTES = hashlib.sha256().digest_size
_ENTRY = re.compile(r"^[0-9a-f]{64}(" + re.escape(SUFFIX) + "|" + re.escape(CODE_SUFFIX) + ")$")
_noted: set[str] = set()


def cache_dir() -> Path | None:
    if os.environ.get("MEEPLANG_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    given = os.environ.get("MEEPLANG_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeplang"


def key_path() -> Path:
    """Where the secret that signs entries lives: never inside the cache folder, so a cache
    copied, restored or planted without it is worth nothing."""
    given = os.environ.get("MEEPLANG_CACHE_KEY")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "meeplang" / "cache-key"


def signing_key() -> bytes | None:
    """The user's secret key (made on first use); None, with a note, if it cannot be trusted."""
    path = key_path()
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            create_file_with(path, secrets.token_bytes(KEY_BYTES))
        except FileExistsError:
            pass  # another process made it first: read theirs
        except OSError:
            return None  # no place for a key (a read-only home): no cache, silently
        try:
            fd = os.open(path, flags)
        except OSError:
            return None
    except OSError:
        _note(cache_dir(), f"its signing key {path} cannot be read (or is a link)")
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or not _own(info) or info.st_mode & 0o077:
            _note(cache_dir(), f"its signing key {path} must be a file of yours that only you "
                  f"can read (chmod 600 {path})")
            return None
        key = f.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        _note(cache_dir(), f"its signing key {path} is not {KEY_BYTES} bytes long (delete it: "
              "a new one is made)")
        return None
    return key


def create_file_with(path: Path, data: bytes) -> None:
    """A new file readable by the user only (never over anything there)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        write_all(fd, data)
        os.fsync(fd)
    except OSError:
        os.close(fd)
        os.unlink(path)
        raise
    os.close(fd)


def _mac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


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
    """Builds only Meeplang's model classes (the public classes of meeplang.dsl.model, meeplang.dsl.ast, meeplang.dsl.errors,
    the dependency graph's of meeplang.dsl.depends and the positioned YAML values of
    meeplang.dsl.yamlpos) and plain data: no function, no other class."""

    MODULES = ("meeplang.dsl.model", "meeplang.dsl.ast", "meeplang.dsl.errors", "meeplang.dsl.yamlpos",
               "meeplang.dsl.depends")

    def find_class(self, module, name):
        if module in self.MODULES and not name.startswith("_"):
            value = getattr(importlib.import_module(module), name, None)
            if isinstance(value, type) and value.__module__ == module:
                return value
        raise pickle.UnpicklingError(f"{module}.{name} is not a Meeplang model class")


def _read_signed(name: str) -> bytes | None:
    """The payload of the entry file `name` if it is a regular file of the user's, within
    MAX_ENTRY_BYTES, signed with the user's key; else None (nothing of it is used)."""
    folder = trusted_dir()
    if folder is None:
        return None
    try:
        fd = os.open(folder / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not (stat.S_ISREG(info.st_mode) and _own(info) and
                    info.st_size <= MAX_ENTRY_BYTES):
                return None
            data = f.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    secret = signing_key()
    if secret is None or len(data) > MAX_ENTRY_BYTES or \
            not hmac.compare_digest(data[:MAC_BYTES], _mac(secret, data[MAC_BYTES:])):
        return None  # not an entry this user's Meeplang wrote: never read further
    return data[MAC_BYTES:]


def _write_signed(name: str, payload: bytes) -> None:
    """Store `payload` signed with the user's key in the entry file `name` (or nothing: a cache
    that cannot be written only costs time)."""
    folder = trusted_dir(create=True)
    if folder is None:
        return
    secret = signing_key()
    if secret is None:
        return
    data = _mac(secret, payload) + payload
    if len(data) > MAX_ENTRY_BYTES:
        return
    try:
        # readable by the user only; not flushed to the disk: a lost entry only costs time
        write_file(folder / name, data, mode=0o600, durable=False)
        _prune(folder)
    except OSError:
        pass


def get(key: str):
    """The Game stored under `key`, if its entry is sound and its files are unchanged; else None."""
    from .model import Game

    data = _read_signed(f"{key}{SUFFIX}")
    if data is None:
        return None
    try:
        entry = _Unpickler(io.BytesIO(data)).load()
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
    try:
        data = pickle.dumps((FORMAT, key, tuple(seen), game), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError):
        return
    _write_signed(f"{key}{SUFFIX}", data)


def get_code(key: str) -> bytes | None:
    """The bytes stored by `put_code` under `key` (the interpreter's lowered code, whose key is
    the hash of the source it was made from), if the entry is the user's own, signed; else None."""
    data = _read_signed(f"{key}{CODE_SUFFIX}")
    if data is None or not data.startswith(key.encode() + b"\0"):
        return None
    return data[len(key) + 1:]


def put_code(key: str, payload: bytes) -> None:
    """Store `payload` under `key` (a 64-hex-digit hash), signed like every entry."""
    _write_signed(f"{key}{CODE_SUFFIX}", key.encode() + b"\0" + payload)


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
