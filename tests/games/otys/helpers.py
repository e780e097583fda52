"""Helpers for the Otys tests: start a game, arrange a worked example's position by editing the
state at the first turn decision (the Given), then drive the rules by option label (the When)."""
from __future__ import annotations

from functools import lru_cache

from meeplang.dsl.resolve import load_game
from meeplang.interpreter import invariants
from meeplang.interpreter.engine import Engine

from ..state import (item, labels, me, reoffer, run_rule,  # noqa: F401 (re-exported to the tests)
                     zone)

MAIN = ["take_turn"]  # a turn's action (its free action comes from the turn's window)


@lru_cache(maxsize=None)
def game(variant: str | None = None):
    return load_game("otys", variant)


def start(players: int = 2, variant: str | None = None, seed: int = 0, **options) -> Engine:
    e = Engine(game(variant), players, seed, options or None)
    e.start()
    return e


def types(e: Engine, key: str) -> list[str]:
    return sorted(item(e, x)["type"] for x in zone(e, key))


def put(e: Engine, x: str, key: str, top: bool = False) -> None:
    """Move item x to the zone with state key `key` ("dig[4]@0", "store[fuel]", "key_row@0")."""
    name, _, owner = key.partition("@")
    member = None
    if "[" in name:
        name, _, member = name[:-1].partition("[")
        member = int(member) if member.isdigit() else member
    e.move_item(x, e.prog.zone_ref(name, int(owner) if owner else None, member), top, None, False)


def empty_out(e: Engine, key: str) -> None:
    for x in list(zone(e, key)):
        put(e, x, "supply" if item(e, x)["kind"] == "cube" else "contract_discard")


def cubes(e: Engine, key: str, *kinds: str) -> list[str]:
    """Put cubes of these types from the supply into a zone (a Store column fills from the top)."""
    out = []
    for t in kinds:
        x = next(c for c in zone(e, "supply") if item(e, c)["type"] == t)
        put(e, x, key)
        out.append(x)
    return out


def diver(e: Engine, role: str, seat: int = 0) -> str:
    return next(d for d in zone(e, f"queue@{seat}") if item(e, d)["role"] == role)


def place_diver(e: Engine, role: str, level: int, seat: int = 0) -> str:
    """Arrange the queue so the diver of this role is at depth `level` (S1-S3 are positions 1-3)."""
    d = diver(e, role, seat)
    order = [x for x in zone(e, f"queue@{seat}") if x != d]
    order.insert(level + 2, d)
    zone(e, f"queue@{seat}")[:] = order
    return d


def roles(e: Engine, seat: int = 0) -> list[str]:
    return [item(e, d)["role"] for d in zone(e, f"queue@{seat}")]


def sponsor_at(e: Engine, sponsor_id: int, level: int, side: str = "standard") -> str:
    """Put Sponsor `sponsor_id` at display level `level`, showing `side`."""
    s = next(x for x in zone(e, "display") if item(e, x)["id"] == sponsor_id)
    order = [x for x in zone(e, "display") if x != s]
    order.insert(level - 1, s)
    zone(e, "display")[:] = order
    item(e, s)["shown"] = item(e, s)[side]
    return s


def sponsor_ids(e: Engine) -> list[int]:
    return [item(e, s)["id"] for s in zone(e, "display")]


def with_module(e: Engine, d: str, seat: int = 0) -> None:
    """The diver shows its module side: the game's `flip` rule, played as the Given."""
    run_rule(e, "flip", seat, diver=d)


def refresh(e: Engine) -> None:
    """After editing the state at a turn decision, offer what the rules offer now."""
    reoffer(e, MAIN)


def play(e: Engine, *labels: str) -> Engine:
    """Answer decisions by label, checking every invariant after each one."""
    for text in labels:
        assert e.decision is not None, f"game over before {text!r}"
        e.choose_label(text)
        broken = invariants.check(e)
        assert not broken, broken
    return e


def use(e: Engine) -> Engine:
    """Take the offered rule text (a `may do` of a sponsor side or a diver's tile)."""
    return play(e, next(x for x in labels(e) if x != "skip"))


def dive_with_key(e: Engine, level: int) -> Engine:
    """After editing the state: play the seat's key of `level` on that level's diver, with no
    sponsor and no thruster, and let the diver act."""
    refresh(e)
    play(e, f"take_turn key#0.{level}", str(level), "0")
    if "skip" in labels(e):
        play(e, "skip")
    play(e, "0")
    return use(e)
