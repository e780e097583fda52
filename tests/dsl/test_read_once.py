"""A game and its variants read the same files: each file's text is read as YAML once per
process (dsl/loader.read_yaml_file), and every reader gets a tree of its own."""
from __future__ import annotations

from dsl import loader
from dsl.yamlpos import load_yaml_text

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
