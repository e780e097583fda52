"""Which game a document belongs to, and that game loaded and checked from the editor's buffers
(unsaved text wins over the file on disk), with its problems placed in the files they are in."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.loader import GAME_FILE, Source, file_of, load_source, unsaved
from meeplang.dsl.resolve import build_game
from meeplang.dsl.schema import SCHEMAS
from meeplang.api import Problem

_EXTENDS = re.compile(r"^extends\s*:", re.M)


@dataclass(frozen=True)
class Document:
    """A YAML file as Meeplang reads it: a game file, a variant file or an included file."""

    path: Path
    kind: str  # "game", "variant" or "include"
    target: str  # what to load: the game folder, or the variant file

    @property
    def schema(self) -> Path:
        return SCHEMAS[self.kind]


def document_of(path: Path, text: str) -> Document | None:
    """A game.yaml, a file saying `extends:`, or a YAML file inside a game folder (an include);
    None for any other file (a pyproject.toml next to a game.yaml is no include)."""
    path = path.resolve()
    if path.suffix.lower() not in (".yaml", ".yml"):
        return None
    if path.name == GAME_FILE:
        return Document(path, "game", str(path.parent))
    if _EXTENDS.search(text):
        return Document(path, "variant", str(path))
    for folder in path.parents:
        if (folder / GAME_FILE).is_file():
            return Document(path, "include", str(folder))
    return None


@dataclass
class Loaded:
    """A load from buffers: the merged document when reading it worked (names, positions), and
    the problems (the checker stops at its first error; warnings come with a checked game)."""

    source: Source | None
    problems: dict[Path, list[Problem]] = field(default_factory=dict)


def load(document: Document, buffers: dict[Path, str]) -> Loaded:
    with unsaved(buffers):
        source = None
        try:
            source = load_source(document.target)
            game = build_game(source)  # never the cache: it keys on the bytes on disk
        except MeeplangError as exc:
            found = [Problem.of("error", exc.message, exc.pos, exc.hint)]
        else:
            found = [Problem.of("warning", w.message, w.pos) for w in game.warnings]
    loaded = Loaded(source)
    for problem in found:
        where = file_of(problem.path) if problem.line else document.path
        loaded.problems.setdefault(where, []).append(problem)
    return loaded
