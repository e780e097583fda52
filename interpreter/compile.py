"""AST -> Python closures, once per Game, so the hot loop never walks the syntax tree.

Expressions become `f(c) -> value`. Statements become either plain functions `f(c)` or, when they
can ask a player something, generator functions that `yield` a Decision and receive the chosen
option; blocks are generators only if one of their statements is. `c` is the context (`Ctx`):
state, the current player (`you`), local variables and the engine.
"""
from __future__ import annotations

import operator
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Final

import attrs

from meeplang.dsl import ast as A
from meeplang.dsl import limits
from meeplang.dsl.builtins import VALUES
from meeplang.dsl.errors import Impossible, RuleError
from meeplang.dsl.limits import int_too_large
from meeplang.dsl.model import (TRIGGER_LOCALS, DoStep, IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep,
                       member_name)

from . import payments
from .decisions import ActionOption, label

from .functions import FUNCTIONS, call_error, items_of
from .state import FamilyRef, ZoneRef, zone_key
from .trace import NOT_TRACED, traced

MAX_INT: Final = limits.MAX_INT  # whole numbers stay within ±MAX_INT (dsl/limits.py)

if TYPE_CHECKING:  # the engine imports this module; the annotation is only for the compiled build
    from .engine import Engine


class EndTurn(Exception):
    """`end turn`: the current turn is over."""


class PassTurn(EndTurn):
    """`pass`: the turn is over and the player is out of this turns step."""


class EndGame(Exception):
    """`end game`: go straight to final scoring."""


class Graph:
    """A board as a graph (a value in expressions): node -> neighbours."""

    __slots__ = ("name", "adjacency")

    def __init__(self, name: str, adjacency: dict):
        self.name, self.adjacency = name, adjacency

    def __repr__(self) -> str:
        return self.name


class Ctx:
    __slots__ = ("s", "you", "v", "eng")

    def __init__(self, s: dict, you: int, v: dict, eng: Engine):
        self.s, self.you, self.v, self.eng = s, you, v, eng

    def with_player(self, you):
        return Ctx(self.s, you, dict(self.v), self.eng)


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "%": operator.mod,
          "//": operator.floordiv}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


class Compiled:
    """The compiled program of one Game."""

    def __init__(self, game, traced: bool = False, expr_hook: Callable[..., Any] | None = None,
                 block_hook: Callable[..., Any] | None = None,
                 listing_hook: Callable[..., Any] | None = None):
        self.game = game
        self.traced = traced  # statements record what they change (interpreter/trace.py)
        self.code_chars = 0  # its generated module's size, if any (what the program cache weighs)
        self.zone_refs: dict[tuple, ZoneRef] = {}
        # zones with no grid and no capacity: a move into one is a plain list operation
        self.plain_zones = frozenset(n for n, z in game.zones.items()
                                     if z.grid is None and z.capacity is None)
        self.initial_states: dict[tuple, dict] = {}  # (seats, options) -> state before setup
        cp = _Compiler(self, game, expr_hook, block_hook, listing_hook)
        self.counter_init = {n: cp.ex(c.initial, {"key"} if c.keys is not None else set())
                             for n, c in game.counters.items()}
        self.transfer_fee = {n: cp.ex(c.transfer.fee, set()) for n, c in game.counters.items()
                             if c.transfer is not None}
        self.capacity = {n: cp.ex(z.capacity, {"key"} if z.keys is not None else set())
                         for n, z in game.zones.items() if z.capacity is not None}
        self.item_count = {k: cp.ex(kind.count, set()) for k, kind in game.items.items()}
        self.item_fields = {k: [(f, cp.ex(e, {"n"})) for f, e in kind.fields]
                            for k, kind in game.items.items()}
        # what held items grant (`while_held:`): (what, target) -> [(kind, amount(c), pos)]
        self.abilities: dict = {}
        for kind in game.items.values():
            for what, target, amount in kind.while_held:
                self.abilities.setdefault((what, target), []).append(
                    (kind.name, cp.ex(amount, {"this"}), amount.pos))
        self.visible_to = {k: cp.ex(kind.visible_to, {"viewer", "item", "key"})
                           for k, kind in game.items.items() if kind.visible_to is not None}
        self.refills = tuple(n for n, z in game.zones.items() if z.refill_from is not None)
        # a choice may offer items its chooser cannot see (then its labels are neutral)
        self.may_hide = any(z.visibility != "public" for z in game.zones.values())
        self.setup = cp.block_gen(game.setup, set())
        self.actions = {name: cp.action(a) for name, a in game.actions.items()}
        for name, ca in self.actions.items():
            ca.extra_limit = self.abilities.get(("extra_limit", name))
        # rule text held in data, performed by value (`do card.effect`)
        self.rules = {text: CompiledRule(rt, cp.block_gen(rt.block, set(rt.takes)),
                                         can_fail(rt.block, game))
                      for text, rt in game.rule_texts.items()}
        # period -> [(state key, shared?), ...] of the actions' and triggers' limits
        self.limits_per: dict[str, list] = {}
        for name, a in game.actions.items():
            for i, lim in enumerate(a.limits):
                self.limits_per.setdefault(lim.per, []).append((lim.state_key(name, i),
                                                                lim.shared))
        self.triggers: dict[tuple, list] = {}
        self.trigger_cache: dict[tuple, list] = {}  # (event, target) -> Engine.triggers_for
        # `as soon as` triggers: (trigger, condition, effect, per seat?); a condition that reads a
        # player's own things (`ingenuity >= 2`, `you`) is watched for each seat on its own
        self.watch: list = []
        self.watch_now: list = []  # the same, with `timing: immediately`
        self.each: dict[str, tuple] = {}  # trigger -> (name, values, where, at) of its `each:`
        self.trigger_limits: dict = {}  # trigger -> its compiled `limit: {times: ...}`
        for t in game.triggers:
            scope = _trigger_scope(game, t)
            if t.each is not None:
                self.each[t.name] = (t.each.name, cp.ex(t.each.source, scope),
                                     cp.ex(t.each.cond, scope | {t.each.name})
                                     if t.each.cond is not None else None, t.each.source.pos)
                scope = scope | {t.each.name}
            if t.limit is not None:
                self.trigger_limits[t.name] = cp.ex(t.limit, scope)
                self.limits_per.setdefault(t.limit_per, []).append((limit_key(t.name), False))
            if t.event == "as_soon_as":
                (self.watch_now if t.immediate else self.watch).append(
                    (t, cp.ex(t.cond, scope), cp.block_gen(t.effect, scope),
                     reads_seat(game, t.cond)))
                continue
            cond = cp.ex(t.cond, scope) if t.cond is not None else None
            fn, is_gen = cp.block(t.effect, scope)
            plain = None if is_gen or t.each is not None or t.limit is not None else fn
            # `enter space of` a family of tracks listens to each of its tracks
            for target in game.tracks.get(t.target, (t.target,)) if t.event == "enter_space" \
                    else (t.target,):
                self.triggers.setdefault((t.event, target), []).append(
                    (t, cond, cp.block_gen(t.effect, scope), plain))
        # zones whose `enters` triggers a move must tell
        self.entered_zones = frozenset(t for e, t in self.triggers if e == "enters")
        for name, ca in self.actions.items():
            ca.before = tuple(self.triggers.get(("before_action", name), []) +
                              self.triggers.get(("before_action", None), []))
            ca.after = tuple(self.triggers.get(("after_action", name), []) +
                             self.triggers.get(("after_action", None), []))
            # an action that can never ask anything runs as plain calls (no generators)
            ca.plain_path = (ca.effect_plain is not None and not self.watch and not self.watch_now
                             and not self.refills and not any(
                k[0] in ("overflow", "gain", "enters") for k in self.triggers) and
                all(tr[3] is not None for tr in ca.before + ca.after))
        self.flow = cp.steps(game.flow, set())
        self.policies = {}  # automa decision name -> (compiled expression, expression)
        for name, expr in game.automa_decide.items():
            local = {n.name for n in A.walk(expr) if isinstance(n, A.Name)
                     and n.name not in cp.kinds and n.name not in VALUES}
            self.policies[name] = (cp.ex(expr, local | {"options"}), expr)
        self.score = cp.ex(game.scoring.score, set())
        self.tie_breaks = [cp.ex(e, set()) for e in game.scoring.tie_break]
        self.winners = cp.ex(game.scoring.winners, set()) if game.scoring.winners else None
        self.heuristic = (cp.ex(game.scoring.heuristic, set()) if game.scoring.heuristic is not None
                          else None)
        self.invariants = [(name, e, cp.ex(e, set())) for name, e in game.invariants]

    def zone_ref(self, name: str, owner: int | None, member=None) -> ZoneRef:
        ref = self.zone_refs.get((name, owner, member))
        if ref is None:
            ref = ZoneRef(zone_key(name, owner, member), name, owner, member)
            self.zone_refs[(name, owner, member)] = ref
        return ref

    def member(self, fam: FamilyRef, key, pos) -> ZoneRef:
        """`station[k]`: the member zone of a family (keys compare as text: 2 and "2" agree)."""
        # a key is a name or a number; a list or map (from a table) is no key, and unhashable
        ref = (self.zone_refs.get((fam.name, fam.owner, key)) if isinstance(key, (str, int))
               else None)
        if ref is not None:
            return ref
        for k in fam.keys:
            if k == key or str(k) == str(key):
                return self.zone_ref(fam.name, fam.owner, k)
        raise RuleError(f"{fam.name} has no key {key!r} (keys: {', '.join(map(str, fam.keys))})",
                        pos)


class CompiledRule:
    """Rule text held in data: its effect, the names it reads, and whether it can fail half way
    (then it is rehearsed before it is offered)."""

    __slots__ = ("rule", "effect", "can_fail", "reads")

    def __init__(self, rule, effect, fails: bool):
        self.rule, self.effect, self.can_fail = rule, effect, fails
        # the inputs a `do` must give: those of its tables' `takes:` that the text names (the
        # same text in two tables may be given different inputs)
        named = {n.name for n in A.walk(rule.block) if isinstance(n, A.Name)}
        self.reads: tuple = tuple(t for t in rule.takes if t in named)


class CompiledAction:
    __slots__ = ("action", "name", "param", "pname", "requires", "effect", "why", "before",
                 "after", "plain", "plain_free", "limits", "effect_plain", "plain_path",
                 "arg_names", "requires_per_value", "can_pay", "rehearse", "extra_limit",
                 "listing")

    def __init__(self, action, param, requires, effect):
        self.action, self.param, self.requires, self.effect = action, param, requires, effect
        self.name = action.name
        self.pname = action.param.name if action.param is not None else None
        self.arg_names = action.takes + ((self.pname,) if self.pname else ())
        # `requires` is asked once per offered value only if it reads the chosen value; otherwise
        # once for the action (`requires: coins >= 6` over a choice of tiles)
        self.requires_per_value = self.pname is not None and action.requires is not None and any(
            isinstance(n, A.Name) and n.name == self.pname for n in A.walk(action.requires))
        self.why = str(action.pos)
        self.limits: tuple = ()  # (state key, compiled times, Limit) for each use limit
        self.effect_plain = None  # the effect as a plain function when it never asks anything
        self.can_pay = None  # with a `cost:`: can the player pay it now?
        self.plain_path = False
        self.rehearse = False  # offered only if a rehearsal of its effect gets to the end
        self.extra_limit: list | None = None  # held items that raise its use limit
        self.before: tuple = ()  # the triggers around this action, filled in by Compiled
        self.after: tuple = ()
        # the option objects of an action without a choice are immutable: make them once
        self.plain = ActionOption(action.name, None, False)
        self.plain_free = ActionOption(action.name, None, True)
        # the values of its choice that may be offered now: by its `where`, and by `requires:`
        # too when that reads the value (Compiler.listing)
        self.listing = param

    def meeting(self, c: Ctx, values: list) -> list:
        """Those of `values` that meet `requires:`, asked with the choice bound to each."""
        out = []
        v, pname, requires = c.v, self.pname, self.requires
        for value in values:
            v[pname] = value
            if requires(c):
                out.append(value)
        return out


