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
    s.add_argument("--lang", "-l", choices=("en", "fr"),
                   help="name each path in this language: names by B's terms (A's for what B "
                        "lacks), the language's keys by their words (`--json` adds `label`)")
    s.add_argument("--json", action="store_true",
                   help="print a list of {path, before, after, where: {before, after}, reach}")
    s.set_defaults(func=cmd_diff)


def cmd_diff(args) -> int:
    from meeplang.dsl.diff import diff_games, reach
    from meeplang.dsl.resolve import load_game
    from meeplang.visualizer.prose.changes import changes_lines, labeller

    a, b = load_game(args.a), load_game(args.b)
    changes = diff_games(a, b)
    if args.json:
        label = labeller(a, b, args.lang)
        print(json.dumps([c.as_json() | ({"label": label(c.path)} if args.lang else {})
                          | {"reach": reach(a, b, c)} for c in changes],
                         indent=2, ensure_ascii=False))
        return 0
    for change in changes:
        for line in changes_lines(a, b, [change], args.lang):
            print(line)
        if not args.lang:  # reach is said in English with the rules' own names (--json keeps it)
            for line in reach(a, b, change):
                print(f"  reach:  {line}")
    print(f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {args.a} to {args.b}")
    return 0
