"""A game played one decision at a time from Python: `Game.start(...)` gives a `State`.

    state = meeplang.load("pig").start(players=2, seed=1)
    d = state.decision                  # a Choice: d.player, d.kind, d.options (label, id, index)
    state.why_not("stop")               # None if legal, else the reason (a requires:, a limit...)
    state.apply("roll")                 # by label, Option, or index; an illegal one changes nothing
    other = state.copy()                # an independent copy: play it on, the original stays
    state.undo()                        # back to the decision before the last choice
    state.view(0)                       # what seat 0 sees (the others' hidden cards are "?")
    state.over, state.scores, state.returns(), state.log

A State drives the engine (interpreter/engine.py) and nothing else: its copies are the engine's
own (`Engine.fork`: by data, where the rules stand being data), so a copy is exact, the same
game, the same dice to come. Undo takes the last choice back: from the copy kept before it, or,
where a copy could not be kept (something on the engine's chain that is not data), by replaying
the choices but the last one (as exact: a game is a pure function of its seed and choices).
"""
from __future__ import annotations

from typing import Any, TypeAlias, Union

from meeplang.dsl.errors import UsageError
from meeplang.interpreter.choices import DEFAULT_BITS, Choice, Option, check_bits, choice_of

Move: TypeAlias = Union[Option, str, int]  # an option, its label, or its index


