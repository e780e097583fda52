"""Bugs a house-rule author met: user text read as console markup, automa seats in statistics,
`-o -`."""
import json

from meeplang.cli import main


def test_a_variant_named_house_is_printed_as_its_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("variant: house\nextends: pig\n"
                                         "options:\n  target: {default: 20}\n")
    assert main(["simulate", "house.yaml", "--players", "2", "-n", "4", "--compare", "base"]) == 0
    out = capsys.readouterr().out
    assert "pig:house" in out and "🏠" not in out
    assert "pig → pig:house" in out.replace("\n", " ")


def test_simulate_solo_counts_the_automa_seat(capsys):
    assert main(["simulate", "new-eden:solo", "--players", "1", "-n", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 1 and out["seats"] == 2
    assert out["agents"] == ["random", "deep_thought"]
    assert sum(out["win_rates"]) + out["no_winner"] == 1


def test_dash_output_means_standard_output(tmp_path, monkeypatch, capsysbinary):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "pig", "-o", "-"]) == 0
    assert b"\ndigraph Pig {" in capsysbinary.readouterr().out
    assert not (tmp_path / "-").exists()
    assert main(["report", "pig", "-o", "-"]) == 2
