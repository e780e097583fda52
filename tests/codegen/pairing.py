"""Running generated expression code beside the closures it replaces (the differential test's
reference) on real play."""
from __future__ import annotations

import random

from meeplang.dsl.errors import MeeplangError
from meeplang.interpreter.codecheck import load
from meeplang.interpreter.codegen import generate
from meeplang.interpreter.compile import Compiled
from meeplang.interpreter.engine import Engine


class Differential:
    """An expression hook (and a listing hook) for Compiled: each closure of a generated site,
    and each listing of a choice's values, runs beside its twin."""

    def __init__(self, game):
        self.generated = generate(game, every_site=True)
        namespace = load(self.generated, Compiled(game))
        self.twins = {key: namespace[name] for key, name in
                      [*self.generated.names.items(), *self.generated.listings.items()]}
        self.calls: dict[int, int] = {}

    def listing_calls(self) -> int:
        """How many times a listing ran beside its twin."""
        return sum(self.calls.get(key, 0) for key in self.generated.listings)

    def hook(self, e, scope, fn):
        twin = self.twins.get(id(e))
        if twin is None:
            return fn

        def both(c):
            before, local = c.eng.steps, dict(c.v)
            want = _outcome(fn, c)
            after, c.eng.steps = c.eng.steps, before
            left = dict(c.v)  # a failing comprehension leaves its variable bound: so must the twin
            c.v.clear()
            c.v.update(local)
            got = _outcome(twin, c)
            where = f"{e.pos}: {type(e).__name__}"
            assert got[:2] == want[:2], f"{where}: generated {got[:2]!r}, closure {want[:2]!r}"
            assert c.eng.steps == after, f"{where}: charged {c.eng.steps - before}, " \
                                         f"closure {after - before}"
            assert c.v == left, where
            self.calls[id(e)] = self.calls.get(id(e), 0) + 1
            if want[0] == "error":
                raise want[2]
            return want[1]
        return both


def _outcome(fn, c) -> tuple:
    """("value", v, None) or ("error", (class, message with position), the exception)."""
    try:
        return ("value", fn(c), None)
    except Exception as exc:  # noqa: BLE001 - the comparison is the test
        return ("error", (type(exc).__name__, str(exc)), exc)


def playouts(game, seeds) -> Differential:
    """Random playouts (at most 400 decisions each) with every generated site paired."""
    diff = Differential(game)
    prog = Compiled(game, expr_hook=diff.hook, listing_hook=diff.hook)
    for seed in seeds:
        players = max(game.min_players, min(game.max_players, 2 + seed % 3))
        engine = Engine(game, players, seed)
        engine.prog = prog  # the same program, its closures paired with their twins
        rng = random.Random(seed)
        try:
            d = engine.start()
            while d is not None and len(engine.choices) < 400:
                d = engine.choose(rng.randrange(len(d.options)))
        except MeeplangError:
            pass  # a rule stopped the game: both sides agreed on the error (checked in `both`)
    return diff
