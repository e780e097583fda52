"""Reading a game's state in the games' tests: a player's counters, a zone, an item, the options
of the decision waiting (each game's helpers.py re-exports these beside its own)."""
from __future__ import annotations

from meeplang.interpreter.engine import Engine


def me(e: Engine, seat: int = 0) -> dict:
    return e.state["players"][seat]


def zone(e: Engine, key: str) -> list:
    return e.state["zones"][key]


def item(e: Engine, x: str) -> dict:
    return e.state["items"][x]


def labels(e: Engine) -> list[str]:
    return e.decision.labels
