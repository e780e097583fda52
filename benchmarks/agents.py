"""Strength and cost of the search agents, printed (nothing is asserted).

    python benchmarks/agents.py [--goofspiel-games 10] [--iterations 100]
                                [--eden-games 2] [--eden-iterations 30] [--skip-goofspiel]

1. Goofspiel-13: Meeplang's `mcts:N` against OpenSpiel's MCTSBot with N simulations (random
   rollouts, UCT c=2, `returns_type=win_loss`), when open_spiel is installed. The two play one
   game: Meeplang runs it, and at the bot's turn the bot is shown the game so far as an OpenSpiel
   state. Goofspiel bids are simultaneous; OpenSpiel plays them one after the other
   (`turn_based_simultaneous_game`), so the bot is always OpenSpiel's first player, which has not
   seen the other bid (a second player's state would show it). Seats alternate between games.
2. What a copy of a game costs at a New Eden decision halfway through (4 players): the state
   alone (plain data), a rehearsal's save and restore in place, and a whole game (replayed: the
   paused rules are Python generators, which cannot be copied) as `mcts` and `greedy` need it.
3. New Eden, 4 players: seat 0 `mcts:N` against three random and against three greedy players,
   and every seat random or greedy: wins of seat 0, how many stations collapsed (damage above
   the stability limit at the end, `holds(p)` false) by agent, and the time per decision.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeplang.dsl.parser import parse_expression  # noqa: E402
from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.agents import Agent, make_agents  # noqa: E402
from meeplang.interpreter.compile import Ctx, compile_expression  # noqa: E402
from meeplang.interpreter.engine import Engine  # noqa: E402


class Timed:
    """An agent whose thinking time is added up."""

    def __init__(self, agent):
        self.agent, self.seconds, self.decisions = agent, 0.0, 0

    def choose(self, engine, decision, view):
        start = time.perf_counter()
        index = self.agent.choose(engine, decision, view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return index


class OpenSpielMCTS(Agent):
    """OpenSpiel's MCTSBot in a Meeplang goofspiel game (always OpenSpiel's first player)."""

    name = "openspiel-mcts"

    def __init__(self, seat, seed, pyspiel, mcts, game, iterations):
        super().__init__(seat, seed)
        import numpy as np

        self.pyspiel, self.game = pyspiel, game
        self.bot = mcts.MCTSBot(game, uct_c=2, max_simulations=iterations, solve=False,
                                evaluator=mcts.RandomRolloutEvaluator(
                                    1, np.random.RandomState(seed)),
                                random_state=np.random.RandomState(seed + 1))
        self.prizes: list[int] = []

    def choose(self, engine, decision, view):
        s = engine.state
        value = {x: d.get("value") for x, d in s["items"].items()}
        self.prizes.append(value[s["zones"]["prize_shown"][0]])
        if len(decision.options) == 1:  # the last card: OpenSpiel plays it by itself
            return 0
        other = 1 - self.seat
        mine, theirs = s["zones"][f"played@{self.seat}"], s["zones"][f"played@{other}"]
        state = self.game.new_initial_state()
        for prize, a, b in zip(self.prizes, mine, theirs):
            _deal(state, prize)
            state.apply_action(value[a] - 1)
            state.apply_action(value[b] - 1)
        _deal(state, self.prizes[-1])
        card = self.bot.step(state) + 1
        return next(i for i, x in enumerate(decision.options) if value[x] == card)


def _deal(state, prize: int) -> None:
    """The prize card, unless OpenSpiel deals the last one by itself (no chance left)."""
    if state.is_chance_node():
        state.apply_action(prize - 1)


def goofspiel_against_openspiel(games: int, iterations: int) -> None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        print("goofspiel: open_spiel is not installed (pip install open_spiel): skipped")
        return
    spec = ("turn_based_simultaneous_game(game=goofspiel(num_cards=13,points_order=random,"
            "returns_type=win_loss))")
    os_game = pyspiel.load_game(spec)
    game = load_game("goofspiel")
    won = 0.0
    ours_t, theirs_t = [0.0, 0], [0.0, 0]
    for i in range(games):
        seat = i % 2  # Meeplang's seat
        e = Engine(game, 2, 1000 + i, record=False)
        ours = Timed(make_agents(f"mcts:{iterations}", 2, 1000 + i)[seat])
        theirs = Timed(OpenSpielMCTS(1 - seat, 1000 + i, pyspiel, mcts, os_game, iterations))
        seats = {seat: ours, 1 - seat: theirs}
        d = e.start()
        while d is not None:
            d = e.choose(seats[d.player].choose(e, d, None))
        winners = e.result["winners"]
        won += 1 / len(winners) if seat in winners else 0
        for acc, agent in ((ours_t, ours), (theirs_t, theirs)):
            acc[0] += agent.seconds
            acc[1] += agent.decisions
    print(f"goofspiel-13, {iterations} iterations, {games} games: Meeplang mcts wins {won:g} "
          f"({100 * won / games:.0f}%) against OpenSpiel MCTSBot")
    print(f"  time per decision: Meeplang {1000 * ours_t[0] / ours_t[1]:.0f} ms, OpenSpiel "
          f"{1000 * theirs_t[0] / theirs_t[1]:.0f} ms")


def _per_call(fn, seconds: float = 1.0) -> float:
    """Microseconds of CPU per call of fn(), garbage collection included: the process's CPU
    time, not the wall clock, so that other work on the machine does not count (it still
    shares the caches)."""
    calls, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        fn()
        calls += 1
    return 1e6 * (time.process_time() - start) / calls


def copy_costs() -> None:
    import random

    from meeplang.interpreter.belief import believed_game
    from meeplang.interpreter.state import copy_state
    from meeplang.interpreter.rehearsal import trial

    e = Engine(load_game("new-eden"), 4, 3, record=False)
    d, rng = e.start(), random.Random(1)
    while len(e.choices) < 150 or len(d.options) < 2:
        d = e.choose(rng.randrange(len(d.options)))
    print(f"\nA New Eden game (4 players) after {len(e.choices)} decisions, one copy:")
    print(f"  the state (plain data)            {_per_call(lambda: copy_state(e.state)):10.0f} us")
    def save_and_restore() -> None:
        with trial(e):
            pass

    def replayed() -> None:
        copy = Engine(e.game, 4, 3, record=False)
        copy.start()
        for i in e.choices:
            copy.choose(i)

    print(f"  a rehearsal's save + restore      {_per_call(save_and_restore):10.0f} us")
    print(f"  the game, replayed from its start {_per_call(replayed, 3.0):10.0f} us")
    from meeplang.interpreter.copying import copyable

    if copyable(e):  # where the rules stand is data (docs/design.md)
        print(f"  the game, copied as data (Engine.fork, lowered engine) "
              f"{_per_call(e.fork, 3.0):10.0f} us")
    else:
        print("  the game, copied as data: not here (something on the chain is not data)")
    print(f"  a belief (fork + redraw)          "
          f"{_per_call(lambda: believed_game(e, d.player, rng), 3.0):10.0f} us")


def new_eden(games: int, iterations: int) -> None:
    game = load_game("new-eden")
    mcts = f"mcts:{iterations}"
    print(f"\nNew Eden, 4 players, {games} games each (seeds 0..{games - 1}):")
    print(f"{'agents':<34} {'seat 0 wins':>11} {'collapses seat 0':>17} {'others':>7} "
          f"{'ms/decision seat 0':>19}")
    for agents in ("random", "greedy", f"{mcts},random", f"{mcts},greedy", f"{mcts}:greedy,random",
                   f"{mcts}:greedy,greedy"):
        won, collapsed, others, spent, decided = 0.0, 0, 0, 0.0, 0
        for seed in range(games):
            e = Engine(game, 4, seed, record=False)
            seats = [Timed(a) for a in make_agents(agents, 4, seed)]
            d = e.start()
            while d is not None:
                d = e.choose(seats[d.player].choose(e, d, None))
            holds = compile_expression(e.prog, game, parse_expression("holds(you)"))
            fell = [not holds(Ctx(e.state, p, {}, e)) for p in range(4)]
            collapsed += fell[0]
            others += sum(fell[1:])
            winners = e.result["winners"]
            won += 1 / len(winners) if 0 in winners else 0
            spent += seats[0].seconds
            decided += seats[0].decisions
        print(f"{agents:<34} {won:>11g} {f'{collapsed}/{games}':>17} "
              f"{f'{others}/{3 * games}':>7} {1000 * spent / decided:>19.1f}")


LADDER_GAMES = (("thesauros", 3), ("otys", 3), ("endeavor-deep-sea", 4), ("new-eden", 4))


def ladders(games: int, agents: str, jobs: int) -> None:
    """Each euro game's ladder of `agents` (`meeplang simulate GAME --ladder`): which agent to
    trust, by win share against tables of each other one."""
    from meeplang.cli import main as meeplang

    for name, players in LADDER_GAMES:
        print()
        meeplang(["simulate", name, "--players", str(players), "-n", str(games), "--ladder",
                  agents, "--jobs", str(jobs)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--goofspiel-games", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--eden-games", type=int, default=2)
    parser.add_argument("--eden-iterations", type=int, default=30)
    parser.add_argument("--skip-goofspiel", action="store_true")
    parser.add_argument("--ladder-games", type=int, default=12, help="games a pair of agents in "
                        "each euro game's ladder (0: none)")
    parser.add_argument("--ladder", default="random,greedy", help="the agents of the ladders")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the ladders")
    args = parser.parse_args()
    if not args.skip_goofspiel:
        goofspiel_against_openspiel(args.goofspiel_games, args.iterations)
    copy_costs()
    if args.eden_games:
        new_eden(args.eden_games, args.eden_iterations)
    if args.ladder_games:
        ladders(args.ladder_games, args.ladder, args.jobs)


if __name__ == "__main__":
    main()
