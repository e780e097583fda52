"""Agents answer Decisions with an option index. They see only their player's view.

Each agent has its own RNG (seeded from the game seed and its seat), never the game's, so the
game's random events depend only on the choices made: that is what makes replay exact.

Agents of your own (`play`, `simulate` and `make_agents` take them beside the built-in names):

- a function `agent(choice) -> option`: `choice` is an interpreter.choices.Choice (`player`,
  `kind`, `options` with their `label`, `id` and `index`, `view`: what the seat sees), and the
  answer is one of its Options, a label, or an index;
- an object with `__call__(choice)`, the same way; if it has `reset(seat, seed)`, that is called
  at the start of each game with its seat and a seed of its own (from the game's seed and the
  seat, as the built-in agents' RNGs), which is how it stays deterministic;
- a class: it is made with no arguments, as an object above.

Each seat of each game gets its own copy of an object (`copy.deepcopy`; a class: a new
instance), so nothing it keeps carries from one game or seat to the next, and a simulation's
records do not depend on how its games are shared among workers. `simulate` with jobs > 1 or
on Dask sends agents to other processes: they must pickle (defined at the top level of a
module; Dask also takes what cloudpickle takes, e.g. a class defined in a notebook).
"""
from __future__ import annotations

import copy
import random
import re
import sys

from meeplang.dsl.errors import UsageError

from .choices import choice_of
from .decisions import Decision
from .belief import unseen
from .lookahead import after_action, after_choice, greedy_step
from .search import Budget, random_step, search


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game of seed `seed`: never the game's own."""
    return seed * 1_000_003 + seat * 7919 + 17


