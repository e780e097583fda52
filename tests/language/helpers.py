"""Tiny games written inline, for testing one construct at a time."""
from __future__ import annotations

import textwrap

from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine


def make_game(tmp_path, yaml_text: str, name: str = "g"):
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(yaml_text), encoding="utf-8")
    return load_game(str(folder))


def start(game, players=2, seed=0, **kw) -> Engine:
    e = Engine(game, players, seed, **kw)
    e.start()
    return e


def play_labels(engine: Engine, labels: list[str]) -> Engine:
    """Answer decisions by option label, in order."""
    for text in labels:
        assert engine.decision is not None, f"game over before {text!r}"
        engine.choose_label(text)
    return engine


def cells(engine: Engine, zone: str) -> dict:
    return {engine.state["items"][x]["name"]: tuple(engine.state["cells"][x])
            for x in engine.state["zones"][zone]}
