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

from dsl.errors import RuleError, UsageError
from dsl.model import Game

from . import state as st
from .compile import Ctx, EndGame, EndTurn, PassTurn, compiled
from .decisions import ActionOption, Decision, label

DEFAULT_STEP_BUDGET = 2_000_000
DEFAULT_TRIGGER_DEPTH = 32


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
    def __init__(self, game: Game, players: int, seed: int = 0, options: dict | None = None,
                 step_budget: int = DEFAULT_STEP_BUDGET, trigger_depth: int = DEFAULT_TRIGGER_DEPTH,
                 record: bool = True):
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise UsageError(f"{game.name} is for {game.min_players}-{game.max_players} players, "
                             f"not {players}")
        self.game, self.n, self.seed = game, players, seed
        self.opts = resolve_options(game, options)
        self.options_given = dict(options or {})
        self.rng = random.Random(seed)
        self.prog = compiled(game)
        self.budget, self.max_depth, self.record = step_budget, trigger_depth, record
        self.steps = 0
        self.depth = 0
        self.windows: list = []
        self.events: list = []
        self.choices: list[int] = []
        self.decision: Decision | None = None
        self.result: dict | None = None
        self._trig_cache: dict = {}
        self.secret_mark: int | None = None  # choices index where a secret choice round began
        self.state = {"counters": {}, "players": [{} for _ in range(players)], "zones": {},
                      "loc": {}, "items": {}, "turn": {"player": 0, "passed": []}, "phase": None}
        self._gen = None

    # ------------------------------------------------------------ driving
    def start(self) -> Decision | None:
        self._gen = self._main()
        return self._advance(None)

    def choose(self, index: int) -> Decision | None:
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise UsageError(f"option {index!r} is not legal here: choose 0 to {len(d.options) - 1} "
                             f"({', '.join(d.labels)})")
        value = d.options[index]
        self.choices.append(index)
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
            if ca.requires is not None and ca.param is None:
                c = Ctx(self.state, d.player, {}, self)
                if not ca.requires(c):
                    req = ca.action.requires
                    from dsl.ast import expr_source
                    return (f"{name} is not allowed now: it requires {expr_source(req)} "
                            f"({req.pos}), which is false; legal: {legal}")
            return f"{text!r} is not a legal way to {name} now; legal: {legal}"
        return f"{text!r} is not one of the options; legal: {legal}"

    def _advance(self, value) -> Decision | None:
        try:
            self.decision = self._gen.send(value)
        except StopIteration:
            self.decision = None
        return self.decision

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
        s, n, prog, game = self.state, self.n, self.prog, self.game
        c = Ctx(s, 0, {}, self)
        for name, spec in game.counters.items():
            if spec.per_player:
                for p in range(n):
                    s["players"][p][name] = prog.counter_init[name](Ctx(s, p, {}, self))
            else:
                s["counters"][name] = prog.counter_init[name](c)
        for name, spec in game.zones.items():
            for owner in (range(n) if spec.per_player else [None]):
                s["zones"][st.zone_key(name, owner)] = []
        for kind, spec in game.items.items():
            for owner in (range(n) if spec.per_player else [None]):
                kc = Ctx(s, owner if owner is not None else 0, {}, self)
                count = prog.item_count[kind](kc)
                if type(count) is not int or count < 0:
                    raise RuleError(f"items {kind}: count must be a whole number >= 0, got {count!r}",
                                    spec.pos)
                ref = prog.zone_ref(spec.zone, owner)
                for i in range(1, count + 1):
                    item = f"{kind}#{i}" if owner is None else f"{kind}#{owner}.{i}"
                    kc.v["n"] = i
                    data = {"kind": kind, "owner": owner}
                    for field, fn in prog.item_fields[kind]:
                        data[field] = fn(kc)
                    s["items"][item] = data
                    s["zones"][ref.key].append(item)
                    s["loc"][item] = ref.key
                    self._check_capacity(ref, spec.pos, 0)
        if self.record:
            self.events.append({"event": "start", "players": n, "seed": self.seed})
        try:
            yield from prog.setup(c)
            yield from prog.flow(c)
        except EndGame:
            pass
        except (EndTurn, PassTurn) as exc:
            raise RuleError(f"`{exc}` outside of a turn", game.scoring.pos) from None
        self._finish()

    def _finish(self):
        s, n, prog = self.state, self.n, self.prog
        ctxs = [Ctx(s, p, {}, self) for p in range(n)]
        scores = [prog.score(c) for c in ctxs]
        tbs = [[tb(c) for tb in prog.tie_breaks] for c in ctxs]
        if prog.winners is not None:
            winners = sorted({int(w) for w in prog.winners(ctxs[0])})
        else:
            keys = [(scores[p], *tbs[p]) for p in range(n)]
            best = max(keys)
            winners = [p for p in range(n) if keys[p] == best]
        self.result = {"scores": scores, "winners": winners, "tie_breaks": tbs}
        if self.record:
            self.events.append({"event": "end", "scores": scores, "winners": winners,
                    "state": st.state_hash(s)})

    # ------------------------------------------------------------ services for compiled rules
    def _check_capacity(self, ref, pos, extra: int):
        cap_fn = self.prog.capacity.get(ref.name)
        if cap_fn is None:
            return
        cap = cap_fn(Ctx(self.state, ref.owner or 0, {}, self))
        if len(self.state["zones"][ref.key]) + extra > cap:
            raise RuleError(f"zone {ref.key} is full (capacity {cap})", pos)

    def move_item(self, item, ref, at_top: bool, pos) -> None:
        s = self.state
        key = s["loc"].get(item) if isinstance(item, str) else None
        if key is None:
            what = "nothing (an empty zone?)" if item is None else repr(item)
            raise RuleError(f"cannot move {what}: not an item", pos)
        if key != ref.key:
            self._check_capacity(ref, pos, 1)
        s["zones"][key].remove(item)
        dest = s["zones"][ref.key]
        if at_top:
            dest.insert(0, item)
        else:
            dest.append(item)
        s["loc"][item] = ref.key

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

    def _fire(self, triggers, event: str, target: str | None, c: Ctx):
        for trig, cond, effect in triggers:
            tc = Ctx(c.s, c.you, {"action": target} if event.endswith("_action") else {}, self)
            if cond is not None and not cond(tc):
                continue
            self.depth += 1
            if self.depth > self.max_depth:
                raise RuleError(f"trigger {trig.name!r} nested more than {self.max_depth} deep: "
                                "do triggers set each other off?", trig.pos)
            try:
                if self.record:
                    self.events.append({"event": "trigger", "trigger": trig.name, "at": str(trig.pos)})
                yield from effect(tc)
            finally:
                self.depth -= 1

    def ask(self, player: int, kind: str, options: list, why: str, remake, secret: bool = False):
        """Ask `player` to choose among `options`; free actions of the turn player are offered too."""
        while True:
            extra = []
            if not secret and self.windows:
                who, free = self.windows[-1]
                if who == player and free:
                    extra = self.action_options(Ctx(self.state, player, {}, self), free, True)
            value = yield Decision(player, kind, options + extra if extra else options, why, secret)
            if extra and isinstance(value, ActionOption) and value.free:
                yield from self.run_action(value, player)
                options = remake() if remake is not None else options
                if not options:
                    raise RuleError(f"after a free action nothing is left to choose ({kind})",
                                    None)
                continue
            return value

    def action_options(self, c: Ctx, names, free: bool) -> list:
        out = []
        actions = self.prog.actions
        for name in names:
            ca = actions[name]
            if ca.param is None:
                if ca.requires is None or ca.requires(c):
                    out.append(ca.plain_free if free else ca.plain)
                continue
            pname, requires = ca.pname, ca.requires
            ac = Ctx(c.s, c.you, {}, self)
            for value in ca.param(ac):
                ac.v[pname] = value
                if requires is None or requires(ac):
                    out.append(ActionOption(name, value, free))
        return out

    def run_action(self, option: ActionOption, player: int):
        ca = self.prog.actions[option.action]
        ac = Ctx(self.state, player, {} if ca.pname is None else {ca.pname: option.value}, self)
        if ca.before:
            yield from self._fire(ca.before, "before_action", ca.name, ac)
        if not ca.after:
            yield from ca.effect(ac)
            return
        try:
            yield from ca.effect(ac)
        except EndTurn:
            yield from self._fire(ca.after, "after_action", ca.name, ac)
            raise
        yield from self._fire(ca.after, "after_action", ca.name, ac)

    def do_action(self, name: str, player: int, pos):
        """`do ACTION`: run an action from another rule (meta-action); skipped if not legal."""
        c = Ctx(self.state, player, {}, self)
        options = self.action_options(c, [name], False)
        if not options:
            if self.record:
                self.events.append({"event": "cannot", "action": name, "player": player,
                        "at": f"{pos.path}:{pos.line}"})
            return
        if len(options) == 1 and self.prog.actions[name].param is None:
            choice = options[0]
        else:
            choice = yield from self.ask(player, f"do {name}", options, str(pos),
                                         lambda: self.action_options(c, [name], False))
        yield from self.run_action(choice, player)

    def take_turn(self, tc: Ctx, actions, free, limit, passed: list, why: str):
        player = tc.you
        if self.triggers_for("before_turn", None):
            yield from self.fire("before_turn", None, tc)
        done = 0
        self.windows.append((player, free))
        try:
            while True:
                opts = self.action_options(tc, actions, False)
                if free:
                    opts += self.action_options(tc, free, True)
                if not opts:
                    if self.record:
                        self.events.append({"event": "no legal action", "player": player})
                    break
                choice = yield Decision(player, "action", opts, why)
                self.steps += 1
                if self.steps > self.budget:
                    self.tick(self.prog.actions[choice.action].action.pos)
                try:
                    yield from self.run_action(choice, player)
                except PassTurn:
                    passed.append(player)
                    break
                except EndTurn:
                    break
                if not choice.free:
                    done += 1
                    if limit is not None and done >= limit:
                        break
        finally:
            self.windows.pop()
        if self.triggers_for("after_turn", None):
            yield from self.fire("after_turn", None, tc)

    # ------------------------------------------------------------ lookahead and scores
    def fork(self, choices: list | None = None) -> "Engine":
        """An independent copy of this game at the current decision (by replaying the choices),
        or at an earlier one when given a prefix of the choices."""
        e = Engine(self.game, self.n, self.seed, self.options_given, self.budget, self.max_depth,
                   record=False)
        e.start()
        for i in (self.choices if choices is None else choices):
            e.choose(i)
        return e

    def score_of(self, player: int):
        if self.result is not None:
            return self.result["scores"][player]
        return self.prog.score(Ctx(self.state, player, {}, self))
