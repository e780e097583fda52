"""Rendering DOT to SVG, PNG or PDF with Graphviz's `dot` program (through the graphviz package).

`--format dot` needs no program at all. Without `dot`, rendering raises UsageError telling the
user to install the OS package graphviz.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import graphviz

from meeplang.dsl.atomic import write_file
from meeplang.dsl.errors import UsageError

from .dot import DETAILS, dot_source

FORMATS = ("svg", "png", "pdf", "dot")

INSTALL_HINT = ("Graphviz's `dot` program was not found on PATH; install the OS package graphviz "
                "(e.g. `apt-get install graphviz`, `dnf install graphviz` or `brew install "
                "graphviz`), or write the DOT text with --format dot")


def have_dot() -> bool:
    return shutil.which("dot") is not None


def render_source(source: str, fmt: str) -> bytes:
    """DOT text -> the document's bytes in fmt (svg, png, pdf or dot)."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "dot":
        return source.encode("utf-8")
    if not have_dot():
        raise UsageError(INSTALL_HINT)
    try:
        return graphviz.Source(source).pipe(format=fmt, engine="dot", quiet=True)
    except graphviz.ExecutableNotFound:
        raise UsageError(INSTALL_HINT) from None
    except graphviz.CalledProcessError as exc:
        err = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else exc.stderr
        raise UsageError(f"Graphviz's dot failed: {(err or '').strip() or exc}") from None


def render(game, fmt: str = "svg", detail: str = "phases", lang: str = "en",
           changes=None, text: str = "prose") -> bytes:
    """A game's diagram as bytes in fmt (with a variant's changes highlighted, if given; its
    boxes say the rules as sentences, or as rule code with text="rules")."""
    if detail not in DETAILS:
        raise UsageError(f"unknown detail {detail!r}; expected one of {', '.join(DETAILS)}")
    return render_source(dot_source(game, detail, lang, changes, text), fmt)


def svg(game, detail: str = "phases", lang: str = "en", text: str = "prose") -> str:
    """A game's diagram as SVG text (what a notebook's `_repr_svg_` returns)."""
    return render(game, "svg", detail, lang, text=text).decode("utf-8")


def write(game, path, fmt: str = "svg", detail: str = "phases", lang: str = "en",
          changes=None, text: str = "prose") -> Path:
    path = Path(path)
    data = render(game, fmt, detail, lang, changes, text)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, data)
    return path


_PROLOG = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)


def inline_svg(svg_text: str) -> str:
    """SVG text ready to embed in HTML: no XML prolog or DOCTYPE."""
    return _PROLOG.sub("", svg_text, count=1)
