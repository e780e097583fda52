"""`meeplang diff --lang` and a French diagram's changes name paths with the game's terms."""
import json

from meeplang.dsl.diff import changes_from_base
from meeplang.dsl.resolve import load_game
from meeplang.cli import main
from meeplang.visualizer.dot import build_diagram

from .house import HOUSE


def test_diff_in_french_names_paths_with_the_game_s_terms(tmp_path, capsys):
    (tmp_path / "house.yaml").write_text(HOUSE)
    assert main(["diff", "new-eden", str(tmp_path / "house.yaml"), "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "tables › Points pour avoir passé › 3" and out[1].startswith("  avant:")
    assert "tables › Revenu de la centrale" in out
    assert "actions › Centrale › limite › fois" in out  # `times`: the key, not the term
    assert main(["diff", "new-eden", str(tmp_path / "house.yaml"), "--lang", "en", "--json"]) == 0
    changes = json.loads(capsys.readouterr().out)
    assert [c["label"] for c in changes] == [
        "tables › Points for passing › 3", "tables › Power plant income",
        "actions › Power plant › limit › times"]
    assert changes[1]["path"] == "tables.plant_income"
    assert main(["diff", "new-eden", str(tmp_path / "house.yaml")]) == 0
    assert "tables.plant_income" in capsys.readouterr().out.splitlines()  # no --lang: paths


def test_diff_names_what_a_variant_adds_with_the_variant_s_own_terms(capsys):
    assert main(["diff", "new-eden", "new-eden:solo", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "compteurs › Activations de Deep Thought cette manche" in out
    assert "  avant:  (rien)" in out and "(none)" not in out  # what the base lacks, in French


def test_a_french_diagram_lists_the_changes_in_french(tmp_path):
    (tmp_path / "house.yaml").write_text(HOUSE)
    game = load_game(str(tmp_path / "house.yaml"))
    d = build_diagram(game, "actions", "fr", changes_from_base(game))
    box = d.cluster("cluster_changes").nodes[0].attrs["label"]
    assert "actions › Centrale › limite › fois" in box and "plant_income" not in box
    marked = [n.attrs["label"] for c in d.clusters() for n in c.nodes if "modifié" in
              n.attrs.get("label", "")]
    assert any("limite › fois" in label and "Revenu de la centrale" in label for label in marked)


def test_a_removed_action_is_shown_as_its_rule_text_not_as_json(capsys):
    """A reading that drops an action (Thesauros's English reading has no crew swap, EN l.758):
    the diff shows the action's effect as the rule lines it was written in."""
    assert main(["diff", "thesauros:reading-fr", "thesauros:reading-en"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("actions.swap_crews")
    assert out[at + 1].startswith("  before: effect:")
    assert out[at + 2].strip() == "let sailor = first(crew[x.slot])"
    assert '"effect"' not in "\n".join(out[at:at + 8])
