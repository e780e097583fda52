"""The verifier refuses whatever the generator does not emit, and the module runs without
builtins."""
from __future__ import annotations

import re

import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.codecheck import (LOWERED_BUILTINS, GeneratedCodeError, load,
                                            verify)
from meeplang.interpreter.codegen import generate
from meeplang.interpreter.compile import Compiled

NAMES = frozenset({"plus", "index", "P", "S", "type", "int", "MISSING"})
GOOD = """def e0(c):
    return plus(c, c.v['x'], (1), P[0])

def formula0(c, t4, t5):
    return plus(c, t4, t5, P[0])

def b1(c):
    for t1 in c.v['xs']:
        c.eng.tick(P[0])
        c.v['x'] = t1
        if type(t2 := c.v['y']) is int and t2 > 1:
            yield from S[0](c)
        else:
            S[1](c)
        if c.eng.pending_now or c.eng.watching_now:
            yield from c.eng.flush_now(c)

def choice0(c):
    t3 = c.v['x'] if 'x' in c.v else MISSING
    t4 = []
    for t5 in c.v['xs']:
        c.v['x'] = t5
        if t5 > 1:
            t4.append(t5)
    if t3 is not MISSING:
        c.v['x'] = t3
    elif 'x' in c.v:
        del c.v['x']
    return t4
"""


def test_a_generated_looking_module_passes():
    verify(GOOD, NAMES)


@pytest.mark.parametrize("source, why", [
    ("import os\n", "Import"),
    ("from os import system\n", "ImportFrom"),
    ("def e0(c):\n    return c.__class__\n", "'__class__'"),
    ("def e0(c):\n    return c.eng.game\n", "'game'"),
    ("def e0(c):\n    return __import__\n", "'__import__'"),
    ("def e0(c):\n    return __import__('os')\n", "calls name"),
    ("def e0(c):\n    return _hidden\n", "'_hidden'"),
    ("def e0(c):\n    return eval('1')\n", "calls name"),
    ("def e0(c):\n    return len(c.v)\n", "calls name"),
    ("def e0(c):\n    return int('1')\n", "calls name"),
    ("def e0(c):\n    return type('x', (), {})\n", "calls name"),
    ("def e0(c):\n    return c.eng.can('x')\n", "calls name"),
    ("def e0(c):\n    return c.v.tick(P[0])\n", "method of the engine"),
    ("def e0(c):\n    return c.v.append(1)\n", "calls name"),
    ("def e0(c):\n    return c(c)\n", "calls name"),
    ("def e0(c):\n    return P[0](c)\n", "calls name"),
    ("def e0(c):\n    return S[c](c)\n", "calls name"),
    ("def e0(c):\n    return plus(c, c, c, P, key=1)\n", "keyword"),
    ("def e0(c):\n    return (lambda: 1)()\n", "Lambda"),
    ("def e0(c):\n    return [x for x in c.v]\n", "ListComp"),
    ("def e0(c):\n    return b'x'\n", "bytes literal"),
    ("def e0(c):\n    return 1.5\n", "float literal"),
    ("def e0(c):\n    return f'{c}'\n", "JoinedStr"),
    ("def e0(c):\n    x = 1\n    return x\n", "only temporaries are assigned, not 'x'"),
    ("def e0(c):\n    c = 1\n", "only temporaries are assigned, not 'c'"),
    ("def e0(c):\n    c.s['counters'] = 1\n", "only a rule's locals"),
    ("def e0(c):\n    c.v = 1\n", "'v' is not one of"),
    ("def e0(c):\n    del c.s['counters']\n", "only a rule's locals (`del c.v[...]`)"),
    ("def e0(c):\n    del c.v['x'], t1\n", "only a rule's locals (`del c.v[...]`)"),
    ("def e0(c):\n    del t1\n", "only a rule's locals (`del c.v[...]`)"),
    ("def e0(c):\n    del c.v\n", "only a rule's locals (`del c.v[...]`)"),
    ("def choices0(c):\n    return 1\n", "at the top level"),
    ("def e0(c):\n    while c:\n        pass\n", "While"),
    ("def e0(c):\n    def e1(c):\n        return 1\n", "at the top level"),
    ("def e0(c):\n    yield 1\n", "Yield"),
    ("def e0(c, d=1):\n    return d\n", "def NAME(c)"),
    ("def formula0(c, x):\n    return x\n", "def NAME(c)"),
    ("def formula0(c, t1: plus):\n    return t1\n", "def NAME(c)"),
    ("def formula0(t1, c):\n    return t1\n", "def NAME(c)"),
    ("def formula0(c, *t1):\n    return t1\n", "def NAME(c)"),
    ("@plus\ndef e0(c):\n    return 1\n", "def NAME(c)"),
    ("def run(c):\n    return 1\n", "at the top level"),
    ("def e0(c):\n    return 1\nplus(c)\n", "at the top level"),
    ("def e0(c):\n    return 1 +\n", "does not parse"),
])
def test_anything_else_is_refused(source, why):
    with pytest.raises(GeneratedCodeError, match=re.escape(why)):
        verify(source, NAMES)


@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_game_generates_a_module_the_verifier_accepts(name):
    game = load_game(name)
    generated = generate(game)
    namespace = load(generated, Compiled(game))
    functions = [namespace[name] for name in [*generated.names.values(),
                                              *generated.blocks.values()]]
    assert generated.blocks and generated.names
    builtins = LOWERED_BUILTINS  # the lowered steps' own few
    assert all(fn.__globals__["__builtins__"] == builtins for fn in functions)
