"""Where each declared name of a game stands in its files: the declarations, a variant's changes,
the terms, and every use, in rule text and in the YAML that names things (`actions: [roll]`,
`per: development`, `zone: pile`). Find references, rename and document symbols read it.

The index is read from the files' YAML events (PyYAML's parser: no object is ever built), which
give every scalar's exact place in the file, so a word inside rule text is found at its own line
and column whatever the scalar's style. What is not a use of a name:
  - human text: titles, summaries, `doc:`, the words of `terms:`, a rule's comments and strings
    (a string that is the whole name, as in `uses("power_plant")`, is one);
  - data: the cells of a table (except a table `rule_text:` declares, which holds rules);
  - a field: `x.name` is a use only of a counter or a zone (`p.coins`, `p.hand`);
  - a local value: where rule text binds the word itself (`let`, `choose`, `for each`, `as`, an
    action's `choose:` or `takes:`, a formula's parameters), in the rule that binds it.
The dependency graph (meeplang.dsl.depends) says which rules read and write a name, with a node's
position but not each word's: a test checks that this index finds a use at every place it
records.
"""
from __future__ import annotations

import functools
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from lark import Token
from lark.exceptions import LarkError
from lark.indenter import DedentError

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.parser import MAX_RULE_CHARS, parser
from meeplang.dsl.loader import locate, unsaved, variant_names

from .names import SECTIONS

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KINDS = {**SECTIONS, "tracks": "counter"}
# keys whose values are human text, not rules
_TEXT = {"title", "summary", "doc", "log"}
# top-level keys naming the file itself, not the rules
_HEADER = {"meeplang", "game", "variant", "extends", "include", "sample"}


@dataclass(frozen=True)
class Occurrence:
    path: Path
    line: int  # 0-based, as the protocol counts
    col: int
    name: str
    role: str  # "declaration", "change" (a variant's key), "term" or "use"
    section: str = ""  # for a key: its section (actions, counters, ..., flow for a phase)
    end: tuple = (0, 0)  # for a key: where its value ends (line, col)


@dataclass
class Index:
    kinds: dict[str, str] = field(default_factory=dict)  # declared name -> what it is
    found: list[Occurrence] = field(default_factory=list)
    locals: dict[str, Occurrence] = field(default_factory=dict)  # a local's first binding
    broken: list[Path] = field(default_factory=list)  # files whose YAML does not parse

    def of(self, name: str) -> list[Occurrence]:
        return [o for o in self.found if o.name == name]


@dataclass
class _Scalar:
    path: tuple
    is_key: bool
    text: str  # the scalar's source text, as in the file
    value: str  # what it says (quotes, escapes and a block's indentation gone)
    line: int
    col: int
    start: int  # offset in the file
    style: str | None


def files_of(target: str, texts: dict[Path, str], extra: Path | None = None) -> list[Path]:
    """The files of a game and every variant of its folder: the main file, the variant files (and
    `extra`, a variant file elsewhere), and the files each of them includes."""
    with unsaved(texts):
        found = locate(target)
    folder = found.folder
    mains = [found.game_file]
    if found.is_folder_game:
        mains += [folder / "variants" / f"{v}.yaml" for v in variant_names(folder)]
    mains += [p for p in (*found.files, extra) if p is not None]
    out: list[Path] = []
    for path in mains:
        out.append(path)
        try:
            scalars = list(_scalars(_text(path, texts)))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        out += [folder / s.text.strip("'\"") for s in scalars if isinstance(s, _Scalar) and
                not s.is_key and len(s.path) == 2 and s.path[0] == "include"]
    return list(dict.fromkeys(p.resolve() for p in out if p.is_file()))


def _text(path: Path, texts: dict[Path, str]) -> str:
    text = texts.get(path.resolve())
    return text if text is not None else path.read_text(encoding="utf-8")


def build(target: str, buffers: dict[Path, str], extra: Path | None = None) -> Index:
    """The index of a game and its variants, reading the editor's buffers over the files."""
    texts = {Path(p).resolve(): t for p, t in buffers.items()}
    index = Index()
    scanned = []
    for path in files_of(target, texts, extra):
        text = _text(path, texts)
        try:
            scalars = list(_scalars(text))
        except yaml.YAMLError:
            index.broken.append(path)
            continue
        scanned.append((path, text, scalars))
    for path, text, scalars in scanned:
        _declarations(index, path, scalars)
    rule_tables = set().union(*(_rule_tables(scalars) for _, _, scalars in scanned))
    for path, text, scalars in scanned:
        _uses(index, path, text, scalars, rule_tables)
    return index


