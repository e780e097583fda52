"""`meeplang report`: one static HTML page per game (no scripts, no outside resources): title,
summary, the flowchart as inline SVG, and tables of options, counters, zones, items, actions,
tables (with the rules that read them), actions (with their limits), triggers and scoring, all
read from the Game model. A variant's page starts with what it changes from its base game, and
marks those entries (✎) and the rules reading a changed table."""
from __future__ import annotations

import html
import json
from pathlib import Path

from meeplang.dsl.atomic import write_files
from meeplang.dsl.diff import changed_parts
from meeplang.dsl.model import PhaseStep, TurnsStep, member_name

from . import analysis as AN
from .dot import DETAILS, when_text
from .labels import UI, Words, expr, shorten
from .rule_text import RuleCode, limit_text, rule_text
from .render import inline_svg, render

CSS = """
:root { color-scheme: light; }
body { font-family: Helvetica, Arial, "Liberation Sans", sans-serif; margin: 0; color: #222;
       background: #fff; line-height: 1.4; }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 1.2rem; }
header { padding-top: 1.2rem; border-bottom: 1px solid #ddd; }
h1 { margin: 0 0 .2rem; font-size: 1.8rem; }
h2 { margin: 1.8rem 0 .6rem; font-size: 1.3rem; border-bottom: 1px solid #eee; }
h3 { margin: 1.2rem 0 .4rem; font-size: 1.05rem; }
.summary { font-size: 1.1rem; margin: .3rem 0 .6rem; }
.meta { color: #555; margin: 0 0 1rem; }
figure { margin: 0; overflow-x: auto; border: 1px solid #eee; border-radius: 6px; padding: .5rem; }
figure svg { max-width: 100%; height: auto; display: block; margin: 0 auto; }
table { border-collapse: collapse; margin: .3rem 0 1rem; width: 100%; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
code, pre { font-family: "Courier New", Courier, "Liberation Mono", monospace; font-size: .88rem; }
pre { margin: 0; white-space: pre-wrap; }
.prose { white-space: pre-wrap; }
.key { color: #777; font-size: .85rem; }
.changed { color: #d62728; font-weight: bold; }
#changes { border-left: 4px solid #d62728; padding-left: .8rem; }
footer { max-width: 1100px; margin: 2rem auto 1rem; padding: 0 1.2rem; color: #777;
         font-size: .85rem; }
"""


