"""One step ahead without peeking: how well placed a seat is after one of its options.

Two ways, both on a belief (interpreter/belief.py: what the seat cannot see drawn again, the
random number generator reseeded), never on the real hidden cards or the real dice to come:
- in place (`after_action`), for the options of a turn: the action runs on the live game as a
  rehearsal does (nothing recorded, no free actions), its inner decisions answered at random,
  and the game is put back exactly as it was. No replay, so it is cheap enough for every turn of
  every game of a long simulation. The seat's answers are returned, as a plan for the inner
  decisions to come;
- on a copy (`after_choice`), for any other decision (a `choose` inside a rule, a bid, a secret
  choice): the game is replayed into a believed copy and the option taken there; in a round of
  secret choices the others' picks still to come are drawn at random, so that the round is
  resolved before the position is valued.

`greedy_step` uses the first way as a search's rollout policy.
"""
from __future__ import annotations

import random

from meeplang.dsl.errors import Impossible

from .belief import believed_game, redraw, renamed
from .compile import EndGame, EndTurn
from .decisions import ActionOption
from .rehearsal import trial
from .search import value_of


def after_action(engine, option: ActionOption, seat: int, rng: random.Random, slots: list):
    """(value, the seat's answers) after taking a turn's option in a belief, or (None, answers)
    if the random answers led the action into a dead end. `slots`: belief.unseen(engine, seat)."""
    if option.action not in engine.prog.actions:  # `end turn`: nothing happens now
        with trial(engine):  # the score's work is not the game's (its steps are put back)
            return value_of(engine, seat), []
    answers: list = []
    with trial(engine):
        gen = engine.run_action(renamed(option, redraw(engine, seat, rng, slots)), seat)
        try:
            d = gen.send(None)
            while d.options:
                i = rng.randrange(len(d.options))
                if d.player == seat:
                    answers.append(d.labels[i])
                d = gen.send(d.options[i])
            return None, answers
        except (StopIteration, EndTurn, EndGame):
            return value_of(engine, seat), answers
        except Impossible:
            return None, answers
        finally:
            gen.close()


def after_choice(engine, index: int, seat: int, rng: random.Random) -> int | None:
    """The seat's value after option `index` of the current decision, in a believed copy; None
    if the rules find the belief impossible (a guess the real game contradicts), which may show
    while the belief replays the others' picks of a secret round: the decision waiting in the copy
    was listed before the hidden counters were guessed."""
    try:
        copy = believed_game(engine, seat, rng)
        mark = copy.secret_mark
        d = copy.choose(index)
        while d is not None and d.secret and copy.secret_mark == mark and mark is not None:
            d = copy.choose(rng.randrange(len(d.options)))
    except Impossible:
        return None
    return value_of(copy, seat)


def greedy_step(game, decision, rng: random.Random) -> int:
    """A rollout's choice one step ahead: at a turn's decision, the option after which the player
    is best placed, each tried once in place (the rollout already plays in a belief, so nothing is
    redrawn); elsewhere, and among equals, at random."""
    if decision.kind != "action":
        return rng.randrange(len(decision.options))
    values = [after_action(game, option, decision.player, rng, [])[0]
              for option in decision.options]
    top = max((v for v in values if v is not None), default=None)
    best = [i for i, v in enumerate(values) if v == top]
    return best[rng.randrange(len(best))]
