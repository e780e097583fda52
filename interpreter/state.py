"""Game state as plain data (dicts, lists, ints, strings): JSON-serialisable, cheap to copy.

Layout:
  counters: {name: int}                    game-wide counters
  players:  [{counter: int}, ...]           per-player counters, by seat
  zones:    {"deck": [ids], "hand@1": [ids]} ordered zones; index 0 is the top / front
  loc:      {item id: zone key}             where every item is (each item in exactly one place)
  items:    {item id: {kind, owner, fields}}
  turn:     {player, passed: [seats]}       the turns step in progress
  phase:    name of the innermost phase in progress (or null)
"""
from __future__ import annotations

import copy
import hashlib
import json


class ZoneRef:
    """A zone as a value in expressions (the state keeps only the key and the list).
    `name` is the declared zone (the family, for a member), `member` the family key or None."""

    __slots__ = ("key", "name", "owner", "member")

    def __init__(self, key: str, name: str, owner: int | None, member=None):
        self.key, self.name, self.owner, self.member = key, name, owner, member

    def __repr__(self) -> str:
        return self.key

    def __eq__(self, other) -> bool:
        return isinstance(other, ZoneRef) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


class FamilyRef:
    """A family of zones (`station` with `each: categories`) as a value: index it for a member."""

    __slots__ = ("name", "owner", "keys", "member_keys")

    def __init__(self, name: str, owner: int | None, keys: tuple):
        self.name, self.owner, self.keys = name, owner, keys
        self.member_keys: tuple | None = None  # its members' state keys, made when first read

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.name}@{self.owner}"

    def __eq__(self, other) -> bool:
        return isinstance(other, FamilyRef) and (other.name, other.owner) == (self.name, self.owner)

    def __hash__(self) -> int:
        return hash((self.name, self.owner))


def zone_key(name: str, owner: int | None, member=None) -> str:
    base = name if member is None else f"{name}[{member}]"
    return base if owner is None else f"{base}@{owner}"


def zone_name(key: str) -> str:
    """The declared zone of a state key: `station[crab]@1` -> `station`."""
    return key.partition("@")[0].partition("[")[0]


def copy_state(state: dict) -> dict:
    """A copy of plain-data state, faster than deepcopy for its known two-level layout."""
    out = dict(state)
    out["counters"] = dict(state["counters"])
    out["players"] = [dict(p) for p in state["players"]]
    out["zones"] = {k: list(v) for k, v in state["zones"].items()}
    out["loc"] = dict(state["loc"])
    out["items"] = {k: dict(v) for k, v in state["items"].items()}
    out["cells"] = {k: list(v) for k, v in state["cells"].items()}
    out["uses"] = {k: list(v) for k, v in state["uses"].items()}
    out["fired"] = list(state["fired"])
    out["soon"] = dict(state["soon"])
    out["turn"] = {"player": state["turn"]["player"], "passed": list(state["turn"]["passed"])}
    if "known" in state:
        out["known"] = {k: list(v) for k, v in state["known"].items()}
    return out


def state_json(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def state_hash(state: dict) -> str:
    return hashlib.sha256(state_json(state).encode()).hexdigest()[:16]


def hidden_from(zone, key: str, player: int) -> bool:
    """Does the zone (declared `zone`, state key `key`) hide its items from `player`?"""
    vis = zone.visibility
    return vis == "hidden" or (vis == "owner" and key.partition("@")[2] != str(player))


def view(state: dict, game, player: int | None, sees=None) -> dict:
    """What `player` may see: hidden zones show only their size, `owner` zones only to the owner,
    except the items `sees(item, player)` allows (a peek, an item kind's `visible_to:`).

    `player=None` is the omniscient view (logs, tests).
    """
    if player is None:
        return copy.deepcopy(state)
    out = copy.deepcopy(state)
    out.pop("known", None)  # what others have peeked at is theirs
    hidden: set[str] = set()
    for key, items in out["zones"].items():
        if hidden_from(game.zones[zone_name(key)], key, player):
            shown = [x if sees is not None and sees(x, player) else "?" for x in items]
            hidden.update(x for x, y in zip(items, shown) if y == "?")
            out["zones"][key] = shown
    for item in hidden:
        out["loc"].pop(item, None)
        out["items"].pop(item, None)
        out["cells"].pop(item, None)
    for name, spec in list(game.counters.items()) + list(game.counter_members.items()):
        if spec.per_player and spec.visibility != "public" and spec.keys is None:
            for seat, values in enumerate(out["players"]):
                if spec.visibility == "hidden" or seat != player:
                    values[name] = "?"
    return out
