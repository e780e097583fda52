"""Flowcharts of what happens inside the rules (UML activity style): one chart per action,
trigger and free action, the automa's turn, and the turn chart of a game.

    rule_chart(game, kind, name, lang) -> Chart      an action's or a trigger's statements
    automa_chart(game, lang) -> Chart                what an automa seat does on its turn
    turn_chart(game, lang) -> Chart                  the order of a player's turn, per turns step
    all_charts(game, lang) -> list[Chart]            every chart of a game
    chart_dot(chart) -> str                          the DOT document

Each statement of an action's syntax tree is drawn as exactly one node, whose label is the
sentence `meeplang explain` says for it (`visualizer/prose/`), in the chart's language: a simple
statement's sentence, or the header of an `if`, a loop or a search (their bodies are nodes of
their own). `choose` and `if` are diamonds with labelled branches, loops hexagons with their
condition and an arrow back, `do X` a node naming X that links to X's chart (`action-X.svg`),
payments and gains bold in red and green. Labels wrap at word boundaries and are never cut.

Nothing here knows any particular game: every chart comes from the model.
"""
from __future__ import annotations

import textwrap

import attrs
import graphviz

from meeplang.dsl import ast as A
from meeplang.dsl.errors import UsageError
from meeplang.dsl.model import PhaseStep, TurnsStep

from . import analysis as AN
from .labels import LANGS, h

FONT = "Helvetica"
WIDTH = 34  # characters per line of a node's label
EDGE_WIDTH = 26  # characters per line of an edge's label

# colours: (fill, border)
C_START = ("#dff0d8", "#4f7f3f")
C_STEP = ("#ffffff", "#6b6b6b")
C_CHOICE = ("#efe6fa", "#7a5aa6")
C_LOOP = ("#fff5ea", "#d9731a")
C_DO = ("#e3f3e6", "#3c8d52")
C_PAY = ("#fdecea", "#c0392b")
C_GAIN = ("#e8f6ec", "#1e7b34")
C_NOTE = ("#fffbe6", "#a67c00")
C_TRIGGER = ("#fde8f0", "#b0457a")
C_FREE = ("#f4faf5", "#3c8d52")
C_END = "#333333"
C_CHANGED = "#d62728"  # what a variant changes (--highlight-changes)

# the charts' own words (not game terms)
WORDS = {
    "en": {"yes": "yes", "no": "no", "done": "done", "next": "next", "end": "end",
           "action": "Action", "free": "Free action", "rules": "Done by the rules",
           "trigger": "Trigger", "automa": "Automa's turn", "turn": "A turn",
           "free_edge": "free", "automa_edge": "automa", "found": "found",
           "trigger_edge": "fires", "next_turn": "next turn",
           "none": "Nothing of the rules is offered to an automa."},
    "fr": {"yes": "oui", "no": "non", "done": "fini", "next": "suivant", "end": "fin",
           "action": "Action", "free": "Action libre", "rules": "Faite par les règles",
           "trigger": "Déclencheur", "automa": "Tour de l'automa", "turn": "Un tour",
           "free_edge": "libre", "automa_edge": "automa", "found": "trouvé",
           "trigger_edge": "se déclenche", "next_turn": "tour suivant",
           "none": "Rien des règles n'est proposé à un automa."},
}

COMPOUND = (A.IfStmt, A.ForEachStmt, A.RepeatStmt, A.WhileStmt, A.SearchStmt)
LOOPS = (A.ForEachStmt, A.RepeatStmt, A.WhileStmt)


# ---------------------------------------------------------------- the drawing as data
@attrs.define
class ChartNode:
    id: str
    kind: str  # start, end, step, choice, if, loop, do, pay, gain, control, note, head, trigger
    label: str  # the sentence, one line of plain text (wrapped only when drawn)
    stmt: object = None  # the statement it draws, if any
    link: str | None = None  # the chart it links to (`action-X`), if any
    changed: bool = False  # it links to a chart of what a variant changes (mark_changes)


@attrs.define
class ChartEdge:
    tail: str
    head: str
    label: str | None = None
    kind: str = "flow"  # flow, back, branch, free, trigger, end


