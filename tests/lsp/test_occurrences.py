"""The name-occurrence index behind references and rename: every place the dependency graph
records a use of a declared name is in it, and what is not a use of the name (a rule word of the
same spelling, a local value, a field, human text) is not."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeplang.dsl.loader import bundled_games, file_of
from meeplang.dsl.resolve import load_game
from meeplang.lsp import occurrences

ROOT = Path(__file__).resolve().parents[2]


def _index(game: str) -> occurrences.Index:
    return occurrences.build(str(ROOT / "games" / game), {})


def _finds_what_the_graph_records(game: str) -> None:
    index = _index(game)
    found = {(o.path, o.line + 1, o.name) for o in index.found}
    checked = 0
    for ref in load_game(game).deps.refs:
        if ref.pos is None or ref.name not in index.kinds:
            continue  # a member of a family (`gain 1 reputation`) is a key of data, not a name
        path = file_of(ref.pos.path)
        line = path.read_text(encoding="utf-8").splitlines()[ref.pos.line - 1]
        if not re.search(rf"\b{ref.name}\b", line):
            continue  # a folded scalar's position is its first line only: the graph cannot say
        checked += 1
        assert (path, ref.pos.line, ref.name) in found, (ref.rule, ref.name, ref.pos)
    assert checked > 15


@pytest.mark.parametrize("game", ["pig", "goofspiel", "new-eden"])
def test_every_use_the_dependency_graph_records_is_found(game):
    _finds_what_the_graph_records(game)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in bundled_games()
                                  if g not in ("pig", "goofspiel", "new-eden")])
def test_every_use_the_dependency_graph_records_is_found_in_every_game(game):
    _finds_what_the_graph_records(game)


def _lines(index, name):
    return [(o.path.name, o.line + 1, o.role) for o in index.of(name)]


def test_what_is_not_a_use_of_a_name():
    pig = _index("pig")
    # `roll d6 as die` is the rule word; `actions: [roll, stop]` names the action
    assert [o.role for o in pig.of("roll")] == ["declaration", "term", "use"]
    assert pig.kinds["play"] == "phase" and [o.role for o in pig.of("play")] == [
        "declaration", "term"]
    assert "die" in pig.locals and "die" not in pig.kinds
    goofspiel = _index("goofspiel")
    text = (ROOT / "games" / "goofspiel" / "game.yaml").read_text().splitlines()
    local = next(n for n, line in enumerate(text, 1) if "let prize = top(prizes)" in line)
    # the item kind `prize`: its declaration and term, never the local `let prize` nor its uses
    assert goofspiel.kinds["prize"] == "item"
    assert all(line < local - 5 for _, line, _ in _lines(goofspiel, "prize"))
    assert any(o.line + 1 == local for o in goofspiel.of("prizes"))  # top(prizes) is a use


def test_a_variant_changes_and_adds_names(tmp_path):
    import shutil

    folder = tmp_path / "pig"
    shutil.copytree(ROOT / "games" / "pig", folder)
    (folder / "variants" / "extra.yaml").write_text(
        "variant: extra\nextends: pig\ntitle: {en: Extra, fr: Extra}\n"
        "actions:\n  stop:\n    requires: turn_total >= 2\n"
        "add:\n  counters:\n    streak: {initial: 0}\n")
    index = occurrences.build(str(folder), {})
    assert ("extra.yaml", 5, "change") in _lines(index, "stop")
    assert _lines(index, "streak") == [("extra.yaml", 9, "declaration")]
    assert ("extra.yaml", 6, "use") in _lines(index, "turn_total")
    # an unsaved buffer is read over the file
    buffer = {folder / "variants" / "extra.yaml": "variant: extra\nextends: pig\n"}
    assert _lines(occurrences.build(str(folder), buffer), "streak") == []
