"""The Game model: what every tool (interpreter, visualizer, checker) reads. Immutable.

Built by `dsl.resolve` from the YAML tree; positions point back at the YAML so runtime errors can
name the rule that failed.
"""
from __future__ import annotations

import attrs

from .errors import Pos

_pos = attrs.field(eq=False, repr=False, kw_only=True)


@attrs.frozen
class Option:
    name: str
    default: object
    min: int | None
    max: int | None
    doc: str
    pos: Pos = _pos


@attrs.frozen
class Counter:
    name: str
    per_player: bool
    initial: object  # expression
    min: int | None
    max: int | None
    overflow: str  # "clamp" or "error"
    visibility: str = "public"  # public / owner / hidden (per-player counters)
    keys: tuple | None = None  # a family: one member `name[key]` per key (see `members`)
    member: object = None  # a family member's key (its name is `family[key]`)
    transfer: object = None  # a family's Transfer: how a short member is refilled from others
    pos: Pos = _pos


def member_name(family: str, key) -> str:
    """The name (and state key) of one member of a counter family: `accounts[hr]`."""
    return f"{family}[{key}]"


@attrs.frozen
class Transfer:
    """`transfer: {fee: EXPR, from: [keys], into: [keys], fee_to: COUNTER}` on a counter family:
    money moves into a short member (one of `into`) from the `from` members, each source used
    paying `fee` (to the game counter `fee_to`, if given)."""

    fee: object  # expression
    sources: tuple  # member keys money may come from, in the order the rules use them
    into: tuple  # member keys money may go to
    fee_to: str | None  # a game counter the fees go to (None: they leave play)
    pos: Pos = _pos


@attrs.frozen
class Zone:
    name: str
    per_player: bool
    visibility: str  # public / owner / hidden
    capacity: object  # expression or None
    grid: tuple | None = None  # (rows, columns) for a grid of cells
    gravity: str = "none"  # rows / columns / none
    keys: tuple | None = None  # a family of zones: one member `name[key]` per key
    pos: Pos = _pos


@attrs.frozen
class ItemKind:
    """A kind of component made at setup: `count` copies, each with computed fields, in `zone`."""

    name: str
    per_player: bool
    count: object  # expression (n is not bound)
    fields: tuple  # ((name, expression), ...) evaluated with n = 1..count
    zone: str | None
    source_table: str | None = None  # one item per row of this table, with the row's fields
    zone_field: str | None = None  # the row field that names the starting zone
    pos: Pos = _pos


@attrs.frozen
class Param:
    """An action's choice: `card in hand where ...` or `amount from 1 to coins`."""

    name: str
    source: object  # expression, or (lo, hi) for ranges
    cond: object
    is_range: bool
    subsets: bool = False
    pos: Pos = _pos


@attrs.frozen
class Limit:
    """`limit: {times: 1, per: quadrimester, shared: true}`: at most `times` uses per period
    (turn, game, or a phase: the count restarts when it starts); `shared`: by all players
    together."""

    times: object  # expression
    per: str = "game"
    shared: bool = False
    pos: Pos = _pos

    def state_key(self, action: str, index: int) -> str:
        """Where the counts live in the state: the first limit under the action's name."""
        return action if index == 0 else f"{action}#{index + 1}"


@attrs.frozen
class CostPart:
    """One part of a price: `royalty: {amount: card.h, to: card.patent}`."""

    name: str
    amount: object  # expression
    to: object  # the payee: a counter or a player (expression), or None: the supply
    pos: Pos = _pos


@attrs.frozen
class Cost:
    """An action's price: its parts, paid `from` one counter before the effect, less the
    discounts that name a part; an action whose price cannot be paid is not offered."""

    source: object  # the counter paid from (expression: `coins`, `accounts["rd"]`)
    parts: tuple  # CostPart, ...
    discounts: tuple = ()  # ((part name, expression), ...)
    pos: Pos = _pos


@attrs.frozen
class Action:
    name: str
    param: Param | None
    requires: object  # expression or None
    effect: object  # ast.Block
    limits: tuple = ()  # Limit, ...: each caps the uses in its period
    takes: tuple = ()  # argument names: only rules can do it (`do NAME with arg = value`)
    cost: Cost | None = None  # a price with parts and payees, paid before the effect
    pos: Pos = _pos


