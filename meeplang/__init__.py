"""Meeplang: a declarative rules language for modern board games.

    import meeplang
    game = meeplang.load("pig")            # or a folder, a .yaml file, "new-eden:solo"
    game.check(); game.play(players=3, seed=1).scores; game.simulate(n=100).summary

See meeplang.api for the whole API, and meeplang.cli for the `meeplang` command.
"""
__version__ = "0.1.0"

from meeplang.dsl.errors import MeeplangError  # noqa: E402 - after __version__, which dsl's users read

from .api import Check, Game, Problem, Result, Simulation, games, load  # noqa: E402

__all__ = ["Check", "Game", "MeeplangError", "Problem", "Result", "Simulation", "games", "load",
           "__version__"]
