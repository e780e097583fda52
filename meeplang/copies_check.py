"""Copies as data, checked against replays, and undo (Engine 3).

    python -m meeplang.copies_check [--games N] [--seed S] [--only G] [--copies K]

For every bundled game, variant and player count it plays N games with random agents (a greedy
seat too, whose lookahead copies games) and prints one line per game: the game, its seed and the
SHA-256 of its log. With `--copies K` it also copies the first of them at K random decisions
(inner ones included) both by data (Engine.fork: interpreter/copying.py) and by replay (Engine.fork
given the choices: the game replayed from its start), and checks that the two copies agree (state,
random state, the decision and its options, the counters) and play on alike for 60 choices, while
the game they were copied from is left as it was; then takes a choice back with `Engine.undo` (the
game must be as it was) and makes it again (it must lead where it led).

(Until 2026-11-28 the same games were also played on the generator engine, which the engine
lowered to routines replaced, and the two logs compared byte for byte: they were equal for every
bundled game, variant and player count before the generator engine was removed.)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from meeplang.interpreter.copying import copyable
from meeplang.interpreter.log import log_lines
from meeplang.interpreter.simulation import configurations, game_seed, load_cached, play_game


def _configurations(only: list[str] | None, most_players: int | None):
    for name, variant, players in configurations(only):
        game = load_cached(name, variant)
        if most_players is None or players <= max(game.min_players, most_players):
            yield name + (f":{variant}" if variant else ""), game, players


def _fingerprint(e) -> tuple:
    d = e.decision
    return (json.dumps(e.state, sort_keys=True, default=str), e.rng.getstate(), e.steps,
            e.turns_taken, e.depth, e.busy, list(e.acting), len(e.windows),
            None if d is None else (d.player, d.kind, d.why, list(d.labels)))


def check_copies(game, players: int, seed: int, copies: int) -> int:
    """Copy a game at random decisions by data and by replay; both must agree and play on alike.
    Returns how many copies were checked."""
    from meeplang.interpreter.engine import Engine
    e = Engine(game, players, seed, record=False)
    d = e.start()
    rng = random.Random(seed)
    length = 0
    while d is not None and length < 4000:
        d = e.choose(rng.randrange(len(d.options)))
        length += 1
    # the same game again, copied at `copies` random decisions along the way
    marks = set(rng.sample(range(length), min(copies, length))) if length else set()
    e = Engine(game, players, seed, record=False)
    d = e.start()
    rng = random.Random(seed)
    checked = 0
    for i in range(length):
        if d is None:
            break
        if i in marks:
            before = _fingerprint(e)
            if not copyable(e):
                raise AssertionError(f"{game.name} seed {seed}: at decision {i} where the rules "
                                     "stand is not data")
            by_data = e.fork()
            by_replay = e.fork(list(e.choices))
            if _fingerprint(by_data) != _fingerprint(by_replay):
                raise AssertionError(f"{game.name} seed {seed}: the copy at decision {i} differs "
                                     "from the replayed one")
            if _fingerprint(by_data) != before:
                raise AssertionError(f"{game.name} seed {seed}: the copy at decision {i} is not "
                                     "the game it was copied from")
            play = random.Random(i)
            for _ in range(60):  # play both on alike
                if by_data.decision is None:
                    break
                k = play.randrange(len(by_data.decision.options))
                by_data.choose(k)
                by_replay.choose(k)
                if _fingerprint(by_data) != _fingerprint(by_replay):
                    raise AssertionError(f"{game.name} seed {seed}: copies made at decision {i} "
                                         "part ways when played on")
            if _fingerprint(e) != before:
                raise AssertionError(f"{game.name} seed {seed}: playing a copy changed the game")
            # undo: a choice taken back leaves the game as it was; made again, as it was after
            if e.decision is not None:
                e.keep_undo()
                k = random.Random(-i).randrange(len(e.decision.options))
                e.choose(k)
                after = _fingerprint(e)
                e.undo()
                if _fingerprint(e) != before:
                    raise AssertionError(f"{game.name} seed {seed}: undo at decision {i} does not "
                                         "give back the game as it was")
                e.choose(k)
                if _fingerprint(e) != after:
                    raise AssertionError(f"{game.name} seed {seed}: the choice made again after "
                                         f"an undo at decision {i} leads elsewhere")
                e.history = None
                checked += 1
                d = e.decision  # this decision's choice is made: the walk goes on from the next
                continue
            checked += 1
        d = e.choose(rng.randrange(len(d.options)))
    return checked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m meeplang.copies_check")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append")
    ap.add_argument("--most-players", type=int, default=None)
    ap.add_argument("--copies", type=int, default=0)
    args = ap.parse_args(argv)
    for full, game, players in _configurations(args.only, args.most_players):
        for i in range(args.games):
            seed = game_seed(args.seed, i)
            agents = "greedy,random" if i % 2 and players > 1 else "random"
            e = play_game(game, players, seed, agents)
            digest = hashlib.sha256("\n".join(log_lines(e)).encode()).hexdigest()[:16]
            print(f"{full} {players} {seed} {agents} {len(e.choices)} {digest}", flush=True)
            if args.copies and i == 0:
                n = check_copies(game, players, seed, args.copies)
                print(f"{full} {players} {seed} copies checked: {n}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
