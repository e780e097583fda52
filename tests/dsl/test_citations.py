"""Rulebook citations in comments (`# FR l.418`) read as data, each attached to the rule it
annotates; `check` warns at a malformed one (dsl/citations.py)."""
from __future__ import annotations

import pytest

from meeplang.cli import main
from meeplang.dsl import citations
from meeplang.dsl.loader import load_source

GAME = '''\
# A small game. Sources: its French rulebook ("FR l.N") and English one.
game: g
title: "Race"                      # FR l.1
players: [2, 2]
terms:
  coins: {en: "Coins", fr: "Pièces", fr_grammar: f pl}   # FR l.4, EN l.3
counters:
  coins: {per: player, initial: 10}  # FR l.5-6: ten coins each
tables:
  income: 5                          # FR l.418
  # the fee of each use (FR l.420-422, EN l.397)
  fees: [1, 3, 6]
flow:
  - turns: {first: 0, actions: [earn], per_turn: 1, until: one_round}   # FR l.30
actions:
  earn:
    limit: {times: 3, per: game}     # FR l.418 « au plus 3 fois »
    effect: |
      gain income coins              # FR l.418
      # "a # in a string": FR l.9 vs l.11-12
      log "# FR l.99 is no comment"
scoring: {score: coins}
'''


def _cites(write_game, text=GAME):
    src = load_source(write_game(text))
    return citations.read(src)


@pytest.mark.parametrize("text,want", [
    ("FR l.418", [("FR", ((418, 418),))]),
    ("EN l.254-256: the rows", [("EN", ((254, 256),))]),
    ("FR l.304, 308", [("FR", ((304, 304), (308, 308)))]),
    ("FR l.82-96, 410-440, by rank", [("FR", ((82, 96), (410, 440)))]),
    ("FR l.139 vs l.150-152", [("FR", ((139, 139),)), ("FR", ((150, 152),))]),
    ("FR l.253, 226; EN l.12", [("FR", ((253, 253), (226, 226))), ("EN", ((12, 12),))]),
    ("tool. l.5", [(None, ((5, 5),))]),  # no book: a problem, below
])
def test_a_comment_s_citations(text, want):
    found, _ = citations.parse(text)
    assert [(book, refs) for book, refs, _, _ in found] == want


@pytest.mark.parametrize("text,problem", [
    ("FR l.x", "'l.' is not followed by a line number (found 'x')"),
    ("FR l.", "'l.' is not followed by a line number"),
    ("FR l.12- and on", "the range 'l.12-' has no last line"),
    ("FR l.20-10", "the range 'l.20-10' ends before it starts"),
    ("FR l.0", "rulebook lines start at 1"),
    ("fr l.3", "write the rulebook as FR, not 'fr'"),
    ("DE l.3", "unknown rulebook 'DE'"),
    ("see l.5", "the citation names no rulebook (write FR l.N or EN l.N)"),
])
def test_a_malformed_citation_says_what_is_wrong(text, problem):
    found, _ = citations.parse(text)
    assert len(found) == 1 and found[0][3].startswith(problem)


def test_the_book_carries_to_the_comment_line_below():
    found, book = citations.parse("(« arrive sur », FR")
    assert found == [] and book == "FR"
    found, _ = citations.parse("l.609; « atteindra », l.617)", book)
    assert [(b, refs) for b, refs, _, problem in found if not problem] == [
        ("FR", ((609, 609),)), ("FR", ((617, 617),))]


def test_the_notation_itself_is_no_citation():
    assert citations.parse('its rulebook ("FR l.N" = its line N)')[0] == []


def test_citations_are_attached_to_the_rule_they_annotate(write_game):
    cites, warnings = _cites(write_game)
    assert warnings == []
    got = {(c.label(), c.rule) for c in cites}
    assert got == {
        ("FR l.1", "title"),
        ("FR l.4", "terms.coins"), ("EN l.3", "terms.coins"),  # a flow map: the entry, not `en`
        ("FR l.5-6", "counters.coins"),
        ("FR l.418", "tables.income"),
        ("FR l.420-422", "tables.fees"), ("EN l.397", "tables.fees"),  # a comment line: the next
        ("FR l.30", "flow[0]"),
        ("FR l.418", "actions.earn.limit"),
        ("FR l.418", "actions.earn.effect"),  # rule text's own comment
        ("FR l.9", "actions.earn.effect"), ("FR l.11-12", "actions.earn.effect"),
    }
    effect = [c for c in cites if c.rule == "actions.earn.effect"]
    assert effect[0].code == "gain income coins"
    assert effect[0].pos.line == 19 and effect[0].pos.col == 40
    assert effect[1].code == 'log "# FR l.99 is no comment"'  # a comment line: the line below
    assert all(c.book in ("fr", "en") for c in cites)
    assert [c.line_numbers() for c in cites if c.rule == "tables.fees"] == [[420, 421, 422],
                                                                             [397]]


def test_a_hash_inside_a_quoted_string_is_no_comment():
    found = citations.comments('a: "x # FR l.3"   # FR l.4\nb: \'y #z\'\n')
    assert [(c.line, c.col, c.text) for c in found] == [(1, 19, " FR l.4")]


def test_check_warns_at_a_malformed_citation(write_game, capsys):
    name = write_game(GAME.replace("# FR l.5-6:", "# FR l.6-5:"))
    assert main(["check", name]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "g/game.yaml:8:40: warning: malformed rulebook citation: the range 'l.6-5' ends " \
           "before it starts" in err  # at its `FR`
    assert main(["check", "--strict", name]) == 1


def test_check_warns_at_a_citation_with_no_line(write_game, capsys):
    name = write_game(GAME.replace("# FR l.30", "# FR l.thirty"))
    assert main(["check", name]) == 0
    err = capsys.readouterr().err
    assert ("g/game.yaml:14:75: warning: malformed rulebook citation: 'l.' is not followed by a "
            "line number (found 'thirty')") in err


def test_new_eden_s_citations_name_their_rules():
    cites, warnings = citations.read(load_source("new-eden"))
    assert warnings == []
    by_rule = {}
    for c in cites:
        by_rule.setdefault(c.rule, set()).add(c.label())
    assert "FR l.418" in by_rule["tables.plant_income"]
    assert "FR l.420-422" in by_rule["tables.plant_damage"]
    assert len(cites) > 150


@pytest.mark.parametrize("game", ["new-eden", "thesauros", "otys", "endeavor-deep-sea"])
def test_the_bundled_games_cite_well(game):
    cites, warnings = citations.read(load_source(game))
    assert [str(w) for w in warnings] == []
    assert cites and all(c.lines for c in cites)
