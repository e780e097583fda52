"""The rulebook concordance (`meeplang cite`): each rule beside the rulebook lines it cites
(dsl/citations.py), and each cited line checked against the rule's own syntax tree.

What is checked, in each language's words:
- numbers: the digits of a line (money too: `$5`, `5 $`), its number words (`trois`, `three`,
  `une fois`, `twice`) and both ends of its ranges (`2-4`, `2 à 4`) must be numbers of the rule:
  its literals, the data it writes, the length of its lists, and the values of the tables,
  options and counters it names (a number said as "reculer de trois cases" matches -3);
- comparisons: "au moins"/"at least" is ≥ or ≤, "plus de"/"more than" is > or <; a line whose
  comparison is strict while the rule's are not (or the reverse) is flagged;
- modality: a line that says the player may ("peut", "may") beside a rule that leaves no choice,
  or must ("doit", "must") beside a rule that is only a `may do`;
- terms: a line cited by a term (or by a rule with a term) should say the term's word;
- the two books: where one comment cites both (`EN l.278; FR l.267`), the numbers, modality
  and comparisons of its French lines against its English lines.
A citation of more than CHECKED_LINES lines cites a section: it counts for coverage and is shown,
but not checked line by line. Coverage lists the lines of each book that no citation reaches.
"""
from __future__ import annotations

import re
import unicodedata

import attrs

from . import ast as A
from .citations import Citation, read, rules
from .yamlpos import YList, YMap, YStr

FOCUSED = 1  # a line saying one number speaks of one rule
CHECKED_LINES = 6  # a longer range cites a section: shown, counted, not checked line by line
TEXT_KEYS = {"terms", "title", "summary", "doc", "meeplang", "variant", "extends", "game", "sample"}

NUMBER_WORDS = {
    "en": {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
           "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
           "hundred": 100, "once": 1, "twice": 2, "single": 1},
    "fr": {"zéro": 0, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
           "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13,
           "quatorze": 14, "quinze": 15, "seize": 16, "dix-sept": 17, "dix-huit": 18,
           "dix-neuf": 19, "vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50,
           "cent": 100},
}
# "un"/"une" are articles: they count as 1 only where they are a number
ONE_FR = re.compile(r"\b(une fois|un seul|une seule)\b", re.I)
_WORDS_EN = "one|two|three|four|five|six|seven|eight|nine|ten"
_WORDS_FR = "une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix"
# a comparison under a negation says its opposite: « jamais inférieur à 0 » is ≥ 0
NEGATION = {"en": r"\b(?:never|not|cannot|can't|no more than|no less than)\b",
            "fr": r"\b(?:ne|n')\s*\w+\s+(?:pas|jamais)\b|\bjamais\b"}
FLIP = {">": "≤", "<": "≥", "≥": "<", "≤": ">"}
COMPARISONS = {
    "en": [(r"\bat least\b|\bor more\b", "≥"),
           (rf"\bat most\b|\bor (?:less|fewer)\b|\bup to (?:\d|{_WORDS_EN})", "≤"),
           (r"\bmore than\b|\bgreater than\b", ">"), (r"\b(?:less|fewer) than\b", "<")],
    "fr": [(r"\bau moins\b|\bou plus\b|\batteint ou dépasse|\bsupérieure?s? ou égale?|"
            r"\bégale?s? ou supérieure?", "≥"),
           (rf"\bau plus\b|\bau maximum\b|\bou moins\b|\bjusqu'à (?:\d|{_WORDS_FR})|"
            r"\binférieure?s? ou égale?|\bégale?s? ou inférieure?", "≤"),
           # « le plus de points » is the most, not more than
           (r"(?<!le )(?<!la )(?<!les )\bplus de\b|\bsupérieure?s?\b(?! ou égal)", ">"),
           (r"(?<!le )(?<!la )(?<!les )\bmoins de\b|\binférieure?s?\b(?! ou égal)", "<")],
}
STRICT = {">": True, "<": True, "≥": False, "≤": False}
RULE_OPS = {">": ">", "<": "<", ">=": "≥", "<=": "≤"}
MAY = {"en": r"\b(?:may|can|could|optional(?:ly)?|choose to|if (?:you|they) (?:want|wish))\b",
       "fr": r"\b(?:peu[xt]|peuvent|pouvez|pourra[si]?|pourrez|pourront|facultati\w*|"
             r"si (?:tu le souhaites|vous le souhaitez))\b"}
MUST = {"en": r"\b(?:must|have to|has to|required|mandatory|shall)\b",
        "fr": r"\b(?:doi[st]|doivent|devez|devra[si]?|devrez|devront|obligatoire\w*|il faut)\b"}
