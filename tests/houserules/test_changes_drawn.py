"""Diagrams and reports show limits and the tables rules read, and mark a variant's changes."""
from meeplang.dsl.diff import changes_from_base
from meeplang.dsl.resolve import load_game
from meeplang.visualizer.dot import C_CHANGED, build_diagram
from meeplang.visualizer.report import build_html

from .house import HOUSE


def _house(tmp_path):
    (tmp_path / "house.yaml").write_text(HOUSE)
    return load_game(str(tmp_path / "house.yaml"))


def _actions(diagram) -> dict:
    return {n.attrs["label"]: n for c in diagram.clusters() for n in c.nodes
            if n.kind == "action"}


def test_actions_show_their_limit_and_the_tables_they_read():
    labels = list(_actions(build_diagram(load_game("new-eden"), "actions")))
    [plant] = [label for label in labels if "Power plant" in label]
    assert "at most 3 per Development" in plant and "tables: plant_income, plant_damage" in plant
    assert not any(C_CHANGED in str(n.attrs) for n in _actions(
        build_diagram(load_game("new-eden"), "actions")).values())


def test_highlight_marks_the_changed_rules_and_lists_every_change(tmp_path):
    game = _house(tmp_path)
    changes = changes_from_base(game)
    d = build_diagram(game, "actions", changes=changes)
    marked = {label for label, n in _actions(d).items() if n.attrs.get("color") == C_CHANGED}
    assert len(marked) == 1 and "✎ changed: limit.times, plant_income" in marked.pop()
    box = d.cluster("cluster_changes").nodes[0].attrs["label"]
    for text in ("tables.passing_points.3", "[3, 2, 0] → [4, 2, 0]", "tables.plant_income",
                 "5 → 6", "actions.power_plant.limit.times", "3 → 2"):
        assert text in box
    full = build_diagram(game, "full", changes=changes)  # the trigger reading passing_points
    [passing] = [n for c in full.clusters() for n in c.nodes
                 if n.kind == "trigger" and "passing_points" in n.attrs["label"]
                 and n.attrs.get("color") == C_CHANGED]


def test_the_report_lists_a_variant_s_changes_and_its_tables(tmp_path):
    game = _house(tmp_path)
    page = build_html(game, "<svg/>", "en", changes_from_base(game))
    assert '<section id="changes">' in page and "house.yaml:4" in page
    assert "<code>plant_income</code>" not in page  # names are plain text in the tables table
    assert 'plant_income <span class="changed">✎ </span>' in page
    assert "at most 2 per Development" in page
    assert '<section id="changes">' not in build_html(load_game("new-eden"), "<svg/>", "en")


def test_entries_a_variant_adds_are_marked_added():
    solo = load_game("new-eden:solo")
    d = build_diagram(solo, "actions", changes=changes_from_base(solo))
    marked = [label for label, n in _actions(d).items() if n.attrs.get("color") == C_CHANGED]
    assert any("Deep Thought takes" in m and "✎ changed: added" in m for m in marked)
    assert any("Pass" in m and "✎ changed: requires" in m for m in marked)
