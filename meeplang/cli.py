"""The `meeplang` command. Bad input prints `file:line:col: error: ...` and exits 1; bad usage
exits 2; no traceback ever reaches the user for either."""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

from meeplang.dsl.errors import MeeplangError, UsageError, remember_source, source_line
from meeplang.dsl.loader import bundled_games, games_dir
from meeplang.dsl.model import players_text
from meeplang.dsl.resolve import load_game

from . import __version__
from .arguments import (add_output_misuse, check_writable, parse_options, split_target,
                        target_text)
from .output import error_object, one_line, print_json, safe_output

# Modules that add their own subcommands: each has `register(subparsers)`; each parser it adds sets
# `func=handler(args) -> exit status`. Handlers raise MeeplangError for bad input like the rest.
COMMAND_MODULES = ("meeplang.diagram_cli", "meeplang.simulate_cli", "meeplang.new_variant",
                   "meeplang.diff_cli", "meeplang.explain_cli", "meeplang.compile_cli",
                   "meeplang.view_cli", "meeplang.cite_cli",
                   "meeplang.playtest_cli")


# ---------------------------------------------------------------- commands
def cmd_games(args) -> int:
    rows = []
    for name in bundled_games():
        game = load_game(name)
        rows.append({
            "name": name, "title": game.title.get("en", name),
            "players": [game.min_players, game.max_players],
            "variants": [{"name": v, "title": t, "players": list(p)} for v, t, p in game.variants],
        })
    if args.json:
        print(json.dumps({"games": rows}, indent=2, ensure_ascii=False))
        return 0
    width = max([len(r["title"]) for r in rows] + [len(v["title"]) for r in rows
                                                    for v in r["variants"]] + [10])
    names = max([len(r["name"]) for r in rows] + [3 + len(v["name"]) for r in rows
                                                   for v in r["variants"]] + [16])
    for r in rows:
        lo, hi = r["players"]
        print(f"{r['name']:<{names}} {one_line(r['title']):<{width}}  {players_text(lo, hi)}")
        for v in r["variants"]:
            vlo, vhi = v["players"]
            print(f"  :{v['name']:<{names - 3}} {one_line(v['title']):<{width}}  "
                  f"{players_text(vlo, vhi)}")
    return 0


def cmd_check(args) -> int:
    if args.deep:
        if args.n < 1:
            raise UsageError(f"-n {args.n}: --deep plays at least 1 game per variant and player "
                             "count")
        return cmd_deep_check(args)
    name, variant = split_target(args.target, args.variant)
    targets = [variant]
    base = load_game(name, variant)
    if variant is None:
        targets += [v for v, _, _ in base.variants]
    problems = 0
    report = []
    from meeplang.interpreter.codegen import generate

    for v in targets:
        game = base if v == variant else load_game(name, v)
        generate(game)  # the Python its rules make stays within bounds (interpreter/codegen.py)
        label = target_text(game)  # as `play` takes it
        for w in game.warnings:
            print(str(w), file=sys.stderr)
        report.append({"game": label, "warnings": [str(w) for w in game.warnings],
                       "players": [game.min_players, game.max_players]})
        if args.strict and game.warnings:
            problems += 1
        if not args.json:
            print(f"ok: {label} ({one_line(game.title.get('en', game.name))}, "
                  f"{players_text(game.min_players, game.max_players)}, {len(game.actions)} actions, "
                  f"{len(game.triggers)} triggers"
                  + (f", {len(game.warnings)} warnings" if game.warnings else "") + ")")
    if args.json:
        print(json.dumps({"ok": problems == 0, "checked": report}, indent=2))
    return 1 if problems else 0


def cmd_deep_check(args) -> int:
    from meeplang.interpreter.deep_check import run_deep

    summary, broken = run_deep(args.target, args.n, args.agents, args.seed)
    if args.json:
        print_json({"ok": broken is None, "runs": [
            {"target": t, "players": p, "games": n} for t, p, n in summary.runs],
            "games": summary.games, "decisions": summary.decisions, "checks": summary.checks,
            "replays": summary.replays, "reloads": summary.reloads,
            "bounds": [{"target": t, "option": o, "bound": w, "value": v, "players": list(c)}
                       for t, o, w, v, c in summary.bounds],
            "broken": None if broken is None else str(broken),
            **({} if broken is None or broken.pos is None else {"at": {
                "path": broken.pos.path, "line": broken.pos.line, "col": broken.pos.col}})})
        return 0 if broken is None else 1
    for target, players, games in summary.runs:
        print(f"ok: {target} with {players_text(players, players)}: {games} games")
    for target, option, which, value, counts in summary.bounds:
        print(f"ok: {target} with {option} at its {which} {value}: "
              + ", ".join(players_text(n, n) for n in counts))
    print(f"{summary.games} games, {summary.decisions} decisions, {summary.checks} invariant "
          f"checks, {summary.replays} replays, {summary.reloads} save/load round trips")
    if broken is not None:  # a bound that does not play is an error at the bound
        print(str(broken) if broken.pos is not None else f"BROKEN: {broken}", file=sys.stderr)
        return 1
    return 0


