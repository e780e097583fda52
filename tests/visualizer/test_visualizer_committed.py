"""docs/diagrams holds every bundled game's diagram (phases detail, English): the DOT text and the
SVG drawn from it. Fails when the rules or the visualizer changed and they were not redrawn."""
from __future__ import annotations

from meeplang.visualizer import regen


def test_committed_diagrams_are_up_to_date():
    found = regen.problems()
    assert not found, ("docs/diagrams is out of date:\n  " + "\n  ".join(found)
                       + f"\nregenerate with: {regen.REGEN_COMMAND}  (needs Graphviz's dot)")


def test_svg_stamp_round_trip():
    dot = "digraph x {}\n"
    svg = '<?xml version="1.0"?>\n<svg></svg>\n'
    stamped = regen.stamp_svg(svg, dot)
    assert regen.svg_hash(stamped) == regen.dot_hash(dot)
    assert stamped.startswith('<?xml version="1.0"?>\n<!-- ')
    assert regen.svg_hash(svg) is None


def test_problems_reports_missing_and_stale(tmp_path):
    found = regen.problems(tmp_path)
    assert found and all("missing" in line for line in found)
    stem = next(iter(regen.expected()))
    (tmp_path / f"{stem}.dot").write_text("stale", encoding="utf-8")
    (tmp_path / "gone.svg").write_text("<svg/>", encoding="utf-8")
    found = regen.problems(tmp_path)
    assert any("out of date" in line and stem in line for line in found)
    assert any("gone.svg" in line and "no bundled game" in line for line in found)