@attrs.define
class Chart:
    stem: str  # file name without extension: action-NAME, trigger-NAME, automa, turn
    kind: str  # action, free, rules, trigger, automa, turn
    title: str
    lang: str
    nodes: list = attrs.Factory(list)
    edges: list = attrs.Factory(list)
    clusters: list = attrs.Factory(list)  # (label, [node ids])
    changes: list = attrs.Factory(list)  # what a variant changes in it, in words (mark_changes)

    def node(self, nid: str) -> ChartNode:
        return next(n for n in self.nodes if n.id == nid)

    def stmt_nodes(self) -> list[ChartNode]:
        return [n for n in self.nodes if n.stmt is not None]


def chart_stem(kind: str, name: str | None = None) -> str:
    """The file name (without extension) of a chart: what `do X` links to."""
    if kind in ("action", "free", "rules"):
        return f"action-{name}"
    if kind == "trigger":
        return f"trigger-{name}"
    return kind


def statement_sentences(say, s) -> list[str]:
    """The sentences a statement says itself: one for a simple statement (its whole sentence,
    a `do ... else ...` with what it does otherwise), the headers of an `if`'s branches or of a
    search (found / else), the header of a loop. Bodies are not included: they are statements
    of their own."""
    old, say.one_line = say.one_line, False
    try:
        lines = say.stmt(s, 0)
    finally:
        say.one_line = old
    if isinstance(s, COMPOUND):
        return [line.text for line in lines if line.depth == 0]
    return [" ".join(line.text for line in lines)]


def wrap_words(text: str, width: int) -> list[str]:
    """Lines of about width characters, broken only between words (a word longer than the
    width has a line of its own; nothing is cut)."""
    return textwrap.wrap(" ".join(text.split()), width=width, break_long_words=False,
                         break_on_hyphens=False) or [""]


def offered(game) -> tuple[set, set, set]:
    """The actions offered on turns, the free ones (turns or phases), those of automa seats."""
    main, free, automa = set(), set(), set()
    for s in AN.all_steps(game.flow):
        if isinstance(s, TurnsStep):
            main |= set(s.actions)
            free |= set(s.free_actions)
            automa |= set(s.automa_actions)
        elif isinstance(s, PhaseStep):
            free |= set(s.free_actions)
    return main, free, automa


def action_kind(game, name: str) -> str:
    main, free, automa = offered(game)
    return "action" if name in main | automa else "free" if name in free else "rules"


