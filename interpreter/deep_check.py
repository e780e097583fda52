"""`meeplang check --deep`: play many random games of every variant and player count and check
that nothing breaks: invariants after every step, exact replay of every log, and save/load at a
random decision continuing exactly like the uninterrupted game. Then play each numeric option at
each of its bounds (`min:`, `max:`): a bound says the game can be played with that value, so one
that breaks a game (a table read past its end, a game that can no longer end) is an error at
the bound.
"""
from __future__ import annotations

import json
import random

import attrs

from meeplang.dsl.errors import MeeplangError, Pos
from meeplang.dsl.model import players_text
from meeplang.dsl.resolve import load_game

from . import invariants
from .agents import make_agents
from .engine import Engine
from .log import FORMAT, dumps_line, load, log_text, records_of_text, replay_records, save
from .simulation import game_seed


@attrs.define
class Break:
    """The first thing that went wrong, with what it takes to reproduce it."""

    target: str
    players: int
    seed: int
    step: int
    what: str
    # for a game played with an option at one of its bounds: (option, "min" or "max", value)
    # and where the bound is written
    bound: tuple | None = None
    pos: Pos | None = None

    def __str__(self) -> str:
        option = "" if self.bound is None else f" --option {self.bound[0]}={self.bound[2]}"
        game = (f"{self.target} with {players_text(self.players, self.players)}, seed {self.seed}, "
                f"at decision {self.step}")
        reproduce = (f"  reproduce: meeplang play {self.target} --players {self.players} --seed "
                     f"{self.seed}{option} --trace")
        if self.bound is None:
            return f"{game}: {self.what}\n{reproduce}"
        name, which, value = self.bound
        head = MeeplangError(f"option {name}: the game does not play at its {which} {value} "
                             f"({game})", self.pos).render()
        return head + "\n  " + self.what.replace("\n", "\n  ") + "\n" + reproduce


@attrs.define
class Summary:
    games: int = 0
    decisions: int = 0
    replays: int = 0
    reloads: int = 0
    checks: int = 0
    runs: list = attrs.Factory(list)  # (target, players, games)
    bounds: list = attrs.Factory(list)  # (target, option, "min"/"max", value, player counts)


def _play_checked(game, target, players, seed, agents, options=None):
    """Play one game, checking invariants after every decision. Returns (engine, Break|None)."""
    engine = Engine(game, players, seed, options)
    seats = make_agents(agents, players, seed)
    step = 0
    try:
        d = engine.start()
        broken = invariants.check(engine)
        while d is not None and not broken:
            d = engine.choose(seats[d.player].choose(engine, d, None))
            step += 1
            broken = invariants.check(engine)
    except MeeplangError as exc:
        return engine, step, Break(target, players, seed, step, exc.render())
    if broken:
        return engine, step, Break(target, players, seed, step, "; ".join(broken))
    return engine, step, None


def _replay_and_reload(engine, target, players, seed, rng) -> Break | None:
    # the log's text as write_log writes it, read back exactly as replay reads a log file
    where = f"<log of {target} seed {seed}>"
    try:
        text = log_text(engine)
        text.encode("utf-8")  # a log that could not be written is broken too
        numbered = records_of_text(text, where, FORMAT)
        replay_records([r for _, r in numbered], where, [n for n, _ in numbered],
                       game=engine.game)
    except UnicodeEncodeError as exc:
        return Break(target, players, seed, len(engine.choices), f"the log cannot be written: "
                     f"{exc}")
    except MeeplangError as exc:
        return Break(target, players, seed, len(engine.choices), f"replay failed: {exc}")
    k = rng.randrange(len(engine.choices) + 1)
    part = Engine(engine.game, players, seed, engine.options_given)
    part.start()
    for i in engine.choices[:k]:
        part.choose(i)
    resumed = load([json.loads(dumps_line(r)) for r in save(part)],  # as a file would be read
                   game=engine.game)
    for i in engine.choices[k:]:
        resumed.choose(i)
    if resumed.state != engine.state or resumed.result != engine.result:
        return Break(target, players, seed, k, "a game saved and loaded here ends differently "
                     "from the uninterrupted game")
    if resumed.events != engine.events:
        return Break(target, players, seed, k, "save/load changed the events")
    return None


def option_bounds(game) -> list[tuple]:
    """(option, "min" or "max", value, where it is written) for each bound of a numeric option
    that is not its default (the default is what every other game plays)."""
    out = []
    for o in game.options.values():
        for which, value, pos in (("min", o.min, o.min_pos), ("max", o.max, o.max_pos)):
            if type(value) is int and value != o.default:
                out.append((o.name, which, value, pos))
    return out


def play_bounds(game, target: str, agents: str = "random", seed: int = 0,
                counts: list | None = None, summary: Summary | None = None) -> Break | None:
    """One game at each bound of each numeric option, with the fewest and the most players (or
    `counts`), checking invariants after every decision; the first bound that breaks a game."""
    if counts is None:
        counts = sorted({game.min_players, game.max_players})
    s = game_seed(seed, 0)
    for name, which, value, pos in option_bounds(game):
        for players in counts:
            _, steps, broken = _play_checked(game, target, players, s, agents, {name: value})
            if summary is not None:
                summary.games += 1
                summary.decisions += steps
                summary.checks += steps + 1
            if broken is not None:
                return attrs.evolve(broken, bound=(name, which, value), pos=pos)
        if summary is not None:
            summary.bounds.append((target, name, which, value, tuple(counts)))
    return None


def targets_of(name: str) -> list[str]:
    base, _, variant = name.partition(":")
    if variant:
        return [name]
    game = load_game(base)
    return [base] + [f"{base}:{v}" for v, _, _ in game.variants]


def run_deep(name: str, games_per_count: int = 5, agents: str = "random", seed: int = 0,
             progress=None, targets: list | None = None) -> tuple[Summary, Break | None]:
    """Play, check, replay and reload the games of `name` (a game: it and every variant; a
    GAME:VARIANT: that one), or of `targets` (some of those, e.g. the base game alone)."""
    summary = Summary()
    rng = random.Random(seed)
    for target in targets_of(name) if targets is None else targets:
        base, _, variant = target.partition(":")
        game = load_game(base, variant or None)
        for players in range(game.min_players, game.max_players + 1):
            for i in range(games_per_count):
                s = game_seed(seed, i)
                engine, steps, broken = _play_checked(game, target, players, s, agents)
                summary.games += 1
                summary.decisions += steps
                summary.checks += steps + 1
                if broken is None:
                    broken = _replay_and_reload(engine, target, players, s, rng)
                    summary.replays += 1
                    summary.reloads += 1
                if broken is not None:
                    return summary, broken
                if progress:
                    progress(target, players, i)
            summary.runs.append((target, players, games_per_count))
        broken = play_bounds(game, target, agents, seed, summary=summary)
        if broken is not None:
            return summary, broken
    return summary, None
