"""The built-in functions of the language (signatures in `meeplang.dsl.builtins`).

Each takes the context first, then evaluated arguments; zones arrive as ZoneRef and are read from
the state.
"""
from __future__ import annotations

from meeplang.dsl.errors import RuleError

from .state import FamilyRef, ZoneRef, zone_key


def family_items(c, fam: FamilyRef) -> list:
    keys = fam.member_keys
    if keys is None:
        keys = fam.member_keys = tuple(zone_key(fam.name, fam.owner, k) for k in fam.keys)
    zones = c.s["zones"]
    return [x for key in keys for x in zones[key]]


def items_of(c, value) -> list:
    """A zone or list as a fresh list (safe to iterate while the zone changes), its length charged
    to the step budget: whoever asks for it goes through it."""
    if type(value) is ZoneRef:
        out = list(c.s["zones"][value.key])
    elif type(value) is FamilyRef:
        out = family_items(c, value)
    elif isinstance(value, (list, tuple)):
        out = list(value)
    elif isinstance(value, dict):
        out = list(value.values())
    else:
        raise TypeError(f"expected a zone or a list, got {value!r}")
    eng = c.eng  # work(c, len(out)), inline: this runs at every zone read
    eng.steps += len(out)
    if eng.steps > eng.limit:
        work(c, 0)
    return out


def work(c, n: int) -> None:
    """Charge `n` values gone through or built to the step budget (as a ValueError: the call that
    did it reports it at its position)."""
    eng = c.eng
    eng.steps += n
    if eng.steps > eng.limit:
        raise ValueError(eng.over_limit())


def _seq(c, value):
    if type(value) is ZoneRef:
        return c.s["zones"][value.key]
    if type(value) is FamilyRef:
        return family_items(c, value)
    return value


def f_count(c, x):
    return len(_seq(c, x))


def f_empty(c, x):
    return len(_seq(c, x)) == 0


def f_capacity(c, zone):
    return c.eng.zone_capacity(zone)


def f_full(c, zone):
    cap = c.eng.zone_capacity(zone)
    return cap is not None and len(c.s["zones"][zone.key]) >= cap


def _end(c, x, n, front: bool):
    seq = _seq(c, x)
    if n is None:
        if not seq:
            return None
        return seq[0] if front else seq[-1]
    if n < 0:
        raise ValueError(f"cannot take {n} items")
    return list(seq[:n]) if front else list(seq[len(seq) - n:][::-1]) if n else []


def f_top(c, x, n=None):
    return _end(c, x, n, True)


def f_bottom(c, x, n=None):
    return _end(c, x, n, False)


def f_first(c, x):
    return _end(c, x, None, True)


def f_last(c, x):
    return _end(c, x, None, False)


_NO_DEFAULT = object()


def _numbers(c, args):
    """`max(a, b, ...)` compares its arguments; `max(L)` the values of a list; `max(L, d)` too,
    with d for an empty list."""
    if len(args) in (1, 2) and not isinstance(args[0], (int, bool)):
        return items_of(c, args[0]), (args[1] if len(args) == 2 else _NO_DEFAULT)
    return list(args), _NO_DEFAULT


def f_max(c, *args):
    values, default = _numbers(c, args)
    if not values:
        if default is _NO_DEFAULT:
            raise ValueError("max() of nothing (give a default: max(L, 0))")
        return default
    return max(values)


def f_min(c, *args):
    values, default = _numbers(c, args)
    if not values:
        if default is _NO_DEFAULT:
            raise ValueError("min() of nothing (give a default: min(L, 0))")
        return default
    return min(values)


def _multiset(c, x) -> dict:
    counts: dict = {}
    for v in items_of(c, x):
        counts[v] = counts.get(v, 0) + 1
    return counts


def f_contains(c, whole, part):
    """Does a list hold every value of another, as many times (multisets)?"""
    have = _multiset(c, whole)
    return all(have.get(v, 0) >= n for v, n in _multiset(c, part).items())


def f_fits_groups(c, values, sizes):
    """Can groups of these sizes be taken from the values, each group of one value and no two
    groups of the same value (a free combination `2-1` or `1-1-1`)? The largest groups take the
    most common values: that succeeds whenever any assignment does."""
    counts = sorted(_multiset(c, values).values(), reverse=True)
    wanted = sorted(items_of(c, sizes), reverse=True)
    return len(wanted) <= len(counts) and all(w <= n for w, n in zip(wanted, counts))


def f_home(c, item):
    """The zone an item was made in at setup (its owner's, for a player's item)."""
    data = c.s["items"].get(item) if isinstance(item, str) else None
    if data is None:
        raise ValueError(f"{item!r} is not an item")
    spec = c.eng.game.items[data["kind"]]
    zone = spec.zone if spec.zone_field is None else str(data.get(spec.zone_field))
    return c.eng.prog.zone_ref(zone, data["owner"])