# ---------------------------------------------------------------- building
class _Builder:
    def __init__(self, game, lang: str, chart: Chart):
        from .prose import Explanation

        if lang not in LANGS:
            raise UsageError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
        self.game = game
        self.doc = Explanation(game, lang)
        self.say = self.doc.say
        self.words = WORDS[lang]
        self.chart = chart
        self.count = 0

    def node(self, kind: str, label: str, stmt=None, link=None) -> str:
        self.count += 1
        nid = f"n{self.count}"
        self.chart.nodes.append(ChartNode(nid, kind, label, stmt, link))
        return nid

    def edge(self, tail: str, head: str, label=None, kind: str = "flow") -> None:
        self.chart.edges.append(ChartEdge(tail, head, label, kind))

    def connect(self, exits, head: str) -> None:
        for tail, label, kind in exits:
            self.edge(tail, head, label, kind)

    def links(self, s) -> list[str]:
        """The charts a `do` statement links to: each action it names (`do X`, `do one of
        [X, Y]`, `may do X else do Y`), in the order it names them."""
        names = []
        while isinstance(s, A.DoStmt):
            if s.value is None:
                names.append(s.action)
            elif isinstance(s.value, A.ListExpr):
                names += [x.name for x in s.value.items if isinstance(x, A.Name)]
            s = s.otherwise
        seen = []
        for n in names:
            if n in self.game.actions and n not in seen:
                seen.append(n)
        return [chart_stem(action_kind(self.game, n), n) for n in seen]

    # -- statements: each returns (entry node, exits); an exit is (node, edge label, kind)
    def block(self, block, end: str):
        """The statements of a block in order; returns (entry, exits), entry None if empty."""
        entry, exits = None, None
        for s in (block.stmts if block is not None else ()):
            s_entry, s_exits = self.stmt(s, end)
            if entry is None:
                entry = s_entry
            else:
                self.connect(exits, s_entry)
            exits = s_exits
        return entry, (exits if exits is not None else [])

    def branch(self, tail: str, label: str, body, end: str, kind: str = "branch"):
        """A branch leaving a diamond with a label: into its body, or on to what follows."""
        entry, exits = self.block(body, end)
        if entry is None:
            return [(tail, label, kind)]
        self.edge(tail, entry, label, kind)
        return exits

    def stmt(self, s, end: str):
        w = self.words
        sentences = statement_sentences(self.say, s)
        if isinstance(s, A.IfStmt):
            nid = self.node("if", sentences[0], s)
            exits = []
            labels = [w["yes"]] + sentences[1:len(s.branches)]
            for label, (_, body) in zip(labels, s.branches):
                exits += self.branch(nid, label, body, end)
            if s.other is not None:
                exits += self.branch(nid, sentences[-1], s.other, end)
            else:
                exits.append((nid, w["no"], "branch"))
            return nid, exits
        if isinstance(s, A.SearchStmt):
            nid = self.node("choice", sentences[0], s)
            with self.say.aliased(self.say.loop_aliases(s)):
                exits = self.branch(nid, w["found"], s.body, end)
            if s.other is not None:
                exits += self.branch(nid, sentences[-1], s.other, end)
            else:
                exits.append((nid, w["no"], "branch"))
            return nid, exits
        if isinstance(s, LOOPS):
            nid = self.node("loop", sentences[0], s)
            with self.say.aliased(self.say.loop_aliases(s)):
                entry, exits = self.block(s.body, end)
            if entry is not None:
                self.edge(nid, entry, w["next"], "branch")
                for tail, label, _ in exits:
                    self.edge(tail, nid, label, "back")
            return nid, [(nid, w["done"], "branch")]
        kind = "step"
        if isinstance(s, (A.ChooseStmt, A.SecretChooseStmt)):
            kind = "choice"
        elif isinstance(s, A.DoStmt):
            kind = "do"
        elif isinstance(s, A.GainStmt):
            kind = "gain" if s.verb == "gain" else "pay" if s.verb in ("pay", "lose") else "step"
        elif isinstance(s, A.ControlStmt):
            kind = "control"
        elif isinstance(s, A.LogStmt):
            kind = "note"
        links = self.links(s)
        nid = self.node(kind, sentences[0], s, links[0] if len(links) == 1 else None)
        if len(links) > 1:  # one node per action it names, each a link to that action's chart
            for stem in links:
                name = stem.split("-", 1)[1]
                side = self.node("link", format(self.say.term(name), "quote"), link=stem)
                self.edge(nid, side, None, "link")
        if kind == "control":  # the action stops here
            self.edge(nid, end, None, "end")
            return nid, []
        return nid, [(nid, None, "flow")]

    def body(self, start: str, effect) -> None:
        """start -> the effect's statements -> the end node."""
        end = self.node("end", self.words["end"])
        entry, exits = self.block(effect, end)
        if entry is None:
            self.edge(start, end)
        else:
            self.edge(start, entry)
            self.connect(exits, end)


def rule_chart(game, kind: str, name: str, lang: str = "en") -> Chart:
    """An action's (kind action, free or rules) or a trigger's chart: a head saying what it is
    (its name; for an action its choice, condition, price and limits, for a trigger when it
    fires), then its statements."""
    doc_kind = "trigger" if kind == "trigger" else action_kind(game, name)
    chart = Chart(chart_stem(doc_kind, name), doc_kind, "", lang)
    b = _Builder(game, lang, chart)
    say, doc = b.say, b.doc
    chart.title = f"{b.words[doc_kind]} {format(say.term(name), 'quote')}"
    if kind == "trigger":
        trigger = next(t for t in game.triggers if t.name == name)
        heading = _trigger_heading(doc, trigger)
        start = b.node("trigger", heading)
        with say.aliased(say.rule_aliases([trigger.each], [trigger.effect])):
            b.body(start, trigger.effect)
        return chart
    a = game.actions[name]
    # said as `explain` says it: bound names as nouns, a `pass` as what it leaves (the round)
    with say.aliased(say.rule_aliases([a.param], [a.effect])), say.passing(doc.passed(a.name)):
        _action_body(b, a)
    return chart


