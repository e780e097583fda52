"""What the language server knows of a game, without a server: its declarations (across
includes) and what completion offers where."""
from __future__ import annotations

import json
from pathlib import Path

from meeplang.lsp import completion, project, words
from meeplang.lsp.names import builtin, declarations, word_at

ROOT = Path(__file__).resolve().parents[2]
NEW_EDEN = ROOT / "games" / "new-eden"


def _loaded(path: Path):
    document = project.document_of(path, path.read_text())
    return document, project.load(document, {})


def test_declarations_of_every_kind_with_their_file():
    document, loaded = _loaded(NEW_EDEN / "game.yaml")
    assert loaded.problems == {}
    names = declarations(loaded.source.doc)
    kinds = {d.kind for d in names.values()}
    assert {"counter", "zone", "item", "action", "trigger", "table", "formula", "option"} <= kinds
    deck = names["deck"]  # a formula is named without its parameters
    assert deck.kind == "formula" and deck.detail.startswith("deck(r, side): ")
    line = next(n for n, text in enumerate((NEW_EDEN / "game.yaml").read_text().splitlines(), 1)
                if text.startswith("  deck(r, side):"))
    assert deck.pos.path == "games/new-eden/game.yaml" and (deck.pos.line, deck.pos.col) == (line, 3)
    from_cards = [d for d in names.values() if d.pos.path.endswith("cards.yaml")]
    assert from_cards and all(d.kind == "table" for d in from_cards)


def test_which_file_is_what():
    assert _loaded(NEW_EDEN / "cards.yaml")[0].kind == "include"
    assert _loaded(NEW_EDEN / "variants" / "solo.yaml")[0].kind == "variant"
    assert project.document_of(ROOT / "pyproject.toml", "") is None


def test_only_yaml_files_under_a_game_folder_are_its_includes(tmp_path):
    """A game.yaml in some folder above (here tmp_path) makes YAML files under it includes, never
    a pyproject.toml or notes beside them."""
    (tmp_path / "game.yaml").write_text("game: g\n")
    (tmp_path / "sub").mkdir()
    for name in ("pyproject.toml", "notes.txt", "rules.md"):
        (tmp_path / "sub" / name).write_text("x = 1\n")
        assert project.document_of(tmp_path / "sub" / name, "x = 1\n") is None, name
    for name in ("cards.yaml", "more.YML"):
        (tmp_path / "sub" / name).write_text("tables: {}\n")
        document = project.document_of(tmp_path / "sub" / name, "tables: {}\n")
        assert document.kind == "include" and document.target == str(tmp_path.resolve()), name


def test_completion_by_place():
    document, loaded = _loaded(ROOT / "games" / "pig" / "game.yaml")
    names = declarations(loaded.source.doc)
    schema = json.loads(document.schema.read_text())
    lines = (ROOT / "games" / "pig" / "game.yaml").read_text().splitlines()

    def labels(row, col, text=None):
        page = list(lines)
        if text is not None:
            page[row] = text
        return {c.label: c.kind for c in completion.complete(page, row, col, schema, names)}

    effect_row = lines.index("      add die to turn_total")
    assert set(labels(effect_row, 17).values()) == {"counter"}  # `add die to `: a counter
    in_rule_text = labels(effect_row, 9, "      if ")  # a condition: any name
    assert in_rule_text["turn_total"] == "counter" and in_rule_text["roll"] == "action"
    assert in_rule_text["count"] == "function" and in_rule_text["you"] == "value"
    counters_row = next(n for n, text in enumerate(lines) if text.startswith("  points: {per:"))
    assert labels(counters_row, 4, "  po") == {}  # a counter's own name: nothing to offer
    per = labels(counters_row + 1, 9, "    per: ")
    assert per == {"player": "value", "game": "value"}
    top = labels(0, 0, "")
    assert {"game", "counters", "zones", "formulas", "scoring"} <= set(top)
    assert "extends" not in top  # a game file, not a variant