class PerGame:
    """What is made once per game (its program), kept for the last `size` games used, and only
    while what they weigh together (`weigh(made)`: a program's generated code, in characters)
    stays within `budget`: a process that loads many games (a fuzz run, a test suite, an editor)
    must not keep every one alive, nor sixteen of the largest a game may generate (a module of
    4,000,000 characters, interpreter/codegen.py, takes hundreds of megabytes compiled). The
    newest is always kept. Entries hold their game, so an id is never reused while its entry
    stands."""

    def __init__(self, make, size: int = 16, budget: int = 8_000_000, weigh=None):
        self.make = make
        self.size = size
        self.budget = budget
        self.weigh = weigh or (lambda made: getattr(made, "code_chars", 0))
        self.entries: dict[int, tuple] = {}
        self.weight = 0

    def get(self, game):
        key = id(game)
        hit = self.entries.pop(key, None)
        if hit is not None and hit[0] is not game:
            self.weight -= hit[2]
            hit = None
        if hit is None:
            made = self.make(game)
            hit = (game, made, self.weigh(made))
            self.weight += hit[2]
        self.entries[key] = hit  # the most recently used last
        while len(self.entries) > 1 and (len(self.entries) > self.size or
                                          self.weight > self.budget):
            oldest = next(iter(self.entries))
            self.weight -= self.entries.pop(oldest)[2]
        return hit[1]


_programs = PerGame(Compiled)


def compiled(game) -> Compiled:
    """A game's closures, made once per game."""
    return _programs.get(game)


def name_kinds(game) -> dict[str, str]:
    """What each declared name is, as an expression reads it: an option, a table, a (per-player)
    counter or counter family (a family of tracks too), a (per-player) zone or zone family."""
    kinds = {}
    for n in game.options:
        kinds[n] = "option"
    for n in game.tables:
        kinds[n] = "table"
    for n, c in list(game.counters.items()) + list(game.track_families.items()):
        if c.keys is not None:
            kinds[n] = "pcounters" if c.per_player else "counters"
        else:
            kinds[n] = "pcounter" if c.per_player else "counter"
    for n, z in game.zones.items():
        if z.keys is not None:
            kinds[n] = "pfamily" if z.per_player else "family"
        else:
            kinds[n] = "pzone" if z.per_player else "zone"
    return kinds




MAX_NUMBER_OPTIONS = 10_000  # docs/security.md: a choice among numbers offers at most this many


def number_options(a: int, b: int, what: str, pos) -> list:
    """The numbers from a to b as a decision's options (a choice from a range, a bid), refused
    past MAX_NUMBER_OPTIONS: a player holding 10**18 coins is not offered 10**18 bids."""
    if b - a >= MAX_NUMBER_OPTIONS:
        raise RuleError(f"{what} from {a} to {b} has too many options (at most "
                        f"{MAX_NUMBER_OPTIONS:,})", pos)
    return list(range(a, b + 1))

def compile_expression(prog, game, expr):
    """A rule-text expression compiled against a game's program, for tools and benchmarks that
    read something the rules do not (no local names in scope)."""
    return _Compiler(prog, game).ex(expr, set())

