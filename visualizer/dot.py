"""Rules diagrams: a Graphviz DOT document drawn from a loaded Game model (never from YAML).

    build_diagram(game, detail, lang) -> Diagram    the drawing as plain data (tests read it)
    to_digraph(diagram) -> graphviz.Digraph          the DOT document
    dot_source(game, detail, lang) -> str            both at once

Detail levels:
  phases   clusters game -> loops -> phases -> steps. A loop (repeat/while/until) is an orange
           box that starts at a badge with its count or condition ("↻ ×3", "↻ until …") and
           ends at an orange dot, with the orange back edge from the dot up to the badge. A
           `turns` step is a turn-loop node (order, first player, "↻ until all passed") with an
           orange self-loop; `if` is a diamond with yes/no branches; the flow ends in "Final
           scoring"; every `end game` (in steps, actions, triggers) is a dashed red exit to it,
           labelled with the rules that say it.
  actions  adds, inside each turns step (now a dashed box), the actions it offers (requires).
  full     adds the first lines of each effect, and triggers as nodes reached by dashed edges
           from where they fire (turns node, action node, phase cluster).

Graphviz specifics worth knowing before changing the layout: back edges are declared downwards
(badge -> end dot, dir=back, weight=0) so they never bend the flow's spine; self-loop and
back-edge labels are avoided because dot does not keep them inside clusters; a cluster's exit
leaves from its lowest node (an invisible point under a turns step's actions) so the next step
lands below it, not beside it.

Nothing here knows any particular game: everything comes from the model.
"""
from __future__ import annotations

import json
import re

import attrs
import graphviz

from meeplang.dsl import ast as A
from meeplang.dsl.diff import changed_parts
from meeplang.dsl.errors import UsageError
from meeplang.dsl.model import DoStep, IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep

from . import analysis as AN
from .labels import Words, h, html_label, shorten, wrap
from .rule_text import limit_text, rule_text

DETAILS = ("phases", "actions", "full")

FONT = "Helvetica"  # Liberation Sans / Arial metrics: the SVG reads the same in a browser

# colours: (fill, border/text)
C_PHASE = ("#eaf2fb", "#3d6fa8")
C_LOOP = ("#fff5ea", "#d9731a")
C_TURNS = ("#fff3bf", "#a67c00")
C_STEP = ("#ffffff", "#6b6b6b")
C_IF = ("#efe6fa", "#7a5aa6")
C_ACTION = ("#e3f3e6", "#3c8d52")
C_TRIGGER = ("#fde8f0", "#b0457a")
C_START = ("#dff0d8", "#4f7f3f")
C_FINAL = ("#ffe9a8", "#8a6d00")
C_END = "#c0392b"
C_FLOW = "#444444"
C_GAME = "#9a9a9a"
C_CHANGED = "#d62728"  # what a variant changes (--highlight-changes)


# ---------------------------------------------------------------- the drawing as data
@attrs.define
class Node:
    id: str
    kind: str  # start, final, step, turns, loop_head, if, action, trigger, empty, legend
    attrs: dict


@attrs.define
class Cluster:
    id: str
    kind: str  # root, game, phase, loop, turns, legend
    attrs: dict
    nodes: list = attrs.Factory(list)
    clusters: list = attrs.Factory(list)
    parent: "Cluster | None" = None
    refs: list = attrs.Factory(list)  # ids of nodes declared elsewhere (rank=same groups)
    name: str | None = None  # phase name for phases

    def add_node(self, node: Node) -> Node:
        self.nodes.append(node)
        return node

    def add_cluster(self, c: "Cluster") -> "Cluster":
        c.parent = self
        self.clusters.append(c)
        return c

    def path(self) -> list["Cluster"]:
        out, cur = [], self
        while cur is not None:
            out.append(cur)
            cur = cur.parent
        return out[::-1]

    def walk(self):
        yield self
        for c in self.clusters:
            yield from c.walk()


@attrs.define
class Edge:
    tail: str
    head: str
    kind: str  # flow, back, offer, trigger, end, branch
    attrs: dict


@attrs.define
class Diagram:
    game_name: str
    title: str
    detail: str
    lang: str
    graph_attrs: dict
    root: Cluster
    edges: list
    # indexes for tests and reports
    phases: list = attrs.Factory(list)  # (PhaseStep, cluster id)
    loops: list = attrs.Factory(list)  # (step, back edge ids)
    turns: list = attrs.Factory(list)  # (TurnsStep, turn node id, {action: node id})
    triggers: dict = attrs.Factory(dict)  # trigger name -> node id (full detail)
    # every flow step -> what draws it: a phase's or a loop's cluster id, a step's, an `if`'s or
    # a turns step's node id (the replay viewer highlights where a game stands)
    step_ids: list = attrs.Factory(list)  # (step, id)
    final_id: str = "final"

    def clusters(self):
        return list(self.root.walk())

    def cluster(self, cid: str) -> Cluster:
        for c in self.root.walk():
            if c.id == cid:
                return c
        raise KeyError(cid)

    def node_ids(self, cluster: Cluster) -> list[str]:
        """Every node inside a cluster, nested clusters included."""
        return [n.id for c in cluster.walk() for n in c.nodes]


