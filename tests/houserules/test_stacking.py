"""Stacking house rules: several independent variant files applied in order, a conflict between
two of them reported with both places; logs of stacks replay, also after a file moved
(`replay --variant-file`); `check` names a variant as `play` takes it."""
import json

import pytest

from meeplang.cli import main
from meeplang.dsl.errors import LoadError
from meeplang.dsl.resolve import load_game

PLANT = ("variant: plant\nextends: new-eden\ntables:\n  plant_income: 4\nactions:\n"
         "  power_plant:\n    limit: {times: 2, per: game}\n")
PASSING = "variant: passing\nextends: new-eden\ntables:\n  passing_points: {3: [4, 2, 0]}\n"
RICH = "variant: rich\nextends: new-eden\ntables:\n  plant_income: 6\n"


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in (("plant", PLANT), ("passing", PASSING), ("rich", RICH)):
        (tmp_path / f"{name}.yaml").write_text(text)
    return tmp_path


def test_two_house_rules_apply_in_order(here):
    game = load_game("new-eden", ("plant.yaml", "passing.yaml"))
    assert game.tables["plant_income"] == 4 and game.tables["passing_points"][3] == [4, 2, 0]
    assert game.actions["power_plant"].limits[0].per == "game"
    assert game.variant == "plant+passing"
    assert load_game("new-eden", ("passing.yaml", "plant.yaml")).tables == game.tables


def test_two_files_changing_one_value_conflict_with_both_places(here, capsys):
    assert main(["check", "new-eden", "--variant", "plant.yaml", "--variant", "rich.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rich.yaml:4:17: error: conflict: tables.plant_income is changed here "
                          "and by plant.yaml:4")
    with pytest.raises(LoadError, match="conflict"):
        load_game("new-eden", ("rich.yaml", "plant.yaml"))  # in either order: never resolved


def test_a_variant_that_builds_on_another_is_no_conflict():
    game = load_game("new-eden", ("solo", "solo-hard"))  # solo-hard extends new-eden:solo
    assert game.tables == load_game("new-eden", "solo-hard").tables


def test_play_and_check_take_stacks_and_check_names_them_as_play_takes_them(here, capsys):
    assert main(["check", "new-eden", "--variant", "plant.yaml", "--variant", "passing.yaml"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: new-eden --variant plant.yaml --variant passing.yaml (")
    assert main(["check", "plant.yaml"]) == 0
    assert capsys.readouterr().out.startswith("ok: plant.yaml (")
    assert main(["check", "new-eden:solo+solo-hard"]) == 0
    named = capsys.readouterr().out.split(" (")[0].removeprefix("ok: ")
    assert main(["play", named, "--players", "1"]) == 0  # what check printed, play takes
    capsys.readouterr()
    assert main(["play", "new-eden", "--variant", "plant.yaml", "--variant", "passing.yaml",
                 "--players", "3", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "plant+passing"


def test_a_stack_s_log_replays_and_a_moved_file_is_found_by_its_contents(here, capsys):
    assert main(["play", "new-eden", "--variant", "solo", "--variant", "passing.yaml",
                 "--players", "1", "--log", "g.jsonl"]) == 0
    head = json.loads((here / "g.jsonl").read_text().splitlines()[0])
    assert head["stack"][0] == {"name": "solo"} and head["stack"][1]["path"].endswith("passing.yaml")
    (here / "moved").mkdir()
    (here / "passing.yaml").rename(here / "moved" / "passing.yaml")
    capsys.readouterr()
    assert main(["replay", "g.jsonl"]) == 1
    err = capsys.readouterr().err
    assert "which is not there any more" in err and "--variant-file NEW_PATH" in err
    assert main(["replay", "g.jsonl", "--variant-file", "moved/passing.yaml"]) == 0
    assert "every event identical" in capsys.readouterr().out


def test_replay_finds_a_moved_variant_file_and_refuses_another(here, capsys):
    assert main(["play", "plant.yaml", "--players", "2", "--log", "g.jsonl"]) == 0
    (here / "plant.yaml").rename(here / "kept.yaml")
    capsys.readouterr()
    assert main(["replay", "g.jsonl", "--variant-file", "kept.yaml"]) == 0
    assert main(["replay", "g.jsonl", "--variant-file", "rich.yaml"]) == 1
    assert "not there any more" in capsys.readouterr().err


def test_a_list_in_extends_says_to_stack_with_variant(here, capsys):
    (here / "both.yaml").write_text("variant: both\nextends: [plant.yaml, passing.yaml]\n")
    assert main(["check", "both.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("both.yaml:2:10: error: extends: names one game or GAME:VARIANT; to "
                          "apply several variants, stack them: --variant A --variant B")
