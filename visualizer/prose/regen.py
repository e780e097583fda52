"""Rewrite the golden explanations: `tests/visualizer/explain/<game>[-<variant>].<lang>.txt`,
what `meeplang explain` says for every bundled game and variant in every language.

    python -m meeplang.visualizer.prose.regen            rewrite them
    python -m meeplang.visualizer.prose.regen --check    exit 1 if one is out of date

The test suite compares them with the explanations made from the rules, so a change to a game,
a term or a template shows up as a diff of sentences to read before it is committed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..labels import LANGS
from ..regen import targets
from .document import explain

REGEN_COMMAND = "python -m meeplang.visualizer.prose.regen"


def default_folder() -> Path:
    return Path(__file__).resolve().parents[2] / "tests" / "visualizer" / "explain"


def expected() -> dict[str, str]:
    """file name -> the text `meeplang explain` gives."""
    return {f"{stem}.{lang}.txt": explain(game, lang) for stem, game in targets() for lang in LANGS}


def problems(folder: Path | None = None) -> list[str]:
    folder = folder or default_folder()
    want = expected()
    out = [f"{folder / name} is {'out of date' if (folder / name).is_file() else 'missing'}"
           for name, text in want.items()
           if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text]
    out += [f"{path} is left over" for path in sorted(folder.glob("*.txt")) if path.name not in want]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=REGEN_COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list what is out of date; exit 1")
    args = parser.parse_args(argv)
    folder = default_folder()
    if args.check:
        found = problems(folder)
        print("\n".join(found) or "explanations up to date")
        return 1 if found else 0
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.glob("*.txt"):
        path.unlink()
    for name, text in expected().items():
        (folder / name).write_text(text, encoding="utf-8")
        print(folder / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
