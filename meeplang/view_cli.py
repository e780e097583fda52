"""`meeplang view LOG [-o PAGE.html] [--lang en|fr] [--seat N]`: a game log as one static HTML
page to step through (registered by meeplang.cli through COMMAND_MODULES)."""
from __future__ import annotations

import json
from pathlib import Path

from meeplang.dsl.errors import UsageError

from .arguments import check_writable


def _seat(text: str):
    """`--seat 0` (a seat's page) or `--seat all` (the author's page alone)."""
    if text == "all":
        return text
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--seat takes a seat number or `all`, not {text!r}") from None


def cmd_view(args) -> int:
    from meeplang.visualizer.viewer import write_view

    out = args.output or f"{Path(args.log).stem}.html"
    if out == "-":
        raise UsageError("view writes a page: -o needs a file name, not -")
    check_writable(out, "-o")
    seat = _seat(args.seat) if args.seat is not None else None
    path = write_view(args.log, out, lang=args.lang, seat=seat, detail=args.detail)
    print(json.dumps({"ok": True, "path": str(path)}) if args.json else path)
    return 0


def register(subparsers) -> None:
    from meeplang.visualizer.dot import DETAILS
    from meeplang.visualizer.labels import LANGS

    s = subparsers.add_parser(
        "view", help="a game log as a static HTML page to step through, decision by decision",
        description="Replay LOG (checking every event, as `meeplang replay` does) and write one "
                    "self-contained HTML page: step through the game forwards and backwards, "
                    "the state as a seat saw it at each decision (or everything, as the author "
                    "sees it), the options offered and the one taken, each event's rule line, "
                    "what each decision changed, and the flowchart with the current step "
                    "highlighted. Needs Graphviz's `dot` for the flowchart.")
    s.add_argument("log", metavar="LOG", help="a log written by `meeplang play --log`")
    s.add_argument("-o", "--output", metavar="FILE",
                   help="the page to write (default: LOG's name with .html, in the current "
                        "folder)")
    s.add_argument("--lang", "-l", choices=LANGS, default="en",
                   help="the page's language, with the game's terms (default en)")
    s.add_argument("--seat", metavar="N|all",
                   help="a page holding only what seat N saw (no other view is in the file), "
                        "or `all` for the author's view alone; default: the author's view and "
                        "every seat's, chosen in the page")
    s.add_argument("--detail", "-d", choices=DETAILS, default="phases",
                   help="the flowchart's detail (default phases; actions also marks the action "
                        "taken)")
    s.add_argument("--json", action="store_true", help="print {ok, path} as JSON")
    s.set_defaults(func=cmd_view)
