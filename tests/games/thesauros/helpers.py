"""Helpers for the Thesauros tests: start a game, drive its decisions by label with a plain
policy (every meeple to the mussels, no envelope, earnings into HR) unless a test answers
itself, read the state, and set up a scenario's position by editing it."""
from __future__ import annotations

from functools import lru_cache

from meeplang.dsl.parser import parse_block, parse_expression
from meeplang.dsl.resolve import load_game
from meeplang.interpreter import invariants
from meeplang.interpreter.compile import Ctx, _Compiler
from meeplang.interpreter.engine import Engine

from ..state import item, labels, me, zone  # noqa: F401 (re-exported to the tests)

ACCOUNTS = ("hr", "rd", "ge", "me", "sf")


@lru_cache(maxsize=None)
def game(variant: str | None = None):
    return load_game("thesauros", variant)


def start(players: int = 4, seed: int = 0, variant: str | None = None) -> Engine:
    e = Engine(game(variant), players, seed, None)
    e.start()
    return e


# ------------------------------------------------------------------ reading the state
def accounts(e: Engine, seat: int = 0) -> dict:
    """The seat's accounts by key (the solo game has no Slush Fund)."""
    return {a: me(e, seat)[f"accounts[{a}]"] for a in ACCOUNTS if f"accounts[{a}]" in me(e, seat)}


def counter(e: Engine, name: str):
    return e.state["counters"][name]


def formula(e: Engine, text: str, seat: int = 0, **local):
    """Evaluate a Meeplang expression (the game's formulas included) for `seat` now."""
    fn = _Compiler(e.prog, e.game).ex(parse_expression(text), set(local))
    return fn(Ctx(e.state, seat, dict(local), e))


def run(e: Engine, text: str, seat: int = 0) -> None:
    """Carry out a rule statement that asks nothing (a rulebook example's "pay $12 from HR")
    for `seat` now, with the game's declarations (its accounts' transfers) in force."""
    fn = _Compiler(e.prog, e.game).block_gen(parse_block(text), set())
    for _ in fn(Ctx(e.state, seat, {}, e)):
        raise AssertionError(f"{text!r} asked a decision")


# ------------------------------------------------------------------ editing the state
def put(e: Engine, x: str, key: str, top: bool = False) -> None:
    """Move item x to the zone with state key `key` ("line[2]", "maps@0")."""
    name, _, owner = key.partition("@")
    member = None
    if "[" in name:
        name, _, member = name[:-1].partition("[")
        member = int(member) if member.isdigit() else member
    e.move_item(x, e.prog.zone_ref(name, int(owner) if owner else None, member), top, None, False)


def items_of(e: Engine, kind: str, **fields) -> list[str]:
    """The items of a kind (by id prefix) whose fields match."""
    return [x for x, v in e.state["items"].items()
            if x.startswith(kind + "#") and all(v.get(k) == w for k, w in fields.items())]


def item_tile(e: Engine, name: str) -> str:
    """An item tile of that name not yet bought (a card's copy, or a Found Item tile)."""
    return next(x for x in items_of(e, "item_tile", name=name) + items_of(e, "island_tile", name=name)
                if x in zone(e, "item_shop") + zone(e, "island") + zone(e, "box"))


def equip(e: Engine, key: str, names) -> list[str]:
    """Put tiles of these items in a zone ("aboard[1]", "item_supply@0"); their ids."""
    tiles = [item_tile(e, n) for n in names]
    for t in tiles:
        put(e, t, key)
    return tiles


def supply(e: Engine, seat: int) -> list[str]:
    """The names of the items in a seat's supply."""
    return [item(e, t)["name"] for t in zone(e, f"item_supply@{seat}")]


# ------------------------------------------------------------------ driving
def play(e: Engine, *answers: str) -> Engine:
    """Answer decisions by label, checking every invariant after each one."""
    for text in answers:
        assert e.decision is not None, f"game over before {text!r}"
        e.choose_label(text)
        broken = invariants.check(e)
        assert not broken, broken
    return e


def plain_answer(e: Engine, budget: dict | None = None) -> str:
    """The plain policy: the budget `budget` (else all into HR), meeples to Zone 6, no
    envelope nor Double Action, earnings into HR, mussels fished, no other action taken where one may be declined."""
    d = e.decision
    kind = d.kind
    if kind == "choose amount":
        key = ACCOUNTS[_budget_step(e, d.player)]
        wanted = (budget or {"hr": 10 ** 6}).get(key, 0)
        return str(min(wanted, int(d.labels[-1])))
    if kind == "choose z":
        return "6"
    if kind == "choose account":
        return "hr"
    if kind == "action":
        return d.labels[0]
    if "fish_mussels" in d.labels:
        return "fish_mussels"
    if "skip" in d.labels:
        return "skip"
    if kind == "secret bid":
        return "0"
    return d.labels[0]


def _budget_step(e: Engine, seat: int) -> int:
    """Which account the budget is asking for: the count of this seat's amounts chosen so far
    in this budget phase (the accounts are asked in order)."""
    n = 0
    for ev in reversed(e.events):
        if ev.get("event") == "phase":
            break
        if ev.get("event") == "decision" and ev.get("kind") == "choose amount" and ev["player"] == seat:
            n += 1
    return n


def drive(e: Engine, until, budget: dict | None = None, answer=None) -> Engine:
    """Answer with `answer(e)` (a label, or None for the plain policy) until `until(e)` holds."""
    steps = 0
    while e.decision is not None and not until(e):
        text = (answer(e) if answer else None) or plain_answer(e, budget)
        play(e, text)
        steps += 1
        assert steps < 5000
    return e


def keep_items(e: Engine) -> Engine:
    """Decline every item exchange now offered (a stop in port, a seaplane's flight)."""
    while e.decision is not None and e.decision.labels[-1] == "skip" and any(
            x.split()[0] in ("load_item", "unload_item") for x in e.decision.labels[:-1]):
        play(e, "skip")
    return e


def at(kind: str, seat: int | None = None):
    """Stop at a decision of this kind (and seat)."""
    return lambda e: e.decision.kind == kind and (seat is None or e.decision.player == seat)


def in_quadrimester(q: int):
    return lambda e: counter(e, "quad") >= q
