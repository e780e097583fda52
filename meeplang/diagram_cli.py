"""`meeplang diagram`, `meeplang aid` and `meeplang report` (registered by meeplang.cli through
COMMAND_MODULES)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from meeplang.dsl.errors import UsageError
from meeplang.visualizer.dot import DETAILS
from meeplang.visualizer.labels import LANGS
from meeplang.visualizer.render import FORMATS
from meeplang.visualizer.rule_text import TEXTS

from .arguments import split_target

STDOUT = "-"  # `-o -` means standard output, as in most Unix tools


def _load(text: str):
    from meeplang.dsl.resolve import load_game

    return load_game(*split_target(text))


def _stem(game) -> str:
    return game.name + (f"-{game.variant}" if game.variant else "")


def changes_from_base(game) -> list:
    """What a variant changes from its base game, for --highlight-changes."""
    from meeplang.dsl.diff import changes_from_base as diff_from_base

    if game.variant is None:
        raise UsageError("--highlight-changes needs a variant (GAME:VARIANT or a variant file)")
    return diff_from_base(game)


def cmd_diagram(args) -> int:
    from meeplang.visualizer.render import render, write

    game = _load(args.game)
    if args.action or args.all_actions or args.turn or args.automa:
        return _charts(args, game)
    changes = changes_from_base(game) if args.highlight_changes else None
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lstrip(".").lower() if args.output else ""
        fmt = suffix if suffix in FORMATS else ("dot" if args.output == "-" else "svg")
    if args.output == STDOUT:  # `-o -`: the document itself on standard output
        sys.stdout.buffer.write(render(game, fmt, args.detail, args.lang, changes, args.text))
        sys.stdout.flush()
        return 0
    out = Path(args.output) if args.output else Path(f"{_stem(game)}.{fmt}")
    write(game, out, fmt, args.detail, args.lang, changes, args.text)
    print(json.dumps({"ok": True, "path": str(out), "format": fmt}) if args.json else out)
    return 0


def _charts(args, game) -> int:
    """--action NAME, --turn, --automa (one chart) and --all-actions DIR (every chart)."""
    from meeplang.dsl.atomic import write_files
    from meeplang.visualizer import activity as AC

    if args.detail != "phases" or args.text != "prose":
        raise UsageError("--action, --all-actions, --turn and --automa draw the rules' sentences: "
                         "--detail and --text do not apply to them")
    changes = changes_from_base(game) if args.highlight_changes else None

    def marked(charts):
        return charts if changes is None else AC.mark_changes(charts, changes, args.lang)
    if args.all_actions:
        if args.output:
            raise UsageError("--all-actions DIR writes a folder: give no -o")
        fmt = args.format or "svg"
        out = Path(args.all_actions)
        if out.exists() and not out.is_dir():
            raise UsageError(f"--all-actions {out}: a file is in the way (the charts go in a "
                             "folder)")
        out.mkdir(parents=True, exist_ok=True)
        files = [(out / f"{chart.stem}.{fmt}", AC.render_chart(chart, fmt, game))
                 for chart in marked(AC.all_charts(game, args.lang))]
        write_files(files)  # all of them or, on a failure, none (the old ones stay)
        paths = [str(path) for path, _ in files]
        if args.json:
            print(json.dumps({"ok": True, "paths": paths, "format": fmt}))
        else:
            print(f"{out}: {len(paths)} charts")
        return 0
    if args.action:
        kind = AC.find_rule(game, args.action)
        chart = AC.rule_chart(game, kind, args.action, args.lang)
    elif args.turn:
        chart = AC.turn_chart(game, args.lang)
    else:
        chart = AC.automa_chart(game, args.lang)
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lstrip(".").lower() if args.output else ""
        fmt = suffix if suffix in FORMATS else ("dot" if args.output == "-" else "svg")
    if changes is not None:  # what the chart links to is marked too: mark them all, keep one
        chart = next(c for c in marked(AC.all_charts(game, args.lang)) if c.stem == chart.stem)
    data = AC.render_chart(chart, fmt, game)
    return _emit(args, data, fmt, f"{_stem(game)}-{chart.stem}.{fmt}")


def _emit(args, data: bytes, fmt: str, default_name: str) -> int:
    """A rendered chart or aid: to standard output with `-o -`, else to its file (atomically),
    whose path is printed (as JSON with --json)."""
    from meeplang.dsl.atomic import write_file

    if args.output == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    out = Path(args.output) if args.output else Path(default_name)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    write_file(out, data)
    print(json.dumps({"ok": True, "path": str(out), "format": fmt}) if args.json else out)
    return 0


def cmd_report(args) -> int:
    from meeplang.visualizer.report import write_report

    if args.output == STDOUT:
        raise UsageError("report writes a folder (index.html and its images): -o needs a folder, "
                         "not -")
    game = _load(args.game)
    out = Path(args.output) if args.output else Path(f"{_stem(game)}-report")
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: a file is in the way (the report is a folder)")
    index = write_report(game, out, detail=args.detail, lang=args.lang, text=args.text,
                         charts=not args.no_charts)
    print(json.dumps({"ok": True, "path": str(index)}) if args.json else index)
    return 0


def cmd_aid(args) -> int:
    """`meeplang aid`: the one-page player aid."""
    from meeplang.visualizer.aid import render_aid

    game = _load(args.game)
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lstrip(".").lower() if args.output else ""
        fmt = suffix if suffix in AID_FORMATS else ("dot" if args.output == STDOUT else "pdf")
    data = render_aid(game, fmt, args.lang, args.paper)
    return _emit(args, data, fmt, f"{_stem(game)}-aid-{args.paper}.{fmt}")


AID_FORMATS = ("pdf", "svg", "png", "dot")


def _text_option(parser) -> None:
    parser.add_argument("--text", choices=TEXTS, default="prose",
                        help="what rule boxes say: prose (sentences in --lang, default) or rules "
                             "(the rule code as written)")


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "diagram", help="draw a game's flowchart (rounds, phases, turns, actions) with Graphviz",
        description="Draw a game's rules diagram from its model. SVG, PNG and PDF need "
                    "Graphviz's `dot` (apt-get install graphviz); --format dot does not.")
    s.add_argument("game", metavar="GAME[:VARIANT]", help="a bundled game, GAME:VARIANT or a folder")
    s.add_argument("-o", "--output", metavar="FILE",
                   help="output file, or - for standard output (default: GAME.svg or GAME-VARIANT.svg "
                        "in the current folder; with -, the format defaults to dot)")
    s.add_argument("--format", "-f", choices=FORMATS,
                   help="svg, png, pdf or dot (default: from -o's extension, else svg)")
    s.add_argument("--detail", "-d", choices=DETAILS, default="phases",
                   help="phases (flow only), actions (+ actions in each turns step), "
                        "full (+ effects and triggers); default phases")
    s.add_argument("--lang", "-l", choices=LANGS, default="en", help="label language (default en)")
    _text_option(s)
    s.add_argument("--highlight-changes", action="store_true",
                   help="a variant: colour what it changes from its base game (the rules it "
                        "changes and those reading a table it changes) and list every change")
    charts = s.add_mutually_exclusive_group()
    charts.add_argument("--action", metavar="NAME",
                        help="draw one action's (or trigger's) flowchart of its statements "
                             "instead of the game's")
    charts.add_argument("--all-actions", metavar="DIR",
                        help="write every action's, trigger's and free action's flowchart, the "
                             "automa's turn and the turn chart into DIR (action-NAME.svg, "
                             "trigger-NAME.svg, automa.svg, turn.svg), linked to each other")
    charts.add_argument("--turn", action="store_true",
                        help="draw the turn chart: the order of what a player does on a turn")
    charts.add_argument("--automa", action="store_true",
                        help="draw what an automa seat does on its turn")
    s.add_argument("--json", action="store_true", help="print {ok, path, format} as JSON")
    s.set_defaults(func=cmd_diagram)

    s = subparsers.add_parser(
        "aid", help="a one-page player aid (PDF or SVG, A4 or US Letter)",
        description="Write a one-page player aid: the round's phases, the turn, one line per "
                    "action with its price and what it pays and gains, the end of the game and "
                    "the final scoring, a variant's changes in red; text at 8 pt or more, never "
                    "scaled (needs Graphviz's `dot`; the PDF embeds its fonts).")
    s.add_argument("game", metavar="GAME[:VARIANT]")
    s.add_argument("-o", "--output", metavar="FILE",
                   help="output file, or - for standard output (default: GAME-aid-PAPER.pdf)")
    s.add_argument("--format", "-f", choices=AID_FORMATS,
                   help="pdf, svg, png or dot (default: from -o's extension, else pdf)")
    s.add_argument("--paper", choices=("a4", "letter"), default="a4",
                   help="page size: a4 (default) or letter (US Letter)")
    s.add_argument("--lang", "-l", choices=LANGS, default="en")
    s.add_argument("--json", action="store_true", help="print {ok, path, format} as JSON")
    s.set_defaults(func=cmd_aid)

    s = subparsers.add_parser(
        "report", help="write a static HTML page: flowchart, components, actions",
        description="Write DIR/index.html: the game's title and summary, its flowchart (inline "
                    "SVG; needs Graphviz's `dot`) and tables of its components and actions.")
    s.add_argument("game", metavar="GAME[:VARIANT]")
    s.add_argument("-o", "--output", metavar="DIR",
                   help="output folder (default: GAME-report or GAME-VARIANT-report)")
    s.add_argument("--detail", "-d", choices=DETAILS, default="actions",
                   help="diagram detail (default actions)")
    s.add_argument("--lang", "-l", choices=LANGS, default="en")
    _text_option(s)
    s.add_argument("--no-charts", action="store_true",
                   help="leave out the rules' flowcharts (charts/) and the player aid "
                        "(aid-a4.pdf, aid-letter.pdf) written beside the page")
    s.add_argument("--json", action="store_true", help="print {ok, path} as JSON")
    s.set_defaults(func=cmd_report)


if __name__ == "__main__":  # pragma: no cover
    from meeplang.cli import main

    sys.exit(main(["diagram", *sys.argv[1:]]))
