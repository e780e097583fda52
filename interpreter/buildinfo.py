"""Where a compiled build of the interpreter lives, and whether it is older than its sources.
Kept apart from native.py (the build command) so the package can check it on import."""
from __future__ import annotations

import importlib.machinery
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("compile", "engine", "functions", "state", "decisions")
GROUP = "_native"  # the shared library mypyc makes for the group: interpreter/_native__mypyc.*.so


def built_files(folder: Path | None = None) -> list[Path]:
    """The extension modules of a build in `folder` (default here; native.py builds elsewhere),
    if any."""
    folder = folder or HERE
    out = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for name in (*MODULES, GROUP + "__mypyc"):
            path = folder / f"{name}{suffix}"
            if path.exists():
                out.append(path)
    return out


def is_stale() -> bool:
    """Is any source newer than the build?"""
    files = built_files()
    if not files:
        return False
    oldest = min(p.stat().st_mtime for p in files)
    return any((HERE / f"{m}.py").stat().st_mtime > oldest for m in MODULES)


def clean() -> int:
    for path in built_files():
        path.unlink()
    return 0
