"""Mutation testing of a game's rules: does some test fail when a rulebook number changes?

    python benchmarks/mutation.py new-eden [--tests tests/games/new_eden] [--jobs 2]
        [--only games/new-eden/game.yaml:118 ...] [--part 1/4] [--sample K] [--seed S]
        [--resume OUTPUT] [--list] [--timeout T]

For every mutant of the game's files (dsl/mutation.py: each number +-1, each comparison flipped,
neighbouring numbers swapped), the game is copied to a temporary games folder with that one change
and the tests are run by `pytest -x` in a fresh process with `MEEPLANG_GAMES_DIR` pointing at the
copy (dsl/loader.games_dir honours it, so every test that loads a game by name loads the mutant).
Each job keeps a warm server process that forks that fresh process (TestServer): imports paid once.
A mutant is killed when the tests fail; a survivor is printed with its `file:line:col`. Numbers the
game's files declare sample (`sample:`) are not run: they are listed at the end. The tests are
first run once on the unchanged game, which must pass.

GAME is a bundled game's name or a game folder; the default tests are tests/games/<name> (with
`_` for `-`). `--jobs N` runs N mutants at once (each in its own copy); `--only` runs the mutants
at the given `file:line` (or `file:line:col`) places; `--part K/N` the K-th of N interleaved parts (to run a
long pass in chunks); `--sample K` runs K of them, chosen by `--seed`; `--resume OUTPUT` reuses the
outcomes an earlier run printed to OUTPUT (an interrupted pass goes on where it stopped). Each outcome is printed as it
comes, then the survivors in file order and the counts. Exit status: 0 when no mutant survived, 1
otherwise.
"""
from __future__ import annotations

import argparse
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from meeplang.dsl.loader import GAME_FILE, games_dir  # noqa: E402
from meeplang.dsl.mutation import Mutant, game_mutants, select  # noqa: E402


def shown_root() -> Path:
    """Places are shown relative to the current folder (games/new-eden/game.yaml:118:24)."""
    return Path.cwd().resolve()


def where(m: Mutant) -> str:
    try:
        return m.where(shown_root())
    except ValueError:
        return m.where()


def sample_lines(mutants: list) -> str:
    """`games/x/cards.yaml lines 50-139, 172-175`: the lines of the sample numbers, as ranges."""
    by_file: dict = {}
    for m in mutants:
        by_file.setdefault(where(m).split(":")[0], set()).add(m.line)
    out = []
    for name, lines in sorted(by_file.items()):
        ranges, run = [], []
        for n in sorted(lines):
            if run and n != run[-1] + 1:
                ranges.append(run)
                run = []
            run.append(n)
        ranges.append(run)
        out.append(f"{name} lines " + ", ".join(
            str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in ranges))
    return "; ".join(out)


def previous_outcomes(output: Path) -> dict:
    """(place, change) -> outcome, from the `[i/n] outcome place  change` lines of an earlier run."""
    found = {}
    for line in output.read_text(encoding="utf-8").splitlines():
        head, _, what = line.partition("  ")
        parts = head.split(" ")
        if len(parts) == 3 and parts[0].startswith("[") and parts[1] in OUTCOMES:
            found[(parts[2], what)] = parts[1]
    return found


OUTCOMES = ("killed", "survived", "timeout")


# without the plugins a single-process run never uses: they cost more than most runs' tests
PYTEST_ARGS = ["-x", "-q", "-m", "not slow", "-p", "no:cacheprovider", "-p", "no:xdist",
               "-p", "no:hypothesispytest"]


