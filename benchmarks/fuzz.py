"""Fuzz the loader, checker, engine, log replay and command line with mutated inputs, at scale.

    python benchmarks/fuzz.py [-n 100000] [--seed 0] [--jobs N] [--resume FILE]

Of every ten inputs, eight are mutated bundled games (structure and values; the files a game
includes lie unchanged beside it), one a mutated log of a bundled game, one a mutated command
line. Prints how many inputs were tried, how fast, and how many escaped (anything but Meeplang's
own error with a position, or from the command line an exit other than 0, 1 or 2); the first
escapes are shown. The goal is 0 escapes.

Input i is made by its own random generator (from the seed and i), so a run gives the same
inputs in any number of pieces and jobs. With `--resume FILE` the totals so far are kept in FILE
(after every chunk of inputs): stop the run at any time, start the same command again, and it
goes on where it stopped and adds up, recording which inputs escaped; `--inputs I ...` tries
those again once they are fixed.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.log import log_lines  # noqa: E402
from meeplang.interpreter.simulation import play_game  # noqa: E402
from tests.fuzz.mutations import (bundled_documents, copy_includes, dump, mutate,  # noqa: E402
                                  mutate_argv, mutate_log, write_failure)
from tests.fuzz.runner import try_cli, try_game, try_log  # noqa: E402

CHUNK = 50  # inputs per unit of work (and between two saves of the totals)
KINDS = ("game", "log", "command line")


class Fuzzer:
    """The unchanged inputs, made once per process (bundled games, their logs, a scratch folder
    per game holding its includes); `run(i)` tries mutated input i."""

    def __init__(self, seed: int, root: str):
        self.seed = seed
        self.tmp = Path(tempfile.mkdtemp(dir=root))  # removed with root, by main
        # The bundled games that logs and command lines load come from a cache of this run's own
        # (mutated games are loaded by the loader itself, never through the cache).
        os.environ.pop("MEEPLANG_CACHE", None)
        os.environ["MEEPLANG_CACHE_DIR"] = str(self.tmp / "cache")
        self.docs = bundled_documents()
        self.names = sorted(self.docs)
        self.folders = {}
        for name in self.names:
            folder = self.folders[name] = self.tmp / name.split("/")[0]
            copy_includes(name, folder)
        self.logs = {name: log_lines(play_game(load_game(name), 2, 1, "random"))
                     for name in ("pig", "goofspiel")}
        self.log = self.tmp / "game.jsonl"

    def run(self, i: int) -> tuple[str, str, str | None]:
        """(kind, what it was mutated from, the escape or None) for input i."""
        rng = random.Random(self.seed * 1_000_003 + i)
        kind = {8: "log", 9: "command line"}.get(i % 10, "game")
        if kind == "game":
            name = self.names[i % len(self.names)]
            folder = self.folders[name]
            (folder / "game.yaml").write_text(dump(mutate(self.docs[name], rng)), encoding="utf-8")
            return kind, name, try_game(folder, i)
        if kind == "log":
            name = sorted(self.logs)[i // 10 % 2]
            self.log.write_text("\n".join(mutate_log(self.logs[name], rng)) + "\n",
                                encoding="utf-8")
            return kind, name, try_log(self.log)
        self.log.write_text("\n".join(self.logs["pig"]) + "\n", encoding="utf-8")
        argv = [str(self.log) if a == "LOG" else "out.file" if a == "OUT" else a
                for a in mutate_argv(rng)]
        (self.tmp / "out.file").unlink(missing_ok=True)
        return kind, "the CLI", try_cli(argv, self.tmp, write_failure(rng))


_FUZZER: Fuzzer | None = None


MEMORY = 3 * 2**30  # bytes of address space per process: a runaway input is a MemoryError (an
# escape the run reports), not a machine that swaps


def _start_worker(seed: int, root: str) -> None:
    global _FUZZER
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    _FUZZER = Fuzzer(seed, root)


def run_chunk(indexes: range) -> list:
    """Try these inputs in this process: [(index, kind, name, escape), ...]."""
    assert _FUZZER is not None
    return [(i, *_FUZZER.run(i)) for i in indexes]


def load_totals(path: Path | None, seed: int) -> dict:
    totals = {"seed": seed, "done": 0, "escapes": 0, "seconds": 0.0,
              "kinds": dict.fromkeys(KINDS, 0), "shown": [], "escaped": []}
    if path is not None and path.exists():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved["seed"] != seed:
            sys.exit(f"fuzz.py: {path} is a run with --seed {saved['seed']}, not {seed}")
        totals.update(saved)
    return totals


def save_totals(path: Path | None, totals: dict) -> None:
    if path is not None:
        part = path.with_name(path.name + ".part")
        part.write_text(json.dumps(totals, indent=1), encoding="utf-8")
        part.replace(path)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000, help="inputs in the whole run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="escapes to print")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--resume", type=Path, metavar="FILE",
                        help="keep the totals in FILE and go on from them")
    parser.add_argument("--inputs", type=int, nargs="+", metavar="I",
                        help="try only these inputs again (say, the escapes a run recorded)")
    args = parser.parse_args()
    if args.inputs:
        return retry(args.seed, args.inputs)
    totals = load_totals(args.resume, args.seed)
    first = totals["done"]
    chunks = [range(a, min(a + CHUNK, args.n)) for a in range(first, args.n, CHUNK)]
    before, start = totals["seconds"], time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="meeplang-fuzzrun-") as root, \
            concurrent.futures.ProcessPoolExecutor(
                args.jobs, initializer=_start_worker, initargs=(args.seed, root)) \
            if args.jobs > 1 else _InProcess(args.seed, root) as pool:
        for results in pool.map(run_chunk, chunks):
            for i, kind, name, escape in results:
                totals["kinds"][kind] += 1
                if escape:
                    totals["escapes"] += 1
                    totals["escaped"].append(i)
                    if len(totals["shown"]) < args.show:
                        totals["shown"].append(escape)
                        print(f"--- escape {len(totals['shown'])} (input {i}, a {kind} from "
                              f"{name}):\n{escape}", flush=True)
            totals["done"] = results[-1][0] + 1
            totals["seconds"] = before + time.perf_counter() - start
            save_totals(args.resume, totals)
    elapsed = time.perf_counter() - start
    tried = ", ".join(f"{n} {k}s" for k, n in totals["kinds"].items())
    now = totals["done"] - first
    print(f"tried {totals['done']} mutated inputs ({tried}) in {totals['seconds']:.1f} s; "
          f"this session {now} in {elapsed:.1f} s ({now / max(elapsed, 1e-9):.1f}/s): "
          f"{totals['escapes']} escaped")
    return 1 if totals["escapes"] else 0


def retry(seed: int, inputs: list[int]) -> int:
    """Try the given inputs of a run again on today's code: which of them still escape."""
    with tempfile.TemporaryDirectory(prefix="meeplang-fuzzrun-") as root:
        _start_worker(seed, root)
        still = 0
        for i, kind, name, escape in run_chunk(inputs):
            still += bool(escape)
            print(f"input {i} (a {kind} from {name}): " + (f"escapes\n{escape}" if escape
                                                           else "no escape"))
    print(f"{still} of {len(inputs)} inputs escaped")
    return 1 if still else 0


class _InProcess:
    """A pool of one: the chunks run here, in order (no process to start)."""

    def __init__(self, seed: int, root: str):
        _start_worker(seed, root)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass

    @staticmethod
    def map(fn, chunks):
        return map(fn, chunks)


if __name__ == "__main__":
    sys.exit(main())
