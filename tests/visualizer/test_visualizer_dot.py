"""The diagram's structure, checked on the Diagram data and on the DOT text, for every bundled game
and variant (and a richer fixture game with nested loops, ifs and triggers)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.dsl.model import IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep
from meeplang.dsl.resolve import load_game
from meeplang.visualizer import analysis as AN
from meeplang.visualizer.dot import DETAILS, build_diagram, dot_source, to_digraph

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE = FIXTURES / "mini_eden"  # rounds, lettered phases, a bidding loop, ifs, triggers (en, fr)
EDGE = FIXTURES / "edge_cases"  # empty phase and branches, never-ending loop, turn triggers


def _targets():
    out = []
    for name in bundled_games():
        out.append((name, None))
        for variant, _, _ in load_game(name).variants:
            out.append((name, variant))
    return out


TARGETS = _targets()
IDS = [n + (f":{v}" if v else "") for n, v in TARGETS]


@pytest.fixture(scope="module")
def games():
    loaded = {(n, v): load_game(n, v) for n, v in TARGETS}
    loaded[("fixture", None)] = load_game(str(FIXTURE))
    loaded[("edge", None)] = load_game(str(EDGE))
    return loaded


ALL = TARGETS + [("fixture", None), ("edge", None)]
ALL_IDS = IDS + ["fixture", "edge"]
# the bundled games carry their terms in English and French (so does the mini_eden fixture)
BILINGUAL = TARGETS + [("fixture", None)]
BILINGUAL_IDS = IDS + ["fixture"]


def _steps(game, kinds):
    return [s for s in AN.all_steps(game.flow) if isinstance(s, kinds)]


def _cluster_block(dot: str, cid: str) -> str:
    """The attribute lines of a subgraph in the DOT text."""
    start = dot.index(f"subgraph {cid} {{")
    return dot[start:dot.index("\n", dot.index("\n", start) + 1)]


def test_bundled_games_exist():
    assert TARGETS, "no bundled games found"


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("detail", DETAILS)
def test_every_phase_is_one_cluster(games, target, detail):
    game = games[target]
    d = build_diagram(game, detail, "en")
    dot = to_digraph(d).source
    phases = _steps(game, PhaseStep)
    assert len(d.phases) == len(phases)
    for step in phases:
        matches = [cid for s, cid in d.phases if s is step]
        assert len(matches) == 1, f"phase {step.name} drawn {len(matches)} times"
        cid = matches[0]
        assert dot.count(f"subgraph {cid} {{") == 1
        block = _cluster_block(dot, cid)
        assert "class=phase" in block
        assert game.term(step.name, "en") in block
    assert len([c for c in d.clusters() if c.kind == "phase"]) == len(phases)


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("detail", DETAILS)
def test_every_loop_has_its_back_edge(games, target, detail):
    game = games[target]
    d = build_diagram(game, detail, "en")
    dot = to_digraph(d).source
    edges = {e.attrs["id"]: e for e in d.edges}
    loops = _steps(game, (RepeatStep, LoopStep, TurnsStep))
    assert len(d.loops) == len(loops)
    for step in loops:
        found = [ids for s, ids in d.loops if s is step]
        assert len(found) == 1
        if isinstance(step, (RepeatStep, LoopStep)) and AN.seq_never_ends(step.steps):
            continue  # a body that never finishes never loops back
        assert found[0], f"no back edge for {step}"
        for eid in found[0]:
            e = edges[eid]
            assert e.kind == "back"
            line = next(x for x in dot.splitlines() if f"id={eid}" in x or f'id="{eid}"' in x)
            assert "class=back" in line
            if isinstance(step, TurnsStep):
                assert e.tail == e.head  # the turn loop: next player
            else:
                # badge -> end dot inside the loop's own cluster, drawn upwards
                loop_c = next(c for c in d.clusters() if c.kind == "loop"
                              and e.tail in [n.id for n in c.nodes])
                assert e.head in [n.id for n in loop_c.nodes]
                assert e.attrs.get("dir") == "back"


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
def test_loop_badges_say_count_or_condition(games, target):
    game = games[target]
    d = build_diagram(game, "phases", "en")
    badges = [n for c in d.clusters() for n in c.nodes if n.kind == "loop_head"]
    loops = _steps(game, (RepeatStep, LoopStep))
    assert len(badges) == len(loops)
    for step, badge in zip(loops, badges):
        text = badge.attrs["label"]
        if isinstance(step, RepeatStep):
            assert "×" in text
            # an option's value is said once (`× the rounds (6)`), a number sits by the sign
            assert not re.search(r"(\(\d+\)) \1", text) and not re.search(r"×[^\d\s]", text)
        else:
            assert ("until " if step.until else "while ") in text


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("detail", ["actions", "full"])
def test_actions_are_inside_their_turns_step(games, target, detail):
    game = games[target]
    d = build_diagram(game, detail, "en")
    turns = _steps(game, TurnsStep)
    assert len(d.turns) == len(turns)
    for step in turns:
        (_, tid, actions), = [t for t in d.turns if t[0] is step]
        offered = list(dict.fromkeys((*step.actions, *step.free_actions,
                                      *(getattr(step, "automa_actions", ()) or ()))))
        assert list(actions) == offered
        box = next(c for c in d.clusters() if c.kind == "turns"
                   and tid in [n.id for n in c.nodes])
        inside = {n.id: n for n in box.nodes}
        for name, aid in actions.items():
            assert aid in inside, f"action {name} not inside its turns step"
            assert game.term(name, "en") in inside[aid].attrs["label"]
            requires = game.actions[name].requires
            if requires is not None:
                assert "requires" in inside[aid].attrs["label"]


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
def test_phases_detail_has_no_action_nodes(games, target):
    d = build_diagram(games[target], "phases", "en")
    kinds = {n.kind for c in d.clusters() for n in c.nodes}
    assert "action" not in kinds
    assert not [c for c in d.clusters() if c.kind == "turns"]


@pytest.mark.parametrize("target", BILINGUAL, ids=BILINGUAL_IDS)
def test_french_and_english_phase_labels_differ(games, target):
    game = games[target]
    en = build_diagram(game, "phases", "en")
    fr = build_diagram(game, "phases", "fr")
    assert en.phases, "a bundled game without phases"
    for (step, cid_en), (_, cid_fr) in zip(en.phases, fr.phases):
        label_en = en.cluster(cid_en).attrs["label"]
        label_fr = fr.cluster(cid_fr).attrs["label"]
        assert game.term(step.name, "fr") in label_fr
        assert label_en != label_fr, f"phase {step.name} has the same label in en and fr"


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("detail", DETAILS)
def test_flow_ends_in_final_scoring(games, target, detail):
    d = build_diagram(games[target], detail, "en")
    into_final = [e for e in d.edges if e.head == d.final_id]
    assert into_final
    final = next(n for c in d.clusters() for n in c.nodes if n.id == d.final_id)
    assert final.kind == "final" and "Final scoring" in final.attrs["label"]
    starts = [n for c in d.clusters() for n in c.nodes if n.kind == "start"]
    assert len(starts) == 1
    assert any(e.tail == starts[0].id for e in d.edges)


def test_pig_end_game_exits_name_their_rules(games):
    game = games[("pig", None)]
    d = build_diagram(game, "phases", "en")
    ends = [e for e in d.edges if e.kind == "end"]
    assert len(ends) == 1
    label = ends[0].attrs["label"]
    assert "end game" in label and "Stop" in label and "Count the moves" in label
    assert ends[0].attrs["style"] == "dashed" and ends[0].head == d.final_id

    # actions: Stop's own exit from its node, the trigger's from the turns node
    d = build_diagram(game, "actions", "en")
    (_, tid, actions), = d.turns
    tails = {e.tail: e.attrs["label"] for e in d.edges if e.kind == "end"}
    assert set(tails) == {actions["stop"], tid}
    assert "Count the moves" in tails[tid]

    # full: from the Stop node and from the trigger node, which hangs off the turns node
    d = build_diagram(game, "full", "en")
    (_, tid, actions), = d.turns
    trig = d.triggers["count_moves"]
    assert {e.tail for e in d.edges if e.kind == "end"} == {actions["stop"], trig}
    assert [(e.tail, e.head) for e in d.edges if e.kind == "trigger"] == [(tid, trig)]


def test_fixture_triggers_and_branches(games):
    game = games[("fixture", None)]
    d = build_diagram(game, "full", "en")
    trig = {e.head if e.head in d.triggers.values() else e.tail: e
            for e in d.edges if e.kind == "trigger"}
    # after build: from the Build action node (declared reversed to sit beside it)
    build_node = [a["build"] for _, _, a in d.turns if "build" in a][0]
    e = trig[d.triggers["big_builder"]]
    assert {e.tail, e.head} == {build_node, d.triggers["big_builder"]}
    # end of upkeep: from the Upkeep phase cluster
    e = trig[d.triggers["collapse"]]
    upkeep = [cid for s, cid in d.phases if s.name == "upkeep"][0]
    assert e.attrs["ltail"] == upkeep
    # the overflow trigger fires from nowhere drawn: a node with its own end-game exit
    assert d.triggers["meltdown"] not in trig
    assert any(x.tail == d.triggers["meltdown"] for x in d.edges if x.kind == "end")
    # two if steps: diamonds with yes / no branches
    diamonds = [n for c in d.clusters() for n in c.nodes if n.kind == "if"]
    assert len(diamonds) == len(_steps(game, IfStep)) == 2
    labels = [e.attrs.get("label") for e in d.edges if e.tail == diamonds[0].id]
    assert sorted(labels) == ["no", "yes"]
    # phases detail: the unanchored trigger still shows, the others only as end-game labels
    d = build_diagram(game, "phases", "en")
    assert set(d.triggers) == {"meltdown"}
    assert any("Collapse" in e.attrs.get("label", "") for e in d.edges if e.kind == "end")


@pytest.mark.parametrize("detail", DETAILS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_legend_identical_in_every_game(games, detail, lang):
    legends = set()
    for game in games.values():
        dot = dot_source(game, detail, lang)
        block = dot[dot.index("subgraph cluster_legend {"):]
        legends.add(block[:block.index("\n\t}")])
    assert len(legends) == 1


@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
def test_dot_source_is_deterministic(games, target):
    game = games[target]
    again = {"fixture": lambda: load_game(str(FIXTURE)), "edge": lambda: load_game(str(EDGE))}
    fresh = again[target[0]]() if target[0] in again else load_game(*target)
    assert dot_source(game, "full", "fr") == dot_source(fresh, "full", "fr")


def test_unknown_detail_and_language():
    from meeplang.dsl.errors import UsageError

    game = load_game("pig")
    with pytest.raises(UsageError, match="detail"):
        dot_source(game, "everything")
    with pytest.raises(UsageError, match="language"):
        dot_source(game, "phases", "de")


def test_special_characters_are_escaped(games):
    """Rule text goes into HTML-like labels escaped (the step says log "income: <2 coins> & ..."),
    as rule code and as a sentence."""
    dot = dot_source(games[("fixture", None)], "phases", "en", text="rules")
    assert 'log &quot;income: &lt;2 coins&gt; &amp; \\&quot;more\\&quot;&quot;' in dot
    prose = dot_source(games[("fixture", None)], "phases", "en")
    assert 'Note: income: &lt;2 coins&gt; &amp; &quot;more&quot;' in prose


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("target", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("detail", DETAILS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_dot_draws_without_warnings(games, target, detail, lang):
    """Graphviz accepts every diagram silently: no syntax errors, no compound-edge warnings."""
    dot = dot_source(games[target], detail, lang)
    r = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stderr.decode().strip() == ""
    svg = r.stdout.decode()
    for step in _steps(games[target], PhaseStep):
        assert re.search(r">\s*" + re.escape(_xml(games[target].term(step.name, lang))), svg)


def _xml(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def test_edge_cases(games):
    game = games[("edge", None)]
    d = build_diagram(game, "phases", "en")
    # an empty phase still is a box, with a placeholder inside
    empty = [cid for s, cid in d.phases if s.name == "empty"][0]
    assert [n.kind for n in d.cluster(empty).nodes] == ["empty"]
    # an if with nothing in it: yes and no lead to the same place, one unlabelled edge
    inner_if = [n for c in d.clusters() if c.kind == "loop" for n in c.nodes if n.kind == "if"][0]
    out = [e for e in d.edges if e.tail == inner_if.id and e.kind == "flow"]
    assert len(out) == 1 and "label" not in out[0].attrs
    # `while: true` around turns that never end: no back edge, no exit, nothing after it
    never = [s for s in AN.all_steps(game.flow) if isinstance(s, LoopStep) and not s.until][0]
    assert [ids for s, ids in d.loops if s is never] == [[]]
    # the trigger before every turn ends the game: an exit from each of the three turns nodes
    turns_nodes = {tid for _, tid, _ in d.turns}
    assert {e.tail for e in d.edges if e.kind == "end"} == turns_nodes
    # full: the trigger node hangs off all three turns nodes, and the phase trigger off melee
    d = build_diagram(game, "full", "en")
    watch = d.triggers["watch"]
    assert {e.tail for e in d.edges if e.kind == "trigger" and e.head == watch} == \
        {tid for _, tid, _ in d.turns}
    melee = [cid for s, cid in d.phases if s.name == "melee"][0]
    assert [e.attrs.get("ltail") for e in d.edges
            if e.kind == "trigger" and e.head == d.triggers["on_melee"]] == [melee]


@pytest.mark.parametrize("lang, text", [("en", "free actions before or after"),
                                        ("fr", "actions libres avant ou après")])
def test_turns_box_says_free_actions_go_on_after_the_main_one(games, lang, text):
    """New Eden's Phase A keeps free actions open after the main action (free_after_last);
    pig's turns have no free actions, so their box says nothing of it."""
    assert text in dot_source(games[("new-eden", None)], "phases", lang)
    assert text not in dot_source(games[("pig", None)], "phases", lang)


@pytest.mark.parametrize("lang, texts", [
    ("en", ["on entering a space of fame", "when an item enters museum", "on each gain of gold",
            "for each l in the lines", "at most 1 per turn"]),
    ("fr", ["en entrant sur une case de fame", "quand un élément entre dans museum",
            "à chaque gain de gold", "pour chaque l du lines", "au plus 1 par turn"]),
])
def test_track_and_item_triggers_say_when_they_fire(tmp_path, lang, texts):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text("""
game: g
players: 1
tables: {lines: [1, 2]}
counters: {gold: {per: player}}
tracks: {fame: {per: player, spaces: 3}}
zones: {museum: {}}
flow: [{turns: {first: 0, actions: [go], until: one_round}}]
actions: {go: {effect: gain 1 fame}}
triggers:
  a: {when: enter space of fame, effect: gain 1 gold}
  b: {when: enters museum, effect: gain 1 gold}
  c: {when: gain of gold, each: l in lines, limit: {times: 1, per: turn}, effect: gain 1 fame}
scoring: {score: gold}
""", encoding="utf-8")
    dot = dot_source(load_game(str(folder)), "full", lang)
    for text in texts:
        assert text in dot