class TestServer:
    """A warm Python process (pytest and Meeplang imported, the grammar built) that forks one
    child per test run: every run starts from the same clean imports without paying for them."""

    def __init__(self, tests: list[str], timeout: float, cache: Path):
        env = dict(os.environ, MEEPLANG_CACHE="off", MEEPLANG_CACHE_DIR=str(cache),
                   PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTEST_XDIST_WORKER", None)
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", str(timeout), *tests],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=ROOT, env=env)

    def run(self, games: Path) -> str:
        """'killed', 'survived' or 'timeout': the tests run against the games folder `games`."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{games}\n")
        self.proc.stdin.flush()
        code = int(self.proc.stdout.readline())
        if code == 5:
            raise SystemExit("no tests collected")
        return "survived" if code == 0 else "timeout" if code == -signal.SIGALRM else "killed"

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def serve(timeout: float, tests: list[str]) -> None:
    """The server's side: one line (a games folder) in, one exit status out, per run."""
    import pytest

    from meeplang.dsl.parser import parse_expression
    from meeplang.interpreter.engine import Engine  # noqa: F401  (imported once, for every child)

    parse_expression("1")
    for line in sys.stdin:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.environ["MEEPLANG_GAMES_DIR"] = line.strip()
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            signal.alarm(max(1, int(timeout)))
            os._exit(int(pytest.main([*PYTEST_ARGS, *tests])))
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(f"{os.waitstatus_to_exitcode(status)}\n")
        sys.stdout.flush()


def copy_games(folder: Path, into: Path) -> Path:
    """A copy of every game next to `folder` (a variant may extend one of them)."""
    for game in folder.parent.iterdir():
        if (game / GAME_FILE).is_file():
            shutil.copytree(game, into / game.name)
    return into / folder.name


def run(folder: Path, mutants: list, tests: list[str], jobs: int, timeout: float) -> dict:
    """Each mutant's outcome, running `jobs` at once, each worker in its own copy of the games."""
    with tempfile.TemporaryDirectory(prefix="meeplang-mutants-") as tmp:
        servers = [TestServer(tests, timeout, Path(tmp) / f"cache{j}") for j in range(jobs)]
        workers: queue.Queue = queue.Queue()
        for j, server in enumerate(servers):
            workers.put((copy_games(folder, Path(tmp) / str(j)), server))

        def one(m: Mutant) -> str:
            game, server = workers.get()
            target = game / m.file.relative_to(folder)
            original = target.read_text(encoding="utf-8")
            try:
                target.write_text(m.apply(original), encoding="utf-8")
                return server.run(game.parent)
            finally:
                target.write_text(original, encoding="utf-8")
                workers.put((game, server))

        outcome = {}
        try:
            with ThreadPoolExecutor(jobs) as pool:
                running = {pool.submit(one, m): m for m in mutants}
                for done, future in enumerate(as_completed(running), 1):
                    m = running[future]
                    outcome[m] = future.result()
                    print(f"[{done}/{len(mutants)}] {outcome[m]} {where(m)}  {m.what}", flush=True)
        finally:
            for server in servers:
                server.close()
        return outcome


def baseline(folder: Path, tests: list[str], timeout: float) -> str:
    """The tests' outcome on the unchanged games."""
    with tempfile.TemporaryDirectory(prefix="meeplang-mutants-") as tmp:
        server = TestServer(tests, timeout, Path(tmp))
        try:
            return server.run(folder.parent)
        finally:
            server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", help="a bundled game's name, or a game folder")
    parser.add_argument("--tests", nargs="+", help="pytest selection (default tests/games/<name>)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", nargs="+", default=[], help="file:line or file:line:col places")
    parser.add_argument("--part", help="K/N: run the K-th of N interleaved parts (1 <= K <= N)")
    parser.add_argument("--sample", type=int, help="run only K mutants, chosen by --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=900, help="seconds per test run")
    parser.add_argument("--resume", help="an earlier run's output: its outcomes are not run again")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)

    given = Path(args.game)
    folder = (given if (given / GAME_FILE).is_file() else games_dir() / args.game).resolve()
    tests = args.tests or [f"tests/games/{folder.name.replace('-', '_')}"]
    found = game_mutants(folder)
    chosen = select(found.live, args.only, shown_root()) if args.only else found.live
    if args.part:
        k, n = (int(x) for x in args.part.split("/"))
        chosen = chosen[k - 1::n]
    if args.sample is not None:
        chosen = random.Random(args.seed).sample(chosen, min(args.sample, len(chosen)))
    if args.list:
        for m in chosen:
            print(f"{where(m)}  {m.what}")
        print(f"{len(chosen)} mutants; {len(found.sample)} sample numbers left out")
        return 0

    start = time.perf_counter()
    if baseline(folder, tests, args.timeout) != "survived":
        print(f"the tests fail on the unchanged game: {' '.join(tests)}")
        return 2
    earlier = previous_outcomes(Path(args.resume)) if args.resume else {}
    known = {m: earlier[(where(m), m.what)] for m in chosen if (where(m), m.what) in earlier}
    outcome = {**known, **run(folder, [m for m in chosen if m not in known], tests,
                              max(1, args.jobs), args.timeout)}
    survivors = [m for m in chosen if outcome[m] == "survived"]
    for m in sorted(survivors, key=lambda m: (str(m.file), m.line, m.edits[0].col)):
        print(f"SURVIVED {where(m)}  {m.what}")
    if found.sample:
        print(f"sample data left out ({len(found.sample)} mutants): {sample_lines(found.sample)}")
    timeouts = sum(1 for v in outcome.values() if v == "timeout")
    print(f"{folder.name}: {len(found.live)} mutants, {len(chosen)} run: "
          f"{len(chosen) - len(survivors)} killed ({timeouts} by timeout), {len(survivors)} "
          f"survived; {len(found.sample)} sample-excluded; {time.perf_counter() - start:.0f} s")
    return 1 if survivors else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(float(sys.argv[2]), sys.argv[3:])
    else:
        sys.exit(main())
