"""Invariants: what must hold after every step of every game.

Structural ones hold for every game (each item in exactly one zone, counters within their bounds,
zones within capacity); a game adds its own under `invariants:` (e.g. "damage within 0..15",
"every card in exactly one place" for a fixed deck). `check(engine)` returns the broken ones.
"""
from __future__ import annotations

from meeplang.dsl.errors import MeeplangError

from .compile import Ctx
from .state import ZoneRef, zone_key


def structural(engine) -> list[str]:
    s, game = engine.state, engine.game
    out = []
    seen: dict[str, str] = {}
    for key, items in s["zones"].items():
        for item in items:
            if item in seen:
                out.append(f"item {item} is in two zones: {seen[item]} and {key}")
            seen[item] = key
            if s["loc"].get(item) != key:
                out.append(f"item {item} is in {key} but its location says {s['loc'].get(item)}")
    for name, zone in game.zones.items():
        owners = range(engine.n) if zone.per_player else (None,)
        for owner in owners:
            for member in (zone.keys if zone.keys is not None else (None,)):
                ref = ZoneRef(zone_key(name, owner, member), name, owner, member)
                cap, items = engine.zone_capacity(ref), s["zones"].get(ref.key, ())
                if cap is not None and len(items) > cap:
                    out.append(f"zone {ref.key} holds {len(items)} items, over its capacity "
                               f"{cap}")
    for item in s["items"]:
        if item not in seen:
            out.append(f"item {item} is in no zone")
    holders = [("game", s["counters"])] + [(f"player {p}", d) for p, d in enumerate(s["players"])]
    for who, values in holders:
        for name, value in values.items():
            spec = game.counter_spec(name)
            if spec.min is not None and value < spec.min or spec.max is not None and value > spec.max:
                out.append(f"counter {name} of {who} is {value}, outside {spec.min}..{spec.max}")
    return out


def declared(engine) -> list[str]:
    out = []
    c = Ctx(engine.state, 0, {}, engine)
    for name, expr, fn in engine.prog.invariants:
        try:
            ok = fn(c)
        except MeeplangError as exc:
            out.append(f"invariant {name} ({expr.pos}) could not be evaluated: {exc.message}")
            continue
        if not ok:
            out.append(f"invariant {name} ({expr.pos}) is false")
    return out


def check(engine) -> list[str]:
    return structural(engine) + declared(engine)
