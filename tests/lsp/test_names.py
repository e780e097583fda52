"""What the language server knows of a game, without a server: its declarations (across
includes) and what completion offers where."""
from __future__ import annotations

import json
from pathlib import Path

from meeplang.lsp import completion, project
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
    in_rule_text = labels(effect_row, 17)
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
