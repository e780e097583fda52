"""`meeplang new variant GAME NAME`: a commented starting file for a house rule.

The file lists, commented out, what a house rule usually tunes (options, tables, counters'
starting values and bounds, action limits) with the game's current values, so changing a number is
uncommenting a line and editing it. Everything written here is a valid overlay: it goes through
the same safe-overlay checks as any variant (a name the game lacks is an error). Its first line
names the variant schema for editors (yaml-language-server): by a relative path when the schema
lies inside the current folder (a checkout, a project's own virtual environment), else by its
absolute `file:` URI.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from meeplang.dsl.atomic import create_file
from meeplang.dsl.errors import UsageError
from meeplang.dsl.schema import VARIANT_SCHEMA_PATH, modeline

WIDE = 100  # a table longer than this on one line is listed by name only
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .-]*$")
_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "none"}


def register(subparsers) -> None:
    s = subparsers.add_parser("new", help="start a new file: `new variant GAME NAME`",
                              description="Write a commented starting file.")
    kinds = s.add_subparsers(dest="kind", required=True, metavar="KIND")
    v = kinds.add_parser("variant", help="a house rule over GAME: lists what can be tuned",
                         description="Write NAME.yaml: a variant of GAME listing, commented "
                                     "out, its options, tables, counters and action limits.")
    v.add_argument("game", metavar="GAME", help="a bundled game, a folder or a game file")
    v.add_argument("name", metavar="NAME", help="the variant's name (lowercase, - and _)")
    v.add_argument("-o", "--output", metavar="FILE", help="where to write (default NAME.yaml; "
                   "- for standard output); an existing file is never overwritten")
    v.set_defaults(func=cmd_new_variant)


def cmd_new_variant(args) -> int:
    from meeplang.dsl.resolve import load_game

    if not re.fullmatch(r"[a-z][a-z0-9_-]*", args.name):
        raise UsageError(f"a variant name is lowercase letters, digits, - and _: not {args.name!r}")
    game = load_game(args.game)
    out = None if args.output == "-" else Path(args.output or f"{args.name}.yaml")
    text = modeline(schema_reference(VARIANT_SCHEMA_PATH, out)) + "\n" + variant_template(
        game, args.game, args.name)
    if out is None:
        sys.stdout.write(text)
        return 0
    try:  # never over anything: a file, a folder, a link (one that leads nowhere too)
        create_file(out, text)
    except FileExistsError:
        raise UsageError(f"{out} exists already; give another name or -o FILE") from None
    print(f"wrote {out}: uncomment what you change, then `meeplang check {out}`")
    return 0


def schema_reference(schema: Path, out: Path | None) -> str:
    """How a file written at `out` (None: standard output, read as a file of the current folder)
    names a schema: relative to its folder when the schema is inside the current folder, else
    the schema's absolute URI (which any folder reads alike)."""
    here = Path.cwd().resolve()
    schema = schema.resolve()
    folder = (out.parent if out is not None else Path(".")).resolve()
    if here in schema.parents and here in (folder, *folder.parents):
        relative = Path(os.path.relpath(schema, folder)).as_posix()
        if not any(c.isspace() for c in relative):
            return relative
    return schema.as_uri()


def flow_value(value) -> str:
    """A value as YAML flow text that reads back to the same value (keys keep their type)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        plain = _PLAIN.match(value) and value.lower() not in _WORDS and value == value.strip()
        return value if plain else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow_value(k)}: {flow_value(v)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(flow_value(v) for v in value) + "]"


def periods(game) -> list[str]:
    """What an action's `per:` may name: turn, game, or one of the game's phases."""
    from meeplang.dsl.model import PhaseStep

    phases: list = []

    def walk(steps):
        for step in steps:
            if isinstance(step, PhaseStep):
                phases.append(step.name)
            for attr in ("steps", "other"):
                walk(getattr(step, attr, ()) or ())
    walk(game.flow)
    return ["turn", "game"] + list(dict.fromkeys(phases))


def _rule_value(e):
    """An expression as a game file gives it: a number as a number, anything else as its text."""
    from meeplang.dsl import ast as A

    return e.value if isinstance(e, A.Num) else A.expr_source(e)


def variant_template(game, target: str, name: str) -> str:
    """The commented starting file for a variant NAME of `game` (named `target` by the user)."""
    from meeplang.dsl.ast import expr_source

    title = game.title.get("en", game.name)
    lines = [f"# A house rule for {title}. Uncomment what you change and edit the value; anything",
             "# left out stays as in the game. A name the game does not have is an error (did you",
             "# mean ...?); new entries go under `add:` at the end.",
             f"# Then: meeplang check {name}.yaml && meeplang diff {target} {name}.yaml",
             f"variant: {name}",
             f"extends: {target}",
             f"title: {flow_value(f'{title} ({name})')}"]
    if game.options:
        lines += ["", "# options:                        (also --option NAME=VALUE at play time)"]
        for o in game.options.values():
            said = o.doc.get("en") or next(iter(o.doc.values()), "")  # this file is in English
            doc = f"   # {said}" if said else ""
            lines.append(f"#   {o.name}: {{default: {flow_value(o.default)}}}{doc}")
    short = {k: v for k, v in game.tables.items() if len(flow_value(v)) <= WIDE}
    if short:
        lines += ["", "# tables:                         (a mapping table may change only some keys)"]
        lines += [f"#   {k}: {flow_value(v)}" for k, v in short.items()]
        longer = [k for k in game.tables if k not in short]
        if longer:
            lines.append(f"#   (longer tables: {', '.join(longer)})")
    if game.counters:
        lines += ["", "# counters:                       (starting values and bounds)"]
        for c in game.counters.values():
            bounds = "".join(f", {k}: {v}" for k, v in (("min", c.min), ("max", c.max))
                             if v is not None)
            lines.append(f"#   {c.name}: {{initial: {expr_source(c.initial)}{bounds}}}")
    limited = [a for a in game.actions.values() if a.limits]
    if limited:
        lines += ["", "# actions:                        (how often an action may be taken)",
                  f"#   (per: is one of {', '.join(periods(game))})",
                  '#   (uses("ACTION") counts in the period of its first limit: a new per: also)',
                  "#   (changes what the rules that read it see; `meeplang diff` shows where)"]
        for a in limited:
            spelled = [flow_value({"times": _rule_value(lim.times), "per": lim.per}
                                  | ({"shared": True} if lim.shared else {})
                                  | ({"if": _rule_value(lim.cond)} if lim.cond is not None else {}))
                       for lim in a.limits]
            limit = spelled[0] if len(spelled) == 1 else "[" + ", ".join(spelled) + "]"
            lines += [f"#   {a.name}:", f"#     limit: {limit}"]
    lines += ["", "# add:                            (new entries: actions, counters, tables, ...)",
              "#   counters:", "#     my_counter: {initial: 0}", ""]
    return "\n".join(lines)