class _Compiler:
    def __init__(self, prog: Compiled, game, expr_hook: Callable[..., Any] | None = None,
                 block_hook: Callable[..., Any] | None = None,
                 listing_hook: Callable[..., Any] | None = None):
        self.prog, self.g = prog, game
        self.immediate = any(t.immediate for t in game.triggers)
        self.kinds = name_kinds(game)
        self.expr_hook = expr_hook
        self.block_hook = block_hook
        self.listing_hook = listing_hook
        self.fields = game.item_fields
        self.formula_fns: dict = {}
        # counters and tracks whose `gain of` / `enter space of` triggers their changes must run
        self.gain_targets = {(t.event, t.target) for t in game.triggers if t.event == "gain"}
        self.space_targets = {("enter_space", member) for t in game.triggers
                              if t.event == "enter_space"
                              for member in game.tracks.get(t.target, (t.target,))}

    # ================================================================ expressions
    def ex(self, e, scope: set):
        fn = self._ex(e, scope)
        # the code generator (interpreter/codegen.py) learns here which expressions are compiled
        # with which local names in scope, and its differential test pairs them with its code
        return fn if self.expr_hook is None else self.expr_hook(e, scope, fn)

    def _ex(self, e, scope):
        m = getattr(self, "x_" + type(e).__name__)
        return m(e, scope)

    def x_Num(self, e, scope):
        v = e.value
        return lambda c: v

    def x_Const(self, e, scope):
        return self.x_Num(e, scope)

    def x_Str(self, e, scope):
        return self.x_Num(e, scope)

    def x_Name(self, e, scope):
        name = e.name
        if name in scope:
            return lambda c: c.v[name]
        kind = self.kinds.get(name)
        if kind == "option":
            return lambda c: c.eng.opts[name]
        if kind == "table":
            data = self.g.tables[name]
            return lambda c: data
        if name in self.g.graphs:
            graph = Graph(name, self.g.graphs[name])
            return lambda c: graph
        if kind == "counter":
            return lambda c: c.s["counters"][name]
        if kind == "pcounter":
            return lambda c: c.s["players"][c.you][name]
        if kind in ("counters", "pcounters"):
            members = [(k, self.g.member(name, k)) for k in self.g.family(name).keys]
            per = kind == "pcounters"
            return lambda c: {k: (c.s["players"][c.you] if per else c.s["counters"])[m]
                              for k, m in members}
        if kind == "zone":
            ref = self.prog.zone_ref(name, None)
            return lambda c: ref
        if kind == "pzone":
            zr = self.prog.zone_ref
            return lambda c: zr(name, c.you)
        if kind == "family":
            fam = FamilyRef(name, None, self.g.zones[name].keys)
            return lambda c: fam
        if kind == "pfamily":
            keys = self.g.zones[name].keys
            return lambda c: FamilyRef(name, c.you, keys)
        if name == "you":
            return lambda c: c.you
        if name == "players":
            return lambda c: list(range(c.eng.n))
        if name == "others":
            return lambda c: [(c.you + i) % c.eng.n for i in range(1, c.eng.n)]
        if name == "player_count":
            return lambda c: c.eng.n
        if name == "passers":
            return lambda c: list(c.s["turn"]["passed"])
        if name in self.g.actions:  # an action as a value: `do one of [travel, sonar]`
            return lambda c: name
        raise RuleError(f"unknown name {name!r}", e.pos)  # the checker prevents this

    def x_Attr(self, e, scope):
        obj = self.ex(e.obj, scope)
        name, pos = e.name, e.pos
        counter = self.g.counters.get(name) or self.g.track_families.get(name)
        zone = self.g.zones.get(name)
        is_field = name in self.fields
        zr = self.prog.zone_ref

        members = [(k, self.g.member(name, k)) for k in counter.keys] if (
            counter is not None and counter.keys is not None) else None

        def from_player(c, p):
            if not 0 <= p < c.eng.n:
                raise RuleError(f"{p!r} is not a player, so it has no {name!r}", pos)
            if members is not None and counter.per_player:
                h = c.s["players"][p]
                return {k: h[m] for k, m in members}
            if counter is not None and counter.per_player:
                return c.s["players"][p][name]
            if zone is not None and zone.per_player:
                return zr(name, p) if zone.keys is None else FamilyRef(name, p, zone.keys)
            raise RuleError(f"a player has no {name!r}", pos)

        def from_item(c, x):
            try:
                return c.s["items"][x][name]
            except (KeyError, TypeError):
                raise RuleError(f"{x!r} has no field {name!r}", pos) from None

        if not is_field:
            def attr(c: Ctx):
                p = obj(c)
                if type(p) is dict and name in p:  # a nested table row: `rewards[z][s].coins`
                    return p[name]
                if type(p) is not int:
                    raise RuleError(f"{p!r} is not a player, so it has no {name!r}", pos)
                return from_player(c, p)
            return attr

        def other(c, x):  # a player, a table row, or not something with fields
            if type(x) is int:
                return from_player(c, x)
            if type(x) is dict:
                if name in x:
                    return x[name]
                raise RuleError(f"this row has no {name!r}", pos)
            return from_item(c, x)

        if isinstance(e.obj, A.Name) and e.obj.name in scope:
            var = e.obj.name

            def attr_of_local(c: Ctx):  # `x.field` with x a local item: the common case, fused
                x = c.v[var]
                if type(x) is str:
                    data = c.s["items"].get(x)
                    if data is not None and name in data:
                        return data[name]
                return other(c, x)
            return attr_of_local

        def attr_any(c: Ctx):
            x = obj(c)
            if type(x) is str:
                data = c.s["items"].get(x)
                if data is not None and name in data:
                    return data[name]
            return other(c, x)
        return attr_any

    def x_Index(self, e, scope):
        if self.family_of(e.obj, scope) is not None:  # `accounts[a]`: one counter of a family
            slot = self.member_slot(e, scope)

            def member_value(c: Ctx):
                h, m, _, _ = slot(c)
                return h[m]
            return member_value
        obj, key, pos = self.ex(e.obj, scope), self.ex(e.key, scope), e.pos

        def index(c: Ctx):
            return index_value(c, obj(c), key(c), pos)
        return index

    def x_Slice(self, e, scope):
        obj, pos = self.ex(e.obj, scope), e.pos
        lo = self.ex(e.lo, scope) if e.lo is not None else None
        hi = self.ex(e.hi, scope) if e.hi is not None else None

        def slice_(c: Ctx):
            items = need_items(c, obj(c), "what is sliced", pos)
            a = need_int(lo(c), "a slice bound", pos) if lo is not None else None
            b = need_int(hi(c), "a slice bound", pos) if hi is not None else None
            return items[a:b]
        return slice_

    def formula(self, name: str):
        """A formula's body, compiled once (cycles were refused by the checker)."""
        fn = self.formula_fns.get(name)
        if fn is None:
            f = self.g.formulas[name]
            fn = self.formula_fns[name] = (f.params, self.ex(f.body, set(f.params)))
        return fn

    def x_CanExpr(self, e, scope):
        args = [(n, self.ex(x, scope)) for n, x in e.args]
        action, value, pos = e.action, self._do_value(e.action, e.value, scope), e.pos
        if value is None:
            return lambda c: c.eng.can(action, c.you, {n: f(c) for n, f in args})
        return lambda c: bool(c.eng.value_options(Ctx(c.s, c.you, {}, c.eng), value(c),
                                                  {n: f(c) for n, f in args} or None, pos))

    def _do_value(self, action: str, value, scope):
        """The action of `do`/`can()` as a value (`card.effect`, a local holding an action's
        name), or None when it names an action."""
        if value is not None:
            return self.ex(value, scope)
        if action in scope:
            return lambda c: c.v[action]
        return None

    def x_Call(self, e, scope):
        if e.func == "funds":
            target = e.args[0]
            slot = self.counter_slot(target, scope)
            fam = self.g.counters[_counter_name(target)]
            fam = fam if fam.keys is not None else None
            return lambda c: payments.funds(c, fam, slot(c))
        if e.func in self.g.formulas:
            params, body = self.formula(e.func)
            args = [self.ex(a, scope) for a in e.args]
            if not params:
                return lambda c: body(Ctx(c.s, c.you, {}, c.eng))
            if len(params) == 1:
                (p0,), (a0,) = params, args
                return lambda c: body(Ctx(c.s, c.you, {p0: a0(c)}, c.eng))
            if len(params) == 2:
                (p0, p1), (a0, a1) = params, args
                return lambda c: body(Ctx(c.s, c.you, {p0: a0(c), p1: a1(c)}, c.eng))
            return lambda c: body(Ctx(c.s, c.you, dict(zip(params, [a(c) for a in args])), c.eng))
        impl = FUNCTIONS[e.func]
        args = [self.ex(a, scope) for a in e.args]
        name, pos = e.func, e.pos
        if len(args) == 1:
            a0 = args[0]

            def call1(c: Ctx):
                try:
                    return impl(c, a0(c))
                except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError) as exc:
                    raise call_error(name, exc, pos) from None
            return call1

        def call(c: Ctx):
            try:
                return impl(c, *[a(c) for a in args])
            except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError) as exc:
                raise call_error(name, exc, pos) from None
        return call

    def x_Comprehension(self, e, scope):
        inner = scope | {e.var}
        src = self.ex(e.source, scope)
        elem = self.ex(e.elem, inner)
        cond = self.ex(e.cond, inner) if e.cond is not None else None
        var, cpos = e.var, e.pos

        simple = isinstance(e.elem, A.Name) and e.elem.name == var  # [x for x in ... if ...]

        def listcomp(c: Ctx):
            out = []
            v = c.v
            saved = v.get(var, _MISSING)
            pool = _pool(c, src(c), cpos)
            eng = c.eng  # the work budget, charged inline (this runs at every comprehension)
            eng.steps += len(pool)
            if eng.steps > eng.limit:  # the budget, or the stretch without a decision
                eng.tick(cpos)
            if cond is None:
                for x in pool:
                    v[var] = x
                    out.append(elem(c))
            elif simple:
                for x in pool:
                    v[var] = x
                    if cond(c):
                        out.append(x)
            else:
                for x in pool:
                    v[var] = x
                    if cond(c):
                        out.append(elem(c))
            if saved is _MISSING:
                v.pop(var, None)
            else:
                v[var] = saved
            return out

        if e.func is None:
            return listcomp
        if e.func in ("any", "all"):  # stop at the first value that decides
            want = e.func == "any"

            def decide(c: Ctx):
                v = c.v
                saved = v.get(var, _MISSING)
                pool = _pool(c, src(c), cpos)
                eng = c.eng
                eng.steps += len(pool)
                if eng.steps > eng.limit:  # the budget, or the stretch without a decision
                    eng.tick(cpos)
                result = not want
                for x in pool:
                    v[var] = x
                    if (cond is None or cond(c)) and bool(elem(c)) is want:
                        result = want
                        break
                if saved is _MISSING:
                    v.pop(var, None)
                else:
                    v[var] = saved
                return result
            return decide
        impl, name, pos = FUNCTIONS[e.func], e.func, e.pos

        def aggregate(c: Ctx):
            try:
                return impl(c, listcomp(c))
            except (ValueError, TypeError) as exc:
                raise call_error(name, exc, pos) from None
        return aggregate

    def x_Select(self, e, scope):
        src, var, func, pos = self.ex(e.source, scope), e.var, e.func, e.pos
        key = self.ex(e.key, scope | {var})

        def select(c: Ctx):
            v = c.v
            saved = v.get(var, _MISSING)
            keyed = []
            pool = need_items(c, src(c), f"what {func}() picks from", pos)
            c.eng.charge(len(pool), pos)
            for x in pool:
                v[var] = x
                keyed.append((key(c), x))
            if saved is _MISSING:
                v.pop(var, None)
            else:
                v[var] = saved
            try:
                ordered = sorted(keyed, key=lambda kx: kx[0], reverse=func == "highest")
            except TypeError as exc:
                raise RuleError(f"{func}(): keys cannot be compared ({exc})", pos) from None
            if func == "sorted":
                return [x for _, x in ordered]
            return ordered[0][1] if ordered else None
        return select

    def x_ListExpr(self, e, scope):
        items = [self.ex(x, scope) for x in e.items]
        return lambda c: [f(c) for f in items]

    def x_BinOp(self, e, scope):
        l, r, pos, op = self.ex(e.left, scope), self.ex(e.right, scope), e.pos, e.op
        if op in ("//", "%", "/"):
            def divide(c: Ctx):
                return divide_values(need_int(l(c), f"the left side of {op}", pos),
                                     need_int(r(c), f"the right side of {op}", pos), op, pos)
            return divide
        if op == "+":
            def plus(c: Ctx):
                return plus_values(c, l(c), r(c), pos)
            return plus

        def arith(c: Ctx):
            return arith_values(l(c), r(c), op, pos)
        return arith

    def x_Compare(self, e, scope):
        l, r, pos = self.ex(e.left, scope), self.ex(e.right, scope), e.pos
        if e.op in ("in", "not in"):
            neg = e.op == "not in"

            def contains(c: Ctx):
                a, b = l(c), r(c)
                if type(b) is ZoneRef:
                    b = c.s["zones"][b.key]
                elif type(b) is not list:
                    b = need_container(b, pos)
                if type(a) is list:  # each comparison may go through a's values and b's
                    return list_in(c, a, b, pos) != neg
                return (a not in b) if neg else (a in b)
            return contains
        fn = _CMP[e.op]
        if e.op in ("==", "!="):
            const = _constant(e.right)
            if const is not _MISSING:  # `x.kind == "module"`: no call for the constant side
                if e.op == "==":
                    return lambda c: l(c) == const
                return lambda c: l(c) != const
            ne = e.op == "!="

            def equal(c: Ctx):
                a, b = l(c), r(c)
                if type(a) is list or type(b) is list:  # charged: lists may share structure
                    return equal_lists(c, a, b, pos) != ne
                return (a != b) if ne else (a == b)
            return equal

        def compare(c: Ctx):
            try:
                a, b = l(c), r(c)
                if type(a) is list or type(b) is list:  # lists compare value by value
                    weigh_sides(c, a, b, pos)
                return fn(a, b)
            except TypeError as exc:
                raise RuleError(f"cannot compare: {exc}", pos) from None
        return compare

    def x_BoolOp(self, e, scope):
        l, r = self.ex(e.left, scope), self.ex(e.right, scope)
        if e.op == "and":
            return lambda c: l(c) and r(c)
        return lambda c: l(c) or r(c)

    def x_Not(self, e, scope):
        o = self.ex(e.operand, scope)
        return lambda c: not o(c)

    def x_Neg(self, e, scope):
        o, pos = self.ex(e.operand, scope), e.pos
        return lambda c: -need_int(o(c), "what is negated", pos)

    def x_Otherwise(self, e, scope):
        first, then = self.ex(e.first, scope), self.ex(e.then, scope)

        def otherwise(c: Ctx):
            value = first(c)
            if value is None or (isinstance(value, (list, tuple)) and not value) or (
                    type(value) is ZoneRef and not c.s["zones"][value.key]):
                return then(c)
            return value
        return otherwise

    def x_CondExpr(self, e, scope):
        cond, a, b = self.ex(e.cond, scope), self.ex(e.then, scope), self.ex(e.other, scope)
        return lambda c: a(c) if cond(c) else b(c)

    # ================================================================ statements
    def block(self, block: A.Block, scope: set):
        """-> (fn, is_generator)"""
        scope = set(scope)
        parts = [self.stmt(s, scope) for s in block.stmts]
        compiled_block = self.run_parts(parts)
        # the code generator (interpreter/codegen.py) learns here how each block and each of its
        # statements is compiled, and the generated program swaps in its own function
        if self.block_hook is None:
            return compiled_block
        return self.block_hook(block, parts, compiled_block)

    def run_parts(self, parts: list):
        """A block's statements, compiled, as one function: -> (fn, is_generator)"""
        if self.immediate:
            # triggers with `timing: immediately` run right after the statement that fired them
            def run_flushing(c: Ctx):
                eng = c.eng
                for f, g in parts:
                    if g:
                        yield from f(c)
                    else:
                        f(c)
                    if eng.pending_now or eng.watching_now:
                        yield from eng.flush_now(c)
            return run_flushing, True
        if not any(g for _, g in parts):
            fns = [f for f, _ in parts]
            if len(fns) == 1:
                return fns[0], False

            def run(c: Ctx):
                for f in fns:
                    f(c)
            return run, False

        def run_gen(c: Ctx):
            for f, g in parts:
                if g:
                    yield from f(c)
                else:
                    f(c)
        return run_gen, True

    def block_gen(self, block, scope):
        """A block as a generator function, whatever it contains (for callers that need one)."""
        fn, is_gen = self.block(block, scope)
        if is_gen:
            return fn

        def gen(c: Ctx):
            fn(c)
            return
            yield  # never reached: the yield makes this a generator
        return gen

    def stmt(self, s, scope: set):
        fn, is_gen = getattr(self, "s_" + type(s).__name__)(s, scope)
        if self.prog.traced and type(s).__name__ not in NOT_TRACED:
            fn = traced(fn, s.pos, is_gen)  # `play --trace`: what it changed (trace.py)
        return fn, is_gen

    def family_of(self, e, scope):
        """The counter family or family of tracks `e` names (`accounts`, `p.attribute`), or
        None."""
        if isinstance(e, (A.Name, A.Attr)) and not (isinstance(e, A.Name) and e.name in scope):
            return self.g.family(e.name)
        return None

    def member_slot(self, target, scope):
        """`accounts[a]`, `p.accounts["hr"]` -> slot(c) -> (holder dict, state key, member spec,
        seat or None): where one counter of a family lives (keys compare as text)."""
        fam = self.family_of(target.obj, scope)
        key, pos = self.ex(target.key, scope), target.pos
        by_text = {str(k): self.g.member(fam.name, k) for k in fam.keys}
        members = {m: self.g.counter_spec(m) for m in by_text.values()}
        who = None
        if isinstance(target.obj, A.Attr):
            who = self._seat(target.obj.obj, scope, target.obj.pos)
        return self._slot(fam, who, key, by_text, members, pos)

    def _slot(self, fam, who, key, by_text, members, pos):
        name, per = fam.name, fam.per_player

        def slot(c: Ctx):
            k = key(c)
            m = by_text.get(str(k))
            if m is None:
                raise RuleError(f"{name} has no key {k!r} (keys: {', '.join(by_text)})", pos)
            if not per:
                return c.s["counters"], m, members[m], None
            p = c.you if who is None else who(c)
            return c.s["players"][p], m, members[m], p
        return slot

    def _seat(self, e, scope, pos):
        who = self.ex(e, scope)

        def seat(c: Ctx):
            p = who(c)
            if type(p) is not int or not 0 <= p < c.eng.n:
                raise RuleError(f"{p!r} is not a player", pos)
            return p
        return seat

    def counter_slot(self, target, scope):
        """Any counter target (`coins`, `p.coins`, `bank`, `accounts[a]`) as a slot (see
        member_slot), for the statements that pay, transfer and credit payees."""
        if isinstance(target, A.Index):
            return self.member_slot(target, scope)
        owner, name, spec = self._counter_setter(target, scope)

        def slot(c: Ctx):
            p = owner(c)
            return (c.s["counters"] if p is None else c.s["players"][p]), name, spec, p
        return slot

    def _counter_setter(self, target, scope):
        """-> (owner(c) -> seat or None for a game counter, name, spec) for a counter target."""
        if isinstance(target, A.Name):
            name = target.name
            spec = self.g.counters[name]
            if spec.per_player:
                return (lambda c: c.you), name, spec
            return (lambda c: None), name, spec
        who = self.ex(target.obj, scope)
        name, pos = target.name, target.pos
        spec = self.g.counters[name]

        def owner(c: Ctx):
            p = who(c)
            if type(p) is not int or not 0 <= p < c.eng.n:
                raise RuleError(f"{p!r} is not a player", pos)
            return p
        return owner, name, spec

    def _item_field_setter(self, target, scope, value, sign):
        item, name, pos = self.ex(target.obj, scope), target.name, target.pos

        def set_field(c: Ctx):
            x = item(c)
            data = c.s["items"].get(x) if isinstance(x, str) else None
            if data is None:
                raise RuleError(f"{x!r} is not an item, so its {name!r} cannot be set", pos)
            v = plain_value(value(c), f"field {name}", pos, c)
            if sign:
                old = data.get(name, 0)
                if type(old) is not int or type(v) is not int:
                    raise RuleError(f"{name} of {x} is not a number", pos)
                v = old + sign * v
            eng = c.eng
            if eng.rehearsing:  # the rehearsal puts it back (rehearsal.py)
                eng.field_undo.append((data, name, data.get(name, _MISSING)))
            data[name] = v
        return set_field, False

    def _is_item_field(self, target) -> bool:
        return A.sets_a_field(target, self.g.counters)

    def _member_change(self, target, scope, value, sign, pos):
        """set/add/subtract on one counter of a family."""
        slot = self.member_slot(target, scope)
        bounds = {m: _bounder(spec, pos) for m, spec in
                  list(self.g.counter_members.items()) + list(self.g.counters.items())}

        def change(c: Ctx):
            h, m, _, p = slot(c)
            v = need_int(value(c), "the amount", pos)
            h[m] = bounds[m](h[m] + sign * v if sign else v, c, p)
        return change, False

    def s_SetStmt(self, s, scope):
        value, pos = self.ex(s.value, scope), s.pos
        if isinstance(s.target, A.Index):
            return self._member_change(s.target, scope, value, 0, pos)
        if self._is_item_field(s.target):
            return self._item_field_setter(s.target, scope, value, 0)
        owner, name, spec = self._counter_setter(s.target, scope)
        bound = _bounder(spec, pos)

        def set_(c: Ctx):
            p = owner(c)
            h = c.s["counters"] if p is None else c.s["players"][p]
            h[name] = bound(value(c), c, p)
        return set_, False

    def s_AddStmt(self, s, scope):
        amount, pos, sign = self.ex(s.amount, scope), s.pos, s.sign
        fam = self._track_family(s.target, scope) if sign > 0 else None
        if fam is not None:
            return self._advance_member(s.target, fam, scope, amount, pos, "add")
        if isinstance(s.target, A.Index):
            return self._member_change(s.target, scope, amount, sign, pos)
        if self._is_item_field(s.target):
            return self._item_field_setter(s.target, scope, amount, sign)
        owner, name, spec = self._counter_setter(s.target, scope)
        if sign > 0 and self._watched_gain(spec):
            return self._increase(owner, spec, amount, pos, "add")
        bound = _bounder(spec, pos)

        def add(c: Ctx):
            p = owner(c)
            h = c.s["counters"] if p is None else c.s["players"][p]
            h[name] = bound(h[name] + sign * need_int(amount(c), "the amount", pos), c, p)
        return add, False

    def s_GainStmt(self, s, scope):
        target = A.counter_expr(s.player, s.counter, s.key, s.pos)
        fam = self._track_family(target, scope) if s.verb == "gain" and s.to is None else None
        if fam is not None:
            return self._advance_member(target, fam, scope, self.ex(s.amount, scope), s.pos,
                                        "gain")
        if s.key is not None or s.to is not None or s.verb == "transfer":
            return self.payment(s, scope)
        name, pos, verb = s.counter, s.pos, s.verb
        spec = self.g.counters[name]
        amount = self.ex(s.amount, scope)
        who = self._seat(s.player, scope, s.pos) if s.player is not None else (lambda c: c.you)
        grants = self.prog.abilities.get(({"gain": "bonus", "pay": "discount"}.get(verb), name))
        if verb == "gain" and self._watched_gain(spec):
            return self._increase(who, spec, _with_bonus(amount, who, grants, pos) if grants
                                  else amount, pos, "gain")
        bound = _bounder(spec, pos)
        floor = spec.min if spec.min is not None else 0

        def gain(c: Ctx):
            p, n = who(c), need_int(amount(c), "the amount", pos)
            if n < 0:
                raise RuleError(f"cannot {verb} a negative amount ({n} {name})", pos)
            if grants:  # held items: a bonus on each gain, a discount on each payment
                more = c.eng.held_ability(grants, p)
                n = n + more if verb == "gain" else max(0, n - more)
            h = c.s["players"][p]
            old = h[name]
            if verb == "gain":
                h[name] = bound(old + n, c, p)
            elif verb == "pay":
                if old - n < floor:
                    raise Impossible(f"player {p} cannot pay {n} {name}: has {old}", pos)
                h[name] = old - n
            else:  # lose: never below the counter's floor
                h[name] = max(old - n, floor)
        return gain, False

    def _track_family(self, target, scope):
        """The family of tracks whose member `target` names by key (`attribute[a]`,
        `p.attribute[a]`), or None."""
        fam = self.family_of(target.obj, scope) if isinstance(target, A.Index) else None
        return fam if fam is not None and fam.name in self.g.track_families else None

    def _advance_member(self, target, fam, scope, amount, pos, verb):
        """`gain N attribute[a]`: the track the key names advances as a track does (one space
        at a time, its `enter space of` triggers run); each track's advance is compiled once."""
        key = self.ex(target.key, scope)
        owner = (lambda c: None) if not fam.per_player else self._seat(
            target.obj.obj, scope, target.obj.pos) if isinstance(target.obj, A.Attr) else (
            lambda c: c.you)
        advances = {}
        for k in fam.keys:
            spec = self.g.counters[str(k)]
            grants = self.prog.abilities.get(("bonus", spec.name)) if verb == "gain" else None
            more = _with_bonus(amount, owner, grants, pos) if grants else amount
            advances[str(k)] = self._increase(owner, spec, more, pos, verb)
        asks = any(flag for _, flag in advances.values())
        name = fam.name

        def which(c: Ctx):
            k = key(c)
            found = advances.get(str(k))
            if found is None:
                raise RuleError(f"{name} has no key {k!r} (keys: {', '.join(advances)})", pos)
            return found

        if asks:
            def advance(c: Ctx):
                fn, flag = which(c)
                if flag:
                    yield from fn(c)
                else:
                    fn(c)
            return advance, True

        def advance_plain(c: Ctx):
            fn, _ = which(c)
            fn(c)
        return advance_plain, False

    def _watched_gain(self, spec) -> bool:
        """Does a gain of this counter need more than arithmetic: a track (one space at a time),
        or `gain of` triggers (which see the amount)?"""
        return spec.track is not None or ("gain", spec.name) in self.gain_targets

    def _increase(self, owner, spec, amount, pos, verb):
        """`gain`/`add` on a track or a counter with `gain of` triggers. A track's cube advances
        one space at a time, past the last space back to `wrap_to` (or it stops there: the rest
        is an overflow), and each space it enters runs its `enter space of` triggers at once."""
        name, track, bound = spec.name, spec.track, _bounder(spec, pos)
        watched = ("gain", name) in self.gain_targets
        entering = track is not None and ("enter_space", name) in self.space_targets

        def start(c: Ctx):
            p, n = owner(c), need_int(amount(c), "the amount", pos)
            if n < 0 and verb == "gain":
                raise RuleError(f"cannot gain a negative amount ({n} {name})", pos)
            return p, n, c.s["counters"] if p is None else c.s["players"][p]

        def done(c: Ctx, p, gained: int):
            if watched and gained > 0:
                c.eng.queue("gain", name, p, {"amount": gained})

        if track is None:
            def increase(c: Ctx):
                p, n, h = start(c)
                old = h[name]
                h[name] = bound(old + n, c, p)
                done(c, p, h[name] - old)
            return increase, False

        last = len(track.spaces) - 1

        def advance(c: Ctx):
            p, n, h = start(c)
            if n < 0:  # back down the track: no space is entered
                h[name] = bound(h[name] + n, c, p)
                return
            for i in range(n):
                c.eng.tick(pos)
                here = _next_space(track, last, h[name])
                if here is None:
                    c.eng.overflowed(name, p, n - i)
                    n = i
                    break
                h[name] = here
                if entering:
                    yield from c.eng.entered_space(name, p, here, track.spaces)
            done(c, p, n)

        if entering:
            return advance, True

        def advance_plain(c: Ctx):
            for _ in advance(c):
                pass  # never reached: nothing is entered without triggers to run
        return advance_plain, False

    def s_PeekStmt(self, s, scope):
        items, pos = self.ex(s.items, scope), s.pos
        who = self._seat(s.player, scope, s.pos) if s.player is not None else (lambda c: c.you)

        def peek(c: Ctx):
            x = items(c)
            c.eng.peek(who(c), [x] if type(x) is str else need_items(c, x, "what is peeked at",
                                                                     pos))
        return peek, False

    def payment(self, s, scope):
        """gain/lose/pay on a family member, `pay N from COUNTER to PAYEE` (with the family's
        automatic transfers), and `transfer N from MEMBER to MEMBER` (paying its fee)."""
        verb, pos = s.verb, s.pos
        amount = self.ex(s.amount, scope)
        slot = self.counter_slot(A.counter_expr(s.player, s.counter, s.key, pos), scope)
        fam = (self.g.family(s.counter) or self.g.counters[s.counter]) if s.key is not None \
            else None
        family = self.g.family(s.counter) or self.g.counters[s.counter]  # a transfer: in a family
        bounds = {m: _bounder(spec, pos) for m, spec in
                  list(self.g.counter_members.items()) + list(self.g.counters.items())}
        payee = self._payee(s.to, scope, bounds) if s.to is not None else None
        held = self._held({"gain": "bonus", "pay": "discount"}.get(verb), s.counter)

        def how_much(c: Ctx) -> int:
            n = need_int(amount(c), "the amount", pos)
            if n < 0:
                raise RuleError(f"cannot {verb} a negative amount ({n})", pos)
            return n

        if verb == "transfer":
            dest = self.counter_slot(s.to, scope)

            def transfer(c: Ctx):
                n, (h, src, spec, p) = how_much(c), slot(c)
                _, to, _, _ = dest(c)
                fee = c.eng.prog.transfer_fee[family.name](c)
                if not payments.allowed(family, src, to):
                    raise RuleError(f"{family.name} allows no transfer from {src} to {to}", pos)
                if h[src] - n - fee < payments.floor_of(spec):
                    raise Impossible(f"player {p} cannot transfer {n} from {src} (fee {fee}): has "
                                    f"{h[src]}", pos)
                payments.move(c, family, h, src, to, n, fee, p)
            return transfer, False

        def pay_or_gain(c: Ctx):
            n, place = how_much(c), slot(c)
            h, m, spec, p = place
            grants = held.get(m) if held else None
            if grants:  # held items: a bonus on each gain, a discount on each payment
                more = c.eng.held_ability(grants, p)
                n = n + more if verb == "gain" else max(0, n - more)
            if verb == "gain":
                h[m] = bounds[m](h[m] + n, c, p)
            elif verb == "lose":
                h[m] = max(h[m] - n, payments.floor_of(spec))
            else:
                payments.pay(c, fam, place, n, pos)
                if payee is not None:
                    payee(c, place, n)
        return pay_or_gain, False

    def _held(self, what: str | None, counter: str) -> dict:
        """The `while_held` grants (bonus or discount) on a counter, by state key: a family's
        grants apply to every member, a member's own (`accounts[hr]`) to it alone."""
        spec = self.g.counters.get(counter) or self.g.family(counter)
        abilities, keys = self.prog.abilities, spec.keys
        names = [counter] if keys is None else [self.g.member(counter, k) for k in keys]
        out = {}
        for m in names:
            grants = list(abilities.get((what, counter), ())) + (
                list(abilities.get((what, m), ())) if m != counter else [])
            if grants:
                out[m] = grants
        return out

    def _payee(self, to, scope, bounds):
        """Who is paid: a counter (`bank`, `accounts["hr"]`) gains the amount; a player gains it
        in the counter paid from (the same member of a family), an automa seat in the automa's
        `paid_into:` counter if it has one; `none` is nobody (the supply)."""
        if self._is_counter(to, scope):
            dest = self.counter_slot(to, scope)

            def to_counter(c: Ctx, paid, n):
                h, m, _, p = dest(c)
                h[m] = bounds[m](h[m] + n, c, p)
            return to_counter
        who, pos = self.ex(to, scope), to.pos
        into = self.g.automa_paid_into  # an automa seat's takings go there (the bank), if said

        def to_player(c: Ctx, paid, n):
            p = who(c)
            if p is None:
                return
            if type(p) is not int or not 0 <= p < c.eng.n:
                raise RuleError(f"who is paid must be a player or none, not {_describe(p)}", pos)
            if into is not None and p >= c.eng.humans:
                if into != "none":
                    c.s["counters"][into] = bounds[into](c.s["counters"][into] + n, c, None)
                return
            m = paid[1]
            h = c.s["players"][p]
            h[m] = bounds[m](h[m] + n, c, p)
        return to_player

    def s_LetStmt(self, s, scope):
        value, name = self.ex(s.value, scope), s.name
        scope.add(name)

        def let(c: Ctx):
            c.v[name] = value(c)
        return let, False

    def _dest(self, d, scope, pos):
        dest = self.ex(d, scope)

        def zone(c: Ctx):
            z = dest(c)
            if type(z) is not ZoneRef:
                raise RuleError(f"{z!r} is not a zone", pos)
            return z
        return zone

    def s_MoveStmt(self, s, scope):
        item, dest, pos = self.ex(s.item, scope), self._dest(s.dest, scope, s.pos), s.pos
        at_top, gravity = s.place == "top", s.gravity
        if s.position is not None:
            place_at = self.ex(s.position, scope)

            def move_at(c: Ctx):
                x, z = item(c), dest(c)
                if type(x) is list:
                    weigh(c, x, pos)
                n = need_int(place_at(c), "the position", pos)
                for one in (x if isinstance(x, list) else [x]):
                    c.eng.move_to_position(one, z, n, pos, gravity)
                    n += 1  # several items keep their order
            return move_at, False

        def move(c: Ctx):
            x = item(c)
            z = dest(c)
            if type(x) is list:  # what moving goes through (and an error may show)
                weigh(c, x, pos)
            for one in (x if isinstance(x, list) else [x]):
                c.eng.move_item(one, z, at_top, pos, gravity)
        return move, False

    def s_DealStmt(self, s, scope):
        count, pos = self.ex(s.count, scope), s.pos
        src, dest = self._dest(s.source, scope, pos), self._dest(s.dest, scope, pos)
        at_top = s.place == "top"

        def deal(c: Ctx):
            n, z_from, z_to = need_int(count(c), "how many to deal", pos), src(c), dest(c)
            if n < 0:
                raise RuleError(f"cannot deal a negative number of items ({n})", pos)
            seq = c.s["zones"][z_from.key]
            recycles = c.eng.game.zones[z_from.name].recycle is not None
            if len(seq) < n and not recycles:
                raise Impossible(f"cannot deal {n} from {z_from.key}: it holds {len(seq)}", pos)
            for i in range(n):
                if not seq and recycles:
                    c.eng.restock(z_from)
                if not seq:
                    raise Impossible(f"cannot deal {n} from {z_from.key}: it held {i}, and what "
                                    "it recycles was empty", pos)
                c.eng.move_item(seq[0], z_to, at_top, pos)
        return deal, False

    def s_ShuffleStmt(self, s, scope):
        zone, pos = self._dest(s.zone, scope, s.pos), s.pos

        def shuffle(c: Ctx):
            c.eng.shuffle(zone(c), pos)
        return shuffle, False

    def s_RollStmt(self, s, scope):
        sides, name, pos = s.sides, s.name, s.pos
        scope.add(name)
        at = f"{pos.path}:{pos.line}"

        def roll(c: Ctx):
            value = c.eng.chance().randint(1, sides)
            c.v[name] = value
            if c.eng.record:
                c.eng.events.append({"event": "roll", "die": sides, "value": value,
                                     "player": c.you, "at": at})
        return roll, False

    def options_fn(self, p, scope):
        """The legal values of a choice (statement or action parameter), in source order. The
        code generator (interpreter/codegen.py) learns here which choices are listed, and the
        generated program swaps in its own function for each (one loop, the `where` inline)."""
        fn = self._options(p, scope)
        return fn if self.listing_hook is None else self.listing_hook(p, scope, fn)

    def _options(self, p, scope):
        inner = scope | {p.name}
        cond = self.ex(p.cond, inner) if p.cond is not None else None
        name, pos = p.name, p.pos
        if getattr(p, "is_range", False):
            lo, hi = self.ex(p.source[0], scope), self.ex(p.source[1], scope)

            def values(c: Ctx):
                a = need_int(lo(c), "the lowest choice", pos)
                b = need_int(hi(c), "the highest choice", pos)
                return number_options(a, b, "a choice", pos)
        elif getattr(p, "subsets", False):
            src = self.ex(p.source, scope)

            def values(c: Ctx):
                return subsets_of(need_items(c, src(c), "what is chosen from", pos), pos)
        else:
            src = self.ex(p.source, scope)

            def values(c: Ctx):
                return need_items(c, src(c), "what is chosen from", pos)

        if cond is None:
            return values

        def legal(c: Ctx):
            v = c.v
            saved = v.get(name, _MISSING)
            out = []
            for x in values(c):
                v[name] = x
                if cond(c):
                    out.append(x)
            if saved is _MISSING:
                v.pop(name, None)
            else:
                v[name] = saved
            return out
        return legal

    def s_RandomChooseStmt(self, s, scope):
        source, name, pos = self.ex(s.source, scope), s.name, s.pos
        scope.add(name)
        at = f"{pos.path}:{pos.line}"

        def pick(c: Ctx):
            options = list(source(c))
            if not options:
                raise Impossible(f"nothing to choose at random for `{name}`", pos)
            value = options[c.eng.chance().randrange(len(options))]
            c.v[name] = value
            if c.eng.record:
                c.eng.events.append({"event": "random", "name": name, "value": value,
                                     "player": c.you, "at": at})
        return pick, False

    def s_ChooseStmt(self, s, scope):
        options = self.options_fn(s, scope)
        chooser = self.ex(s.chooser, scope) if s.chooser is not None else None
        name, why = s.name, str(s.pos)
        scope.add(name)
        pos, counts = s.pos, reads_counts(self.g, s)

        def choose(c: Ctx):
            who = c.you if chooser is None else chooser(c)
            cc = c if who == c.you else Ctx(c.s, who, c.v, c.eng)
            opts = options(cc)
            if not opts:
                raise Impossible(f"nothing to choose for `{name}`: no option is legal", pos)
            c.v[name] = yield from c.eng.ask(who, f"choose {name}", opts, why,
                                             lambda: options(cc), ctx=cc, counts=counts)
        return choose, True

    def s_DrawStmt(self, s, scope):
        count, dest, keep = self.ex(s.count, scope), self._dest(s.dest, scope, s.pos), self.ex(
            s.keep, scope)
        name, why, pos, any_of, at_top = s.name, str(s.pos), s.pos, s.any_of, s.rest == "top"
        source = self.ex(s.source, scope) if any_of else self._dest(s.source, scope, s.pos)
        if name is not None:
            scope.add(name)
        fits = self.ex(s.cond, scope) if s.cond is not None else None

        def piles(c: Ctx) -> list:
            """The piles the next item may come from: those with an item (or a bag to refill)."""
            out = []
            for z in need_items(c, source(c), "the piles drawn from", pos):
                if type(z) is not ZoneRef:
                    raise RuleError(f"{z!r} is not a zone", pos)
                if c.s["zones"][z.key] or _recycles_some(c, z):
                    out.append(z)
            return out

        def keepable(c: Ctx, drawn: list) -> list:
            held = c.s["zones"][dest(c).key]
            out = [x for x, _ in drawn if x in held]
            if fits is None:
                return out
            saved, v, fitting = c.v.get(name, _MISSING), c.v, []
            for x in out:
                v[name] = x
                if fits(c):
                    fitting.append(x)
            if saved is _MISSING:
                c.v.pop(name, None)
            else:
                c.v[name] = saved
            return fitting

        def keep_options(c: Ctx, drawn: list, k: int) -> list:
            pool = keepable(c, drawn)
            return pool if k == 1 else [list(x) for x in combinations(pool, k)]

        def draw(c: Ctx):
            n = need_int(count(c), "how many to draw", pos)
            k = need_int(keep(c), "how many to keep", pos)
            if n < 0 or not 0 <= k <= n:
                raise RuleError(f"cannot draw {n} and keep {k}", pos)
            drawn: list = []  # (item, the pile it came from)
            for i in range(n):
                if any_of:
                    open_piles = piles(c)
                    if not open_piles:
                        raise Impossible(f"cannot draw {n}: the piles ran out after {i}", pos)
                    pile = yield from c.eng.ask(c.you, "draw pile", open_piles, why,
                                                lambda: piles(c), ctx=c)
                else:
                    pile = source(c)
                seq = c.s["zones"][pile.key]
                if not seq:
                    c.eng.restock(pile)
                if not seq:
                    raise Impossible(f"cannot draw {n} from {pile.key}: it held {i}", pos)
                item = seq[0]
                c.eng.move_item(item, dest(c), False, pos)
                c.eng.peek(c.you, [item])  # the drawer sees what they draw
                drawn.append((item, pile))
            kept: list = []
            if k > 0:
                if len(keepable(c, drawn)) < k:
                    raise Impossible(f"cannot keep {k} of the {n} drawn: "
                                     f"{len(keepable(c, drawn))} may be kept", pos)
                choice = yield from c.eng.ask(c.you, f"keep {name or 'item'}",
                                              keep_options(c, drawn, k), why,
                                              lambda: keep_options(c, drawn, k), ctx=c)
                kept = [choice] if k == 1 else list(choice)
            if name is not None:
                c.v[name] = kept[0] if k == 1 else kept  # keeping 0 names the empty list
            rest = [(x, pile) for x, pile in drawn if x not in kept]
            for x, pile in (rest[::-1] if at_top else rest):  # the first drawn stays the upper
                c.eng.move_item(x, pile, at_top, pos)
        return draw, True

    def s_SearchStmt(self, s, scope):
        zone, name, why, pos = self._dest(s.zone, scope, s.pos), s.name, str(s.pos), s.pos
        # its choice is a node made anew at each compile, which no generated listing can name
        options = self._options(A.choice_in(name, s.zone, s.cond, pos), scope)
        searcher = self.ex(s.searcher, scope) if s.searcher is not None else None
        by = s.searcher.pos if s.searcher is not None else pos
        body = self.block_gen(s.body, scope | {name})
        other = self.block_gen(s.other, scope) if s.other is not None else None

        def search(c: Ctx):
            who = c.you if searcher is None else searcher(c)
            if type(who) is not int or not 0 <= who < c.eng.n:
                raise RuleError(f"who searches must be a seat (got {_describe(who)})", by)
            cc = c if who == c.you else Ctx(c.s, who, c.v, c.eng)
            c.eng.peek(who, list(c.s["zones"][zone(c).key]))  # looks through the whole zone
            found = options(cc)
            if not found:
                if other is not None:
                    yield from other(c)
                return
            c.v[name] = yield from c.eng.ask(who, f"search {name}", found, why,
                                             lambda: options(cc), ctx=cc)
            yield from body(c)
        return search, True

    def s_AuctionStmt(self, s, scope):
        bidders, currency, why, pos = self.ex(s.bidders, scope), s.currency, str(s.pos), s.pos
        ties = self.ex(s.ties, scope) if s.ties is not None else None
        opener_bids = self.ex(s.opener_bids, scope) if s.opener_bids is not None else None
        winner_var, price_var, history_var = s.winner, s.price, s.history
        # `paying accounts["sf"]`: one member of a family, by its key (compared as text)
        member_key = self.ex(s.member, scope) if s.member is not None else None
        by_text = {str(k): member_name(currency, k) for k in self.g.counters[currency].keys or ()}
        scope.update((winner_var, price_var))
        if history_var is not None:
            scope.add(history_var)
        beyond = s.beyond_means

        def auction(c: Ctx):
            order = need_items(c, bidders(c), "the bidders", pos)
            paid_from = currency
            if member_key is not None:
                k = member_key(c)
                if str(k) not in by_text:
                    raise RuleError(f"{currency} has no key {k!r} (keys: {', '.join(by_text)})", pos)
                paid_from = by_text[str(k)]
            if any(type(p) is not int or not 0 <= p < c.eng.n for p in order):
                raise RuleError(f"the bidders must be seats, got {order!r}", pos)
            tie_holder = ties(c) if ties is not None else None
            # an opener that must bid answers 0 or more, never out: its 0 leads like any bid
            must_open = bool(opener_bids(c)) if opener_bids is not None and order else False
            high, leader = 0, None
            history: list = []
            # beyond means: anyone may bid up to what the richest bidder holds
            most = max(c.s["players"][p][paid_from] for p in order) if order and beyond else 0
            while order and not (len(order) == 1 and order[0] == leader):
                p = order.pop(0)
                if p == leader:
                    order.append(p)
                    continue
                opening = must_open and not history
                # the tie holder may bid the standing high bid itself: it then leads with it
                low = 0 if opening else high if p == tie_holder and leader is not None \
                    else high + 1

                def bids(p=p, low=low, opening=opening):  # again after a free action: money
                    top = most if beyond else c.s["players"][p][paid_from]  # may have changed
                    return number_options(low, max(top, low), "a bid", pos) if opening else \
                        ["out"] + number_options(low, top, "a bid", pos)
                bid = yield from c.eng.ask(p, "bid", bids(), why, bids, ctx=c, declinable=True)
                if bid != "out":
                    high, leader = bid, p
                    history.append([p, bid])
                    order.append(p)
            c.v[winner_var], c.v[price_var] = leader, high
            if history_var is not None:
                c.v[history_var] = history
            if c.eng.record:
                c.eng.events.append({"event": "auction", "winner": leader, "price": high,
                                     "at": f"{pos.path}:{pos.line}"})
        return auction, True

    def s_PlaceStmt(self, s, scope):
        item, zone = self.ex(s.item, scope), self._dest(s.zone, scope, s.pos)
        row, col, pos = self.ex(s.row, scope), self.ex(s.column, scope), s.pos

        def place(c: Ctx):
            c.eng.place_item(item(c), zone(c), row(c), col(c), pos)
        return place, False

    def s_SecretChooseStmt(self, s, scope):
        var = s.var
        options = self.options_fn(s, scope | ({var} if var else set()))
        among = self.ex(s.among, scope) if s.among is not None else None
        name, why, pos = s.name, str(s.pos), s.pos
        scope.add(name)

        def secret(c: Ctx):
            seats = range(c.eng.n) if among is None else _seats(c, among(c), pos)
            picks: list = [None] * c.eng.n  # a seat not asked has no pick
            c.eng.secret_mark = len(c.eng.choices)
            for p in seats:
                pc = c.with_player(p)
                if var:
                    pc.v[var] = p
                opts = options(pc)
                if not opts:
                    raise Impossible(f"player {p} has nothing to choose for `{name}`", pos)
                value = yield from c.eng.ask(p, f"secret {name}", opts, why,
                                             lambda pc=pc: options(pc), secret=True, ctx=pc)
                picks[p] = value
            c.v[name] = picks
            c.eng.secret_mark = None
            if c.eng.record:
                c.eng.events.append({"event": "reveal", "name": name,
                                     "values": [label(x) for x in picks],
                                     "at": f"{pos.path}:{pos.line}"})
        return secret, True

    def s_DoStmt(self, s, scope):
        who = self.ex(s.player, scope) if s.player is not None else None
        times = self.ex(s.times, scope) if s.times is not None else None
        action, pos, optional, mode = s.action, s.pos, s.optional, s.mode
        args = [(n, self.ex(x, scope)) for n, x in s.args]
        value = self._do_value(action, s.value, scope)
        otherwise = self.stmt(s.otherwise, set(scope)) if s.otherwise is not None else None

        def do(c: Ctx):
            n = 1 if times is None else need_int(times(c), "the number of times", pos)
            if n < 0:
                raise RuleError(f"cannot do an action a negative number of times ({n})", pos)
            p = c.you if who is None else who(c)
            bound = {name: f(c) for name, f in args}  # evaluated once, before the first time
            target = None if value is None else value(c)
            if type(target) is list:  # what choosing among it goes through (and errors show)
                weigh(c, target, pos)
            done_any = False
            for _ in range(n):
                c.eng.tick(pos)
                if value is None:
                    done = yield from c.eng.do_action(action, p, pos, optional, bound)
                else:
                    done = yield from c.eng.do_value(target, p, pos, optional, bound, mode)
                done_any = done_any or done
                if optional and not done:
                    break  # skipping one optional use skips the rest
            if otherwise is not None and not done_any:  # `may do ... else`: the price of declining
                fn, is_gen = otherwise
                oc = c if p == c.you else Ctx(c.s, p, c.v, c.eng)
                if is_gen:
                    yield from fn(oc)
                else:
                    fn(oc)
        return do, True

    def s_ControlStmt(self, s, scope):
        exc = {"end turn": EndTurn, "pass": PassTurn, "end game": EndGame}[s.what]
        what, pos = s.what, s.pos
        at = f"{s.pos.path}:{s.pos.line}"

        def control(c: Ctx):
            if exc is PassTurn:
                passed = c.s["turn"]["passed"]
                if c.you not in passed:
                    passed.append(c.you)
            if exc is EndGame:
                if c.eng.record:
                    c.eng.events.append({"event": "end game", "at": at})
            raise exc(what, pos)
        return control, False

    def s_LogStmt(self, s, scope):
        text = s.text

        def log(c: Ctx):
            if c.eng.record:
                c.eng.events.append({"event": "log", "text": text, "player": c.you})
        return log, False

    def s_IfStmt(self, s, scope):
        branches = [(self.ex(cond, scope), *self.block(body, scope)) for cond, body in s.branches]
        other = self.block(s.other, scope) if s.other is not None else None
        is_gen = any(g for _, _, g in branches) or (other is not None and other[1])
        if not is_gen:
            if len(branches) == 1 and other is None:
                cond, body, _ = branches[0]

                def if1(c: Ctx):
                    if cond(c):
                        body(c)
                return if1, False

            def if_(c: Ctx):
                for cond, body, _ in branches:
                    if cond(c):
                        body(c)
                        return
                if other is not None:
                    other[0](c)
            return if_, False

        def if_gen(c: Ctx):
            for cond, body, g in branches:
                if cond(c):
                    if g:
                        yield from body(c)
                    else:
                        body(c)
                    return
            if other is not None:
                if other[1]:
                    yield from other[0](c)
                else:
                    other[0](c)
        return if_gen, True

    def s_ForEachStmt(self, s, scope):
        src, var, pos = self.ex(s.source, scope), s.var, s.pos
        body, g = self.block(s.body, scope | {var})
        if not g:
            def for_each(c: Ctx):
                tick = c.eng.tick
                pool = src(c)
                pool = list(c.s["zones"][pool.key]) if type(pool) is ZoneRef else need_items(
                    c, pool, "what `for each` goes through", pos)
                for x in pool:
                    tick(pos)
                    c.v[var] = x
                    body(c)
            return for_each, False

        def for_each_gen(c: Ctx):
            for x in need_items(c, src(c), "what `for each` goes through", pos):
                c.eng.tick(pos)
                c.v[var] = x
                yield from body(c)
        return for_each_gen, True

    def s_RepeatStmt(self, s, scope):
        count, pos = self.ex(s.count, scope), s.pos
        body, g = self.block(s.body, scope)

        def times(c: Ctx):
            n = need_int(count(c), "the number of repeats", pos)
            if n < 0:
                raise RuleError(f"cannot repeat a negative number of times ({n})", pos)
            return n
        if not g:
            def repeat(c: Ctx):
                for _ in range(times(c)):
                    c.eng.tick(pos)
                    body(c)
            return repeat, False

        def repeat_gen(c: Ctx):
            for _ in range(times(c)):
                c.eng.tick(pos)
                yield from body(c)
        return repeat_gen, True

    def s_WhileStmt(self, s, scope):
        cond, pos = self.ex(s.cond, scope), s.pos
        body, g = self.block(s.body, scope)
        if not g:
            def while_(c: Ctx):
                tick = c.eng.tick
                while cond(c):
                    tick(pos)
                    body(c)
            return while_, False

        def while_gen(c: Ctx):
            while cond(c):
                c.eng.tick(pos)
                yield from body(c)
        return while_gen, True

    # ================================================================ actions
    def action(self, a):
        ca = self._action(a)
        ca.limits = tuple((lim.state_key(a.name, i), self.limit_times(lim), lim)
                          for i, lim in enumerate(a.limits))
        if ca.requires_per_value:
            ca.listing = self.listing(a, ca)
        return ca

    def listing(self, a, ca: CompiledAction):
        """The values of an action's choice legal now when its `requires:` reads the chosen
        value: those of the choice, then those of them that meet it. The code generator writes
        this as one function too, unless a cost is part of what is required."""
        param = ca.param

        def listing(c: Ctx):
            return ca.meeting(c, param(c))
        if self.listing_hook is None or a.cost is not None:
            return listing
        return self.listing_hook(a, set(a.takes) | {ca.pname}, listing)

    def limit_times(self, lim):
        """How many uses a limit allows now: `times`, or, while its `if:` does not hold, more
        than a game can reach (the limit is lifted, its uses still counted)."""
        times = self.ex(lim.times, set())
        if lim.cond is None:
            return times
        cond = self.ex(lim.cond, set())
        return lambda c: times(c) if cond(c) else MAX_INT

    def _action(self, a):
        scope = set(a.takes)
        param = None
        if a.param is not None:
            param = self.options_fn(a.param, scope)
            scope = scope | {a.param.name}
        requires = self.ex(a.requires, scope) if a.requires is not None else None
        fn, is_gen = self.block(a.effect, scope)
        if a.cost is None:
            ca = CompiledAction(a, param, requires, self.block_gen(a.effect, scope))
            ca.effect_plain = None if is_gen else fn
            ca.rehearse = a.requires is None and can_fail(a.effect, self.g)
            return ca
        can_pay, pay_cost = self.cost(a.cost, scope)
        if requires is not None:
            alone = requires
            requires = lambda c: bool(alone(c)) and can_pay(c)  # noqa: E731
        else:
            requires = can_pay
        effect, plain = _paying_first(pay_cost, fn, is_gen)
        ca = CompiledAction(a, param, requires, effect)
        ca.effect_plain = plain
        ca.can_pay = can_pay
        ca.rehearse = a.requires is None and can_fail(a.effect, self.g)
        ca.requires_per_value = ca.pname is not None and any(
            isinstance(n, A.Name) and n.name == ca.pname
            for e in (a.requires, a.cost) if e is not None for n in _walk_any(e))
        return ca

    def cost(self, cost, scope):
        """-> (can_pay(c), pay(c)): the parts less their discounts (a part paid to the payer
        costs nothing), paid from one counter, its family's transfers included."""
        source = self.counter_slot(cost.source, scope)
        spec = self.g.counters[_counter_name(cost.source)]
        fam = spec if spec.keys is not None else None
        bounds = {m: _bounder(s, cost.pos) for m, s in
                  list(self.g.counter_members.items()) + list(self.g.counters.items())}
        off: dict = {}
        for name, amount in cost.discounts:
            off.setdefault(name, []).append(self.ex(amount, scope))
        parts = []
        for part in cost.parts:
            to = part.to
            credit = self._payee(to, scope, bounds) if to is not None else None
            seat = None if to is None or self._is_counter(to, scope) else self.ex(to, scope)
            parts.append((self.ex(part.amount, scope), off.get(part.name, ()), credit, seat,
                          part.pos))
        held = self._held("discount", _counter_name(cost.source))

        def amounts(c: Ctx) -> list:
            out = []
            for amount, discounts, credit, seat, pos in parts:
                n = need_int(amount(c), "a cost", pos)
                for d in discounts:
                    n -= need_int(d(c), "a discount", pos)
                if seat is not None and seat(c) == c.you:
                    n = 0  # paying oneself costs nothing
                out.append((max(n, 0), credit))
            grants = held.get(source(c)[1]) if held else None
            if grants:  # a held discount on the counter paid from: off the parts in their order
                more = c.eng.held_ability(grants, c.you)
                for i, (n, credit) in enumerate(out):
                    cut = min(n, more)
                    out[i], more = (n - cut, credit), more - cut
            return out

        def can_pay(c: Ctx) -> bool:
            return payments.funds(c, fam, source(c)) >= sum(n for n, _ in amounts(c))

        def pay(c: Ctx):
            due = amounts(c)
            place = source(c)
            payments.pay(c, fam, place, sum(n for n, _ in due), cost.pos)
            for n, credit in due:
                if credit is not None and n:
                    credit(c, place, n)
        return can_pay, pay

    def _is_counter(self, e, scope) -> bool:
        target = A.counter_target(e)
        return target is not None and target[1] in self.g.counters and target[1] not in scope and (
            target[0] is None or self.g.counters[target[1]].per_player)

    # ================================================================ flow
    def steps(self, steps, scope: set):
        parts = [self.step(s, scope) for s in steps]
        if len(parts) == 1:
            return parts[0]  # one generator less between the engine and every decision

        def run(c: Ctx):
            eng = c.eng
            frame = [0]  # which step runs (the replay viewer reads Engine.frames)
            eng.frames.append(frame)
            try:
                for i in range(len(parts)):
                    frame[0] = i
                    yield from parts[i](c)
            finally:
                eng.frames.pop()
        return run

    def step(self, s, scope):
        """A flow step: a generator function that notes where it stands in Engine.frames (which
        the replay viewer draws)."""
        if isinstance(s, DoStep):
            block = self.block_gen(s.block, scope)

            def do_step(c: Ctx):
                yield from block(c)
                if c.eng.pending or c.eng.watching:
                    yield from c.eng.flush(c)
            return do_step
        if isinstance(s, PhaseStep):
            body, name = self.steps(s.steps, scope), s.name
            free, any_time = s.free_actions, s.free_at == "any_time"
            free_if = self.ex(s.free_if, scope) if s.free_if is not None else None

            def phase(c: Ctx):
                eng, state = c.eng, c.s
                outer = state["phase"]
                window = bool(free) and (free_if is None or bool(free_if(c)))
                if window:
                    eng.windows.append(("all", free, any_time))
                eng.frames.append([outer, window])
                try:
                    state["phase"] = name
                    if name in eng.prog.limits_per:
                        eng.reset_uses(name)
                    if eng.record:
                        eng.events.append({"event": "phase", "phase": name})
                    if eng.triggers_for("phase_start", name):
                        yield from eng.fire("phase_start", name, c)
                    yield from body(c)
                    if eng.triggers_for("phase_end", name):
                        yield from eng.fire("phase_end", name, c)
                    state["phase"] = outer
                finally:
                    eng.frames.pop()
                    if window:
                        eng.windows.pop()

            return phase
        if isinstance(s, RepeatStep):
            count, var, pos = self.ex(s.count, scope), s.var, s.pos
            body = self.steps(s.steps, scope | ({var} if var else set()))

            def repeat(c: Ctx):
                eng = c.eng
                n = need_int(count(c), "the number of repeats", pos)
                if n < 0:
                    raise RuleError(f"cannot repeat a negative number of times ({n})", pos)
                frame = [n, 1]
                eng.frames.append(frame)
                try:
                    for i in range(1, n + 1):
                        frame[1] = i
                        eng.flow_pass(pos)
                        if var:
                            c.v[var] = i
                            if var in eng.prog.limits_per:  # `limit: {per: round}` restarts
                                eng.reset_uses(var)
                        yield from body(c)
                finally:
                    eng.frames.pop()
            return repeat
        if isinstance(s, LoopStep):
            cond, until, pos = self.ex(s.cond, scope), s.until, s.pos
            body = self.steps(s.steps, scope)

            def loop(c: Ctx):
                eng = c.eng
                eng.frames.append([])
                try:
                    while bool(cond(c)) != until:
                        eng.flow_pass(pos)
                        yield from body(c)
                finally:
                    eng.frames.pop()
            return loop
        if isinstance(s, IfStep):
            cond = self.ex(s.cond, scope)
            then, other = self.steps(s.steps, scope), self.steps(s.other, scope)

            def if_step(c: Ctx):
                eng = c.eng
                chosen = bool(cond(c))
                eng.frames.append([chosen])
                try:
                    yield from (then(c) if chosen else other(c))
                finally:
                    eng.frames.pop()
            return if_step
        if isinstance(s, TurnsStep):
            return self.turns(s, scope)
        raise TypeError(s)  # pragma: no cover

    def turns(self, s: TurnsStep, scope):
        first = self.ex(s.first, scope)
        per_turn = self.ex(s.per_turn, scope) if s.per_turn is not None else None
        per_turn_pos = getattr(s.per_turn, "pos", None)  # (an expression, typed object in the model)
        until_cond = self.ex(s.until_cond, scope) if s.until_cond is not None else None
        step = -1 if s.order == "counterclockwise" else 1
        actions, free, until, var, pos = s.actions, s.free_actions, s.until, s.var, s.pos
        automa_actions, free_after, free_turn = s.automa_actions, s.free_after_last, s.free_turn
        any_time = s.free_at == "any_time"
        order_list = self.ex(s.order_list, scope) if s.order_list is not None else None
        until_round = self.ex(s.until_round, scope) if s.until_round is not None else None
        why = str(pos)

        def start_seats(c: Ctx, n: int) -> list:
            """The seats in turn order, read once as the step starts."""
            if order_list is not None:
                seats = order_list(c)
                if (type(seats) is not list or not seats or
                        not all(type(p) is int and 0 <= p < n for p in seats) or
                        len(set(seats)) != len(seats)):
                    raise RuleError(f"the turn order must list different seats from 0 to {n - 1}, "
                                    f"got {seats!r}", pos)
                return seats
            start = first(c)
            if type(start) is not int or not 0 <= start < n:
                raise RuleError(f"the first player must be a seat from 0 to {n - 1}, got "
                                f"{start!r}", pos)
            return [(start + step * i) % n for i in range(n)]

        def turns(c: Ctx):
            eng = c.eng
            n = eng.n
            seats = start_seats(c, n)
            outer_turn = c.s["turn"]
            passed: list = []
            c.s["turn"] = {"player": seats[0], "passed": passed}
            taken, idle = 0, 0  # idle: turns in a row in which nobody could act
            k = len(seats)
            frame = [tuple(seats), (outer_turn["player"], tuple(outer_turn["passed"])), 0, 0]
            eng.frames.append(frame)
            try:
                while True:
                    frame[2], frame[3] = taken, idle
                    if until == "all_passed" and len(passed) >= k:
                        break
                    if until == "one_round" and taken >= k:
                        break
                    seat = seats[taken % k]
                    if seat not in passed:
                        eng.flow_pass(pos)
                        tc = c.with_player(seat)
                        if var:
                            tc.v[var] = seat
                        c.s["turn"]["player"] = seat
                        limit = _per_turn(per_turn(c), per_turn_pos) if per_turn is not None \
                            else None
                        acted = yield from eng.take_turn(tc, actions, free, limit, passed, why,
                                                         automa_actions, free_after, free_turn,
                                                         any_time)
                        if until_cond is not None and until_cond(c):
                            break
                        if acted > 0:
                            idle = 0
                        elif until == "all_passed":
                            if seat not in passed:
                                passed.append(seat)  # who cannot act passes
                        elif acted == 0:
                            idle = 0  # ended by choice, with free actions open: not stuck
                        elif until != "one_round" and until_round is None and not (
                                eng.triggers_for("before_turn", None) or
                                eng.triggers_for("after_turn", None)):
                            # nothing happens between turns: a round in which nobody could act
                            # leaves the game as it was, for ever
                            idle += 1
                            if idle >= k - len(passed):
                                raise RuleError(
                                    "no player can take any action, and these turns go on "
                                    f"{_ENDS[until]}: the game cannot go on", pos)
                    taken += 1
                    if until_round is not None and taken % k == 0 and until_round(c):
                        break
            finally:
                c.s["turn"] = outer_turn
                eng.frames.pop()
        return turns


