"""Rewrite or check the golden explanations and readings' diffs (visualizer/prose/regen.py says
what they are).

    python -m meeplang.regen_explanations            rewrite them
    python -m meeplang.regen_explanations --check    exit 1 if one is out of date
"""
from __future__ import annotations

import argparse
import sys

from meeplang.dsl.atomic import write_file
from meeplang.visualizer.prose.regen import REGEN_COMMAND, default_folder, expected, problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=REGEN_COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list what is out of date; exit 1")
    args = parser.parse_args(argv)
    folder = default_folder()
    if args.check:
        found = problems(folder)
        print("\n".join(found) or "explanations up to date")
        return 1 if found else 0
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.glob("*.txt"):
        path.unlink()
    for name, text in expected().items():
        write_file(folder / name, text)
        print(folder / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
