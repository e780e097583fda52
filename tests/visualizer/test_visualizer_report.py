"""`meeplang report`: the HTML page, and (when Chromium is installed) the page as a browser
loads it: the SVG is in the DOM with the phase names, and no console messages."""
from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.dsl.model import PhaseStep
from meeplang.dsl.resolve import load_game
from meeplang.cli import main
from meeplang.visualizer import analysis as AN
from meeplang.visualizer.report import build_html, summary_text

CHROMIUM = "/usr/bin/chromium"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed")
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"{CHROMIUM} is not installed")

FAKE_SVG = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'


def _phase_names(game, lang):
    return [game.term(s.name, lang) for s in AN.all_steps(game.flow) if isinstance(s, PhaseStep)]


@pytest.mark.parametrize("name", bundled_games())
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_page_content(name, lang):
    game = load_game(name)
    page = build_html(game, FAKE_SVG, lang)
    assert page.startswith("<!DOCTYPE html>")
    assert "<?xml" not in page and "<!DOCTYPE svg" not in page  # inline SVG, no prolog
    assert html.escape(game.title.get(lang) or game.title["en"]) in page
    summary = summary_text(game, lang)
    assert summary and html.escape(summary, quote=True) in page
    for c in game.counters:
        assert html.escape(game.term(c, lang)) in page
    for z in game.zones:
        assert html.escape(game.term(z, lang)) in page
    for k in game.items:
        assert html.escape(game.term(k, lang)) in page
    for a in game.actions.values():
        assert html.escape(game.term(a.name, lang)) in page
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)=["']https?:""", page)  # nothing from outside


@needs_dot
def test_report_command_writes_index(tmp_path, capsys):
    out = tmp_path / "pig-report"
    assert main(["report", "pig", "-o", str(out)]) == 0
    index = out / "index.html"
    assert capsys.readouterr().out.strip() == str(index)
    page = index.read_text(encoding="utf-8")
    assert "<svg" in page and "Roll" in page and "turn_total" in page


@needs_dot
def test_report_default_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["report", "goofspiel", "--lang", "fr"]) == 0
    assert (tmp_path / "goofspiel-report" / "index.html").is_file()


def _chromium_dump(url: str, profile: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--dump-dom", url],
        capture_output=True, text=True, timeout=180)


@needs_dot
@needs_chromium
@pytest.mark.parametrize("name", bundled_games())
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_page_in_headless_chromium(tmp_path, name, lang):
    game = load_game(name)
    out = tmp_path / "report"
    assert main(["report", name, "-o", str(out), "--lang", lang]) == 0
    r = _chromium_dump((out / "index.html").resolve().as_uri(), tmp_path / "profile")
    dom = r.stdout
    assert "<svg" in dom, r.stderr[-2000:]
    svg = dom[dom.index("<svg"):dom.index("</svg>")]
    for phase in _phase_names(game, lang):
        assert html.escape(phase, quote=False) in svg or phase in svg, phase
    # Chromium logs every console message (errors included) as INFO:CONSOLE
    console = [line for line in r.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []


@needs_dot
def test_report_links_the_rules_flowcharts_and_the_player_aid(tmp_path, capsys):
    from meeplang.visualizer import activity as AC

    out = tmp_path / "solo"
    assert main(["report", "new-eden:solo", "-o", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    game = load_game("new-eden", "solo")
    stems = {c.stem for c in AC.all_charts(game, "en")}
    assert {p.stem for p in (out / "charts").iterdir()} == stems
    for stem in stems:
        assert f'href="charts/{stem}.svg"' in page
    # the variant's changed pass is marked in the list and in its chart
    assert re.search(r'href="charts/action-pass_development.svg">[^<]*</a> <span class=changed>',
                     page)
    assert "✎ changed" in (out / "charts" / "action-pass_development.svg").read_text("utf-8")
    for paper in ("a4", "letter"):
        assert (out / f"aid-{paper}.pdf").read_bytes().startswith(b"%PDF")
        assert f'href="aid-{paper}.pdf"' in page
    assert main(["report", "pig", "-o", str(tmp_path / "pig"), "--no-charts"]) == 0
    assert not (tmp_path / "pig" / "charts").exists()
    assert 'id="charts"' not in (tmp_path / "pig" / "index.html").read_text(encoding="utf-8")