_MISSING = object()
MAX_LIST = 100_000  # values in one list


def _walk_any(e):
    """Every syntax node under an expression or a model object holding expressions (a Cost)."""
    if attrs.has(type(e)) and type(e).__module__ == A.__name__:
        yield from A.walk(e)
        return
    for field in attrs.fields(type(e)) if attrs.has(type(e)) else ():
        yield from _walk_any(getattr(e, field.name))
    if isinstance(e, tuple):
        for x in e:
            yield from _walk_any(x)


def _counter_name(e) -> str:
    """The counter an expression names (the checker made sure it names one)."""
    target = A.counter_target(e)
    assert target is not None
    return target[1]


def _paying_first(pay, fn, is_gen):
    """An action's effect with its price paid first: (generator function, plain function or
    None when the effect can ask something)."""
    if is_gen:
        def paying_gen(c: Ctx):
            pay(c)
            yield from fn(c)
        return paying_gen, None

    def paying(c: Ctx):
        pay(c)
        fn(c)

    def paying_as_gen(c: Ctx):
        paying(c)
        return
        yield  # never reached: the yield makes this a generator
    return paying_as_gen, paying
_ENDS = {"never": "until a rule ends the game (until: never)",
         "condition": "until their condition holds, and nothing can change it now"}


_TAKES_ONE = ("top", "bottom", "first", "last")


