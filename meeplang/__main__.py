"""`python -m meeplang ...` is the `meeplang` command (where the console script is not on PATH)."""
import sys

from meeplang.cli import main

if __name__ == "__main__":
    sys.exit(main())
