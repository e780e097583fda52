"""The diagrams committed in docs/diagrams: for every bundled game (and each variant) the DOT text
and the SVG of its diagram at `phases` detail, in English. The command that rewrites or checks
them is `python -m meeplang.regen_diagrams [--check]`.

The DOT file is what the test suite compares (it needs no Graphviz); each SVG carries the SHA-256
of the DOT it was drawn from, so an SVG left behind by a DOT change is caught too.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from meeplang.dsl.atomic import write_files
from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game

from .dot import dot_source
from .render import render_source

DETAIL = "phases"
LANG = "en"
REGEN_COMMAND = "python -m meeplang.regen_diagrams"
HASH_PREFIX = "meeplang-dot-sha256:"


def default_folder() -> Path:
    return Path(__file__).resolve().parent.parent / "docs" / "diagrams"


def targets():
    """(file stem, game) for every bundled game and variant."""
    for name in bundled_games():
        base = load_game(name)
        yield name, base
        for variant, _, _ in base.variants:
            yield f"{name}-{variant}", load_game(name, variant)


def expected() -> dict[str, str]:
    """file stem -> the DOT text the diagram should have."""
    return {stem: dot_source(game, DETAIL, LANG) for stem, game in targets()}


def dot_hash(dot_text: str) -> str:
    return hashlib.sha256(dot_text.encode("utf-8")).hexdigest()


def svg_hash(svg_text: str) -> str | None:
    start = svg_text.find(HASH_PREFIX)
    if start < 0:
        return None
    rest = svg_text[start + len(HASH_PREFIX):].split("-->")[0].split()
    return rest[0] if rest else None


def stamp_svg(svg_text: str, dot_text: str) -> str:
    """The SVG with a comment naming the DOT it was drawn from, after the XML declaration."""
    comment = f"<!-- {HASH_PREFIX} {dot_hash(dot_text)} (regenerate: {REGEN_COMMAND}) -->\n"
    if svg_text.startswith("<?xml"):
        end = svg_text.index("?>") + 2
        return svg_text[:end] + "\n" + comment + svg_text[end:].lstrip("\n")
    return comment + svg_text


def problems(folder: Path | None = None) -> list[str]:
    """What is missing, stale or left over in the folder (empty when up to date)."""
    folder = folder or default_folder()
    want = expected()
    out = []
    for stem, dot_text in want.items():
        dot_file, svg_file = folder / f"{stem}.dot", folder / f"{stem}.svg"
        if not dot_file.is_file():
            out.append(f"{dot_file} is missing")
        elif dot_file.read_text(encoding="utf-8") != dot_text:
            out.append(f"{dot_file} is out of date")
        if not svg_file.is_file():
            out.append(f"{svg_file} is missing")
        elif svg_hash(svg_file.read_text(encoding="utf-8")) != dot_hash(dot_text):
            out.append(f"{svg_file} was not drawn from the current DOT")
    if folder.is_dir():
        for f in sorted(folder.iterdir()):
            if f.suffix in (".dot", ".svg") and f.stem not in want:
                out.append(f"{f} belongs to no bundled game or variant")
    return out


def regenerate(folder: Path | None = None) -> list[Path]:
    folder = folder or default_folder()
    folder.mkdir(parents=True, exist_ok=True)
    want = expected()
    written = []
    for stem, dot_text in want.items():
        svg_text = render_source(dot_text, "svg").decode("utf-8")
        write_files([(folder / f"{stem}.dot", dot_text),
                     (folder / f"{stem}.svg", stamp_svg(svg_text, dot_text))])
        written += [folder / f"{stem}.dot", folder / f"{stem}.svg"]
    for f in sorted(folder.iterdir()):
        if f.suffix in (".dot", ".svg") and f.stem not in want:
            f.unlink()
    return written

