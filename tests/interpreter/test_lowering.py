"""Generator functions lowered to copyable routines (interpreter/lowering.py): each program runs
as the plain generator and as the lowered routine under the same script of sends, throws and
closes, and everything observable must agree: the values yielded, the value returned, the
exception raised (type and message) and the side effects in order. Then copies: a routine
copied at every pause plays on exactly as the original does, and independently of it."""
from __future__ import annotations

import functools
import textwrap

import pytest

from meeplang.interpreter import lowering as L

PROGRAMS = {
    "plain": """
        def g(log, n):
            log.append("start")
            x = yield n
            log.append(x)
            y = yield x * 2
            return (x, y)
    """,
    "loop_break_continue": """
        def g(log, n):
            total = 0
            for i in range(n):
                if i == 1:
                    continue
                v = yield i
                if v == "stop":
                    break
                total += v or 0
            else:
                log.append("no break")
            return total
    """,
    "while_else": """
        def g(log, n):
            i = 0
            while i < n:
                got = yield i
                log.append(got)
                i += 1
                if got == "end":
                    break
            else:
                log.append("done")
            return i
    """,
    "try_finally": """
        def g(log, n):
            log.append("in")
            try:
                a = yield 1
                if a == "ret":
                    return "early"
                b = yield 2
            finally:
                log.append("finally")
            log.append("after")
            return a, b
    """,
    "finally_pauses": """
        def g(log, n):
            try:
                a = yield "body"
                if a == "ret":
                    return "from body"
                if a == "boom":
                    raise KeyError("boom")
            finally:
                c = yield "cleanup"
                log.append(("cleanup", c))
            return "normal"
    """,
    "except_and_else": """
        def g(log, n):
            try:
                a = yield 1
                if a == "bad":
                    raise ValueError("bad value")
            except ValueError as e:
                log.append(("caught", str(e)))
                b = yield "handling"
                return b
            except KeyError:
                log.append("key")
                raise
            else:
                log.append("else")
                c = yield "else"
                return c
    """,
    "nested_try_jumps": """
        def g(log, n):
            out = []
            for i in range(n):
                try:
                    try:
                        v = yield i
                        if v == "brk":
                            break
                        if v == "cont":
                            continue
                        if v == "ret":
                            return ("ret", out)
                        out.append(v)
                    finally:
                        log.append(("inner", i))
                finally:
                    log.append(("outer", i))
            return out
    """,
    "yield_from": """
        def sub(log, k):
            try:
                a = yield ("sub", k)
                if a == "raise":
                    raise RuntimeError("in sub")
                return a
            finally:
                log.append(("sub done", k))

        def g(log, n):
            got = []
            for k in range(n):
                try:
                    r0 = yield from sub(log, k)
                    got.append(r0)
                except RuntimeError as e:
                    log.append(("outer caught", str(e)))
            r = yield from iter([10, 20])
            return got, r
    """,
    "return_yield_from": """
        def sub(log, k):
            a = yield k
            return a + 1

        def g(log, n):
            log.append("g")
            return (yield from sub(log, n))
    """,
    "captured": """
        def g(log, n):
            items = list(range(n))
            remake = lambda: [x * 10 for x in items]
            while items:
                choice = yield remake()
                items.remove(choice)
                log.append(remake())
            return "empty"
    """,
    "captured_reassigned": """
        def g(log, n):
            k = 0
            def bump():
                nonlocal k
                k += 1
                return k
            a = yield bump()
            k = k + 100
            b = yield bump()
            return k, a, b
    """,
    "native_loops_kept": """
        def g(log, n):
            acc = [i * i for i in range(n) if i % 2]
            for x in acc:
                if x > 5:
                    log.append(("big", x))
            try:
                v = int("12")
            except ValueError:
                v = 0
            got = yield acc
            return v + (got or 0)
    """,
}

