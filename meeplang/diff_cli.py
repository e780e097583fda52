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
                   help="print a list of {path, before, after, where: {before, after}}")
    s.set_defaults(func=cmd_diff)


def cmd_diff(args) -> int:
    from meeplang.dsl.diff import diff_games
    from meeplang.dsl.resolve import load_game

    a, b = load_game(args.a), load_game(args.b)
    changes = diff_games(a, b)
    label = _labeller(a, b, args.lang)
    if args.json:
        print(json.dumps([c.as_json() | ({"label": label(c.path)} if args.lang else {})
                          for c in changes], indent=2, ensure_ascii=False))
        return 0
    sides = _side_words(args.lang)
    nothing = _nothing_word(args.lang)
    for c in changes:
        print(label(c.path))
        for side, value, where in ((sides[0], c.before, c.where[0]),
                                   (sides[1], c.after, c.where[1])):
            text = nothing if value is None else (value if isinstance(value, str)
                                                   else json.dumps(value, ensure_ascii=False))
            lines = text.rstrip("\n").split("\n")
            at = f"   ({where})" if where else ""
            print(f"  {side + ':':<8}{lines[0]}{at}")
            for line in lines[1:]:
                print(f"  {'':<8}{line}")
    print(f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {args.a} to {args.b}")
    return 0


def _nothing_word(lang: str | None) -> str:
    """What a side without the entry shows: `(none)`, in the language asked for."""
    if lang is None:
        return "(none)"
    from meeplang.visualizer.labels import UI

    return UI[lang]["none"]


def _side_words(lang: str | None) -> tuple[str, str]:
    """`before`/`after`, in the language asked for."""
    if lang is None:
        return "before", "after"
    from meeplang.visualizer.labels import UI

    return UI[lang]["before"].lower(), UI[lang]["after"].lower()


def _labeller(a, b, lang: str | None):
    """How a path is printed: as it is, or in `lang` with the games' terms (B's first)."""
    if lang is None:
        return lambda path: path
    import attrs

    from meeplang.visualizer.prose.paths import path_label

    both = attrs.evolve(b, terms={**a.terms, **b.terms})
    return lambda path: path_label(both, path, lang)
