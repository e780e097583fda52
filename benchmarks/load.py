"""Start-up cost: loading and checking every bundled game (and each variant) in a fresh process.

    python benchmarks/load.py [--runs 5]

Each run is a new Python process that imports Meeplang and loads + checks every bundled game and
every variant (`meeplang check` does the same work). Two cases: cold (no cache: every file is read,
validated, parsed and checked) and warm (the checked games come from the cache, dsl/cache.py, as
they do on every run after the first while the files and Meeplang are unchanged). Prints the best
and median wall time of the runs, and the split between imports and loading. Asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, time
t0 = time.perf_counter()
from meeplang.dsl.loader import bundled_games, games_dir, variant_names
from meeplang.dsl.resolve import load_game
t1 = time.perf_counter()
targets = []
for name in bundled_games():
    targets.append(name)
    targets += [f"{name}:{v}" for v in variant_names(games_dir() / name)]
for target in targets:
    load_game(target)
t2 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "load": t2 - t1, "targets": targets}))
"""


def one_run(env: dict) -> tuple[float, dict]:
    import time

    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=env)
    return time.perf_counter() - start, json.loads(out.stdout)


def report(case: str, runs: list) -> None:
    walls = [w for w, _ in runs]
    best = min(runs, key=lambda r: r[0])
    print(f"{case:<5} best {min(walls):.3f} s, median {statistics.median(walls):.3f} s over "
          f"{len(walls)} runs (best run: imports {best[1]['imports']:.3f} s, loading "
          f"{best[1]['load']:.3f} s, the rest is the interpreter starting)")


def main() -> None:
    import os
    import tempfile

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold = dict(os.environ, MEEPLANG_CACHE="off")
        warm = dict(os.environ, MEEPLANG_CACHE_DIR=cache)
        one_run(warm)  # fills the cache
        runs = {"cold": [one_run(cold) for _ in range(args.runs)],
                "warm": [one_run(warm) for _ in range(args.runs)]}
    print(f"fresh process, load + check: {', '.join(runs['cold'][0][1]['targets'])}")
    for case, results in runs.items():
        report(case, results)


if __name__ == "__main__":
    main()