def _rule_text(at: str) -> str | None:
    """The source line a `file:line[:col]` position points at (a game from the cache was not
    read in this process: its file is read now, bundled files from the bundled games' folder)."""
    path, _, rest = at.partition(":")
    line = rest.split(":")[0]
    if not line.isdigit():
        return None
    if source_line(path, int(line)) is None:
        for candidate in (Path(path), games_dir().parent / path):
            if candidate.is_file():
                remember_source(path, candidate.read_text(encoding="utf-8"))
                break
    src = source_line(path, int(line))
    return src.strip() if src else None


def _trace_line(event: dict) -> str:
    text = json.dumps({k: v for k, v in event.items() if k != "at"}, ensure_ascii=False)
    at = event.get("at")
    if not at:
        return text
    src = _rule_text(at)
    return f"{text:<70} {at}" + (f"  | {src}" if src else "")


def _print_trace(engine, shown: list) -> None:
    """Print the events and state changes not shown yet, in the order they happened: each
    change under the rule line that made it (shown: [events printed, changes printed])."""
    from meeplang.interpreter.trace import describe

    events, changes = engine.events, engine.changes
    while shown[0] < len(events) or shown[1] < len(changes):
        if shown[1] < len(changes) and changes[shown[1]][0] <= shown[0]:
            _, at, what = changes[shown[1]]
            lines = [text for text in map(describe, what) if text is not None]
            if lines:
                src = _rule_text(at) if at is not None else None
                print(f"  {at or '(the engine: turns, phases, use counts, triggers)'}"
                      + (f"  | {src}" if src else ""))
                for line in lines:
                    print(f"      {line}")
            shown[1] += 1
        else:
            print(_trace_line(events[shown[0]]))
            shown[0] += 1


def cmd_play(args) -> int:
    from meeplang.interpreter.engine import Engine
    from meeplang.interpreter.agents import make_agents
    from meeplang.interpreter.log import write_log

    name, variant = split_target(args.game, args.variant)
    if args.log:
        check_writable(args.log, "--log")
    game = load_game(name, variant)
    players = args.players if args.players is not None else game.min_players
    engine = Engine(game, players, args.seed, parse_options(args.option), trace=args.trace)
    seats = make_agents(args.agents, players, args.seed)
    d = engine.start()
    shown = [0, 0]
    while d is not None:
        if args.trace:
            _print_trace(engine, shown)
        agent = seats[d.player]
        view = engine.view(d.player) if agent.needs_view else None
        d = engine.choose(agent.choose(engine, d, view))
    if args.trace:
        _print_trace(engine, shown)
    if args.log:
        write_log(args.log, engine)
    result = engine.result
    if args.json:
        out = {"game": game.name, "variant": game.variant, "players": players, "seed": args.seed,
               "options": engine.opts,
               "agents": [a.name for a in seats] + ([game.automa[0]] * game.automa[1]
                                                    if game.automa else []),
               "scores": result["scores"], "winners": result["winners"],
               "tie_breaks": result["tie_breaks"], "decisions": len(engine.choices),
               "turns": engine.turns_taken, "rules": game.rules_hash, "final_state": engine.state}
        if "ranks" in result:  # the title each score earns (`ranks:`), by its term's name
            out["ranks"] = result["ranks"]
        print(json.dumps(out, ensure_ascii=False, sort_keys=False))
        return 0
    title = game.title.get("en", game.name)
    if game.variant and game.variant not in title:  # a variant's own title may name it already
        title += f" ({game.variant})"
    print(f"{one_line(title)}: {players_text(players, players)}, seed {args.seed}, "
          f"{len(engine.choices)} decisions")
    ranks = result.get("ranks") or [None] * len(result["scores"])
    for p, score in enumerate(result["scores"]):
        mark = "  winner" if p in result["winners"] else ""
        who = seats[p].name if p < len(seats) else (game.automa[0] if game.automa else "automa")
        title = f" ({one_line(game.term(ranks[p]))})" if ranks[p] is not None else ""
        print(f"  player {p} ({who}): {score}{title}{mark}")
    if not result["winners"]:
        print("  no winner")
    if args.log:
        print(f"log written to {args.log}")
    return 0


def cmd_replay(args) -> int:
    from meeplang.interpreter.log import replay

    for path in args.variant_file or []:
        if not Path(path).is_file():
            raise UsageError(f"--variant-file {path}: no such file")
    engine = replay(args.log, variant_files=args.variant_file or ())
    r = engine.result
    if args.json:
        print(json.dumps({"ok": True, "decisions": len(engine.choices), "scores": r["scores"],
                          "winners": r["winners"]}))
    else:
        print(f"replayed {args.log}: {len(engine.choices)} decisions, every event identical; "
              f"scores {r['scores']}, winners {r['winners']}")
    return 0


def cmd_lsp(args) -> int:
    try:
        from .lsp.server import serve
    except ImportError as exc:
        if exc.name not in ("pygls", "lsprotocol") and not (exc.name or "").startswith("pygls."):
            raise
        raise UsageError("meeplang lsp needs pygls: pip install 'meeplang[lsp]'") from None
    serve()
    return 0


