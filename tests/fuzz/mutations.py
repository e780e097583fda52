"""Mutations of real inputs, for fuzzing: game files (delete, duplicate and retype nodes, mutate
rule strings, swap references, put numbers at type limits and strings at great lengths), logs
(retyped header fields, choices and values at the edges, lines dropped, repeated or added) and
command lines (each argument of a working command replaced by an edge value). Deterministic for a
given random.Random."""
from __future__ import annotations

import copy
import json
import random
import shutil

import yaml

from meeplang.dsl.loader import GAME_FILE, bundled_games, games_dir

from .faults import KINDS as WRITE_FAILURES

RULE_NOISE = ["(", ")", ":", "\n  ", " and ", " to ", "[", "]", "0", "-1", "//0", "\"", "#",
              " if ", " each ", "\t", "é", "\x00", " where ", "999999999999999999999"]
RETYPES = [None, 0, -1, 10**12, True, "", "x", [], {}, [1, 2], {"a": 1}, "you", "1 // 0"]
# numbers at the limits of machine types and of Meeplang's own bounds (dsl/limits.py), and beyond
EDGE_NUMBERS = [0, -1, 1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, -2**63 - 1, 10**18, 10**18 + 1,
                -10**18 - 1, 10**100, -10**100, 101, 100_000, 100_001, 10**4000]
EDGE_STRINGS = ["", " ", "x" * 20_001, "é" * 1000, "\u202e", "9" * 5000, "-" + "9" * 30, "null",
                # line separators, a lone surrogate, terminal escapes, a forged line
                "a\u2028b", "a\x85b\u2029", "\ud800", "\x1b[2J\x1b]0;title\x07", "\r\nok: fake",
                "ends \\"]

# Lists that share structure (41 lists, 2**40 values), then worked on: each operation must charge
# the values it goes through and stop at the step budget (appended to a block of rule text).
_DOUBLED = ("let sa = [1]\nlet sb = [1]\nrepeat 40 times:\n  let sa = [sa, sa]\n"
            "  let sb = [sb, sb]\n")
SHARED = [_DOUBLED + op + "\n" for op in ("let sz = sa == sb", "let sz = sa != sb",
                                           "let sz = sa in [sb]", "do sa")]


def edge_value(rng: random.Random):
    """A value at or past a limit: a number, a long or odd string, or a wrong type."""
    pick = rng.random()
    if pick < 0.5:
        return rng.choice(EDGE_NUMBERS)
    if pick < 0.8:
        return rng.choice(EDGE_STRINGS)
    return copy.deepcopy(rng.choice(RETYPES))


def bundled_documents() -> dict[str, object]:
    """Each bundled game file (and variant file), parsed as plain YAML."""
    docs = {}
    for name in bundled_games():
        folder = games_dir() / name
        docs[f"{name}/{GAME_FILE}"] = yaml.safe_load((folder / GAME_FILE).read_text())
    return docs


def copy_includes(name: str, folder) -> None:
    """Put the files beside a bundled game's main file (New Eden's cards.yaml, which it
    includes) into `folder`, where its mutants are written: without them every mutant of a game
    with includes fails at `include:`. Not its variants: a mutant stands alone."""
    game = name.split("/")[0]
    shutil.copytree(games_dir() / game, folder, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(GAME_FILE, "variants", "*.md"))


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
        op = rng.choice(["delete", "duplicate", "retype", "rule", "swap", "rename", "value",
                         "number", "shared"])
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
        elif op == "value":
            parent[key] = edge_value(rng)
        elif op == "shared" and isinstance(value, str) and "\n" in value.strip():
            parent[key] = value.rstrip("\n") + "\n" + rng.choice(SHARED)
        elif op == "number" and isinstance(value, str) and any(ch.isdigit() for ch in value):
            i = next(k for k, ch in enumerate(value) if ch.isdigit())
            parent[key] = value[:i] + str(rng.choice(EDGE_NUMBERS)) + value[i + 1:]
    return doc


def mutate_log(lines: list[str], rng: random.Random, rounds: int = 2) -> list[str]:
    """A copy of a log's lines (JSON objects) with 1..rounds mutations of its values or lines."""
    records = [json.loads(line) for line in lines]
    out = list(lines)
    for _ in range(rng.randint(1, rounds)):
        n = rng.randrange(len(out))
        op = rng.choice(["field", "field", "choice", "drop", "repeat", "add", "raw"])
        record = records[n] if n < len(records) and isinstance(records[n], dict) else {}
        if op == "field" and record:
            key = rng.choice(sorted(record) + ["options", "variant"])
            out[n] = json.dumps(dict(record, **{key: edge_value(rng)}))
        elif op == "choice":
            decisions = [i for i, r in enumerate(records) if r.get("event") == "decision"]
            if decisions:
                i = rng.choice(decisions)
                out[i] = json.dumps(dict(records[i], choice=edge_value(rng)))
        elif op == "drop" and n > 0:
            del out[n]
        elif op == "repeat":
            out.insert(n, out[n])
        elif op == "add":
            out.insert(n + 1, json.dumps({"event": rng.choice(["roll", "decision", "end"]),
                                          "value": edge_value(rng)}))
        elif op == "raw":
            out[n] = rng.choice(["[" * 100_000, '{"a": ' + "9" * 5000 + "}", "{", "\x00",
                                 out[n][: rng.randrange(len(out[n]) + 1)]])
    return out


# A working command of each kind, with a place for a log file (mutated separately).
COMMANDS = [
    ["play", "pig", "--players", "2", "--seed", "1", "--option", "target=20", "--agents", "random"],
    ["play", "goofspiel", "--seed", "3", "--agents", "greedy,random", "--json"],
    ["check", "pig", "--strict"],
    ["games", "--json"],
    ["play", "pig:short", "--variant", "short", "--log", "LOG"],
    ["replay", "LOG"],
    # commands that write a file (OUT: a path in the scratch folder), for failing writes too
    ["play", "pig", "--seed", "2", "--log", "OUT"],
    ["new", "variant", "pig", "house", "-o", "OUT"],
    ["diagram", "pig", "--format", "dot", "-o", "OUT"],
]


def write_failure(rng: random.Random) -> tuple[int, int] | None:
    """A full or failing disk (an errno) and which writing call of the command fails (faults.py:
    making the temporary file, writing, flushing, renaming it into place), or none."""
    return (rng.choice(WRITE_FAILURES), rng.randrange(6)) if rng.random() < 0.3 else None


def mutate_argv(rng: random.Random) -> list[str]:
    """A working command line with one argument replaced by an edge value, or one dropped."""
    argv = list(rng.choice(COMMANDS))
    i = rng.randrange(1, len(argv))
    if rng.random() < 0.2:
        del argv[i]
    else:
        value = edge_value(rng)
        argv[i] = (argv[i].partition("=")[0] + "=" + str(value)[:5000] if "=" in argv[i]
                   else str(value)[:5000])
    return argv


def dump(doc) -> str:
    """The YAML text of a (mutated) document, by libyaml's emitter when there is one: Python's
    own takes more time than loading, checking and playing the game."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    try:
        return yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=True)
    except UnicodeEncodeError:  # a lone surrogate: written as its escape, "\uD800"
        return yaml.dump(doc, Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=False)