class Agent:
    """The engine's side of an agent: `choose(engine, decision, view) -> option index`."""

    name = "agent"
    needs_view = False
    takes = None  # what follows `name:` in `--agents`, for agents that take a setting

    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = random.Random(agent_seed(seed, seat))

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
    """One step ahead (interpreter/lookahead.py): the option after which this seat is best placed
    by the game's score plus its `scoring: heuristic:`, on beliefs about what the seat cannot see
    (never the real hidden cards or dice to come), summed over a few beliefs.

    A turn's options are tried in place (cheap); the seat's answers inside the best one become
    its plan for the inner decisions that follow. Other decisions are tried on copies (data:
    about half a millisecond each, interpreter/copying.py), at every decision of the game, with
    `samples` beliefs per option, fewer when the options are many (at least one each, about
    `copies` in all). Ties go to a random best option.
    """

    name = "greedy"
    samples = 4  # beliefs per option
    copies = 32  # copies per decision outside a turn, when the options are many

    def __init__(self, seat, seed):
        super().__init__(seat, seed)
        self.plan: list = []  # the labels to answer the inner decisions of the chosen action

    def choose(self, engine, decision, view):
        if decision.kind == "action":
            return self._choose_action(engine, decision)
        if self.plan and self.plan[0] in decision.labels:
            return decision.labels.index(self.plan.pop(0))
        self.plan = []
        n = len(decision.options)
        if n == 1:
            return 0
        samples = max(1, min(self.samples, self.copies // n))
        values = [self._total([after_choice(engine, i, self.seat, self.rng)
                               for _ in range(samples)]) for i in range(n)]
        return self._best(values)

    def _choose_action(self, engine, decision) -> int:
        self.plan = []
        if len(decision.options) == 1:
            return 0
        values, plans, slots = [], [], unseen(engine, self.seat)
        for option in decision.options:
            tries = [after_action(engine, option, self.seat, self.rng, slots)
                     for _ in range(self.samples)]
            values.append(self._total([value for value, _ in tries]))
            plans.append(max(((v, a) for v, a in tries if v is not None), default=(0, []),
                             key=lambda t: t[0])[1])
        i = self._best(values)
        self.plan = plans[i]
        return i

    @staticmethod
    def _total(values: list):
        """The sum of the values found, scaled up for the tries that proved impossible; None if
        every try was (or none was made)."""
        found = [v for v in values if v is not None]
        return sum(found) * len(values) / len(found) if found else None

    def _best(self, values: list) -> int:
        """A random one of the options of highest value (None: never valued)."""
        top = max((v for v in values if v is not None), default=None)
        best = [i for i, v in enumerate(values) if v == top]
        return best[self.rng.randrange(len(best))]


class MCTSAgent(Agent):
    """Monte Carlo tree search (interpreter/search.py) over what its seat may believe: `mcts:400`
    runs 400 iterations per decision, `mcts:0.5s` as many as half a second allows; rollouts are
    random, or one step ahead with `mcts:400:greedy`."""

    name = "mcts"
    takes = ("iterations (mcts:400) or seconds (mcts:0.5s) per decision, then optionally the "
             "rollouts' policy (mcts:400:greedy)")
    default_budget = "200"
    rollouts = {"random": random_step, "greedy": greedy_step}

    def __init__(self, seat, seed, setting=None):
        super().__init__(seat, seed)
        text = setting or self.default_budget
        budget, _, rollout = text.partition(":")
        try:
            self.budget = Budget(budget)
        except ValueError:
            raise UsageError(f"agent mcts:{text}: give {self.takes}") from None
        self.step = self.rollouts.get(rollout or "random")
        if self.step is None:
            raise UsageError(f"agent mcts:{text}: unknown rollout policy {rollout!r} "
                             f"(policies: {', '.join(self.rollouts)})")
        self.name = f"mcts:{text}"

    def choose(self, engine, decision, view):
        if len(decision.options) == 1:
            return 0
        return search(engine, self.seat, self.budget, self.rng, self.step)


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
            out.write(f"  · {_one_line(line)}\n")
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
            out.write(f"  [{i}] {_one_line(text)}\n")
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


def _one_line(text: str) -> str:
    """A game's text on one line of the prompt: a line break in it cannot start a line that
    looks like the prompt's own (the command line escapes the other control characters)."""
    return _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_LINE_BREAKS = re.compile("[\n\r\x85\u2028\u2029]")

class CallableAgent(Agent):
    """A seat played by an agent of your own (a function, an object or a class: see the module's
    docstring): it is given the decision as a Choice and answers an Option, a label or an index.
    """

    def __init__(self, seat: int, seed: int, agent):
        super().__init__(seat, seed)
        self.name = agent_name(agent)
        self.agent = agent() if isinstance(agent, type) else copy.deepcopy(agent)
        if not callable(self.agent):
            raise UsageError(f"agent {self.name} is not callable: an agent is a function of the "
                             "decision, or an object with __call__(choice)")
        reset = getattr(self.agent, "reset", None)
        if callable(reset):
            reset(seat, agent_seed(seed, seat))

    def choose(self, engine, decision, view):
        choice = choice_of(engine)
        answer = self.agent(choice)
        try:
            return choice.option(answer).index
        except UsageError as exc:
            raise UsageError(f"agent {self.name} (seat {self.seat}) answered {answer!r}: "
                             f"{exc.message}") from None


def agent_name(agent) -> str:
    """How reports name an agent: a built-in's spec (`mcts:400`), else its `name` attribute, its
    function's or class's name."""
    if isinstance(agent, str):
        return agent.strip()
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(agent, "__name__", None) or type(agent).__name__


AGENTS = {cls.name: cls for cls in (RandomAgent, FirstLegalAgent, GreedyAgent, MCTSAgent,
                                     HumanAgent)}


def agent_list(spec) -> list:
    """The agents of `spec`: a comma-separated string of names, or a list (or tuple) of names
    and agents of your own; never empty (random by default)."""
    if isinstance(spec, str):
        entries: list = spec.split(",")
    elif spec is None or isinstance(spec, (list, tuple)):
        entries = list(spec or [])
    else:  # one agent of your own for every seat
        entries = [spec]
    entries = [e.strip() if isinstance(e, str) else e for e in entries]
    return [e for e in entries if not isinstance(e, str) or e] or ["random"]


def make_agents(spec, players: int, seed: int) -> list[Agent]:
    """`random,greedy` -> one agent per seat (the last one repeats for the remaining seats);
    `mcts:400` gives an agent its setting; a list may hold agents of your own beside names."""
    entries = agent_list(spec)
    out: list[Agent] = []
    for seat in range(players):
        entry = entries[min(seat, len(entries) - 1)]
        if not isinstance(entry, str):
            out.append(CallableAgent(seat, seed, entry))
            continue
        name, colon, setting = entry.partition(":")
        cls = AGENTS.get(name)
        if cls is None:
            raise UsageError(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})")
        if colon and cls.takes is None:
            raise UsageError(f"agent {name} takes no setting (`{name}:{setting}`)")
        out.append(cls(seat, seed, setting) if colon else cls(seat, seed))
    return out
