"""The Game model: what every tool (interpreter, visualizer, checker) reads. Immutable.

Built by `meeplang.dsl.resolve` from the YAML tree; positions point back at the YAML so runtime errors can
name the rule that failed.
"""
from __future__ import annotations

import attrs

from .errors import Pos

_pos = attrs.field(eq=False, repr=False, kw_only=True)

# When a turn's or a phase's free actions are offered (`free_actions_at:`): between actions (the
# default: where no rule is half done, docs/language.md "Free actions"), or at any time.
FREE_AT = ("between_actions", "any_time")


@attrs.frozen
class Option:
    name: str
    default: object
    min: int | None
    max: int | None
    doc: dict  # language -> what the option means (a plain `doc:` text is English); {} for none
    pos: Pos = _pos
    # where `min:` and `max:` are written (a variant's own file when it changes them), for
    # `check --deep`, which plays the game at each bound
    min_pos: Pos | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    max_pos: Pos | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Track:
    """What makes a counter a track: its values are the spaces of a table, and an advance moves
    one space at a time so that every space entered fires `enter space of` triggers."""

    name: str  # the declaration: a family of tracks shares one (`each:`), its members their keys
    spaces: tuple  # one row of data per space; position 0 is the first space
    wrap_to: int | None  # past the last space the cube goes back here (else it stops at the end)


@attrs.frozen
class Counter:
    name: str
    per_player: bool
    initial: object  # expression
    min: int | None
    max: int | None
    overflow: str  # "clamp" or "error"
    visibility: str = "public"  # public / owner / hidden (per-player counters)
    track: Track | None = None  # a track's position (declared under `tracks:`)
    keys: tuple | None = None  # a family: one member `name[key]` per key (see `members`)
    member: object = None  # a family member's key (its name is `family[key]`)
    transfer: object = None  # a family's Transfer: how a short member is refilled from others
    pos: Pos = _pos


