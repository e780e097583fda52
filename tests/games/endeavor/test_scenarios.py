"""Endeavor: Deep Sea, Scenario sheets as data (Endeavor FR l.42-45, 72-88, 500-521): a sheet is
a file of tables (layout and limits, launch zone, mission-only tiles, objectives with their Co-Op
bands, Impact board) that a user adds to the game folder and plays through a variant including
it; `meeplang check` validates it like the game. The second sheet here is INVENTED (sample)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeplang.cli import main
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import Engine

from .helpers import item, start, zone

DATA = Path(__file__).parent / "data"
GAME = Path(__file__).parents[3] / "games" / "endeavor-deep-sea"


def with_scenario(tmp_path, sheet: str | None = None) -> Path:
    """A copy of the game folder with the sample sheet Deep Trench (or `sheet`, its text) in
    scenarios/ and the variant that plays it, as a user adds one."""
    folder = tmp_path / "endeavor-deep-sea"
    shutil.copytree(GAME, folder)
    (folder / "scenarios" / "deep-trench.yaml").write_text(
        sheet if sheet is not None else (DATA / "deep-trench.yaml").read_text())
    shutil.copy(DATA / "deep-trench-variant.yaml", folder / "variants" / "deep_trench.yaml")
    return folder


def names_in(e, key):
    return [item(e, x)["name"] for x in zone(e, key)]


def test_mission_only_tiles_leave_the_game_unless_the_sheet_uses_them():
    """FR l.86-88: "Les tuiles (icon) sont réservées à des missions spécifiques ; si la mise en
    place du scénario ne les demande pas, vous devez retirer ces tuiles du jeu"."""
    e = start(3)
    assert names_in(e, "out_of_play") == ["coral_cathedral"]       # Mission 1 uses none
    piles = [n for level in range(1, 6) for n in names_in(e, f"pile[{level}]")]
    assert "coral_cathedral" not in piles and len(piles) == 20 - 3


def test_a_users_scenario_file_is_checked_and_played(tmp_path, capsys):
    folder = with_scenario(tmp_path)
    assert main(["check", f"{folder}:deep_trench"]) == 0
    assert f"ok: {folder}:deep_trench (" in capsys.readouterr().out  # what `play` takes
    e = Engine(load_game(str(folder), "deep_trench"), 3, 0)
    e.start()
    assert sorted(names_in(e, "ocean")) == ["calm_waters", "coral_cathedral", "star_of_the_seas"]
    assert e.state["zones"]["out_of_play"] == []                  # its mission tile is in play
    subs = [item(e, zone(e, f"subs@{p}")[0])["at"] for p in range(3)]
    assert {item(e, s)["name"] for s in subs} == {"calm_waters"}  # its launch zone


def test_a_sheets_special_rules_act_at_setup_and_at_each_rounds_start(tmp_path):
    """FR l.72-74: the sheet gives "(parfois) des règles spéciales". Deep Trench's (rule text in
    its data): every player gains 2 research at setup, and 1 at the start of each round."""
    folder = with_scenario(tmp_path)
    e = Engine(load_game(str(folder), "deep_trench"), 3, 0)
    e.start()                                            # at round 1's first recruitment
    assert [p["research"] for p in e.state["players"]] == [2 + 1] * 3
    assert [p["research"] for p in start(3).state["players"]] == [0] * 3   # Mission 1: none


def test_a_sheet_without_a_round_start_rule_runs_only_its_setup_rule(tmp_path):
    sheet = (DATA / "deep-trench.yaml").read_text()
    sheet = sheet[:sheet.index("    round_start:")] + sheet[sheet.index("  mission_tiles:"):]
    e = Engine(load_game(str(with_scenario(tmp_path, sheet)), "deep_trench"), 3, 0)
    e.start()
    assert [p["research"] for p in e.state["players"]] == [2] * 3


def test_the_sheets_depth_leaves_deeper_tiles_out_of_the_game(tmp_path):
    """FR l.82-83: "la profondeur est toujours de cinq niveaux maximum, sauf mention contraire":
    a sheet stating a depth of 3 plays without the level-4 and level-5 tiles."""
    sheet = (DATA / "deep-trench.yaml").read_text().replace(
        "launch_zone: calm_waters", "launch_zone: calm_waters\n    depth: 3")
    e = Engine(load_game(str(with_scenario(tmp_path, sheet)), "deep_trench"), 3, 0)
    e.start()
    assert {item(e, x)["level"] for x in zone(e, "out_of_play")} == {4, 5}
    assert zone(e, "pile[4]") == zone(e, "pile[5]") == []
    assert zone(e, "pile[3]") != []
    assert zone(start(3), "pile[5]") != []                # Mission 1: 5 levels


@pytest.mark.parametrize("breakage, message", [
    ("level1_columns: [1", "level1_colums: [1"),                   # a table the game lacks
    ('a2: "gain 2 research"', 'a2: "gain 2 reseach"'),              # rule text in a cell
    ("coop: {1: 6, 2: 10", "coop: {1: 6, 2: [10"),                 # broken YAML
    ("p gains 2 research", "p gains 2 reseach"),                    # a special rule's text
    ("p gains 1 research", "p gains 1 research 1"),
])
def test_a_broken_scenario_file_gets_a_positioned_error(tmp_path, capsys, breakage, message):
    sheet = (DATA / "deep-trench.yaml").read_text().replace(breakage, message)
    folder = with_scenario(tmp_path, sheet)
    assert main(["check", f"{folder}:deep_trench"]) != 0
    out = capsys.readouterr()
    first = (out.err + out.out).strip().splitlines()[0]
    assert first.startswith(f"{folder}/scenarios/deep-trench.yaml:") and ": error: " in first
    line = int(first.split(":")[1])
    assert message.split(":")[0].strip() in sheet.splitlines()[line - 1]
