"""Flowcharts of actions, triggers, the automa's turn and the turn (`meeplang diagram --action`,
`--all-actions`, `--turn`, `--automa`): checks that need no eye."""
from __future__ import annotations

import re
import shutil

import pytest

from meeplang.cli import main
from meeplang.dsl import ast as A
from meeplang.dsl.resolve import load_game
from meeplang.visualizer import activity as AC
from meeplang.visualizer.prose import Explanation

needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed")

# every bundled game and variant that has actions or triggers (goofspiel has neither: its flow
# is all steps)
TARGETS = [
    ("pig", None), ("pig", "short"),
    ("otys", None), ("otys", "advanced"), ("otys", "author"), ("otys", "solo"),
    ("otys", "solo-hard"),
    ("new-eden", None), ("new-eden", "solo"), ("new-eden", "solo-hard"),
    ("thesauros", None), ("thesauros", "introductory"), ("thesauros", "lawless"),
    ("thesauros", "solo"), ("thesauros", "reading-fr"), ("thesauros", "reading-en"),
    ("endeavor-deep-sea", None), ("endeavor-deep-sea", "coop"), ("endeavor-deep-sea", "solo"),
]
GAMES = {}


def game(name, variant=None):
    key = (name, variant)
    if key not in GAMES:
        GAMES[key] = load_game(name, variant)
    return GAMES[key]


def statements(block):
    """Every statement of a block's syntax tree, depth first (a `do ... else S`'s S is said
    inside the `do`'s sentence, so it is part of that statement)."""
    for s in (block.stmts if block is not None else ()):
        yield s
        if isinstance(s, A.IfStmt):
            for _, body in s.branches:
                yield from statements(body)
            yield from statements(s.other)
        elif isinstance(s, A.SearchStmt):
            yield from statements(s.body)
            yield from statements(s.other)
        elif isinstance(s, (A.ForEachStmt, A.RepeatStmt, A.WhileStmt)):
            yield from statements(s.body)


def explained(g, lang, kind, name) -> str:
    """The lines `meeplang explain` says for an action or a trigger, joined."""
    doc = Explanation(g, lang)
    section = doc.triggers() if kind == "trigger" else doc.actions()
    quoted = format(doc.say.term(name), "quote")
    out, inside = [], False
    for line in section.lines:
        if line.depth == 0:
            inside = quoted in line.text and (kind != "trigger" or line.text.startswith(quoted))
        if inside:
            out.append(line.text)
    assert out, (name, lang)
    return "\n".join(out)


def rules(g):
    return [("action", a) for a in g.actions] + [("trigger", t.name) for t in g.triggers]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name,variant", TARGETS)
def test_every_statement_is_one_node_saying_its_explain_sentence(name, variant, lang):
    g = game(name, variant)
    assert rules(g)
    for kind, rule in rules(g):
        chart = AC.rule_chart(g, kind, rule, lang)
        effect = g.actions[rule].effect if kind == "action" else \
            next(t for t in g.triggers if t.name == rule).effect
        want = list(statements(effect))
        drawn = chart.stmt_nodes()
        # each statement in exactly one node, and no node for anything else
        assert sorted(map(id, want)) == sorted(id(n.stmt) for n in drawn), rule
        assert len({id(n.stmt) for n in drawn}) == len(drawn), rule
        # each label is the statement's sentence in `meeplang explain`, in the order it says them
        text, at = explained(g, lang, kind, rule), 0
        for node in drawn:
            label = node.label
            found = [i for i in (text.find(label, at), text.find(label[:1].lower() + label[1:], at))
                     if i >= 0]
            assert found, (rule, label, text[at:at + 300])
            at = min(found) + 1
        # the chart ends; every node but the end leads somewhere
        ids = {n.id for n in chart.nodes}
        tails = {e.tail for e in chart.edges}
        assert all(e.head in ids and e.tail in ids for e in chart.edges)
        assert all(n.id in tails for n in chart.nodes if n.kind not in ("end", "link")), rule


