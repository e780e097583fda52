"""Instructions per decision of random playouts, counted by callgrind (valgrind): the number
that does not move with the machine's load, where CPU times on a shared machine move by 30% or
more. Counting starts after loading and one warm-up game (so the compiled and generated program
and the initial-state templates are made) and stops after the games.

    python benchmarks/instructions.py new-eden 4 0 10            # this tree
    python benchmarks/instructions.py new-eden 4 0 10 --tree OLD # another checkout, side by side

`--tree` points at another checkout of Meeplang (a `git worktree add --detach OLD eff8ab5`): one
from before the `meeplang` namespace (modules `dsl.`, `interpreter.`) runs with this Python, a
later one with its own `.venv` (`make setup` there).
Needs `valgrind` (the OS package) on the PATH.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys


def inner(name: str, players: int, first: int, n: int) -> None:
    """Run under callgrind: load, warm up, then count the games' instructions."""
    if os.environ.get("INSTRUCTIONS_OLD_LAYOUT"):  # a checkout from before the namespace
        sys.path.insert(0, os.getcwd())
        from dsl.resolve import load_game  # type: ignore[no-redef]
        from interpreter.engine import Engine  # type: ignore[no-redef]
    else:
        from meeplang.dsl.resolve import load_game
        from meeplang.interpreter.engine import Engine
    game = load_game(name)

    def play(seeds) -> int:
        decisions, rng = 0, random.Random(1)
        for seed in seeds:
            e = Engine(game, players, seed=seed, record=False)
            d = e.start()
            while d is not None:
                d = e.choose(rng.randrange(len(d.options)))
                decisions += 1
        return decisions

    play([first])
    toggle = ["callgrind_control", "-i"]
    subprocess.run(toggle + ["on", str(os.getpid())], stdout=subprocess.DEVNULL, check=True)
    decisions = play(range(first, first + n))
    subprocess.run(toggle + ["off", str(os.getpid())], stdout=subprocess.DEVNULL, check=True)
    print("decisions", decisions)


def measure(tree: str | None, name: str, players: int, first: int, n: int) -> tuple[int, int]:
    """(decisions, instructions) of the games in `tree` (None: this Python's meeplang)."""
    env, cwd, python = dict(os.environ), None, sys.executable
    if tree is not None:
        cwd = tree
        own = os.path.join(tree, ".venv", "bin", "python")
        if os.path.exists(os.path.join(tree, "meeplang", "api.py")):  # the namespace: its venv
            if not os.path.exists(own):
                sys.exit(f"{tree}: run `make setup` there first (its own .venv)")
            python = own
        else:
            env["INSTRUCTIONS_OLD_LAYOUT"] = "1"
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
           python, os.path.abspath(__file__), "--inner", name, str(players), str(first),
           str(n)]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    text = run.stdout + run.stderr  # callgrind says what it collected on stderr
    return _parse(text)


def _parse(text: str) -> tuple[int, int]:
    decisions = instructions = 0
    for line in text.splitlines():
        if line.startswith("decisions "):
            decisions = int(line.split()[1])
        if "Collected :" in line:
            instructions = int(line.split()[-1])
    return decisions, instructions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("first", type=int, help="first seed")
    ap.add_argument("n", type=int, help="games")
    ap.add_argument("--tree", help="another checkout to measure beside this one")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.game, args.players, args.first, args.n)
        return
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind on the PATH")
    rows = [("this tree", None)] + ([(args.tree, args.tree)] if args.tree else [])
    for label, tree in rows:
        decisions, instructions = measure(tree, args.game, args.players, args.first, args.n)
        per = instructions // decisions if decisions else 0
        print(f"{label:<30} {args.game} {args.players}p games {args.first}-"
              f"{args.first + args.n - 1}: {decisions} decisions, {per:,} instructions/decision")


if __name__ == "__main__":
    main()
