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


LOWERED: bool | None = None  # decided once, when the package is imported


def lowered() -> bool:
    """Does the engine run lowered (the default)? `MEEPLANG_LOWERED=0` runs the engine's
    generators as plain Python generators instead: the old path, kept only for the differential
    test (tests/interpreter/test_lowered_engine.py) and the compiled build, which cannot be
    lowered."""
    if LOWERED is not None:
        return LOWERED
    import os

    from . import buildinfo
    setting = os.environ.get("MEEPLANG_LOWERED", "")
    if setting == "":
        return not buildinfo.built_files()  # a compiled build runs as it was compiled
    return setting != "0"


def _lower() -> None:
    """The engine's and the compiler's generators run lowered to routines whose position is
    data (interpreter/lowering.py): a game is copied, undone and saved at any decision."""
    global LOWERED
    LOWERED = lowered()
    if LOWERED:
        from . import buildinfo
        if buildinfo.built_files():  # compiled modules are not lowered, and mixing would not do
            raise ImportError("MEEPLANG_LOWERED=1 lowers the interpreter's Python sources, and a "
                              f"compiled build is in {buildinfo.HERE}: remove it first "
                              "(python -m meeplang.interpreter.native clean)")
        from .lowering import install
        install(__name__, ("engine", "compile", "trace"))


_lower()
