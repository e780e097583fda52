"""The generated program (interpreter/generated.py) against the closures it replaces.

    python benchmarks/codegen.py [--games 10] [--rounds 3]

Prints numbers; asserts nothing. Plays the same random games with each program, alternating
round by round: the closures of interpreter/compile.py alone (`MEEPLANG_CLOSURES=1`), and the
program the engine runs by default, blocks and expression sites swapped for their generated
functions. Same seeds, same choices: the decision counts must agree. CPU time per decision (best
of the rounds), Python calls per decision (cProfile, one round), and the cost of making the
generated program (record, generate, verify, load, compile again: the cold start).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.compile import Compiled  # noqa: E402
from meeplang.interpreter.engine import Engine  # noqa: E402
from meeplang.interpreter.generated import generated_program  # noqa: E402

GAMES = (("new-eden", 4), ("goofspiel", 2), ("pig", 2))


def play(game, players: int, prog, n: int) -> int:
    """The decisions of n random games run by `prog`."""
    rng = random.Random(1)
    decisions = 0
    for seed in range(n):
        engine = Engine(game, players, seed=seed, record=False)
        engine.prog = prog
        d = engine.start()
        while d is not None:
            d = engine.choose(rng.randrange(len(d.options)))
            decisions += 1
    return decisions


def timed(game, players: int, prog, n: int) -> tuple[int, float]:
    """(decisions, CPU µs per decision)."""
    start = time.process_time()
    decisions = play(game, players, prog, n)
    return decisions, (time.process_time() - start) / decisions * 1e6


def calls(game, players: int, prog, n: int) -> float:
    """Python calls per decision, counted by cProfile."""
    profile = cProfile.Profile()
    profile.enable()
    decisions = play(game, players, prog, n)
    profile.disable()
    return pstats.Stats(profile).total_calls / decisions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for name, players in GAMES:
        game = load_game(name)
        start = time.process_time()
        progs = {"closures": Compiled(game)}
        closures_ms = (time.process_time() - start) * 1000
        start = time.process_time()
        progs["generated"] = generated_program(game)
        cold = (time.process_time() - start) * 1000
        best = {label: float("inf") for label in progs}
        for _ in range(args.rounds):
            counts = set()
            for label, prog in progs.items():
                decisions, us = timed(game, players, prog, args.games)
                counts.add(decisions)
                best[label] = min(best[label], us)
            assert len(counts) == 1, "the two programs played differently"
        per = {label: calls(game, players, prog, args.games) for label, prog in progs.items()}
        print(f"{name:<10} compile: closures {closures_ms:5.0f} ms, generated {cold:5.0f} ms | "
              f"µs/decision closures {best['closures']:6.1f}  generated "
              f"{best['generated']:6.1f}  ratio {best['closures'] / best['generated']:.2f}x | "
              f"calls/decision {per['closures']:.0f} -> {per['generated']:.0f}")


if __name__ == "__main__":
    main()
