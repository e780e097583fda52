"""The golden explanations: `tests/visualizer/explain/<game>[-<variant>].<lang>.txt`, what
`meeplang explain` says for every bundled game and variant in every language. The command that
rewrites or checks them is `python -m meeplang.regen_explanations [--check]`.

The test suite compares them with the explanations made from the rules, so a change to a game,
a term or a template shows up as a diff of sentences to read before it is committed.
"""
from __future__ import annotations

from pathlib import Path

from ..labels import LANGS
from ..regen import targets
from .document import explain

REGEN_COMMAND = "python -m meeplang.regen_explanations"


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
