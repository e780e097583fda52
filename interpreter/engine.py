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

import copy
import random
from typing import Any

from meeplang.dsl.errors import Impossible, RuleError, UsageError
from meeplang.dsl.limits import MAX_INT, bounds_text, short_number
from meeplang.dsl.model import Game, member_name, players_text

from . import state as st
from . import trace as tracing
from .compile import (_MISSING, Compiled, Ctx, EndGame, EndTurn, PassTurn, limit_key, need_int,
                      need_items, plain_value)
from .decisions import ActionOption, Decision, label
from .generated import program
from .rehearsal import CLOSED as _CLOSED, rehearse
from .copying import copy_engine
from .lowering import NotCopyable, Routine

DEFAULT_STEP_BUDGET = 10_000_000  # per game: loop passes, turns, actions, values gone through
MAX_DECISIONS = 20_000  # a game asking for more never ends: stop before its log fills memory
# Steps in a row in which no player is asked anything (rehearsals of options included): the
# bundled games take at most about 5,000 (Endeavor's Co-Op with 5 players, 30 random games); a
# game beyond this loops without end. A flow step that
# loops (turns, `while`, `repeat`) is stopped at half of it, so that the error names that step
# rather than a rule inside one of its passes.
MAX_UNASKED = 200_000
# triggers on these events see the event's values (`excess`, `amount`, `item`, `space`...), and
# what they ask is forced: no free actions beside it
_EVENTS = frozenset({"overflow", "gain", "enters", "enter_space", "as_soon_as"})
_NO_USES = [0] * 64
ZONE, LOC, CELLS, KNOWN = range(4)  # what an entry of Engine.place_undo puts back


def pos_of(why: str):
    """A decision's `why` (`path:line:col` of the asking rule) back as a position."""
    from meeplang.dsl.errors import Pos

    path, _, rest = why.rpartition(":")
    path, _, line = path.rpartition(":")
    if line.isdigit() and rest.isdigit():
        return Pos(path, int(line), int(rest))
    return None


def _what(value) -> str:
    """How a `do` by value names what it does, in decisions and log events."""
    text = label(value)
    return text if len(text) <= 40 and "\n" not in text else text.split("\n")[0][:37] + "..."


SKIP = ActionOption("skip")  # the option to decline a `may do`
STOP = ActionOption("stop")  # the option to stop a `do any of`
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
                raise UsageError(f"option {name} takes a whole number, not "
                                 f"{value[:30]!r}{'...' if len(value) > 30 else ''}") from None
        if isinstance(value, int) and not isinstance(value, bool):
            if (spec.min is not None and value < spec.min or spec.max is not None and
                    value > spec.max or abs(value) > MAX_INT):
                raise UsageError(f"option {name}={short_number(value)} is out of bounds "
                                 f"({bounds_text(spec.min, spec.max)})")
        opts[name] = value
    return opts


