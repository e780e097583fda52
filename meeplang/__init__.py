"""Meeplang: a declarative rules language for modern board games.

A short guide (README.md has the whole story):

    import meeplang
    game = meeplang.load("pig")              # a bundled name, a folder, a .yaml file, "pig:short"
    game.check()                             # errors and warnings as data (.ok, .errors, .warnings)
    game.play(players=3, seed=1).scores      # one game; .winners, .log
    game.simulate(n=100, jobs=2).summary     # many games: win rates with intervals, lengths

Step a game yourself (meeplang.step):

    state = game.start(players=2, seed=1)   # a State at its first decision
    d = state.decision                       # d.player, d.kind, d.options: .label, .id, .index
    state.why_not("stop")                    # None if legal, else the reason
    state.apply("roll")                      # by label, Option or index; illegal: an error
    state.copy(), state.undo(), state.view(0), state.over, state.returns()

Your own agent: a function (or an object with __call__, or a class) given the decision as a
`meeplang.Choice` (its `view` is what the seat sees), answering an Option, a label or an index:

    def cautious(choice):
        return "stop" if choice.view["counters"]["turn_total"] >= 20 and "stop" in choice.labels \
            else choice.options[0]
    game.play(players=2, agents=[cautious, "mcts:200"])
    game.simulate(n=200, players=2, agents=[cautious, "mcts"], jobs=2)

Game-playing libraries: meeplang.openspiel (any game as a pyspiel game, for OpenSpiel's
algorithms) and meeplang.pettingzoo (a PettingZoo AEC environment with action masks), both on
stable action ids (meeplang.interpreter.choices). Errors are `meeplang.MeeplangError`, printed as
`file:line:col: error: message`. The `meeplang` command (also `python -m meeplang`) does the same
from a terminal.
"""
__version__ = "0.1.0"

from meeplang.dsl.errors import MeeplangError  # noqa: E402 - after __version__, which dsl's users read

from meeplang.interpreter.choices import Choice, Option  # noqa: E402

from .api import Check, Game, Problem, Result, Simulation, games, load  # noqa: E402
from .step import State  # noqa: E402

__all__ = ["Check", "Choice", "Game", "MeeplangError", "Option", "Problem", "Result",
           "Simulation", "State", "games", "load", "__version__"]