def can_fail(block, game, seen: frozenset = frozenset()) -> bool:
    """Does this effect hold a statement that can stop it half way: `pay`, a `choose` (its
    options may be empty), `deal`, `draw`, moving or placing an item taken with top/first/... (the zone
    may be empty) or into a zone with a capacity, doing an action by value, or doing (not `may
    do`) a named action whose price or effect can fail (one that its `requires:` or `choose:`
    leaves with nothing is skipped, not failed)? `seen` holds the named actions already being
    looked into, so recursion ends."""
    for s in A.walk(block):
        if isinstance(s, (A.ChooseStmt, A.SecretChooseStmt, A.DealStmt, A.DrawStmt)) or (
                isinstance(s, A.GainStmt) and s.verb in ("pay", "transfer")) or (
                isinstance(s, A.DoStmt) and s.value is not None):
            return True
        if isinstance(s, A.DoStmt) and not s.optional and s.action not in seen and (
                _named_action_can_fail(game.actions.get(s.action), game, seen | {s.action})):
            return True
        if isinstance(s, A.MoveStmt) and (_may_be_missing(s.item) or _has_capacity(s.dest, game)):
            return True
        if isinstance(s, A.PlaceStmt) and (_may_be_missing(s.item) or _has_capacity(s.zone, game)):
            return True
    return False


