"""PettingZoo's face: any Meeplang game or variant as an AEC environment
(`pip install 'meeplang[pettingzoo]'`).

    from meeplang.pettingzoo import env
    e = env("pig", players=2)                 # a bundled name, folder, file or GAME:VARIANT
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are `player_0`, `player_1`... (the seats agents play; an automa's seats are played by the
rules). Actions are the stable action ids of interpreter/choices.py: an id names the same move
(its label) whatever else is legal, in a `Discrete(2**bits)` space (2**20 by default), and
`observation["action_mask"]` marks the legal ones for the agent to move (all 0 for the others);
`info["legal"]` maps each legal id to its label. Illegal actions are refused with the reason
(meeplang.MeeplangError), and the game is left as it was.

`observation["observation"]` is what the agent's seat sees, as numbers: its seat, then every
counter of the game and of each seat and the size of every zone, in the order of
`env.observation_names` (fixed for the environment; a number hidden from the seat reads 0).
`info["view"]` is not given: the seat's whole view (items, where they are) is
`env.state.view(seat)`, the meeplang.State being played. Rewards come at the end: `returns="win"`
(each of k winners 1/k, each other seat -1/(n-k), all 0 when nobody wins) or `"score"` (the final
scores). `reset(seed=S)` plays the game of seed S; `reset()` the environment's next game
(`game_seed(seed, i)` for the i-th); `reset`'s `options` are not read: a game's options are given
to `env(...)`.
"""
from __future__ import annotations

from typing import Any

from meeplang.dsl.errors import UsageError
from meeplang.dsl.limits import MAX_INT
from meeplang.interpreter.choices import DEFAULT_BITS, check_bits
from meeplang.interpreter.simulation import game_seed

from .api import Game, load
from .step import State

HINT = "pip install 'meeplang[pettingzoo]'"

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - the extra is not installed
    AECEnv = object  # type: ignore[misc, assignment]
    np = spaces = None  # type: ignore[assignment]


def env(game: str | Game, variant: str | None = None, /, **kwargs) -> "MeeplangEnv":
    """The AEC environment of a game (see MeeplangEnv for the settings)."""
    return MeeplangEnv(game, variant, **kwargs)


class MeeplangEnv(AECEnv):
    """A Meeplang game as a PettingZoo AEC environment.

    `players` (default: the game's fewest), `seed` (of the environment's first game), `options`
    (the game's options), `returns` ("win" or "score"), `bits` (2**bits action ids),
    `render_mode` ("ansi": `render()` returns the decision and the seat's view as text)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str | Game, variant: str | None = None, /, *,
                 players: int | None = None, seed: int = 0, options: dict | None = None,
                 returns: str = "win", bits: int = DEFAULT_BITS, render_mode: str | None = None):
        if AECEnv is object:
            raise UsageError(f"the PettingZoo face needs pettingzoo: {HINT}")
        super().__init__()
        self.game = game if isinstance(game, Game) else load(game, variant)
        model = self.game.model
        self.players = model.min_players if players is None else players
        self.seed, self.options, self.bits = seed, dict(options or {}), check_bits(bits)
        if returns not in ("win", "score"):
            raise UsageError(f"returns must be 'win' or 'score', not {returns!r}")
        if render_mode not in (None, "ansi"):
            raise UsageError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.returns_kind, self.render_mode = returns, render_mode
        name = model.name + (f"_{model.variant}" if model.variant else "")
        self.metadata = {**self.metadata, "name": f"meeplang_{name}"}
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        # the observation's layout, from a game started with every number shown
        first = State.start(model, self.players, seed, self.options, self.bits)
        self.observation_names = ["seat"] + [".".join(map(str, path))
                                             for path in _numbers(first.view(None))]
        self._paths = list(_numbers(first.view(None)))
        size = 1 << self.bits
        observation = spaces.Dict({
            "observation": spaces.Box(-float(MAX_INT), float(MAX_INT),
                                      (len(self.observation_names),), np.float64),
            "action_mask": spaces.Box(0, 1, (size,), np.int8)})
        action = spaces.Discrete(size)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.games = 0  # games the environment has started
        self.state: State = first

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: of seed `seed`, else the environment's next one."""
        if seed is None:
            seed = game_seed(self.seed, self.games)
        self.games += 1
        self.state = State.start(self.game.model, self.players, seed, self.options, self.bits)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._next()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        view = self.state.view(seat)
        numbers = [float(seat)] + [_number(view, path) for path in self._paths]
        mask = np.zeros(1 << self.bits, np.int8)
        d = self.state.decision
        if d is not None and d.player == seat:
            mask[d.ids] = 1
        return {"observation": np.array(numbers, np.float64), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.state.decision
        assert d is not None
        if action is None:
            raise UsageError(f"{agent} must choose: a legal action id, not None")
        self.state.apply(d.by_id(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.over:
            returns = self.state.returns(self.returns_kind)
            for a in self.agents:
                self.rewards[a] = returns[self.possible_agents.index(a)]
                self.terminations[a] = True
        self._accumulate_rewards()
        self._next()

    def _next(self) -> None:
        """Select the agent to move, and say what it may do."""
        d = self.state.decision
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        if d is None:  # over: each agent in turn steps None, and is removed
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[d.player]
        self.infos[self.agent_selection] = {"legal": {o.id: o.label for o in d.options}}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        d = self.state.decision
        if d is None:
            return f"over: scores {self.state.scores}, winners {self.state.winners}"
        return (f"{self.possible_agents[d.player]} ({d.kind}): {', '.join(d.labels)}\n"
                f"{self.state.view(d.player)}")

    def close(self) -> None:
        """Nothing to release."""


def _numbers(view: dict):
    """The paths of the numbers an observation holds: each counter of the game and of each seat
    (a family's members too), then each zone's size."""
    for name, value in sorted(view["counters"].items()):
        yield from _leaves(("counters", name), value)
    for seat, counters in enumerate(view["players"]):
        for name, value in sorted(counters.items()):
            yield from _leaves(("players", seat, name), value)
    for key in sorted(view["zones"]):
        yield ("zones", key)


def _leaves(path: tuple, value):
    if isinstance(value, dict):
        for key, inner in sorted(value.items(), key=lambda kv: str(kv[0])):
            yield from _leaves(path + (key,), inner)
    elif isinstance(value, (int, float)):
        yield path


def _number(view: dict, path: tuple) -> float:
    """The number at `path` in a seat's view: a zone's size, a counter; 0 where it is hidden
    (`?`) or not there."""
    value: Any = view
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return 0.0
    if path[0] == "zones":
        return float(len(value))
    return float(value) if isinstance(value, (int, float)) else 0.0
