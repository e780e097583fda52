"""Mutations of real game files, for fuzzing: delete, duplicate and retype nodes, mutate rule
strings, swap references. Deterministic for a given random.Random."""
from __future__ import annotations

import copy
import random

import yaml

from dsl.loader import GAME_FILE, bundled_games, games_dir

RULE_NOISE = ["(", ")", ":", "\n  ", " and ", " to ", "[", "]", "0", "-1", "//0", "\"", "#",
              " if ", " each ", "\t", "é", "\x00", " where ", "999999999999999999999"]
RETYPES = [None, 0, -1, 10**12, True, "", "x", [], {}, [1, 2], {"a": 1}, "you", "1 // 0"]


def bundled_documents() -> dict[str, object]:
    """Each bundled game file (and variant file), parsed as plain YAML."""
    docs = {}
    for name in bundled_games():
        folder = games_dir() / name
        docs[f"{name}/{GAME_FILE}"] = yaml.safe_load((folder / GAME_FILE).read_text())
    return docs


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for step in path:
        node = node[step]
    return node


def _names(doc) -> list[str]:
    out = []
    for section in ("counters", "zones", "actions", "tables", "options"):
        if isinstance(doc.get(section), dict):
            out.extend(str(k) for k in doc[section])
    return out or ["x"]


def mutate(doc, rng: random.Random, rounds: int = 3):
    """A copy of doc with 1..rounds random mutations."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, rounds)):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            return doc
        path = rng.choice(paths)
        parent, key = _get(doc, path[:-1]), path[-1]
        value = parent[key]
        op = rng.choice(["delete", "duplicate", "retype", "rule", "swap", "rename"])
        if op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif op == "duplicate" and isinstance(parent, dict):
            parent[f"{key}_copy"] = copy.deepcopy(value)
        elif op == "retype":
            parent[key] = copy.deepcopy(rng.choice(RETYPES))
        elif op == "rule" and isinstance(value, str) and value:
            i = rng.randrange(len(value) + 1)
            j = min(len(value), i + rng.randint(0, 4))
            parent[key] = value[:i] + rng.choice(RULE_NOISE) + value[j:]
        elif op == "swap" and isinstance(value, str):
            names = _names(doc)
            words = value.split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(names)
            parent[key] = " ".join(words)
        elif op == "rename" and isinstance(parent, dict):
            parent[f"{key}_{rng.randint(0, 9)}"] = parent.pop(key)
    return doc


def dump(doc) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