class State:
    """A game being played, stopped at its next decision (or over). Make one with
    `Game.start(players, seed)`; every method that changes it either succeeds or changes
    nothing and raises `meeplang.MeeplangError` with the reason."""

    def __init__(self, engine: Any, bits: int = DEFAULT_BITS, seen: list | None = None):
        self._engine = engine
        self.bits = check_bits(bits)
        # per choice made: (who chose, what each seat saw of it: its label, or None for another
        # seat's secret choice)
        self._seen: list[tuple[int, tuple]] = [] if seen is None else seen
        self._choice: Choice | None = None
        self._keeps_undo = _keep_undo(engine)

    @classmethod
    def start(cls, game: Any, players: int, seed: int = 0, options: dict | None = None,
              bits: int = DEFAULT_BITS) -> "State":
        """A new game of the checked model `game` at its first decision."""
        from meeplang.interpreter.engine import Engine

        check_bits(bits)
        engine = Engine(game, players, seed, options)
        engine.start()
        return cls(engine, bits)

    # ------------------------------------------------------------ what is asked
    @property
    def decision(self) -> Choice | None:
        """The decision waiting (whose, what kind, the legal options), None once the game is over."""
        if self._choice is None:
            self._choice = choice_of(self._engine, self.bits)
        return self._choice

    @property
    def player(self) -> int | None:
        """The seat to choose now, None once the game is over."""
        d = self._engine.decision
        return None if d is None else d.player

    @property
    def legal(self) -> list[Option]:
        """The legal options now (none once the game is over)."""
        d = self.decision
        return [] if d is None else list(d.options)

    def why_not(self, label: str) -> str | None:
        """None if an option has this label now, else why it is not allowed: an action's limit
        used up, its `requires:` false, a cost it cannot pay, or simply not an option."""
        d = self.decision
        if d is None:
            return "the game is over: there is nothing to choose"
        return None if label in d.labels else self._engine.why_illegal(label)

    # ------------------------------------------------------------ changing it
    def apply(self, move: Move) -> None:
        """Make the current decision: an Option of it, a label, or an index. An illegal move is
        a UsageError saying why, and the game is left as it was."""
        d = self.decision
        if d is None:
            raise UsageError("the game is over: there is nothing to choose")
        option = d.option(move)
        seen = self._seen_by_seats(option.index)
        self._choice = None
        self._engine.choose(option.index)
        self._seen.append((d.player, seen))

    def copy(self) -> "State":
        """An independent copy at the same decision (same state, same dice to come, same log)."""
        engine = self._engine
        twin = engine.fork(record=engine.record)
        twin.events = list(engine.events)
        return State(twin, self.bits, list(self._seen))

    def undo(self) -> None:
        """Take back the last choice: the game is again as it was at that decision (its state,
        random state, log and decision)."""
        engine = self._engine
        if not engine.choices:
            raise UsageError("there is no choice to undo")
        if self._keeps_undo and engine.history:
            engine.undo()
        else:
            back = engine.fork(engine.choices[:-1], record=engine.record)
            cut = max(i for i, ev in enumerate(engine.events) if ev.get("event") == "decision") \
                if engine.record else 0
            back.events = list(engine.events[:cut])
            self._engine = back
            self._keeps_undo = _keep_undo(back)
        self._seen.pop()
        self._choice = None

    # ------------------------------------------------------------ reading it
    @property
    def over(self) -> bool:
        """Has the game ended?"""
        return self._engine.over

    @property
    def players(self) -> int:
        """The seats agents play (an automa's seats, played by the rules, come after them)."""
        return self._engine.humans

    @property
    def seed(self) -> int:
        """The game's seed (its dice and shuffles)."""
        return self._engine.seed

    @property
    def scores(self) -> list:
        """Each seat's score: the final one once over, else the scoring formula applied now."""
        return [self._engine.score_of(p) for p in range(self._engine.n)]

    @property
    def winners(self) -> list[int] | None:
        """The winning seats once over (empty when the rules name none), else None."""
        result = self._engine.result
        return None if result is None else list(result["winners"])

    def returns(self, kind: str = "win") -> list[float]:
        """What each agent seat earned, as game-playing algorithms read it: `"win"` (zero sum:
        each of the k winners gets 1/k, each other seat -1/(n-k); all 0 when nobody or everybody
        wins: what OpenSpiel's pig and goofspiel's `win_loss` return) or
        `"score"` (the final scores). All 0 until the game is over."""
        n = self._engine.humans
        if kind not in ("win", "score"):
            raise UsageError(f"returns kind must be 'win' or 'score', not {kind!r}")
        result = self._engine.result
        if result is None:
            return [0.0] * n
        if kind == "score":
            return [float(s) for s in result["scores"][:n]]
        winners = [w for w in result["winners"] if w < n]
        k = len(winners)
        if k in (0, n):
            return [0.0] * n
        return [1.0 / k if p in winners else -1.0 / (n - k) for p in range(n)]

    def view(self, seat: int | None) -> dict:
        """What `seat` sees of the game (a copy: counters, zones, items; what is hidden from it is
        `?`); `None`: everything, as the author sees it."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._engine.n):
            raise UsageError(f"seat {seat!r} is not one of this game's seats "
                             f"(0 to {self._engine.n - 1})")
        return self._engine.view(seat)

    def history(self, seat: int) -> list[tuple[int, str | None]]:
        """Every choice made so far as `seat` saw it: (who chose, the option's label as the seat
        saw it, or None for another seat's secret choice)."""
        return [(who, seen[seat]) for who, seen in self._seen]

    @property
    def log(self) -> list[dict]:
        """The events so far, as `meeplang play --log` writes them after its header line."""
        return list(self._engine.events)

    @property
    def choices(self) -> list[int]:
        """The index of every option chosen so far, in order (a log's `choice` fields)."""
        return list(self._engine.choices)

    @property
    def engine(self) -> Any:
        """The interpreter's Engine under this state (for tools; its API may change)."""
        return self._engine

    def write_log(self, path) -> None:
        """The JSON Lines log `meeplang replay` verifies (a finished game's, or a save so far)."""
        from meeplang.interpreter.log import write_log

        write_log(str(path), self._engine)

    def _seen_by_seats(self, index: int) -> tuple:
        """Option `index` of the waiting decision as each agent seat sees it."""
        engine, d = self._engine, self._engine.decision
        out: list[str | None] = []
        for seat in range(engine.humans):
            if seat == d.player:
                out.append(d.labels[index])
            elif d.secret:
                out.append(None)
            else:
                labels = engine.hidden_labels(seat, d.options) if engine.hiding else None
                out.append(d.labels[index] if labels is None else labels[index])
        return tuple(out)

    def __repr__(self) -> str:
        if self.over:
            return f"<State over: scores {self.scores}, winners {self.winners}>"
        d = self.decision
        assert d is not None
        shown = ", ".join(d.labels[:8]) + (", ..." if len(d.options) > 8 else "")
        return (f"<State decision {len(self._engine.choices) + 1}: player {d.player} "
                f"{d.kind}: {shown}>")


def _keep_undo(engine: Any) -> bool:
    """Let the engine keep a copy before each choice (undo without replay)."""
    try:
        engine.keep_undo()
    except UsageError:
        return False
    return True
