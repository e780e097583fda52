"""The golden explanations: `tests/visualizer/explain/<game>[-<variant>].<lang>.txt`, what
`meeplang explain` says for every bundled game and variant in every language; and the golden
readings' diffs, `<game>.<reading>.<reading>.<lang>.txt`, what `meeplang diff --lang` says between
a game's rulebook readings of one mode (its variants named `reading-<lang>` for the game itself,
`reading-<lang>-<mode>` for a mode, each pair from the later name to the earlier:
`thesauros.reading-fr.reading-en.fr.txt`), without the file positions, which move whenever a line
is added above them. The command that rewrites or checks them is
`python -m meeplang.regen_explanations [--check]`.

The test suite compares them with the explanations and diffs made from the rules, so a change to
a game, a term or a template shows up as a diff of sentences to read before it is committed.
"""
from __future__ import annotations

from pathlib import Path

from meeplang.dsl.diff import diff_games
from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game

from ..labels import LANGS
from ..regen import targets
from .changes import changes_lines
from .document import explain

REGEN_COMMAND = "python -m meeplang.regen_explanations"


def default_folder() -> Path:
    return Path(__file__).resolve().parents[2] / "tests" / "visualizer" / "explain"


def expected() -> dict[str, str]:
    """file name -> the text `meeplang explain` (or `meeplang diff --lang` between readings) gives."""
    out = {f"{stem}.{lang}.txt": explain(game, lang) for stem, game in targets() for lang in LANGS}
    for stem, a, b in reading_pairs():
        out |= {f"{stem}.{lang}.txt": readings_diff(a, b, lang) for lang in LANGS}
    return out


def readings_diff(a, b, lang: str) -> str:
    """What `meeplang diff A B --lang LANG` says, without the file positions."""
    return "".join(f"{line}\n" for line in changes_lines(a, b, diff_games(a, b), lang, where=False))


def reading_pairs():
    """(file stem, from, to) for each pair of a bundled game's readings of the same mode (the
    name after `reading-<lang>`), the later name first."""
    for name in bundled_games():
        readings = sorted((v for v, _, _ in load_game(name).variants if v.startswith("reading-")),
                          reverse=True)
        for i, first in enumerate(readings):
            for second in readings[i + 1:]:
                if _mode(first) == _mode(second):
                    yield (f"{name}.{first}.{second}", load_game(name, first),
                           load_game(name, second))


def _mode(reading: str) -> str:
    """`reading-fr-solo` -> `solo`; `reading-fr` -> `` (the game itself)."""
    return reading.split("-", 2)[2] if reading.count("-") >= 2 else ""


def problems(folder: Path | None = None) -> list[str]:
    folder = folder or default_folder()
    want = expected()
    out = [f"{folder / name} is {'out of date' if (folder / name).is_file() else 'missing'}"
           for name, text in want.items()
           if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text]
    out += [f"{path} is left over" for path in sorted(folder.glob("*.txt")) if path.name not in want]
    return out
