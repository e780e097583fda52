"""What the command modules share in reading their arguments: a GAME[:VARIANT] target, NAME=VALUE
game options, and an output file checked before the work that fills it."""
from __future__ import annotations

from pathlib import Path

from meeplang.dsl.errors import UsageError


def split_target(target: str, variant: str | None = None) -> tuple[str, str | None]:
    """(game, variant) of `GAME[:VARIANT]`, with `--variant` (given once, either way)."""
    name, _, v = str(target).partition(":")
    if not name:
        raise UsageError(f"expected GAME or GAME:VARIANT, not {target!r}")
    if v and variant and v != variant:
        raise UsageError(f"two variants given: {v!r} and {variant!r}")
    return name, (variant or v or None)


def check_writable(path: str, flag: str) -> None:
    """Refuse an output path that cannot become a file before the work that fills it."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: this is a folder, not a file")
    if not target.parent.is_dir():
        raise UsageError(f"{flag} {path}: no folder {str(target.parent)!r}")


def parse_options(pairs) -> dict:
    """`-o NAME=VALUE` pairs as a dict (the engine checks names and values)."""
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        out[key] = value
    return out