NOT_ALLOWED = {"en": r"\b(?:cannot|can't|can ?not|may not|must not|mustn't)\b",
               "fr": r"\bne (?:\w+ )?(?:peu\w*|pourr\w*|doi\w*|dev\w*) (?:pas|plus|jamais)\b"}
STOP = {"the", "and", "with", "from", "your", "their", "card", "cards", "les", "des", "une",
        "avec", "pour", "dans", "sur", "ton", "ta", "tes", "vos", "votre", "leur", "qui", "que"}


@attrs.frozen
class Finding:
    kind: str  # number, comparison, modality, term, books (French against English), range
    message: str
    book: str  # "fr", "en", or "fr-en"
    cites: str  # the citation's label (`FR l.418`), or both books' for a book-to-book finding

    def as_json(self) -> dict:
        return {"kind": self.kind, "book": self.book, "cites": self.cites, "message": self.message}


@attrs.frozen
class Cited:
    """One citation with the book's lines it cites and what checking them found."""

    citation: Citation
    lines: tuple  # ((number, text), ...); () when its book was not given
    checked: bool
    findings: tuple


@attrs.frozen
class Row:
    """A rule and every citation of it."""

    rule: str
    where: str
    code: tuple  # the lines the citations annotate, as written
    cited: tuple  # Cited, ...
    findings: tuple  # between the two books


@attrs.frozen
class Concordance:
    game: str
    books: dict  # lang -> (file name, number of lines)
    rows: tuple
    coverage: dict  # lang -> {"lines": n, "cited": n, "uncited": ((lo, hi), ...)}
    unchecked: dict  # lang -> citations of a book not given

    @property
    def findings(self) -> list:
        return [f for r in self.rows for c in r.cited for f in c.findings] + \
            [f for r in self.rows for f in r.findings]

    def as_json(self) -> dict:
        return {
            "game": self.game,
            "rulebooks": {lang: {"file": f, "lines": n} for lang, (f, n) in self.books.items()},
            "rules": [{
                "rule": r.rule, "where": r.where, "code": list(r.code),
                "citations": [{
                    "cites": c.citation.label(), "book": c.citation.book,
                    "where": str(c.citation.pos), "annotates": c.citation.code,
                    "lines": [{"line": n, "text": t} for n, t in c.lines],
                    "checked": c.checked, "findings": [f.as_json() for f in c.findings]}
                    for c in r.cited],
                "findings": [f.as_json() for f in r.findings]} for r in self.rows],
            "findings": len(self.findings),
            "cited_lines": sum(len(c.lines) for r in self.rows for c in r.cited if c.checked),
            "coverage": {lang: {"lines": v["lines"], "cited": v["cited"],
                                "uncited": [list(p) for p in v["uncited"]]}
                         for lang, v in self.coverage.items()},
        }


# ---------------------------------------------------------------- the book's side
def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace("\u2019", "'").lower()


_REFS = re.compile(r"§\s*\d+(?:\.\d+)*|(?:\bl\.|\bp\.|\bpages?|\bn°)\s*\d+(?:\s*(?:[-–]|à|to)\s*\d+)?")
_LABELS = re.compile(r"\b(?:zones?|phases?|levels?|niveaux?|steps?|étapes?|chapters?|chapitres?|"
                     r"rooms?|salles?|buildings?|bâtiments?)\s+[\"'«]?\s*\d+[\"'»]?"
                     r"(?:\s*(?:,|et|and|or|ou|&)\s*\d+)*")
_DIGITS = re.compile(r"(?<![\w.,§/])(\d+)(?![\w/]|[.,]\d)")


def book_numbers(text: str, lang: str) -> set[int]:
    """The numbers a rulebook line says: digits, money, both ends of ranges, number words."""
    t = _REFS.sub(" ", _fold(text))
    t = re.sub(r"(?m)^\s*[-*•]?\s*\d+\**\s+(?=[^\W\d_])", " ", t)  # a list's marker: `4 Prenez`
    t = _LABELS.sub(" ", t)  # `Zone 2`, `zones 2, 3 et 8`, `level 0`: names, not amounts
    t = re.sub(r"(\d+)\s*[x×]\s*(\d+)", r"\1 \2", t)  # a 3x3 rectangle: 3 by 3
    if lang == "en":  # "the one on the left", "one of them": a pronoun, not a number
        t = re.sub(r"\b(?:the|that|this|each|every|any|no|which)\s+one\b|\bone\s+of\b|"
                   r"\bone another\b", " ", t)
    found = {int(m.group(1)) for m in _DIGITS.finditer(t)}
    words = NUMBER_WORDS[lang]
    for word, value in sorted(words.items(), key=lambda kv: -len(kv[0])):
        pattern = rf"(?<![\w-]){re.escape(word)}(?![\w-])"
        if re.search(pattern, t):
            found.add(value)
            t = re.sub(pattern, " ", t)
    if lang == "fr" and ONE_FR.search(t):
        found.add(1)
    return found


