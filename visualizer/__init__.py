"""Rules diagrams and reports drawn from the Game model.

    meeplang.visualizer.svg(game, detail="phases", lang="en") -> str   SVG text (needs Graphviz's `dot`)
    meeplang.visualizer.dot_source(game, detail, lang) -> str          DOT text (no program needed)

Commands: `meeplang diagram GAME[:VARIANT]` and `meeplang report GAME[:VARIANT] -o DIR`.
"""
from __future__ import annotations

from .dot import DETAILS, build_diagram, dot_source, to_digraph
from .labels import LANGS
from .render import FORMATS, render, svg

__all__ = ["DETAILS", "FORMATS", "LANGS", "build_diagram", "dot_source", "render", "svg",
           "to_digraph"]