@attrs.define
class _Seg:
    entry: tuple  # (node id, lhead cluster id or None)
    exits: list  # [(node id, ltail cluster id or None, label or None)]


@attrs.define
class _Anchor:
    """A drawn place where rules run, from which triggers and `end game` exits leave."""

    node: str
    ltail: str | None
    container: Cluster  # where a node linked from here may be put
    runs: list  # [(name or None, block)]
    keys: set  # event keys fired here (see analysis.trigger_key)
    side: bool = True  # a trigger may sit beside it (not for turns nodes: their loop is there)


# ---------------------------------------------------------------- building
class _Builder:
    def __init__(self, game, detail: str, lang: str, changes=None, text: str = "prose"):
        if detail not in DETAILS:
            raise UsageError(f"unknown detail {detail!r}; expected one of {', '.join(DETAILS)}")
        self.game = game
        self.changes = changes  # meeplang.dsl.diff changes to highlight, or None
        self.changed = {} if changes is None else changed_parts(changes)
        self.detail = detail
        self.w = Words(game, lang)
        self.text = rule_text(game, self.w, text)  # boxes show sentences or rule code
        self.lang = lang
        self.edges: list[Edge] = []
        self.anchors: list[_Anchor] = []
        self.count = 0
        self.root = Cluster("root", "root", {})
        self.d = Diagram(game.name, self.w.title(), detail, lang, {}, self.root, self.edges)

    # -- helpers
    def nid(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def node(self, where: Cluster, prefix: str, kind: str, **attrs_) -> str:
        n = Node(self.nid(prefix), kind, {"class": kind, **attrs_})
        n.attrs.setdefault("id", n.id)
        where.add_node(n)
        return n.id

    def cluster(self, where: Cluster, kind: str, label: str, colours, name=None, **extra) -> Cluster:
        cid = f"cluster_{kind}{self.count + 1}"
        self.count += 1
        fill, line = colours
        a = {"label": f"<<B>{h(label)}</B>>" if label else "", "class": kind, "id": cid,
             "style": "rounded,filled", "fillcolor": fill, "color": line, "fontcolor": line,
             "penwidth": "1.4", "labeljust": "l", "fontsize": "12", "margin": "14"}
        a.update(extra)
        return where.add_cluster(Cluster(cid, kind, a, name=name))

    def edge(self, tail, head, kind, **attrs_) -> Edge:
        e = Edge(tail, head, kind, {"class": kind, **{k: v for k, v in attrs_.items()
                                                      if v is not None}})
        e.attrs.setdefault("id", f"e{len(self.edges) + 1}")
        self.edges.append(e)
        return e

    def connect(self, exits, entry, kind="flow"):
        """Edges from every exit to an entry; exits that leave from the same place (both
        branches of an `if` with nothing in them) make one unlabelled edge."""
        head, lhead = entry
        groups: dict = {}
        for node, ltail, label in exits:
            groups.setdefault((ltail or node, head), []).append((node, ltail, label))
        for same in groups.values():
            node, ltail, label = same[0]
            if len(same) > 1:
                label = None
            self.edge(node, head, kind, ltail=ltail, lhead=lhead,
                      label=_edge_label([label]) if label else None)

    # -- the whole picture
    def build(self) -> Diagram:
        g, w = self.game, self.w
        self.d.graph_attrs = {
            "rankdir": "TB", "compound": "true", "fontname": FONT, "fontsize": "12",
            "nodesep": "0.4", "ranksep": "0.4", "newrank": "true", "pad": "0.2",
            "labelloc": "t", "bgcolor": "white",
            "id": "meeplang_diagram",
            "class": f"meeplang_diagram detail_{self.detail}",
        }
        game_c = self.cluster(self.root, "game", "", ("#ffffff", C_GAME), style="rounded",
                              fontsize="16", penwidth="1")
        label = f"<B>{h(w.title())}</B>"
        if g.variant:  # the name to give meeplang, in small grey type
            label += f'  <FONT POINT-SIZE="11" COLOR="#777777">{h(g.name)}:{h(g.variant)}</FONT>'
        game_c.attrs["label"] = f"<{label}>"
        game_c.attrs["fontcolor"] = "#222222"
        game_c.attrs["id"] = "cluster_game"
        game_c.id = "cluster_game"
        self.game_c = game_c

        start = self.start_node(game_c)
        seg = self.seq(g.flow, game_c)
        final = self.final_node(game_c)
        if seg is None:
            self.edge(start, final, "flow")
        else:
            self.connect([(start, None, None)], seg.entry)
            self.connect(seg.exits, (final, None))
        self.d.final_id = final
        self.place_triggers()
        self.end_game_exits(final)
        self.legend()
        self.changes_box()
        return self.d

    def start_node(self, where) -> str:
        setup = self.game.setup
        lines = self.text.block(setup, 2 if self.detail != "full" else 6, 40) if setup.stmts \
            else []
        label = html_label(self.w.ui("setup") if lines else self.w.ui("start"), code=lines,
                           code_face=self.text.face)
        sid = self.node(where, "start", "start", label=label, shape="box",
                        style="rounded,filled", fillcolor=C_START[0], color=C_START[1])
        self.anchors.append(_Anchor(sid, None, where, [(None, setup)],
                                    {("action", a) for a in AN.reach(self.game, [setup])}))
        return sid

    def final_node(self, where) -> str:
        sc = self.game.scoring
        lines = []
        if sc is not None and sc.score is not None:
            lines += wrap(self.w.field("score", self.text.expr(sc.score)), 34, 2)
        if self.detail == "full" and sc is not None:
            if sc.tie_break:
                tb = ", ".join(self.text.expr(t) for t in sc.tie_break)
                lines += wrap(self.w.field("tie_break", tb), 34, 2)
            if sc.winners is not None:
                lines += wrap(self.w.field("winners", self.text.expr(sc.winners)), 34, 3)
        return self.node(where, "final", "final", label=html_label(self.w.ui("final_scoring"), lines),
                         shape="box", style="rounded,filled", peripheries="2",
                         fillcolor=C_FINAL[0], color=C_FINAL[1])

    # -- flow
    def seq(self, steps, where: Cluster):
        first = None
        exits = None
        for step in steps:
            seg = self.step(step, where)
            if first is None:
                first = seg
            elif exits:
                self.connect(exits, seg.entry)
            exits = seg.exits
        if first is None:
            return None
        return _Seg(first.entry, exits)

    def step(self, step, where: Cluster) -> _Seg:
        if isinstance(step, PhaseStep):
            return self.phase(step, where)
        if isinstance(step, (RepeatStep, LoopStep)):
            return self.loop(step, where)
        if isinstance(step, IfStep):
            return self.if_step(step, where)
        if isinstance(step, TurnsStep):
            return self.turns(step, where)
        if isinstance(step, DoStep):
            return self.do_step(step, where)
        # a step kind this visualizer does not know yet: a plain box with its type
        nid = self.node(where, "s", "step", label=html_label(type(step).__name__),
                        shape="box", style="filled", fillcolor=C_STEP[0], color=C_STEP[1])
        return _Seg((nid, None), [(nid, None, None)])

    def body(self, steps, c: Cluster) -> _Seg:
        seg = self.seq(steps, c)
        if seg is None:
            nid = self.node(c, "s", "empty", label=self.w.ui("empty"), shape="plaintext",
                            fontsize="10")
            seg = _Seg((nid, None), [(nid, None, None)])
        return seg

    def phase(self, step: PhaseStep, where: Cluster) -> _Seg:
        c = self.cluster(where, "phase", self.w.term(step.name), C_PHASE, name=step.name)
        if step.free_actions:  # its free actions, and when: under the phase's name
            w = self.w
            names = ", ".join(w.term(a) for a in step.free_actions)
            free = w.ui("phase_free_any_time" if step.free_at == "any_time" else
                        "phase_free_between", names)
            if step.free_if is not None:
                free += " (" + w.ui("phase_free_if", self.text.expr(step.free_if)) + ")"
            lines = "".join(f'<BR ALIGN="LEFT"/><FONT POINT-SIZE="10">{h(line)}</FONT>'
                            for line in wrap(free, 48, 3))
            c.attrs["label"] = f"<<B>{h(w.term(step.name))}</B>{lines}>"
        seg = self.body(step.steps, c)
        self.d.phases.append((step, c.id))
        self.d.step_ids.append((step, c.id))
        rep = seg.exits[0][0] if seg.exits else seg.entry[0]
        self.anchors.append(_Anchor(rep, c.id, where, [], {("phase", step.name)}))
        exits = [(rep, c.id, None)] if seg.exits else []
        return _Seg((seg.entry[0], c.id), exits)

    def loop_texts(self, step):
        """(cluster label, loop badge text): `Round` / `↻ ×3`, `Loop` / `↻ until …`."""
        w = self.w
        named = step.name and step.name in (self.game.terms or {})
        if isinstance(step, RepeatStep):
            label = w.term(step.name) if named else (
                self.var_word(step.var) if step.var else w.ui("repeat"))
            count = self.count_text(step.count)
            return label, w.ui("times", count if count.isdigit() else f" {count}")
        cond = self.text.expr(step.cond)
        label = w.term(step.name) if named else w.ui("loop")
        return label, w.ui("until_cond" if step.until else "while_cond", cond)

    def var_word(self, var: str) -> str:
        if var in (self.game.terms or {}):
            return self.w.term(var)
        known = self.w.ui_words.get(var)
        return known if known else var.replace("_", " ")

    def count_text(self, e) -> str:
        text = self.text.expr(e)
        if isinstance(e, A.Name) and e.name in self.game.options:
            default = f"({self.game.options[e.name].default})"
            return text if text.endswith(default) else f"{text} {default}"  # prose says it
        return shorten(text, 30)

    def loop(self, step, where: Cluster) -> _Seg:
        label, badge = self.loop_texts(step)
        c = self.cluster(where, "loop", label, C_LOOP)
        self.d.step_ids.append((step, c.id))
        # the loop badge: where each pass starts, and where the orange back edge returns
        head = self.node(c, "loop", "loop_head",
                         label=html_label(None, wrap("↻ " + badge, 34, 3), sub_size=10),
                         shape="box", style="rounded,filled", fillcolor=C_LOOP[1],
                         color=C_LOOP[1], fontcolor="white", margin="0.1,0.03", height="0.3")
        seg = self.body(step.steps, c)
        self.connect([(head, None, None)], seg.entry)
        back_ids = []
        if seg.exits:
            # the end of a pass: a small orange dot at the bottom of the loop; from it the
            # orange back edge returns to the badge, and the flow leaves the loop
            end = self.node(c, "loopend", "loop_end", label="", shape="circle", width="0.14",
                            height="0.14", fixedsize="true", style="filled",
                            fillcolor=C_LOOP[1], color=C_LOOP[1])
            self.connect(seg.exits, (end, None))
            # declared badge -> end with dir=back: drawn upwards, ranked like the flow
            e = self.edge(head, end, "back", dir="back", weight="0", color=C_LOOP[1],
                          penwidth="1.8")
            back_ids.append(e.attrs["id"])
        self.d.loops.append((step, back_ids))
        if AN.never_ends(step) or not seg.exits:
            return _Seg((head, c.id), [])
        return _Seg((head, c.id), [(end, c.id, None)])

    def if_step(self, step: IfStep, where: Cluster) -> _Seg:
        cond = wrap(f"{self.w.ui('if')} {self.text.expr(step.cond)}", 24, 4)
        did = self.node(where, "if", "if", label=html_label(None, cond, sub_size=10),
                        shape="diamond", style="filled", fillcolor=C_IF[0], color=C_IF[1],
                        margin="0.02")
        self.d.step_ids.append((step, did))
        exits = []
        for steps, word in ((step.steps, "yes"), (step.other, "no")):
            seg = self.seq(steps, where)
            if seg is None:
                exits.append((did, None, self.w.ui(word)))
            else:
                node, lhead = seg.entry
                self.edge(did, node, "branch", lhead=lhead,
                          label=_edge_label([self.w.ui(word)]), fontcolor=C_IF[1])
                exits.extend(seg.exits)
        return _Seg((did, None), exits)

    def do_step(self, step: DoStep, where: Cluster) -> _Seg:
        n, width = (2, 40) if self.detail != "full" else (8, 48)
        code = self.text.block(step.block, n, width)
        nid = self.node(where, "s", "step", label=html_label(None, code=code or ["…"],
                                                             code_face=self.text.face),
                        shape="box", style="filled", fillcolor=C_STEP[0], color=C_STEP[1])
        self.d.step_ids.append((step, nid))
        called = AN.reach(self.game, [step.block])
        keys = {("action", a) for a in called} | ({("any_action",)} if called else set())
        self.anchors.append(_Anchor(nid, None, where, [(None, step.block)], keys))
        return _Seg((nid, None), [(nid, None, None)])

    def turns_lines(self, step: TurnsStep) -> list[str]:
        w = self.w
        order = w.ui(step.order) if step.order in ("clockwise", "counterclockwise") else step.order
        first = step.first
        # the rulebook's "player 1" (seat 0): players are counted from 1, as the prose says
        start = w.ui("from_seat", first.value + 1) if isinstance(first, A.Num) else \
            w.ui("from_expr", shorten(self.text.expr(first), 30))
        lines = [f"{order}, {start}"]
        if getattr(step, "order_list", None) is not None:  # the seats in a computed order
            lines = wrap(w.ui("order_list", self.text.expr(step.order_list)), 34, 3)
        if step.per_turn is not None:
            one = isinstance(step.per_turn, A.Num) and step.per_turn.value == 1
            lines.append(w.ui("per_turn_1" if one else "per_turn",
                              shorten(self.text.expr(step.per_turn), 20)))
        if step.free_actions:
            lines.append(w.ui("free_any_time" if step.free_at == "any_time" else "free_between"))
        if getattr(step, "free_after_last", False) and step.free_actions:
            lines.append(w.ui("free_after_last"))
        if getattr(step, "free_turn", False) and step.free_actions:
            lines.append(w.ui("free_turn"))
        into = self.game.automa_paid_into
        if into is not None and getattr(step, "automa_actions", ()):
            lines.append(w.ui("automa_paid_into", w.term(into)))
        if step.until == "condition":
            lines += wrap("↻ " + w.ui("until_cond", self.text.expr(step.until_cond)), 34, 3)
        else:
            lines.append("↻ " + w.ui(f"until_{step.until}"))
        if step.until_round is not None:
            lines += wrap(w.ui("until_round", self.text.expr(step.until_round)), 34, 3)
        return lines

    def offered(self, step: TurnsStep) -> list[tuple[str, str | None]]:
        out = [(a, None) for a in step.actions]
        out += [(a, "free") for a in step.free_actions if a not in step.actions]
        automa = getattr(step, "automa_actions", ()) or ()
        done = {a for a, _ in out}
        out += [(a, "automa") for a in automa if a not in done]
        return out

    def turns(self, step: TurnsStep, where: Cluster) -> _Seg:
        offered = self.offered(step)
        label = html_label(self.w.ui("turns"), self.turns_lines(step))
        tattrs = dict(label=label, shape="box", style="rounded,filled", fillcolor=C_TURNS[0],
                      color=C_TURNS[1], penwidth="1.4")
        ends = not AN.never_ends(step)
        if self.detail == "phases":
            tid = self.node(where, "turns", "turns", **tattrs)
            self.turn_loop(step, tid)
            names = [a for a, _ in offered]
            keys = {("turn",), ("any_action",)} | {("action", a) for a in names}
            keys |= {("action", a) for a in AN.reach(self.game, [self.game.actions[a].effect
                                                               for a in names
                                                               if a in self.game.actions])}
            runs = [(a, self.game.actions[a].effect) for a in names if a in self.game.actions]
            self.anchors.append(_Anchor(tid, None, where, runs, keys, side=False))
            self.d.turns.append((step, tid, {}))
            self.d.step_ids.append((step, tid))
            return _Seg((tid, None), [(tid, None, None)] if ends else [])

        c = self.cluster(where, "turns", "", ("#fffcf0", C_TURNS[1]), style="rounded,filled,dashed",
                         penwidth="1")
        tid = self.node(c, "turns", "turns", **tattrs)
        self.turn_loop(step, tid)
        self.anchors.append(_Anchor(tid, None, c, [], {("turn",), ("any_action",)}, side=False))
        action_ids = {}
        for name, kind in offered:
            aid = self.action_node(c, name, kind)
            action_ids[name] = aid
            self.edge(tid, aid, "offer", color=C_ACTION[1], arrowsize="0.7",
                      style="dashed" if kind else None)
        self.d.turns.append((step, tid, action_ids))
        self.d.step_ids.append((step, tid))
        if not ends:
            return _Seg((tid, c.id), [])
        # the flow leaves from an invisible point centred under the actions, clipped at the box
        sink = self.node(c, "turnsend", "layout", label="", shape="point", width="0.01",
                         height="0.01", style="invis")
        for aid in list(action_ids.values()) or [tid]:
            self.edge(aid, sink, "layout", style="invis")
        return _Seg((tid, c.id), [(sink, c.id, None)])

    def turn_loop(self, step, tid):
        # unlabelled: Graphviz does not keep self-loop labels inside clusters; the node says it
        e = self.edge(tid, tid, "back", color=C_LOOP[1], penwidth="1.8")
        self.d.loops.append((step, [e.attrs["id"]]))

    def action_node(self, where: Cluster, name: str, kind: str | None) -> str:
        w = self.w
        action = self.game.actions.get(name)
        title = w.term(name) + (f" ({w.ui(kind)})" if kind else "")
        lines, code = [], []
        changed: list[str] = []
        if action is not None:
            if self.detail == "full" and action.param is not None:
                lines += wrap(self.text.choice(action.param), 30, 2)
            if action.requires is not None:
                lines += wrap(w.field("requires", self.text.expr(action.requires)), 40,
                              2 if self.detail == "actions" else 3)
            for lim in action.limits:
                lines += wrap(limit_text(self.text, lim), 40, 1 if lim.cond is None else 2)
            if action.cost is not None:
                lines += wrap(self.text.cost(action.cost), 40,
                              2 if self.detail == "actions" else 3)
            lines += self.deck_lines(action.effect)
            tables = AN.tables_read(self.game, action.param, action.requires, action.effect)
            if tables:
                lines += wrap(w.ui("reads", ", ".join(self.text.name(t) for t in tables)), 40, 2)
            if self.detail == "full":
                code = self.text.block(action.effect, 4, 36)
            changed = self.changes_of(f"actions.{name}", tables)
            if changed:
                lines += wrap(w.ui("changed", ", ".join(changed)), 40, 3)
        aid = self.node(where, "act", "action",
                        label=html_label(title, lines, code, code_face=self.text.face),
                        shape="box", style="rounded,filled" + (",dashed" if kind else ""),
                        fillcolor=C_ACTION[0], **_border(C_ACTION[1], changed))
        if action is not None:
            called = AN.reach(self.game, [action.effect])
            keys = {("action", name)} | {("action", a) for a in called}
            self.anchors.append(_Anchor(aid, None, where, [(None, action.effect)], keys))
        return aid

    def deck_lines(self, block) -> list[str]:
        """A line per deck operation: what is drawn and kept and where the rest goes, what is
        searched for."""
        out: list[str] = []
        for op in AN.deck_operations(block):
            out += wrap(self.text.deck_op(op), 40, 3)
        return out

    # -- triggers
    def when_text(self, t) -> str:
        return when_text(self.w, t, self.text)

    def place_triggers(self):
        """Trigger nodes (full detail), with dashed edges from where they fire. At other
        details only triggers that fire from no drawn place (`overflow of COUNTER`) and can end
        the game are drawn, so that their `end game` exit has somewhere to leave from."""
        for t in self.game.triggers:
            key = AN.trigger_key(t)
            anchors = [a for a in self.anchors if key in a.keys]
            if self.detail != "full" and (
                    anchors or not AN.end_sources(self.game, [(None, t.effect)], set(), True)):
                continue
            where = self._common(anchors) if anchors else self.game_c
            lines = [self.when_text(t)]
            if t.cond is not None:
                lines += wrap(f"{self.w.ui('if')} {self.text.expr(t.cond)}", 30, 2)
            code = self.text.block(t.effect, 4, 36)
            changed = self.changes_of(f"triggers.{t.name}",
                                      AN.tables_read(self.game, t.cond, t.effect))
            if changed:
                lines += wrap(self.w.ui("changed", ", ".join(changed)), 40, 3)
            tid = self.node(where, "trig", "trigger",
                            label=html_label(self.w.term(t.name), lines, code,
                                             code_face=self.text.face), shape="box",
                            style="rounded,filled,dashed", fillcolor=C_TRIGGER[0],
                            **_border(C_TRIGGER[1], changed))
            self.d.triggers[t.name] = tid
            # beside (left of) the node it fires from, so it does not lengthen the flow; the
            # node says when it fires, so its edges need no label
            beside = (bool(anchors) and anchors[0].ltail is None and anchors[0].side
                      and anchors[0].container is where)
            if beside:
                group = where.add_cluster(Cluster(f"rank_{tid}", "rank", {"rank": "same"}))
                group.refs = [tid, anchors[0].node]
            for i, a in enumerate(anchors):
                style = dict(style="dashed", color=C_TRIGGER[1], arrowsize="0.7")
                if i == 0 and beside:  # a flat edge is laid out tail-left: declare it reversed
                    self.edge(tid, a.node, "trigger", dir="back", **style)
                else:
                    self.edge(a.node, tid, "trigger", ltail=a.ltail, **style)
            called = AN.reach(self.game, [t.effect])
            keys = {("action", a) for a in called}
            self.anchors.append(_Anchor(tid, None, where, [(None, t.effect)], keys))

    def _common(self, anchors) -> Cluster:
        paths = [a.container.path() for a in anchors]
        common = paths[0]
        for p in paths[1:]:
            n = 0
            while n < min(len(common), len(p)) and common[n] is p[n]:
                n += 1
            common = common[:n]
        for c in reversed(common):
            if c.kind != "root":
                return c
        return self.game_c

    # -- end game exits
    def end_game_exits(self, final: str):
        with_triggers = self.detail != "full"
        for a in self.anchors:
            names = AN.end_sources(self.game, a.runs, a.keys, with_triggers)
            if not names:
                continue
            # the red dashed edge says "end game" (legend); its label names the rules that do it
            others = [self.name_of(n) for n in names if n is not None]
            label = self.w.ui("end_game")
            if others:
                label += "\n(" + ", ".join(others) + ")"
            self.edge(a.node, final, "end", ltail=a.ltail, style="dashed", color=C_END,
                      fontcolor=C_END, fontsize="10", penwidth="1.3",
                      label=_edge_label(line for part in label.split("\n")
                                        for line in wrap(part, 28, 3)))

    def name_of(self, name: str) -> str:
        return self.w.term(name)

    # -- a variant's changes (--highlight-changes)
    def changes_of(self, entry: str, tables) -> list[str]:
        """What changed in an entry (`limit.times`, `effect`), and which of the tables it reads
        changed: a rule behaves differently when either does."""
        parts = self.changed.get(entry)
        own = (parts or [self.w.plain("added")]) if parts is not None else []
        return [self.text.path(p, entry=False)
                for p in own + [t for t in tables if f"tables.{t}" in self.changed]]

    def changes_box(self):
        """Every change, listed below the legend: also those no node shows (options, tables,
        rules drawn only at a finer detail)."""
        if not self.changes:
            return
        c = self.cluster(self.root, "changes", self.w.plain("changes"), ("#fff5f5", C_CHANGED),
                         style="rounded,filled", fontsize="11", penwidth="2")
        c.id = c.attrs["id"] = "cluster_changes"
        rows = "".join(
            f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9">{h(self.text.path(ch.path))}</FONT></TD>'
            f'<TD ALIGN="LEFT"><FONT POINT-SIZE="9">{h(_short(ch.before))} → '
            f'{h(_short(ch.after))}</FONT></TD></TR>' for ch in self.changes)
        self.node(c, "changes", "changes", shape="plaintext", margin="0",
                  label=f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2">{rows}</TABLE>>')
        self.edge("legend", c.nodes[-1].id, "layout", style="invis", ltail="cluster_legend",
                  lhead="cluster_changes")

    # -- legend (the same for every game and detail level; only the language changes it)
    def legend(self):
        w = self.w
        c = self.cluster(self.root, "legend", w.plain("legend"), ("#fafafa", "#9a9a9a"),
                         style="rounded,filled", fontsize="11", penwidth="1")
        c.id = c.attrs["id"] = "cluster_legend"
        rows = [
            ("lg_start", _cell(w.plain("setup"), C_START, rounded=True)),
            ("lg_phase", _cell(w.plain("lg_phase_s"), C_PHASE, rounded=True, bold=True)),
            ("lg_loop", _cell(w.plain("lg_loop_s"), (C_LOOP[1], C_LOOP[1]), rounded=True,
                              text_colour="white")),
            ("lg_turns", _cell(w.plain("lg_turns_s"), C_TURNS, rounded=True, bold=True)),
            ("lg_step", _cell(w.plain("lg_step_s"), C_STEP)),
            ("lg_if", _cell(w.plain("lg_if_s"), C_IF)),
            ("lg_action", _cell(w.plain("lg_action_s"), C_ACTION, rounded=True)),
            ("lg_trigger", _cell(w.plain("lg_trigger_s"), C_TRIGGER, rounded=True,
                                 text_colour=C_TRIGGER[1])),
            ("lg_end", _cell(w.plain("lg_end_s"), ("#ffffff", "#ffffff"), text_colour=C_END,
                             bold=True)),
            ("lg_final", _cell(w.plain("final_scoring"), C_FINAL, rounded=True)),
        ]
        half = (len(rows) + 1) // 2
        trs = ""
        for i in range(half):
            pair = [rows[i]] + ([rows[i + half]] if i + half < len(rows) else [])
            cells = [sample + '<TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="9">'
                     + "<BR/>".join(h(part) for part in w.plain(key).split("\n")) + "</FONT></TD>"
                     for key, sample in pair]
            trs += "<TR>" + '<TD WIDTH="10"></TD>'.join(cells) + "</TR>"
        table = (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">'
                 f'{trs}</TABLE>>')
        self.node(c, "legend", "legend", label=table, shape="plaintext", margin="0")
        c.nodes[-1].id = c.nodes[-1].attrs["id"] = "legend"
        # below the game, so it never stretches the flow's ranks
        self.edge(self.d.final_id, "legend", "layout", style="invis", ltail="cluster_game",
                  lhead="cluster_legend")


def _cell(text, colours, rounded=False, bold=False, text_colour=None) -> str:
    """A legend sample: a small coloured cell styled like the thing it stands for."""
    fill, line = colours
    style = ' STYLE="rounded"' if rounded else ""
    t = h(text)
    if bold:
        t = f"<B>{t}</B>"
    return (f'<TD BGCOLOR="{fill}" COLOR="{line}" BORDER="1"{style} WIDTH="96">'
            f'<FONT POINT-SIZE="9" COLOR="{text_colour or "#222222"}">{t}</FONT></TD>')


def when_text(w: Words, t, rules) -> str:
    """When a trigger fires, in words: "after Build", "start of B. Auctions", with its `each:`
    and `limit:` ("for each l in lines", "at most 1 per round"); `rules` (rule_text) says the
    rule parts."""
    text = _event_text(w, t)
    if t.each is not None:
        text += " · " + w.ui("each", rules.each(t.each))
    if t.limit is not None:
        text += " · " + w.ui("limit", rules.expr(t.limit), w.term(t.limit_per))
    return text


def _event_text(w: Words, t) -> str:
    ev, target = t.event, t.target
    if ev in ("before_turn", "after_turn"):
        return w.ui(ev)
    if ev in ("before_action", "after_action"):
        side = ev.split("_")[0]
        return w.ui(f"{side}_action", w.term(target)) if target else w.ui(f"{side}_any")
    if ev in ("phase_start", "phase_end", "overflow", "enter_space", "gain", "enters"):
        return w.ui(ev, w.term(target))
    return f"{ev.replace('_', ' ')} {w.term(target) if target else ''}".strip()


def _edge_label(lines) -> str:
    """A plain-text edge label: backslashes kept literal, lines joined with DOT's \\n."""
    return graphviz.nohtml("\\n".join(_CONTROL.sub("\ufffd", line)[:MAX_NAME]
                                     .replace("\\", "\\\\") for line in lines))


def _border(colour: str, changed) -> dict:
    """A node's border: its kind's colour, or thick red when a variant changed its rule."""
    return {"color": C_CHANGED, "penwidth": "3"} if changed else {"color": colour}


def _short(value, width: int = 48) -> str:
    """One change's side in a line: rule text or data, cut to width; '—' where absent."""
    if value is None:
        return "—"
    return shorten(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False),
                   width)


def build_diagram(game, detail: str = "phases", lang: str = "en", changes=None,
                  text: str = "prose") -> Diagram:
    """The drawing; `changes` (from meeplang.dsl.diff) are highlighted and listed when given; `text`:
    boxes say their rules as sentences (`prose`) or as rule code (`rules`)."""
    return _Builder(game, detail, lang, changes, text).build()


# ---------------------------------------------------------------- DOT
MAX_NAME = 1000  # DOT refuses a name (a token) longer than 16,384 characters
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def graph_name(title: str) -> str:
    """The title as the graph's name (SVG's <title>): no control characters (NUL ends DOT's
    text), no backslash (a trailing one would escape the closing quote), at most MAX_NAME
    characters."""
    name = re.sub(r"[\x00-\x1f\x7f-\x9f\\]", " ", title)
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


def to_digraph(d: Diagram) -> graphviz.Digraph:
    title = f"{d.game_name} ({d.detail}, {d.lang})"
    g = graphviz.Digraph(
        # a title written `<...>` is text (nohtml), not an HTML-like string that ends the DOT;
        # no control characters, no trailing backslash, bounded (graph_name)
        name=graphviz.nohtml(graph_name(d.title)),
        comment=f"Meeplang rules diagram: {title}. Generated from the game model; do not edit.",
        graph_attr=d.graph_attrs,
        node_attr={"fontname": FONT, "fontsize": "11", "margin": "0.12,0.06", "penwidth": "1.2"},
        edge_attr={"fontname": FONT, "fontsize": "10", "color": C_FLOW, "arrowsize": "0.8"},
    )

    def emit(target, cluster: Cluster):
        for ref in cluster.refs:
            target.node(ref)
        for n in cluster.nodes:
            target.node(n.id, **n.attrs)
        for c in cluster.clusters:
            with target.subgraph(name=c.id) as s:
                s.attr(**c.attrs)
                emit(s, c)

    emit(g, d.root)
    for e in d.edges:
        g.edge(e.tail, e.head, **e.attrs)
    return g


def dot_source(game, detail: str = "phases", lang: str = "en", changes=None,
               text: str = "prose") -> str:
    return to_digraph(build_diagram(game, detail, lang, changes, text)).source
