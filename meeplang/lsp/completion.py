"""What may be typed at a place in a game file: a key the schema allows there, a value the schema
lists, or, in rule text and expressions, a declared or built-in name."""
from __future__ import annotations

import re
from dataclasses import dataclass

from meeplang.dsl.builtins import FUNCTIONS, VALUES

from .names import Declaration

_KEY = re.compile(r"^(- +)?([\w-]+)\s*:(.*)$")
_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # "key", "value", "function", or what a declaration is (counter, zone, ...)
    detail: str = ""


def complete(lines: list[str], row: int, col: int, schema: dict,
             names: dict[str, Declaration]) -> list[Candidate]:
    before = lines[row][:col] if row < len(lines) else ""
    path, in_block = _context(lines, row, before)
    if in_block:
        return _names(names)
    key = _KEY.match(before.strip())
    if key is None and re.fullmatch(r"\s*(- +)?[\w-]*", before):
        return [Candidate(k, "key", _description(sub)) for k, sub in _keys(schema, path)]
    if key is not None:  # after `key:`: a value the schema lists, or an expression
        node = _walk(schema, schema, path + [key.group(2)])
        values = _resolve(schema, node).get("enum", []) if node is not None else []
        return [Candidate(str(v), "value") for v in values] or _names(names)
    return _names(names)


def _names(names: dict[str, Declaration]) -> list[Candidate]:
    out = [Candidate(d.name, d.kind, d.detail) for d in names.values()]
    out += [Candidate(f, "function", "built-in") for f in sorted(FUNCTIONS) if f not in names]
    out += [Candidate(v, "value", "built-in") for v in sorted(VALUES) if v not in names]
    return out


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
