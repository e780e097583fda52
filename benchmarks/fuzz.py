"""Fuzz the loader, checker and engine with mutated bundled games, at scale.

    python benchmarks/fuzz.py [-n 100000] [--seed 0]

Prints how many inputs were tried and how many escaped (anything but Meeplang's own error with a
position); the first escapes are shown. The goal is 0 escapes.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.mutations import bundled_documents, dump, mutate  # noqa: E402
from tests.fuzz.runner import try_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="escapes to print")
    args = parser.parse_args()
    docs = bundled_documents()
    names = sorted(docs)
    rng = random.Random(args.seed)
    escapes, shown = 0, 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "g"
        folder.mkdir()
        for i in range(args.n):
            name = names[i % len(names)]
            (folder / "game.yaml").write_text(dump(mutate(docs[name], rng)), encoding="utf-8")
            escape = try_game(folder, i)
            if escape:
                escapes += 1
                if shown < args.show:
                    shown += 1
                    print(f"--- escape {shown} (input {i}, from {name}):\n{escape}")
    elapsed = time.perf_counter() - start
    print(f"tried {args.n} mutated games in {elapsed:.1f} s ({args.n / elapsed:.0f}/s): "
          f"{escapes} escaped")
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
