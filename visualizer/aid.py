"""A one-page player aid (`meeplang aid`): the round's phases, the turn, one line per action with
what it costs and gains, the end of the game and the final scoring, and a variant's changes
marked, on one A4 or US Letter page.

The page is one Graphviz node: an HTML-like table of the page's size (in points), so `dot -Tpdf`
gives a PDF of that page size with its fonts embedded, and `dot -Tsvg` an SVG of that size. The
text is set at 8 pt or more and is never scaled: a layout that does not fit the page (one
column, then two) is refused with a usage error rather than shrunk.

Every sentence comes from `visualizer/prose/` (the words of `meeplang explain`); nothing here
knows a particular game.
"""
from __future__ import annotations

import re

import attrs

from meeplang.dsl import ast as A
from meeplang.dsl.errors import UsageError
from meeplang.dsl.model import DoStep, LoopStep, PhaseStep, RepeatStep, TurnsStep

from . import activity as AC
from .labels import LANGS, UI, h

PAPERS = {"a4": (595, 842), "letter": (612, 792)}  # points
MARGIN = 28  # points on each side
BODY, HEAD, TITLE = 8, 10, 14  # font sizes in points: nothing smaller than BODY
FONT = "Helvetica"
CHANGED = "#d62728"

WORDS = {
    "en": {"round": "How a game goes", "turn": "Your turn", "actions": "Actions",
           "end": "End of the game", "scoring": "Final scoring",
           "changes": "Changed by this variant",
           "changed": "✎ changed by this variant", "free": "free", "or": "or",
           "automa": "automa", "aid": "Player aid", "then": "then",
           "n_changed": "{} changed (meeplang diff lists them)",
           "see_turn": "Turns: see “Your turn” below."},
    "fr": {"round": "Déroulement", "turn": "Ton tour", "actions": "Actions",
           "end": "Fin de la partie", "scoring": "Décompte final",
           "changes": "Modifié par cette variante", "changed": "✎ modifié par cette variante",
           "free": "libre", "or": "ou", "automa": "automa", "aid": "Aide de jeu",
           "then": "puis", "n_changed": "{} modifiés (meeplang diff les énumère)",
           "see_turn": "Les tours : voir « Ton tour » ci-dessous."},
}


@attrs.define
class Section:
    heading: str
    lines: list  # (depth, text, changed)


@attrs.define
class Aid:
    title: str
    subtitle: str
    lang: str
    sections: list  # Section, ...
    turns: list  # (phase label, [(kind, text)]) for the turn strips


def build_aid(game, lang: str = "en", further: bool = True) -> Aid:
    """The aid's content as plain data (the tests read it); `further=False`: only the actions
    offered on turns and those the flow's steps do (see `_aid_actions`)."""
    from .prose import Explanation

    if lang not in LANGS:
        raise UsageError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    doc = Explanation(game, lang)
    say, w = doc.say, WORDS[lang]
    changed = _changed_entries(game)
    title = doc.title()
    subtitle = w["aid"] + (f" · {game.name}:{game.variant}" if game.variant else "")

    rounds = Section(w["round"], [(d, t, False) for d, t in _flow_lines(doc, game.flow, 0, lang)])
    actions = Section(w["actions"], [])
    for name in _aid_actions(game, further):
        a = game.actions[name]
        with say.aliased(say.rule_aliases([a.param], [a.effect])):
            text = _action_line(doc, a)
        actions.lines.append((0, text, f"actions.{name}" in changed))
    end = Section(w["end"], [(0, line.text, False) for line in doc.end().lines])
    scoring = Section(w["scoring"], [(0, line.text, "scoring.score" in changed or any(
        k.startswith("scoring") for k in changed)) for line in doc.scoring().lines])
    sections = [rounds, actions, end, scoring]
    if game.variant:
        sections.append(Section(w["changes"], [(0, t, True) for t in _change_lines(game, lang)]))

    turns, colon = [], UI[lang]["colon"]  # `free: …`, `libre : …`
    for phase, t, phase_free in AC._turns_steps(game.flow, None):
        strip = [("head", doc.turns(t, 0)[0].text)]
        for name in t.actions:
            strip.append(("action", format(say.term(name), "quote")))
        for name in dict.fromkeys(tuple(t.free_actions) + tuple(phase_free)):
            strip.append(("free", colon.format(w["free"], format(say.term(name), "quote"))))
        for name in t.automa_actions:
            strip.append(("automa", colon.format(w["automa"], format(say.term(name), "quote"))))
        # the phase as the rules text names it (its term, quoted: “Rounds”), never its raw name
        label = str(format(say.term(phase.name), "quote")) if phase is not None else ""
        turns.append((label, strip))
    return Aid(title, subtitle, lang, sections, turns)