def _named_action_can_fail(a, game, seen: frozenset) -> bool:
    """Can `do NAME` of this declared action (None: not an action's name) stop half way?"""
    return a is not None and (a.cost is not None or can_fail(a.effect, game, seen))


def _recycles_some(c: Ctx, z: ZoneRef) -> bool:
    """Would an empty zone take items back from what it recycles (`recycle:`)?"""
    back = c.eng.game.zones[z.name].recycle
    if back is None:
        return False
    owner = z.owner if c.eng.game.zones[back].per_player else None
    return bool(c.s["zones"][c.eng.prog.zone_ref(back, owner).key])


def _may_be_missing(item) -> bool:
    return isinstance(item, (A.Select, A.Index)) or (
        isinstance(item, A.Call) and (item.func in _TAKES_ONE))


def _has_capacity(dest, game) -> bool:
    while isinstance(dest, (A.Index, A.Attr)):
        if isinstance(dest, A.Attr) and dest.name in game.zones:
            break
        dest = dest.obj
    name = dest.name if isinstance(dest, (A.Name, A.Attr)) else None
    zone = game.zones.get(name)
    return zone is None or zone.capacity is not None or zone.grid is not None


def _with_bonus(amount, who, grants: list, pos):
    """A gain's amount plus what the gaining player's held items add to it (`while_held:`)."""
    def more(c: Ctx):
        n = need_int(amount(c), "the amount", pos)
        return n + c.eng.held_ability(grants, who(c)) if n >= 0 else n
    return more