def test_hover_texts():
    assert builtin("max") == "**built-in function** `max(any, ...) -> int`"
    assert builtin("player_count") == "**built-in value** `player_count`: int"
    assert builtin("points") is None
    assert word_at("  add die to turn_total", 15) == ("turn_total", 13)
    assert word_at("  add die", 6) == ("die", 6)


def _completer(game: str):
    path = ROOT / "games" / game / "game.yaml"
    document, loaded = _loaded(path)
    names = declarations(loaded.source.doc)
    schema = json.loads(document.schema.read_text())
    lines = path.read_text().splitlines()

    def labels(row: int, text: str) -> dict[str, str]:
        page = list(lines)
        page[row] = text
        return {c.label: c.kind for c in completion.complete(page, row, len(text), schema, names)}
    return lines, labels


def test_completion_fits_the_place_and_the_word_typed():
    lines, labels = _completer("pig")
    row = lines.index("      gain turn_total points")
    assert labels(row, "      gain turn_total po") == {"points": "counter"}  # the counter
    assert labels(row, "      gain turn_total ") == {"points": "counter", "turn_total": "counter",
                                                      "moves": "counter"}
    # the amount: what can be a number (not an action, a zone or a trigger), cut to the word
    assert labels(row, "      gain t") == {"turn_total": "counter", "target": "option",
                                          "top": "function"}
    assert labels(row, "      gain pl") == {"player_count": "value", "players": "value",
                                           "players_from": "function"}
    assert labels(row, "      do ") == {"roll": "action", "stop": "action"}
    assert labels(row, "      may do s") == {"stop": "action"}
    assert labels(row, "      set turn_") == {"turn_total": "counter"}
    assert labels(row, "      ga") == {"gain": "keyword"}  # a statement begins: rule words too
    assert labels(row, "      if points >= ta") == {"target": "option"}
    requires = lines.index("    requires: points + turn_total < target")
    assert labels(requires, "    requires: points + tu") == {"turn_total": "counter"}
    assert labels(requires, "    req") == {"requires": "key"}
    lines, labels = _completer("new-eden")
    row = next(n for n, text in enumerate(lines) if text.lstrip().startswith("move "))
    indent = " " * (len(lines[row]) - len(lines[row].lstrip()))
    zones = labels(row, indent + "move card to ")
    assert len(zones) > 3 and set(zones.values()) == {"zone"}
    assert labels(row, indent + "shuffle ") == zones


def test_every_rule_word_of_the_grammar_says_what_it_does():
    assert words.keywords() <= set(words.CONSTRUCT), "a rule word without a construct"
    for word in words.keywords():
        text = words.describe(word)
        assert text and text.startswith(f"**rule word** `{word}`: "), word
    for construct in set(words.CONSTRUCT.values()):
        assert construct.__doc__, f"{construct.__name__} has no docstring to show"
    gain = words.describe("gain")
    assert "`gain 3 coins`" in gain and "gain E NAME[E]" in gain and "E gains" not in gain
    # a word inside a statement reads as part of it; an expression's word as its own
    assert "move E to E" in words.describe("to", "      move card to hand")
    assert "set E to E" in words.describe("to", "        set turn_total to 0")
    assert "x in L" in words.describe("in", "      if x in hand:")
    assert words.describe("points") is None


def test_rule_text_is_told_from_keys_and_comments():
    lines = ["actions:", "  stop:", "    requires: x in hand  # in", "    effect: |",
             "      end game", "game: pig"]
    assert completion.in_rule_text(lines, 2, 20)
    assert not completion.in_rule_text(lines, 2, 29)  # the comment
    assert not completion.in_rule_text(lines, 2, 6)  # the key
    assert completion.in_rule_text(lines, 4, 11)
    assert not completion.in_rule_text(lines, 5, 2)
    assert builtin("funds") == "**built-in function** `funds(counter) -> int`"
