"""`meeplang new variant`: a commented starting file that checks as it is and once uncommented."""
import re

from meeplang.dsl.resolve import load_game
from meeplang.cli import main


def _uncommented(text: str) -> str:
    """Every tunable line uncommented (not the notes, nor the `add:` example)."""
    out = []
    for line in text.split("\n# add:")[0].splitlines():
        if re.match(r"^# (options|tables|counters|actions):", line):
            out.append(line[2:].split()[0])
        elif line.startswith("#   ") and not line.startswith("#   ("):
            out.append(line[2:])
        elif not line.startswith("#"):
            out.append(line)
    return "\n".join(out) + "\n"


def test_new_variant_lists_what_can_be_tuned_and_checks(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "variant", "new-eden", "house"]) == 0
    text = (tmp_path / "house.yaml").read_text()
    for tunable in ("#   plant_income: 5", "#   passing_points: {2: [3, 0], 3: [3, 2, 0], 4: "
                    "[3, 2, 1, 0]}", "#     limit: {times: 3, per: development}",
                    "#   coins: {initial: 10}", "#   overflow_loss: {default: per_event}"):
        assert tunable in text
    assert main(["check", "house.yaml"]) == 0
    (tmp_path / "all.yaml").write_text(_uncommented(text))
    game, base = load_game("all.yaml"), load_game("new-eden")
    assert game.tables == base.tables and game.actions == base.actions
    assert game.counters == base.counters and game.options == base.options
    assert main(["new", "variant", "new-eden", "house"]) == 2  # never overwrites
    assert "exists already" in capsys.readouterr().err


def test_new_variant_lists_the_periods_a_limit_may_name(capsys):
    assert main(["new", "variant", "new-eden", "house", "-o", "-"]) == 0
    text = capsys.readouterr().out
    assert "#   (per: is one of turn, game, development, black_market, auctions, round_scoring)" \
        in text
    assert 'uses("ACTION") counts in the period of its first limit' in text