def _action_body(b: _Builder, a) -> None:
    """An action's chart: its condition, limits, choice and price, then its statements."""
    say, doc = b.say, b.doc
    start = b.node("start", "")  # UML's initial node: the chart's title names the action
    prev = start
    heads = []
    if a.requires is not None:
        heads.append(("head", say.sentence(say.fill("Action", "requires",
                                                     cond=say.condition(a.requires)))))
    for lim in a.limits:
        heads.append(("head", say.sentence(doc.limit(lim))))
    if a.param is not None:
        heads.append(("choice", say.sentence(say.fill(
            "Action", "choice", text=say.choice("Param", a.param)))))
    if a.cost is not None:
        heads.append(("pay", say.sentence(doc.cost(a.cost))))
    for k, label in heads:
        nid = b.node(k, label)
        b.edge(prev, nid)
        prev = nid
    b.body(prev, a.effect)


def _trigger_heading(doc, t) -> str:
    """The trigger's line of `meeplang explain`: its name and when it fires."""
    for line in doc.triggers().lines:
        if line.depth == 0 and line.text.startswith(_quoted(doc, t.name)):
            return line.text
    raise KeyError(t.name)  # pragma: no cover - every trigger has its line


def _quoted(doc, name: str) -> str:
    return str(doc.say.fill("Trigger", "heading", name=doc.say.term(name), when="")).rstrip(": ")


def turn_chart(game, lang: str = "en") -> Chart:
    """The order of a turn, for every turns step of the flow (a box per step, named after its
    phase): the turns' sentence, the triggers before the turn, the choice of an action (each a
    link to its chart), the triggers after it, the free actions where they are allowed (dashed,
    from the choice), the automa's turn, and the next turn."""
    chart = Chart("turn", "turn", "", lang)
    b = _Builder(game, lang, chart)
    say, doc, w = b.say, b.doc, b.words
    chart.title = _colon(b, w["turn"], doc.title())
    steps = list(_turns_steps(game.flow, None))
    if not steps:
        raise UsageError(f"{game.name}: no turns step in its flow, so no turn to draw")
    for phase, t, phase_free in steps:
        first = len(chart.nodes)
        lines = [line.text for line in doc.turns(t, 0)]
        head = b.node("head", lines[0])
        prev = head
        for trig in _triggers(game, "before_turn", None):
            prev = _chain_trigger(b, prev, trig)
        choice = b.node("choice", lines[1])
        b.edge(prev, choice)
        # after an action: the triggers after any action, then those after the turn, then the
        # next turn (back to the top)
        after = [_trigger_node(b, trig) for trig in _triggers(game, "after_action", None)]
        after += [_trigger_node(b, trig) for trig in _triggers(game, "after_turn", None)]
        end = b.node("end", w["next_turn"])
        for tail, head_ in zip(after, after[1:] + [end]):
            b.edge(tail, head_, None, "trigger")
        merge = after[0] if after else end
        for name in t.actions:
            nid = b.node("do", format(say.term(name), "quote"),
                         link=chart_stem(action_kind(game, name), name))
            b.edge(choice, nid, None, "branch")
            last = nid
            for trig in _triggers(game, "after_action", name):
                last = _chain_trigger(b, last, trig)
            b.edge(last, merge, w["trigger_edge"] if after and last == nid else None,
                   "trigger" if after else "flow")
        free = list(dict.fromkeys(tuple(t.free_actions) + tuple(phase_free)))
        notes = lines[2:-1] if t.automa_actions else lines[2:]  # when free actions are allowed
        if phase_free:
            notes += [line.text for line in doc.step(phase, 0)[1:2]]
        for text in notes:
            b.edge(choice, b.node("note", text), None, "free")
        for name in free:
            nid = b.node("free", format(say.term(name), "quote"), link=chart_stem("free", name))
            b.edge(choice, nid, w["free_edge"], "free")
            b.edge(nid, choice, None, "back")
        if t.automa_actions:
            nid = b.node("automa", lines[-1], link="automa")
            b.edge(head, nid, w["automa_edge"], "branch")
            b.edge(nid, merge)
        b.edge(end, head, None, "back")
        label = say.grammar.finish(str(say.term(phase.name))) if phase is not None else ""
        chart.clusters.append((label, [n.id for n in chart.nodes[first:]]))
    return chart


