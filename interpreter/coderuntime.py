"""The functions generated code may call (interpreter/codegen.py), one set per game.

Generated code does the common case itself (an item's field, int + int, a list indexed by a
whole number) and calls these functions for everything else: every check that gives a rule its
error (a whole number expected, a player expected, a key missing), every charge to the work
budget, every statement's work on the state, which say and do exactly what the closures of
interpreter/compile.py say and do. `runtime(prog, constants)` returns them as the globals of the
generated module, with the declared things it reads (`K`); nothing else is in scope there.
"""
from __future__ import annotations

import operator

from meeplang.dsl.errors import RuleError

from . import payments
from .compile import (_MISSING, Ctx, EndGame, EndTurn, Graph, PassTurn, _bounder, _pool,
                      arith_values, divide_values, index_value, need_container, need_int, need_items,
                      number_options, plain_value, plus_values, subsets_of, weigh,
                      weigh_sides, equal_lists, list_in)
from .functions import FUNCTIONS, call_error
from .state import FamilyRef, ZoneRef

_CONTROL = {"end turn": EndTurn, "pass": PassTurn, "end game": EndGame}
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def runtime(prog, constants: tuple = ()) -> dict:
    """The names a game's generated module may use: these functions, `Ctx`, the types it tests
    for (`ZoneRef`, `FamilyRef`, `int`, `bool`, `str`, `list`, `dict`), `type` and `len`, the declared things it reads (`K`, from (kind, name)), and `MISSING`; the loader adds
    the positions `P` and the closures `S`. Each function closes over the game's declarations."""
    game = prog.game
    counters, zones = game.counters, game.zones
    graphs = {name: Graph(name, adjacency) for name, adjacency in game.graphs.items()}
    families = {name: FamilyRef(name, None, z.keys) for name, z in zones.items()
                if z.keys is not None}
    families_of_counters = {name: spec for name, spec in counters.items() if spec.keys is not None}
    families_of_counters.update(game.track_families)
    members = {name: [(k, game.member(name, k)) for k in spec.keys]
               for name, spec in families_of_counters.items()}
    by_text = {name: {str(k): m for k, m in ms} for name, ms in members.items()}
    zone_ref = prog.zone_ref

    seats = range(game.max_players + (game.automa[1] if game.automa else 0))

    def seats_zones(name):
        """A per-player zone (or zone family) of each seat, indexed by the seat."""
        keys = zones[name].keys
        return tuple(zone_ref(name, p) if keys is None else FamilyRef(name, p, keys)
                     for p in seats)

    def zone_members(name):
        """The member zones of a zone family by key, for each owner (None: a shared family)."""
        z = zones[name]
        return {p: {k: zone_ref(name, p, k) for k in z.keys}
                for p in (seats if z.per_player else (None,))}

    declared = {"table": game.tables.__getitem__, "graph": graphs.__getitem__,
                "zone": lambda name: zone_ref(name, None), "family": families.__getitem__,
                "seats": seats_zones, "members": zone_members}

    def counter_family(c, name, per_player):
        """`accounts`: every member of a counter family, as {key: value}."""
        return {k: (c.s["players"][c.you] if per_player else c.s["counters"])[m]
                for k, m in members[name]}

    def players(c):
        return list(range(c.eng.n))

    def others(c):
        return [(c.you + i) % c.eng.n for i in range(1, c.eng.n)]

    def passers(c):
        return list(c.s["turn"]["passed"])

    def from_player(c, p, name, pos):
        if not 0 <= p < c.eng.n:
            raise RuleError(f"{p!r} is not a player, so it has no {name!r}", pos)
        counter, z = counters.get(name) or game.track_families.get(name), zones.get(name)
        if counter is not None and counter.per_player:
            if counter.keys is not None:
                h = c.s["players"][p]
                return {k: h[m] for k, m in members[name]}
            return c.s["players"][p][name]
        if z is not None and z.per_player:
            return zone_ref(name, p) if z.keys is None else FamilyRef(name, p, z.keys)
        raise RuleError(f"a player has no {name!r}", pos)

    def player_attr(c, p, name, pos):
        """`p.coins` where no item kind has the field: a player's things or a table row's."""
        if type(p) is dict and name in p:
            return p[name]
        if type(p) is not int:
            raise RuleError(f"{p!r} is not a player, so it has no {name!r}", pos)
        return from_player(c, p, name, pos)

    def field(c, x, name, pos):
        """`x.value`: an item's field, or a player's things, or a table row's entry."""
        if type(x) is str:
            data = c.s["items"].get(x)
            if data is not None and name in data:
                return data[name]
        if type(x) is int:
            return from_player(c, x, name, pos)
        if type(x) is dict:
            if name in x:
                return x[name]
            raise RuleError(f"this row has no {name!r}", pos)
        try:
            return c.s["items"][x][name]
        except (KeyError, TypeError):
            raise RuleError(f"{x!r} has no field {name!r}", pos) from None

    def seat(c, p, pos):
        if type(p) is not int or not 0 <= p < c.eng.n:
            raise RuleError(f"{p!r} is not a player", pos)
        return p

    def member_slot(c, name, k, who, pos, who_pos):
        """`accounts[a]`, `p.accounts[a]`: (holder, state key, member spec, seat or None); the
        key is read first, then whose (`who(c)`, None for yours)."""
        m = by_text[name].get(str(k))
        if m is None:
            raise RuleError(f"{name} has no key {k!r} (keys: {', '.join(by_text[name])})", pos)
        if not families_of_counters[name].per_player:
            return c.s["counters"], m, game.counter_spec(m), None
        p = c.you if who is None else seat(c, who(c), who_pos)
        return c.s["players"][p], m, game.counter_spec(m), p

    def member_value(c, name, k, who, pos, who_pos):
        h, m, _, _ = member_slot(c, name, k, who, pos, who_pos)
        return h[m]

    def counter_slot(c, name, p):
        """`coins` (p: yours or None), `p.coins`: a counter as a slot (see member_slot)."""
        return (c.s["counters"] if p is None else c.s["players"][p]), name, counters[name], p

    def funds(c, name, slot):
        fam = counters[name] if counters[name].keys is not None else None
        return payments.funds(c, fam, slot)

    def can(c, action, args):
        return c.eng.can(action, c.you, args)

    def can_value(c, value, args, pos):
        return bool(c.eng.value_options(Ctx(c.s, c.you, {}, c.eng), value, args or None, pos))

    def call(c, name, args, pos):
        """A built-in function; its arguments are computed inside, as the closures do, so a
        failure while computing them is reported at this call."""
        try:
            return FUNCTIONS[name](c, *args(c))
        except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError) as exc:
            raise call_error(name, exc, pos) from None

    def aggregate(c, name, values, pos, *args):
        """`sum(...)` of a comprehension: its function (`values(c, *args)`: a formula's
        arguments, if any) computed inside, so a failure there is reported at this call."""
        try:
            return FUNCTIONS[name](c, values(c, *args))
        except (ValueError, TypeError) as exc:
            raise call_error(name, exc, pos) from None

    def select(c, func, var, src, key, pos):
        v = c.v
        saved = v.get(var, _MISSING)
        keyed = []
        pool = need_items(c, src, f"what {func}() picks from", pos)
        c.eng.charge(len(pool), pos)
        for x in pool:
            v[var] = x
            keyed.append((key(c), x))
        _restore(v, var, saved)
        try:
            ordered = sorted(keyed, key=lambda kx: kx[0], reverse=func == "highest")
        except TypeError as exc:
            raise RuleError(f"{func}(): keys cannot be compared ({exc})", pos) from None
        if func == "sorted":
            return [x for _, x in ordered]
        return ordered[0][1] if ordered else None

    def slice_(items, a, b):
        return items[a:b]




    def compare(c, sides, op, pos):
        """`<`, `<=`, `>`, `>=`: both sides computed inside, so a TypeError while computing them
        is reported here, as the closures do."""
        try:
            a, b = sides(c)
            if type(a) is list or type(b) is list:
                weigh_sides(c, a, b, pos)
            return _ORDER[op](a, b)
        except TypeError as exc:
            raise RuleError(f"cannot compare: {exc}", pos) from None

    def otherwise(c, value, then):
        if value is None or (isinstance(value, (list, tuple)) and not value) or (
                type(value) is ZoneRef and not c.s["zones"][value.key]):
            return then(c)
        return value

    def call_now(c, name, args, pos):
        """A built-in whose arguments, computed by generated code, cannot fail but with a rule's
        error (codegen's `clean`): only the function itself runs under the error handling."""
        try:
            return FUNCTIONS[name](c, *args)
        except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError) as exc:
            raise call_error(name, exc, pos) from None

    def compare_values(c, a, b, op, pos):
        """`<`, `<=`, `>`, `>=` of two computed values that are not both ints (lists: what the
        comparison may go through charged, as the closure charges it)."""
        if type(a) is list or type(b) is list:
            weigh_sides(c, a, b, pos)
        try:
            return _ORDER[op](a, b)
        except TypeError as exc:
            raise RuleError(f"cannot compare: {exc}", pos) from None

    def charge(c, n, pos):
        """A comprehension's pool charged to the work budget, as the closures charge it."""
        eng = c.eng
        eng.steps += n
        if eng.steps > eng.limit:  # the budget, or the stretch without a decision
            eng.tick(pos)

    def each_pool(c, value, pos):
        """What a `for each` that never asks goes through: a zone copied, a list checked."""
        if type(value) is ZoneRef:
            return list(c.s["zones"][value.key])
        return need_items(c, value, "what `for each` goes through", pos)

    def repeats(n, pos):
        n = need_int(n, "the number of repeats", pos)
        if n < 0:
            raise RuleError(f"cannot repeat a negative number of times ({n})", pos)
        return range(n)

    def move(c, x, z, at_top, pos, gravity):
        if type(z) is not ZoneRef:
            raise RuleError(f"{z!r} is not a zone", pos)
        if type(x) is str:  # one item, the usual case
            c.eng.move_item(x, z, at_top, pos, gravity)
            return
        if type(x) is list:  # as the closure: what moving goes through, charged
            weigh(c, x, pos)
        for one in (x if isinstance(x, list) else [x]):
            c.eng.move_item(one, z, at_top, pos, gravity)

    def bound(c, name, new, p, pos):
        """A counter's new value that is not a whole number within its bounds: clamped (and the
        excess noted for `overflow of`), or the error, by compile's own bounder."""
        return _bounder(counters[name], pos)(new, c, p)

    def item_data(c, x, name, pos):
        """The item whose field `set` changes (as compile._item_field_setter)."""
        data = c.s["items"].get(x) if isinstance(x, str) else None
        if data is None:
            raise RuleError(f"{x!r} is not an item, so its {name!r} cannot be set", pos)
        return data

    def set_field(c, data, name, value, pos):
        value = plain_value(value, f"field {name}", pos, c)
        eng = c.eng
        if eng.rehearsing:  # the rehearsal puts it back (rehearsal.py)
            eng.field_undo.append((data, name, data.get(name, _MISSING)))
        data[name] = value

    def negative(c, verb, name, n, pos):
        raise RuleError(f"cannot {verb} a negative amount ({n} {name})", pos)

    def control(c, what, pos):
        """`end turn`, `pass`, `end game`: as compile.s_ControlStmt."""
        if what == "pass":
            passed = c.s["turn"]["passed"]
            if c.you not in passed:
                passed.append(c.you)
        if what == "end game" and c.eng.record:
            c.eng.events.append({"event": "end game", "at": f"{pos.path}:{pos.line}"})
        raise _CONTROL[what](what, pos)

    helpers = (counter_family, players, others, passers, player_attr, field,
               member_slot, member_value, counter_slot, funds, can, can_value, call, call_now,
               aggregate, select, slice_, compare, compare_values,
               otherwise, seat, need_int, need_items, need_container, charge, each_pool, repeats,
               move, control, bound, negative, item_data, set_field)
    return {"Ctx": Ctx, "ZoneRef": ZoneRef, "FamilyRef": FamilyRef, "int": int, "bool": bool, "str": str, "list": list, "dict": dict,
            "type": type, "len": len, "MISSING": _MISSING,
            "pool": _pool,
            "number_options": number_options, "subsets_of": subsets_of,
            "equal_lists": equal_lists, "list_in": list_in,
            "index": index_value, "divide": divide_values, "plus": plus_values, "arith": arith_values,
            "K": tuple(declared[kind](name) for kind, name in constants),
            **{f.__name__: f for f in helpers}}


def _restore(v: dict, var: str, saved) -> None:
    if saved is _MISSING:
        v.pop(var, None)
    else:
        v[var] = saved
