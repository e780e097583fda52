"""OpenSpiel's face: any Meeplang game or variant as a pyspiel game, so that OpenSpiel's
algorithms (MCTS, search, evaluation) play it (`pip install 'meeplang[openspiel]'`).

    import pyspiel
    import meeplang.openspiel

    game = meeplang.openspiel.load_game("pig", players=2)          # registers it, then loads
    name = meeplang.openspiel.register("new-eden:solo")            # "meeplang_new-eden_solo"
    game = pyspiel.load_game("meeplang_pig(players=3,seed=7,target=50)")
    state = game.new_initial_state()
    state.legal_actions(), state.apply_action(a), state.clone(), state.returns()

Parameters: `players` (default: the game's fewest), `seed`, `returns` (`win`: zero sum, each of
k winners 1/k and each other seat -1/(n-k), all 0 when nobody wins, as OpenSpiel's pig and
goofspiel's `win_loss` return; `score`: the final scores), `action_bits` (the id space, 2**20
ids by default) and each of the game's options under its own name.

Actions are the stable action ids of interpreter/choices.py: an id names the same move (its
label) whatever else is legal, `num_distinct_actions` is 2**action_bits. Decisions are
sequential: seats that choose secretly (goofspiel's bids) choose one after the other, and the
others do not see the answer in their information state. The game is `SAMPLED_STOCHASTIC`:
dice and shuffles are drawn by the engine's seeded RNG inside `apply_action`, so there are no
chance nodes; the i-th state `new_initial_state()` makes plays the game of seed
`game_seed(seed, i)` (game i of `meeplang simulate --seed SEED`), and a clone is the same game,
with the same dice to come (a search on clones, such as MCTSBot, plans on the true dice and the
true hidden cards, as it does in any imperfect-information game it is given).

Information state (`information_state_string(p)`): what seat p sees now (its view: the others'
hidden cards and counters as `?`) and every choice made so far as p saw it (another seat's
secret choice hidden), as JSON; `observation_string(p)`: the view alone. No tensors.
"""
from __future__ import annotations

import json
import re
from typing import Any

from meeplang.dsl.errors import UsageError
from meeplang.interpreter.choices import DEFAULT_BITS, check_bits
from meeplang.interpreter.engine import MAX_DECISIONS
from meeplang.interpreter.simulation import game_seed

from .api import Game, load
from .step import State

HINT = "pip install 'meeplang[openspiel]'"
FACE_PARAMS = ("players", "seed", "returns", "action_bits")
_REGISTERED: dict[str, tuple] = {}  # short name -> (target, variant, rules hash)


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise UsageError(f"the OpenSpiel face needs open_spiel: {HINT}") from None
    return pyspiel


def short_name(game: Game) -> str:
    """`meeplang_<game>` or `meeplang_<game>_<variant>`, as pyspiel.load_game takes it."""
    model = game.model
    text = model.name + (f"_{model.variant}" if model.variant else "")
    return "meeplang_" + re.sub(r"[^A-Za-z0-9_-]", "_", text)


def register(target: str | Game, variant: str | None = None, /) -> str:
    """Register a game (a bundled name, a folder, a file, `GAME:VARIANT`, or a meeplang.Game) with
    pyspiel; returns its short name. Registering it again is a no-op; another game under the
    same name is refused."""
    pyspiel = _pyspiel()
    game = target if isinstance(target, Game) else load(target, variant)
    model = game.model
    name = short_name(game)
    key = (game.target, game.variant, model.rules_hash)
    known = _REGISTERED.get(name)
    if known is not None:
        if known != key:
            raise UsageError(f"another game is registered with pyspiel as {name!r} "
                             f"({known[0]}); load this one under its own name")
        return name
    spec: dict[str, Any] = {"players": model.min_players, "seed": 0, "returns": "win",
                            "action_bits": DEFAULT_BITS}
    for option, declared in sorted(model.options.items()):
        if option in spec:
            raise UsageError(f"the game's option {option!r} has the name of a parameter of the "
                             f"OpenSpiel face ({', '.join(FACE_PARAMS)})")
        if isinstance(declared.default, (bool, int, float, str)):
            spec[option] = declared.default
    game_type = _game_type(pyspiel, name, model, spec, "win")

    # pyspiel keeps the creator to the end of the process: a class (as OpenSpiel's own Python
    # games register), since a closure freed by its registry after Python has shut down aborts
    creator = type(f"MeeplangGame_{len(_REGISTERED)}", (face_classes()[0],),
                   {"meeplang_game": game, "registered": game_type})
    pyspiel.register_game(game_type, creator)
    _REGISTERED[name] = key
    return name


def load_game(target: str | Game, variant: str | None = None, /, **params) -> Any:
    """Register the game and load it with `params` (players, seed, returns, action_bits, the
    game's options): a pyspiel game."""
    pyspiel = _pyspiel()
    name = register(target, variant)
    return pyspiel.load_game(name, params)


def _game_type(pyspiel, name: str, model, spec: dict, returns: str):
    t = pyspiel.GameType
    return t(short_name=name, long_name=f"Meeplang {model.title.get('en', model.name)}",
             dynamics=t.Dynamics.SEQUENTIAL, chance_mode=t.ChanceMode.SAMPLED_STOCHASTIC,
             information=t.Information.IMPERFECT_INFORMATION,
             utility=t.Utility.ZERO_SUM if returns == "win" else t.Utility.GENERAL_SUM,
             reward_model=t.RewardModel.TERMINAL, max_num_players=model.max_players,
             min_num_players=model.min_players, provides_information_state_string=True,
             provides_information_state_tensor=False, provides_observation_string=True,
             provides_observation_tensor=False, parameter_specification=spec)


