"""The rulebook concordance as one HTML page (`meeplang cite --html`): each rule beside the lines
of each rulebook it cites, side by side, with what checking them found; then each book's lines
no rule cites. The frame and escaping are the report page's (visualizer/report.py)."""
from __future__ import annotations

from .report import CSS, _e

PAGE_CSS = """
td.rule { width: 24%; } td.book { width: 38%; }
.line { display: block; } .n { color: #777; font-size: .8rem; margin-right: .4rem; }
.finding { color: #d62728; display: block; } .unchecked { color: #777; font-style: italic; }
"""
BOOK_NAMES = {"fr": "FR", "en": "EN"}


def concordance_html(conc) -> str:
    """The page of a dsl.concordance.Concordance."""
    langs = list(conc.books)
    head = "".join(f"<th>{_e(BOOK_NAMES.get(lang, lang.upper()))} · {_e(conc.books[lang][0])}</th>"
                   for lang in langs)
    rows = []
    for row in conc.rows:
        cells = []
        for lang in langs:
            parts = []
            for c in row.cited:
                if c.citation.book != lang:
                    continue
                parts.append(f"<b>{_e(c.citation.label())}</b> <span class=\"key\">"
                             f"{_e(str(c.citation.pos))}</span>")
                if not c.checked:
                    parts.append(f'<span class="unchecked">{len(c.lines)} lines: a section, '
                                 "not checked line by line</span>")
                shown = c.lines if c.checked else c.lines[:2]
                parts += [f'<span class="line"><span class="n">{n}</span>{_e(t)}</span>'
                          for n, t in shown]
                parts += [f'<span class="finding">{_e(f.kind)}: {_e(f.message)}</span>'
                          for f in c.findings]
            cells.append(f'<td class="book">{"".join(parts)}</td>')
        code = "".join(f"<code>{_e(line)}</code><br>" for line in row.code)
        cross = "".join(f'<span class="finding">{_e(f.kind)}: {_e(f.message)}</span>'
                        for f in row.findings)
        rows.append(f'<tr><td class="rule"><b>{_e(row.rule or "(the file)")}</b><br>'
                    f'<span class="key">{_e(row.where)}</span><br>{code}{cross}</td>'
                    f'{"".join(cells)}</tr>')
    coverage = []
    for lang, v in conc.coverage.items():
        spans = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in v["uncited"])
        coverage.append(f"<h3>{_e(BOOK_NAMES.get(lang, lang))}: {v['cited']} of {v['lines']} "
                        f"lines of text cited</h3><p>Not cited: l.{_e(spans) or '-'}</p>")
    n = len(conc.findings)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(conc.game)}: rulebook concordance</title>
<link rel="icon" href="data:,">
<style>{CSS}{PAGE_CSS}</style>
</head>
<body>
<header>
<h1>{_e(conc.game)}: rulebook concordance</h1>
<p class="meta">{len(conc.rows)} rules cite the rulebooks · {n} finding{"s" if n != 1 else ""}</p>
</header>
<main>
<h2>Rules and the lines they cite</h2>
<table>
<tr><th>Rule</th>{head}</tr>
{chr(10).join(rows)}
</table>
<h2>Coverage</h2>
{"".join(coverage)}
</main>
</body>
</html>
"""
