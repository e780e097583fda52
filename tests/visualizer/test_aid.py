"""`meeplang aid`: the one-page player aid, checked without an eye: one page of the paper's size,
fonts embedded, no text under 8 pt and none scaled, and its content from the rules."""
from __future__ import annotations

import re
import shutil

import pytest

from meeplang.cli import main
from meeplang.dsl.resolve import load_game
from meeplang.visualizer import activity as AC
from meeplang.visualizer import aid as AI
from meeplang.visualizer.prose import Explanation

pytestmark = pytest.mark.skipif(shutil.which("dot") is None,
                                reason="Graphviz's dot is not installed")

# every bundled game with turns, and each of its modes
MODES = [("pig", None), ("pig", "short"),
         ("otys", None), ("otys", "advanced"), ("otys", "author"), ("otys", "solo"),
         ("otys", "solo-hard"),
         ("new-eden", None), ("new-eden", "solo"), ("new-eden", "solo-hard"),
         ("thesauros", None), ("thesauros", "introductory"), ("thesauros", "lawless"),
         ("thesauros", "solo"), ("thesauros", "reading-fr"), ("thesauros", "reading-en"),
         ("endeavor-deep-sea", None), ("endeavor-deep-sea", "coop"),
         ("endeavor-deep-sea", "solo")]
GAMES = {}


def game(name, variant=None):
    if (name, variant) not in GAMES:
        GAMES[name, variant] = load_game(name, variant)
    return GAMES[name, variant]


def pdf_facts(data: bytes) -> dict:
    return {"pages": len(re.findall(rb"/Type\s*/Page\b", data)),
            "box": [tuple(float(x) for x in m.split()) for m in
                    re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)],
            "descriptors": len(re.findall(rb"/Type\s*/FontDescriptor\b", data)),
            "embedded": len(re.findall(rb"/FontFile[23]?\b", data))}


def svg_facts(svg: str) -> dict:
    m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    return {"size": (float(m.group(1)), float(m.group(2))),
            "scales": set(re.findall(r'transform="scale\(([^)]*)\)', svg)),
            "sizes": [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]}


@pytest.mark.parametrize("name,variant", MODES)
def test_every_mode_makes_a_one_page_a4_pdf_with_embedded_fonts(name, variant):
    facts = pdf_facts(AI.render_aid(game(name, variant), "pdf", "en", "a4"))
    assert facts["pages"] == 1
    assert facts["box"] == [(0, 0, 595, 842)]
    assert facts["descriptors"] >= 1 and facts["embedded"] == facts["descriptors"]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name,variant", [("otys", None), ("new-eden", "solo"),
                                          ("thesauros", "lawless"), ("endeavor-deep-sea", None)])
def test_the_smallest_text_is_8_pt_and_nothing_is_scaled(name, variant, paper, lang):
    svg = AI.render_aid(game(name, variant), "svg", lang, paper).decode("utf-8")
    facts = svg_facts(svg)
    assert facts["size"] == AI.PAPERS[paper]
    assert facts["scales"] == {"1 1"}
    assert min(facts["sizes"]) >= 8
    pdf = pdf_facts(AI.render_aid(game(name, variant), "pdf", lang, paper))
    assert pdf["pages"] == 1 and pdf["box"] == [(0, 0) + AI.PAPERS[paper]]