def players_text(lo: int, hi: int) -> str:
    """A player count as messages say it: `1 player`, `2 players`, `2-4 players`."""
    if lo == hi:
        return f"{lo} player{'s' if lo != 1 else ''}"
    return f"{lo}-{hi} players"


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
    refill_from: str | None = None  # kept full (to its capacity) from this zone
    recycle: str | None = None  # emptied, it takes back this zone's items, shuffled
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
    # abilities while a player holds one (it is in a zone of theirs): ((what, target, amount),
    # ...) with what = bonus (on `gain TARGET`), discount (on `pay TARGET`) or extra_limit (on
    # the use limit of action TARGET); amount is an expression that sees `this` (the item)
    while_held: tuple = ()
    visible_to: object = None  # who sees an item where its zone hides it (`viewer`, `item`, `key`)
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
    together; `if:` a condition, so a limit that only some rules impose (an option, a player
    count) is said as such: while it does not hold, the limit is lifted."""

    times: object  # expression
    per: str = "game"
    shared: bool = False
    pos: Pos = _pos
    cond: object = None  # expression, or None: always
    per_pos: Pos | None = attrs.field(default=None, eq=False, repr=False)  # where `per:` is written

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
class RuleText:
    """Rule text held in data (a table declared under `rule_text:`): statements that `do` runs
    by value, checked when the game loads. `takes` are the names it reads, given by `with`."""

    text: str
    block: object  # ast.Block
    takes: tuple
    pos: Pos = _pos


@attrs.frozen
class Formula:
    """A named pure expression with parameters: `stability(p): ...`."""

    name: str
    params: tuple
    body: object
    pos: Pos = _pos


# what triggers on an event see besides `you` (name -> coarse type, for the checker)
TRIGGER_LOCALS = {"overflow": {"excess": "int"}, "gain": {"amount": "int"},
                  "enters": {"item": "any", "key": "any"},
                  "enter_space": {"space": "any", "position": "int", "track": "str"}}


@attrs.frozen
class Trigger:
    name: str
    event: str  # before/after_turn, before/after_action, phase_start/end, overflow, as_soon_as,
    #             enter_space (of a track), gain (of a counter), enters (an item enters a zone)
    target: str | None  # action, phase, counter, track or zone name; None for any
    cond: object
    effect: object
    once: bool = False  # at most once per game
    immediate: bool = False  # run right after the statement that fired it
    each: Param | None = None  # one trigger per value: `line in connections [where ...]`
    limit: object = None  # expression: fires at most this many times per period, per seat
    limit_per: str = "game"  # turn / game / a phase name / a repeat step's `as:` name
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
    free_at: str = "between_actions"  # or "any_time": also inside an action (FREE_AT)


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
    free_turn: bool = False  # free actions may be the whole turn: `end turn` once one is taken
    pos: Pos = _pos
    free_at: str = "between_actions"  # or "any_time": also inside an action (FREE_AT)


@attrs.frozen
class Scoring:
    score: object
    tie_break: tuple
    winners: object  # expression giving a list of seats, or None (= best score and tie-breaks)
    pos: Pos = _pos
    heuristic: object = None  # per-seat expression: how well placed a seat is (agents add it)
    ranks: tuple = ()  # ((lowest final score, term), ...), ascending: the title a score earns

    def rank(self, score: int) -> str | None:
        """The term of the highest threshold at or below `score` (none below the first)."""
        title = None
        for threshold, term in self.ranks:
            if score >= threshold:
                title = term
        return title


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
    tracks: dict = attrs.field(factory=dict)  # declaration -> its track counters' names
    automa_decide: dict = attrs.field(factory=dict)  # decision name -> expression
    automa_paid_into: str | None = None  # game counter (or "none") that payments to an automa go into
    rule_texts: dict = attrs.field(factory=dict)  # text -> RuleText (rule text held in tables)
    data_actions: tuple = ()  # actions that rule-text cells name (`effect: build_module`)
    counter_members: dict = attrs.field(factory=dict)  # "accounts[hr]" -> member Counter
    # a family of tracks (`tracks: {attribute: {each: [...]}}`) read by key, `p.attribute[a]`:
    # a Counter with its `keys`, whose members are the tracks named by the keys
    track_families: dict = attrs.field(factory=dict)
    warnings: tuple = ()
    game_file: str | None = None  # the main file given by path, when it is not FOLDER/game.yaml
    variant_file: str | None = None  # the variant file given by path (logs record it)
    # stacked variants (`--variant A --variant B`), in order: ("name", variant) for one of the
    # game's variants/, ("file", absolute path) for a file given by path (logs record them)
    stack: tuple = ()
    table_pos: dict = attrs.field(factory=dict, eq=False)  # table name -> where it is defined
    # the data its files declare sample (`sample:`): ((file, (table or table.field, ...)), ...)
    sample_data: tuple = attrs.field(default=(), eq=False)
    # which rules read and write what (dsl/depends.py), computed once when the game is checked
    deps: object = attrs.field(default=None, eq=False, repr=False)
    # "actions.power_plant.limit.per" -> where a value given by a file other than the main one
    # (a variant, an include) is written: a merge keeps the main file's positions on its maps
    origins: dict = attrs.field(factory=dict, eq=False, repr=False)

    def __repr__(self) -> str:
        """Short: the attrs repr of every rule is tens of thousands of characters."""
        name = self.name + (f":{self.variant}" if self.variant else "")
        return (f"Game({name!r}, {players_text(self.min_players, self.max_players)}, "
                f"{len(self.actions)} actions, {len(self.triggers)} triggers)")

    def family(self, name: str) -> Counter | None:
        """The counter family or family of tracks `name` (read by key: `accounts[a]`)."""
        spec = self.counters.get(name)
        if spec is not None and spec.keys is not None:
            return spec
        return self.track_families.get(name)

    def member(self, family: str, key) -> str:
        """The state key of one member of a family: `accounts[hr]`, or a track's own name."""
        return str(key) if family in self.track_families else member_name(family, key)

    def counter_spec(self, key: str) -> Counter:
        """The Counter of a state key: a plain counter, or a family member `accounts[hr]`."""
        spec = self.counters.get(key)
        return spec if spec is not None else self.counter_members[key]

    def term(self, key: str, lang: str = "en") -> str:
        entry = self.terms.get(key)
        if entry:
            return entry.get(lang) or entry.get("en") or key
        return key.replace("_", " ")
