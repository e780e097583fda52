"""Where a value comes from survives the merge: a variant's value is reported, and diffed, at the
variant's own line, never at the base file's line of the map it was merged into."""
import json

import pytest

from meeplang.cli import main
from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_misspelt_period_is_reported_in_the_variant(here, capsys):
    (here / "typo.yaml").write_text("variant: typo\nextends: new-eden\nactions:\n  power_plant:\n"
                                    "    limit: {times: 2, per: gmae}\n")
    assert main(["check", "typo.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("typo.yaml:5:28: error: unknown period 'gmae'; did you mean 'game'?")


def test_diff_gives_the_variant_s_line_for_a_value_merged_into_a_base_map(here, capsys):
    (here / "eden.yaml").write_text("variant: eden\nextends: new-eden\nactions:\n"
                                    "  power_plant:\n    limit: {times: 2, per: game}\n")
    assert main(["diff", "new-eden", "eden.yaml", "--json"]) == 0
    changes = {c["path"]: c["where"] for c in json.loads(capsys.readouterr().out)}
    assert changes["actions.power_plant.limit.per"]["after"] == "eden.yaml:5"
    assert changes["actions.power_plant.limit.per"]["before"].startswith("games/new-eden/game.yaml:")
    assert changes["actions.power_plant.limit.times"]["after"] == "eden.yaml:5"


def test_every_value_a_variant_gives_keeps_its_place(here):
    (here / "eden.yaml").write_text("variant: eden\nextends: new-eden\ntables:\n"
                                    "  passing_points: {3: [4, 2, 0]}\nactions:\n"
                                    "  power_plant:\n    limit: {per: game}\n")
    game = load_game("eden.yaml")
    per = game.origins["actions.power_plant.limit.per"]
    assert (per.path, per.line) == ("eden.yaml", 7)
    assert (game.origins["tables.passing_points.3"].line) == 4
    assert "actions.power_plant.limit.times" not in game.origins  # from the base: its own pos
    assert game.actions["power_plant"].limits[0].per_pos.path == "eden.yaml"


def test_a_bound_a_variant_moves_is_blamed_where_it_is_written(here):
    (here / "eden.yaml").write_text("variant: eden\nextends: new-eden\ncounters:\n"
                                    "  damage: {min: 5}\n")
    with pytest.raises(MeeplangError) as info:
        load_game("eden.yaml")
    assert (info.value.pos.path, info.value.pos.line) == ("eden.yaml", 4)
    assert "min 5 leaves initial 0 (at games/new-eden/game.yaml:" in str(info.value)
