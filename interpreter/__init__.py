"""The interpreter: compiled rules, the engine, agents and simulation.

The hot modules may be compiled with mypyc (interpreter/native.py). A compiled build older than
its sources would run old code: it is removed here, before any of them is imported."""


def _drop_stale_build() -> None:
    from . import buildinfo

    if buildinfo.is_stale():
        import sys

        try:
            buildinfo.clean()
        except OSError as exc:
            raise ImportError(f"the compiled interpreter in {buildinfo.HERE} is older than its sources "
                              f"and cannot be removed ({exc}): python -m meeplang.interpreter.native clean"
                              ) from None
        print("meeplang: removed the compiled interpreter, which was older than its sources "
              "(`python -m meeplang.interpreter.native build` makes a new one)", file=sys.stderr)


_drop_stale_build()


def _lower_if_asked() -> None:
    """MEEPLANG_LOWERED=1: the engine's and the compiler's generators run lowered to routines
    whose position is data (interpreter/lowering.py), the path Engine 3 moves to."""
    import os

    if os.environ.get("MEEPLANG_LOWERED", "") not in ("", "0"):
        from . import buildinfo
        if buildinfo.built_files():  # compiled modules are not lowered, and mixing would not do
            raise ImportError("MEEPLANG_LOWERED=1 lowers the interpreter's Python sources, and a "
                              f"compiled build is in {buildinfo.HERE}: remove it first "
                              "(python -m meeplang.interpreter.native clean)")
        from .lowering import install
        install(__name__, ("engine", "compile", "trace"))


_lower_if_asked()