def _colon(b: _Builder, head: str, text: str) -> str:
    """`A turn: Otys`, `Un tour : Otys` (the language's spacing before a colon)."""
    from .labels import UI

    return UI[b.say.lang]["colon"].format(head, text)


def _turns_steps(steps, phase):
    """(phase, turns step, the phase's free actions) for every turns step of the flow."""
    for s in steps:
        if isinstance(s, TurnsStep):
            yield phase, s, tuple(phase.free_actions) if phase is not None else ()
        elif isinstance(s, PhaseStep):
            yield from _turns_steps(s.steps, s)
        else:
            for attr in ("steps", "other"):
                inner = getattr(s, attr, None)
                if isinstance(inner, tuple):
                    yield from _turns_steps(inner, phase)


def _triggers(game, event: str, target):
    return [t for t in game.triggers if t.event == event and t.target == target]


def _trigger_node(b: _Builder, trig) -> str:
    """A trigger on the turn chart: when it fires, linked to its own chart."""
    return b.node("trigger", _trigger_heading(b.doc, trig), link=chart_stem("trigger", trig.name))


def _chain_trigger(b: _Builder, prev: str, trig) -> str:
    nid = _trigger_node(b, trig)
    b.edge(prev, nid, b.words["trigger_edge"], "trigger")
    return nid


def automa_chart(game, lang: str = "en") -> Chart:
    """What an automa seat does on its turn: the actions its turns offer it, in the order the
    rules list them, each behind the condition that allows it (its `requires:`) — the rules
    leave an automa exactly one, so the first that holds is what it does."""
    chart = Chart("automa", "automa", "", lang)
    b = _Builder(game, lang, chart)
    say, doc, w = b.say, b.doc, b.words
    title = say.term(game.automa[0]) if game.automa else say.plain(w["automa"])
    chart.title = _colon(b, w["automa"], say.grammar.finish(str(title)))
    steps = [(p, t) for p, t, _ in _turns_steps(game.flow, None) if t.automa_actions]
    if not steps:
        raise UsageError(f"{game.name}: no automa seat takes turns in this game")
    for phase, t in steps:
        first = len(chart.nodes)
        head = b.node("automa_start", doc.turns(t, 0)[-1].text)
        end = b.node("end", w["end"])
        prev, label = head, None
        for name in t.automa_actions:
            a = game.actions[name]
            do = b.node("do", format(say.term(name), "quote"),
                        link=chart_stem(action_kind(game, name), name))
            if a.requires is None:
                b.edge(prev, do, label, "branch" if label else "flow")
                b.edge(do, end)
                prev = None
                break
            cond = b.node("if", say.sentence(say.fill("Action", "requires",
                                                      cond=say.condition(a.requires))))
            b.edge(prev, cond, label, "branch" if label else "flow")
            b.edge(cond, do, w["yes"], "branch")
            b.edge(do, end)
            prev, label = cond, w["no"]
        if prev is not None:
            b.edge(prev, end, label, "branch")
        name = say.grammar.finish(str(say.term(phase.name))) if phase is not None else ""
        chart.clusters.append((name, [n.id for n in chart.nodes[first:]]))
    return chart


def has_automa(game) -> bool:
    return any(t.automa_actions for _, t, _ in _turns_steps(game.flow, None))


def has_turns(game) -> bool:
    return any(True for _ in _turns_steps(game.flow, None))


def all_charts(game, lang: str = "en") -> list[Chart]:
    """Every chart of a game: each action, each trigger, the automa's turn (if any), the turn."""
    charts = [rule_chart(game, "action", name, lang) for name in game.actions]
    charts += [rule_chart(game, "trigger", t.name, lang) for t in game.triggers]
    if has_automa(game):
        charts.append(automa_chart(game, lang))
    if has_turns(game):
        charts.append(turn_chart(game, lang))
    return charts


