"""Fuzz the loader, checker, engine, log replay and command line with mutated inputs, at scale.

    python benchmarks/fuzz.py [-n 100000] [--seed 0]

Of every ten inputs, eight are mutated bundled games (structure and values), one a mutated log of
a bundled game, one a mutated command line. Prints how many inputs were tried, how fast, and how
many escaped (anything but Meeplang's own error with a position, or from the command line an exit
other than 0, 1 or 2); the first escapes are shown. The goal is 0 escapes.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("MEEPLANG_CACHE", "off")  # mutated games would only fill the cache

from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.log import log_lines  # noqa: E402
from meeplang.interpreter.simulation import play_game  # noqa: E402
from tests.fuzz.mutations import (bundled_documents, dump, mutate, mutate_argv,  # noqa: E402
                                  mutate_log)
from tests.fuzz.runner import try_cli, try_game, try_log  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="escapes to print")
    args = parser.parse_args()
    docs = bundled_documents()
    names = sorted(docs)
    logs = {name: log_lines(play_game(load_game(name), 2, 1, "random"))
            for name in ("pig", "goofspiel")}
    rng = random.Random(args.seed)
    escapes, shown, kinds = 0, 0, {"game": 0, "log": 0, "command line": 0}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "g"
        folder.mkdir()
        log = Path(tmp) / "game.jsonl"
        for i in range(args.n):
            kind = {8: "log", 9: "command line"}.get(i % 10, "game")
            kinds[kind] += 1
            if kind == "game":
                name = names[i % len(names)]
                (folder / "game.yaml").write_text(dump(mutate(docs[name], rng)), encoding="utf-8")
                escape = try_game(folder, i)
            elif kind == "log":
                name = sorted(logs)[i % 2]
                log.write_text("\n".join(mutate_log(logs[name], rng)) + "\n", encoding="utf-8")
                escape = try_log(log)
            else:
                name = "the CLI"
                log.write_text("\n".join(logs["pig"]) + "\n", encoding="utf-8")
                escape = try_cli([str(log) if a == "LOG" else a for a in mutate_argv(rng)],
                                 Path(tmp))
            if escape:
                escapes += 1
                if shown < args.show:
                    shown += 1
                    print(f"--- escape {shown} (input {i}, a {kind} from {name}):\n{escape}")
    elapsed = time.perf_counter() - start
    tried = ", ".join(f"{n} {k}s" for k, n in kinds.items())
    print(f"tried {args.n} mutated inputs ({tried}) in {elapsed:.1f} s "
          f"({args.n / elapsed:.0f}/s): {escapes} escaped")
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