SCRIPTS = [
    [("send", None), ("send", 3), ("send", 4), ("send", 5), ("send", 6), ("send", 7)],
    [("send", None), ("send", "stop"), ("send", 1)],
    [("send", None), ("send", "ret"), ("send", "x"), ("send", "y")],
    [("send", None), ("send", "bad"), ("send", "b"), ("send", "c")],
    [("send", None), ("send", "boom"), ("send", "c")],
    [("send", None), ("send", "brk"), ("send", 1)],
    [("send", None), ("send", "cont"), ("send", 5), ("send", "ret")],
    [("send", None), ("send", "raise"), ("send", 2), ("send", 3), ("send", 4)],
    [("send", None), ("send", "end"), ("send", 1)],
    [("send", None), ("throw", ValueError("thrown")), ("send", 1), ("send", 2)],
    [("send", None), ("throw", KeyError("k")), ("send", 1)],
    [("send", None), ("send", 1), ("close",), ("send", 2)],
    [("send", None), ("close",)],
    [("close",), ("send", None)],
    [("throw", ValueError("early")), ("send", None)],
    [("send", None), ("send", 0), ("send", 1), ("send", 2)],
    [("send", 5)],
]


def _load(src: str, lowered: bool) -> dict:
    ns: dict = {}
    code = textwrap.dedent(src)
    if lowered:
        L.compile_lowered(code, "<test>", ns)
    else:
        exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own source
    return ns


def _act(gen, act, out: list) -> bool:
    """Do one step of a script; note what happened. False once the generator is over."""
    try:
        if act[0] == "send":
            out.append(("yield", gen.send(act[1])))
        elif act[0] == "throw":
            out.append(("yield", gen.throw(act[1])))
        else:
            out.append(("close", gen.close()))
    except StopIteration as stop:
        out.append(("return", stop.value))
    except Exception as exc:  # what the program raised, compared by type and message
        out.append(("raise", type(exc).__name__, str(exc)))
    return True


def _run(ns: dict, n: int, script) -> list:
    log: list = []
    gen = ns["g"](log, n)
    out: list = []
    for act in script:
        _act(gen, act, out)
    return out + [("log", list(log))]  # before the generator is collected (and closed)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lowered_routine_does_what_the_generator_does(name):
    plain, lowered = _load(PROGRAMS[name], False), _load(PROGRAMS[name], True)
    assert isinstance(lowered["g"]([], 1), L.Routine)
    for n in (0, 1, 3):
        for script in SCRIPTS:
            assert _run(lowered, n, script) == _run(plain, n, script), (name, n, script)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_copy_at_any_pause_plays_on_like_the_original(name):
    """Copy at each pause of a script; the copy and the original, given the same rest of the
    script, do the same; the original's log is untouched by the copy's moves."""
    ns = _load(PROGRAMS[name], True)
    for script in SCRIPTS:
        for cut in range(1, len(script)):
            log: list = []
            gen = ns["g"](log, 3)
            head: list = []
            for act in script[:cut]:
                _act(gen, act, head)
            memo: dict = {}
            twin = L.copy_value(gen, memo)
            twin_log = memo.get(id(log), log)
            if not gen.over:
                assert twin_log is not log
            before = list(log)
            rest_twin: list = []
            for act in script[cut:]:
                _act(twin, act, rest_twin)
            assert log == before, "the copy's moves changed the original"
            rest: list = []
            for act in script[cut:]:
                _act(gen, act, rest)
            assert rest_twin == rest, (name, script, cut)
            assert twin_log == log


def test_a_copied_callback_reads_the_copy():
    ns = _load(PROGRAMS["captured"], True)
    log: list = []
    gen = ns["g"](log, 3)
    first = gen.send(None)
    assert first == [0, 10, 20]
    twin = L.copy_value(gen, {id(log): []})
    assert twin.send(1) == [0, 20]
    assert gen.send(2) == [0, 10]  # the original's items were not touched by the copy


def test_a_copied_callback_reads_the_copy_through_its_default_values():
    """`lambda pc=pc: options(pc)`: the value bound as a default is the copy's own."""
    ns = _load("""
        def g(log, n):
            box = [0]
            callback = lambda box=box: list(box)
            x = yield callback()
            box.append(x)
            return callback()
    """, True)
    gen = ns["g"]([], 0)
    assert gen.send(None) == [0]
    twin = L.copy_value(gen, {})
    with pytest.raises(StopIteration) as twin_end:
        twin.send(5)
    with pytest.raises(StopIteration) as end:
        gen.send(7)
    assert (twin_end.value.value, end.value.value) == ([0, 5], [0, 7])


