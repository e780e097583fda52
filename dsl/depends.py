"""Which rules read and write what: the dependency graph of a checked game.

Computed once from the Game model (never from YAML) and kept on it (`Game.deps`): for every rule
(an action's condition, price, choice, limits and effect; a trigger; setup; the flow; a formula;
scoring; an invariant; rule text held in tables) the counters, tables, zones and options it reads
or writes, the actions it does, and the actions whose use counts it reads (`uses("power_plant")`,
counted in the period of that action's limit). Its users:

- `check`: a table indexed by an action's use count (`plant_damage[uses("power_plant") - 1]`)
  must have an entry for every use the action's limit allows (`limit_overruns`);
- `diff`: what a change reaches (`reach`: "plant_damage is read by power_plant, whose uses are
  now counted per game");
- the engine: an index out of a table's range says how many entries the table has (`table_at`).
"""
from __future__ import annotations

import attrs

from . import ast as A
from .errors import Pos

KINDS = ("counter", "table", "zone", "option", "action", "uses", "formula")


@attrs.frozen
class Ref:
    """One rule's use of one name: `kind` (counter, table, zone, option, action: done by the
    rule, uses: the action's use count read, formula), `mode` (read or write)."""

    rule: str  # "actions.power_plant", "triggers.passing_points", "setup", "flow", ...
    kind: str
    name: str
    mode: str
    pos: Pos | None = attrs.field(default=None, eq=False)


@attrs.frozen
class TableIndex:
    """`TABLE[uses("ACTION"[, PER]) + offset]` somewhere in a rule: the entry read grows with the
    action's uses in its limit's period."""

    rule: str
    table: str
    action: str
    per: str | None  # the period named in uses(), or None: the action's first limit's
    offset: int
    source: str = ""  # the index as written: `plant_damage[uses("power_plant") - 1]`
    pos: Pos | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Graph:
    refs: tuple = ()
    indexes: tuple = ()  # TableIndex, ...
    tables_at: dict = attrs.field(factory=dict)  # "path:line:col" of an index -> table name

    def readers(self, kind: str, name: str) -> list[str]:
        return _unique(r.rule for r in self.refs if r.kind == kind and r.name == name
                       and r.mode == "read")

    def writers(self, kind: str, name: str) -> list[str]:
        return _unique(r.rule for r in self.refs if r.kind == kind and r.name == name
                       and r.mode == "write")

    def of_rule(self, rule: str) -> list[Ref]:
        return [r for r in self.refs if r.rule == rule]

    def table_at(self, pos) -> str | None:
        """The table an index at `pos` reads, if it reads one by name."""
        return self.tables_at.get(_key(pos)) if pos is not None else None


def _unique(values) -> list:
    return list(dict.fromkeys(values))


def _key(pos: Pos) -> str:
    return f"{pos.path}:{pos.line}:{pos.col}"


def rule_roots(game) -> list[tuple[str, list]]:
    """(rule label, [syntax trees]) for every rule of the game."""
    out = []
    for a in game.actions.values():
        roots = [a.requires, a.effect, a.param, a.cost]
        for lim in a.limits:
            roots += [lim.times, lim.cond]
        out.append((f"actions.{a.name}", roots))
    for t in game.triggers:
        out.append((f"triggers.{t.name}", [t.cond, t.effect, t.each, t.limit]))
    out.append(("setup", [game.setup]))
    out.append(("flow", list(game.flow)))
    for f in game.formulas.values():
        out.append((f"formulas.{f.name}", [f.body]))
    s = game.scoring
    out.append(("scoring", [s.score, s.winners, s.heuristic, *s.tie_break]))
    for name, e in game.invariants:
        out.append((f"invariants.{name}", [e]))
    for text, rt in game.rule_texts.items():
        out.append((f"rule_text {text.strip()[:30]!r}", [rt.block]))
    for c in game.counters.values():
        out.append((f"counters.{c.name}", [c.initial]))
    return out


def build(game) -> Graph:
    """The graph of a checked game."""
    refs: list[Ref] = []
    indexes: list[TableIndex] = []
    tables_at: dict = {}
    kinds = _kinds(game)
    for rule, roots in rule_roots(game):
        for root in roots:
            if root is None:
                continue
            for n in _walk(root):
                _refs_of(n, rule, kinds, refs, indexes, tables_at, game)
    return Graph(tuple(dict.fromkeys(refs)), tuple(dict.fromkeys(indexes)), tables_at)


def _walk(root):
    """Every node under a rule's root: syntax trees and the model's own classes (flow steps,
    params, costs), through tuples."""
    stack = [root]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (tuple, list)):
            stack.extend(reversed(cur))
            continue
        if not attrs.has(type(cur)):
            continue
        yield cur
        for field in reversed(attrs.fields(type(cur))):
            if field.name != "pos":
                value = getattr(cur, field.name)
                if isinstance(value, (tuple, list)) or attrs.has(type(value)):
                    stack.append(value)


def _kinds(game) -> dict:
    kinds = {}
    for name in game.options:
        kinds[name] = "option"
    for name in game.tables:
        kinds[name] = "table"
    for name in game.zones:
        kinds[name] = "zone"
    for name in game.counters:
        kinds[name] = "counter"
    for name in game.formulas:
        kinds[name] = "formula"
    return kinds


