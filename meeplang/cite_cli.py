"""`meeplang cite GAME[:VARIANT] --rulebook fr=FILE [--rulebook en=FILE] [--json] [--html FILE]`:
each rule beside the rulebook lines it cites, checked against them (dsl/concordance.py)."""
from __future__ import annotations

import json
from pathlib import Path

BOOK_LANGS = ("fr", "en")
WIDTH = 160  # a book's line is cut here in the text output (--json and --html keep it whole)


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "cite", help="each rule beside the rulebook lines it cites, checked against them",
        description="Line up each rule with the rulebook lines its comments cite (`# FR l.418`), "
                    "show them side by side, and check each cited line against the rule: its "
                    "numbers, comparisons (at least, more than), modality (may, must) and the "
                    "game's terms; compare the French and English lines of the same rule; list "
                    "the lines no rule cites. Exit status 0 either way.")
    s.add_argument("game", metavar="GAME[:VARIANT]",
                   help="a bundled game, GAME:VARIANT, a folder or a .yaml file")
    s.add_argument("--variant", action="append", help="a variant of the game (same as "
                   "GAME:VARIANT); give it again to stack another (applied in order)")
    s.add_argument("--rulebook", action="append", required=True, metavar="LANG=FILE",
                   help="a rulebook as plain text, by its language: fr=regles.txt, en=rules.txt")
    s.add_argument("--json", action="store_true", help="print the concordance as one JSON object")
    s.add_argument("--html", metavar="FILE", help="also write it as a side-by-side HTML page")
    s.add_argument("--findings", action="store_true",
                   help="show only the rules whose lines something was found in")
    s.set_defaults(func=cmd_cite)


def read_books(specs) -> dict:
    from meeplang.dsl.errors import LoadError, UsageError, pos_at_index

    books = {}
    for spec in specs:
        lang, eq, file = spec.partition("=")
        if not eq or lang not in BOOK_LANGS or not file:
            raise UsageError(f"--rulebook {spec}: expected LANG=FILE with LANG one of "
                             f"{', '.join(BOOK_LANGS)}")
        if lang in books:
            raise UsageError(f"--rulebook {spec}: a second {lang} rulebook")
        raw = Path(file).read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LoadError("the rulebook is not valid UTF-8 text",
                            pos_at_index(file, raw, exc.start)) from None
        books[lang] = (file, text)
    return books


def cmd_cite(args) -> int:
    from meeplang.dsl.concordance import concordance
    from meeplang.dsl.loader import load_source
    from meeplang.dsl.resolve import load_game

    from .arguments import check_writable, split_target

    books = read_books(args.rulebook)
    if args.html:
        check_writable(args.html, "--html")
    target = split_target(args.game, args.variant)
    game = load_game(*target)
    conc = concordance(load_source(*target), game, books)
    if args.html:
        from meeplang.dsl.atomic import write_file
        from meeplang.visualizer.concordance_page import concordance_html

        write_file(args.html, concordance_html(conc))  # the old page or the new, never half
    if args.json:
        print(json.dumps(conc.as_json(), indent=2, ensure_ascii=False))
        return 0
    for line in text_lines(conc, args.findings):
        print(line)
    return 0


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= WIDTH else text[:WIDTH - 1] + "…"


def text_lines(conc, only_findings: bool = False) -> list[str]:
    out = []
    for row in conc.rows:
        found = [f for c in row.cited for f in c.findings] + list(row.findings)
        if only_findings and not found:
            continue
        out.append(f"{row.rule or '(the file)'}   {row.where}")
        out += [f"  | {_cut(code)}" for code in row.code]
        for c in row.cited:
            label = c.citation.label()
            if c.citation.book not in conc.books:
                out.append(f"  {label}  (no {c.citation.book} rulebook given)")
                continue
            if not c.checked:
                out.append(f"  {label}  ({len(c.lines)} lines: a section, not checked line by "
                           "line)")
                continue
            for n, text in c.lines:
                out.append(f"  {c.citation.book.upper()} {n:>5}  {_cut(text)}")
            out += [f"  ! {f.kind}: {f.message}" for f in c.findings]
        out += [f"  ! {f.kind}: {f.message}" for f in row.findings]
        out.append("")
    for lang, v in conc.coverage.items():
        share = 100 * v["cited"] // v["lines"] if v["lines"] else 0
        spans = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in v["uncited"])
        out.append(f"{lang.upper()} coverage: {v['cited']} of {v['lines']} lines of text cited "
                   f"({share}%); {v['lines'] - v['cited']} not cited: l.{spans or '-'}")
    for lang, n in sorted(conc.unchecked.items()):
        out.append(f"{n} citation{'s' if n != 1 else ''} of the {lang.upper()} rulebook, not given")
    checked = sum(len(c.lines) for r in conc.rows for c in r.cited if c.checked)
    n = len(conc.findings)
    out.append(f"{len(conc.rows)} rules cite the rulebooks; {checked} cited lines checked; "
               f"{n} finding{'s' if n != 1 else ''}")
    return out