def book_comparisons(text: str, lang: str) -> set[str]:
    t = _fold(text)
    if lang == "fr":  # « il n'a plus de pièces », « tu ne joues plus » : a negation
        t = re.sub(r"\b(?:ne\s+|n')\w+\s+plus\b", " ", t)
    said = {op for pattern, op in COMPARISONS[lang] if re.search(pattern, t)}
    return {FLIP[op] for op in said} if re.search(NEGATION[lang], t) else said


def book_modality(text: str, lang: str) -> set[str]:
    t = re.sub(NOT_ALLOWED[lang], " ", _fold(text))  # "ne peut pas": a prohibition, no "may"
    return ({"may"} if re.search(MAY[lang], t) else set()) | \
        ({"must"} if re.search(MUST[lang], t) else set())


# ---------------------------------------------------------------- the rule's side
@attrs.frozen
class Facts:
    numbers: frozenset
    ops: frozenset  # ≥ ≤ > < (a limit counts as ≤)
    modality: str | None  # "may", "must", or None (data: no one acts)
    data_only: bool  # no rule text: a table, a term, a declaration
    said_may: bool = False  # the rule itself says `may do` (or a choice), not only its action
    own: frozenset = frozenset()  # its own numbers (`numbers` adds the players and the rounds)


def _parse(text: YStr, path: str):
    from .parser import parse_block, parse_expression, parse_param

    for parse in (parse_block, parse_expression, parse_param):
        try:
            return parse(text, path)
        except Exception:  # noqa: BLE001 - not rule text of this kind: try the next, else text
            continue
    return None


def _walk(node, out: list) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(A.children(n))


class _Rule:
    """The facts of the rule a citation annotates, from its YAML value and its syntax trees."""

    def __init__(self, game, values: dict):
        self.game = game
        self.values = values
        # what every rule stands in: the player counts and the flow's repeat counts
        self.context = set(range(game.min_players, game.max_players + 1)) | {
            abs(s.count.value) for s in _steps(game.flow)
            if type(s).__name__ == "RepeatStep" and isinstance(s.count, A.Num)}

    def facts(self, cite: Citation) -> Facts:
        value = self.values.get(cite.rule)
        numbers: set = set()
        trees: list = []
        top = cite.rule.split(".")[0].split("[")[0]
        text_only = top in TEXT_KEYS
        if not text_only and value is not None:
            self._collect(value, cite, numbers, trees)
        nodes: list = []
        for t in trees:
            _walk(t, nodes)
        ops = {RULE_OPS[n.op] for n in nodes if isinstance(n, A.Compare) and n.op in RULE_OPS}
        if isinstance(value, YMap) and ("limit" in value or "times" in value) or \
                cite.rule.endswith(".limit") or ".limit." in cite.rule:
            ops.add("≤")
        for n in nodes:
            if isinstance(n, A.Num):
                numbers.add(abs(n.value))
            elif isinstance(n, A.Name):
                numbers |= self._named(n.name)
        statements = [n for n in nodes if type(n).__name__.endswith("Stmt")]
        optional = any(isinstance(n, A.DoStmt) and (n.optional or n.mode == "any of")
                       for n in nodes)  # whether to act; a `choose` is which, not whether
        chooses = any(isinstance(n, (A.ChooseStmt, A.SecretChooseStmt)) for n in nodes)
        if top == "actions" or "free_actions" in cite.rule or optional or chooses:
            modality = "may"
        elif statements and top != "tables":  # a table's rule text runs when a rule does it
            modality = "must"
        else:
            modality = None
        return Facts(frozenset(numbers | (self.context if numbers else set())), frozenset(ops),
                     modality, not trees, optional, frozenset(numbers))

    def _collect(self, value, cite: Citation, numbers: set, trees: list) -> None:
        if isinstance(value, YStr) and cite.code_line and value.style in ("|", ">") and \
                value.pos.line < cite.code_line:
            tree = _parse(value, value.pos.path)
            if tree is not None:  # a line of rule text: that line's statements
                on_line = [n for n in _nodes(tree) if getattr(n, "pos", None) is not None
                           and n.pos.line == cite.code_line]
                trees.extend(on_line or [tree])
            return
        self._subtree(value, numbers, trees, cite.code_line, cite.rule)

    def _subtree(self, value, numbers: set, trees: list, line: int, path: str) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int):
            numbers.add(abs(value))
        elif isinstance(value, YStr):
            tree = _parse(value, value.pos.path) if not _is_name(value) else None
            if tree is not None:
                trees.append(tree)
            elif _is_name(value):
                numbers |= self._named(str(value))
        elif isinstance(value, YMap):
            for k, v in value.items():
                if str(k) not in TEXT_KEYS:
                    self._subtree(v, numbers, trees, line, path)
        elif isinstance(value, YList):
            numbers.add(len(value))
            for v in value:
                self._subtree(v, numbers, trees, line, path)

    def _named(self, name: str) -> set:
        """The numbers a name stands for: a table's values, an option's, a counter's bounds."""
        g, out = self.game, set()
        if name in g.tables:
            flat = _ints(g.tables[name])
            if len(flat) <= 60:
                out |= set(flat)
            if isinstance(g.tables[name], (list, tuple, dict)):
                out.add(len(g.tables[name]))
        elif name in g.options and isinstance(g.options[name].default, int) and \
                not isinstance(g.options[name].default, bool):
            out.add(abs(g.options[name].default))
        elif name in g.counters:
            c = g.counters[name]
            out |= {abs(v) for v in (c.min, c.max, getattr(c.initial, "value", None))
                    if isinstance(v, int) and not isinstance(v, bool)}
        return out


