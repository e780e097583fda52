"""A plain `pip install .` carries every bundled game and grammar file (package-data globs)."""
import fnmatch
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _globs(package: str) -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return config["package-data"][package]


def _covered(rel: str, globs: list[str]) -> bool:
    # setuptools' "**/*.yaml" also matches files at the top of the package
    return any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(rel, g.removeprefix("**/"))
               for g in globs)


def test_every_bundled_game_file_is_package_data():
    globs = _globs("meeplang.games")
    files = [p.relative_to(ROOT / "games").as_posix() for p in (ROOT / "games").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    assert files and [f for f in files if not _covered(f, globs)] == []


def test_every_grammar_is_package_data():
    globs = _globs("meeplang.grammars")
    files = [p.name for p in (ROOT / "grammars").iterdir() if p.is_file()]
    assert files and [f for f in files if not _covered(f, globs)] == []


@pytest.mark.slow
def test_building_the_wheel_warns_nothing_and_ships_the_data(tmp_path):
    """setuptools' deprecation and 'package absent from `packages`' warnings stay gone, the wheel
    holds the games, the grammar and the schemas, and installs nothing beside meeplang (the
    layers are meeplang.dsl, meeplang.interpreter, meeplang.visualizer)."""
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v",
                           "-w", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    output = proc.stdout + proc.stderr
    assert "BuildBackendWarning" not in output and "SetuptoolsDeprecationWarning" not in output
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    assert "meeplang/games/pig/variants/short.yaml" in names
    assert "meeplang/grammars/meeplang.lark" in names
    assert "meeplang/py.typed" in names
    assert {"meeplang/dsl/game.schema.json", "meeplang/dsl/variant.schema.json"} <= set(names)
    assert {name.split("/")[0] for name in names} == {"meeplang", "meeplang-0.1.0.dist-info"}


def test_the_layers_are_importable_only_under_meeplang(tmp_path):
    """Outside the checkout, `meeplang.dsl` and friends import, and the bare names do not: they
    would collide with any other package called dsl or interpreter."""
    code = ("import importlib.util, meeplang.dsl, meeplang.interpreter, meeplang.visualizer\n"
            "print([importlib.util.find_spec(n) is None for n in ('dsl', 'interpreter', "
            "'visualizer')])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[True, True, True]"