def f_sum(c, x):
    return sum(items_of(c, x))


def f_any(c, x):
    return any(items_of(c, x))


def f_all(c, x):
    return all(items_of(c, x))


def f_abs(c, x):
    return abs(x)


def f_clamp(c, x, lo, hi):
    if lo > hi:
        raise ValueError(f"the lower bound {lo} is above the upper bound {hi}")
    return max(lo, min(hi, x))


def f_range(c, lo, hi):
    if hi - lo > 100_000:
        raise ValueError(f"range({lo}, {hi}) is too large")
    work(c, max(hi - lo + 1, 0))
    return list(range(lo, hi + 1))


def f_left(c, p):
    return (p + 1) % c.eng.n


def f_right(c, p):
    return (p - 1) % c.eng.n


def f_passed(c, p):
    return p in c.s["turn"]["passed"]


def f_position(c, item):
    key = c.s["loc"].get(item)
    if key is None:
        raise ValueError(f"{item!r} is not in any zone")
    return c.s["zones"][key].index(item) + 1


def f_owner(c, item):
    return c.s["items"][item]["owner"]


def f_by_players(c, table):
    n = c.eng.n
    if isinstance(table, dict):
        for key in (n, str(n)):
            if key in table:
                return table[key]
    raise ValueError(f"the table has no entry for {n} players")


def f_players_from(c, p):
    n = c.eng.n
    return [(p + i) % n for i in range(n)]


def _cell(c, item):
    cell = c.s["cells"].get(item)
    if cell is None:
        raise ValueError(f"{item!r} is not on a grid")
    return cell


def f_row(c, item):
    return _cell(c, item)[0]


def f_column(c, item):
    return _cell(c, item)[1]


def f_at(c, zone, row, column):
    for item in c.s["zones"][zone.key]:
        if c.s["cells"].get(item) == [row, column]:
            return item
    return None


def f_uses(c, action, per=None):
    """Uses of an action in the period of its limit `per` (default: its first limit's)."""
    ca = c.eng.prog.actions.get(action)
    if ca is None:
        raise ValueError(f"no action named {action!r}")
    key = action
    if per is not None:
        keys = [k for k, _, lim in ca.limits if lim.per == per]
        if not keys:
            raise ValueError(f"{action} has no limit per {per} (its limits are per "
                             f"{', '.join(lim.per for _, _, lim in ca.limits) or 'nothing'})")
        key = keys[0]
    counts = c.s["uses"].get(key)
    return 0 if counts is None else counts[c.you]


def f_is_automa(c, p):
    return p >= c.eng.humans


def f_subsets(c, x):
    from .compile import all_subsets

    pool = items_of(c, x)
    if len(pool) > 12:
        raise ValueError(f"too many subsets of {len(pool)} items")
    return all_subsets(pool)


def _graph(g):
    from .compile import Graph

    if type(g) is not Graph:
        raise ValueError(f"{g!r} is not a graph")
    return g.adjacency


def _node(adj, x):
    if x not in adj:
        raise ValueError(f"{x!r} is not a node of the graph")
    return x


def f_neighbours(c, g, x):
    adj = _graph(g)
    return list(adj[_node(adj, x)])


def _distances(adj, start, limit, blocked) -> dict:
    """Breadth-first steps from start, never entering blocked nodes (the start is allowed)."""
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for x in frontier:
            if limit is not None and seen[x] >= limit:
                continue
            for y in adj[x]:
                if y not in seen and y not in blocked:
                    seen[y] = seen[x] + 1
                    nxt.append(y)
        frontier = nxt
    return seen


def f_steps_between(c, g, a, b, blocked=()):
    adj = _graph(g)
    return _distances(adj, _node(adj, a), None, set(items_of(c, blocked)) - {b}).get(
        _node(adj, b))


def f_within(c, g, x, n, blocked=()):
    adj = _graph(g)
    if n < 0:
        raise ValueError(f"cannot go {n} steps")
    reached = _distances(adj, _node(adj, x), n, set(items_of(c, blocked)))
    return [y for y in adj if y in reached and y != x]


FUNCTIONS = {name[2:]: fn for name, fn in globals().items() if name.startswith("f_")}


def call_error(name: str, exc: Exception, pos) -> RuleError:
    """A built-in's failure at the call; Python's own wording about types is not for players."""
    text = str(exc)
    if isinstance(exc, TypeError) and ("operand" in text or "not supported between" in text or
                                       "argument" in text or "object" in text):
        text = "these values cannot be used here (numbers, lists or zones of the right kind)"
    return RuleError(f"{name}(): {text}", pos)
