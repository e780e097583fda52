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


def _lower() -> None:
    """The engine's and the compiler's generators run lowered to routines whose position is
    data (interpreter/lowering.py): a game is copied, undone and saved at any decision. There
    is no other way to run them (the generator engine was removed once the differential test
    had shown both played every bundled game alike, byte for byte)."""
    from .lowering import install
    install(__name__, ("engine", "compile", "trace"))


_lower()