def mark_changes(charts: list, changes: list, lang: str) -> list:
    """A variant's changes (`meeplang.dsl.diff`) on its charts: a changed action's or trigger's
    chart lists what changed under its title (`✎ changed: requires`), and every node linking to
    such a chart is drawn in red. Returns the charts."""
    from meeplang.dsl.diff import changed_parts

    parts = changed_parts(changes)
    changed = {}
    for chart in charts:
        section = {"action": "actions", "free": "actions", "rules": "actions",
                   "trigger": "triggers"}.get(chart.kind)
        name = chart.stem.split("-", 1)[1] if section else None
        if section and f"{section}.{name}" in parts:
            changed[chart.stem] = parts[f"{section}.{name}"] or [""]  # "": added whole
    for chart in charts:
        chart.changes = changed.get(chart.stem, [])
        for node in chart.nodes:
            node.changed = node.link in changed
    return charts


def _change_words(chart: Chart, game, lang: str) -> str:
    from .labels import UI
    from .prose.paths import path_label

    said = [path_label(game, p, lang, entry=False) if p else UI[lang]["added"]
            for p in chart.changes]
    return UI[lang]["changed"].format(", ".join(said))


def find_rule(game, name: str) -> str:
    """`--action NAME`: an action or a trigger by its name; a usage error naming the closest
    names otherwise."""
    if name in game.actions:
        return "action"
    if any(t.name == name for t in game.triggers):
        return "trigger"
    import difflib

    known = list(game.actions) + [t.name for t in game.triggers]
    close = difflib.get_close_matches(name, known, 3)
    hint = f"; did you mean {', '.join(close)}?" if close else \
        f"; its actions and triggers: {', '.join(sorted(known))}"
    raise UsageError(f"{game.name}: no action or trigger {name!r}{hint}")


# ---------------------------------------------------------------- DOT
_SHAPES = {
    "start": dict(shape="circle", style="filled", fillcolor=C_END, color=C_END, width="0.22",
                  fixedsize="true"),
    "automa_start": dict(shape="box", style="rounded,filled,bold", fillcolor=C_START[0],
                         color=C_START[1]),
    "trigger": dict(shape="box", style="rounded,filled,dashed", fillcolor=C_TRIGGER[0],
                    color=C_TRIGGER[1]),
    "head": dict(shape="note", style="filled", fillcolor=C_NOTE[0], color=C_NOTE[1]),
    "note": dict(shape="note", style="filled", fillcolor=C_NOTE[0], color=C_NOTE[1]),
    "step": dict(shape="box", style="rounded,filled", fillcolor=C_STEP[0], color=C_STEP[1]),
    "control": dict(shape="box", style="rounded,filled,bold", fillcolor="#f2f2f2", color=C_END),
    "choice": dict(shape="diamond", style="filled", fillcolor=C_CHOICE[0], color=C_CHOICE[1]),
    "if": dict(shape="diamond", style="filled", fillcolor=C_CHOICE[0], color=C_CHOICE[1]),
    "loop": dict(shape="hexagon", style="filled", fillcolor=C_LOOP[0], color=C_LOOP[1]),
    "do": dict(shape="box", style="rounded,filled", peripheries="2", fillcolor=C_DO[0],
               color=C_DO[1]),
    "link": dict(shape="box", style="rounded,filled,dashed", fillcolor=C_DO[0], color=C_DO[1],
                 fontsize="10"),
    "free": dict(shape="box", style="rounded,filled,dashed", fillcolor=C_FREE[0],
                 color=C_FREE[1]),
    "automa": dict(shape="box", style="rounded,filled", peripheries="2", fillcolor=C_NOTE[0],
                   color=C_NOTE[1]),
    "pay": dict(shape="box", style="rounded,filled,bold", fillcolor=C_PAY[0], color=C_PAY[1],
                penwidth="2"),
    "gain": dict(shape="box", style="rounded,filled,bold", fillcolor=C_GAIN[0], color=C_GAIN[1],
                 penwidth="2"),
    "end": dict(shape="doublecircle", style="filled", fillcolor="#ffffff", color=C_END,
                fontsize="10", width="0.3", margin="0.02"),
}
_BOLD = {"pay", "gain", "automa_start", "control"}
_EDGES = {"flow": {}, "branch": {}, "back": dict(color=C_LOOP[1], penwidth="1.4"),
          "free": dict(style="dashed", color=C_FREE[1]), "end": dict(color=C_END),
          "link": dict(style="dashed", color=C_DO[1], arrowhead="none"),
          "trigger": dict(style="dashed", color=C_TRIGGER[1])}


