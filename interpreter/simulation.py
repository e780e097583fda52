"""Playing games with agents: one game (`play_game`) or many (`run_games`)."""
from __future__ import annotations

import dataclasses

from meeplang.dsl.errors import MeeplangError, UsageError
from meeplang.dsl.resolve import load_game

from .agents import agent_list, agent_name, make_agents
from .decisions import ActionOption
from .engine import Engine


def play_game(game, players: int, seed: int, agents="random", options=None,
              record: bool = True, watch=None, **engine_args) -> Engine:
    """Play one game to the end; returns the finished engine (result, events, state).
    `watch(decision, index)` is told each choice before it is made."""
    engine = Engine(game, players, seed, options, record=record, **engine_args)
    seats = make_agents(agents, players, seed)
    d = engine.start()
    while d is not None:
        agent = seats[d.player]
        view = engine.view(d.player) if agent.needs_view else None
        index = agent.choose(engine, d, view)
        if watch is not None:
            watch(d, index)
        d = engine.choose(index)
    return engine


def game_seed(master_seed: int, index: int) -> int:
    """Each game's seed from the master seed and its index: the same for any job split."""
    return (master_seed * 1_000_003 + index * 2_654_435_761) % (2**63)


def run_games(game, players: int, n: int, seed: int = 0, agents="random", options=None):
    """Yield the result of n games (seed per game derived from the master seed)."""
    for i in range(n):
        e = play_game(game, players, game_seed(seed, i), agents, options, record=False)
        yield {"index": i, "seed": game_seed(seed, i), "decisions": len(e.choices),
               "turns": e.turns_taken, **e.result}


# ------------------------------------------------------------ many games in chunks (simulate)
# The functions below serve `meeplang simulate` and its parallel runners: a chunk of games is
# described by small picklable values (a SimSpec and a list of indexes) so the same code runs in
# this process, in a process pool or on dask workers, and gives the same records everywhere.


@dataclasses.dataclass(frozen=True)
class SimSpec:
    """What to simulate, by name rather than by object, so it pickles cheaply to any worker.

    `target` is a bundled game's name or an absolute path (workers may run elsewhere); `rules` is
    the rules hash seen by the caller, so a worker with other rules under the same name refuses.
    `agents` is the `--agents` text, or a tuple of names and agents of your own (they must pickle).
    """

    target: str
    variant: str | None
    players: int
    seed: int
    agents: str | tuple = "random"
    options: dict = dataclasses.field(default_factory=dict)
    rules: str | None = None


_LOADED: dict = {}


def load_cached(target: str, variant: str | None):
    """Load a game once per process: parsing and compiling costs more than a short game."""
    key = (target, variant)
    game = _LOADED.get(key)
    if game is None:
        game = _LOADED[key] = load_game(target, variant)
    return game


def configurations(only: list[str] | None = None) -> list[tuple[str, str | None, int]]:
    """(game, variant, players) for every bundled game, variant and player count; with `only`,
    those named (`GAME` for the game and its variants, `GAME:VARIANT` for one)."""
    from meeplang.dsl.loader import bundled_games, games_dir, variant_names

    out = []
    for name in bundled_games():
        for variant in [None, *variant_names(games_dir() / name)]:
            full = name + (f":{variant}" if variant else "")
            if only and full not in only and name not in only:
                continue
            game = load_cached(name, variant)
            for players in range(game.min_players, game.max_players + 1):
                out.append((name, variant, players))
    return out


def game_record(game, players: int, master_seed: int, index: int, agents="random",
                options=None) -> dict:
    """Game `index` of a run, reduced to what statistics and reports need (small to pickle)."""
    seed = game_seed(master_seed, index)
    actions: dict = {}
    first: list = []  # the seat that chose the game's first action: the first player

    def watch(d, i) -> None:
        option = d.options[i]
        if isinstance(option, ActionOption):
            actions[option.action] = actions.get(option.action, 0) + 1
            if not first:
                first.append(d.player)

    e = play_game(game, players, seed, agents, options, record=False, watch=watch)
    return {"index": index, "seed": seed, "scores": list(e.result["scores"]),
            "winners": list(e.result["winners"]), "decisions": len(e.choices),
            "turns": e.turns_taken, "actions": actions, "first": first[0] if first else None}


def play_chunk(spec: SimSpec, indexes, out: list | None = None) -> list[dict]:
    """Play the games `indexes` of a run; the unit of work sent to a process or dask worker.
    Each game's record is appended to `out` (a new list if not given) as soon as it is played,
    so a run stopped part-way keeps the games it finished.

    A game that fails gets a hint naming its seed, since `meeplang play --seed` replays it alone.
    """
    game = load_cached(spec.target, spec.variant)
    if spec.rules is not None and game.rules_hash != spec.rules:
        raise UsageError(f"this worker's {spec.target!r} has other rules ({game.rules_hash}, "
                         f"expected {spec.rules}): install the same meeplang and games everywhere")
    out = [] if out is None else out
    for i in indexes:
        try:
            out.append(game_record(game, spec.players, spec.seed, i, spec.agents, spec.options))
        except MeeplangError as exc:
            if exc.hint is None:
                exc.hint = _replay_hint(spec, i)
            raise
    return out


def _replay_hint(spec: SimSpec, index: int) -> str:
    """How to replay one failing game of a run on its own."""
    if isinstance(spec.variant, tuple):  # stacked variants: each by --variant
        target = spec.target + "".join(f" --variant {v}" for v in spec.variant)
    else:
        target = spec.target + (f":{spec.variant}" if spec.variant else "")
    opts = "".join(f" --option {k}={v}" for k, v in spec.options.items())
    agents = ",".join(agent_name(a) for a in agent_list(spec.agents))
    return (f"this was game {index}; replay it with `meeplang play {target} --players "
            f"{spec.players} --seed {game_seed(spec.seed, index)} --agents {agents}{opts}`")


def check_sendable(agents, executor: str) -> None:
    """Agents of your own go to worker processes by pickle (Dask: cloudpickle too): say which
    one cannot, and what to do, rather than fail inside the pool."""
    import pickle

    for agent in agent_list(agents):
        if isinstance(agent, str):
            continue
        try:
            pickle.dumps(agent)
            continue
        except Exception as exc:  # noqa: BLE001 - pickle raises many kinds
            reason = f"{type(exc).__name__}: {exc}"
        if executor == "dask":
            try:
                import cloudpickle

                cloudpickle.dumps(agent)
                continue
            except Exception:  # noqa: BLE001
                pass
        raise UsageError(f"agent {agent_name(agent)} cannot be sent to worker processes "
                         f"({reason}): define it at the top level of a module (not inside a "
                         "function, nor a lambda), or simulate with jobs=1")
