"""Rewrite or check the diagrams committed in docs/diagrams (visualizer/regen.py says what they are).

    python -m meeplang.regen_diagrams            rewrite docs/diagrams (needs Graphviz's `dot`)
    python -m meeplang.regen_diagrams --check    exit 1 if a committed diagram is out of date
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meeplang.dsl.errors import MeeplangError
from meeplang.visualizer.regen import REGEN_COMMAND, default_folder, problems, regenerate


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m meeplang.regen_diagrams",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only report what is out of date")
    p.add_argument("--out", type=Path, help=f"folder (default {default_folder()})")
    args = p.parse_args(argv)
    try:
        if args.check:
            found = problems(args.out)
            for line in found:
                print(line)
            if found:
                print(f"regenerate with: {REGEN_COMMAND}")
            return 1 if found else 0
        for path in regenerate(args.out):
            print(path)
        return 0
    except MeeplangError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