class Engine:
    # `players` and `index` carry no annotation: they are checked here, with a usage error.
    def __init__(self, game: Game, players, seed: int = 0, options: dict | None = None,
                 step_budget: int = DEFAULT_STEP_BUDGET, trigger_depth: int = DEFAULT_TRIGGER_DEPTH,
                 record: bool = True, trace: bool = False):
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise UsageError(f"{game.name}{':' + game.variant if game.variant else ''} is for "
                             f"{players_text(game.min_players, game.max_players)}, not {players}")
        # seats: the human (agent-played) seats first, then any automa seats played by the rules
        self.humans = players
        self.n = players + (game.automa[1] if game.automa else 0)
        self.game, self.seed = game, seed
        self.opts = resolve_options(game, options)
        self.options_given = dict(options or {})
        self.rng = random.Random(seed)
        # traced: a program of its own whose statements note what they change (play --trace);
        # else the generated program (interpreter/generated.py), or the closures alone
        self.prog = Compiled(game, traced=True) if trace else program(game)
        # when traced (interpreter/trace.py): (events so far, `path:line` of the rule or None
        # for the engine, [(path, before, after), ...]); the state they start from, the state
        # as last noted, the statements running
        self.trace = trace
        self.changes: list = []
        self.trace_start: dict | None = None
        self.seen: dict | None = None
        self.trace_at: list = []
        # a decision's `hiding` (decisions.py): this engine when a choice may offer hidden items
        self.hiding = self if self.prog.may_hide else None
        self.budget, self.max_depth, self.record = step_budget, trigger_depth, record
        self.steps = 0
        self.max_decisions = MAX_DECISIONS
        self.max_unasked = MAX_UNASKED
        self.asked_at = 0  # the steps taken when a player was last asked something
        self.limit = step_budget  # the budget or the end of the unasked stretch, whichever is less
        self.turns_taken = 0  # turns of `turns` steps, for the length of a game
        self.depth = 0
        # Free-action windows, innermost last: (who, actions, any_time); who is a seat (a turn's),
        # "all" (a phase's) or None (closes every window: a free action, a forced trigger).
        self.windows: list = []
        # The rules being carried out (actions, rule text, triggers), one flag each: true while it
        # is half done, false while it is at a `do` (its last action finished, the next not
        # begun); `busy` counts the true ones. With none, a decision is between actions.
        self.acting: list[bool] = []
        self.busy = 0
        self.events: list = []
        self.choices: list[int] = []
        self.choosers: list[int] = []  # who made each choice
        self.decision: Any = None  # the Decision waiting for a choice, None when over
        self.result: dict | None = None
        self.secret_mark: int | None = None  # choices index where a secret choice round began
        # events waiting for their triggers (overflow of, gain of, enters): (event, target, seat,
        # what the trigger sees)
        self.pending: list = []
        # are there `as soon as` triggers to check (at every safe point, the immediate ones too),
        # or zones to keep full (`refill_from:`)?
        self.watching = bool(self.prog.watch) or bool(self.prog.watch_now) or \
            bool(self.prog.refills)
        self.pending_now: list = []  # events whose triggers run right after the statement
        self.watching_now = bool(self.prog.watch_now)
        self.state: dict = {"counters": {}, "players": [{} for _ in range(self.n)], "zones": {},
                            "loc": {}, "items": {}, "cells": {}, "uses": {}, "fired": [], "soon": {},
                            "turn": {"player": 0, "passed": []}, "phase": None}
        self._gen: Any = None
        self.rehearsing = 0  # how many rehearsals (interpreter/rehearsal.py) are running
        self.field_undo: list = []  # (item data, field, old value) set during rehearsals
        # where the items were before a rehearsal moved, shuffled or peeked at them: (ZONE, key,
        # the zone's list), (LOC, item, its zone key), (CELLS or KNOWN, None, a copy of them all)
        self.place_undo: list = []
        # per running rehearsal, innermost last: the random state before the rehearsal first drew
        # from it (None while it has not), to put back
        self.rng_marks: list = []
        # where the flow stands: one record per running flow step, outermost first (kept by the
        # flow steps of compile.py; the replay viewer draws it)
        self.frames: list = []
        # a copy of the game at the first decision of the round of secret choices under way,
        # kept once `keep_secret_start()` asked for it (what a seat may believe: belief.py)
        self.secret_start: Any = None
        self.keeps_secret_start = False
        # with undo kept (keep_undo): a copy of the game before each choice, the latest last
        self.history: list | None = None
        self._hiding: dict = {}  # zone key -> by seat, does it hide its items from them?
        self._kind_items: dict = {}  # item kind -> its items (made once, at setup)

    # ------------------------------------------------------------ driving
    def start(self) -> Decision | None:
        """Set the game up and run it to its first decision (None if it ends without one)."""
        self._gen = self._main()
        self._asked()
        return self._advance(None)

    def choose(self, index) -> Decision | None:
        """Answer the waiting decision with its option `index`; the game runs on to its next
        decision (returned), or to its end (None). An illegal index changes nothing."""
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise UsageError(f"option {index!r} is not legal here: choose 0 to {len(d.options) - 1} "
                             f"({', '.join(d.labels)})")
        if len(self.choices) >= self.max_decisions:
            raise RuleError(f"the game has asked for {self.max_decisions:,} decisions and is not "
                            "over: does it ever end? (stopped at the step that asks)",
                            pos_of(d.why))
        if self.history is not None:  # a copy to go back to (undo)
            try:
                self.history.append(copy_engine(self, self.record))
            except NotCopyable as exc:
                raise UsageError(f"undo cannot be kept here: {exc}") from None
        self.choices.append(index)
        self.choosers.append(d.player)
        if self.record:
            self.events.append(self.decision_event(d, index))
        return self._advance(d.options[index])

    def keep_undo(self) -> None:
        """From now on, keep a copy of the game before each choice, so that `undo` can take
        it back (where the rules stand must be data: a routine, interpreter/lowering.py)."""
        if type(self._gen) is not Routine:
            raise UsageError("undo needs where the rules stand to be data, and here it is a "
                             "Python generator, which cannot be copied")
        if self.history is None:
            self.history = []

    def undo(self) -> Decision | None:
        """Take back the last choice: the game is again as it was when that decision was
        asked (its state, random state, log and where the rules stand)."""
        if not self.history:
            raise UsageError("there is no choice to undo" if self.history is not None else
                             "undo is not kept for this game: call keep_undo() first")
        history = self.history
        copy_engine(history.pop(), self.record, into=self)
        self.history = history
        return self.decision

    @staticmethod
    def decision_event(d: Decision, index: int) -> dict:
        """The log's record of choosing option `index` of decision `d`."""
        return {"event": "decision", "player": d.player, "kind": d.kind, "choice": index,
                "option": label(d.options[index]), "at": d.why}

    def choose_label(self, text: str) -> Decision | None:
        """Choose by the option's label; an illegal choice is refused with its reason."""
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        if text in d.labels:
            return self.choose(d.labels.index(text))
        raise UsageError(self.why_illegal(text))

    def why_illegal(self, text: str) -> str:
        """Why no option of the waiting decision has the label `text`: an action's limit used up,
        its cost or `requires:` not met, or simply not an option (with the legal labels)."""
        d = self.decision
        name = text.split()[0] if text.split() else text
        ca = self.prog.actions.get(name)
        legal = ", ".join(d.labels)
        if ca is not None and d.kind == "action":
            for key, times, lim in ca.limits:
                c = Ctx(self.state, d.player, {}, self)
                used, most = self.state["uses"].get(key, _NO_USES)[d.player], times(c) + (
                    self.held_ability(ca.extra_limit, d.player) if ca.extra_limit else 0)
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
                    from meeplang.dsl.ast import expr_source
                    return (f"{name} is not allowed now: it requires {expr_source(req)} "
                            f"({req.pos}), which is false; legal: {legal}")
            return f"{text!r} is not a legal way to {name} now; legal: {legal}"
        return f"{text!r} is not one of the options; legal: {legal}"

    def _advance(self, value) -> Decision | None:
        try:
            d = self._gen.send(value)
            if self.trace:
                self._note()
            while d.player >= self.humans:  # an automa seat: its policy or its only option
                index = self._automa_choice(d)
                if self.record:
                    self.events.append({"event": "automa", "player": d.player, "kind": d.kind,
                                        "option": d.labels[index], "at": d.why})
                d = self._gen.send(d.options[index])
                if self.trace:
                    self._note()
            self.decision = d
            self._asked()
            if d.secret and self.keeps_secret_start and self.secret_mark == len(self.choices):
                self.secret_start = None  # (not kept inside the new one)
                self.secret_start = self.fork()  # a round of secret choices begins
        except StopIteration:
            self.decision = None
            if self.trace:
                self._note()
        except RecursionError:
            where = pos_of(self.decision.why) if self.decision is not None else None
            raise RuleError("the rules nest too deeply after this decision (expressions or "
                            "actions calling themselves?)", where) from None
        return self.decision

    def _note(self) -> None:
        """A traced game: what changed since the last note, under the rule asking now (if any)."""
        tracing.note(self, self.trace_at[-1] if self.trace_at else None)

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
        """Has the game ended (its `result` made)?"""
        return self.result is not None

    def view(self, player: int | None) -> dict:
        """What `player` sees of the state (a copy; hidden items and counters as `?`); None: all."""
        return st.view(self.state, self.game, player, self.sees)

    def sees(self, item: str, player: int) -> bool:
        """May `player` see `item` where its zone hides it: a peek, or its kind's `visible_to:`?"""
        s = self.state
        if item in s.get("known", {}).get(str(player), ()):
            return True
        data = s["items"].get(item)
        rule = self.prog.visible_to.get(data["kind"]) if data is not None else None
        if rule is None:
            return False
        ref = self._ref_of(s["loc"][item])
        return bool(rule(Ctx(s, player, {"viewer": player, "item": item, "key": ref.member}, self)))

    def _ref_of(self, key: str) -> st.ZoneRef:
        """The zone of a state key (`face_down[5]`) as a value, with its family key."""
        name = st.zone_name(key)
        owner = int(key.partition("@")[2]) if "@" in key else None
        keys = self.game.zones[name].keys or (None,)
        member = next(m for m in keys if st.zone_key(name, owner, m) == key)
        return self.prog.zone_ref(name, owner, member)

    def peek(self, player: int, items: list) -> None:
        """`peek`: the player sees these items (in views and choices) until they are shuffled."""
        if self.rehearsing:
            self._noting_peeks()
        known = self.state.setdefault("known", {}).setdefault(str(player), [])
        known.extend(x for x in items if x not in known)

    def forget(self, items: list) -> None:
        if self.rehearsing:
            self._noting_peeks()
        for known in self.state["known"].values():
            known[:] = [x for x in known if x not in items]

    def put_back_places(self, mark: int) -> None:
        """Undo the changes of places journaled since `mark` (a rehearsal ends), last first."""
        s, undo = self.state, self.place_undo
        while len(undo) > mark:
            what, key, old = undo.pop()
            if what == ZONE:
                s["zones"][key][:] = old  # in place: paused rules may be going through it
            elif what == LOC:
                if old is _MISSING:
                    del s["loc"][key]
                else:
                    s["loc"][key] = old
            elif what == CELLS:
                s["cells"].clear()
                s["cells"].update(old)
            elif old is _MISSING:  # no peek before
                s.pop("known", None)
            else:
                s["known"] = old

    def _noting_peeks(self) -> None:
        known = self.state.get("known")
        self.place_undo.append((KNOWN, None, _MISSING if known is None else
                                {k: list(v) for k, v in known.items()}))

    def hidden_labels(self, player: int, options: list) -> list | None:
        """Labels for a choice among items the chooser cannot see: the zone and the place in it
        (`pile 2`), so that a blind pick does not tell which item it is. None if all are seen."""
        s, hiding = self.state, self._hiding
        loc, keys = s["loc"], []
        for o in options:  # the zone of each option that is an item hidden from the chooser
            value = o.value if isinstance(o, ActionOption) else o
            key = loc.get(value) if type(value) is str else None
            if key is not None:
                hides = hiding.get(key)
                if hides is None:  # once per zone key: which seats it hides its items from
                    spec = self.game.zones[st.zone_name(key)]
                    hides = hiding[key] = [st.hidden_from(spec, key, p) for p in range(self.n)]
                if not hides[player] or self.sees(value, player):
                    key = None
            keys.append(key)
        if not any(keys):  # the usual case: no label to make
            return None
        out = []
        for o, key in zip(options, keys):
            if key is None:
                out.append(label(o))
            else:
                value = o.value if isinstance(o, ActionOption) else o
                text = f"{key} {s['zones'][key].index(value) + 1}"
                out.append(f"{o.action} {text}" if isinstance(o, ActionOption) else text)
        return out

    def chance(self) -> random.Random:
        """The game's random source, for a rule about to draw from it. Running rehearsals note
        its state first (getstate is costly, and most rehearsals never draw)."""
        marks = self.rng_marks
        if marks and marks[-1] is None:
            state = self.rng.getstate()
            marks[:] = [state if m is None else m for m in marks]
        return self.rng

    def moving(self, item, keys: tuple, cells: bool = False) -> None:
        """In a rehearsal: note where things are before they change (these zones' lists, the
        item's zone, with `cells` every item's cell), for it to put them back (`place_undo`)."""
        s, undo = self.state, self.place_undo
        for key in keys:
            undo.append((ZONE, key, list(s["zones"][key])))
        if item is not None:
            undo.append((LOC, item, s["loc"].get(item, _MISSING)))
        if cells:
            undo.append((CELLS, None, {k: list(v) for k, v in s["cells"].items()}))

    def event(self, record: dict) -> None:
        if self.record:
            self.events.append(record)

    def _asked(self) -> None:
        """A player is asked something: a new stretch of unasked steps begins."""
        self.asked_at = self.steps
        end = self.steps + self.max_unasked
        self.limit = end if end < self.budget else self.budget

    def tick(self, pos) -> None:
        self.steps += 1
        if self.steps > self.limit:
            raise RuleError(self.over_limit(), pos)

    def charge(self, n: int, pos) -> None:
        """Count the work of going through or building `n` values against the step budget: a
        loop pass that sums 100,000 numbers costs 100,000 steps, not one."""
        self.steps += n
        if self.steps > self.limit:
            raise RuleError(self.over_limit(), pos)

    def over_limit(self) -> str:
        """Why the steps taken are too many: the game's budget, or too long without a decision;
        in a rehearsal (its work is charged too: rehearsal.py), while trying an option."""
        where = ("(stopped here, while trying whether an option can be taken)" if self.rehearsing
                 else "(stopped here)")
        if self.steps > self.budget:
            return f"step budget of {self.budget} exceeded: does a rule loop forever? {where}"
        return (f"{self.max_unasked:,} steps in a row without asking any player anything: does a "
                f"rule loop forever? {where}")

    def flow_pass(self, pos) -> None:
        """A turn or a pass of a flow step's loop: a step, and where a game that runs on without
        ever asking anything stops, at half the unasked stretch any loop may take."""
        self.tick(pos)
        if self.steps - self.asked_at > self.max_unasked // 2:
            raise RuleError(f"{self.max_unasked // 2:,} steps in a row without asking any player "
                            "anything: does this step loop forever? (stopped at the step that "
                            "loops)", pos)

    # ------------------------------------------------------------ the game
    def _main(self):
        s, prog = self.state, self.prog
        key = (self.n, self.humans, tuple(sorted(self.opts.items())))
        template = prog.initial_states.get(key)
        if template is None:
            self._make_components()
            prog.initial_states[key] = st.copy_state(s)
        else:  # components depend only on seats and options: copy them instead of remaking
            s.update(st.copy_state(template))
        if self.trace:  # what the trace's changes start from: the components as made
            self.trace_start = copy.deepcopy(s)
            self.seen = copy.deepcopy(s)
        if self.record:
            self.events.append({"event": "start", "players": self.n, "seed": self.seed})
        yield from self._play(Ctx(s, 0, {}, self))

    def _play(self, c: Ctx):
        """The setup, the flow, the final scores."""
        prog = self.prog
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
                    bound = spec if spec.keys is None else game.counter_members[key]
                    if (bound.min is not None and value < bound.min or
                            bound.max is not None and value > bound.max):
                        raise RuleError(f"counter {key} starts at {value}, out of its bounds "
                                        f"({bounds_text(bound.min, bound.max)})", spec.pos)
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
        result: dict = {"scores": scores, "winners": winners, "tie_breaks": tbs}
        if scoring.ranks:  # the title each final score earns (`ranks:`)
            result["ranks"] = [scoring.rank(score) for score in scores]
        self.result = result
        if self.trace:
            self._note()
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
            raise Impossible(f"zone {ref.key} is full (capacity {cap})", pos)

    def move_item(self, item, ref, at_top: bool, pos, gravity: bool = True) -> None:
        s = self.state
        loc = s["loc"]
        key = loc.get(item) if type(item) is str else None
        if key is None:
            what = "nothing (an empty zone?)" if item is None else repr(item)
            raise Impossible(f"cannot move {what}: not an item", pos)
        if self.rehearsing:
            self.moving(item, (key, ref.key), item in s["cells"] or
                        ref.name not in self.prog.plain_zones)
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
        else:
            self._leave(item, key, gravity)
            self._enter(item, ref, at_top, pos)
        if ref.name in self.prog.entered_zones:
            self.queue("enters", ref.name, ref.owner, {"item": item, "key": ref.member})

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
                    raise Impossible(f"grid {ref.key} has no free cell", pos)
                cell = free[0]
            elif not (1 <= cell[0] <= rows and 1 <= cell[1] <= cols):
                raise RuleError(f"cell {cell[0]}, {cell[1]} is outside grid {ref.key} "
                                f"({rows} rows, {cols} columns)", pos)
            elif tuple(cell) in taken:
                raise Impossible(f"cell {cell[0]}, {cell[1]} of {ref.key} is taken", pos)
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
            raise Impossible(f"cannot place {item!r}: not an item", pos)
        if self.rehearsing:
            self.moving(item, (key, ref.key), True)
        self._leave(item, key)
        self._enter(item, ref, False, pos, (row, column))
        if ref.name in self.prog.entered_zones:
            self.queue("enters", ref.name, ref.owner, {"item": item, "key": ref.member})

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
        """The triggers on an event (those of the target, then those of any), cached per
        program: they depend on nothing else."""
        key = (event, target)
        cache = self.prog.trigger_cache
        hit = cache.get(key)
        if hit is None:
            t = self.prog.triggers
            hit = t.get(key, []) + (t.get((event, None), []) if target is not None else [])
            cache[key] = hit
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
        self.queue("overflow", counter, seat, {"excess": excess})

    def _refill(self) -> None:
        """Zones declared `refill_from:` are topped up to their capacity, one item at a time from
        the top of their source (which may first take back what it recycles)."""
        zones, game = self.state["zones"], self.game
        for name in self.prog.refills:
            spec = game.zones[name]
            mine = game.zones[spec.refill_from].per_player
            for owner in (range(self.n) if spec.per_player else [None]):
                src = self.prog.zone_ref(spec.refill_from, owner if mine else None)
                for member in spec.keys or (None,):
                    ref = self.prog.zone_ref(name, owner, member)
                    cap = self.zone_capacity(ref)
                    while cap is not None and len(zones[ref.key]) < cap:
                        if not zones[src.key]:
                            self.restock(src)
                        if not zones[src.key]:
                            break
                        self.move_item(zones[src.key][0], ref, False, spec.pos)

    def restock(self, ref: st.ZoneRef) -> None:
        """An empty zone declared `recycle: OTHER` takes back OTHER's items, shuffled."""
        spec = self.game.zones[ref.name]
        if spec.recycle is None:
            return
        owner = ref.owner if self.game.zones[spec.recycle].per_player else None
        back = self.prog.zone_ref(spec.recycle, owner)
        for x in list(self.state["zones"][back.key]):
            self.move_item(x, ref, False, spec.pos)
        self.shuffle(ref, spec.pos)

    def shuffle(self, ref: st.ZoneRef, pos) -> None:
        """Shuffle a zone; a peek at its items lasts until then."""
        items = self.state["zones"][ref.key]
        if self.rehearsing:
            self.moving(None, (ref.key,))
        self.chance().shuffle(items)
        if "known" in self.state:
            self.forget(items)
        if self.record:
            self.events.append({"event": "shuffle", "zone": ref.key, "at": str(pos)})

    def queue(self, event: str, target: str, seat: int | None, local: dict) -> None:
        """An event (`overflow of`, `gain of`, `enters`) whose triggers run at the next safe
        point, or right after the statement for those with `timing: immediately`. A seat of
        None means the player whose action or turn it is."""
        triggers = self.triggers_for(event, target)
        if any(t[0].immediate for t in triggers):
            self.pending_now.append((event, target, seat, local))
        if any(not t[0].immediate for t in triggers):
            self.pending.append((event, target, seat, local))

    def entered_space(self, counter: str, seat: int | None, position: int, spaces: tuple):
        """A track's cube entered a space: its `enter space of` triggers run now, before the
        cube moves on; `once` is once per seat, track and space."""
        local = {"space": spaces[position], "position": position, "track": counter}
        tc = Ctx(self.state, 0 if seat is None else seat, local, self)
        yield from self._fire(self.triggers_for("enter_space", counter), "enter_space", counter,
                              tc, f"@{seat}:{counter}:{position}")

    def flush(self, c: Ctx):
        """At a safe point (after setup, at the end of an action, step or trigger): run waiting
        event triggers, then `as soon as` triggers whose condition has become true since the
        last check. Those with `timing: immediately` go first: they are due here too, for a
        condition that no statement made true (the components as set up, a turn that ended)."""
        if self.pending_now or self.watching_now:
            yield from self.flush_now(c)
        yield from self._flush(c, self.pending, False, self.prog.watch)

    def flush_now(self, c: Ctx):
        """Right after a statement: the same for triggers with `timing: immediately`."""
        yield from self._flush(c, self.pending_now, True, self.prog.watch_now)

    def _flush(self, c: Ctx, pending: list, immediate: bool, watch: list):
        while pending:
            event, target, seat, local = pending.pop(0)
            tc = Ctx(self.state, c.you if seat is None else seat, local, self)
            triggers = [t for t in self.triggers_for(event, target) if t[0].immediate == immediate]
            yield from self._fire(triggers, event, target, tc)
        if self.prog.refills and not immediate:
            self._refill()
        if not watch:
            return
        last = self.state["soon"]
        for _ in range(self.max_depth):
            fired = False
            for trig, cond, effect, per_seat in watch:
                seats = [(c.you + i) % self.n for i in range(self.n)] if per_seat else [None]
                for seat in seats:  # per seat: the current player first, then clockwise
                    you = c.you if seat is None else seat
                    base = trig.name if seat is None else f"{trig.name}@{seat}"
                    for local, key in self._instances(trig, Ctx(self.state, you, {}, self), base):
                        now = bool(cond(Ctx(self.state, you, local, self)))
                        was = last.get(key, False)
                        last[key] = now
                        if now and not was:
                            fired = True
                            yield from self._fire([(trig, None, effect, None)], "as_soon_as", None,
                                                  Ctx(self.state, you, local, self),
                                                  key[len(trig.name):])
            if not fired:
                return
        raise RuleError("`as soon as` triggers keep setting each other off", self.prog.watch[0][0].pos)

    def _instances(self, trig, c: Ctx, base: str):
        """A trigger with `each: x in LIST [where C]` stands for one trigger per value: (what it
        sees, its key for `once` and for `as soon as`) for each; otherwise just itself."""
        each = self.prog.each.get(trig.name)
        if each is None:
            return [(c.v, base)]
        var, source, where, at = each
        out = []
        for i, value in enumerate(need_items(c, source(c), "what `each:` goes through", at)):
            local = dict(c.v)
            local[var] = value
            if where is None or where(Ctx(c.s, c.you, local, self)):
                out.append((local, f"{base}#{value if type(value) in (str, int) else i}"))
        return out

    def _fire(self, triggers, event: str, target: str | None, c: Ctx, once_suffix: str = ""):
        """`once_suffix` narrows what `once` counts: per seat for a per-seat `as soon as`, per
        seat, track and space for `enter space of`."""
        if event.endswith("_action"):  # what the triggers see, made once for all of them
            seen = self._action_locals(target, c)  # type: ignore[arg-type]
        else:
            seen = dict(c.v) if event in _EVENTS else {}
        # conditions read it and leave it as it was; an effect that runs gets a copy of its own
        shared = Ctx(c.s, c.you, seen, self)
        each = self.prog.each
        for trig, cond, effect, _ in triggers:
            base = trig.name + once_suffix
            instances = ((seen, base),) if event == "as_soon_as" or trig.name not in each else \
                self._instances(trig, shared, base)
            for local, key in instances:
                ic = shared if local is seen else Ctx(c.s, c.you, local, self)
                if trig.once and key in self.state["fired"]:
                    continue
                if cond is not None and not cond(ic):
                    continue
                if not self._within_limit(trig, ic):
                    continue
                if ic is shared:
                    ic = Ctx(c.s, c.you, dict(seen), self)
                yield from self._run_trigger(trig, effect, ic, key, event)

    def _within_limit(self, trig, c: Ctx) -> bool:
        """`limit: {times: N, per: P}`: counts this firing, or refuses it past N (per seat)."""
        if trig.limit is None:
            return True
        counts = self.state["uses"].setdefault(limit_key(trig.name), [0] * self.n)
        most = self.prog.trigger_limits[trig.name](c)
        if counts[c.you] >= most:
            return False
        counts[c.you] += 1
        return True

    def _run_trigger(self, trig, effect, tc: Ctx, once_key: str, event: str):
        self.depth += 1
        if self.depth > self.max_depth:
            raise RuleError(f"trigger {trig.name!r} nested more than {self.max_depth} deep: "
                            "do triggers set each other off?", trig.pos)
        if trig.once:
            self.state["fired"].append(once_key)
        forced = event in _EVENTS
        if forced:  # what such a trigger asks is forced: no free actions beside it
            self.windows.append(_CLOSED)
        self.acting.append(True)  # a trigger is resolved entirely, like an action
        self.busy += 1
        try:
            if self.record:
                self.events.append({"event": "trigger", "trigger": trig.name,
                                    "player": tc.you, "at": str(trig.pos)})
            yield from effect(tc)
            if self.pending:
                yield from self.flush(tc)
        finally:
            self.depth -= 1
            if self.acting.pop():
                self.busy -= 1
            if forced:
                self.windows.pop()

    def free_window(self, player: int) -> tuple:
        """The free actions open to `player` at a decision now: the innermost window that applies
        (a turn's window is its player's; a phase's is every human's; a forced trigger closes all).
        A window's free actions are offered between actions (no rule half done: `busy` is 0),
        or at any time when it says so (`free_actions_at: any_time`)."""
        if player >= self.humans:
            return ()
        for who, free, any_time in self.windows[::-1]:  # innermost first
            if who is None:
                return ()
            if (who == player or who == "all") and free:
                return free if any_time or not self.busy else ()
        return ()

    def ask(self, player: int, kind: str, options: list, why: str, remake, secret: bool = False,
            ctx: Ctx | None = None, declinable: bool = False, counts: bool = True):
        """Ask `player` to choose among `options`; the free actions open to them are offered too
        (only those that leave an option, unless the decision can always be `declinable`: skip,
        stop, out). `ctx` is the asking rule's context (an automa's policy may read its
        variables); `counts`: may `remake()` read counters or use counts (compile.reads_counts)?"""
        while True:
            extra = []
            free = self.free_window(player) if self.windows else ()
            if free:
                extra = self.action_options(Ctx(self.state, player, {}, self), free, True)
            if extra and remake is not None and not declinable:  # a free action must leave
                # something to choose
                extra = [o for o in extra if rehearse(self, self._free_then, o, player, remake,
                                                      counts)]
            d = Decision(player, kind, options + extra if extra else options, why, secret)
            d.hiding, d.ctx = self.hiding, ctx
            value = yield d
            if extra and isinstance(value, ActionOption) and value.free:
                yield from self.run_free(value, player)
                options = remake() if remake is not None else options
                if not options:
                    raise Impossible(f"after a free action nothing is left to choose ({kind})",
                                    pos_of(why))
                continue
            return value

    def held_ability(self, grants: list, player: int) -> int:
        """What the items `player` holds (in zones of theirs) grant: the sum of their
        `while_held` amounts for one bonus, discount or extra limit."""
        total, loc, mine = 0, self.state["loc"], f"@{player}"
        for kind, amount, pos in grants:
            items = self._kind_items.get(kind)
            if items is None:
                items = self._kind_items[kind] = [x for x, d in self.state["items"].items()
                                                  if d["kind"] == kind]
            for item in items:
                if loc[item].endswith(mine):
                    total += need_int(amount(Ctx(self.state, player, {"this": item}, self)),
                                      f"what {item} grants", pos)
        return total

    def _free_then(self, option: ActionOption, player: int, remake, counts: bool):
        """A free action, then the decision it interrupted must still have an option. When the
        options read no counter (`counts` false) and the free action changed nothing but
        counters and use counts (the power plant: coins and damage, unless damage overflowed),
        they are the options it interrupted, which were not empty: no need to make them again."""
        before = self._places_and_turn()
        yield from self.run_free(option, player)
        if not counts and self._places_and_turn() == before:
            return
        if not remake():
            raise Impossible("nothing left to choose", None)

    def _places_and_turn(self) -> tuple:
        """What changes when anything but counters and use counts does: the items' fields set
        (journaled in a rehearsal), items moved or peeked at, the turn and the phase."""
        s = self.state
        return (len(self.field_undo), len(self.place_undo), s["turn"]["player"],
                tuple(s["turn"]["passed"]), s["phase"])

    def action_options(self, c: Ctx, names, free: bool, args: dict | None = None,
                       check: bool = True) -> list:
        """The legal ways to take these actions now (with `args` bound for `do ... with`); with
        `check`, an action whose effect can fail and has no `requires:` is rehearsed
        (rehearsal.py)."""
        out: list = []
        actions = self.prog.actions
        for name in names:
            ca = actions[name]
            if ca.limits and self._used_up(ca, self.state["uses"], c):
                continue
            if ca.param is not None:
                found = self._options_by_value(ca, c, free, args)
                if check and ca.rehearse:
                    found = [o for o in found if rehearse(self, self.run_action, o, c.you)]
                out += found
            elif ca.requires is None or ca.requires(Ctx(c.s, c.you, dict(args or {}), self)
                                                    if args else c):
                option = ActionOption(name, None, free, args) if args else \
                    ca.plain_free if free else ca.plain
                if not (check and ca.rehearse) or rehearse(self, self.run_action, option, c.you):
                    out.append(option)
        return out

    def _options_by_value(self, ca, c: Ctx, free: bool, args: dict | None) -> list:
        """The options of an action with a choice (`choose:`), one per legal value."""
        name, pname = ca.name, ca.pname
        ac = Ctx(c.s, c.you, dict(args) if args else {}, self)
        if args is not None and pname in args:  # bound by the rule: legal if one of the options
            values = [v for v in ca.param(ac) if v == args[pname]]
            if ca.requires_per_value:
                values = ca.meeting(ac, values)
            rest = {k: v for k, v in args.items() if k != pname} or None
        else:
            values = ca.listing(ac)  # by `where`, and by `requires:` when it reads the value
            rest = dict(args) if args else None
        if values and ca.requires is not None and not ca.requires_per_value and \
                not ca.requires(ac):
            return []
        return [ActionOption(name, value, free, rest) for value in values]

    def _used_up(self, ca, uses: dict, c: Ctx) -> bool:
        """Has the player of `c` reached one of the action's use limits in its period (each
        raised by what the player's held items grant, `while_held: extra_limit`)? A limit reads
        no local name (it is compiled with none), so the caller's context serves."""
        player = c.you
        more = self.held_ability(ca.extra_limit, player) if ca.extra_limit else 0
        for key, times, _ in ca.limits:
            if uses.get(key, _NO_USES)[player] >= times(c) + more:
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
        self.windows.append(_CLOSED)
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
        self.acting.append(True)  # under way until its after-triggers are done
        self.busy += 1
        try:
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
        finally:
            if self.acting.pop():
                self.busy -= 1

    def _run_plain(self, ca, option: ActionOption, player: int) -> None:
        """run_action for an action whose effect and triggers never ask anything: plain calls."""
        ac = Ctx(self.state, player, {} if ca.pname is None else {ca.pname: option.value}, self)
        if ca.limits:
            self.count_use(ca, player)
        if ca.before:
            self._fire_plain(ca.before, ca, ac)
        try:
            ca.effect_plain(ac)
        except EndTurn:
            if ca.after:
                self._fire_plain(ca.after, ca, ac)
            raise
        if ca.after:
            self._fire_plain(ca.after, ca, ac)

    def _fire_plain(self, triggers, ca, c: Ctx) -> None:
        """Before/after triggers of a plain action (`ca`, whose context is `c`)."""
        local = self._action_locals(ca.name, c) if ca.arg_names else {"action": ca.name}
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
        """Use counts of actions (and trigger firings) limited `per: <period>` start again (for
        one player or all; a shared limit's for all)."""
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
        mid = self._at_do()
        try:
            return (yield from self._do_action(name, player, pos, optional, args or None))
        finally:
            self.depth -= 1
            if mid:
                self._done_do()

    def _do_action(self, name: str, player: int, pos, optional: bool, args):
        """`do NAME`: the rules say to do it, so it is not rehearsed (if it fails half way, the
        rules are wrong and the error says so); `may do NAME` offers only what can run."""
        only = None if optional else self._only_option(name, args)
        if only is not None:
            yield from self.perform(only, player)
            return True
        c = Ctx(self.state, player, {}, self)
        return (yield from self._do(lambda: self.action_options(c, [name], False, args,
                                                                optional), name,
                                    player, pos, optional))

    def _only_option(self, value, args: dict | None) -> ActionOption | None:
        """The one way to `do` an action that has no choice, no `requires:` and no use limit, or
        rule text, when the player may not decline (nothing to rehearse): what `_do` would
        perform, without listing options. None for anything else."""
        if type(value) is not str:
            return None
        ca = self.prog.actions.get(value)
        if ca is None:
            return ActionOption(value, None, False, args) if value in self.prog.rules else None
        if ca.param is not None or ca.requires is not None or ca.limits:
            return None
        return ActionOption(value, None, False, args) if args else ca.plain

    def _do(self, make_options, what: str, player: int, pos, optional: bool):
        """Perform one of the options `make_options()` gives (asking if several, or if the
        player may skip); returns whether something was done."""
        options = make_options()
        if not options:
            if self.rehearsing and not optional:
                raise Impossible(f"`do {what}` cannot be done", pos)
            if self.record:
                self.events.append({"event": "cannot", "action": what, "player": player,
                                    "at": f"{pos.path}:{pos.line}"})
            return False
        if optional:
            choice = yield from self.ask(player, f"may {what}", options + [SKIP], str(pos),
                                         lambda: make_options() + [SKIP], declinable=True)
            if choice is SKIP:
                return False
        elif len(options) == 1:
            choice = options[0]
        else:
            choice = yield from self.ask(player, f"do {what}", options, str(pos), make_options)
        yield from self.perform(choice, player)
        return True

    def do_value(self, value, player: int, pos, optional: bool, args: dict, mode: str):
        """`do card.effect`, `do one of LIST`, `do any of LIST`: actions given as values (an
        action's name, rule text held in data, or none for no effect)."""
        if self.depth >= self.max_depth:
            raise RuleError(f"`do` nested more than {self.max_depth} deep: does an action do "
                            "itself, directly or through others?", pos)
        self.depth += 1
        mid = self._at_do()
        try:
            c = Ctx(self.state, player, {}, self)
            if value is None and not mode:  # no effect (a null cell): nothing to do, not a failure
                return False
            if not mode:  # like `do NAME`: rehearsed only when the player may decline
                only = None if optional else self._only_option(value, args or None)
                if only is not None:
                    yield from self.perform(only, player)
                    return True
                return (yield from self._do(lambda: self.value_options(c, value, args or None,
                                                                       pos, optional),
                                            _what(value), player, pos, optional))
            values = need_items(c, value, f"what `do {mode}` chooses from", pos)
            if mode == "one of":
                return (yield from self._do(lambda: self._options_of(c, values, args, pos),
                                            mode, player, pos, optional))
            return (yield from self._do_any_of(c, values, args, pos))
        finally:
            self.depth -= 1
            if mid:
                self._done_do()

    def _at_do(self) -> bool:
        """A `do` statement begins: the rule carrying it out (if any, and half done) is now at a
        boundary between actions until the `do` is over. Returns whether it was half done."""
        acting = self.acting
        if acting and acting[-1]:
            acting[-1] = False
            self.busy -= 1
            return True
        return False

    def _done_do(self) -> None:
        """The `do` is over (its nested rules are over too): its rule is half done again."""
        self.acting[-1] = True
        self.busy += 1

    def _options_of(self, c: Ctx, values: list, args: dict, pos) -> list:
        return [o for v in values for o in self.value_options(c, v, args or None, pos)]

    def _do_any_of(self, c: Ctx, values: list, args: dict, pos):
        """Any of them, each at most once, in the order the player picks, until they stop."""
        left, done = list(values), False
        while left:
            options = self._options_of(c, left, args, pos)
            if not options:
                break
            choice = yield from self.ask(c.you, "do any of", options + [STOP], str(pos),
                                         lambda: self._options_of(c, left, args, pos) + [STOP],
                                         declinable=True)
            if choice is STOP:
                break
            left.remove(choice.action)
            yield from self.perform(choice, c.you)
            done = True
        return done

    def value_options(self, c: Ctx, value, args: dict | None, pos, check: bool = True) -> list:
        """The ways to perform an action given as a value, now: an action's name gives its legal
        options; rule text one option, if (with `check`) a rehearsal can run it to its end; none
        nothing."""
        if value is None:
            return []
        if type(value) is str and value in self.prog.actions:
            return self.action_options(c, [value], False, args, check)
        rule = self.prog.rules.get(value) if type(value) is str else None
        if rule is None:
            raise RuleError(f"cannot do {label(value)!r}: it is neither an action nor rule text "
                            "declared under `rule_text:`", pos)
        option = ActionOption(value, None, False, args)
        if check and rule.can_fail and not rehearse(self, self.run_rule, option, c.you):
            return []
        return [option]

    def perform(self, option: ActionOption, player: int):
        """Run an option of `do`: an action, or rule text held in data."""
        if option.action in self.prog.actions:
            yield from self.run_action(option, player)
        else:
            yield from self.run_rule(option, player)

    def run_rule(self, option: ActionOption, player: int):
        rule = self.prog.rules[option.action]
        given = option.args or {}
        for name in rule.reads:
            if name not in given:
                raise RuleError(f"this rule text reads {name!r}: give it with `do ... with {name} "
                                "= ...`", rule.rule.pos)
        rc = Ctx(self.state, player, dict(given), self)
        self.acting.append(True)
        self.busy += 1
        try:
            yield from rule.effect(rc)
            if self.pending or self.watching:
                yield from self.flush(rc)
        finally:
            if self.acting.pop():
                self.busy -= 1

    def take_turn(self, tc: Ctx, actions, free, limit, passed: list, why: str, automa_actions=(),
                  free_after: bool = False, free_turn: bool = False, any_time: bool = False):
        """One player's turn; returns how many actions they took: 0 if they ended it without one,
        -1 if nothing at all was legal. With `free_after`, the turn's free actions are still
        offered after its last main action, beside `end turn`; with `free_turn`, `end turn` is
        offered as soon as a free action was taken (free actions may be the whole turn). The free
        actions are offered at the turn's choice of an action and, inside actions, between them;
        with `any_time`, at every decision of the turn's player."""
        player = tc.you
        if player >= self.humans and automa_actions:
            actions, free = automa_actions, ()
        if "turn" in self.prog.limits_per:
            self.reset_uses("turn", player)
        if self.triggers_for("before_turn", None):
            yield from self.fire("before_turn", None, tc)
        done = taken = 0
        self.turns_taken += 1
        self.windows.append((player, free, any_time))
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
                        if opts and (main == 0 or (free_turn and taken > done)):
                            opts.append(END_TURN)  # no main action, or a free one was the turn
                if not opts:
                    if self.record:
                        self.events.append({"event": "no legal action", "player": player})
                    if taken == 0:
                        taken = -1
                    break
                d = Decision(player, "action", opts, why)
                d.hiding = self.hiding
                choice = yield d
                if choice is END_TURN:
                    break
                taken += 1
                self.steps += 1
                if self.steps > self.limit:
                    raise RuleError(self.over_limit(),
                                    self.prog.actions[choice.action].action.pos)
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
    def fork(self, choices: list | None = None, record: bool = False) -> "Engine":
        """An independent copy of this game at the current decision, made of data
        (interpreter/copying.py), or, given a list of choices, the game replayed from the start
        with them (an earlier decision when they are a prefix of this game's). A copy that meets
        something that is not data on the chain (a plain Python generator) is made by replay. With `record`, the copy's events begin where its
        replay began."""
        if choices is None and type(self._gen) is Routine:
            try:
                return copy_engine(self, record)
            except NotCopyable:
                pass  # a plain generator or an unknown value on the chain: replayed instead
        e = Engine(self.game, self.humans, self.seed, self.options_given, self.budget,
                   self.max_depth, record=record)
        e.start()
        for i in self.choices if choices is None else choices:
            e.choose(i)
        return e

    def keep_secret_start(self) -> None:
        """From the next round of secret choices on, keep a copy of the game at each round's
        first decision (`secret_start`), so that what a seat may believe in the middle of such a
        round starts from it rather than from a replay of the whole game."""
        self.keeps_secret_start = True

    def at_secret_start(self, record: bool = False) -> "Engine":
        """A copy of this game at the first decision of the round of secret choices under way
        (with `record`, its events from there on are kept)."""
        mark = self.secret_mark
        start = self.secret_start
        if start is not None and len(start.choices) == mark and \
                start.choices == self.choices[:mark]:
            return start.fork(record=record)
        return self.fork(self.choices[:mark], record=record)

    def score_of(self, player: int):
        """The seat's final score once over, else its scoring formula applied to the state now."""
        if self.result is not None:
            return self.result["scores"][player]
        return self.prog.score(Ctx(self.state, player, {}, self))
