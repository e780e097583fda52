"""Writing files whole or not at all: every file Meeplang writes (logs, saves, reports, diagrams,
cache entries, `new variant`) goes through here.

A file is first written to a temporary file in the same folder, flushed to the disk, and only
then renamed over its name: a write that fails (a full disk, an I/O error, text that cannot be
encoded) leaves what was there before untouched and no temporary file behind, and the error
names the file that was to be written. Several files that belong together (a simulation report)
are all written to temporary files before any is renamed, so a failure leaves the previous set
whole rather than a new file beside old ones.
"""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".meeplang-"
TEMP_SUFFIX = ".tmp"


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of `data` to `fd` (os.write may write fewer than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _encoded(data, path) -> bytes:
    if isinstance(data, bytes):
        return data
    try:
        return data.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no UTF-8 for it, nothing written
        raise OSError(errno.EILSEQ, f"cannot write text holding {data[exc.start]!r}, which is "
                      "not a character", str(path)) from None


def _error(exc: OSError, path) -> OSError:
    """The same error, naming the file that was to be written (not the temporary one)."""
    return OSError(exc.errno, exc.strerror or str(exc), str(path))


def _temp_for(path: Path, data: bytes, mode: int | None, durable: bool) -> str:
    """A temporary file beside `path` holding `data`; removed again if anything fails."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise _error(exc, path) from None
    try:
        try:
            if mode is None:  # an existing file keeps its mode; a new one gets the usual one
                try:
                    mode = os.stat(path).st_mode & 0o7777
                except OSError:
                    mode = 0o666 & ~_umask()
            os.fchmod(fd, mode)
            write_all(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        _remove(tmp)
        raise _error(exc, path) from None
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def write_file(path, data, *, mode: int | None = None, durable: bool = True) -> None:
    """Replace the file at `path` with `data` (bytes, or text written as UTF-8), whole or not at
    all. `mode`: the new file's permissions (default: an existing file's, else 0o666 less the
    umask). `durable=False` skips flushing to the disk (for a cache, where a lost entry only
    costs time). Raises OSError naming `path`."""
    write_files([(path, data)], mode=mode, durable=durable)


def write_files(items, *, mode: int | None = None, durable: bool = True) -> None:
    """Write several files that belong together: all of them to temporary files first, then
    each renamed into place, so a failure while writing leaves every old file as it was. A
    rename that fails puts back the files already renamed: each old file is kept under a second
    name (a hard link) until every new one is in place."""
    staged, kept, done = [], [], []
    try:
        for path, data in items:
            path = Path(path)
            staged.append((_temp_for(path, _encoded(data, path), mode, durable), path))
        if len(staged) > 1:
            kept = [_keep(path) for _, path in staged]
        try:
            while staged:
                tmp, path = staged[0]
                try:
                    os.replace(tmp, path)
                except OSError as exc:
                    raise _error(exc, path) from None
                done.append(path)
                staged.pop(0)
        except BaseException:  # a rename that failed, or an interrupt between two
            _put_back(done, kept)
            raise
    finally:
        for tmp, _ in staged:
            _remove(tmp)
        for old in kept:
            if old:
                _remove(old)


def _keep(path: Path) -> str | None:
    """A second name for the file at `path`: "" if there is no file there, None if it cannot be
    kept (no hard links on this file system)."""
    old = f"{path.parent / TEMP_PREFIX}{path.name}-{os.getpid()}{TEMP_SUFFIX}"
    try:
        os.link(path, old, follow_symlinks=False)
    except FileNotFoundError:
        return ""
    except OSError:
        return None
    return old


def _put_back(done: list, kept: list) -> None:
    """After a failed rename: the files renamed before it get their old contents back (a file
    that did not exist is removed again)."""
    for path, old in zip(done, kept):
        with contextlib.suppress(OSError):
            if old == "":
                os.unlink(path)
            elif old is not None:
                os.replace(old, path)


def create_file(path, data, *, durable: bool = True) -> None:
    """Write a new file at `path`, whole or not at all, never replacing anything there: not a
    file, not a folder, not a link (even one that leads nowhere). Raises FileExistsError if the
    name is taken, or OSError naming `path`."""
    path = Path(path)
    tmp = _temp_for(path, _encoded(data, path), None, durable)
    try:
        try:
            os.link(tmp, path)  # fails if anything has the name, a dangling link included
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
                raise
            # no hard links on this file system: claim the name (O_EXCL fails on a link too),
            # then move the whole file over the empty one
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.replace(tmp, path)
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise FileExistsError(errno.EEXIST, "exists already", str(path)) from None
        raise _error(exc, path) from None
    finally:
        _remove(tmp)