def _seats(c: Ctx, value, pos) -> list:
    """The players a rule names (in seat order, once each), checked to be seats."""
    if not isinstance(value, list) or not all(type(p) is int and 0 <= p < c.eng.n for p in value):
        raise RuleError(f"{_describe(value)} is not a list of players", pos)
    return sorted(set(value))


def _next_space(track, last: int, here: int) -> int | None:
    """The space after `here` on a track: past the last, its `wrap_to` space (None if none)."""
    if here < last:
        return here + 1
    return track.wrap_to


def _trigger_scope(game, t) -> set:
    """The local names a trigger's condition and effect see."""
    if t.event.endswith("_action"):
        action = game.actions.get(t.target)
        return {"action"} | (set(action.takes) | ({action.param.name} if action.param else set())
                             if action is not None else set())
    return set(TRIGGER_LOCALS.get(t.event, ()))


def limit_key(trigger: str) -> str:
    """Where a trigger's `limit:` counts its firings (beside the actions' use counts)."""
    return f"trigger {trigger}"


def index_value(c: Ctx, o, k, pos):
    """`o[k]`: a list's entry, a zone family's member, a zone's item, a table's entry."""
    if type(o) is list and type(k) is int and 0 <= k < len(o):
        return o[k]  # `card[p]`: the common case first
    if type(o) is FamilyRef:
        return c.eng.prog.member(o, k, pos)
    if type(o) is ZoneRef:
        o = c.s["zones"][o.key]
    try:
        if isinstance(o, dict) and k not in o and str(k) in o:
            return o[str(k)]
        return o[k]
    except (KeyError, IndexError, TypeError) as exc:
        raise RuleError(f"no entry {k!r} ({type(exc).__name__})", pos,
                        _table_hint(c, pos)) from None


