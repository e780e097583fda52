"""`meeplang explain GAME[:VARIANT] [--variant V] --lang en|fr [--format text|md|html]`: the rules as prose."""
from __future__ import annotations

import sys


def register(subparsers) -> None:
    from meeplang.visualizer.labels import LANGS
    from meeplang.visualizer.prose import FORMATS

    s = subparsers.add_parser(
        "explain", help="the rules as readable prose, in English or French",
        description="Write a game's rules as sentences made from its model: components, setup, "
                    "the round structure, each phase's actions with their costs, limits, "
                    "conditions and effects, triggers, scoring and the end of the game. A "
                    "variant's explanation says its own numbers and rules.")
    s.add_argument("game", metavar="GAME[:VARIANT]",
                   help="a bundled game, GAME:VARIANT, a folder or a .yaml file")
    s.add_argument("--variant", action="append", help="a variant of the game (same as "
                   "GAME:VARIANT); give it again to stack another (applied in order)")
    s.add_argument("--lang", "-l", choices=LANGS, default="en", help="language (default en)")
    s.add_argument("--format", "-f", choices=FORMATS, default="text",
                   help="text (default), md (Markdown) or html (a self-contained page)")
    s.set_defaults(func=cmd_explain)


def cmd_explain(args) -> int:
    from meeplang.dsl.resolve import load_game
    from meeplang.visualizer.prose import explain

    from .arguments import split_target

    game = load_game(*split_target(args.game, args.variant))
    sys.stdout.write(explain(game, args.lang, args.format))
    return 0
