"""Reading game files (dsl/loader.read_yaml_file): a game and its variants read the same files, so
each text is read as YAML once per process and every reader gets a tree of its own; and what
YAML scalars become."""
from __future__ import annotations

from meeplang.dsl import loader
from meeplang.dsl.yamlpos import load_yaml_text

TEXT = """\
game: g
flow:
  - phase: main
    steps: [a, b]
"""


def test_a_file_read_twice_is_parsed_once(tmp_path, monkeypatch):
    path = tmp_path / "game.yaml"
    path.write_text(TEXT, encoding="utf-8")
    calls = []
    monkeypatch.setattr(loader, "load_yaml_text",
                        lambda text, shown: calls.append(shown) or load_yaml_text(text, shown))
    first, second = loader.read_yaml_file(path), loader.read_yaml_file(path)
    assert len(calls) == 1
    assert first == second and first.pos == second.pos
    assert first["flow"].item_pos == second["flow"].item_pos


def test_each_reader_gets_its_own_tree(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(TEXT, encoding="utf-8")
    first = loader.read_yaml_file(path)
    first["flow"][0]["steps"].append("c")  # what include merging and flow patches do
    first["flow"].item_pos.clear()
    first.pop("game")
    second = loader.read_yaml_file(path)
    assert second["game"] == "g"
    assert second["flow"][0]["steps"] == ["a", "b"]
    assert len(second["flow"].item_pos) == 1
    assert second["flow"][0]["steps"].pos.line == 4


def test_an_edited_file_is_read_again(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(TEXT, encoding="utf-8")
    assert loader.read_yaml_file(path)["game"] == "g"
    path.write_text(TEXT.replace("game: g", "game: h"), encoding="utf-8")
    assert loader.read_yaml_file(path)["game"] == "h"


def test_only_true_and_false_are_booleans(tmp_path):
    """YAML 1.1 reads on/off/yes/no as booleans, so a field named `on` became the key True;
    Meeplang reads them as text, like YAML 1.2."""
    path = tmp_path / "game.yaml"
    path.write_text("on: 1\nanswer: yes\nflags: [off, No, true, FALSE, 'on']\n", encoding="utf-8")
    doc = loader.read_yaml_file(path)
    assert dict(doc) == {"on": 1, "answer": "yes", "flags": ["off", "No", True, False, "on"]}
    assert doc.key_pos["on"].line == 1 and doc.pos_of("answer").col == 9