def test_a_copy_shares_what_a_factory_made_once_and_copies_its_own_cells():
    """A plain function that makes a lowered generator (the compiler's `_Compiler.turns`) holds
    values made once, with the rules: routines of every copy share them, and their step
    function, with no cells made anew (a copy of New Eden made 19 of them for nothing). A
    generator's own captured locals are the routine's: its copy gets new cells."""
    ns = _load("""
        def factory(rules):
            def g(log, n):
                x = yield len(rules)
                return rules[x]
            return g

        def h(log, n):
            seen = []
            note = lambda v: seen.append(v) or list(seen)
            x = yield note(n)
            return note(x)
    """, True)
    rules = ["a", "b"]
    made = ns["factory"](rules)([], 0)
    assert made.send(None) == 2
    twin = L.copy_value(made, {})
    assert twin.step is made.step  # the factory's cell (rules) is shared, not copied
    with pytest.raises(StopIteration) as end:
        twin.send(1)
    assert end.value.value == "b"
    own = ns["h"]([], 3)
    assert own.send(None) == [3]
    own_twin = L.copy_value(own, {})
    assert own_twin.step is not own.step  # `seen` is the routine's own: the copy's cell is new
    with pytest.raises(StopIteration) as twin_end:
        own_twin.send(4)
    with pytest.raises(StopIteration) as orig_end:
        own.send(5)
    assert (twin_end.value.value, orig_end.value.value) == ([3, 4], [3, 5])


def test_copying_refuses_a_plain_generator():
    def plain():
        yield 1
    ns = _load("""
        def g(log, n):
            x = yield from log
            return x
    """, True)
    gen_inner = plain()
    r = ns["g"](gen_inner, 0)
    assert r.send(None) == 1
    with pytest.raises(L.NotCopyable, match="plain generator"):
        L.copy_value(r, {})


def test_partial_and_bound_methods_follow_the_copy():
    class Box:
        def __init__(self):
            self.items = [1, 2]

        def __copy_into__(self, memo):
            out = memo[id(self)] = Box()
            out.items = L.copy_value(self.items, memo)
            return out

        def total(self, extra):
            return sum(self.items) + extra

    box = Box()
    held = [functools.partial(box.total, 1), box.total]
    twin = L.copy_value(held, {})
    box.items.append(10)
    assert twin[0]() == 4 and twin[1](0) == 3
    assert held[0]() == 14


def test_what_the_lowering_refuses_is_said_with_its_line():
    with pytest.raises(L.LoweringError, match="line 3"):
        L.lower_source("def g():\n    x = 1\n    y = f((yield x))\n")


# ------------------------------------------------------------------ the cache of lowered code
CACHED = """
def g(log):
    x = yield 1
    log.append(x)
    return x
"""


def _run_cached(filename: str = "<cached>") -> list:
    ns: dict = {}
    L.compile_lowered(CACHED, filename, ns)
    log: list = []
    r = ns["g"](log)
    assert type(r) is L.Routine and next(r) == 1
    with pytest.raises(StopIteration):
        r.send("sent")
    return log


def test_lowered_code_is_kept_and_used_again(cache_dir, monkeypatch):
    assert _run_cached() == ["sent"]
    (entry,) = cache_dir.glob(f"*{L.cache_suffix()}")

    def fail(*_):
        raise AssertionError("lowered again instead of coming from the cache")
    monkeypatch.setattr(L, "lower_source", fail)
    assert _run_cached() == ["sent"]
    with pytest.raises(AssertionError, match="lowered again"):  # another source: a miss
        L.lowered_code(CACHED + "\n# changed\n", "<cached>")
    assert entry.exists()


@pytest.mark.parametrize("forgery", ["unsigned", "signed with another key", "another key's code"])
def test_a_planted_code_entry_is_never_run(cache_dir, monkeypatch, forgery):
    """An entry the user's own Meeplang did not write is lowered afresh, never loaded: it
    would be code."""
    import marshal
    import os

    from meeplang.dsl import cache
    _run_cached()
    (entry,) = cache_dir.glob(f"*{L.cache_suffix()}")
    key = entry.name.split(".")[0]
    evil = marshal.dumps(compile("raise SystemExit('planted code ran')", "<cached>", "exec"))
    payload = key.encode() + b"\0" + evil
    if forgery == "unsigned":
        entry.write_bytes(b"\0" * cache.MAC_BYTES + payload)
    elif forgery == "signed with another key":
        entry.write_bytes(cache._mac(os.urandom(cache.KEY_BYTES), payload) + payload)
    else:  # the user's signature, but over an entry filed under another source's key
        other = ("0" * 64).encode() + b"\0" + evil
        entry.write_bytes(cache._mac(cache.signing_key(), other) + other)
    assert _run_cached() == ["sent"]
