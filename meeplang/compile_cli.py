"""`meeplang compile GAME[:VARIANT] [--emit-python]`: the Python a game's rules become."""
from __future__ import annotations


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "compile", help="generate (and verify) the Python module of a game's rules",
        description="Compile the game's rules (blocks of statements and expressions) to Python "
                    "functions, verify the module (interpreter/codecheck.py) and load it. With "
                    "--emit-python, print the module: each function is marked with its rule's "
                    "file:line.")
    s.add_argument("game", metavar="GAME[:VARIANT]", help="a game, GAME:VARIANT, a folder or a "
                   ".yaml file")
    s.add_argument("--emit-python", action="store_true", help="print the generated module")
    s.set_defaults(func=cmd_compile)


def cmd_compile(args) -> int:
    from meeplang.dsl.resolve import load_game
    from meeplang.interpreter.codecheck import load
    from meeplang.interpreter.codegen import Recording, generate

    game = load_game(args.game)
    recording = Recording(game)
    generated = generate(game, recording)
    load(generated, recording.prog)
    if args.emit_python:
        print(generated.source, end="")
        return 0
    label = game.name + (f":{game.variant}" if game.variant else "")
    print(f"ok: {label}: {len(generated.blocks)} blocks and {len(generated.names)} expressions "
          f"compiled to Python ({len(generated.source.splitlines())} lines, verified)")
    return 0