def symbols(text: str, path: Path) -> list[Occurrence]:
    """The names one file declares or changes, with where each one's entry ends."""
    index = Index()
    _declarations(index, path, list(_scalars(text)))
    return index.found


# ---------------------------------------------------------------- reading the YAML events
def _scalars(text: str):
    """Every scalar with its path of keys (list items by index), key or value, and its place;
    a key's scalar is followed, once its value ends, by a marker (`_End`) giving the end."""
    stack: list[list] = []  # [kind, path, expecting a key / next index, current key]
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            path = _value_path(stack)
            stack.append(["map" if isinstance(event, yaml.MappingStartEvent) else "seq", path,
                          True if isinstance(event, yaml.MappingStartEvent) else 0, None])
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = stack.pop()
            yield _End(frame[1], event.end_mark.line, event.end_mark.column)
            _advance(stack)
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            top = stack[-1] if stack else None
            is_key = top is not None and top[0] == "map" and top[2] is True
            if isinstance(event, yaml.ScalarEvent):
                start, end = event.start_mark, event.end_mark
                path = top[1] + (event.value,) if is_key else _value_path(stack)
                yield _Scalar(path, is_key, text[start.index:end.index], event.value,
                              start.line, start.column, start.index, event.style)
                if not is_key:
                    yield _End(path, end.line, end.column)
            if is_key:
                top[3], top[2] = event.value if isinstance(event, yaml.ScalarEvent) else "", False
            else:
                _advance(stack)


@dataclass
class _End:
    path: tuple
    line: int
    col: int


def _value_path(stack) -> tuple:
    if not stack:
        return ()
    kind, path, state, key = stack[-1]
    return path + ((key,) if kind == "map" else (state,))


def _advance(stack) -> None:
    if stack:
        if stack[-1][0] == "map":
            stack[-1][2] = True
        else:
            stack[-1][2] += 1


# ---------------------------------------------------------------- declarations and keys
def _declared_section(path: tuple) -> str | None:
    """The section whose entry a key at `path` names: `actions` for ("actions", "build") and
    ("add", "actions", "build")."""
    if len(path) == 2 and path[0] in KINDS:
        return path[0]
    if len(path) == 3 and path[0] == "add" and path[1] in KINDS:
        return path[1]
    return None


def _declarations(index: Index, path: Path, scalars: list) -> None:
    variant = any(isinstance(s, _Scalar) and s.is_key and s.path == ("extends",) for s in scalars)
    open_keys: dict[tuple, int] = {}  # path -> the declaration waiting for its value's end
    for s in scalars:
        if isinstance(s, _End):
            if s.path in open_keys:
                at = open_keys.pop(s.path)
                o = index.found[at]
                index.found[at] = Occurrence(o.path, o.line, o.col, o.name, o.role, o.section,
                                             (s.line, s.col))
            continue
        section = _declared_section(s.path) if s.is_key else None
        phase = not s.is_key and s.path[:1] in (("flow",), ("flow_patches",)) and \
            s.path[-1] == "phase"
        if section is None and not phase:
            continue
        match = WORD.match(s.text.strip("'\""))
        if match is None:
            continue
        name = match.group()
        index.kinds.setdefault(name, KINDS[section] if section else "phase")
        role = "change" if variant and section and s.path[0] != "add" else "declaration"
        col = s.col + (1 if s.style in ("'", '"') else 0)
        open_keys[s.path] = len(index.found)
        index.found.append(Occurrence(path, s.line, col, name, role, section or "flow"))


# ---------------------------------------------------------------- uses
def _owner(path: tuple) -> tuple:
    """The rule a scalar belongs to, where its local values are bound: an entry of a section,
    the whole flow, or a top-level key."""
    if path[:1] == ("add",):
        return path[:3]
    return path[:2] if path[:1] and path[0] in KINDS else path[:1]