def test_if_is_a_diamond_with_labelled_branches():
    g = game("pig")
    chart = AC.rule_chart(g, "action", "roll", "en")
    ifs = [n for n in chart.nodes if n.kind == "if"]
    assert ifs and all(isinstance(n.stmt, A.IfStmt) for n in ifs)
    for n in ifs:
        labels = {e.label for e in chart.edges if e.tail == n.id}
        assert labels == {"yes", "no"}, labels
    assert "shape=diamond" in AC.chart_dot(chart)
    french = AC.rule_chart(g, "action", "roll", "fr")
    assert {e.label for e in french.edges if e.tail == ifs[0].id} == {"oui", "non"}


def test_loops_have_their_condition_and_an_arrow_back():
    g = game("thesauros")
    loops = [(rule, n) for kind, rule in rules(g)
             for n in AC.rule_chart(g, kind, rule, "en").nodes if n.kind == "loop"]
    assert loops
    for kind, rule in rules(g):
        chart = AC.rule_chart(g, kind, rule, "en")
        for n in chart.nodes:
            if n.kind != "loop":
                continue
            assert n.label.startswith(("For each", "Repeat", "As long as")), n.label
            out = {e.label for e in chart.edges if e.tail == n.id}
            assert "done" in out
            if n.stmt.body.stmts:
                assert any(e.head == n.id and e.kind == "back" for e in chart.edges)


def test_do_links_to_the_chart_of_what_it_does():
    g = game("otys")
    say = Explanation(g, "en").say
    stems = {c.stem for c in AC.all_charts(g, "en")}
    # `do thrusters`: the node itself links to the action's chart
    chart = AC.rule_chart(g, "action", "dive", "en")
    (do,) = [n for n in chart.nodes if n.kind == "do" and n.stmt.action == "thrusters"]
    assert do.link == "action-thrusters" and do.link in stems
    assert format(say.term("thrusters"), "quote") in do.label
    assert f'URL="{do.link}.svg"' in AC.chart_dot(chart)
    # `do one of [surface, oxygen]`, `may do ... else do dive`: a linked node per action named
    chart = AC.rule_chart(g, "action", "take_turn", "en")
    linked = {n.link for n in chart.nodes if n.kind == "link"}
    assert linked == {"action-surface", "action-oxygen"} and linked <= stems
    assert any(n.kind == "do" and n.link == "action-dive" for n in chart.nodes)
    for n in chart.nodes:
        if n.kind == "link":
            (parent,) = [e.tail for e in chart.edges if e.head == n.id]
            assert chart.node(parent).kind == "do"


def test_payments_and_gains_are_emphasised():
    g = game("new-eden")
    kinds = {n.kind: n for kind, rule in rules(g)
             for n in AC.rule_chart(g, kind, rule, "en").nodes}
    assert isinstance(kinds["pay"].stmt, (A.GainStmt, type(None)))
    assert kinds["gain"].stmt.verb == "gain"
    dot = AC.chart_dot(AC.rule_chart(g, "action", next(
        r for k, r in rules(g) if k == "action" and any(
            n.kind == "gain" for n in AC.rule_chart(g, k, r, "en").nodes)), "en"))
    assert "penwidth=2" in dot and "<B>" in dot


def test_wrapping_never_cuts_a_word():
    text = "Choisis un niveau parmi les niveaux de profondeur de sa clé anticonstitutionnellement"
    lines = AC.wrap_words(text, 20)
    assert " ".join(lines).split() == text.split()
    assert "anticonstitutionnellement" in lines
    assert all(len(line) <= 20 or " " not in line for line in lines)


