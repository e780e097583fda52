"""`meeplang diff`: the semantic difference between games, rule text compared as syntax."""
import json

from meeplang.dsl.diff import diff_games
from meeplang.dsl.resolve import load_game
from meeplang.cli import main

from .house import HOUSE


def test_three_changes_each_with_both_sides_and_where(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text(HOUSE)
    assert main(["diff", "new-eden", "house.yaml", "--json"]) == 0
    changes = json.loads(capsys.readouterr().out)
    assert [(c["path"], c["before"], c["after"]) for c in changes] == [
        ("tables.passing_points.3", [3, 2, 0], [4, 2, 0]),
        ("tables.plant_income", 5, 6),
        ("actions.power_plant.limit.times", 3, 2)]
    assert [c["where"]["after"] for c in changes] == ["house.yaml:5", "house.yaml:4",
                                                      "house.yaml:8"]
    assert changes[2]["where"]["before"].startswith("games/new-eden/game.yaml:")
    assert main(["diff", "new-eden", "house.yaml"]) == 0
    text = capsys.readouterr().out
    assert "actions.power_plant.limit.times\n  before: 3" in text and "3 changes" in text


def test_reformatting_a_rule_is_not_a_change_but_a_new_number_is(tmp_path):
    game = ("game: g\nplayers: 2\ncounters:\n  c: {initial: 0}\nactions:\n  go:\n    effect: |\n"
            "      if c < 3: add 1 to c\n      end turn\n"
            "flow:\n  - turns: {first: 0, actions: [go], until: one_round}\nscoring:\n  score: c\n")
    (tmp_path / "a.yaml").write_text(game)
    (tmp_path / "b.yaml").write_text("# moved and reflowed\n" + game.replace(
        "      if c < 3: add 1 to c\n", "      if (c < 3):\n        add 1 to c   # same rule\n"))
    (tmp_path / "c.yaml").write_text(game.replace("add 1 to c", "add 2 to c"))
    a, b, c = (load_game(str(tmp_path / f"{n}.yaml")) for n in "abc")
    assert diff_games(a, b) == []
    [change] = diff_games(a, c)
    assert change.path == "actions.go.effect"
    assert change.before == "if c < 3:\n  add 1 to c\nend turn\n"
    assert change.where[0].endswith("/a.yaml:8") and change.where[1].endswith("/c.yaml:8")


def test_a_variant_s_new_entries_and_flow_patches_are_listed():
    paths = [c.path for c in diff_games(load_game("new-eden"), load_game("new-eden:solo"))]
    assert "actions.dt_take_card" in paths and "triggers.dt_new_round" in paths
    assert "flow.repeat.development.turns.automa_actions" in paths
    assert "actions.pass_development.requires" in paths
