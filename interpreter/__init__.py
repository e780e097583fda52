"""The interpreter: compiled rules, the engine, agents and simulation.

The engine runs lowered (interpreter/lowering.py): its generators are rewritten at import into
routines whose position is data, so a game is copied, undone and saved at any decision."""


def _drop_old_build() -> None:
    """Extension modules of the retired mypyc build (buildinfo.py) would be imported in place of
    the sources: removed here, before any of them is imported."""
    from . import buildinfo

    if buildinfo.built_files():
        import sys

        try:
            buildinfo.clean()
        except OSError as exc:
            raise ImportError(f"{buildinfo.HERE} holds the compiled interpreter of an older "
                              f"Meeplang, which cannot be removed ({exc}): delete "
                              f"{', '.join(p.name for p in buildinfo.built_files())}") from None
        print("meeplang: removed the compiled interpreter of an older Meeplang (the mypyc build "
              "is retired: the engine runs lowered)", file=sys.stderr)


_drop_old_build()


LOWERED: bool | None = None  # decided once, when the package is imported


def lowered() -> bool:
    """Does the engine run lowered (the default)? `MEEPLANG_LOWERED=0` runs the engine's
    generators as plain Python generators instead: the old path, kept only for the differential
    test (tests/interpreter/test_lowered_engine.py)."""
    if LOWERED is not None:
        return LOWERED
    import os

    return os.environ.get("MEEPLANG_LOWERED", "") != "0"


def _lower() -> None:
    """The engine's and the compiler's generators run lowered to routines whose position is
    data (interpreter/lowering.py): a game is copied, undone and saved at any decision."""
    global LOWERED
    LOWERED = lowered()
    if LOWERED:
        from .lowering import install
        install(__name__, ("engine", "compile", "trace"))


_lower()
