"""No text of a game file can change the generated code: only its literals.

One small game is written with ordinary names and texts, then again with hostile ones in each
place a game file holds text (declared names, local names, strings in rule text, table values,
item fields, terms, the title). The generated module must keep the same shape (its `ast` dump with
literals blanked), and playing it must run nothing the text says.
"""
from __future__ import annotations

import ast
import json

import pytest

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.codegen import generate
from meeplang.interpreter.compile import Compiled
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.generated import generated_program

from .pairing import Differential

NAME_SLOTS = ("opt", "tab", "cnt", "zone", "kind", "field", "form", "arg", "act", "local", "var")
PLAIN_NAMES = {slot: f"plain_{slot}" for slot in NAME_SLOTS}
PLAIN_TEXT = "plain"

HOSTILE_NAMES = ["__import__", "__builtins__", "_", "c", "P", "e0", "formula0", "zone", "eval",
                 "exec", "Ctx", "x" * 1000]  # YAML keys stop at 1024 characters


def hostile_texts(marker) -> list[str]:
    attack = f"__import__('os').system('touch {marker}')"
    return [
        f'"; {attack} #', f"'); {attack} #", f"\\'{attack}", "\\", "\\\\\"", '"""', "'''",
        f"\n{attack}\ndef e0(c):\n    return 1\n", f"\r{attack}", f"\u2028{attack}",
        "{c.__class__.__mro__}", "{{}}", "{0}", "%s%r",
        "ｅｖａｌ(１)", "ехес", "＿＿import＿＿",  # full-width and Cyrillic look-alikes
        f"# {attack}", "y" * 4000,  # rule text stops at 20,000 characters
    ]


def game_text(names: dict, text: str) -> str:
    """The game (JSON is YAML), with `names` in every name slot and `text` in every text slot."""
    n = names
    # as a string in rule text, which holds no line break and escapes only `"` and `\`
    flat = text.replace("\r", " ").replace("\n", " ")
    s, key = (t.replace("\\", "\\\\").replace('"', '\\"') for t in (flat, flat[:1000]))
    rule = (f'let {n["local"]} = "{s}"\n'
            f'if {n["local"]} == "{s}" and count([{n["var"]} for {n["var"]} in {n["zone"]} '
            f'if {n["var"]}.{n["field"]} == "{s}"]) >= 0 and '
            f'{n["tab"]}["{key}"].{n["field"]} != none:\n'
            f'  gain {n["form"]}({n["opt"]}) {n["cnt"]}\n'
            f'log "{s}"\n'
            "end turn\n")
    game = {
        "meeplang": 1, "game": "hostile", "title": {"en": text}, "players": {"min": 2, "max": 2},
        "options": {n["opt"]: {"default": 3, "min": 1, "max": 9}},
        "terms": {n["cnt"]: {"en": text}},
        "tables": {n["tab"]: {flat[:1000]: {n["field"]: text}}},  # YAML keys: 1024 at most
        "counters": {n["cnt"]: {"per": "player", "initial": 0}},
        "zones": {n["zone"]: {}},
        "items": {n["kind"]: {"count": 2, "zone": n["zone"],
                              "fields": {n["field"]: f'"{s}"'}}},
        "formulas": {f'{n["form"]}({n["arg"]})': f'{n["arg"]} + 1'},
        "flow": [{"turns": {"first": 0, "actions": [n["act"]], "until": "one_round"}}],
        "actions": {n["act"]: {"effect": rule}},
        "scoring": {"score": n["cnt"]},
    }
    return json.dumps(game)  # ASCII: YAML would read a raw U+2028 as a line break


def shape(source: str) -> str:
    """The module's syntax tree with every literal blanked."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.value = None
    return ast.dump(tree)


def generated_shape(tmp_path, label: str, names: dict, text: str) -> str:
    folder = tmp_path / label
    folder.mkdir()
    (folder / "game.yaml").write_text(game_text(names, text), encoding="utf-8")
    game = load_game(str(folder))
    diff = Differential(game)  # verified and loaded
    prog = Compiled(game, expr_hook=diff.hook)
    engine = Engine(game, 2, 0)
    engine.prog = prog  # play it: each generated function runs beside its closure
    d = engine.start()
    while d is not None:
        d = engine.choose(0)
    assert engine.state["players"][0][names["cnt"]] == 4  # `gain f(3)` ran: the rule held
    assert len(diff.calls) == len(diff.generated.names)  # every generated function ran
    engine = Engine(game, 2, 0)
    engine.prog = generated_program(game)  # and the blocks: the action's effect, generated
    assert engine.prog.actions[names["act"]].effect_plain.__name__.startswith("b")
    d = engine.start()
    while d is not None:
        d = engine.choose(0)
    assert engine.state["players"][0][names["cnt"]] == 4
    return shape(diff.generated.source)


@pytest.fixture
def plain_shape(tmp_path):
    return generated_shape(tmp_path, "plain", PLAIN_NAMES, PLAIN_TEXT)


@pytest.mark.parametrize("slot", NAME_SLOTS)
def test_hostile_names_do_not_change_the_code(tmp_path, plain_shape, slot):
    accepted = []
    for i, hostile in enumerate(HOSTILE_NAMES):
        names = dict(PLAIN_NAMES, **{slot: hostile})
        try:
            got = generated_shape(tmp_path, f"{slot}{i}", names, PLAIN_TEXT)
        except MeeplangError:
            continue  # refused by the checker here (formulas are lower case): never generated
        assert got == plain_shape, hostile
        accepted.append(hostile)
    assert "__import__" in accepted and "x" * 1000 in accepted


def test_hostile_texts_do_not_change_the_code_and_run_nothing(tmp_path, plain_shape):
    marker = tmp_path / "ran"
    for i, hostile in enumerate(hostile_texts(marker)):
        assert generated_shape(tmp_path, f"text{i}", PLAIN_NAMES, hostile) == plain_shape, hostile
    assert not marker.exists()


def test_a_hostile_file_name_stays_inside_its_comment(tmp_path, plain_shape):
    """The `file:line` comment above each function is the one place a path is written as text:
    it is ASCII-escaped, so a line break in a folder's name cannot start a line of code."""
    folder = tmp_path / "evil\nimport os\nos.system('true')\n#"  # (a colon would name a variant)
    folder.mkdir()
    (folder / "game.yaml").write_text(game_text(PLAIN_NAMES, PLAIN_TEXT), encoding="utf-8")
    game = load_game(str(folder))
    source = generate(game, every_site=True).source
    assert shape(source) == plain_shape
    assert all(line.startswith(("#", "def ", "    ")) for line in source.splitlines() if line)
