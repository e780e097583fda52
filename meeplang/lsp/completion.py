"""What may be typed at a place in a game file: a key the schema allows there, a value the schema
lists, or, in rule text and expressions, the names that fit where the cursor stands (a counter
after `gain 2`, a zone after `move card to`, an action after `do`), each list cut to the word
being typed."""
from __future__ import annotations

import re
from dataclasses import dataclass

from meeplang.dsl.builtins import FUNCTIONS, VALUES

from .names import Declaration
from .words import statement_words

_KEY = re.compile(r"^(- +)?([\w-]+)\s*:(.*)$")
_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # "key", "value", "function", or what a declaration is (counter, zone, ...)
    detail: str = ""


# What fits after the words before the cursor in rule text (the kinds of declared name, and
# whether built-in values and functions do): the statement's text up to the word being typed.
_AMOUNT = frozenset({"counter", "option", "table", "formula", "builtin"})
_FITS = [
    (re.compile(r"\b(gain|lose|pay|gains|loses|pays)\s+(\S+\s+)+$"), frozenset({"counter"})),
    (re.compile(r"\b(gain|lose|pay|gains|loses|pays)\s+$"), _AMOUNT),
    (re.compile(r"\b(pay|transfer)\b.*\b(from|to)\s+$"), frozenset({"counter"})),
    (re.compile(r"\b(set|add\b.*\bto|subtract\b.*\bfrom)\s+$"), frozenset({"counter"})),
    (re.compile(r"\b(move|deal|draw)\b.*\bto\s+$"), frozenset({"zone"})),
    (re.compile(r"\b(deal|draw)\b.*\bfrom\s+(any\s+of\s+)?$"), frozenset({"zone"})),
    (re.compile(r"\b(shuffle|search)\s+$|\bplace\b.*\bon\s+$"), frozenset({"zone"})),
    (re.compile(r"(\bdo\s+((one|any)\s+of\s+)?|\bcan\(\s*|\buses\(\s*\")$"),
     frozenset({"action"})),
    (re.compile(r"[\w\])]\.$"), frozenset({"counter", "zone"})),  # p.coins, p.hand
]
_STATEMENT_START = re.compile(r"^\s*(-\s+)?$|:\s*$")


def complete(lines: list[str], row: int, col: int, schema: dict,
             names: dict[str, Declaration]) -> list[Candidate]:
    before = lines[row][:col] if row < len(lines) else ""
    prefix = re.search(r"[\w-]*$", before).group()
    return [c for c in _candidates(lines, row, before, schema, names)
            if c.label.startswith(prefix)]


def _candidates(lines, row, before, schema, names) -> list[Candidate]:
    path, in_block = _context(lines, row, before)
    word = re.search(r"\w*$", before)
    if in_block:
        return _fitting(before[:word.start()], names, statement=True)
    key = _KEY.match(before.strip())
    if key is None and re.fullmatch(r"\s*(- +)?[\w-]*", before):
        return [Candidate(k, "key", _description(sub)) for k, sub in _keys(schema, path)]
    if key is not None:  # after `key:`: a value the schema lists, or an expression
        node = _walk(schema, schema, path + [key.group(2)])
        values = _resolve(schema, node).get("enum", []) if node is not None else []
        rule = key.group(3)
        return [Candidate(str(v), "value") for v in values] or _fitting(
            rule[:len(rule) - len(word.group())], names, statement=False)
    return _names(names)


def _fitting(text: str, names: dict[str, Declaration], statement: bool) -> list[Candidate]:
    """The names that fit after `text` (rule text before the word being typed); at the start of
    a statement, the rule words that begin one too."""
    for pattern, kinds in _FITS:
        if pattern.search(text):
            return _names(names, kinds)
    words = []
    if statement and _STATEMENT_START.search(text):
        words = [Candidate(w, "keyword", "rule word") for w in statement_words()]
    return words + _names(names)


def _names(names: dict[str, Declaration], kinds: frozenset | None = None) -> list[Candidate]:
    out = [Candidate(d.name, d.kind, d.detail) for d in names.values()
           if kinds is None or d.kind in kinds]
    if kinds is None or "builtin" in kinds:
        out += [Candidate(f, "function", "built-in") for f in sorted(FUNCTIONS) if f not in names]
        out += [Candidate(v, "value", "built-in") for v in sorted(VALUES) if v not in names]
    return out


def in_rule_text(lines: list[str], row: int, col: int) -> bool:
    """Is this place inside rule text: a `|` block, or the value after `key:` (not the key, nor
    a comment)?"""
    before = lines[row][:col] if row < len(lines) else ""
    if "#" in before and not _BLOCK.search(before):
        return False
    if _context(lines, row, before)[1]:
        return True
    key = _KEY.match(before.strip())
    return key is not None and bool(key.group(3).strip())


def _indent(text: str) -> int:
    stripped = text.lstrip(" ")
    dash = re.match(r"- +", stripped)
    return len(text) - len(stripped) + (dash.end() if dash else 0)


def _context(lines: list[str], row: int, before: str) -> tuple[list[str], bool]:
    """The keys above the cursor's line (outermost first), and whether the cursor is inside a
    block of rule text (`effect: |`)."""
    indent = _indent(before) if before.strip() else len(before)
    path: list[str] = []
    in_block = False
    for text in reversed(lines[:row]):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        own = _indent(text)
        if own >= indent:
            continue
        if not path and _BLOCK.search(text):
            in_block = True
        key = _KEY.match(text.strip())
        if key is not None:
            path.insert(0, key.group(2))
        indent = len(text) - len(text.lstrip(" "))
        if indent == 0:
            break
    return path, in_block


def _resolve(root: dict, node: dict) -> dict:
    """Follow `$ref`, and pick a mapping among `anyOf`/`oneOf` branches."""
    while True:
        if "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
            continue
        branches = node.get("anyOf") or node.get("oneOf")
        if branches:
            mappings = [b for b in branches if "properties" in _resolve(root, b)
                        or "additionalProperties" in _resolve(root, b)]
            node = _resolve(root, (mappings or branches)[-1])
            continue
        return node


def _walk(root: dict, node: dict, path: list[str]) -> dict | None:
    for step in path:
        node = _resolve(root, node)
        if "items" in node:  # `- key:` entries of a list
            node = _resolve(root, node["items"])
        props = node.get("properties", {})
        if step in props:
            node = props[step]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
    return node


def _keys(root: dict, path: list[str]) -> list[tuple[str, dict]]:
    node = _walk(root, root, path)
    if node is None:
        return []
    node = _resolve(root, node)
    if "items" in node:
        node = _resolve(root, node["items"])
    return sorted(node.get("properties", {}).items())


def _description(schema: dict) -> str:
    return schema.get("description", "") if isinstance(schema, dict) else ""
