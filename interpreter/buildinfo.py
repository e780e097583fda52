"""The compiled build of the interpreter that Meeplang made until 2026-11-28 (mypyc: `make
native`), now retired (benchmarks/README.md, "The lowered engine by default"). Its extension
modules, left next to the sources by an older checkout, would be imported in place of the
sources and run the generator engine since removed: the package removes them when it is
imported."""
from __future__ import annotations

import importlib.machinery
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("compile", "engine", "functions", "state", "decisions")  # what the build compiled
GROUP = "_native"  # the shared library mypyc made for the group: interpreter/_native__mypyc.*.so


def built_files(folder: Path | None = None) -> list[Path]:
    """The extension modules of an old compiled build in `folder` (default here), if any."""
    folder = folder or HERE
    out = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for name in (*MODULES, GROUP + "__mypyc"):
            path = folder / f"{name}{suffix}"
            if path.exists():
                out.append(path)
    return out


def clean(folder: Path | None = None) -> int:
    for path in built_files(folder):
        path.unlink()
    return 0