def _changed_entries(game) -> set:
    if not game.variant:
        return set()
    from meeplang.dsl.diff import changed_parts, changes_from_base

    return set(changed_parts(changes_from_base(game)))


def _change_lines(game, lang: str) -> list[str]:
    """What the variant changes, a line per part of the rules (`actions: Pass, Buy a card`)
    (the entries it changes, adds or removes, named in words; `meeplang diff` says how)."""
    from meeplang.dsl.diff import changed_parts, changes_from_base
    from meeplang.dsl.resolve import load_game

    from .prose.changes import labeller

    base = load_game(game.game_file or game.folder)
    label = labeller(base, game, lang)
    sections: dict = {}
    for entry in changed_parts(changes_from_base(game)):
        section, _, name = entry.partition(".")
        words = label(entry).split(" › ")
        sections.setdefault(words[0], [])
        if name and len(words) > 1:
            sections[words[0]].append(" › ".join(words[1:]))
    count = WORDS[lang]["n_changed"]
    out = []
    for head, names in sections.items():
        line = f"{head}: {', '.join(names)}" if names else head
        if len(line) > 160:  # a long list: how many (`meeplang diff` lists them)
            line = f"{head}: {count.format(len(names))}"
        out.append(line)
    return out


def _flow_lines(doc, steps, depth: int, lang: str) -> list[tuple[int, str]]:
    """The round's shape: loops, phases and turns (their own sentences), not the rule steps'
    statements (those are in `meeplang explain`)."""
    out = []
    for step in steps:
        if isinstance(step, (PhaseStep, RepeatStep, LoopStep)):
            out.append((depth, doc.step(step, depth)[0].text))
            if isinstance(step, PhaseStep) and step.free_actions:
                out.append((depth + 1, doc.step(step, depth)[1].text))
            out += _flow_lines(doc, step.steps, depth + 1, lang)
        elif isinstance(step, TurnsStep):  # its sentence heads its strip under “Your turn”
            out.append((depth, WORDS[lang]["see_turn"]))
        elif not isinstance(step, DoStep):
            for line in doc.step(step, depth):
                if line.depth == depth:
                    out.append((depth, line.text))
            for attr in ("steps", "other"):
                out += _flow_lines(doc, getattr(step, attr, ()) or (), depth + 1, lang)
    return out


def _aid_actions(game, further: bool = True) -> list[str]:
    """The actions a player meets, in the game's order: those offered on turns (free and automa
    ones too), those the flow's steps do themselves, and those these do in turn where the player
    has something to choose, pay or gain (a choice, a price, a `choose`, a gain or a payment, a
    `may do`): what the turn's actions come down to (a diver's or a zone's action)."""
    from .analysis import all_steps, reach

    main, free, automa = AC.offered(game)
    named = set(main) | set(free) | set(automa)
    blocks = [s.block for s in all_steps(game.flow) if isinstance(s, DoStep)]
    for block in blocks:
        named |= {st.action for st in _statements(block)
                  if isinstance(st, A.DoStmt) and st.value is None}

    def facing(name: str) -> bool:
        a = game.actions[name]
        return a.param is not None or a.cost is not None or any(
            isinstance(st, (A.ChooseStmt, A.GainStmt)) or (isinstance(st, A.DoStmt) and
                                                           st.optional)
            for st in _statements(a.effect))

    if further:
        done = reach(game, blocks + [game.actions[n].effect for n in named if n in game.actions])
        named |= {n for n in done if facing(n)}
    return [n for n in game.actions if n in named]