def _rule_tables(scalars: list) -> set[str]:
    """The tables `rule_text:` says hold rule text (their cells are rules, not data)."""
    return {s.path[1] for s in scalars if isinstance(s, _Scalar) and s.is_key and
            len(s.path) == 2 and s.path[0] == "rule_text"}


def _uses(index: Index, path: Path, text: str, scalars: list, rule_tables: set) -> None:
    values = [s for s in scalars if isinstance(s, _Scalar)]
    rules = [s for s in values if not s.is_key and _is_rule(s, rule_tables)]
    bound: dict[tuple, set[str]] = {}  # the local values each rule binds
    for s in rules + [s for s in values if s.is_key and s.path[:1] == ("formulas",)]:
        binds = dict(_bound(s))
        bound.setdefault(_owner(s.path), set()).update(binds)
        parsed = None if s.is_key else _parsed(s.value)
        if parsed is not None:
            body, tokens = parsed
            binds.update({name: _in_source(s.text, body, name, at) for name, at, role in tokens
                          if role == "bound"})
        for name, offset in binds.items():
            if offset is not None:
                index.locals.setdefault(name, Occurrence(path, *_place(text, s.start + offset),
                                                         name, "local"))
    for s in values:  # keys naming a declared thing: terms, rule_text's tables
        if s.is_key and len(s.path) == 2 and s.path[0] in ("terms", "rule_text") and \
                s.path[1] in index.kinds:
            index.found.append(Occurrence(path, s.line, s.col, s.path[1],
                                          "term" if s.path[0] == "terms" else "use"))
    for s in rules:
        locals_here = bound.get(_owner(s.path), set())
        parsed = _parsed(s.value)
        if parsed is None:  # not rule text (`when: after roll`), or text being typed
            found = [(name, offset, "use") for name, offset in _words(s)]
        else:
            body, tokens = parsed
            locals_here = locals_here | {name for name, _, role in tokens if role == "bound"}
            found = [(name, _in_source(s.text, body, name, at), role)
                     for name, at, role in tokens if role != "bound"]
        for name, offset, role in found:
            kind = index.kinds.get(name)
            if kind is None or name in locals_here or offset is None:
                continue
            if role == "field" and kind not in ("counter", "zone"):
                continue  # a field: `t.dive` beside an action `dive`
            index.found.append(Occurrence(path, *_place(text, s.start + offset), name, "use"))


def _is_rule(s: _Scalar, rule_tables: set) -> bool:
    """Is this value rules (rule text, or a YAML value naming things), not text or data?"""
    p = s.path
    if s.is_key or not p or p[0] in _HEADER or p[0] == "terms" or p[:2] == ("add", "terms"):
        return False
    if any(k in _TEXT for k in p if isinstance(k, str)):
        return False
    if p[0] == "options" and len(p) > 2 and p[2] == "default":
        return False  # an option's value (`default: auction`)
    if p[0] == "tables" or p[:2] == ("add", "tables"):
        table = p[1] if p[0] == "tables" else (p[2] if len(p) > 2 else None)
        return table in rule_tables
    if p[-1] == "phase":
        return False  # the phase's own name: a declaration
    return True


def _code(s: _Scalar) -> str:
    """The scalar's source with its YAML quotes, and the rule text's comments and strings,
    blanked (same length: offsets stay the file's); a string that is one whole word stays, as
    `uses("power_plant")` names an action."""
    text = s.text
    if s.style in ("'", '"'):
        text = " " + text[1:-1] + " "
    out: list[str] = []
    opened, comment = None, False
    for i, c in enumerate(text):
        if c == "\n":
            comment = False
            out.append(c)
        elif comment:
            out.append(" ")
        elif c == '"' and not (i and text[i - 1] == "\\" and s.style != '"'):
            if opened is None:
                opened = len(out)
            else:
                inner = "".join(out[opened + 1:]).rstrip("\\")
                if not WORD.fullmatch(inner):
                    out[opened + 1:] = [" "] * (len(out) - opened - 1)
                opened = None
            out.append('"')
        elif c == "#" and opened is None and s.style in ("|", ">"):
            comment = True
            out.append(" ")
        else:
            out.append(c)
    if opened is not None:
        out[opened + 1:] = [" "] * (len(out) - opened - 1)
    return "".join(out)


