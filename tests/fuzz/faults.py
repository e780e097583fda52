"""Disk faults, injected where Meeplang writes files: every system call that writes, made by
dsl/atomic.py (logs, saves, reports, diagrams, pages, cache entries, `new variant`) and by the
cache's key file (dsl/cache.py), is counted, and the one numbered `at` fails with `code`, as a
full disk (ENOSPC) or a failing one (EIO) fails it: a write writes half of its bytes first, then
fails; making the temporary file, setting its mode, flushing it, renaming or linking it into
place fail before doing anything. Reads and everything else pass through untouched.

    with Faults(errno.ENOSPC, at=3) as faults:   # the fourth writing call fails
        ...
    faults.calls   # the kinds of the calls made, in order ("mkstemp", "write", "fsync", ...)
"""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile

from meeplang.dsl import atomic, cache

KINDS = [errno.ENOSPC, errno.EIO]


class _Proxy:
    """A module whose named functions go through the fault counter; the rest is the module."""

    def __init__(self, module, faults: "Faults", calls: dict):
        self._module, self._faults, self._calls = module, faults, calls

    def __getattr__(self, name):
        real = getattr(self._module, name)
        kind = self._calls.get(name)
        if kind is None:
            return real

        def call(*args, **kwargs):
            if name == "open" and not (args[1] if len(args) > 1 else kwargs["flags"]) & os.O_CREAT:
                return real(*args, **kwargs)  # a read
            self._faults.meet(kind, args)
            return real(*args, **kwargs)
        return call


class Faults:
    """Count the writing calls made inside the `with`; fail the one numbered `at` with `code`
    (None: fail none, only count)."""

    def __init__(self, code: int | None = None, at: int | None = None):
        self.code, self.at = code, at
        self.calls: list[str] = []
        self._stack = contextlib.ExitStack()

    def meet(self, kind: str, args: tuple) -> None:
        self.calls.append(kind)
        if self.code is None or len(self.calls) - 1 != self.at:
            return
        if kind == "write":  # part of the bytes reach the disk, then it is full
            fd, data = args
            os.write(fd, bytes(data[: len(data) // 2]))
        raise OSError(self.code, os.strerror(self.code))

    @property
    def failed(self) -> bool:
        return self.code is not None and self.at is not None and len(self.calls) > self.at

    def __enter__(self) -> "Faults":
        calls = {"write": "write", "fsync": "fsync", "fchmod": "fchmod", "replace": "replace",
                 "link": "link", "open": "create"}
        for module in (atomic, cache):
            self._stack.enter_context(_patched(module, "os", _Proxy(os, self, calls)))
        self._stack.enter_context(_patched(atomic, "tempfile",
                                           _Proxy(tempfile, self, {"mkstemp": "mkstemp"})))
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()


@contextlib.contextmanager
def _patched(module, name: str, value):
    real = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, real)