def _action_line(doc, a) -> str:
    """`“Buy a card” — Pay 3 coins. · Gain 1 point.`: the action's name, its price and
    every payment and gain its effect says (its own statements, not the actions it does)."""
    say = doc.say
    parts = []
    if a.cost is not None:
        parts.append(say.sentence(doc.cost(a.cost)))
    for st in _statements(a.effect):
        if isinstance(st, A.GainStmt):
            parts.append(say.stmt(st, 0)[0].text)
    head = format(say.term(a.name), "quote")
    return head if not parts else f"{head} — " + " · ".join(dict.fromkeys(parts))


def _statements(block):
    from .prose.sentences import _statements as statements

    return statements(block)


# ---------------------------------------------------------------- the page
def _lines(text: str, width: int) -> list[str]:
    return AC.wrap_words(text, width)


# about how tall a row is, in points: a heading, a line of text, a row of boxes
HEADING_PT, LINE_PT, BOXES_PT = 22, 11, 24


def _section_rows(section: Section, width: int, changed_word: str) -> list[tuple[str, int]]:
    """The section's rows, each with about how tall it is (to share them between columns)."""
    rows = [(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT" CELLPADDING="4"><FONT POINT-SIZE="{HEAD}"><B>'
             f'{h(section.heading)}</B></FONT></TD></TR>', HEADING_PT)]
    for depth, text, changed in section.lines:
        indent = "    " * depth
        lines = _lines(text, width - 4 * depth)
        body = '<BR ALIGN="LEFT"/>'.join(h(indent + line) if i == 0 else h(indent + "  " + line)
                                         for i, line in enumerate(lines))
        colour = f' COLOR="{CHANGED}"' if changed else ""
        mark = "✎ " if changed and section.heading != changed_word else ""
        rows.append((f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="{BODY}"{colour}>'
                     f'{h(mark)}{body}</FONT></TD></TR>', LINE_PT * len(lines) + 3))
    return rows


def _turn_rows(aid: Aid, width: int) -> list[tuple[str, int]]:
    """Each turns step as a strip of boxes: the turns, then the actions (one of them), the free
    actions and the automa's (with how tall each row is, as `_section_rows`)."""
    w = WORDS[aid.lang]
    rows = [(f'<TR><TD ALIGN="LEFT" CELLPADDING="4"><FONT POINT-SIZE="{HEAD}"><B>{h(w["turn"])}'
             '</B></FONT></TD></TR>', HEADING_PT)]
    for label, strip in aid.turns:
        head = strip[0][1]
        if label:
            rows.append((f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="{BODY}"><I>{h(label)}</I>'
                         f'</FONT></TD></TR>', LINE_PT + 3))
        lines = _lines(head, width)
        rows.append((f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="{BODY}">'
                     + '<BR ALIGN="LEFT"/>'.join(h(x) for x in lines) + '</FONT></TD></TR>',
                     LINE_PT * len(lines) + 3))
        boxes = strip[1:]
        line: list = []
        used = 0
        groups = []
        for k, t in boxes:  # as many boxes a row as the column is wide
            size = len(t) + 8
            if line and used + size > width:
                groups.append(line)
                line, used = [], 0
            line.append((k, t))
            used += size
        if line:
            groups.append(line)
        for group in groups:
            cells = []
            for i, (k, t) in enumerate(group):
                if i:  # `or` between actions (take one of them); a gap before the others
                    sep = w["or"] if k == "action" and group[i - 1][0] == "action" else " "
                    cells.append(f'<TD BORDER="0"><FONT POINT-SIZE="{BODY}">{h(sep)}</FONT></TD>')
                style = ' STYLE="ROUNDED,DASHED"' if k == "free" else ' STYLE="ROUNDED"'
                bg = {"action": "#e3f3e6", "free": "#f4faf5", "automa": "#fffbe6"}[k]
                cells.append(f'<TD BORDER="1"{style} BGCOLOR="{bg}" CELLPADDING="3">'
                             f'<FONT POINT-SIZE="{BODY}">{h(t)}</FONT></TD>')
            rows.append(('<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="2" CELLPADDING="1">'
                         f'<TR>{"".join(cells)}</TR></TABLE></TD></TR>', BOXES_PT))
    return rows


def _column(rows: list[tuple[str, int]]) -> str:
    return ('<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(r for r, _ in rows)
            + "</TABLE>")


