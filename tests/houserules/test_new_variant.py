"""`meeplang new variant`: a commented starting file that checks as it is and once uncommented."""
import re
from pathlib import Path

from meeplang.dsl.resolve import load_game
from meeplang.cli import main

ROOT = Path(__file__).resolve().parents[2]


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


def _schema_named(text: str, folder):
    """The schema file a written variant names on its first line (a path relative to its folder,
    or a file: URI)."""
    from urllib.parse import unquote, urlparse

    first = text.splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, first
    ref = match.group(1)
    if ref.startswith("file:"):
        return Path(unquote(urlparse(ref).path))
    return (folder / ref).resolve()


def test_new_variant_names_the_variant_schema_on_its_first_line(tmp_path, monkeypatch, capsys):
    from meeplang.dsl.schema import VARIANT_SCHEMA_PATH

    monkeypatch.chdir(tmp_path)  # the schema is not inside this folder: its absolute URI
    (tmp_path / "house").mkdir()
    assert main(["new", "variant", "pig", "fast", "-o", "house/fast.yaml"]) == 0
    text = (tmp_path / "house" / "fast.yaml").read_text()
    assert text.splitlines()[0].endswith(VARIANT_SCHEMA_PATH.as_uri())
    assert _schema_named(text, tmp_path / "house") == VARIANT_SCHEMA_PATH
    assert main(["check", "house/fast.yaml"]) == 0
    monkeypatch.chdir(ROOT)  # inside a checkout: relative to where the text goes
    capsys.readouterr()
    assert main(["new", "variant", "pig", "fast", "-o", "-"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# yaml-language-server: $schema=dsl/variant.schema.json\n")
    assert _schema_named(text, ROOT) == VARIANT_SCHEMA_PATH
