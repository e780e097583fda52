"""Where the grammar lives: `grammars/` in a checkout, `meeplang/grammars` when installed."""
from __future__ import annotations

from pathlib import Path


def grammar_path() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "grammars", here.parent / "meeplang" / "grammars"):
        if (candidate / "meeplang.lark").is_file():
            return candidate / "meeplang.lark"
    import meeplang  # installed layout: meeplang/grammars

    return Path(meeplang.__file__).resolve().parent / "grammars" / "meeplang.lark"
