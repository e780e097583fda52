"""The engine runs a compiled game and stops at every Decision.

    eng = Engine(game, players=3, seed=1)
    d = eng.start()
    while d is not None:
        d = eng.choose(index)        # an index into d.options
    eng.result                      # {"scores": [...], "winners": [...], ...}

All randomness comes from one seeded RNG owned by the engine; agents have their own. So a game is
a pure function of (rules, options, players, seed, choices): replaying the choices reproduces the
game exactly, which is how logs are replayed, saves are loaded and the greedy agent looks ahead.
"""
from __future__ import annotations

import random
from typing import Any

from dsl.errors import RuleError, UsageError
from dsl.model import Game, member_name

from . import state as st
from .compile import (Ctx, EndGame, EndTurn, PassTurn, compiled, need_int, need_items,
                      plain_value)
from .decisions import ActionOption, Decision, label

DEFAULT_STEP_BUDGET = 2_000_000
_NO_USES = [0] * 64


def pos_of(why: str):
    """A decision's `why` (`path:line:col` of the asking rule) back as a position."""
    from dsl.errors import Pos

    path, _, rest = why.rpartition(":")
    path, _, line = path.rpartition(":")
    if line.isdigit() and rest.isdigit():
        return Pos(path, int(line), int(rest))
    return None


def _copy_state(state: dict) -> dict:
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
    return out
SKIP = ActionOption("skip")  # the option to decline a `may do`
END_TURN = ActionOption("end turn")  # after the last main action, when free actions go on
DEFAULT_TRIGGER_DEPTH = 32
MAX_ITEMS = 100_000


def resolve_options(game: Game, given: dict | None) -> dict:
    """The game's option defaults, overridden by `given`, checked against their bounds."""
    opts = {name: o.default for name, o in game.options.items()}
    for name, value in (given or {}).items():
        if name not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise UsageError(f"game {game.name!r} has no option {name!r} (options: {known})")
        spec = game.options[name]
        if isinstance(spec.default, bool) and isinstance(value, str):
            value = value.lower() in ("1", "true", "yes", "on")
        elif isinstance(spec.default, int) and isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise UsageError(f"option {name} takes a whole number, not {value!r}") from None
        if isinstance(value, int) and not isinstance(value, bool):
            if spec.min is not None and value < spec.min or spec.max is not None and value > spec.max:
                raise UsageError(f"option {name}={value} is outside {spec.min}..{spec.max}")
        opts[name] = value
    return opts