def _words(s: _Scalar):
    """(word, offset in the scalar's text) of every name the scalar may use."""
    for match in WORD.finditer(_code(s)):
        yield match.group(), match.start()


# What a NAME token is, by the grammar rule it stands in (meeplang.lark): a use, a field (after a
# dot), a local it binds, or a parameter name of the action a `do ... with` calls (not a name).
_BINDS = {"let_stmt", "roll_stmt", "for_stmt", "choose_stmt", "random_choose_stmt",
          "choose_range_stmt", "choose_subset_stmt", "secret_choose_stmt", "secret_range_stmt",
          "secret_subset_stmt", "some_players", "search_stmt", "draw_stmt", "list_comp",
          "param_in", "param_range", "param_subsets"}


@functools.lru_cache(maxsize=4096)
def _parsed(value: str):
    """Rule text read by the grammar: (the text parsed, ((name, offset, role), ...)) with role
    use, field, bound or skip; None when it is not rule text."""
    if not value.strip() or len(value) > MAX_RULE_CHARS:
        return None
    body = textwrap.dedent(value).rstrip("\n") + "\n"
    for start in ("block", "expression", "param"):
        try:
            tree = parser().parse(body, start=start)
            break
        except (LarkError, DedentError):
            continue
    else:
        return None
    tokens = []
    for sub in tree.iter_subtrees():
        names = [c for c in sub.children if isinstance(c, Token) and c.type == "NAME"]
        for i, token in enumerate(names):
            tokens.append((str(token), token.start_pos, _role(sub.data, i)))
        for c in sub.children:
            if isinstance(c, Token) and c.type == "STRING" and WORD.fullmatch(c[1:-1]):
                tokens.append((c[1:-1], c.start_pos + 1, "use"))  # uses("power_plant")
    return body, tuple(tokens)


def _role(rule: str, i: int) -> str:
    if rule == "attr":
        return "field"
    if rule == "arg_binding":
        return "skip"
    if rule in ("auction_stmt", "gen_call", "select_call"):  # currency / function, then locals
        return "use" if i == 0 else "bound"
    return "bound" if rule in _BINDS else "use"


def _in_source(source: str, body: str, name: str, at: int) -> int | None:
    """Where, in a scalar's source text, stands the word found at `at` in what it says: the
    same occurrence of that word (a YAML style changes the spaces, quotes and escapes around
    words, never their order)."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    nth = sum(1 for m in pattern.finditer(body) if m.start() < at)
    for k, match in enumerate(pattern.finditer(source)):
        if k == nth:
            return match.start()
    return None


def _bound(s: _Scalar) -> dict[str, int]:
    """The local names a scalar binds for its whole rule, each with its offset: as the value of
    the key it stands under (an action's `choose: card in hand`, a trigger's `each: line in
    connections`, `takes: [card]`, a flow step's `as: p`), or in a formula's key (`deck(r,
    side)`). (What rule text binds, `let x`, `for each x`..., holds in that text: _parsed.)"""
    keys = [k for k in s.path if isinstance(k, str)]
    last = keys[-1] if keys else None
    if s.is_key:  # a formula's parameters
        head = s.text.find("(")
        return {w.group(): w.start() for w in WORD.finditer(s.text, head)} if head > 0 else {}
    if last in ("choose", "each"):
        first = re.match(r"\s*['\"]?\s*([A-Za-z_]\w*)\s+(in|from)\b", s.text)
        return {first.group(1): first.start(1)} if first else {}
    if last in ("takes", "as"):
        word = WORD.search(s.text)
        return {word.group(): word.start()} if word else {}
    return {}


def _place(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def for_document(document, buffers: dict[Path, str]) -> Index:
    """The index of a document's game (a meeplang.lsp.project.Document): for a variant file,
    its base game's, with the variant file itself if it lies outside the game's folder."""
    target, extra = document.target, None
    if document.kind == "variant":
        try:
            with unsaved(buffers):
                found = locate(document.target)
        except MeeplangError:
            return Index()
        target = str(found.folder if found.is_folder_game else found.game_file)
        extra = document.path
    try:
        return build(target, buffers, extra)
    except (MeeplangError, OSError, UnicodeDecodeError):
        return Index()