_CLASSES: list = []


def face_classes() -> tuple[Any, Any]:
    """(the pyspiel Game class, its State class), made once pyspiel is imported (it is an
    optional dependency, so they cannot be defined at import)."""
    if not _CLASSES:
        _CLASSES.extend(_classes())
    return _CLASSES[0], _CLASSES[1]


def _classes():
    """The pyspiel subclasses."""
    pyspiel = _pyspiel()

    class MeeplangGame(pyspiel.Game):
        """A Meeplang game with its parameters, as OpenSpiel sees it."""

        meeplang_game: Game  # set by register() on the subclass it makes for each game
        registered: Any

        def __init__(self, params: dict | None = None):
            params = dict(params or {})
            game, registered = self.meeplang_game, self.registered
            model = game.model
            self.meeplang = game
            self.players = int(params.get("players", model.min_players))
            self.seed = int(params.get("seed", 0))
            self.returns_kind = str(params.get("returns", "win"))
            self.bits = check_bits(params.get("action_bits", DEFAULT_BITS))
            if self.returns_kind not in ("win", "score"):
                raise UsageError(f"returns must be 'win' or 'score', not {self.returns_kind!r}")
            self.options = {k: v for k, v in params.items() if k not in FACE_PARAMS}
            State.start(model, self.players, self.seed, self.options, self.bits)  # checks them
            self.started = 0  # initial states handed out (each its own seed)
            self.labels: dict[int, str] = {}  # every id met, for action_to_string
            win = self.returns_kind == "win"
            info = pyspiel.GameInfo(
                num_distinct_actions=1 << self.bits, max_chance_outcomes=0,
                num_players=self.players, min_utility=-1.0 if win else -1e18,
                max_utility=1.0 if win else 1e18, utility_sum=0.0 if win else None,
                max_game_length=MAX_DECISIONS)
            kind = _game_type(pyspiel, registered.short_name, model,
                              dict(registered.parameter_specification), self.returns_kind)
            super().__init__(kind, info, params)

        def new_initial_state(self):
            """The next game (seed `game_seed(seed, i)` for the i-th), started when first read."""
            return MeeplangSpielState(self)

        def initial_state(self, seed: int):
            """A state of the game of this seed (not counted among new_initial_state's)."""
            state = MeeplangSpielState(self)
            state._m.state = State.start(self.meeplang.model, self.players, seed, self.options,
                                         self.bits)
            return state

        def next_state(self) -> State:
            state = State.start(self.meeplang.model, self.players,
                                game_seed(self.seed, self.started), self.options, self.bits)
            self.started += 1
            return state

        def make_py_observer(self, iig_obs_type=None, params=None):
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return Observer(recall)

    class MeeplangSpielState(pyspiel.State):
        """A Meeplang State behind pyspiel's State API."""

        def __init__(self, game):
            super().__init__(game)
            self._m = Episode(game)  # the only attribute: pyspiel's clone deep-copies it

        @property
        def meeplang_state(self) -> State:
            """The meeplang.State played (its log, views, scores)."""
            return self._m.get()

        def current_player(self):
            state = self._m.get()
            d = state.decision
            return pyspiel.PlayerId.TERMINAL if d is None else d.player

        def _legal_actions(self, player):
            d = self._m.get().decision
            if d is None or player != d.player:
                return []
            labels = self._m.game.labels
            for option in d.options:
                labels.setdefault(option.id, option.label)
            return sorted(set(d.ids))

        def _apply_action(self, action):
            state = self._m.get()
            d = state.decision
            if d is None:
                raise UsageError("the game is over: there is nothing to choose")
            state.apply(d.by_id(int(action)))

        def _action_to_string(self, player, action):
            d = self._m.get().decision
            if d is not None:
                for option in d.options:
                    if option.id == action:
                        return option.label
            return self._m.game.labels.get(action, f"action {action}")

        def is_terminal(self):
            return self._m.get().over

        def returns(self):
            return self._m.get().returns(self._m.game.returns_kind)

        def __str__(self):
            state = self._m.get()
            d = state.decision
            asked = None if d is None else {"player": d.player, "kind": d.kind,
                                             "options": d.labels}
            return json.dumps({"state": state.view(None), "decision": asked}, sort_keys=True,
                              default=str)

    class Observer:
        """pyspiel's PyObserver: strings only (no tensor)."""

        def __init__(self, perfect_recall: bool):
            self.perfect_recall = perfect_recall
            self.tensor = None
            self.dict: dict = {}

        def set_from(self, state, player):
            """No tensor to fill."""

        def string_from(self, state, player):
            st = state._m.get()
            seen: dict[str, Any] = {"seat": player, "view": st.view(player)}
            if self.perfect_recall:
                seen["history"] = st.history(player)
            return json.dumps(seen, sort_keys=True, default=str)

    return MeeplangGame, MeeplangSpielState


class Episode:
    """One game behind a pyspiel state, started when first read (pyspiel's clone makes a new
    initial state and then overwrites it: such a state never starts a game of its own). A deep
    copy is `State.copy()`: the engine's own copy, never Python's deepcopy."""

    __slots__ = ("game", "state")

    def __init__(self, game, state: State | None = None):
        self.game, self.state = game, state

    def get(self) -> State:
        if self.state is None:
            self.state = self.game.next_state()
        return self.state

    def __deepcopy__(self, memo) -> "Episode":
        return Episode(self.game, self.get().copy())
