"""Agents answer Decisions with an option index. They see only their player's view.

Each agent has its own RNG (seeded from the game seed and its seat), never the game's, so the
game's random events depend only on the choices made: that is what makes replay exact.
"""
from __future__ import annotations

import random
import sys

from meeplang.dsl.errors import UsageError

from .decisions import Decision


class Agent:
    name = "agent"
    needs_view = False

    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = random.Random(seed * 1_000_003 + seat * 7919 + 17)

    def choose(self, engine, decision: Decision, view) -> int:  # pragma: no cover - interface
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniformly random among the legal options."""

    name = "random"

    def choose(self, engine, decision, view):
        return self.rng.randrange(len(decision.options))


class FirstLegalAgent(Agent):
    """Always the first legal option (deterministic, handy for tests)."""

    name = "first"

    def choose(self, engine, decision, view):
        return 0


class GreedyAgent(Agent):
    """One-step lookahead: the option that gives this player the best score right after it.

    The engine is forked by replaying its choices (the game is a pure function of seed and
    choices), the option is taken, and the game's `scoring.score` is read at the next decision.
    Ties go to a random best option. In a secret choice the other players' pending choices are
    unknown, so the lookahead stops at the next decision whoever makes it.
    """

    name = "greedy"
    secret_samples = 4

    def choose(self, engine, decision, view):
        if len(decision.options) == 1:
            return 0
        best, best_value = [], None
        for i in range(len(decision.options)):
            if decision.secret and engine.secret_mark is not None:
                value = sum(self._secret_outcome(engine, i) for _ in range(self.secret_samples))
            else:
                fork = engine.fork()
                fork.choose(i)
                value = fork.score_of(self.seat)
            if best_value is None or value > best_value:
                best, best_value = [i], value
            elif value == best_value:
                best.append(i)
        return best[self.rng.randrange(len(best))]

    def _secret_outcome(self, engine, index: int):
        """Score after a secret round in which the others' hidden picks are guessed at random."""
        mark = engine.secret_mark
        fork = engine.fork(engine.choices[:mark])
        # our own choices in this round so far (free actions taken before choosing) are known
        ours = [i for i, p in zip(engine.choices[mark:], engine.choosers[mark:]) if p == self.seat]
        d = fork.decision
        tried = False
        while d is not None and d.secret and fork.secret_mark == mark:
            if d.player == self.seat and ours:
                d = fork.choose(ours.pop(0))
            elif d.player == self.seat and not tried:
                d, tried = fork.choose(index), True
            else:  # the others' hidden picks, and any later pick of ours
                d = fork.choose(self.rng.randrange(len(d.options)))
        return fork.score_of(self.seat)


class ScriptedAgent(Agent):
    """Plays a fixed list of option indexes (from a log), then falls back to the first option."""

    name = "scripted"

    def __init__(self, seat, seed, script=None):
        super().__init__(seat, seed)
        self.script = list(script or [])

    def choose(self, engine, decision, view):
        return self.script.pop(0) if self.script else 0


class HumanAgent(Agent):
    """A person at the terminal: the options are listed with numbers; type a number or a label."""

    name = "human"
    needs_view = True

    def __init__(self, seat, seed, stdin=None, stdout=None):
        super().__init__(seat, seed)
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stdout
        self.seen = 0  # events already shown

    def _news(self, engine) -> list[str]:
        """What happened since this player last chose (dice, reveals, auctions, other choices)."""
        lines = []
        for ev in engine.events[self.seen:]:
            kind = ev.get("event")
            if kind == "roll":
                lines.append(f"player {ev['player']} rolled d{ev['die']}: {ev['value']}")
            elif kind == "decision" and ev["player"] != self.seat:
                lines.append(f"player {ev['player']} chose {ev['option']}")
            elif kind == "phase":
                lines.append(f"phase {ev['phase']}")
            elif kind in ("reveal", "auction", "log", "automa"):
                lines.append(", ".join(f"{k} {v}" for k, v in ev.items() if k != "at"))
        self.seen = len(engine.events)
        return lines

    def choose(self, engine, decision, view):
        out = self.stdout
        me = view["players"][self.seat]
        for line in self._news(engine):
            out.write(f"  · {line}\n")
        out.write(f"\nPlayer {self.seat} — {decision.kind} ({decision.why})\n")
        if view["counters"]:
            out.write("  game: " + ", ".join(f"{k}={v}" for k, v in sorted(view["counters"].items()))
                      + "\n")
        out.write("  you: " + ", ".join(f"{k}={v}" for k, v in sorted(me.items())) + "\n")
        for key, items in sorted(view["zones"].items()):
            if items:
                out.write(f"  {key}: {', '.join(map(str, items[:12]))}"
                          f"{' …' if len(items) > 12 else ''}\n")
        for i, text in enumerate(decision.labels):
            out.write(f"  [{i}] {text}\n")
        while True:
            out.write("choose> ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise UsageError("no more input: the human player left the game")
            answer = line.strip()
            if answer.isdigit() and int(answer) < len(decision.options):
                return int(answer)
            if answer in decision.labels:
                return decision.labels.index(answer)
            out.write(f"  not an option: type 0 to {len(decision.options) - 1} or an option's "
                      "name\n")


AGENTS = {cls.name: cls for cls in (RandomAgent, FirstLegalAgent, GreedyAgent, HumanAgent)}


def make_agents(spec: str | list | None, players: int, seed: int) -> list[Agent]:
    """`random,greedy` -> one agent per seat (the last name repeats for the remaining seats)."""
    names = spec.split(",") if isinstance(spec, str) else list(spec or ["random"])
    names = [n.strip() for n in names if n.strip()] or ["random"]
    out = []
    for seat in range(players):
        name = names[min(seat, len(names) - 1)]
        if name not in AGENTS:
            raise UsageError(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})")
        out.append(AGENTS[name](seat, seed))
    return out
