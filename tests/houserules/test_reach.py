"""The dependency graph (dsl/depends.py) and its uses: `check` finds a table that an action's
limit lets its use count index past, `diff` says what a change reaches, and an index out of a
table's range at run time says how many entries the table has."""
import json

from meeplang.cli import main
from meeplang.dsl.resolve import load_game

PER_GAME = """variant: eden4
extends: new-eden
tables:
  plant_income: 4
  passing_points: {3: [4, 2, 0]}
actions:
  power_plant:
    limit: {times: 2, per: game}
"""


def test_the_graph_knows_who_reads_and_writes_what():
    deps = load_game("new-eden").deps
    assert deps.readers("table", "plant_damage") == ["actions.power_plant"]
    assert deps.readers("uses", "power_plant") == ["actions.power_plant"]
    assert "actions.power_plant" in deps.writers("counter", "damage")
    assert "triggers.passing_points" in deps.readers("table", "passing_points")
    [ix] = [ix for ix in deps.indexes if ix.table == "plant_damage"]
    assert (ix.action, ix.offset, ix.per) == ("power_plant", -1, None)


def test_a_limit_raised_past_its_table_is_an_error_at_the_variant_s_line(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eden.yaml").write_text(PER_GAME.replace("times: 2", "times: 4"))
    assert main(["check", "eden.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("eden.yaml:8:20: error: power_plant may be used 4 times per game")
    assert "entry 3 of plant_damage, and plant_damage has 3 entries (0 to 2)" in err
    assert "Traceback" not in err


def test_a_table_shortened_under_its_limit_is_an_error_at_the_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eden.yaml").write_text("variant: short\nextends: new-eden\ntables:\n"
                                        "  plant_damage: [1, 3]\n")
    assert main(["check", "eden.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("eden.yaml:4:3: error: power_plant may be used 3 times per development")
    assert "plant_damage has 2 entries (0 to 1)" in err


def test_diff_says_what_a_change_reaches(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eden.yaml").write_text(PER_GAME)
    assert main(["diff", "new-eden", "eden.yaml"]) == 0
    out = capsys.readouterr().out
    assert ("  reach:  plant_damage is read by power_plant, whose uses are now counted per game "
            "(was per development)") in out
    assert "  reach:  plant_income is read by power_plant" in out
    assert "reads entries 0 to 1 of its 3 (2 uses per game)" in out
    assert main(["diff", "new-eden", "eden.yaml", "--json"]) == 0
    changes = {c["path"]: c for c in json.loads(capsys.readouterr().out)}
    assert changes["tables.passing_points.3"]["reach"] == [
        "passing_points is read by trigger passing_points"]


TABLE_GAME = """game: steps
players: 2
counters:
  step: {initial: 0}
  score: {per: player, initial: 0}
tables:
  bonus: [1, 2, 3]
actions:
  go:
    effect: |
      add 1 to step
      add bonus[step] to score
flow:
  - turns: {first: 0, actions: [go], until: never}
scoring:
  score: score
"""


def test_an_index_past_a_table_at_run_time_says_how_many_entries_it_has(tmp_path, capsys):
    (tmp_path / "steps.yaml").write_text(TABLE_GAME)
    assert main(["play", str(tmp_path / "steps.yaml"), "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "no entry 3 (IndexError)" in err and "hint: bonus has 3 entries (0 to 2)" in err