def test_the_automa_turn_is_its_own_chart():
    g = game("new-eden", "solo")
    chart = AC.automa_chart(g, "fr")
    assert chart.title.startswith("Tour de l'automa")
    (t,) = [s for s in __import__("meeplang.visualizer.analysis", fromlist=["x"]).all_steps(g.flow)
            if getattr(s, "automa_actions", ())]
    linked = [n.link for n in chart.nodes if n.kind == "do"]
    assert linked == [f"action-{a}" for a in t.automa_actions]
    conditions = [n for n in chart.nodes if n.kind == "if"]
    assert len(conditions) == len([a for a in t.automa_actions if g.actions[a].requires])
    assert not AC.has_automa(game("new-eden"))


def test_the_turn_chart_shows_actions_free_actions_and_triggers():
    g = game("otys")
    chart = AC.turn_chart(g, "en")
    links = {n.link for n in chart.nodes if n.link}
    assert "action-take_turn" in links
    free = [n for n in chart.nodes if n.kind == "free"]
    assert free and all(any(e.head == n.id and e.kind == "free" for e in chart.edges)
                        for n in free)
    assert any(n.kind == "trigger" for n in chart.nodes)
    with pytest.raises(Exception, match="no turns step"):
        AC.turn_chart(game("goofspiel"), "en")


