"""Rewrite or check the derived JSON Schemas (dsl/schema.py says how they are made from
dsl/game.schema.json).

    python -m meeplang.regen_schemas            rewrite dsl/variant.schema.json and include.schema.json
    python -m meeplang.regen_schemas --check    exit 1 if one is out of date
"""
from __future__ import annotations

import argparse
import sys

from meeplang.dsl.atomic import write_file
from meeplang.dsl.schema import derived_schemas, schema_text

REGEN_COMMAND = "python -m meeplang.regen_schemas"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=REGEN_COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list what is out of date; exit 1")
    args = parser.parse_args(argv)
    stale = {path: schema for path, schema in derived_schemas().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != schema_text(schema)}
    for path, schema in stale.items():
        if args.check:
            print(f"out of date: {path.name} (run {REGEN_COMMAND})")
        else:
            write_file(path, schema_text(schema))
            print(f"wrote {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
