"""The JSON Schemas match the language: every bundled file and README example passes the schema its
first line names, checked by an independent validator (check-jsonschema); variants may be partial;
`{}` is not a game."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from meeplang import regen_schemas
from meeplang.dsl import schema

ROOT = Path(__file__).resolve().parents[2]
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def check_jsonschema(schema_path: Path, files: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile",
                           str(schema_path), *map(str, files)],
                          capture_output=True, text=True, timeout=120)


def named_schema(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path} does not name its schema on its first line"
    return (path.parent / match.group(1)).resolve()


def test_the_derived_schemas_are_up_to_date():
    for path, derived in schema.derived_schemas().items():
        assert path.read_text(encoding="utf-8") == schema.schema_text(derived), \
            f"{path.name} is stale: run {regen_schemas.REGEN_COMMAND}"
    assert regen_schemas.main(["--check"]) == 0


def test_the_regeneration_command_runs_without_a_warning():
    """`python -m meeplang.regen_schemas` is a module of its own: running it never re-runs a module
    the package has already imported (runpy's RuntimeWarning)."""
    proc = subprocess.run([sys.executable, "-W", "error", "-m", "meeplang.regen_schemas", "--check"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_the_regeneration_command_rewrites_a_stale_schema(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "variant.schema.json"
    stale.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(regen_schemas, "derived_schemas", lambda: {stale: {"title": "derived"}})
    assert regen_schemas.main(["--check"]) == 1
    assert "out of date: variant.schema.json" in capsys.readouterr().out
    assert stale.read_text(encoding="utf-8") == "{}\n"  # --check writes nothing
    assert regen_schemas.main([]) == 0
    assert stale.read_text(encoding="utf-8") == schema.schema_text({"title": "derived"})
    assert regen_schemas.main(["--check"]) == 0


def test_every_bundled_file_passes_the_schema_its_modeline_names():
    files = sorted((ROOT / "games").rglob("*.yaml"))
    by_schema: dict[Path, list[Path]] = {}
    for path in files:
        by_schema.setdefault(named_schema(path), []).append(path)
    assert set(by_schema) == {schema.SCHEMA_PATH, schema.VARIANT_SCHEMA_PATH,
                              schema.INCLUDE_SCHEMA_PATH}
    assert all(p.parent.name == "variants" for p in by_schema[schema.VARIANT_SCHEMA_PATH])
    assert all(p.name == "game.yaml" for p in by_schema[schema.SCHEMA_PATH])
    for schema_path, paths in by_schema.items():
        proc = check_jsonschema(schema_path, paths)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_readme_yaml_example_passes_its_schema(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    games, variants = [], []
    for i, block in enumerate(blocks):
        path = tmp_path / f"example{i}.yaml"
        path.write_text(block, encoding="utf-8")
        (variants if "extends" in yaml.safe_load(block) else games).append(path)
    for schema_path, paths in ((schema.SCHEMA_PATH, games),
                               (schema.VARIANT_SCHEMA_PATH, variants)):
        assert paths
        proc = check_jsonschema(schema_path, paths)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_check_jsonschema_refuses_what_the_language_refuses(tmp_path):
    cases = {"empty.yaml": ({}, schema.SCHEMA_PATH),
             "typo.yaml": ({"extends": "pig", "actions": {"stop": {"requries": "true"}}},
                           schema.VARIANT_SCHEMA_PATH),
             "no-base.yaml": ({"variant": "x", "options": {}}, schema.VARIANT_SCHEMA_PATH)}
    for name, (doc, schema_path) in cases.items():
        (tmp_path / name).write_text(json.dumps(doc))
        proc = check_jsonschema(schema_path, [tmp_path / name])
        assert proc.returncode == 1, name


def _valid(schema_path: Path, doc) -> bool:
    validator = jsonschema.Draft202012Validator(json.loads(schema_path.read_text()))
    return validator.is_valid(doc)


@pytest.mark.parametrize("doc,ok", [
    ({"extends": "pig", "actions": {"stop": {"requires": "turn_total >= 5"}}}, True),
    ({"extends": "pig", "counters": {"points": {"initial": 5}}}, True),
    ({"extends": "pig", "scoring": {"tie_break": ["points"]}}, True),
    ({"extends": "pig", "actions": {"roll": None}, "triggers": None}, True),  # removals
    ({"extends": "pig", "flow": [{"do": "x"}]}, True),
    ({"extends": "pig", "flow": [{}]}, False),  # a list replaces: its items are whole
    ({"extends": "pig", "actions": {"roll": {"effect": 3}}}, False),
    ({"extends": "pig", "players": "many"}, False),
    ({"variant": "fast"}, False),  # a variant says what it extends
])
def test_a_variant_may_give_only_what_it_changes(doc, ok):
    assert _valid(schema.VARIANT_SCHEMA_PATH, doc) is ok


def test_a_game_file_is_whole_and_an_included_file_is_a_part():
    assert not _valid(schema.SCHEMA_PATH, {})
    assert not _valid(schema.SCHEMA_PATH, {"game": "g", "scoring": {"score": 1},
                                           "actions": {"a": {"requires": "true"}}})
    assert _valid(schema.SCHEMA_PATH, {"game": "g", "scoring": {"score": 1}})
    assert not _valid(schema.SCHEMA_PATH, {"game": "g", "scoring": {"score": 1},
                                           "extends": "pig"})  # a variant's key
    assert _valid(schema.INCLUDE_SCHEMA_PATH, {"tables": {"t": [1, 2]}})
    assert not _valid(schema.INCLUDE_SCHEMA_PATH, {"include": ["x.yaml"]})
    assert not _valid(schema.INCLUDE_SCHEMA_PATH, {"actions": {"a": {"requires": "true"}}})


def test_the_loader_says_what_a_game_file_lacks(tmp_path):
    from meeplang.dsl.errors import SchemaError
    from meeplang.dsl.resolve import load_game

    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.yaml").write_text("game: g\nplayers: 2\n")
    with pytest.raises(SchemaError, match="needs a `scoring:` section"):
        load_game(str(tmp_path / "g"))


def test_each_schema_has_its_own_id_naming_the_file_and_the_format():
    ids = {}
    for kind, path in schema.SCHEMAS.items():
        loaded = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(loaded)
        assert loaded["$id"] == f"urn:meeplang:{schema.FORMAT}:{kind}.schema.json"
        ids[loaded["$id"]] = kind
    assert len(ids) == 3
    game = yaml.safe_load((ROOT / "games" / "pig" / "game.yaml").read_text(encoding="utf-8"))
    assert game["meeplang"] == schema.FORMAT  # the format the bundled games are written in


@pytest.mark.parametrize("kind", [None, "game", "variant", "include"])
def test_the_schema_command_prints_a_path_an_editor_can_read(kind, capsys, tmp_path,
                                                             monkeypatch):
    from meeplang.cli import main

    monkeypatch.chdir(tmp_path)  # an absolute path: it reads the same from any folder
    assert main(["schema"] + ([kind] if kind else [])) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed.is_absolute() and printed == schema.SCHEMAS[kind or "game"]
    assert json.loads(printed.read_text(encoding="utf-8"))["$id"].endswith(printed.name)


def test_the_schema_command_refuses_an_unknown_kind(capsys):
    from meeplang.cli import main

    with pytest.raises(SystemExit) as exited:  # argparse's usage error
        main(["schema", "rules"])
    assert exited.value.code == 2
    assert "invalid choice: 'rules'" in capsys.readouterr().err