@attrs.frozen
class Formula:
    """A named pure expression with parameters: `stability(p): ...`."""

    name: str
    params: tuple
    body: object
    pos: Pos = _pos


@attrs.frozen
class Trigger:
    name: str
    event: str  # before/after_turn, before/after_action, phase_start/end, overflow
    target: str | None  # action or phase name, None for any
    cond: object
    effect: object
    once: bool = False  # at most once per game
    immediate: bool = False  # run right after the statement that fired it
    pos: Pos = _pos


# ---------------------------------------------------------------- flow
@attrs.frozen
class DoStep:
    block: object
    pos: Pos = _pos


@attrs.frozen
class PhaseStep:
    name: str
    steps: tuple
    free_actions: tuple = ()  # offered at every decision of every human player in the phase
    free_if: object = None  # condition (checked when the phase starts) for those free actions
    pos: Pos = _pos


@attrs.frozen
class RepeatStep:
    count: object
    var: str | None
    steps: tuple
    name: str | None = None  # the step's `name:` (flow patches; its term labels diagrams)
    pos: Pos = _pos


@attrs.frozen
class LoopStep:
    """`while: cond` (until=False) or `until: cond` (until=True), checked before each pass."""

    cond: object
    until: bool
    steps: tuple
    name: str | None = None  # the step's `name:` (flow patches; its term labels diagrams)
    pos: Pos = _pos


@attrs.frozen
class IfStep:
    cond: object
    steps: tuple
    other: tuple
    pos: Pos = _pos


@attrs.frozen
class TurnsStep:
    """Players take turns: each turn offers the legal actions until one ends the turn."""

    first: object  # expression giving a seat
    order: str  # clockwise / counterclockwise
    actions: tuple
    free_actions: tuple
    per_turn: object  # expression or None (= until an action says `end turn` or `pass`)
    until: str  # all_passed / one_round / never / condition
    until_cond: object
    var: str | None
    automa_actions: tuple = ()  # what automa seats are offered (their rules must leave one)
    until_round: object = None  # condition checked after each complete round of turns
    free_after_last: bool = False  # free actions go on after the last main action, until `end turn`
    order_list: object = None  # order "list": an expression giving the seats in turn order
    pos: Pos = _pos


@attrs.frozen
class Scoring:
    score: object
    tie_break: tuple
    winners: object  # expression giving a list of seats, or None (= best score and tie-breaks)
    pos: Pos = _pos


@attrs.frozen
class Game:
    name: str
    title: dict  # language -> text
    variant: str | None
    variants: tuple  # ((name, title, (min, max)), ...) available for the base game
    min_players: int
    max_players: int
    options: dict
    terms: dict
    tables: dict
    counters: dict
    zones: dict
    items: dict
    setup: object
    flow: tuple
    actions: dict
    triggers: tuple
    scoring: Scoring
    rules_hash: str
    folder: str
    invariants: tuple = ()  # ((name, expression), ...)
    automa: tuple = ()  # (name, seats) when some seats are played by the rules
    item_fields: frozenset = frozenset()  # every field name an item can have
    summary: dict = attrs.field(factory=dict)  # language -> one-paragraph description
    formulas: dict = attrs.field(factory=dict)  # name -> Formula
    graphs: dict = attrs.field(factory=dict)  # name -> {node: (neighbour, ...)}
    automa_decide: dict = attrs.field(factory=dict)  # decision name -> expression
    counter_members: dict = attrs.field(factory=dict)  # "accounts[hr]" -> member Counter
    warnings: tuple = ()

    def _repr_svg_(self) -> str:
        """Jupyter shows a loaded game as its phase flowchart."""
        from visualizer import svg

        return svg(self)

    def counter_spec(self, key: str) -> Counter:
        """The Counter of a state key: a plain counter, or a family member `accounts[hr]`."""
        spec = self.counters.get(key)
        return spec if spec is not None else self.counter_members[key]

    def term(self, key: str, lang: str = "en") -> str:
        entry = self.terms.get(key)
        if entry:
            return entry.get(lang) or entry.get("en") or key
        return key.replace("_", " ")