def _e(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def _code(text) -> str:
    return f"<code>{_e(text)}</code>" if text not in (None, "") else ""


def summary_text(game, lang: str) -> str:
    """The game's summary in lang (English when that language is missing)."""
    return game.summary.get(lang) or game.summary.get("en") or ""


def _table(headers, rows) -> str:
    if not rows:
        return ""
    head = ("<thead><tr>" + "".join(f"<th>{_e(h[:1].upper() + h[1:])}</th>" for h in headers)
            + "</tr></thead>"
            if headers else "")
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>{head}<tbody>{body}</tbody></table>"


def _name(w: Words, key: str) -> str:
    label = w.term(key)
    extra = f' <span class="key">{_e(key)}</span>' if label != key else ""
    return f"{_e(label)}{extra}"


def _offered_in(game, w: Words) -> dict:
    """action -> the phases whose turns steps offer it."""
    out: dict[str, list[str]] = {}

    def visit(steps, phase):
        for s in steps:
            here = s.name if isinstance(s, PhaseStep) else phase
            if isinstance(s, TurnsStep):
                for a in (*s.actions, *s.free_actions, *(getattr(s, "automa_actions", ()) or ())):
                    label = w.term(here) if here else w.ui("turns")
                    if label not in out.setdefault(a, []):
                        out[a].append(label)
            for attr in ("steps", "other"):
                visit(getattr(s, attr, ()) or (), here)

    visit(game.flow, None)
    return out


def _range(lo, hi) -> str:
    if lo is None and hi is None:
        return ""
    return f"{'' if lo is None else lo} … {'' if hi is None else hi}"


def _changed_mark(changed: dict, entry: str, tables=()) -> str:
    """A red ✎ with what changed, after the name of an entry a variant changed."""
    what = changed.get(entry, []) + [t for t in tables if f"tables.{t}" in changed]
    if entry not in changed and not what:
        return ""
    return f' <span class="changed">✎ {_e(", ".join(what))}</span>'


def _data(value, width: int = 80) -> str:
    """Data as JSON, rule text as written, '—' where absent; cut to width."""
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _code(shorten(text, width))


def build_html(game, svg_text: str, lang: str = "en", changes=(), text: str = "prose",
               extras=None) -> str:
    """The page; `extras`: the charts and aids written beside it, as {"charts": [(href, title,
    changed)], "aids": [(href, label)]} (see `write_extras`)."""
    """The page; `changes` (meeplang.dsl.diff, a variant's changes from its base) are listed and marked;
    rules are said as sentences in `lang` (`text="rules"`: as rule code)."""
    changed = changed_parts(changes)
    w = Words(game, lang)
    ui = w.ui
    rt = rule_text(game, w, text)

    def said(e) -> str:  # an expression: code in a code font, a sentence as text
        return _code(rt.expr(e)) if isinstance(rt, RuleCode) else _e(rt.expr(e))

    def rules(block) -> str:
        tag = "pre" if isinstance(rt, RuleCode) else 'div class="prose"'
        return f"<{tag}>{_e(chr(10).join(rt.block(block, 10_000, 100)))}</{tag.split()[0]}>"
    title = w.title() + (f" ({ui('variant_of')} {game.variant})" if game.variant else "")
    summary = summary_text(game, lang)
    players = (f"{game.min_players}" if game.min_players == game.max_players
               else f"{game.min_players}–{game.max_players}")
    parts = []

    # options
    rows = [[_e(o.name), _code(o.default), _e(_range(o.min, o.max)), _e(o.doc.get(w.lang, ""))]
            for o in game.options.values()]
    opts = _table([ui("name"), ui("default"), ui("range"), ui("doc")], rows)
    if opts:
        parts.append(f"<h3>{_e(ui('options'))}</h3>{opts}")

    # counters
    # a family's members are named by the family's term and their key: "Accounts [hr]"
    counters = [(m, _name(w, c.name) + ("" if k is None else f" [{_e(k)}]"))
                for c in game.counters.values() for k, m in (
        [(None, c)] if c.keys is None
        else [(k, game.counter_members[member_name(c.name, k)]) for k in c.keys])]
    rows = [[name, _e(ui("per_player") if c.per_player else ui("shared")),
             said(c.initial), _e("" if c.min is None else c.min),
             _e("" if c.max is None else c.max), _e(c.overflow)]
            for c, name in counters]
    t = _table([ui("name"), ui("per"), ui("initial"), ui("min"), ui("max"), ui("overflow_col")],
               rows)
    if t:
        parts.append(f"<h3>{_e(ui('counters'))}</h3>{t}")

    # zones
    rows = [[_name(w, z.name), _e(ui("per_player") if z.per_player else ui("shared")),
             _e(z.visibility), said(z.capacity)] for z in game.zones.values()]
    t = _table([ui("name"), ui("per"), ui("visibility"), ui("capacity")], rows)
    if t:
        parts.append(f"<h3>{_e(ui('zones'))}</h3>{t}")

    # items
    rows = []
    for k in game.items.values():
        table = getattr(k, "source_table", None)
        if table:
            data = game.tables.get(table)
            count = f"{len(data)} ({table})" if isinstance(data, (list, tuple, dict)) else table
            count_html = _e(count)
        else:
            count_html = _code(_count_text(game, k.count))
        zone = k.zone or (f"<{getattr(k, 'zone_field', '') or '?'}>")
        fields = ", ".join(f"{f} = {expr(v)}" for f, v in k.fields)
        held = ", ".join(ui(f"held_{what}", w.term(target), expr(amount))
                         for what, target, amount in getattr(k, "while_held", ()))
        rows.append([_name(w, k.name), count_html, _e(w.term(zone) if k.zone else zone),
                     _e(ui("per_player") if k.per_player else ui("shared")), _code(fields),
                     _e(held)])
    t = _table([ui("name"), ui("count"), ui("zone"), ui("per"), ui("fields"), ui("while_held")],
               rows)
    if t:
        parts.append(f"<h3>{_e(ui('items'))}</h3>{t}")
    # tables, and the rules that read them
    readers: dict = {}
    for a in game.actions.values():
        for t in AN.tables_read(game, a.param, a.requires, a.effect):
            readers.setdefault(t, []).append(w.term(a.name))
    for tr in game.triggers:
        for t in AN.tables_read(game, tr.cond, tr.effect):
            readers.setdefault(t, []).append(w.term(tr.name))
    rows = [[_e(name) + _changed_mark(changed, f"tables.{name}"), _data(value),
             _e(", ".join(readers.get(name, [])))] for name, value in game.tables.items()]
    t = _table([ui("name"), ui("value"), ui("read_by")], rows)
    if t:
        parts.append(f"<h3>{_e(ui('tables'))}</h3>{t}")
    rule_tables = sorted({t for t in game.tables if any(
        isinstance(v, str) and v in game.rule_texts for v in _cells(game.tables[t]))})
    if rule_tables:
        parts.append(f"<p>{_e(ui('rule_text', ', '.join(rule_tables)))}</p>")
    components = "".join(parts)

    # actions
    offered = _offered_in(game, w)
    rows = []
    for a in game.actions.values():
        choose = rt.choice(a.param) if a.param is not None else ""
        tables = AN.tables_read(game, a.param, a.requires, a.effect)
        limit = "; ".join(limit_text(rt, lim) for lim in a.limits)
        rows.append([_name(w, a.name) + _changed_mark(changed, f"actions.{a.name}", tables),
                     _e(choose), said(a.requires), _e(limit), _e(", ".join(tables)),
                     _e(", ".join(offered.get(a.name, []))),
                     rules(a.effect)])
    actions = _table([ui("name"), ui("choose"), ui("requires"), ui("limit_col"), ui("tables"),
                      ui("offered_in"), ui("effect")], rows)

    # triggers
    rows = [[_name(w, t.name) + _changed_mark(changed, f"triggers.{t.name}",
                                              AN.tables_read(game, t.cond, t.effect)),
             _e(when_text(w, t, rt)), said(t.cond), rules(t.effect)] for t in game.triggers]
    triggers = _table([ui("name"), ui("when"), ui("condition"), ui("effect")], rows)

    # scoring
    sc = game.scoring
    rows = []
    if sc is not None:
        rows.append([_e(ui("score")), said(sc.score)])
        if sc.tie_break:
            rows.append([_e(ui("tie_break")), ", ".join(said(t) for t in sc.tie_break)])
        if sc.winners is not None:
            rows.append([_e(ui("winners")), said(sc.winners)])
    scoring = _table(None, rows)

    variants = ""
    if game.variants:
        items = "".join(f"<li><code>{_e(game.name)}:{_e(v)}</code> — {_e(t)}</li>"
                        for v, t, _ in game.variants)
        variants = f"<h3>{_e(ui('variants'))}</h3><ul>{items}</ul>"

    rows = [[_code(c.path), _data(c.before, 60), _data(c.after, 60),
             _e(" → ".join(x or "—" for x in c.where))] for c in changes]
    change_table = _table([ui("name"), ui("before"), ui("after"), ui("where")], rows)
    sections = [f'<section id="changes"><h2>{_e(ui("changes"))}</h2>{change_table}</section>'
                ] if change_table else []
    sections += [
        f'<section id="flowchart"><h2>{_e(ui("flowchart"))}</h2>'
        f"<figure>{inline_svg(svg_text)}</figure></section>",
        f'<section id="components"><h2>{_e(ui("components"))}</h2>{components}{variants}'
        "</section>",
    ]
    if actions:
        sections.append(f'<section id="actions"><h2>{_e(ui("actions"))}</h2>{actions}</section>')
    if triggers:
        sections.append(f'<section id="triggers"><h2>{_e(ui("triggers"))}</h2>{triggers}'
                        "</section>")
    if scoring:
        sections.append(f'<section id="scoring"><h2>{_e(ui("scoring"))}</h2>{scoring}</section>')
    if extras and (extras.get("charts") or extras.get("aids")):
        links = "".join(
            f'<li><a href="{_e(href)}">{_e(title)}</a>'
            f'{" <span class=changed>✎</span>" if changed else ""}</li>'
            for href, title, changed in extras.get("charts", ()))
        aids = " · ".join(f'<a href="{_e(href)}">{_e(label)}</a>'
                          for href, label in extras.get("aids", ()))
        sections.append(
            f'<section id="charts"><h2>{_e(ui("charts"))}</h2><p>{_e(ui("charts_intro"))}</p>'
            + (f'<p>{UI[lang]["colon"].format(_e(ui("aid")), aids)}</p>' if aids else "")
            + f"<ul>{links}</ul></section>")

    return f"""<!DOCTYPE html>
<html lang="{_e(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<link rel="icon" href="data:,">
<style>{CSS}</style>
</head>
<body>
<header>
<h1>{_e(title)}</h1>
{f'<p class="summary">{_e(summary)}</p>' if summary else ''}
<p class="meta">{_e(w.field('players', players))} · <code>{_e(game.name)}</code> · {_e(ui('rules'))} {_e(game.rules_hash[:12])}</p>
</header>
<main>
{chr(10).join(sections)}
</main>
<footer>{_e(ui('generated'))}</footer>
</body>
</html>
"""


def _count_text(game, e) -> str:
    from meeplang.dsl import ast as A

    text = expr(e)
    if isinstance(e, A.Name) and e.name in game.options:
        return f"{text} ({game.options[e.name].default})"
    return text


def write_report(game, folder, detail: str = "actions", lang: str = "en",
                 text: str = "prose", charts: bool = True) -> Path:
    """Write folder/index.html (and, with `charts`, the rules' flowcharts and the player aid
    beside it); returns its path."""
    if detail not in DETAILS:
        from meeplang.dsl.errors import UsageError

        raise UsageError(f"unknown detail {detail!r}; expected one of {', '.join(DETAILS)}")
    from meeplang.dsl.diff import changes_from_base

    changes = changes_from_base(game)
    svg_text = render(game, "svg", detail, lang, changes, text).decode("utf-8")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    files, extras = extra_files(game, folder, lang, changes) if charts else ([], None)
    index = folder / "index.html"
    if files:
        (folder / "charts").mkdir(exist_ok=True)
    # the page first (a failure names it), all or nothing: the old files stay as they were
    write_files([(index, build_html(game, svg_text, lang, changes, text, extras))] + files)
    return index


def extra_files(game, folder: Path, lang: str, changes) -> tuple[list, dict]:
    """What goes beside the page: every flowchart of the rules in `charts/` (a variant's changes
    marked) and the player aid on A4 and US Letter (when it fits its page), as (path, bytes)
    pairs, and the links the page shows."""
    from meeplang.dsl.errors import UsageError

    from . import activity as AC
    from .aid import render_aid

    charts = AC.all_charts(game, lang)
    if changes:
        AC.mark_changes(charts, changes, lang)
    files, out = [], {"charts": [], "aids": []}
    for chart in charts:
        files.append((folder / "charts" / f"{chart.stem}.svg",
                      AC.render_chart(chart, "svg", game)))
        out["charts"].append((f"charts/{chart.stem}.svg", chart.title, bool(chart.changes)))
    for paper in ("a4", "letter"):
        try:
            data = render_aid(game, "pdf", lang, paper)
        except UsageError:  # it does not fit the page: no aid rather than a shrunk one
            continue
        files.append((folder / f"aid-{paper}.pdf", data))
        out["aids"].append((f"aid-{paper}.pdf", Words(game, lang).ui(f"aid_{paper}")))
    return files, out


def _cells(data):
    """Every value of a table, inside its lists and mappings."""
    if isinstance(data, dict):
        for v in data.values():
            yield from _cells(v)
    elif isinstance(data, list):
        for v in data:
            yield from _cells(v)
    else:
        yield data
