"""Run one mutated game: load, check, and play a few random decisions. Anything but a
MeeplangError with a position is an escape."""
from __future__ import annotations

import traceback

from dsl.errors import MeeplangError, UsageError
from dsl.loader import load_source
from dsl.resolve import build_game
from interpreter.agents import RandomAgent
from interpreter.engine import Engine

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
