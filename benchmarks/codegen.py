"""Generated expression code (interpreter/codegen.py) against the closures it would replace.

    python benchmarks/codegen.py [--games 10] [--rounds 3]

Prints numbers; asserts nothing. Plays the same random games twice per round, alternating: once
with the closure interpreter as it is, once with every expression site's closure swapped for its
generated function (through `Compiled(game, expr_hook=...)`, as the plugged-in build would). Same
seeds, same choices: the decision counts must agree. Also the cost of generating, verifying and
loading each game's module (cold start).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.codecheck import load  # noqa: E402
from meeplang.interpreter.codegen import generate  # noqa: E402
from meeplang.interpreter.compile import Compiled  # noqa: E402
from meeplang.interpreter.engine import Engine  # noqa: E402

GAMES = (("new-eden", 4), ("goofspiel", 2), ("pig", 2))


def play(game, players: int, prog, n: int) -> tuple[int, float]:
    """(decisions, CPU µs per decision) over n random games run by `prog`."""
    rng = random.Random(1)
    decisions = 0
    start = time.process_time()
    for seed in range(n):
        engine = Engine(game, players, seed=seed, record=False)
        engine.prog = prog
        d = engine.start()
        while d is not None:
            d = engine.choose(rng.randrange(len(d.options)))
            decisions += 1
    return decisions, (time.process_time() - start) / decisions * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for name, players in GAMES:
        game = load_game(name)
        closures = Compiled(game)
        start = time.perf_counter()
        generated_module = generate(game)
        functions = load(generated_module, closures)
        cold = (time.perf_counter() - start) * 1000
        generated = Compiled(game, expr_hook=lambda e, scope, fn: functions.get(id(e), fn))
        best = {"closures": float("inf"), "generated": float("inf")}
        for _ in range(args.rounds):
            counts = set()
            for label, prog in (("closures", closures), ("generated", generated)):
                decisions, us = play(game, players, prog, args.games)
                counts.add(decisions)
                best[label] = min(best[label], us)
            assert len(counts) == 1, "the two programs played differently"
        print(f"{name:<10} {len(functions):>4} sites, module {cold:6.1f} ms | µs/decision "
              f"closures {best['closures']:7.1f}  generated {best['generated']:7.1f}  "
              f"ratio {best['closures'] / best['generated']:.2f}x")


if __name__ == "__main__":
    main()
