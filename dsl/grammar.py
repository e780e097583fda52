"""Where the grammar lives: next to this package (`grammars/` in a checkout, `meeplang/grammars`
when installed, where this package is `meeplang/dsl`)."""
from __future__ import annotations

from pathlib import Path


def grammar_path() -> Path:
    return Path(__file__).resolve().parent.parent / "grammars" / "meeplang.lark"
