"""Playing games with agents: one game (`play_game`) or many (`run_games`)."""
from __future__ import annotations

from .agents import make_agents
from .engine import Engine


def play_game(game, players: int, seed: int, agents="random", options=None,
              record: bool = True, **engine_args) -> Engine:
    """Play one game to the end; returns the finished engine (result, events, state)."""
    engine = Engine(game, players, seed, options, record=record, **engine_args)
    seats = make_agents(agents, players, seed)
    d = engine.start()
    while d is not None:
        agent = seats[d.player]
        view = engine.view(d.player) if agent.needs_view else None
        d = engine.choose(agent.choose(engine, d, view))
    return engine


def game_seed(master_seed: int, index: int) -> int:
    """Each game's seed from the master seed and its index: the same for any job split."""
    return (master_seed * 1_000_003 + index * 2_654_435_761) % (2**63)


def run_games(game, players: int, n: int, seed: int = 0, agents="random", options=None):
    """Yield the result of n games (seed per game derived from the master seed)."""
    for i in range(n):
        e = play_game(game, players, game_seed(seed, i), agents, options, record=False)
        yield {"index": i, "seed": game_seed(seed, i), "decisions": len(e.choices), **e.result}