def _steps(steps) -> list:
    out = []
    for s in steps:
        out.append(s)
        out += _steps(getattr(s, "steps", ()) or ()) + _steps(getattr(s, "other", ()) or ())
    return out


def _nodes(tree) -> list:
    out: list = []
    _walk(tree, out)
    return out


def _is_name(text: str) -> bool:
    return re.fullmatch(r"[a-z_][a-z0-9_]*", text) is not None


def _ints(value) -> list:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [abs(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _ints(v)] + \
            [abs(k) for k in value if isinstance(k, int) and not isinstance(k, bool)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _ints(v)]
    return []


# ---------------------------------------------------------------- checking
def _numbers_text(numbers) -> str:
    return ", ".join(str(n) for n in sorted(numbers)) or "none"


def check_line(cite: Citation, text: str, facts: Facts, terms: list[str]) -> list[Finding]:
    """What one citation's lines say that its rule does not."""
    lang, label, out = cite.book, cite.label(), []
    said = book_numbers(text, lang)
    # 0 is a bound as often as an amount ("vers le 0"), 1 an article as often as a count
    missing = said - facts.numbers - {0, 1}
    # the rule's own numbers other than 0 and 1 (said as "no" and "a" as often as in digits):
    # a rule with none says nothing a line full of other numbers could contradict
    telling = facts.own - {0, 1}
    if missing and (len(said) <= FOCUSED and facts.numbers or telling and not said & facts.numbers):
        # a line with many numbers speaks of more than one rule: it is flagged when the rule
        # has none of them; a focused line, when the rule lacks one of its numbers
        out.append(Finding("number", f"{label} says {_numbers_text(missing)}; the rule's "
                                     f"numbers are {_numbers_text(facts.own)}", lang, label))
    said = book_comparisons(text, lang)
    for op in sorted(said):
        twins = {o for o in facts.ops if STRICT[o] != STRICT[op]}
        same = {o for o in facts.ops if STRICT[o] == STRICT[op]}
        if twins and not same:
            out.append(Finding("comparison", f"{label} compares with {op}; the rule with "
                                             f"{' '.join(sorted(twins))}", lang, label))
    modality = book_modality(text, lang)
    if modality == {"may"} and facts.modality == "must":
        out.append(Finding("modality", f"{label} says the player may; the rule leaves no "
                                       "choice", lang, label))
    if modality == {"must"} and facts.said_may:
        out.append(Finding("modality", f"{label} says the player must; the rule lets them "
                                       "choose", lang, label))
    if terms and not any(_says(text, term) for term in terms):
        out.append(Finding("term", f"{label} does not say the term « {terms[0]} »", lang, label))
    return out


def _says(text: str, term: str) -> bool:
    """Does the text say the term: one of its significant words, give or take an ending?"""
    words = [w for w in re.findall(r"[\w&'-]+", _fold(term)) if len(w) >= 3 and w not in STOP]
    t = _fold(text)
    return not words or any(re.search(rf"(?<!\w){re.escape(w[:max(3, len(w) - 3)])}", t)
                            for w in words)


def check_books(rule: str, fr: list, en: list) -> list[Finding]:
    """The French lines of a rule against its English lines: numbers, modality, comparisons."""
    fr_text = " ".join(t for _, _, t in fr)
    en_text = " ".join(t for _, _, t in en)
    labels = f"{' '.join(sorted({c for c, _, _ in fr}))} / {' '.join(sorted({c for c, _, _ in en}))}"
    out = []
    a, b = book_numbers(fr_text, "fr") - {1}, book_numbers(en_text, "en") - {1}
    for n in sorted(a - b):
        out.append(Finding("books", f"the French says {n}, the English does not", "fr-en", labels))
    for n in sorted(b - a):
        out.append(Finding("books", f"the English says {n}, the French does not", "fr-en", labels))
    ma, mb = book_modality(fr_text, "fr"), book_modality(en_text, "en")
    if ma and mb and not ma & mb:
        out.append(Finding("books", f"the French says the player {'/'.join(sorted(ma))}, the "
                                    f"English {'/'.join(sorted(mb))}", "fr-en", labels))
    ca, cb = book_comparisons(fr_text, "fr"), book_comparisons(en_text, "en")
    if ca and cb and {STRICT[o] for o in ca}.isdisjoint({STRICT[o] for o in cb}):
        out.append(Finding("books", f"the French compares with {' '.join(sorted(ca))}, the "
                                    f"English with {' '.join(sorted(cb))}", "fr-en", labels))
    return out


def _rule_terms(game, rule: str, lang: str) -> list[str]:
    parts = rule.split(".")
    if len(parts) != 2 or parts[0] != "terms":
        return []  # a term's citation says where the book uses the word
    name = parts[1].split("(")[0]
    entry = game.terms.get(name) or {}
    word = entry.get(lang)
    return [word] if isinstance(word, str) and word else []


def concordance(source, game, books: dict) -> Concordance:
    """Line up each rule of a loaded game with the lines of `books` (lang -> (file name, text))
    that it cites, and check them."""
    cites, _ = read(source)
    facts_of = _Rule(game, rules(source))
    lines = {lang: text.splitlines() for lang, (_, text) in books.items()}
    grouped: dict = {}
    for c in cites:
        grouped.setdefault(c.rule, []).append(c)
    rows, unchecked = [], {}
    for rule, group in grouped.items():
        cited, pairs = [], {}
        for c in group:
            book = lines.get(c.book)
            if book is None:
                unchecked[c.book] = unchecked.get(c.book, 0) + 1
                cited.append(Cited(c, (), False, ()))
                continue
            past = [n for n in c.line_numbers() if n > len(book)]
            got = tuple((n, book[n - 1]) for n in c.line_numbers() if n <= len(book))
            findings = [Finding("range", f"{c.label()} is past the end of the book "
                                         f"({len(book)} lines)", c.book, c.label())] if past else []
            checked = len(got) <= CHECKED_LINES
            if checked and got:
                text = " ".join(t for _, t in got)
                findings += check_line(c, text, facts_of.facts(c),
                                       _rule_terms(game, rule, c.book))
                pairs.setdefault((c.pos.path, c.pos.line), {"fr": [], "en": []})[c.book].extend(
                    (c.label(), n, t) for n, t in got)
            cited.append(Cited(c, got, checked, tuple(findings)))
        cross = []
        for pair in pairs.values():  # `EN l.278; FR l.267`: one passage in both books
            if pair["fr"] and pair["en"]:
                cross += check_books(rule, pair["fr"], pair["en"])
        first = group[0]
        where = str(first.rule_pos) if first.rule_pos else first.pos.path
        code = tuple(dict.fromkeys(c.code for c in group if c.code))
        rows.append(Row(rule, where, code, tuple(cited), tuple(cross)))
    coverage = {}
    for lang, book in lines.items():
        reached = {n for c in cites if c.book == lang for n in c.line_numbers()}
        text_lines = [n for n, t in enumerate(book, 1) if len(re.findall(r"[^\W\d_]", t)) >= 2]
        uncited = [n for n in text_lines if n not in reached]
        coverage[lang] = {"lines": len(text_lines), "cited": len(text_lines) - len(uncited),
                          "uncited": tuple(_spans(uncited, book))}
    shown = {lang: (name, len(lines[lang])) for lang, (name, _) in books.items()}
    label = game.name + (f":{game.variant}" if game.variant else "")
    return Concordance(label, shown, tuple(rows), coverage, unchecked)


def _spans(numbers: list[int], book: list[str]) -> list[tuple]:
    """Consecutive line numbers as ranges; blank lines between two uncited lines join them."""
    out: list = []
    for n in numbers:
        if out and all(not book[k - 1].strip() for k in range(out[-1][1] + 1, n)):
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out
