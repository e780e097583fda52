"""The Python API: load a game or variant, check it, play one game, simulate many, draw it.

    import meeplang
    pig = meeplang.load("pig")                 # a bundled name, a folder, a .yaml file, GAME:VARIANT
    pig.check().ok                             # errors and warnings as data, never an exception
    result = pig.play(players=3, seed=1)       # .scores, .winners, .log (the events)
    sim = pig.simulate(n=200, players=2)       # .records (one per game), .summary (statistics)
    pig.diagram(detail="actions")              # Graphviz DOT text; format="svg" needs `dot`

The same layers the command line uses, returning values instead of printing. Bad input raises
`meeplang.MeeplangError` (with `.pos`: file, line, column), except in `check()`, which reports it.
In a notebook, a game draws itself as its flowchart (`_repr_svg_`) and a result as a table.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
import os
from collections.abc import Callable, Sequence
from typing import TypeAlias, Union

from meeplang.dsl.errors import MeeplangError, Pos, UsageError
from meeplang.dsl.model import players_text
from meeplang.dsl.resolve import load_game

from meeplang.interpreter.choices import DEFAULT_BITS, Choice, Option

from .arguments import split_target
from .step import State

# An agent of your own: a function of the decision answering an option, a label or an index (an
# object with __call__ is one too), or a class made with no arguments (interpreter/agents.py).
AgentFn: TypeAlias = Callable[[Choice], Union[Option, str, int]]
# `"random,greedy"`, one agent of your own for every seat, or a list of names and agents
Agents: TypeAlias = Union[str, AgentFn, Sequence[Union[str, AgentFn, type]]]


@dataclass(frozen=True)
class Problem:
    """One error or warning, where it is."""

    severity: str  # "error" or "warning"
    message: str
    path: str
    line: int
    col: int
    hint: str | None = None

    @classmethod
    def of(cls, severity: str, message: str, pos: Pos, hint: str | None = None) -> "Problem":
        return cls(severity, message, pos.path, pos.line, pos.col, hint)

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}: " if self.line else ""
        return f"{where}{self.severity}: {self.message}"


@dataclass(frozen=True)
class Check:
    """What the checker found: the first error (the checker stops there) and every warning."""

    errors: list[Problem]
    warnings: list[Problem]

    @property
    def ok(self) -> bool:
        """No error (warnings may remain)."""
        return not self.errors

    def __str__(self) -> str:
        lines = [str(p) for p in self.errors + self.warnings]
        return "\n".join(lines) if lines else "ok"


@dataclass(frozen=True)
class Result:
    """One game played to the end."""

    scores: list
    winners: list
    tie_breaks: list
    decisions: int
    turns: int
    log: list[dict]  # the events, as `meeplang play --log` writes them after its header line
    final_state: dict
    engine: object = field(repr=False)  # the finished meeplang.interpreter.engine.Engine

    def write_log(self, path) -> None:
        """The JSON Lines log `meeplang replay` verifies."""
        from meeplang.interpreter.log import write_log

        write_log(str(path), self.engine)

    def __repr__(self) -> str:
        return (f"<Result scores={self.scores} winners={self.winners} "
                f"decisions={self.decisions} events={len(self.log)}>")

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{p}</td><td>{html.escape(str(s))}</td>"
                       f"<td>{'winner' if p in self.winners else ''}</td></tr>"
                       for p, s in enumerate(self.scores))
        return (f"<table><tr><th>seat</th><th>score</th><th></th></tr>{rows}</table>"
                f"<p>{self.decisions} decisions, {self.turns} turns, {len(self.log)} events</p>")


@dataclass(frozen=True)
class Simulation:
    """Many games: one record per game (seed, scores, winners, turns, decisions) and the
    statistics `meeplang simulate --json` prints."""

    records: list[dict]
    summary: dict

    def __repr__(self) -> str:
        rates = ", ".join(f"{100 * r:.1f}%" for r in self.summary["win_rates"])
        return f"<Simulation {self.summary['games']} games, win rates by seat: {rates}>"

    def _repr_html_(self) -> str:
        s = self.summary
        rows = "".join(f"<tr><td>{p}</td><td>{100 * s['win_rates'][p]:.1f}%</td>"
                       f"<td>{100 * lo:.1f}% – {100 * hi:.1f}%</td>"
                       f"<td>{s['mean_scores'][p]:.2f}</td></tr>"
                       for p, (lo, hi) in enumerate(s["win_rate_ci"]))
        return ("<table><tr><th>seat</th><th>win rate</th><th>95% interval</th>"
                f"<th>mean score</th></tr>{rows}</table><p>{s['games']} games, "
                f"{s['decisions_mean']:.1f} decisions per game</p>")


class Game:
    """A game or variant by name or path. Loading (reading, validating, checking the rules)
    happens on first use, so `check()` can report a broken game instead of raising."""

    def __init__(self, target: str, variant: str | None = None):
        self.target = str(target)
        self.variant = variant
        self._model = None

    @property
    def model(self):
        """The checked Game model (meeplang.dsl.model.Game) every tool reads; raises MeeplangError."""
        if self._model is None:
            self._model = load_game(self.target, self.variant)
        return self._model

    @property
    def name(self) -> str:
        """The game's name (`game:` in its game.yaml)."""
        return self.model.name

    @property
    def title(self) -> str:
        """The game's English title (its name if it has none)."""
        return self.model.title.get("en", self.model.name)

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players (the seats agents play)."""
        return self.model.min_players, self.model.max_players

    @property
    def variants(self) -> list[str]:
        """The names of the game's own variants (`games/<name>/variants/`)."""
        return [name for name, _, _ in self.model.variants]

    def with_variant(self, name: str) -> "Game":
        """The same game with variant `name` (one of `variants`, or a variant file)."""
        return Game(self.target, name)

    def check(self) -> Check:
        """Load and check the game as `meeplang check` does: the first error (the checker stops
        there) or every warning, as data; never raises for bad rules."""
        from meeplang.interpreter.codegen import generate

        try:
            model = self.model
            generate(model)  # the Python its rules make stays within bounds, as `meeplang check`
        except MeeplangError as exc:
            return Check([Problem.of("error", exc.message, exc.pos, exc.hint)], [])
        return Check([], [Problem.of("warning", w.message, w.pos) for w in model.warnings])

    def start(self, players: int | None = None, seed: int = 0, options: dict | None = None,
              bits: int = DEFAULT_BITS) -> State:
        """A new game stopped at its first decision, to play one decision at a time (see
        meeplang.step): `state.decision`, `state.apply(...)`, `copy()`, `undo()`, `view(seat)`.
        `bits` sizes the stable action ids (2**bits of them, interpreter/choices.py)."""
        players = self.players[0] if players is None else players
        return State.start(self.model, players, seed, options, bits)

    def play(self, players: int | None = None, seed: int = 0, agents: Agents = "random",
             options: dict | None = None) -> Result:
        """One game; `agents` gives one agent per seat (the last repeats): built-in names
        (`"random,greedy"`: random, first, greedy, mcts as `mcts:400` or `mcts:0.5s`) or a list
        of names and agents of your own: a function of the decision (a `meeplang.Choice`)
        answering an Option, a label or an index, or such an object or class (see
        meeplang.interpreter.agents)."""
        from meeplang.interpreter.simulation import play_game

        players = self.players[0] if players is None else players
        engine = play_game(self.model, players, seed, agents, options)
        r = engine.result
        return Result(r["scores"], r["winners"], r["tie_breaks"], len(engine.choices),
                      engine.turns_taken, list(engine.events), engine.state, engine)

    def simulate(self, n: int = 100, players: int | None = None, seed: int = 0,
                 agents: Agents = "random", options: dict | None = None, jobs: int = 1,
                 executor: str = "local", scheduler: str | None = None) -> Simulation:
        """n games; game i has seed `game_seed(seed, i)` whatever `jobs` is, like the command.
        `agents` as `play` takes them (agents of your own must pickle when jobs > 1 or on
        Dask); `executor="dask"` runs the games on a Dask cluster (a local one of `jobs`
        workers, or the `scheduler` at that address)."""
        from meeplang.interpreter import stats
        from meeplang.interpreter.agents import agent_list, make_agents
        from meeplang.interpreter.parallel import open_runner
        from meeplang.interpreter.simulation import SimSpec, check_sendable

        if n < 1:
            raise UsageError(f"n must be at least 1, not {n}")
        model = self.model
        players = self.players[0] if players is None else players
        entries = agent_list(agents)
        spec_agents: str | tuple = (",".join(entries) if all(isinstance(a, str) for a in entries)
                                    else tuple(entries))
        make_agents(spec_agents, players, seed)  # a bad name or agent fails here, not in a worker
        if executor == "dask" or min(jobs, n) > 1:
            check_sendable(spec_agents, executor)
        path = Path(self.target)  # workers may run elsewhere: paths absolute, names as names
        target = str(path.resolve()) if path.exists() else self.target
        spec = SimSpec(target, self.variant, players, seed, spec_agents, dict(options or {}),
                       model.rules_hash)
        runner = open_runner(executor, min(jobs, n), scheduler)
        failed = True
        try:
            records = runner.run(spec, n)
            failed = False
        finally:
            runner.close(failed)
        summary = {"game": model.name, "variant": model.variant, "players": players,
                   "seed": seed, "rules": model.rules_hash, **stats.summarize(records, players)}
        return Simulation(records, summary)

    def diagram(self, detail: str = "phases", lang: str = "en", format: str = "dot",
                text: str = "prose"):
        """The flowchart: DOT text (no program needed), or "svg" text, or "png"/"pdf" bytes
        (these need Graphviz's `dot`); its boxes say the rules as sentences in `lang`, or as
        rule code with text="rules"."""
        import meeplang.visualizer

        if format == "dot":
            return meeplang.visualizer.dot_source(self.model, detail=detail, lang=lang, text=text)
        if format == "svg":
            return meeplang.visualizer.svg(self.model, detail=detail, lang=lang, text=text)
        return meeplang.visualizer.render(self.model, format, detail=detail, lang=lang, text=text)

    def explain(self, lang: str = "en", format: str = "text") -> str:
        """The rules as prose (`meeplang explain`): "text", "md" or "html"."""
        from meeplang.visualizer.prose import explain

        return explain(self.model, lang, format)

    def __repr__(self) -> str:
        try:
            m = self.model
        except MeeplangError as exc:
            return f"<meeplang.Game {self.target!r}: {exc}>"
        name = m.name + (f":{m.variant}" if m.variant else "")
        return (f"<meeplang.Game {name}: {self.title}, {players_text(m.min_players, m.max_players)}, "
                f"{len(m.actions)} actions, {len(self.variants)} variants>")

    def _repr_svg_(self) -> str:
        """A notebook draws a game as its flowchart (phases detail)."""
        return self.diagram(format="svg")


def games() -> list[str]:
    """The bundled games' names."""
    from meeplang.dsl.loader import bundled_games

    return bundled_games()


def load(target: str | os.PathLike[str], variant: str | None = None) -> Game:
    """A bundled game's name, a game folder, a game or variant .yaml file, or GAME:VARIANT."""
    return Game(*split_target(os.fspath(target), variant))