def cmd_schema(args) -> int:
    from meeplang.dsl.schema import SCHEMAS

    print(SCHEMAS[args.kind])
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="meeplang", description="Meeplang: board game rules as "
                                "data and rule text; check, play, replay.")
    p.add_argument("--version", action="version", version=f"meeplang {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("games", help="list the bundled games and their variants")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_games)

    s = sub.add_parser("check", help="check a game (and its variants) for errors")
    s.add_argument("target", metavar="GAME_OR_PATH", help="a bundled game, GAME:VARIANT, a folder "
                   "or a .yaml file")
    s.add_argument("--json", action="store_true")
    s.add_argument("--strict", action="store_true", help="treat warnings as errors")
    s.add_argument("--variant", action="append", metavar="VARIANT", help="a variant name or "
                   "file; give it again to stack another (applied in order)")
    s.add_argument("--deep", action="store_true", help="also play random games of every variant "
                   "and player count, checking invariants, replay and save/load, and a game with each "
                   "option at each of its bounds")
    s.add_argument("-n", type=int, default=5, help="games per variant and player count (--deep)")
    s.add_argument("--agents", default="random", help="agents for --deep games")
    s.add_argument("--seed", type=int, default=0, help="master seed for --deep games")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("play", help="play one game with agents")
    s.add_argument("game", metavar="GAME[:VARIANT]")
    s.add_argument("--players", "-p", type=int)
    s.add_argument("--seed", "-s", type=int, default=0)
    s.add_argument("--variant", action="append", metavar="VARIANT", help="a variant name or "
                   "file; give it again to stack another (applied in order)")
    s.add_argument("--agents", default="random",
                   help="comma-separated, one per seat (the last repeats): random, first, greedy, "
                        "mcts (mcts:400 iterations or mcts:0.5s per decision), human")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a game option, e.g. --option target=50")
    add_output_misuse(s)
    s.add_argument("--log", metavar="FILE", help="write the game log (JSON Lines)")
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    s.add_argument("--trace", action="store_true", help="print each event beside its rule line")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay", help="re-run a log and verify it event by event")
    s.add_argument("log", metavar="LOG")
    s.add_argument("--variant-file", action="append", metavar="PATH",
                   help="where a variant file the log names is now, if it moved (it must have "
                        "the same contents); once per file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("lsp", help="a language server for editors, on stdin/stdout: problems "
                       "while you type with quick fixes, completion, hover, go to definition, "
                       "outline, references, rename")
    s.set_defaults(func=cmd_lsp)

    s = sub.add_parser("schema", help="print where the JSON Schema of a kind of file is, for "
                       "an editor's yaml-language-server", description="Print the path of the "
                       "JSON Schema for game files (game.yaml), variant files or included files: "
                       "put `# yaml-language-server: $schema=PATH` on a file's first line, or "
                       "give PATH to your editor's YAML settings.")
    s.add_argument("kind", nargs="?", default="game", choices=("game", "variant", "include"),
                   help="the kind of file (default: game)")
    s.set_defaults(func=cmd_schema)

    for module in COMMAND_MODULES:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(sub)
    return p


def main(argv=None) -> int:
    try:
        parser = build_parser()
    except ImportError as exc:  # a broken installation, e.g. a stale compiled build in a read-only
        print(f"meeplang: error: {exc}", file=sys.stderr)  # folder (interpreter/__init__.py)
        return 2
    with safe_output():  # a game's texts (and arguments argparse echoes) reach the terminal
        args = parser.parse_args(argv)  # as text, never as its commands
        return _run(args)


def _run(args) -> int:
    try:
        return args.func(args)
    except MeeplangError as exc:
        if getattr(args, "json", False):  # a script reading stdout learns what went wrong too
            print_json(error_object(exc))
        if isinstance(exc, UsageError):
            print(f"meeplang: error: {exc.message}", file=sys.stderr)
            return 2
        print(exc.render(), file=sys.stderr)
        return 1
    except UnicodeEncodeError as exc:  # a name from the command line with a lone surrogate
        if "surrogate" not in str(exc.reason):  # (the shell passed bytes that are not UTF-8):
            raise                                # no file can be named so
        print("meeplang: error: a file name given is not valid text (it holds a lone "
              "surrogate)", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `meeplang ... | head`: the reader has all it wanted
        _silence_stdout()
        return 0
    except OSError as exc:  # the disk refused (full, read-only, a folder where a file goes)
        print(f"meeplang: error: {exc.filename or 'output'}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last resort: a bug of ours, never a traceback
        if os.environ.get("MEEPLANG_DEBUG"):
            raise
        print(f"meeplang: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in meeplang, not in your rules; please report it "
              "(MEEPLANG_DEBUG=1 shows the traceback).", file=sys.stderr)
        return 3


def _silence_stdout() -> None:
    """After a broken pipe, send what is still buffered for stdout nowhere (flushing it at exit
    would fail again, with a message)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):  # stdout is no file (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