def _refs_of(n, rule, kinds, refs, indexes, tables_at, game) -> None:
    pos = getattr(n, "pos", None)
    pos = pos if isinstance(pos, Pos) else None
    if isinstance(n, A.Name) and n.name in kinds:
        refs.append(Ref(rule, kinds[n.name], n.name, "read", pos))
    elif isinstance(n, A.Attr) and kinds.get(n.name) == "counter":
        refs.append(Ref(rule, "counter", n.name, "read", pos))  # `p.coins`
    elif isinstance(n, A.Call):
        if n.func in kinds and kinds[n.func] == "formula":
            refs.append(Ref(rule, "formula", n.func, "read", pos))
        if n.func == "uses" and n.args and isinstance(n.args[0], A.Str):
            refs.append(Ref(rule, "uses", n.args[0].value, "read", pos))
    elif isinstance(n, (A.SetStmt, A.AddStmt)):
        target = A.counter_target(n.target)
        if target is not None and kinds.get(target[1]) == "counter":
            refs.append(Ref(rule, "counter", target[1], "write", pos))
    elif isinstance(n, A.GainStmt):
        refs.append(Ref(rule, "counter", n.counter, "write", pos))
    elif isinstance(n, (A.MoveStmt, A.DealStmt)):
        for zone in _zone_names(n.dest, kinds):
            refs.append(Ref(rule, "zone", zone, "write", pos))
        if isinstance(n, A.DealStmt):
            for zone in _zone_names(n.source, kinds):
                refs.append(Ref(rule, "zone", zone, "write", pos))
    elif isinstance(n, A.ShuffleStmt):
        for zone in _zone_names(n.zone, kinds):
            refs.append(Ref(rule, "zone", zone, "write", pos))
    elif isinstance(n, A.DoStmt) and n.action in game.actions:
        refs.append(Ref(rule, "action", n.action, "read", pos))
    if isinstance(n, A.Index) and isinstance(n.obj, A.Name) and kinds.get(n.obj.name) == "table":
        if pos is not None:
            tables_at[_key(pos)] = n.obj.name
        use = _uses_offset(n.key)
        if use is not None:
            action, per, offset = use
            indexes.append(TableIndex(rule, n.obj.name, action, per, offset, A.expr_source(n),
                                      pos))


def _zone_names(e, kinds) -> list[str]:
    """The zones a destination or source names directly (`discard`, `p.hand`)."""
    if isinstance(e, A.Name) and kinds.get(e.name) == "zone":
        return [e.name]
    if isinstance(e, A.Attr) and kinds.get(e.name) == "zone":
        return [e.name]
    if isinstance(e, A.Index):
        return _zone_names(e.obj, kinds)
    return []


def _uses_offset(e):
    """`uses("A")`, `uses("A") + k`, `uses("A") - k`, `k + uses("A")` -> (A, per, offset)."""
    if isinstance(e, A.Call) and e.func == "uses" and e.args and isinstance(e.args[0], A.Str):
        per = e.args[1].value if len(e.args) > 1 and isinstance(e.args[1], A.Str) else None
        return e.args[0].value, per, 0
    if isinstance(e, A.BinOp) and e.op in ("+", "-"):
        left, right = _uses_offset(e.left), _uses_offset(e.right)
        if left is not None and isinstance(e.right, A.Num):
            k = e.right.value if e.op == "+" else -e.right.value
            return left[0], left[1], left[2] + k
        if e.op == "+" and right is not None and isinstance(e.left, A.Num):
            return right[0], right[1], right[2] + e.left.value
    return None


# ------------------------------------------------------------ checks made with the graph
def limit_of(action, per: str | None):
    """The limit `uses(action[, per])` counts in: the one of that period, else the first."""
    if not action.limits:
        return None
    if per is None:
        return action.limits[0]
    return next((lim for lim in action.limits if lim.per == per), None)


def most_uses(game, limit) -> int | None:
    """The most uses a limit allows in its period, when it is a number (or an option, at the
    largest value the option may take; None when it has no upper bound)."""
    times = limit.times
    if isinstance(times, A.Num):
        return times.value
    if isinstance(times, A.Name) and times.name in game.options:
        o = game.options[times.name]
        return o.max if o.max is not None else None
    return None


def limit_overruns(game, graph: Graph) -> list[tuple]:
    """(TableIndex, limit, largest entry read, entries) for every table indexed by an action's
    use count past its last entry when the action is used as often as its limit allows."""
    out = []
    for ix in graph.indexes:
        action = game.actions.get(ix.action)
        table = game.tables.get(ix.table)
        if action is None or not isinstance(table, list):
            continue
        limit = limit_of(action, ix.per)
        if limit is None:
            continue
        most = most_uses(game, limit)
        if most is None:
            continue
        largest = most + ix.offset
        if largest >= len(table):
            out.append((ix, limit, largest, len(table)))
    return out


def entries_text(name: str, table) -> str:
    """`plant_damage has 3 entries (0 to 2)`."""
    n = len(table)
    span = f" (0 to {n - 1})" if n else ""
    return f"{name} has {n} entr{'y' if n == 1 else 'ies'}{span}"


def overrun_message(game, ix: TableIndex, limit, largest: int, entries: int) -> str:
    """What check says of a limit that lets a use count index past a table's end."""
    times = limit.times.value if isinstance(limit.times, A.Num) else A.expr_source(limit.times)
    where = f" ({ix.pos.path}:{ix.pos.line})" if ix.pos is not None else ""
    return (f"{ix.action} may be used {times} times per {limit.per}, but {ix.rule}{where} reads "
            f"{ix.source}: at use {largest - ix.offset} that is entry {largest} of {ix.table}, and "
            f"{entries_text(ix.table, game.tables[ix.table])}; give {ix.table} "
            f"{largest + 1} entries or lower the limit")
