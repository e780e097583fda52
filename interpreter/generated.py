"""The program the engine runs: the closures of interpreter/compile.py, with each block and
expression site the code generator writes (interpreter/codegen.py) swapped for its generated
function once the module verifies (interpreter/codecheck.py).

`MEEPLANG_CLOSURES=1` in the environment runs the closures alone: the reference the generated
code is tested against (tests/codegen/test_logs_differential.py), and a way to tell whether a
surprise comes from the generator.
"""
from __future__ import annotations

import os

from .codecheck import GeneratedCodeError, load
from .codegen import Recording, generate
from .compile import Compiled, PerGame, compiled


def closures_only() -> bool:
    """Is the generated code switched off (MEEPLANG_CLOSURES=1)?"""
    return os.environ.get("MEEPLANG_CLOSURES", "") not in ("", "0")


def program(game) -> Compiled:
    """A game's program, made once per game (and per switch)."""
    if closures_only():
        return compiled(game)
    return _programs.get(game)


def generated_program(game) -> Compiled:
    """The closures with the generated functions swapped in; the closures alone if the
    generated module does not verify (a bug of the generator's, which the tests would show)."""
    rec = Recording(game)
    generated = generate(game, rec)
    try:
        namespace = load(generated, rec.prog)
    except GeneratedCodeError:
        return rec.prog
    closures = namespace["S"]
    exprs = {key: namespace[name] for key, name in generated.names.items()}
    blocks = {key: namespace[name] for key, name in generated.blocks.items()}
    listings = {key: namespace[name] for key, name in generated.listings.items()}

    def expr(e, scope, fn):
        return exprs.get(id(e), fn)

    def block(b, parts, compiled_block):
        for s, (fn, _) in zip(b.stmts, parts):
            i = generated.fallbacks.get(id(s))
            if i is not None:
                closures[i] = fn
        fn = blocks.get(id(b))
        return compiled_block if fn is None else (fn, compiled_block[1])

    def listing(node, scope, fn):
        return listings.get(id(node), fn)

    prog = Compiled(game, expr_hook=expr, block_hook=block, listing_hook=listing)
    prog.code_chars = len(generated.source)  # what the program cache weighs it by
    return prog


_programs = PerGame(generated_program)
