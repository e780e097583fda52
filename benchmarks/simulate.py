"""Simulation throughput: games per second for pig and goofspiel with 1 and 2 jobs.

    python benchmarks/simulate.py [-n GAMES] [--jobs 1,2] [--executor local|dask] [--json]

Each configuration plays the same seeds (so the same games) with random agents; the time covers
playing only, not starting the pool. The ratio says how far the parallel runner scales: close to
the number of jobs when the machine has that many free cores.
"""
from __future__ import annotations

import argparse
import json
import os
import time

from meeplang.dsl.resolve import load_game
from meeplang.interpreter.parallel import open_runner
from meeplang.interpreter.simulation import SimSpec

GAMES = (("pig", 2), ("goofspiel", 2))


def games_per_second(runner, spec: SimSpec, n: int) -> float:
    """Time one run of n games on an open runner."""
    start = time.perf_counter()
    records = runner.run(spec, n)
    elapsed = time.perf_counter() - start
    assert len(records) == n
    return n / elapsed


def bench(name: str, players: int, n: int, jobs: list[int], executor: str) -> dict:
    """games/s for one game at each job count, and each count's speed-up over the first."""
    spec = SimSpec(name, None, players, seed=1, rules=load_game(name).rules_hash)
    rates = {}
    for j in jobs:
        runner = open_runner(executor, j) if executor == "dask" or j > 1 else open_runner("local")
        try:
            runner.run(spec, min(n, 2 * j))  # warm up: workers load and compile the game
            rates[j] = games_per_second(runner, spec, n)
        finally:
            runner.close()
    base = rates[jobs[0]]
    return {"game": name, "games": n, "executor": executor,
            "games_per_second": {str(j): r for j, r in rates.items()},
            "ratio": {str(j): r / base for j, r in rates.items()}}


def machine() -> dict:
    """CPUs and load: other work on the machine changes the ratio more than the code does."""
    return {"cpus": len(os.sched_getaffinity(0)), "load_average": list(os.getloadavg())}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=2000, help="games per configuration (default 2000)")
    p.add_argument("--jobs", default="1,2", help="job counts to compare (default 1,2)")
    p.add_argument("--executor", choices=("local", "dask"), default="local")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    results = [bench(name, players, args.n, jobs, args.executor) for name, players in GAMES]
    if args.json:
        print(json.dumps({"machine": machine(), "results": results}, indent=2))
        return
    m = machine()
    print(f"{m['cpus']} CPUs, load average {m['load_average'][0]:.2f} (a busy machine cannot "
          "scale: compare ratios at low load)")
    for r in results:
        rates = "  ".join(f"jobs {j}: {v:8.1f} games/s" for j, v in r["games_per_second"].items())
        ratio = "  ".join(f"x{v:.2f}" for j, v in r["ratio"].items() if j != str(jobs[0]))
        print(f"{r['game']:<10} {r['games']} games  {rates}  ratio {ratio}")


if __name__ == "__main__":
    main()
