"""The compiled build's bookkeeping (interpreter/buildinfo.py): which files make a build, when it is
stale, and that a stale build is removed; and the staging of the sources under the names they are
imported by. Compiling itself is exercised by CI (`make test-native` runs this whole suite on the
compiled interpreter)."""
from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys

from meeplang.interpreter import buildinfo, native

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def fake_package(tmp_path, monkeypatch, built: bool, sources_newer: bool):
    for m in buildinfo.MODULES:
        (tmp_path / f"{m}.py").write_text("# source\n")
        os.utime(tmp_path / f"{m}.py", (1_000, 2_000 if sources_newer else 1_000))
    if built:
        for name in (*buildinfo.MODULES, buildinfo.GROUP + "__mypyc"):
            (tmp_path / f"{name}{SUFFIX}").write_bytes(b"\0")
            os.utime(tmp_path / f"{name}{SUFFIX}", (1_500, 1_500))
    monkeypatch.setattr(buildinfo, "HERE", tmp_path)


def test_no_build_is_pure_python(tmp_path, monkeypatch):
    fake_package(tmp_path, monkeypatch, built=False, sources_newer=False)
    assert buildinfo.built_files() == []
    assert not buildinfo.is_stale()
    assert native.status() == "pure Python"


def test_a_build_newer_than_its_sources_is_used(tmp_path, monkeypatch):
    fake_package(tmp_path, monkeypatch, built=True, sources_newer=False)
    assert len(buildinfo.built_files()) == len(buildinfo.MODULES) + 1
    assert not buildinfo.is_stale()
    assert native.status() == "compiled (mypyc)"


def test_a_source_edited_after_the_build_makes_it_stale_and_clean_removes_it(tmp_path,
                                                                           monkeypatch):
    fake_package(tmp_path, monkeypatch, built=True, sources_newer=True)
    assert buildinfo.is_stale()
    assert native.status() == "compiled (mypyc), stale: rebuild"
    buildinfo.clean()
    assert buildinfo.built_files() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{m}.py" for m in buildinfo.MODULES)


def test_importing_the_package_removes_a_stale_build(tmp_path):
    """A copy of the package with a fake build older than engine.py: importing it drops the build
    (before any compiled module could load) and says so."""
    package = tmp_path / "meeplang" / "interpreter"
    shutil.copytree(buildinfo.HERE, package, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (tmp_path / "meeplang" / "__init__.py").write_text("")  # the dsl comes from the installation
    for name in (*buildinfo.MODULES, buildinfo.GROUP + "__mypyc"):
        (package / f"{name}{SUFFIX}").write_bytes(b"not a library")
        os.utime(package / f"{name}{SUFFIX}", (1_000, 1_000))
    proc = subprocess.run([sys.executable, "-c", "import meeplang.interpreter.state"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "removed the compiled interpreter, which was older than its sources" in proc.stderr
    assert not list(package.glob(f"*{SUFFIX}"))


def test_the_build_compiles_the_modules_under_their_installed_names(tmp_path):
    """mypyc names a module after its folders: the sources are staged as meeplang/interpreter and
    meeplang/dsl, so the compiled modules are meeplang.interpreter.engine and so on."""
    staged = native.stage(tmp_path)
    assert staged == tmp_path / "meeplang" / "interpreter"
    for m in buildinfo.MODULES:
        assert (staged / f"{m}.py").read_bytes() == (buildinfo.HERE / f"{m}.py").read_bytes()
    assert (tmp_path / "meeplang" / "dsl" / "model.py").is_file()
    assert (tmp_path / "meeplang" / "__init__.py").read_text() == ""
