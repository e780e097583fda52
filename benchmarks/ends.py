"""Does every game end? Every bundled game, every variant and every player count, played by
random agents and by greedy ones; each game that stops with an error is counted, with its seed.

    python benchmarks/ends.py [--random 300] [--greedy 30] [--jobs 2] [--only GAME[:VARIANT] ...]
                              [--seed 1] [--json]

A game "ends" when its flow ends or a rule says `end game`. One that stops with an error
(`Impossible`, a rule error, the step budget, the decision cap that catches a game with no end)
is a failure; its first seed and message are printed so `meeplang play GAME --players N --seed S
--agents A` replays it alone. Nothing is asserted on time; the time column says where a run's
cost goes. `tests/test_every_game_ends.py` plays a sample of the same table in the slow tier.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.errors import MeeplangError  # noqa: E402
from meeplang.interpreter.simulation import configurations, game_seed, load_cached, play_game  # noqa: E402

CHUNK = 10  # games a task plays: small enough to keep both cores busy to the end


def play_games(task: tuple) -> list[dict]:
    """Play the games `indexes` of one configuration; a failure is a record, not an exception."""
    name, variant, players, agents, master, indexes = task
    game = load_cached(name, variant)
    out = []
    for i in indexes:
        seed = game_seed(master, i)
        start = time.process_time()
        record = {"seed": seed, "ok": True}
        try:
            e = play_game(game, players, seed, agents, record=False)
            record.update(decisions=len(e.choices), turns=e.turns_taken)
        except MeeplangError as exc:
            record.update(ok=False, error=str(exc).split("\n")[0][:200])
        except Exception as exc:  # an escape: the project's own bug, reported as one
            record.update(ok=False, error=f"internal error: {type(exc).__name__}: {exc}"[:200])
        record["seconds"] = time.process_time() - start
        out.append(record)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--random", type=int, default=300, help="random games per configuration")
    p.add_argument("--greedy", type=int, default=30, help="greedy games per configuration")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=1, help="master seed (game i: game_seed(seed, i))")
    p.add_argument("--only", nargs="*", help="games or GAME:VARIANTs to run (default: all)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    configs = configurations(args.only)
    tasks = []
    for name, variant, players in configs:
        for agents, n in (("random", args.random), ("greedy", args.greedy)):
            for lo in range(0, n, CHUNK):
                tasks.append((name, variant, players, agents, args.seed,
                              range(lo, min(n, lo + CHUNK))))
    start = time.perf_counter()
    results: dict = {}
    wanted = {}
    for task in tasks:
        wanted[task[:4]] = wanted.get(task[:4], 0) + len(task[5])
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, records in zip(tasks, pool.map(play_games, tasks)):
            got = results.setdefault(task[:4], [])
            got.extend(records)
            if len(got) == wanted[task[:4]]:  # a configuration done: its row, on stderr as well
                rows.append(_row(*task[:4], got))
                print(_line(rows[-1]), f"({time.perf_counter() - start:.0f} s)", file=sys.stderr,
                      flush=True)
    wall = time.perf_counter() - start
    failures = sum(r["failed"] for r in rows)
    if args.json:
        print(json.dumps({"rows": rows, "failures": failures, "wall_seconds": wall}, indent=1))
        return 1 if failures else 0
    print(f"{len(configs)} configurations, {args.random} random + {args.greedy} greedy games each, "
          f"--jobs {args.jobs}, master seed {args.seed}: {wall:.0f} s")
    print()
    print("| game | players | agents | games | ended | failed | turns (mean) | decisions (max) "
          "| CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(_line(r))
    for r in rows:
        f = r["first_failure"]
        if f:
            print(f"\nFAILED {r['game']} {r['players']}p {r['agents']}: {r['failed']} of "
                  f"{r['games']}; first: seed {f['seed']}: {f['error']}")
    print(f"\n{failures} games failed")
    return 1 if failures else 0


def _row(name: str, variant: str | None, players: int, agents: str, records: list) -> dict:
    done = [r for r in records if r["ok"]]
    failed = [r for r in records if not r["ok"]]
    return {"game": name + (f":{variant}" if variant else ""), "players": players,
            "agents": agents, "games": len(records), "ended": len(done), "failed": len(failed),
            "turns_mean": sum(r["turns"] for r in done) / len(done) if done else None,
            "decisions_max": max((r["decisions"] for r in done), default=None),
            "cpu_seconds": sum(r["seconds"] for r in records),
            "first_failure": failed[0] if failed else None}


def _line(r: dict) -> str:
    turns = "-" if r["turns_mean"] is None else f"{r['turns_mean']:.1f}"
    return (f"| {r['game']} | {r['players']} | {r['agents']} | {r['games']} | {r['ended']} | "
            f"{r['failed']} | {turns} | {r['decisions_max'] or '-'} | {r['cpu_seconds']:.0f} |")


if __name__ == "__main__":
    sys.exit(main())
