"""`meeplang playtest GAME[:VARIANT | FILE] [--players N] [--seed S] [--agents SPEC] [--lang en|fr]
[--port P] [--no-browser]`: a game played live in a browser page served on 127.0.0.1 (the page and
the session: visualizer/playtest.py; registered by meeplang.cli through COMMAND_MODULES)."""
from __future__ import annotations

import importlib.util
import socket
import sys

from meeplang.dsl.errors import UsageError

from .arguments import parse_options, split_target

INSTALL = "meeplang playtest needs starlette and uvicorn: pip install 'meeplang[playtest]'"


def _listen(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:`port` (0: a free port), and nothing else."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: a port is a number from 0 to 65535")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"--port {port}: cannot listen on 127.0.0.1:{port} "
                         f"({exc.strerror or exc}); give another port, or 0 for a free one") \
            from None
    sock.listen(64)
    return sock


def cmd_playtest(args) -> int:
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise UsageError(INSTALL)
    import uvicorn
    from meeplang.visualizer.playtest import PlaytestSession, make_app, new_token

    name, variant = split_target(args.game, args.variant)
    session = PlaytestSession(name, variant, players=args.players, seed=args.seed,
                              agents=args.agents, lang=args.lang,
                              options=parse_options(args.option))
    sock = _listen(args.port)
    port = sock.getsockname()[1]
    token = new_token()
    app = make_app(session, token, port)
    url = f"http://127.0.0.1:{port}/?token={token}"
    print(f"playtest of {args.game} at {url}", flush=True)
    print("(served on this computer only; Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        import webbrowser

        try:
            webbrowser.open(url)
        except webbrowser.Error as exc:
            print(f"meeplang: could not open a browser ({exc}): open the address above",
                  file=sys.stderr)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C is how a playtest ends: uvicorn stopped, then re-raised it
        pass
    finally:
        sock.close()
    print("playtest stopped", flush=True)
    return 0


def register(subparsers) -> None:
    from meeplang.visualizer.labels import LANGS

    s = subparsers.add_parser(
        "playtest", help="play a game live in a browser page: options as buttons, the refused "
                         "ones with their reason, agents, undo and redo, save and load; an edit "
                         "of the rules reloads the game",
        description="Serve a page on 127.0.0.1 (a random token in its address is needed for "
                    "every request) to play GAME decision by decision: the options offered as "
                    "buttons, the actions refused with the rule that forbids them, the state as "
                    "a seat or the author sees it, the flowchart with the current step, agents "
                    "for the other seats, undo and redo at every decision, save and load. Edit "
                    "the game's files while it runs: an error shows in the page with its "
                    "position and the game goes on; clean rules restart it from the same seed "
                    "with the same choices, as far as they stay legal.")
    s.add_argument("game", metavar="GAME[:VARIANT]",
                   help="a bundled game, GAME:VARIANT, a game folder, or a variant or game file")
    s.add_argument("--players", "-p", type=int, help="seats (default: the game's fewest)")
    s.add_argument("--seed", "-s", type=int, default=0, help="the dice and shuffles (default 0)")
    s.add_argument("--variant", action="append", metavar="VARIANT",
                   help="a variant name or file; give it again to stack another")
    s.add_argument("--agents", default="human",
                   help="comma-separated, one per seat (the last repeats), as `meeplang play` "
                        "takes them: human (you choose in the page), random, first, greedy, mcts; "
                        "default: human at every seat")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a game option, e.g. --option target=50")
    s.add_argument("--lang", "-l", choices=LANGS, default="en",
                   help="the page's language, with the game's terms (default en)")
    s.add_argument("--port", type=int, default=8765,
                   help="the port on 127.0.0.1 (default 8765; 0: any free port)")
    s.add_argument("--no-browser", action="store_true",
                   help="do not open a browser: print the page's address only")
    s.set_defaults(func=cmd_playtest)