def test_the_aid_holds_the_phases_turn_actions_end_and_scoring():
    g = game("new-eden", "solo")
    aid = AI.build_aid(g, "en")
    text = "\n".join(t for s in aid.sections for _, t, _ in s.lines)
    doc = Explanation(g, "en")
    say = doc.say
    # every action offered on a turn (free and automa ones too) has its line
    main, free, automa = AC.offered(g)
    for name in main | free | automa:
        assert re.search(rf"^{re.escape(format(say.term(name), 'quote'))}", text, re.M), name
    # with what it pays and gains, the rulebook's numbers (New Eden FR l.418: five coins per
    # use of the power plant; l.434: each extension costs six coins)
    assert "“Build an extension” — Pay 6 coins." in text
    assert "“Power plant” — Gain 5 coins." in text
    # the round, the end and the scoring in the words of `meeplang explain`
    assert doc.step(g.flow[0], 0)[0].text in text
    for line in doc.scoring().lines + doc.end().lines:
        assert line.text in text
    # the turn strips: each turns step's actions, free actions and automa actions
    ((label, strip),) = aid.turns
    kinds = [k for k, _ in strip]
    ((phase, _, _),) = AC._turns_steps(g.flow, None)  # the phase its turns are in, by its term
    assert label == str(format(say.term(phase.name), "quote")) and label != phase.name
    assert kinds.count("action") == 3 and kinds.count("free") == 2
    assert kinds.count("automa") == 3


def test_a_variants_changes_are_marked():
    aid = AI.build_aid(game("new-eden", "solo"), "en")
    actions = next(s for s in aid.sections if s.heading == "Actions")
    marked = [t for _, t, changed in actions.lines if changed]
    assert any(t.startswith("“Pass”") for t in marked)  # solo changes the pass's requires
    assert not any(t.startswith("“Buy a card”") for t in marked)
    changes = next(s for s in aid.sections if s.heading == "Changed by this variant")
    assert any(t.startswith("players") for _, t, _ in changes.lines)
    assert "#d62728" in AI.aid_source(game("new-eden", "solo"), "en")
    base = AI.build_aid(game("new-eden"), "en")
    assert not any(changed for s in base.sections for _, _, changed in s.lines)


def test_a_layout_that_does_not_fit_is_refused_not_shrunk(monkeypatch):
    monkeypatch.setattr(AI, "BODY", 30)
    with pytest.raises(Exception, match="does not fit one a4 page at 30 pt"):
        AI.aid_source(game("new-eden"), "en", "a4")


def test_cli_aid(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["aid", "otys:solo", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.strip() == "otys-solo-aid-a4.pdf"
    assert pdf_facts((tmp_path / "otys-solo-aid-a4.pdf").read_bytes())["pages"] == 1
    assert main(["aid", "pig", "--paper", "letter", "-o", "pig.svg"]) == 0
    assert svg_facts((tmp_path / "pig.svg").read_text(encoding="utf-8"))["size"] == (612, 792)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["aid", "pig", "--paper", "a5"])
    assert stop.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_a_phase_is_named_by_its_term_on_the_turn_strip():
    """Otys's turns are in its phase `rounds`: the strip says “Rounds” as the rules text does,
    in each language, never the raw name."""
    for lang in ("en", "fr"):
        aid = AI.build_aid(game("otys", None), lang)
        ((label, _),) = aid.turns
        assert label.startswith(("“", "« ")) and "rounds" not in label, label


def test_rulebook_otys_player_aid_items_are_on_the_aid():
    """Otys prints its own player aid (FR l.789 onward); the items with a price or a gain are
    on `meeplang aid`'s page with the rulebook's numbers: the oxygen reserve costs a battery
    (l.807), the Sponsors give 1 credit (l.819), fit a module for 2 credits and 1 notoriety point
    (l.831), give 1 battery (l.835)."""
    aid = AI.build_aid(game("otys"), "fr")
    actions = [t for s in aid.sections if s.heading == "Actions" for _, t, _ in s.lines]
    assert "« Réserve d'oxygène » — Paie 1 batterie." in actions
    assert "« Gagner un crédit » — Gagne 1 crédit." in actions
    assert "« Équiper d'un module » — Paie 2 crédits. · Gagne 1 point de notoriété." in actions
    assert "« Gagner une batterie » — Gagne 1 batterie." in actions
    # the turn of FR l.789-809: play a key (steps 1-3), and the contracts as a free action
    (strip,) = [s for _, s in aid.turns]
    assert ("action", "« Jouer un jeton Clé »") in strip
    assert ("free", "libre : « Réaliser un contrat »") in strip