def _html_lines(text: str, width: int, bold: bool = False) -> str:
    if not text.strip():
        return ""
    lines = [h(line) for line in wrap_words(text, width)]
    body = '<BR ALIGN="CENTER"/>'.join(lines)
    return f"<<B>{body}</B>>" if bold else f"<{body}>"


def chart_dot(chart: Chart, game=None) -> str:
    """The chart's DOT text (`game`: to say a variant's changes in its terms)."""
    g = graphviz.Digraph(chart.stem)
    title = _html_lines(chart.title, 60, bold=True)
    if chart.changes and game is not None:
        said = "<BR/>".join(h(x) for x in wrap_words(_change_words(chart, game, chart.lang), 60))
        title = f'<{title[1:-1]}<BR/><FONT COLOR="{C_CHANGED}" POINT-SIZE="11">{said}</FONT>>'
    g.attr(rankdir="TB", fontname=FONT, fontsize="14", labelloc="t", nodesep="0.35",
           ranksep="0.35", pad="0.2", bgcolor="white", id=f"chart_{chart.stem}", label=title)
    g.attr("node", fontname=FONT, fontsize="11", margin="0.12,0.06")
    g.attr("edge", fontname=FONT, fontsize="9", color="#444444", arrowsize="0.7")
    in_cluster = {nid: i for i, (_, ids) in enumerate(chart.clusters) for nid in ids}

    def add(target, n: ChartNode):
        a = {"id": n.id, "class": n.kind, **_SHAPES.get(n.kind, _SHAPES["step"])}
        width = WIDTH if a["shape"] not in ("diamond", "hexagon") else WIDTH - 6
        a["label"] = _html_lines(n.label, width, n.kind in _BOLD)
        if n.changed:
            a.update(color=C_CHANGED, penwidth="3")
        if n.link:
            a["URL"] = f"{n.link}.svg"
            a["target"] = "_top"
            a["tooltip"] = n.label
        target.node(n.id, **a)

    for n in chart.nodes:
        if n.id not in in_cluster:
            add(g, n)
    for i, (label, ids) in enumerate(chart.clusters):
        with g.subgraph(name=f"cluster_{i}") as c:
            c.attr(label=_html_lines(label, 60, bold=True) if label else "", style="rounded",
                   color="#9a9a9a", fontsize="12", labeljust="l")
            for n in chart.nodes:
                if n.id in ids:
                    add(c, n)
    for i, e in enumerate(chart.edges):
        a = {"id": f"e{i + 1}", "class": e.kind, **_EDGES.get(e.kind, {})}
        if e.label:
            a["label"] = _html_lines(e.label, EDGE_WIDTH)
        if e.kind == "back":
            a["constraint"] = "false"
        g.edge(e.tail, e.head, **a)
    return g.source


def render_chart(chart: Chart, fmt: str = "svg", game=None) -> bytes:
    """A chart as bytes in fmt (svg, png, pdf or dot; all but dot need Graphviz's `dot`)."""
    from .render import render_source

    return render_source(chart_dot(chart, game), fmt)


def svg_words(svg_text: str) -> dict[str, list[str]]:
    """The words an SVG drawn from a chart shows, per node id (`n3`) and edge id (`e4`), in
    the order drawn (the tests compare them with the labels)."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    out: dict[str, list[str]] = {}
    for g in ET.fromstring(svg_text).iter(f"{ns}g"):
        if (g.get("class") or "").split()[:1] in (["node"], ["edge"]):
            texts = [t.text or "" for t in g.iter(f"{ns}text")]
            out[g.get("id")] = " ".join(texts).split()
    return out
