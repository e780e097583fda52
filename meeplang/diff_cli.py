"""`meeplang diff A B [--json]`: what a variant (or another game) changes, rule by rule."""
from __future__ import annotations

import json


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "diff", help="the semantic difference between two games or variants",
        description="List what changes from A to B: players, options, tables, counters, zones, "
                    "items, formulas, setup, flow, actions (choices, conditions, limits, "
                    "effects), triggers, scoring. Rule text is compared as syntax, so "
                    "reformatting is not a change. Exit status 0 either way.")
    s.add_argument("a", metavar="A", help="a game, GAME:VARIANT, a folder or a .yaml file")
    s.add_argument("b", metavar="B", help="the same kinds; a variant file of A, say")
    s.add_argument("--json", action="store_true",
                   help="print a list of {path, before, after, where: {before, after}}")
    s.set_defaults(func=cmd_diff)


def cmd_diff(args) -> int:
    from meeplang.dsl.diff import diff_games
    from meeplang.dsl.resolve import load_game

    changes = diff_games(load_game(args.a), load_game(args.b))
    if args.json:
        print(json.dumps([c.as_json() for c in changes], indent=2, ensure_ascii=False))
        return 0
    for c in changes:
        print(c.path)
        for side, value, where in (("before", c.before, c.where[0]), ("after", c.after, c.where[1])):
            text = "(none)" if value is None else (value if isinstance(value, str)
                                                   else json.dumps(value, ensure_ascii=False))
            lines = text.rstrip("\n").split("\n")
            at = f"   ({where})" if where else ""
            print(f"  {side + ':':<8}{lines[0]}{at}")
            for line in lines[1:]:
                print(f"  {'':<8}{line}")
    print(f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {args.a} to {args.b}")
    return 0
