"""Run one mutated input: a game (load, check, play a few random decisions), a log (replay) or
a command line (the CLI, in this process). Anything but a MeeplangError with a position (or, from
the CLI, exit 0, 1 or 2 with no traceback) is an escape."""
from __future__ import annotations

import contextlib
import io
import os
import re
import traceback
from pathlib import Path

from meeplang.dsl.errors import MeeplangError, UsageError
from meeplang.dsl.loader import load_source
from meeplang.dsl.resolve import build_game
from meeplang.interpreter.agents import RandomAgent
from meeplang.interpreter.engine import Engine

from .faults import Faults

MAX_DECISIONS = 60


def try_game(folder, seed: int = 0) -> str | None:
    """None if the game loads and plays or fails properly; else a description of the escape."""
    try:
        game = build_game(load_source(str(folder)))  # the loader itself, never the cache
        players = game.min_players
        engine = Engine(game, players, seed, step_budget=20_000)
        agent = RandomAgent(0, seed)
        d = engine.start()
        for _ in range(MAX_DECISIONS):
            if d is None:
                break
            d = engine.choose(agent.choose(engine, d, None))
    except UsageError:
        return None
    except MeeplangError as exc:
        if not exc.pos.path or exc.pos.path == "<unknown>":
            return f"error without a position: {exc}"
        exc.render()
        return None
    except Exception:  # noqa: BLE001 - this is what the fuzzer looks for
        return traceback.format_exc()
    return None


def try_log(path: Path) -> str | None:
    """None if the log replays or is refused with a positioned error; else the escape."""
    from meeplang.interpreter.log import replay

    try:
        replay(str(path))
    except MeeplangError as exc:
        if exc.pos.path != str(path):
            return f"error not at the log: {exc}"
    except Exception:  # noqa: BLE001 - this is what the fuzzer looks for
        return traceback.format_exc()
    return None


# what no output may hold raw: the control characters a terminal obeys, lone surrogates
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def try_cli(argv: list[str], cwd: Path, fail_writes: tuple[int, int] | None = None) -> str | None:
    """None if `meeplang ARGV`, run in the folder `cwd` (where any file it writes lands), exits
    0, 1 or 2 without a traceback or an internal error, prints no raw control character, and,
    when a write it makes fails (`fail_writes`: an errno and which writing call, faults.py) and
    stops it, changes no file and leaves none."""
    from meeplang.cli import main
    from meeplang.dsl.atomic import TEMP_PREFIX

    out, err = io.StringIO(), io.StringIO()
    before = {p: p.read_bytes() for p in Path(cwd).iterdir() if p.is_file()}
    faults = Faults(*fail_writes) if fail_writes else Faults()
    try:
        with contextlib.chdir(cwd), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err), faults:
            status = main(argv)
    except SystemExit as exc:  # argparse refusing the arguments
        status = exc.code
    except Exception:  # noqa: BLE001 - this is what the fuzzer looks for
        return f"{argv}: {traceback.format_exc()}"
    if status not in (0, 1, 2) or "Traceback" in err.getvalue():
        return f"{[a[:60] for a in argv]}: exit {status}: {err.getvalue()[-600:]}"
    if RAW.search(out.getvalue()) or RAW.search(err.getvalue()):
        return f"{[a[:60] for a in argv]}: a raw control character in the output"
    if any(p.name.startswith(TEMP_PREFIX) for p in Path(cwd).iterdir()):
        return f"{[a[:60] for a in argv]}: a temporary file was left"
    if faults.failed and status == 1:
        after = {p: p.read_bytes() for p in Path(cwd).iterdir() if p.is_file()}
        if after != before:
            return f"{[a[:60] for a in argv]}: a failing write changed files"
    return None
