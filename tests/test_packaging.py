"""A plain `pip install .` carries every bundled game and grammar file (package-data globs)."""
import fnmatch
import tomllib
from pathlib import Path

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