@needs_dot
def test_cli_action_turn_automa_and_all_actions(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "otys", "--action", "take_turn", "--lang", "fr"]) == 0
    out = tmp_path / "otys-action-take_turn.svg"
    assert capsys.readouterr().out.strip() == out.name
    svg = out.read_text(encoding="utf-8")
    assert "Jouer un jeton Clé" in svg and 'xlink:href="action-' in svg
    assert main(["diagram", "new-eden:solo", "--automa", "-o", "a.svg"]) == 0
    assert "Deep Thought" in (tmp_path / "a.svg").read_text(encoding="utf-8")
    assert capsys.readouterr().out.strip() == "a.svg"
    assert main(["diagram", "pig", "--turn", "--format", "dot", "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("digraph")
    assert main(["diagram", "otys:solo", "--all-actions", "charts"]) == 0
    files = sorted(p.name for p in (tmp_path / "charts").iterdir())
    g = game("otys", "solo")
    assert len(files) == len(g.actions) + len(g.triggers) + 1  # + the turn
    assert "turn.svg" in files and "action-take_turn.svg" in files
    # every link of every chart leads to a chart of the folder
    for f in (tmp_path / "charts").iterdir():
        for href in re.findall(r'xlink:href="([^"]+)"', f.read_text(encoding="utf-8")):
            assert href in files, (f.name, href)
    capsys.readouterr()
    assert main(["diagram", "otys", "--action", "take_trun"]) == 2
    err = capsys.readouterr().err
    assert "no action or trigger 'take_trun'; did you mean take_turn" in err
    assert "Traceback" not in err
    assert main(["diagram", "otys", "--action", "take_turn", "--detail", "full"]) == 2
    assert main(["diagram", "pig", "--automa"]) == 2
    assert "no automa seat" in capsys.readouterr().err


# the four games, and each automa-bearing variant; rendered in both languages
DRAWN = [("pig", None), ("otys", None), ("otys", "solo"), ("new-eden", None),
         ("new-eden", "solo"), ("thesauros", None), ("thesauros", "solo"),
         ("endeavor-deep-sea", None)]


@needs_dot
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name,variant", DRAWN)
def test_rendered_svg_shows_every_label_whole(name, variant, lang):
    """Every word of every label is in the SVG, in order, none cut or dropped: each node's and
    each edge's text is exactly its label's words."""
    g = game(name, variant)
    charts = AC.all_charts(g, lang)
    assert len(charts) >= len(g.actions) + len(g.triggers)
    for chart in charts:
        drawn = AC.svg_words(AC.render_chart(chart, "svg").decode("utf-8"))
        for node in chart.nodes:
            assert drawn[node.id] == node.label.split(), (chart.stem, node.label, drawn[node.id])
        for i, edge in enumerate(chart.edges):
            assert drawn[f"e{i + 1}"] == (edge.label or "").split(), (chart.stem, edge.label)
        words = [w for ws in drawn.values() for w in ws]
        assert not any(w.endswith(("…", "-")) for w in words), chart.stem
        assert not any(re.fullmatch(r"\(\+\d+", w) for w in words), chart.stem


# engine words: a seat number, "action(s)"
ENGINE = re.compile(r"\b(seat|siège)\s+\d|\w\(s\)")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name,variant", DRAWN)
def test_no_seat_numbers_or_plural_brackets_in_labels(name, variant, lang):
    from meeplang.visualizer.dot import build_diagram

    g = game(name, variant)
    labels = [n.label for c in AC.all_charts(g, lang) for n in c.nodes]
    labels += [e.label or "" for c in AC.all_charts(g, lang) for e in c.edges]
    for detail in ("phases", "actions", "full"):
        d = build_diagram(g, detail, lang)
        labels += [str(n.attrs.get("label", "")) for c in d.clusters() for n in c.nodes]
    bad = [label for label in labels if ENGINE.search(label)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name,variant", DRAWN)
def test_turn_and_automa_charts_name_no_placeholder(name, variant, lang):
    """The turn and automa charts say who and what in words: no rules' letter (`for at least
    one p in the players, the notoriety of p ...` is `... one of the players, the notoriety of
    the player ...`)."""
    g = game(name, variant)
    charts = [AC.turn_chart(g, lang)] + ([AC.automa_chart(g, lang)] if AC.has_automa(g) else [])
    for chart in charts:
        for node in chart.nodes:
            assert not re.search(r"(?<![\w'’])[b-xz](?![\w'’])", node.label), node.label


def test_triggers_after_the_turn_come_before_the_next_turn():
    """Otys solo's Timers move after each turn (a trigger, not a seat): on the turn chart, each
    trigger after the turn is a node linked to its chart, between the actions and the next turn."""
    g = game("otys", "solo")
    after_turn = [t.name for t in g.triggers if t.event == "after_turn"]
    assert after_turn
    chart = AC.turn_chart(g, "en")
    (end,) = [n.id for n in chart.nodes if n.kind == "end"]
    nexts = {}
    for e in chart.edges:
        if e.kind != "back":
            nexts.setdefault(e.tail, []).append(e.head)

    def reaches(a, b, seen=()):
        return a == b or any(reaches(x, b, seen + (a,)) for x in nexts.get(a, ()) if x not in seen)

    play = next(n.id for n in chart.nodes if n.link == "action-take_turn")
    for name in after_turn:
        (node,) = [n.id for n in chart.nodes if n.link == f"trigger-{name}"]
        assert reaches(play, node) and reaches(node, end)


@needs_dot
def test_a_variants_changes_are_marked_on_its_charts(tmp_path, monkeypatch, capsys):
    from meeplang.dsl.diff import changes_from_base

    g = game("new-eden", "solo")
    charts = AC.mark_changes(AC.all_charts(g, "en"), changes_from_base(g), "en")
    by = {c.stem: c for c in charts}
    # the solo game changes the pass's condition (FR l.512: DT passes after its activation)
    assert by["action-pass_development"].changes == ["requires"]
    assert by["action-buy_card"].changes == []
    assert any(n.changed and n.link == "action-pass_development" for n in by["turn"].nodes)
    assert not any(n.changed for n in by["turn"].nodes if n.link == "action-power_plant")
    dot = AC.chart_dot(by["action-pass_development"], g)
    assert "✎ changed: condition" in dot and "#d62728" in dot
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "new-eden:solo", "--turn", "--highlight-changes", "-o", "t.dot"]) == 0
    assert "penwidth=3" in (tmp_path / "t.dot").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["diagram", "new-eden", "--turn", "--highlight-changes"]) == 2
    assert "needs a variant" in capsys.readouterr().err
