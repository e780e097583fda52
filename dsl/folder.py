"""Reading the files of a game folder, and only those: the loader's one door to the disk.

A game folder may sit among anything (a Downloads folder, a FIFO, a link to /dev/zero, gigabytes
of unrelated data), so nothing here scans it: the loader names each file it needs (game.yaml, its
includes, a variant and the variants it extends) and this module reads exactly that file, if it
is a regular file inside the folder, after checking its size. While a load is being recorded
(`recording()`), every file read and every folder listed is remembered with a hash of what was
seen: the cache (dsl/cache.py) keys a checked game on exactly these.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

from .errors import LoadError, Pos
from .yamlpos import MAX_FILE_BYTES

_recordings: list[list] = []


def is_file(path: Path) -> bool:
    """Is there a regular file (or a link to one) at `path`? A name the system refuses (too long,
    a bad character) names nothing, as pathlib already says for a missing one."""
    try:
        return path.is_file()
    except OSError:
        return False


def is_dir(path: Path) -> bool:
    """Is there a folder at `path`? (A name the system refuses names none.)"""
    try:
        return path.is_dir()
    except OSError:
        return False


def present(path: Path) -> bool:
    """Is anything at `path`, a link that leads nowhere included? (A FIFO or a device named
    game.yaml is there: reading it is refused as what it is, not as "no game".)"""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


def exists(path: Path) -> bool:
    """Is there anything at `path`? (A name the system refuses names nothing.)"""
    try:
        return path.exists()
    except OSError:
        return False


@contextlib.contextmanager
def recording():
    """Collect (what, sha256) for every file read and folder listed inside the `with`."""
    seen: list = []
    _recordings.append(seen)
    try:
        yield seen
    finally:
        _recordings.remove(seen)


def _record(what: str, data: bytes) -> None:
    if _recordings:
        digest = hashlib.sha256(data).hexdigest()
        for seen in _recordings:
            seen.append((what, digest))


def inside(path: Path, root: Path) -> bool:
    """Is `path`, links followed, inside the folder `root`?"""
    real, top = path.resolve(), root.resolve()
    return real == top or top in real.parents


def read_bytes(path: Path, shown: str, root: Path | None = None,
               limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of one game file (or log): a regular file (never a FIFO, device or folder), at
    most `limit` bytes, inside `root` when one is given (a link may not lead out of the folder)."""
    where = Pos(shown, 1, 1)
    if root is not None and not inside(path, root):
        raise LoadError("this file is a link that leaves the game folder", where)
    try:  # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror}", where) from None
    except UnicodeEncodeError:  # a lone surrogate in the name: no file can have it
        raise LoadError("cannot read file: its name is not valid text (a lone surrogate)",
                        where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LoadError("not a regular file (a folder, device or pipe cannot be a game file)",
                            where)
        if info.st_size > limit:
            raise LoadError(f"file is larger than {limit // (1024 * 1024)} MB", where)
        data = _read_up_to(fd, info.st_size, limit + 1)
    except OSError as exc:  # a failing disk; /proc/self/mem, a "regular file" no read can take
        raise LoadError(f"cannot read file: {exc.strerror}", where) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise LoadError(f"file is larger than {limit // (1024 * 1024)} MB", where)
    _record(str(path.resolve()), data)
    return data


def _read_up_to(fd: int, size: int, most: int) -> bytes:
    """At most `most` bytes of an open file whose size was `size`: it may grow between the check
    and the read. The buffer is the file's size, not `most` (os.read allocates what it is asked
    for: 64 MB for every log, which a process near its memory limit could not get)."""
    chunks, total, want = [], 0, size + 1
    while total < most:
        chunk = os.read(fd, min(want, most - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = 1 << 16
    return b"".join(chunks)


def yaml_names(folder: Path) -> list[str]:
    """The `*.yaml` names in a folder (the variants), listed without reading anything; none when
    there is no such folder (which is recorded too: creating it changes the game)."""
    try:
        names = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    except OSError:
        names = []
    _record(str(folder.resolve()) + os.sep, "\0".join(names).encode())
    return names


def unchanged(seen: list) -> bool:
    """Do the files and folders recorded in `seen` still hold what they held? (Read again the
    same careful way; anything unreadable counts as changed.)"""
    for what, digest in seen:
        with recording() as now:
            try:
                if what.endswith(os.sep):
                    yaml_names(Path(what))
                else:
                    read_bytes(Path(what), what)
            except LoadError:
                return False
        if now != [(what, digest)]:
            return False
    return True
