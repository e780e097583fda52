"""What the command modules share in reading their arguments: a GAME[:VARIANT] target, NAME=VALUE
game options, and an output file checked before the work that fills it."""
from __future__ import annotations

import argparse
from pathlib import Path

from meeplang.dsl.errors import UsageError


def split_target(target: str, variant=None):
    """(game, variant) of `GAME[:VARIANT]`, with `--variant` (given once, either way). Variants
    to stack come back as a tuple, in order: `GAME:A+B`, or `--variant A --variant B` (given
    several times; a variant file or a name each)."""
    name, _, v = str(target).partition(":")
    if not name:
        raise UsageError(f"expected GAME or GAME:VARIANT, not {target!r}")
    given = list(variant) if isinstance(variant, (list, tuple)) else ([variant] if variant else [])
    if len(given) > 1 or "+" in v:
        return name, tuple(([v] if v else []) + given)
    variant = given[0] if given else None
    if v and variant and v != variant:
        raise UsageError(f"two variants given: {v!r} and {variant!r} (to apply both, give "
                         f"--variant once for each: --variant {v} --variant {variant})")
    return name, (variant or v or None)


def check_writable(path: str, flag: str) -> None:
    """Refuse an output path that cannot become a file before the work that fills it."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: this is a folder, not a file")
    if not target.parent.is_dir():
        raise UsageError(f"{flag} {path}: no folder {str(target.parent)!r}")


class _OutputMisuse(argparse.Action):
    """`-o` means --output everywhere it exists (diagram, report, new): given to a command that
    takes game options, it says which flag was meant rather than setting an option."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"-o is --output (diagram, report, new); a game option is "
                     f"--option {values}")


def add_output_misuse(parser) -> None:
    parser.add_argument("-o", action=_OutputMisuse, metavar="FILE", help=argparse.SUPPRESS)


def parse_options(pairs) -> dict:
    """`--option NAME=VALUE` pairs as a dict (the engine checks names and values)."""
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        out[key] = value
    return out


def target_text(game) -> str:
    """How to name a loaded game so that `meeplang play` accepts it as written: `pig`,
    `pig:short`, a variant file's path (`house.yaml`: its `GAME:VARIANT` name is not one play can
    find), or stacked variants (`new-eden:solo+hard`, or with files `new-eden --variant solo
    --variant house.yaml`)."""
    from pathlib import Path

    from meeplang.dsl.loader import display_path, games_dir

    if game.game_file:  # a game file not named game.yaml: by its path
        name = display_path(Path(game.game_file))
    elif Path(game.folder).resolve() == (games_dir() / game.name).resolve():
        name = game.name  # bundled: by its name
    else:
        name = display_path(Path(game.folder))  # a folder elsewhere: by its path
    if game.stack:
        refs = [ref if kind == "name" else display_path(Path(ref)) for kind, ref in game.stack]
        if all(kind == "name" for kind, _ in game.stack):
            return f"{name}:{'+'.join(refs)}"
        return name + "".join(f" --variant {r}" for r in refs)
    if game.variant_file:
        return display_path(Path(game.variant_file))
    return name + (f":{game.variant}" if game.variant else "")
