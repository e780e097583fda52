"""The mutation harness (dsl/mutation.py, benchmarks/mutation.py) on a tiny synthetic game: which
mutants it makes, where it places them, and that a run reports a killed and a surviving one."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from meeplang.dsl.mutation import game_mutants

ROOT = Path(__file__).resolve().parents[2]

TINY = """\
game: tiny
title: {en: "Tiny 1000"}
players: 1
options:
  bonus: {default: 2, min: 1, max: 3, doc: "points for 3 or more"}
tables:
  prize: [3, 5]
counters:
  points: {per: player, initial: 0}
flow:
  - do: |
      gain prize[0] points       # the first prize: 3 (rule 7)
      if points >= 3:
        gain bonus points
      log "9 lives"
scoring:
  score: points
invariants:
  small: points < 100
"""

CARDS = """\
sample: [deck]
tables:
  deck: [{id: a, value: 4}]
"""

TEST = """\
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine


def test_tiny_scores_five():
    e = Engine(load_game("tiny"), 1, 0)
    e.start()
    assert e.result["scores"] == [5]
"""


def tiny(tmp_path) -> Path:
    folder = tmp_path / "games" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(TINY.replace("players: 1", "players: 1\ninclude: [cards.yaml]"))
    (folder / "cards.yaml").write_text(CARDS)
    (tmp_path / "test_tiny.py").write_text(TEST)
    return folder


def test_mutants_of_numbers_comparisons_and_swaps_with_their_places(tmp_path):
    found = game_mutants(tiny(tmp_path))
    made = {(m.file.name, m.line, m.edits[0].col, m.what) for m in found.live}
    assert ("game.yaml", 3, 10, "1 -> 2") in made                     # players
    assert ("game.yaml", 6, 20, "2 -> 3") in made                     # an option's default
    assert ("game.yaml", 8, 11, "3 -> 4") in made                     # a table entry
    assert ("game.yaml", 8, 11, "swap 3, 5") in made                  # neighbours swapped
    assert ("game.yaml", 13, 18, "0 -> -1") in made                   # a number in rule text
    assert ("game.yaml", 14, 17, ">= -> >") in made                   # a comparison
    assert ("game.yaml", 14, 20, "3 -> 2") in made
    lines = {m.line for m in found.live}
    assert not lines & {2, 16, 18, 20}                                # title, log text, score, invariants
    assert {w for _, line, _, w in made if line == 6} == {"2 -> 3", "2 -> 1"}   # no min/max
    assert not any("7" in w for *_, w in made)                         # comments inside rule text
    assert [(m.file.name, m.what) for m in found.sample] == [("cards.yaml", "4 -> 5"),
                                                             ("cards.yaml", "4 -> 3")]


def test_a_sample_mark_may_name_one_key_of_a_nested_map(tmp_path):
    folder = tiny(tmp_path)
    (folder / "cards.yaml").write_text(
        "sample: [sheet.target.3, sheet.bands.low]\n"
        "tables:\n"
        "  sheet: {target: {2: 30, 3: 45}, bands: {low: 1, high: 2}}\n")
    found = game_mutants(folder)
    live = {m.what for m in found.live if m.file.name == "cards.yaml"}
    sample = {m.what for m in found.sample}
    assert {"30 -> 31", "2 -> 3"} <= live                               # only the marked keys
    assert {"45 -> 46", "1 -> 2"} <= sample and not {"45 -> 46", "1 -> 2"} & live
    assert "swap 30, 45" in live                                       # one of them is a rule's


def test_a_variants_new_table_may_be_sample(tmp_path):
    folder = tiny(tmp_path)
    (folder / "variants").mkdir()
    (folder / "variants" / "big.yaml").write_text(
        "variant: big\nextends: tiny\nsample: [extra]\n"
        "add:\n  tables:\n    extra: {a: 7}\n    rule: 9\n")
    found = game_mutants(folder)
    assert "7 -> 8" in {m.what for m in found.sample}
    assert "9 -> 10" in {m.what for m in found.live}


def test_a_swap_of_two_sample_numbers_is_sample(tmp_path):
    folder = tiny(tmp_path)
    (folder / "cards.yaml").write_text(
        "sample: [sheet.target.1, sheet.target.2]\n"
        "tables:\n"
        "  sheet: {target: {1: 15, 2: 30, 3: 45}}\n")
    found = game_mutants(folder)
    assert "swap 15, 30" in {m.what for m in found.sample}
    assert "swap 30, 45" in {m.what for m in found.live}


CELLS = """\
game: cells
tables:
  reward: {coin: gain 2 coins}
  tiles:
    - {id: t-01, effect: "log \\"go 5\\"\\ngain 3 points"}
rule_text:
  reward: {}
  tiles: {fields: [effect]}
"""


def test_rule_text_in_table_cells_is_mutated_where_rule_text_declares_it(tmp_path):
    folder = tmp_path / "cells"
    folder.mkdir()
    (folder / "game.yaml").write_text(CELLS)
    found = game_mutants(folder)
    made = {(m.line, m.edits[0].col, m.what) for m in found.live}
    assert made == {(3, 23, "2 -> 3"), (3, 23, "2 -> 1"),     # every cell of `reward`
                    (5, 46, "3 -> 4"), (5, 46, "3 -> 2")}     # a later line of a quoted cell
    four = next(m for m in found.live if m.what == "3 -> 4").apply(CELLS)
    assert four == CELLS.replace("gain 3", "gain 4")          # not the id, not the log text


def test_a_mutant_applies_at_its_place_only(tmp_path):
    folder = tiny(tmp_path)
    text = (folder / "game.yaml").read_text()
    swap = next(m for m in game_mutants(folder).live if m.what == "swap 3, 5")
    assert swap.apply(text).split("\n")[7] == "  prize: [5, 3]"
    assert swap.apply(text).replace("[5, 3]", "[3, 5]") == text


def test_a_run_reports_killed_and_surviving_mutants(tmp_path, capsys, monkeypatch):
    folder = tiny(tmp_path)
    spec = importlib.util.spec_from_file_location("mutation_bench", ROOT / "benchmarks" / "mutation.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.chdir(tmp_path)
    status = bench.main([str(folder), "--tests", str(tmp_path / "test_tiny.py"), "--jobs", "2",
                         "--only", "games/tiny/game.yaml:8", "games/tiny/game.yaml:14:17"])
    out = capsys.readouterr().out
    assert status == 1
    # prize[1] is never read: changing the 5 survives; the comparison and prize[0] are pinned
    assert "SURVIVED games/tiny/game.yaml:8:14  5 -> 6" in out
    assert "SURVIVED games/tiny/game.yaml:8:14  5 -> 4" in out
    assert out.count("SURVIVED") == 2
    assert "tiny: 16 mutants, 6 run: 4 killed (0 by timeout), 2 survived; 2 sample-excluded" in out
    assert "sample data left out (2 mutants): games/tiny/cards.yaml lines 3" in out
