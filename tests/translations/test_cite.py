"""`meeplang cite`: each rule beside the rulebook lines it cites, checked against the rule's
own syntax tree (dsl/concordance.py). The rulebooks are short texts written for these tests
(books/market.fr.txt, books/market.en.txt), cited by market.yaml."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeplang.cli import main
from meeplang.dsl.concordance import (book_comparisons, book_modality, book_numbers,
                                      concordance)
from meeplang.dsl.loader import load_source
from meeplang.dsl.resolve import load_game

HERE = Path(__file__).parent
GAME = str(HERE / "market.yaml")
FR, EN = str(HERE / "books" / "market.fr.txt"), str(HERE / "books" / "market.en.txt")


def _from_root(text: str) -> str:
    """Paths as from the repository's root: a game loaded earlier in this process, while a test
    was in another folder, keeps the absolute paths it was loaded with."""
    return text.replace(str(HERE.parents[1].resolve()) + "/", "")


@pytest.fixture(scope="module")
def conc():
    books = {"fr": (FR, Path(FR).read_text(encoding="utf-8")),
             "en": (EN, Path(EN).read_text(encoding="utf-8"))}
    return concordance(load_source(GAME), load_game(GAME), books)


def findings(conc, rule):
    row = next(r for r in conc.rows if r.rule == rule)
    return [(f.kind, f.message) for c in row.cited for f in c.findings] + \
        [(f.kind, f.message) for f in row.findings]


@pytest.mark.parametrize("text,lang,want", [
    ("tu gagnes cinq pièces", "fr", {5}),
    ("you gain 6 coins", "en", {6}),
    ("Each player starts with $10.", "en", {10}),
    ("Chaque joueur reçoit 10 $ et 3 cartes.", "fr", {10, 3}),
    ("Pour 2 à 4 joueurs.", "fr", {2, 4}),
    ("For 2-4 players.", "en", {2, 4}),
    ("At most twice per round, once per turn.", "en", {2, 1}),
    ("trois fois, quinze dégâts, dix-huit cases", "fr", {3, 15, 18}),
    ("une carte, un joueur", "fr", set()),  # articles, not numbers
    ("une seule fois", "fr", {1}),
    ("4 Prenez la carte de la zone 2 (l.418, §10.3, cf. pages 10-11)", "fr", set()),  # a list marker,
    ("Dans les zones 2, 3, 7 et 8, gagne 5", "fr", {5}),  # zones by number, references
    ("the one on the left, one of them", "en", set()),  # a pronoun
    ("the 2nd and 3rd years, R9c", "en", set()),  # ordinals and labels
    ("an area of 9 spaces (3x3 rectangle)", "en", {9, 3}),
])
def test_the_numbers_a_line_says(text, lang, want):
    assert book_numbers(text, lang) == want


@pytest.mark.parametrize("text,lang,want", [
    ("si tu as au moins 3 pièces", "fr", {"≥"}),
    ("if you have at least 3 coins", "en", {"≥"}),
    ("if you have more than 3 coins", "en", {">"}),
    ("s'il a plus de 3 pièces", "fr", {">"}),
    ("au plus 2 fois par manche", "fr", {"≤"}),
    ("fewer than 2 cards", "en", {"<"}),
    ("il n'a plus de pièces, tu ne joues plus de carte", "fr", set()),  # a negation
    ("ne peut jamais être inférieur à 0", "fr", {"≥"}),  # never below: at least
    ("can never be more than 15", "en", {"≤"}),
    ("jusqu'à ce que tous passent ; turn it over", "fr", set()),  # "until", no bound
    ("jusqu'à 3 cartes", "fr", {"≤"}),
    ("le joueur qui a le plus de points", "fr", set()),  # the most, not more than
    ("dès qu'un joueur atteint ou dépasse 18 points", "fr", {"≥"}),
    ("un nombre supérieur ou égal à 3", "fr", {"≥"}),
])
def test_the_comparisons_a_line_says(text, lang, want):
    assert book_comparisons(text, lang) == want


@pytest.mark.parametrize("text,lang,want", [
    ("tu peux vendre", "fr", {"may"}),
    ("Tu dois acheter", "fr", {"must"}),
    ("tu ne peux pas vendre", "fr", set()),  # a prohibition is no "may"
    ("you may sell", "en", {"may"}),
    ("you must pay", "en", {"must"}),
    ("you cannot sell", "en", set()),
])
def test_the_modality_a_line_says(text, lang, want):
    assert book_modality(text, lang) == want


def test_each_rule_is_lined_up_with_the_lines_it_cites(conc):
    row = next(r for r in conc.rows if r.rule == "actions.sell.effect")
    assert row.code == ("gain 5 coins",)
    assert [(c.citation.label(), c.lines) for c in row.cited] == [
        ("FR l.5", ((5, "Pendant ton tour, tu peux vendre : tu gagnes cinq pièces."),)),
        ("EN l.5", ((5, "On your turn, you may sell: you gain 6 coins."),))]
    assert [r.rule for r in conc.rows] == [
        "players", "terms.coins", "terms.buy", "counters.coins", "flow[0]",
        "actions.sell.limit", "actions.sell.effect", "actions.buy.requires",
        "actions.buy.effect", "triggers.upkeep.effect"]


def test_a_line_that_says_what_the_rule_says_is_not_flagged(conc):
    for rule in ("players", "terms.coins", "counters.coins", "flow[0]", "actions.sell.limit"):
        assert findings(conc, rule) == [], rule


def test_a_number_the_rule_does_not_have_is_flagged(conc):
    assert findings(conc, "actions.sell.effect") == [
        ("number", "EN l.5 says 6; the rule's numbers are 5"),
        ("books", "the French says 5, the English does not"),
        ("books", "the English says 6, the French does not")]


def test_a_comparison_and_a_modality_that_differ_are_flagged(conc):
    assert findings(conc, "actions.buy.requires") == [
        ("comparison", "EN l.6 compares with >; the rule with ≥"),
        ("books", "the French says the player must, the English may"),
        ("books", "the French compares with ≥, the English with >")]
    assert findings(conc, "actions.buy.effect") == [
        ("modality", "FR l.13 says the player must; the rule lets them choose")]
    assert findings(conc, "triggers.upkeep.effect") == [
        ("modality", "EN l.7 says the player may; the rule leaves no choice"),
        ("range", "FR l.40 is past the end of the book (13 lines)")]


def test_a_term_the_cited_line_does_not_say_is_flagged(conc):
    assert findings(conc, "terms.buy") == [("term", "FR l.5 does not say the term « Acheter »")]
    assert findings(conc, "terms.coins") == []  # « Les Sous sont rangés… »


def test_coverage_lists_the_lines_no_rule_cites(conc):
    assert conc.coverage["fr"] == {"lines": 11, "cited": 9, "uncited": ((1, 1), (12, 12))}
    assert conc.coverage["en"] == {"lines": 10, "cited": 8, "uncited": ((1, 1), (12, 12))}
    assert len(conc.findings) == 10


def test_the_text_output_puts_rule_and_lines_side_by_side(capsys):
    assert main(["cite", GAME, "--rulebook", f"fr={FR}", "--rulebook", f"en={EN}"]) == 0
    out = _from_root(capsys.readouterr().out)
    assert ("actions.sell.effect   tests/translations/market.yaml:22:5\n"
            "  | gain 5 coins\n"
            "  FR     5  Pendant ton tour, tu peux vendre : tu gagnes cinq pièces.\n"
            "  EN     5  On your turn, you may sell: you gain 6 coins.\n"
            "  ! number: EN l.5 says 6; the rule's numbers are 5\n") in out
    assert "FR coverage: 9 of 11 lines of text cited (81%); 2 not cited: l.1, 12" in out
    assert out.rstrip().endswith("10 rules cite the rulebooks; 18 cited lines checked; "
                                 "10 findings")


def test_one_book_is_enough_and_the_other_s_citations_are_counted(capsys):
    assert main(["cite", GAME, "--rulebook", f"fr={FR}", "--findings"]) == 0
    out = capsys.readouterr().out
    assert "EN l.7  (no en rulebook given)" in out
    assert "8 citations of the EN rulebook, not given" in out
    assert "books:" not in out


def test_json(capsys):
    assert main(["cite", GAME, "--rulebook", f"fr={FR}", "--rulebook", f"en={EN}",
                 "--json"]) == 0
    data = json.loads(_from_root(capsys.readouterr().out))
    assert data["game"] == "market" and data["findings"] == 10 and data["cited_lines"] == 18
    assert data["coverage"]["en"] == {"lines": 10, "cited": 8, "uncited": [[1, 1], [12, 12]]}
    sell = next(r for r in data["rules"] if r["rule"] == "actions.sell.effect")
    assert sell["citations"][1] == {
        "cites": "EN l.5", "book": "en", "where": "tests/translations/market.yaml:23:48",
        "annotates": "gain 5 coins",
        "lines": [{"line": 5, "text": "On your turn, you may sell: you gain 6 coins."}],
        "checked": True,
        "findings": [{"kind": "number", "book": "en", "cites": "EN l.5",
                      "message": "EN l.5 says 6; the rule's numbers are 5"}]}


def test_html_page_side_by_side_escapes_the_book(tmp_path, capsys):
    book = tmp_path / "fr.txt"
    book.write_text(Path(FR).read_text(encoding="utf-8").replace(
        "Pour 2 à 4 joueurs.", "Pour 2 à 4 <script>joueurs</script>."), encoding="utf-8")
    page = tmp_path / "cite.html"
    assert main(["cite", GAME, "--rulebook", f"fr={book}", "--rulebook", f"en={EN}",
                 "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<script>" not in html and "&lt;script&gt;joueurs&lt;/script&gt;" in html
    assert "<th>Rule</th><th>FR · " in html and "<th>EN · " in html
    assert "EN l.5 says 6; the rule&#x27;s numbers are 5" in html
    assert "Not cited: l.1, 12" in html


@pytest.mark.parametrize("spec,message", [
    ("de=x.txt", "--rulebook de=x.txt: expected LANG=FILE with LANG one of fr, en"),
    ("fr", "--rulebook fr: expected LANG=FILE"),
])
def test_a_bad_rulebook_argument_is_a_usage_error(capsys, spec, message):
    assert main(["cite", GAME, "--rulebook", spec]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_or_binary_rulebook_is_an_error_not_a_traceback(tmp_path, capsys):
    assert main(["cite", GAME, "--rulebook", f"fr={tmp_path / 'none.txt'}"]) == 1
    assert "none.txt: No such file or directory" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Ligne une\nligne \xff deux\n")
    assert main(["cite", GAME, "--rulebook", f"fr={bad}"]) == 1
    assert f"{bad}:2:7: error: the rulebook is not valid UTF-8 text" in capsys.readouterr().err


def test_thesauros_reading_fr_cites_its_own_tech_cards_line():
    """A variant that replaces an entry carries its own citation; the base's comment on the
    replaced line annotates no rule of the variant."""
    cites = {(c.rule, c.label()) for c in concordance(
        load_source("thesauros", "reading-fr"), load_game("thesauros", "reading-fr"), {}).rows
        for c in [x.citation for x in c.cited]}
    assert ("tables.tech_cards_kept", "FR l.267") in cites
    assert ("tables.tech_cards_kept", "EN l.278") not in cites
