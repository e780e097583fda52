"""The compiled interpreter (optional): the engine's hot modules built to C with mypyc.

    python -m meeplang.interpreter.native build     # needs mypy (pip install 'meeplang[native]') and a C compiler
    python -m meeplang.interpreter.native clean
    python -m meeplang.interpreter.native status

mypyc compiles the same sources (their type annotations become run-time checks) into extension
modules next to them, and Python imports those in place of the .py files: the same results, the
same errors, byte-identical logs, about twice as fast (benchmarks/README.md). A build older than
any of its sources is removed when the package is imported (interpreter/__init__.py), so an edit
is never silently ignored.

The modules are compiled under the names they are imported by (`meeplang.interpreter.engine`),
which the repository's folders (`interpreter/`, `dsl/`) do not spell: the sources are copied
into a `meeplang/` tree in a temporary folder, built there, and the extension modules copied
back here.
"""
from __future__ import annotations

import importlib.machinery
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import dsl as dsl_layer
from .buildinfo import GROUP, HERE, MODULES, built_files, clean, is_stale

PACKAGE = __package__  # meeplang.interpreter (also under `python -m`, where __name__ is __main__)
LAYERS = {"dsl": Path(dsl_layer.__file__).resolve().parent, "interpreter": HERE}  # what mypy reads

SETUP = f"""
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target = sys.argv[3:-1], sys.argv[-1]  # target: mypyc's C files and build temp
sys.argv = sys.argv[:3]
setup(name="meeplang-native", script_args=["build_ext", "--inplace", "--build-temp", target],
      ext_modules=mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                            "--check-untyped-defs", *paths],
                           opt_level="3", group_name="{PACKAGE}.{GROUP}", target_dir=target))
"""


def stage(root: Path) -> Path:
    """Copy the sources into `root/meeplang/...` (an empty meeplang/__init__.py: the compiled
    modules import the dsl and their own package, nothing else of meeplang); return the folder
    that will hold the compiled interpreter."""
    package = root / "meeplang"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, folder in LAYERS.items():
        shutil.copytree(folder, package / name, ignore=shutil.ignore_patterns(
            "__pycache__", *(f"*{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES)))
    return package / "interpreter"


def build() -> int:
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("the compiled build needs mypy: pip install 'meeplang[native]'", file=sys.stderr)
        return 2
    clean()
    with tempfile.TemporaryDirectory() as tmp:
        staged = stage(Path(tmp) / "src")
        paths = [str(staged.relative_to(staged.parents[1]) / f"{m}.py") for m in MODULES]
        proc = subprocess.run([sys.executable, "-c", SETUP, "build_ext", "--inplace", *paths,
                               str(Path(tmp) / "build")], cwd=staged.parents[1],
                              capture_output=True, text=True, check=False)
        if proc.returncode == 0:
            for built in built_files(staged):
                shutil.copy2(built, HERE / built.name)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        print("the compiled build failed (the pure-Python interpreter is unchanged)",
              file=sys.stderr)
        clean()
        return 1
    print(f"built {len(built_files())} extension modules in {HERE}")
    return 0


def status() -> str:
    if not built_files():
        return "pure Python"
    return "compiled (mypyc), stale: rebuild" if is_stale() else "compiled (mypyc)"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        return build()
    if command == "clean":
        return clean()
    if command == "status":
        print(status())
        return 0
    print("usage: python -m meeplang.interpreter.native build|clean|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
