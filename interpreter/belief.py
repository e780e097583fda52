"""What a seat may believe: a copy of the game in which everything it cannot see is redrawn.

Search must not peek. A copy of the true game is made (Engine.fork: data; in a round of secret
choices, a copy of the game at the round's first decision, which the engine keeps once asked);
then whatever the seat cannot see
is drawn again, consistently with what it does see (determinization):
- items it cannot see (in zones hidden from it, not peeked at, not shown by a `visible_to:`)
  trade places at random with the other unseen items of the same kind and owner: the cards of a
  deck and of the other players' hands mix, a player's own hidden pieces stay theirs;
- per-player counters hidden from it take a guess that reads nothing hidden: its own value of
  that counter when it sees its own, else the value the game starts with;
- in a round of secret choices, the picks the others have already made are drawn again at random;
- the copy's random number generator is reseeded, so dice and shuffles to come are not the real
  ones.
The decision waiting in the copy names the redrawn items, not the real ones, so that a blind pick
("pile 2") takes whatever the belief put there. Its options were listed on the true game, before
the guess: where they depend on a hidden counter (an opponent's free action it could pay for
beside its secret pick), the copy may offer what the guess cannot pay, and the rules then raise
Impossible; the agents drop such a belief (search.py, lookahead.py).
"""
from __future__ import annotations

import random

from . import state as st
from .decisions import ActionOption


def believed_game(engine, seat: int, rng: random.Random):
    """A copy of `engine`, at its current decision (one of `seat`'s), as `seat` may believe it."""
    d = engine.decision
    mark = engine.secret_mark if d is not None and d.secret else None
    if mark is None:
        copy = engine.fork()
    else:
        engine.keep_secret_start()  # the next rounds' starts are kept: no replay of the game
        copy = engine.at_secret_start()
    swap = redraw(copy, seat, rng)
    if swap and copy.decision is not None:
        copy.decision.options[:] = [renamed(o, swap) for o in copy.decision.options]
    if mark is not None:
        _redraw_secret_round(copy, engine, mark, seat, rng)
    return copy


def unseen(engine, seat: int) -> list:
    """Where the items `seat` cannot see lie, grouped by kind and owner: [[(zone key, index)]]."""
    s = engine.state
    slots: dict = {}
    for key, items in s["zones"].items():
        if not st.hidden_from(engine.game.zones[st.zone_name(key)], key, seat):
            continue
        for i, item in enumerate(items):
            if item not in s["cells"] and not engine.sees(item, seat):
                data = s["items"][item]
                slots.setdefault((data["kind"], data["owner"]), []).append((key, i))
    return list(slots.values())


def redraw(engine, seat: int, rng: random.Random, slots: list | None = None) -> dict:
    """Redraw, in place, what `seat` cannot see (items, hidden counters, the RNG's future);
    returns which item now stands where each moved item stood. `slots`: `unseen(engine, seat)`
    when already known (it does not change until the game moves on)."""
    s = engine.state
    swap: dict = {}
    for group in unseen(engine, seat) if slots is None else slots:
        old = [s["zones"][key][i] for key, i in group]
        new = sorted(old)  # the draw must not depend on the real order, only on the seat's rng
        rng.shuffle(new)
        for (key, i), was, now in zip(group, old, new):
            if engine.rehearsing:  # lookahead redraws in place, in a trial
                engine.moving(now, (key,))
            s["zones"][key][i] = now
            s["loc"][now] = key
            swap[was] = now
    _guess_hidden_counters(engine, seat)
    engine.chance().seed(rng.getrandbits(64))  # noted first: a trial puts it back
    return swap


def _guess_hidden_counters(engine, seat: int) -> None:
    game, players = engine.game, engine.state["players"]
    for name, spec in list(game.counters.items()) + list(game.counter_members.items()):
        if not spec.per_player or spec.visibility == "public" or spec.keys is not None:
            continue
        own = spec.visibility == "owner"
        start = None if own else _starting_values(engine)
        for p, values in enumerate(players):
            if p != seat or not own:
                values[name] = players[seat][name] if own else start[p][name]


def _starting_values(engine) -> list:
    """The per-player counters as the game set them up (before its `setup:` ran)."""
    key = (engine.n, engine.humans, tuple(sorted(engine.opts.items())))
    return engine.prog.initial_states[key]["players"]


def renamed(option, swap: dict):
    """An option with the items it names replaced by what the belief put in their places."""
    if type(option) is str:
        return swap.get(option, option)
    if isinstance(option, ActionOption) and option.value is not None:
        value = renamed(option.value, swap)
        return option if value == option.value else ActionOption(option.action, value,
                                                                 option.free, option.args)
    if isinstance(option, (list, tuple)):
        return type(option)(renamed(x, swap) for x in option)
    return option


def _redraw_secret_round(copy, engine, mark: int, seat: int, rng: random.Random) -> None:
    """Play the secret round again up to `seat`'s decision: its own earlier picks of the round
    (free actions taken before choosing) as they were, the others' drawn at random."""
    ours = [i for i, p in zip(engine.choices[mark:], engine.choosers[mark:]) if p == seat]
    d = copy.decision
    while d is not None:
        if d.player != seat:
            d = copy.choose(rng.randrange(len(d.options)))
        elif ours:
            d = copy.choose(min(ours.pop(0), len(d.options) - 1))
        else:
            return