def _table_hint(c: Ctx, pos) -> str | None:
    """`plant_damage has 3 entries (0 to 2)` when the index that failed reads a table by name
    (the game's dependency graph knows which index reads which table)."""
    deps = getattr(c.eng.game, "deps", None)
    name = deps.table_at(pos) if deps is not None else None
    if name is None:
        return None
    from meeplang.dsl.depends import entries_text

    table = c.eng.game.tables[name]
    if isinstance(table, list):
        return entries_text(name, table)
    keys = ", ".join(repr(k) for k in list(table)[:8]) + (", ..." if len(table) > 8 else "")
    return f"{name} has the keys {keys}"


def divide_values(a: int, b: int, op: str, pos) -> int:
    """`//`, `%`, `/` of two whole numbers (`/` only when exact)."""
    if b == 0:
        raise RuleError(f"division by zero ({a} {op} 0)", pos)
    if op == "/" and a % b:
        raise RuleError(f"{a} / {b} is not a whole number; use // to round down", pos)
    return _ARITH.get(op, operator.floordiv)(a, b)


def plus_values(c: Ctx, a, b, pos):
    """`+`: two whole numbers within the bound, or two lists (charged to the work budget)."""
    if type(a) is int and type(b) is int:
        n = a + b
        if -MAX_INT <= n <= MAX_INT:
            return n
        raise RuleError(int_too_large(n), pos)
    if type(a) is list and type(b) is list:
        if len(a) + len(b) > MAX_LIST:
            raise RuleError(f"a list of more than {MAX_LIST} values", pos)
        c.eng.charge(len(a) + len(b), pos)
        return a + b
    if isinstance(a, list) or isinstance(b, list):
        raise RuleError(f"cannot add {_describe(a)} and {_describe(b)}", pos)
    return bounded(need_int(a, "the left side of +", pos) +
                   need_int(b, "the right side of +", pos), pos)


def arith_values(a, b, op: str, pos) -> int:
    """`-`, `*` of two whole numbers within the bound."""
    fn = _ARITH[op]
    if type(a) is int and type(b) is int:
        n = fn(a, b)
        if -MAX_INT <= n <= MAX_INT:
            return n
        raise RuleError(int_too_large(n), pos)
    return bounded(fn(need_int(a, f"the left side of {op}", pos),
                      need_int(b, f"the right side of {op}", pos)), pos)


def _per_turn(value, pos) -> int:
    """The main actions of a turn: a whole number, at least 1 (0 would read as 1: the count is
    checked after each action)."""
    n = need_int(value, "actions per turn", pos)
    if n < 1:
        raise RuleError(f"a turn has at least 1 action: per_turn is {n}", pos)
    return n


def _constant(e):
    """The value of a literal expression, else _MISSING."""
    if isinstance(e, (A.Num, A.Str, A.Const)):
        return e.value
    return _MISSING


def _pool(c, value, pos) -> list:
    """What a comprehension goes through, without a copy: expressions cannot change it."""
    if type(value) is ZoneRef:
        return c.s["zones"][value.key]
    if type(value) is list:
        return value
    return need_items(c, value, "what `for` goes through", pos)


def reads_seat(game, e, seen: set | None = None) -> bool:
    """Does an expression depend on whose point of view it is read from: `you`, `others`, a bare
    per-player counter or zone (yours), `uses(...)`, `can(...)`, or a formula that does?"""
    seen = set() if seen is None else seen
    for n in A.walk(e):
        if isinstance(n, A.Name) and (n.name in ("you", "others") or _per_player(game, n.name)):
            return True
        if isinstance(n, A.CanExpr) or (isinstance(n, A.Call) and n.func == "uses"):
            return True
        if isinstance(n, A.Call) and n.func in game.formulas and n.func not in seen:
            seen.add(n.func)
            if reads_seat(game, game.formulas[n.func].body, seen):
                return True
    return False


_READ_COUNTS = frozenset({"funds", "uses", "capacity", "full"})  # a capacity may read counters


def reads_counts(game, e, seen: set | None = None) -> bool:
    """Can an expression (or a statement's expressions) read a counter or a use count: a
    counter by name (`coins`, `p.coins`, `accounts[a]`), `uses()`, `funds()`, a zone's capacity,
    `can()`, or a formula that does? A free action that changed nothing else leaves the value of
    one that cannot as it was (Engine._free_then)."""
    seen = set() if seen is None else seen
    for n in A.walk(e):
        if isinstance(n, (A.Name, A.Attr)) and n.name in game.counters or isinstance(n, A.CanExpr):
            return True
        if isinstance(n, A.Call) and n.func in _READ_COUNTS:
            return True
        if isinstance(n, A.Call) and n.func in game.formulas and n.func not in seen:
            seen.add(n.func)
            if reads_counts(game, game.formulas[n.func].body, seen):
                return True
    return False


def _per_player(game, name: str) -> bool:
    spec = game.counters.get(name) or game.zones.get(name)
    return spec is not None and spec.per_player


def bounded(n: int, pos) -> int:
    """A computed whole number, if within ±MAX_INT (dsl/limits.py)."""
    if -MAX_INT <= n <= MAX_INT:
        return n
    raise RuleError(int_too_large(n), pos)


def need_int(value, what: str, pos) -> int:
    """Counts, amounts and operands are whole numbers; anything else stops at the rule."""
    if type(value) is int or type(value) is bool:
        return int(value)
    raise RuleError(f"{what} must be a whole number, not {_describe(value)}", pos)


def need_container(value, pos):
    """What `in` looks through besides a zone or a list: a map's keys or a tuple; anything else
    (a number, a text, a family of zones) stops at the rule."""
    if type(value) is dict or type(value) is tuple:
        return value
    raise RuleError(f"`in` looks through a zone or a list, not {_describe(value)}", pos)


def need_items(c, value, what: str, pos) -> list:
    if type(value) is ZoneRef:  # the usual case, as items_of: a copy, its length charged
        out = list(c.s["zones"][value.key])
        eng = c.eng
        eng.steps += len(out)
        if eng.steps > eng.limit:
            raise RuleError(eng.over_limit(), pos)
        return out
    try:
        return items_of(c, value)
    except TypeError:
        raise RuleError(f"{what} must be a zone or a list, not {_describe(value)}", pos) from None
    except ValueError as exc:  # the step budget, charged per item gone through (functions.work)
        raise RuleError(str(exc), pos) from None


def _describe(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, ZoneRef):
        return f"the zone {value.key}"
    return repr(value)


def weigh(c: Ctx, value: list, pos) -> None:
    """Charge to the work budget the values inside a list, those of its lists counted each time
    they are reached: lists may share structure (`let a = [a, a]` forty times holds 2**40 values
    in 41 lists), and comparing, searching or copying one goes through every one of them. The
    walk stops as soon as the budget is spent, and the charge then stops the game."""
    eng = c.eng
    room = eng.limit - eng.steps
    n, stack = 1, [value]
    while stack:
        v = stack.pop()
        n += len(v)
        if n > room:
            break
        stack.extend(x for x in v if type(x) is list)
    eng.charge(n, pos)


def weigh_sides(c: Ctx, a, b, pos) -> None:
    """Charge what comparing two values may go through: the values of either that is a list."""
    if type(a) is list:
        weigh(c, a, pos)
    if type(b) is list:
        weigh(c, b, pos)


def equal_lists(c: Ctx, a, b, pos) -> bool:
    """`==` where a side is a list: what the comparison may go through charged, then compared."""
    weigh_sides(c, a, b, pos)
    return a == b


def list_in(c: Ctx, a: list, b: list, pos) -> bool:
    """`a in b` for a list `a`: comparing it with b's values goes through at most a's values
    and b's: both charged, then searched."""
    weigh(c, a, pos)
    weigh(c, b, pos)
    return a in b


def plain_value(value, what: str, pos, c: Ctx | None = None):
    """State holds plain data only: numbers, strings, true/false, none, and lists of them. With
    `c`, a list's values are charged to the work budget before it is copied."""
    if value is None or type(value) in (int, bool, str):
        return value
    if isinstance(value, list):
        if c is not None:
            weigh(c, value, pos)
        return [plain_value(v, what, pos) for v in value]
    raise RuleError(f"{what} can hold numbers, text, true/false or lists, not "
                    f"{_describe(value)}", pos)


def subsets_of(pool: list, pos) -> list:
    """The options of a choice among the subsets of a pool, refused past 12 items (4,096)."""
    if len(pool) > 12:
        raise RuleError(f"a choice among the subsets of {len(pool)} items has too many options "
                        "(at most 12 items)", pos)
    return all_subsets(pool)


def all_subsets(pool: list) -> list:
    """Every subset of a list (as lists, in the list's order), smallest first."""
    return [list(combo) for k in range(len(pool) + 1) for combo in combinations(pool, k)]


def _bounder(spec, pos):
    """Apply a counter's bounds: clamp (noting any excess above the maximum for `overflow of`
    triggers), or stop with an error naming the rule."""
    lo, hi, clamp, name = spec.min, spec.max, spec.overflow == "clamp", spec.name

    def bound(new, c, p):
        if type(new) is not int:
            raise RuleError(f"counter {name} holds whole numbers, not {_describe(new)}", pos)
        if not -MAX_INT <= new <= MAX_INT:  # as any number the rules compute
            raise RuleError(int_too_large(new), pos)
        if lo is not None and new < lo:
            if clamp:
                return lo
            raise Impossible(f"{name} would become {new}, below its minimum {lo}", pos)
        if hi is not None and new > hi:
            if clamp:
                c.eng.overflowed(name, p, new - hi)
                return hi
            raise Impossible(f"{name} would become {new}, above its maximum {hi}", pos)
        return new
    return bound