def aid_dot(aid: Aid, paper: str = "a4", columns: int = 1, fixed: bool = True) -> str:
    """The page as DOT: one node whose label is a table of the paper's size (or, fixed=False,
    of its content's size: how the layout is measured)."""
    if paper not in PAPERS:
        raise UsageError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    inner = pw - 2 * MARGIN
    col_w = inner if columns == 1 else (inner - 12) // 2
    chars = int(col_w / (BODY * 0.68))  # the average width of a character (DejaVu Sans, which
    #                                    Graphviz draws Helvetica with): about 0.6 of its size
    w = WORDS[aid.lang]
    secs = [_section_rows(s, chars, w["changes"]) for s in aid.sections]
    turn = _turn_rows(aid, chars) if aid.turns else []
    rows = secs[0] + turn + [row for sec in secs[1:] for row in sec]  # in reading order
    if columns == 1:
        body = f'<TR><TD ALIGN="LEFT" VALIGN="TOP">{_column(rows)}</TD></TR>'
    else:
        # as a newspaper: the rows flow down the left column, then the right one, split where
        # half the height is reached (a heading goes with what follows it)
        half, at, split = sum(t for _, t in rows) / 2, 0, len(rows)
        for i, (_, tall) in enumerate(rows):
            if at + tall > half:
                split = i
                break
            at += tall
        heads = {id(sec[0]) for sec in secs + [turn] if sec}
        while 0 < split < len(rows) and id(rows[split - 1]) in heads:
            split -= 1
        body = (f'<TR><TD ALIGN="LEFT" VALIGN="TOP" WIDTH="{col_w}">{_column(rows[:split])}</TD>'
                f'<TD ALIGN="LEFT" VALIGN="TOP" WIDTH="{col_w}">{_column(rows[split:])}</TD></TR>')
    title_lines = _lines(aid.title, int(inner / (TITLE * 0.68)))
    title = (f'<TR><TD ALIGN="LEFT" BALIGN="LEFT" COLSPAN="{columns}"><FONT POINT-SIZE="{TITLE}">'
             f'<B>{"<BR/>".join(h(x) for x in title_lines)}</B></FONT><BR ALIGN="LEFT"/>'
             f'<FONT POINT-SIZE="{BODY}" COLOR="#555555">{h(aid.subtitle)}</FONT></TD></TR>')
    size = f' FIXEDSIZE="TRUE" WIDTH="{pw}" HEIGHT="{ph}"' if fixed else ""
    page = (f'<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="{MARGIN}"{size}><TR><TD '
            f'VALIGN="TOP" ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="4">{title}{body}</TABLE>'
            f'</TD></TR></TABLE>')
    return ("digraph aid {\n"
            f'  graph [pad="0" margin="0" bgcolor="white" fontname="{FONT}"];\n'
            f'  node [shape=plaintext margin="0" fontname="{FONT}" fontsize="{BODY}"];\n'
            f"  page [label=<{page}>];\n}}\n")


def _natural_size(dot_text: str) -> tuple[float, float]:
    from .render import render_source

    svg = render_source(dot_text, "svg").decode("utf-8")
    m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    return float(m.group(1)), float(m.group(2))


def aid_source(game, lang: str = "en", paper: str = "a4") -> str:
    """The aid's DOT: the first layout (one column, then two; every action a player meets, then
    only those of the turns and the flow's steps) whose content fits the page."""
    if paper not in PAPERS:
        raise UsageError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    sizes = []
    # every action a player meets, else (too long for the page) those of the turns and steps
    for further in (True, False):
        aid = build_aid(game, lang, further)
        for columns in (1, 2):
            width, height = _natural_size(aid_dot(aid, paper, columns, fixed=False))
            sizes.append((width, height))
            if width <= pw + 0.5 and height <= ph + 0.5:
                return aid_dot(aid, paper, columns)
    raise UsageError(f"{game.name}: the player aid does not fit one {paper} page at {BODY} pt "
                     f"(two columns take {sizes[-1][0]:.0f} × {sizes[-1][1]:.0f} pt)")


def render_aid(game, fmt: str = "pdf", lang: str = "en", paper: str = "a4") -> bytes:
    from .render import render_source

    if fmt not in ("pdf", "svg", "png", "dot"):
        raise UsageError(f"unknown format {fmt!r} for an aid; expected pdf, svg, png or dot")
    return render_source(aid_source(game, lang, paper), fmt)