class Engine:
    # `players` and `index` carry no annotation: they are checked here, with a usage error, and a
    # compiled build (interpreter/native.py) would otherwise refuse a wrong type with a TypeError.
    def __init__(self, game: Game, players, seed: int = 0, options: dict | None = None,
                 step_budget: int = DEFAULT_STEP_BUDGET, trigger_depth: int = DEFAULT_TRIGGER_DEPTH,
                 record: bool = True):
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise UsageError(f"{game.name}{':' + game.variant if game.variant else ''} is for "
                             f"{game.min_players}-{game.max_players} players, not {players}")
        # seats: the human (agent-played) seats first, then any automa seats played by the rules
        self.humans = players
        self.n = players + (game.automa[1] if game.automa else 0)
        self.game, self.seed = game, seed
        self.opts = resolve_options(game, options)
        self.options_given = dict(options or {})
        self.rng = random.Random(seed)
        self.prog = compiled(game)
        self.budget, self.max_depth, self.record = step_budget, trigger_depth, record
        self.steps = 0
        self.turns_taken = 0  # turns of `turns` steps, for the length of a game
        self.depth = 0
        self.windows: list = []
        self.events: list = []
        self.choices: list[int] = []
        self.choosers: list[int] = []  # who made each choice
        self.decision: Any = None  # the Decision waiting for a choice, None when over
        self.result: dict | None = None
        self._trig_cache: dict = {}
        self.secret_mark: int | None = None  # choices index where a secret choice round began
        self.pending: list = []  # (counter, seat, excess) overflows waiting for their triggers
        self.watching = bool(self.prog.watch)  # are there `as soon as` triggers to check?
        self.pending_now: list = []  # overflows whose triggers run right after the statement
        self.watching_now = bool(self.prog.watch_now)
        self.state: dict = {"counters": {}, "players": [{} for _ in range(self.n)], "zones": {},
                            "loc": {}, "items": {}, "cells": {}, "uses": {}, "fired": [], "soon": {},
                            "turn": {"player": 0, "passed": []}, "phase": None}
        self._gen: Any = None

    # ------------------------------------------------------------ driving
    def start(self) -> Decision | None:
        self._gen = self._main()
        return self._advance(None)

    def choose(self, index) -> Decision | None:
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise UsageError(f"option {index!r} is not legal here: choose 0 to {len(d.options) - 1} "
                             f"({', '.join(d.labels)})")
        value = d.options[index]
        self.choices.append(index)
        self.choosers.append(d.player)
        if self.record:
            self.events.append({"event": "decision", "player": d.player, "kind": d.kind,
                                "choice": index, "option": label(value), "at": d.why})
        return self._advance(value)

    def choose_label(self, text: str) -> Decision | None:
        """Choose by the option's label; an illegal choice is refused with its reason."""
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        if text in d.labels:
            return self.choose(d.labels.index(text))
        raise UsageError(self.why_illegal(text))

    def why_illegal(self, text: str) -> str:
        d = self.decision
        name = text.split()[0] if text.split() else text
        ca = self.prog.actions.get(name)
        legal = ", ".join(d.labels)
        if ca is not None and d.kind == "action":
            for key, times, lim in ca.limits:
                c = Ctx(self.state, d.player, {}, self)
                used, most = self.state["uses"].get(key, _NO_USES)[d.player], times(c)
                if used >= most:
                    period = {"game": "this game", "turn": "this turn"}.get(lim.per,
                                                                            f"this {lim.per}")
                    by = " by all players together" if lim.shared else ""
                    return (f"{name} is not allowed now: it was used {used} times {period}{by} "
                            f"(at most {most}); legal: {legal}")
            if ca.requires is not None and ca.param is None:
                c = Ctx(self.state, d.player, {}, self)
                if ca.can_pay is not None and not ca.can_pay(c):
                    return (f"{name} is not allowed now: its cost ({ca.action.cost.pos}) is more "
                            f"than can be paid; legal: {legal}")
                if not ca.requires(c):
                    req = ca.action.requires
                    from dsl.ast import expr_source
                    return (f"{name} is not allowed now: it requires {expr_source(req)} "
                            f"({req.pos}), which is false; legal: {legal}")
            return f"{text!r} is not a legal way to {name} now; legal: {legal}"
        return f"{text!r} is not one of the options; legal: {legal}"

    def _advance(self, value) -> Decision | None:
        try:
            d = self._gen.send(value)
            while d.player >= self.humans:  # an automa seat: its policy or its only option
                index = self._automa_choice(d)
                if self.record:
                    self.events.append({"event": "automa", "player": d.player, "kind": d.kind,
                                        "option": d.labels[index], "at": d.why})
                d = self._gen.send(d.options[index])
            self.decision = d
        except StopIteration:
            self.decision = None
        except RecursionError:
            where = pos_of(self.decision.why) if self.decision is not None else None
            raise RuleError("the rules nest too deeply after this decision (expressions or "
                            "actions calling themselves?)", where) from None
        return self.decision

    def _automa_choice(self, d: Decision) -> int:
        """An automa decides by its `decide:` policy for this decision, else by its only option."""
        policy = self.prog.policies.get(d.name)
        if policy is None:
            if len(d.options) != 1:
                raise RuleError(
                    f"the automa (seat {d.player}) has {len(d.options)} options here "
                    f"({', '.join(d.labels[:6])}): its rules must leave exactly one, or give it a "
                    f"policy `automa: decide: {{{d.name}: ...}}`", pos_of(d.why))
            return 0
        fn, expr = policy
        values = [o.value if isinstance(o, ActionOption) and o is not SKIP else o
                  for o in d.options]
        local = dict(d.ctx.v) if d.ctx is not None else {}
        local["options"] = [v for v in values if v is not SKIP]
        answer = fn(Ctx(self.state, d.player, local, self))
        if d.kind.startswith("may ") and isinstance(answer, bool):
            return next(i for i, o in enumerate(d.options) if (o is SKIP) != answer)
        for i, v in enumerate(values):
            if v is not SKIP and v == answer:
                return i
        raise RuleError(f"the automa's policy for {d.name!r} chose {answer!r}, which is not one "
                        f"of the options ({', '.join(d.labels[:8])})", expr.pos)

    @property
    def over(self) -> bool:
        return self.result is not None

    def view(self, player: int | None) -> dict:
        return st.view(self.state, self.game, player)

    def event(self, record: dict) -> None:
        if self.record:
            self.events.append(record)

    def tick(self, pos) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise RuleError(f"step budget of {self.budget} exceeded: does a rule loop forever? "
                            "(stopped here)", pos)

    # ------------------------------------------------------------ the game
    def _main(self):
        s, prog = self.state, self.prog
        c = Ctx(s, 0, {}, self)
        key = (self.n, self.humans, tuple(sorted(self.opts.items())))
        template = prog.initial_states.get(key)
        if template is None:
            self._make_components()
            prog.initial_states[key] = _copy_state(s)
        else:  # components depend only on seats and options: copy them instead of remaking
            s.update(_copy_state(template))
        if self.record:
            self.events.append({"event": "start", "players": self.n, "seed": self.seed})
        try:
            yield from prog.setup(c)
            if self.pending or self.watching:  # what setup made true counts too
                yield from self.flush(c)
            yield from prog.flow(c)
        except EndGame:
            pass
        except EndTurn as exc:
            what, pos = (exc.args + (None, None))[:2]
            raise RuleError(f"`{what}` outside of a turn", pos) from None
        self._finish()

    def _make_components(self) -> None:
        """Counters at their initial values, zones, and every item in its starting zone."""
        s, n, prog, game = self.state, self.n, self.prog, self.game
        for name, spec in game.counters.items():
            holders = [(s["players"][p], p) for p in range(n)] if spec.per_player else [
                (s["counters"], 0)]
            members = [(name, {})] if spec.keys is None else [
                (member_name(name, k), {"key": k}) for k in spec.keys]
            for holder, p in holders:
                for key, local in members:
                    value = prog.counter_init[name](Ctx(s, p, local, self))
                    if type(value) is not int:
                        raise RuleError(f"counter {key} starts at a whole number, not {value!r}",
                                        spec.pos)
                    holder[key] = value
        for name, spec in game.zones.items():
            for owner in (range(n) if spec.per_player else [None]):
                for member in (spec.keys if spec.keys is not None else [None]):
                    s["zones"][st.zone_key(name, owner, member)] = []
        for kind, spec in game.items.items():
            rows = game.tables[spec.source_table] if spec.source_table else None
            for owner in (range(n) if spec.per_player else [None]):
                kc = Ctx(s, owner if owner is not None else 0, {}, self)
                count = len(rows) if rows is not None else prog.item_count[kind](kc)
                if type(count) is not int or count < 0:
                    raise RuleError(f"items {kind}: count must be a whole number >= 0, got {count!r}",
                                    spec.pos)
                if len(s["items"]) + count > MAX_ITEMS:
                    raise RuleError(f"items {kind}: a game may have at most {MAX_ITEMS} items "
                                    f"(this would make {len(s['items']) + count})", spec.pos)
                for i in range(1, count + 1):
                    item = f"{kind}#{i}" if owner is None else f"{kind}#{owner}.{i}"
                    kc.v["n"] = i
                    data = {"kind": kind, "owner": owner}
                    if rows is not None:
                        data.update(rows[i - 1])
                    for field, fn in prog.item_fields[kind]:
                        data[field] = plain_value(fn(kc), f"field {field} of {kind}", spec.pos)
                    zone = spec.zone if spec.zone_field is None else str(data.get(spec.zone_field))
                    ref = prog.zone_ref(zone, owner)
                    s["items"][item] = data
                    self._enter(item, ref, False, spec.pos)

    def _finish(self):
        s, n, prog = self.state, self.n, self.prog
        ctxs = [Ctx(s, p, {}, self) for p in range(n)]
        scoring = self.game.scoring
        pos = getattr(scoring.score, "pos", scoring.pos)
        scores = [need_int(prog.score(c), "a score", pos) for c in ctxs]
        tbs = [[need_int(tb(c), "a tie-break", e.pos) for tb, e in zip(prog.tie_breaks,
                                                                     scoring.tie_break)]
               for c in ctxs]
        if prog.winners is not None:
            pos = getattr(scoring.winners, "pos", scoring.pos)
            chosen = need_items(ctxs[0], prog.winners(ctxs[0]), "the winners", pos)
            winners = sorted({need_int(w, "a winner", pos) for w in chosen})
            if any(not 0 <= w < n for w in winners):
                raise RuleError(f"the winners must be seats from 0 to {n - 1}, got {winners}", pos)
        else:
            keys = [(scores[p], *tbs[p]) for p in range(n)]
            best = max(keys)
            winners = [p for p in range(n) if keys[p] == best]
        self.result = {"scores": scores, "winners": winners, "tie_breaks": tbs}
        if self.record:
            self.events.append({"event": "end", "scores": scores, "winners": winners,
                                "state": st.state_hash(s)})

    # ------------------------------------------------------------ services for compiled rules
    def zone_capacity(self, ref):
        """How many items the zone holds at most, or None: `capacity:` (`none` is no limit),
        else a grid's number of cells."""
        cap_fn = self.prog.capacity.get(ref.name)
        if cap_fn is None:
            grid = self.game.zones[ref.name].grid
            return None if grid is None else grid[0] * grid[1]
        local = {"key": ref.member} if ref.member is not None else {}
        cap = cap_fn(Ctx(self.state, ref.owner or 0, local, self))
        if cap is None:
            return None
        if type(cap) is not int:
            raise RuleError(f"the capacity of zone {ref.key} must be a whole number or none, "
                            f"not {cap!r}", self.game.zones[ref.name].pos)
        return cap

    def _check_capacity(self, ref, pos, extra: int):
        if ref.name not in self.prog.capacity:
            return  # a grid checks its cells itself
        cap = self.zone_capacity(ref)
        if cap is not None and len(self.state["zones"][ref.key]) + extra > cap:
            raise RuleError(f"zone {ref.key} is full (capacity {cap})", pos)

    def move_item(self, item, ref, at_top: bool, pos, gravity: bool = True) -> None:
        s = self.state
        loc = s["loc"]
        key = loc.get(item) if type(item) is str else None
        if key is None:
            what = "nothing (an empty zone?)" if item is None else repr(item)
            raise RuleError(f"cannot move {what}: not an item", pos)
        zones = s["zones"]
        if key == ref.key:
            zones[key].remove(item)
            zones[key].insert(0, item) if at_top else zones[key].append(item)
            return
        if ref.name in self.prog.plain_zones and item not in s["cells"]:
            # the common case: between zones with no grid and no capacity
            zones[key].remove(item)
            dest = zones[ref.key]
            dest.insert(0, item) if at_top else dest.append(item)
            loc[item] = ref.key
            return
        self._leave(item, key, gravity)
        self._enter(item, ref, at_top, pos)

    def move_to_position(self, item, ref, n: int, pos, gravity: bool = True) -> None:
        """`move ITEM to ZONE at position N`: afterwards the item is the Nth of the zone (1 =
        top), the items from there on one place further."""
        if self.game.zones[ref.name].grid is not None:
            raise RuleError(f"{ref.key} is a grid: its items are on cells (`place ... at R, C`), "
                            "not at positions", pos)
        dest = self.state["zones"][ref.key]
        size = len(dest) + (0 if self.state["loc"].get(item) == ref.key else 1)
        if not 1 <= n <= size:
            raise RuleError(f"position {n} is outside {ref.key}, which will hold {size} "
                            f"item{'s' if size != 1 else ''} (positions 1 to {size})", pos)
        self.move_item(item, ref, False, pos, gravity)
        dest.remove(item)
        dest.insert(n - 1, item)

    def _leave(self, item, key, gravity: bool = True) -> None:
        s = self.state
        s["zones"][key].remove(item)
        del s["loc"][item]
        cell = s["cells"].pop(item, None)
        if cell is not None and gravity:
            self._gravity(key, cell)

    def _enter(self, item, ref, at_top: bool, pos, cell=None) -> None:
        s = self.state
        zone = self.game.zones[ref.name]
        if zone.grid is not None:
            rows, cols = zone.grid
            taken = {tuple(s["cells"][x]) for x in s["zones"][ref.key]}
            if cell is None:
                free = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)
                        if (r, c) not in taken]
                if not free:
                    raise RuleError(f"grid {ref.key} has no free cell", pos)
                cell = free[0]
            elif not (1 <= cell[0] <= rows and 1 <= cell[1] <= cols):
                raise RuleError(f"cell {cell[0]}, {cell[1]} is outside grid {ref.key} "
                                f"({rows} rows, {cols} columns)", pos)
            elif tuple(cell) in taken:
                raise RuleError(f"cell {cell[0]}, {cell[1]} of {ref.key} is taken", pos)
            s["cells"][item] = [cell[0], cell[1]]
            s["zones"][ref.key].append(item)
            self._sort_grid(ref.key)
        else:
            self._check_capacity(ref, pos, 1)
            s["zones"][ref.key].insert(0, item) if at_top else s["zones"][ref.key].append(item)
        s["loc"][item] = ref.key

    def place_item(self, item, ref, row, column, pos) -> None:
        """`place X on GRID at row, column`."""
        s = self.state
        if self.game.zones[ref.name].grid is None:
            raise RuleError(f"zone {ref.key} is not a grid", pos)
        key = s["loc"].get(item) if isinstance(item, str) else None
        if key is None:
            raise RuleError(f"cannot place {item!r}: not an item", pos)
        self._leave(item, key)
        self._enter(item, ref, False, pos, (row, column))

    def _sort_grid(self, key) -> None:
        cells = self.state["cells"]
        self.state["zones"][key].sort(key=lambda x: cells[x])

    def _gravity(self, key, emptied) -> None:
        """After an item leaves a grid cell: `rows` gravity drops every row above an emptied row
        by one; `columns` gravity lets the items above the cell fall into it."""
        mode = self.game.zones[st.zone_name(key)].gravity
        cells, items = self.state["cells"], self.state["zones"][key]
        row, col = emptied
        if mode == "rows":
            if any(cells[x][0] == row for x in items):
                return
            for x in items:
                if cells[x][0] < row:
                    cells[x][0] += 1
        elif mode == "columns":
            for x in items:
                if cells[x][1] == col and cells[x][0] < row:
                    cells[x][0] += 1
        else:
            return
        self._sort_grid(key)

    def triggers_for(self, event: str, target: str | None) -> list:
        key = (event, target)
        hit = self._trig_cache.get(key)
        if hit is None:
            t = self.prog.triggers
            hit = t.get(key, []) + (t.get((event, None), []) if target is not None else [])
            self._trig_cache[key] = hit
        return hit

    def fire(self, event: str, target: str | None, c: Ctx):
        return self._fire(self.triggers_for(event, target), event, target, c)

    def _action_locals(self, name: str, c: Ctx) -> dict:
        """What before/after ACTION triggers see: `action`, its arguments and its choice."""
        out = {"action": name}
        ca = self.prog.actions.get(name)
        if ca is not None:
            for arg in ca.arg_names:
                if arg in c.v:
                    out[arg] = c.v[arg]
        return out

    def overflowed(self, counter: str, seat: int | None, excess: int) -> None:
        """A clamped counter went past its maximum: its `overflow of` triggers run at the next
        safe point (the end of the running action, step or trigger)."""
        triggers = self.triggers_for("overflow", counter)
        if any(t[0].immediate for t in triggers):
            self.pending_now.append((counter, seat, excess))
        if any(not t[0].immediate for t in triggers):
            self.pending.append((counter, seat, excess))

    def flush(self, c: Ctx):
        """At a safe point (end of an action, step or trigger): run waiting overflow triggers,
        then `as soon as` triggers whose condition has become true since the last check."""
        yield from self._flush(c, self.pending, False, self.prog.watch)

    def flush_now(self, c: Ctx):
        """Right after a statement: the same for triggers with `timing: immediately`."""
        yield from self._flush(c, self.pending_now, True, self.prog.watch_now)

    def _flush(self, c: Ctx, pending: list, immediate: bool, watch: list):
        while pending:
            counter, seat, excess = pending.pop(0)
            tc = Ctx(self.state, c.you if seat is None else seat, {"excess": excess}, self)
            triggers = [t for t in self.triggers_for("overflow", counter)
                        if t[0].immediate == immediate]
            yield from self._fire(triggers, "overflow", counter, tc)
        if not watch:
            return
        last = self.state["soon"]
        for _ in range(self.max_depth):
            fired = False
            for trig, cond, effect, per_seat in watch:
                seats = [(c.you + i) % self.n for i in range(self.n)] if per_seat else [None]
                for seat in seats:  # per seat: the current player first, then clockwise
                    sc = c if seat is None else Ctx(self.state, seat, {}, self)
                    key = trig.name if seat is None else f"{trig.name}@{seat}"
                    now = bool(cond(Ctx(self.state, sc.you, {}, self)))
                    was = last.get(key, False)
                    last[key] = now
                    if now and not was:
                        fired = True
                        yield from self._fire([(trig, None, effect, None)], "as_soon_as", None, sc,
                                              seat)
            if not fired:
                return
        raise RuleError("`as soon as` triggers keep setting each other off", self.prog.watch[0][0].pos)

    def _fire(self, triggers, event: str, target: str | None, c: Ctx, seat=None):
        """`seat`: an `as soon as` watched for each seat, whose `once` is once per seat."""
        for trig, cond, effect, _ in triggers:
            once_key = trig.name if seat is None else f"{trig.name}@{seat}"
            if trig.once and once_key in self.state["fired"]:
                continue
            if event == "overflow":
                tc = Ctx(c.s, c.you, dict(c.v), self)
            elif event.endswith("_action"):
                tc = Ctx(c.s, c.you, self._action_locals(target, c), self)  # type: ignore[arg-type]
            else:
                tc = Ctx(c.s, c.you, {}, self)
            if cond is not None and not cond(tc):
                continue
            self.depth += 1
            if self.depth > self.max_depth:
                raise RuleError(f"trigger {trig.name!r} nested more than {self.max_depth} deep: "
                                "do triggers set each other off?", trig.pos)
            if trig.once:
                self.state["fired"].append(once_key)
            forced = event in ("overflow", "as_soon_as")
            if forced:  # what such a trigger asks is forced: no free actions beside it
                self.windows.append((None, ()))
            try:
                if self.record:
                    self.events.append({"event": "trigger", "trigger": trig.name,
                                        "player": tc.you, "at": str(trig.pos)})
                yield from effect(tc)
                if self.pending:
                    yield from self.flush(tc)
            finally:
                self.depth -= 1
                if forced:
                    self.windows.pop()

    def free_window(self, player: int) -> tuple:
        """The free actions open to `player` at a decision now: the innermost window that applies
        (a turn's window is its player's; a phase's is every human's; a forced trigger closes all)."""
        if player >= self.humans:
            return ()
        for who, free in self.windows[::-1]:  # innermost first
            if who is None:
                return ()
            if (who == player or who == "all") and free:
                return free
        return ()

    def ask(self, player: int, kind: str, options: list, why: str, remake, secret: bool = False,
            ctx: Ctx | None = None):
        """Ask `player` to choose among `options`; the free actions open to them are offered too.
        `ctx` is the asking rule's context (an automa's policy may read its variables)."""
        while True:
            extra = []
            free = self.free_window(player) if self.windows else ()
            if free:
                extra = self.action_options(Ctx(self.state, player, {}, self), free, True)
            d = Decision(player, kind, options + extra if extra else options, why, secret)
            d.ctx = ctx
            value = yield d
            if extra and isinstance(value, ActionOption) and value.free:
                yield from self.run_free(value, player)
                options = remake() if remake is not None else options
                if not options:
                    raise RuleError(f"after a free action nothing is left to choose ({kind})",
                                    pos_of(why))
                continue
            return value

    def action_options(self, c: Ctx, names, free: bool, args: dict | None = None) -> list:
        """The legal ways to take these actions now (with `args` bound for `do ... with`)."""
        out = []
        actions = self.prog.actions
        uses = self.state["uses"]
        for name in names:
            ca = actions[name]
            if ca.limits and self._used_up(ca, uses, c.you, args):
                continue
            if ca.param is None:
                if ca.requires is None or ca.requires(Ctx(c.s, c.you, dict(args or {}), self)
                                                      if args else c):
                    out.append(ActionOption(name, None, free, args) if args else
                               (ca.plain_free if free else ca.plain))
                continue
            pname, requires = ca.pname, ca.requires
            ac = Ctx(c.s, c.you, dict(args or {}), self)
            values = ca.param(ac)
            given = args is not None and pname in args
            if given:  # the choice is bound by the rule: legal only if it is one of the options
                values = [v for v in values if v == args[pname]]  # type: ignore[index]
            if requires is not None and not ca.requires_per_value:
                if not values or not requires(ac):
                    continue
                requires = None
            for value in values:
                ac.v[pname] = value
                if requires is None or requires(ac):
                    rest = {k: v for k, v in args.items() if k != pname} if args else None
                    out.append(ActionOption(name, value, free, rest or None))
        return out

    def _used_up(self, ca, uses: dict, player: int, args) -> bool:
        """Has the player reached one of the action's use limits in its period?"""
        for key, times, _ in ca.limits:
            if uses.get(key, _NO_USES)[player] >= times(Ctx(self.state, player, dict(args or {}),
                                                             self)):
                return True
        return False

    def count_use(self, ca, player: int) -> None:
        """One more use of a limited action: the player's, or everyone's for a shared limit."""
        for key, _, lim in ca.limits:
            counts = self.state["uses"].setdefault(key, [0] * self.n)
            if lim.shared:
                counts[:] = [x + 1 for x in counts]
            else:
                counts[player] += 1

    def can(self, name: str, player: int, args: dict) -> bool:
        """`can(ACTION with ...)`: the same enumeration that offers options, so they agree."""
        return bool(self.action_options(Ctx(self.state, player, {}, self), [name], False,
                                        args or None))

    def run_free(self, option: ActionOption, player: int):
        """A free action, during which no free action is offered: they do not nest (one that
        asks something would otherwise be offered again inside itself, and could take effect
        twice on the same choice)."""
        self.windows.append((None, ()))
        try:
            yield from self.run_action(option, player)
        finally:
            self.windows.pop()

    def run_action(self, option: ActionOption, player: int):
        ca = self.prog.actions[option.action]
        ac = Ctx(self.state, player, {} if ca.pname is None else {ca.pname: option.value}, self)
        if option.args:
            ac.v.update(option.args)
        if ca.limits:
            self.count_use(ca, player)
        if ca.before:
            yield from self._fire(ca.before, "before_action", ca.name, ac)
        try:
            yield from ca.effect(ac)
        except EndTurn:
            if self.pending or self.watching:
                yield from self.flush(ac)
            if ca.after:
                yield from self._fire(ca.after, "after_action", ca.name, ac)
            raise
        if self.pending or self.watching:
            yield from self.flush(ac)
        if ca.after:
            yield from self._fire(ca.after, "after_action", ca.name, ac)

    def _run_plain(self, ca, option: ActionOption, player: int) -> None:
        """run_action for an action whose effect and triggers never ask anything: plain calls."""
        ac = Ctx(self.state, player, {} if ca.pname is None else {ca.pname: option.value}, self)
        if ca.limits:
            self.count_use(ca, player)
        if ca.before:
            self._fire_plain(ca.before, self._action_locals(ca.name, ac), ac)
        try:
            ca.effect_plain(ac)
        except EndTurn:
            if ca.after:
                self._fire_plain(ca.after, self._action_locals(ca.name, ac), ac)
            raise
        if ca.after:
            self._fire_plain(ca.after, self._action_locals(ca.name, ac), ac)

    def _fire_plain(self, triggers, local: dict, c: Ctx) -> None:
        for trig, cond, _, plain in triggers:
            if trig.once and trig.name in self.state["fired"]:
                continue
            tc = Ctx(c.s, c.you, dict(local), self)
            if cond is not None and not cond(tc):
                continue
            if trig.once:
                self.state["fired"].append(trig.name)
            self.depth += 1
            if self.depth > self.max_depth:
                raise RuleError(f"trigger {trig.name!r} nested more than {self.max_depth} deep: "
                                "do triggers set each other off?", trig.pos)
            try:
                if self.record:
                    self.events.append({"event": "trigger", "trigger": trig.name,
                                        "player": tc.you, "at": str(trig.pos)})
                plain(tc)
            finally:
                self.depth -= 1

    def reset_uses(self, period: str, player: int | None = None) -> None:
        """Use counts of actions limited `per: <period>` start again (for one player or all)."""
        for key, shared in self.prog.limits_per.get(period, ()):
            counts = self.state["uses"].get(key)
            if counts is None:
                continue
            if player is None or shared:
                counts[:] = [0] * self.n
            else:
                counts[player] = 0

    def do_action(self, name: str, player: int, pos, optional: bool = False,
                  args: dict | None = None):
        """`do ACTION`: run an action from another rule (meta-action); skipped if not legal.
        With `may do`, the player is also offered to skip. Returns whether it was done."""
        if self.depth >= self.max_depth:
            raise RuleError(f"`do {name}` nested more than {self.max_depth} deep: does an action "
                            "do itself, directly or through others?", pos)
        self.depth += 1
        try:
            return (yield from self._do_action(name, player, pos, optional, args or None))
        finally:
            self.depth -= 1

    def _do_action(self, name: str, player: int, pos, optional: bool, args):
        c = Ctx(self.state, player, {}, self)
        options = self.action_options(c, [name], False, args)
        if not options:
            if self.record:
                self.events.append({"event": "cannot", "action": name, "player": player,
                                    "at": f"{pos.path}:{pos.line}"})
            return False
        if optional:
            choice = yield from self.ask(player, f"may {name}", options + [SKIP], str(pos),
                                         lambda: self.action_options(c, [name], False, args) +
                                         [SKIP])
            if choice is SKIP:
                return False
        elif len(options) == 1:
            choice = options[0]
        else:
            choice = yield from self.ask(player, f"do {name}", options, str(pos),
                                         lambda: self.action_options(c, [name], False, args))
        yield from self.run_action(choice, player)
        return True

    def take_turn(self, tc: Ctx, actions, free, limit, passed: list, why: str, automa_actions=(),
                  free_after: bool = False):
        """One player's turn; returns how many actions they took: 0 if they ended it without one,
        -1 if nothing at all was legal. With `free_after`, the turn's free actions are still
        offered after its last main action, beside `end turn`."""
        player = tc.you
        if player >= self.humans and automa_actions:
            actions, free = automa_actions, ()
        if "turn" in self.prog.limits_per:
            self.reset_uses("turn", player)
        if self.triggers_for("before_turn", None):
            yield from self.fire("before_turn", None, tc)
        done = taken = 0
        self.turns_taken += 1
        self.windows.append((player, free))
        only_free = False
        try:
            while True:
                if only_free:
                    opts = self.action_options(tc, free, True)
                    if not opts:
                        break
                    opts.append(END_TURN)
                else:
                    opts = self.action_options(tc, actions, False)
                    if free:
                        main = len(opts)
                        opts += self.action_options(tc, free, True)
                        if main == 0 and opts:
                            opts.append(END_TURN)  # no main action: free ones are not forced
                if not opts:
                    if self.record:
                        self.events.append({"event": "no legal action", "player": player})
                    if taken == 0:
                        taken = -1
                    break
                choice = yield Decision(player, "action", opts, why)
                if choice is END_TURN:
                    break
                taken += 1
                self.steps += 1
                if self.steps > self.budget:
                    self.tick(self.prog.actions[choice.action].action.pos)
                try:
                    ca = self.prog.actions[choice.action]
                    if ca.plain_path:
                        self._run_plain(ca, choice, player)
                    elif choice.free:
                        yield from self.run_free(choice, player)
                    else:
                        yield from self.run_action(choice, player)
                except PassTurn:
                    if player not in passed:
                        passed.append(player)
                    break
                except EndTurn:
                    break
                if not choice.free:
                    done += 1
                    if limit is not None and done >= limit:
                        if not (free_after and free):
                            break
                        only_free = True
        finally:
            self.windows.pop()
        if self.triggers_for("after_turn", None):
            yield from self.fire("after_turn", None, tc)
        return taken

    # ------------------------------------------------------------ lookahead and scores
    def fork(self, choices: list | None = None) -> "Engine":
        """An independent copy of this game at the current decision (by replaying the choices),
        or at an earlier one when given a prefix of the choices."""
        e = Engine(self.game, self.humans, self.seed, self.options_given, self.budget,
                   self.max_depth, record=False)
        e.start()
        for i in (self.choices if choices is None else choices):
            e.choose(i)
        return e

    def score_of(self, player: int):
        if self.result is not None:
            return self.result["scores"][player]
        return self.prog.score(Ctx(self.state, player, {}, self))
