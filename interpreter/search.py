"""Monte Carlo tree search over what a seat may believe (determinized UCT).

Every iteration draws a belief (interpreter/belief.py: the game replayed, what the seat cannot
see drawn again), walks down one shared tree from the decision to answer, choosing by UCB1 among
the options legal in this belief (counting how often each was available, as information-set
MCTS does), adds one node, plays on for at most ROLLOUT_DECISIONS decisions and scores the
position reached. The rollout's choices are made by a `step` policy: at random (`random_step`), or
one step ahead on the game's own score (interpreter/lookahead.py's `greedy_step`, `mcts:400:greedy`). Each node keeps the reward of the seat that chose it, so every seat plays
for itself. Decisions with a single option take no node. Options are told apart by their labels,
which hide what the chooser cannot see ("pile 2"), so a node means the same in every belief.

A belief is a guess: when the rules find it impossible (a guessed hidden counter too small for
what a player already chose in a secret round), the iteration is dropped.

Rewards lie in 0..1: at the end of the game a winner gets 1 (shared among tied winners); at the
rollout horizon a seat gets the share of the other seats whose `value_of` it beats (half for a
tie): the game's own score plus its `scoring: heuristic:`. A seat alone is rewarded by its value.
"""
from __future__ import annotations

import math
import random
import time

from meeplang.dsl.errors import Impossible

from .belief import believed_game
from .compile import Ctx, need_int

ROLLOUT_DECISIONS = 40  # then the position is scored: whole games cost too much in a euro game
EXPLORATION = 0.7  # UCB1's constant, for rewards in 0..1


def value_of(engine, seat: int) -> int:
    """How well placed `seat` is: its score now, plus the game's heuristic if it declares one."""
    if engine.result is not None:
        return engine.result["scores"][seat]
    heuristic = engine.prog.heuristic
    if heuristic is None:
        return engine.score_of(seat)
    extra = need_int(heuristic(Ctx(engine.state, seat, {}, engine)), "a heuristic",
                     engine.game.scoring.heuristic.pos)
    return engine.score_of(seat) + extra


class Node:
    __slots__ = ("seat", "visits", "reward", "available", "children")

    def __init__(self, seat: int):
        self.seat = seat  # who chose the option leading here
        self.visits = 0
        self.reward = 0.0
        self.available = 0  # iterations in which this option was legal
        self.children: dict = {}

    def ucb(self) -> float:
        if not self.visits:  # added by an iteration whose belief proved impossible
            return math.inf
        return (self.reward / self.visits
                + EXPLORATION * math.sqrt(math.log(self.available) / self.visits))


class Budget:
    """`400` iterations, or `0.5s` of time per decision (not reproducible: it depends on speed)."""

    def __init__(self, text: str):
        self.text = text
        self.seconds = float(text[:-1]) if text.endswith("s") else None
        self.iterations = None if self.seconds is not None else int(text)
        if (self.seconds or self.iterations or 0) <= 0:
            raise ValueError(text)

    def runs(self):
        """Iteration numbers until the budget is spent (at least one)."""
        if self.seconds is None:
            yield from range(self.iterations)  # type: ignore[arg-type]
            return
        end, i = time.perf_counter() + self.seconds, 0
        while i == 0 or time.perf_counter() < end:
            yield i
            i += 1


def random_step(game, decision, rng: random.Random) -> int:
    """A rollout's choice at random."""
    return rng.randrange(len(decision.options))


def search(engine, seat: int, budget: Budget, rng: random.Random, step=random_step) -> int:
    """The index of the option of `engine.decision` (one of `seat`'s) that the search prefers;
    `step(game, decision, rng)` picks the rollouts' options."""
    root = Node(seat)
    for _ in budget.runs():
        try:
            _iterate(root, believed_game(engine, seat, rng), rng, step)
        except Impossible:  # a guess (a hidden counter) the real game contradicts: drop it
            continue
    labels = engine.decision.labels
    best = max(((child.visits, child.reward, -labels.index(label))
                for label, child in root.children.items() if label in labels and child.visits),
               default=None)
    return rng.randrange(len(labels)) if best is None else -best[2]


def _iterate(root: Node, game, rng: random.Random, step) -> None:
    path, node, d = [], root, game.decision
    while d is not None:  # selection, then one expansion
        if len(d.options) == 1:
            d = game.choose(0)
            continue
        labels = d.labels
        fresh = []
        for label in dict.fromkeys(labels):
            child = node.children.get(label)
            if child is None:
                fresh.append(label)
            else:
                child.available += 1
        if fresh:
            label = fresh[rng.randrange(len(fresh))]
            child = node.children[label] = Node(d.player)
            child.available = 1
            node = child
        else:
            label = max(dict.fromkeys(labels), key=lambda x: node.children[x].ucb())
            node = node.children[label]
        path.append(node)
        d = game.choose(labels.index(label))
        if fresh:
            break
    for _ in range(ROLLOUT_DECISIONS):
        if d is None:
            break
        d = game.choose(step(game, d, rng) if len(d.options) > 1 else 0)
    rewards = _rewards(game)
    for node in path:
        node.visits += 1
        node.reward += rewards[node.seat]


def _rewards(game) -> list[float]:
    """Each seat's reward for the position reached (0..1)."""
    n = game.n
    if n == 1:  # alone, a game is won or lost by its score: more is better, on 0..1
        v = value_of(game, 0)
        return [(1 + v / (1 + abs(v))) / 2]
    if game.result is not None:
        winners = game.result["winners"]
        return [1 / len(winners) if p in winners else 0.0 for p in range(n)]
    values = [value_of(game, p) for p in range(n)]
    return [sum(1.0 if v > w else 0.5 if v == w else 0.0 for q, w in enumerate(values) if q != p)
            / (n - 1) for p, v in enumerate(values)]
