"""Generator functions lowered to routines whose position is data (Engine 3, step 1).

A Python generator cannot be copied: where it stands lives in a frame only the interpreter can
read. This module rewrites the source of a generator function, as C#'s iterator lowering and
regenerator (JavaScript) do, into

- a *wrapper* with the original name and signature that returns a `Routine` instead of a
  generator: the function's locals as a list (`Routine.L`) and a program counter (`Routine.pc`);
- a *step* function that runs from `pc` to the next pause: a `while True` over the function's
  basic blocks (a block ends at each `yield`, at each jump of a loop, `if` or `try` that holds
  one), which returns the value yielded, having stored `pc` and the locals, or raises
  StopIteration with the return value.

A Routine keeps the generator protocol (`send`, `throw`, `close`, iteration), so lowered and
plain generators call each other with `yield from` unchanged, and it can be copied
(`copy_value`): its locals are data (or routines, copied in turn), never a paused interpreter
frame. `try`/`except`/`finally` around a pause, `return` inside `finally` regions, `break` and
`continue` out of them, `close()` running the pending `finally` blocks and `throw()` forwarded
into `yield from` are all kept (tests/interpreter/test_lowering.py runs each such program both
ways and compares every value, exception and side effect).

Statements that hold no pause, no `return` and no jump out of themselves are kept as they are,
so a loop that never pauses runs as the same Python loop. A variable that a nested function or
lambda reads (a `remake` callback) lives in a cell shared by the step and that function, and a
copy gives both new cells (`CAPTURED`), so the callback of a copy reads the copy's variables.

Only the project's own source is lowered (the engine and the compiled rules' code generator);
never any text of a game file.
"""
from __future__ import annotations

import ast
import functools
import types
from typing import Any

__all__ = ["Routine", "UNSET", "NotCopyable", "lower_source", "copy_value", "CAPTURED"]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"

    def __reduce__(self):
        return "UNSET"


UNSET = _Unset()  # a local not assigned yet


class NotCopyable(Exception):
    """A value in a routine's locals that is not data (a plain generator, an open file...)."""


class _Done:
    __slots__ = ()

    def __repr__(self) -> str:
        return "DONE"


DONE = _Done()  # what a step returns when its routine is over (its value in `Routine.L`)


class Routine:
    """A lowered generator: the step function, where it stands (`pc`: 0 not started, -1 over),
    its locals (once over: its return value) and the routine it waits on in a `yield from`
    (`child`). A step returns the value yielded, or DONE when the routine returns: lowered
    callers test for DONE; the generator protocol (`send`, `next`, `throw`) raises
    StopIteration as a generator does.

    `send` is a trampoline: it goes down the `child` links to the innermost routine and steps
    that one alone, then, when it is over, its caller with its value (or its exception): a
    decision deep in an action costs one step, not one per routine on the way down."""

    __slots__ = ("step", "pc", "L", "child")

    def __init__(self, step, locals_: list):
        self.step, self.pc, self.L, self.child = step, 0, locals_, None

    def __iter__(self):
        return self

    def __next__(self):
        if self.pc < 0:
            raise StopIteration
        y = _drive(self, None, None)
        if y is DONE:
            raise StopIteration(self.L)
        return y

    def send(self, value):
        if self.pc < 0:
            raise StopIteration
        if self.pc == 0 and value is not None:
            raise TypeError("can't send non-None value to a just-started generator")
        y = _drive(self, value, None)
        if y is DONE:
            raise StopIteration(self.L)
        return y

    def throw(self, typ, val=None, tb=None):
        exc = typ if isinstance(typ, BaseException) else (typ() if val is None else typ(val))
        if self.pc <= 0:  # not started, or over: raised here, as a generator does
            self.pc, self.L = -1, None
            raise exc
        y = _drive(self, None, exc)
        if y is DONE:
            raise StopIteration(self.L)
        return y

    def close(self) -> None:
        if self.pc <= 0:
            self.pc, self.L = -1, None
            return
        try:
            y = self.step(self, None, GeneratorExit())
        except GeneratorExit:
            return
        if y is not DONE:
            raise RuntimeError("generator ignored GeneratorExit")

    @property
    def over(self) -> bool:
        return self.pc < 0

    def __repr__(self) -> str:
        return f"<Routine {self.step.__name__} at {self.pc}>"


def _drive(top: Routine, value, exc):
    """Run the chain of routines under `top` to its next pause: the innermost first."""
    r = top
    if r.child is None:  # nothing below it (most sends): its step alone
        return r.step(r, value, exc)
    path = []
    while r.child is not None:
        path.append(r)
        r = r.child
    while True:
        try:
            y = r.step(r, value, exc)
        except BaseException as raised:
            if not path:
                raise
            r, value, exc = path.pop(), None, raised
            continue
        if y is not DONE or not path:
            return y
        r, value, exc = path.pop(), None, None


# code object of a step or of a function nested in a lowered function -> the names of its free
# variables that are cells of the routine (copied with it); filled when lowered code is compiled
CAPTURED: dict = {}
NESTED: set = set()  # code of every function defined inside a lowered step (callbacks)


def register(code: types.CodeType, captured: frozenset) -> None:
    """Note which free variables of `code` and of every function nested in it are the
    routine's own cells (`captured`)."""
    todo = [code]
    while todo:
        co = todo.pop()
        mine = captured.intersection(co.co_freevars)
        if mine:
            CAPTURED[co] = frozenset(mine)
        todo.extend(k for k in co.co_consts if isinstance(k, types.CodeType))


# ------------------------------------------------------------------ copying


def copy_value(x, memo: dict) -> Any:
    """A copy of a routine's local `x` for another game: `memo` maps id() of what is already
    copied (and, given by the caller, the engine and its state) to the copy. Data is copied,
    routines are copied with their locals, functions are shared unless they read a routine's
    cells; types with a copier in `COPIERS` or a `__copy_into__(memo)` method copy
    themselves; types listed in `SHARED` (values
    nothing changes: the rules, options) are shared; anything else is refused."""
    t = type(x)
    if t in SHARED:
        return x
    got = memo.get(id(x))
    if got is not None:
        return got
    fn = _COPY.get(t)
    if fn is None:
        fn = COPIERS.get(t)
    if fn is not None:
        return fn(x, memo)
    hook = getattr(x, "__copy_into__", None)
    if hook is not None:
        return hook(memo)
    if isinstance(x, (BaseException, str, int, float, tuple)):  # values nobody changes
        return x
    if t in _SEQ_ITERATORS:  # where an iterator over a list stands is data: its index
        fn, args, *index = x.__reduce__()
        out = memo[id(x)] = fn(*copy_value(args, memo))
        if index:
            out.__setstate__(index[0])
        return out
    if t is types.GeneratorType:
        raise NotCopyable(f"a plain generator ({x.__name__}) holds where it stands: it cannot "
                          "be copied")
    raise NotCopyable(f"cannot copy a {t.__name__} held by a routine")


def _copy_list(x: list, memo: dict) -> list:
    out = memo[id(x)] = x[:]
    shared = SHARED
    for i, v in enumerate(x):
        if type(v) not in shared:
            out[i] = copy_value(v, memo)
    return out


def _copy_dict(x: dict, memo: dict) -> dict:
    out = memo[id(x)] = x.copy()
    shared = SHARED
    for k, v in x.items():
        if type(v) not in shared:
            out[k] = copy_value(v, memo)
    return out  # keys are strings, numbers, tuples of them: shared


def _copy_tuple(x: tuple, memo: dict) -> tuple:
    shared = SHARED
    for v in x:
        if type(v) not in shared:
            break
    else:
        return x
    out = tuple([copy_value(v, memo) for v in x])
    memo[id(x)] = out
    return out


def _copy_routine(x: Routine, memo: dict) -> Routine:
    out = memo[id(x)] = Routine(x.step, None)  # type: ignore[arg-type]
    out.pc = x.pc
    out.child = None if x.child is None else _copy_routine(x.child, memo) \
        if id(x.child) not in memo else memo[id(x.child)]
    out.step = _copy_function(x.step, memo)
    out.L = copy_value(x.L, memo) if x.pc < 0 else _copy_list(x.L, memo)  # over: its value
    return out


def _copy_method(x, memo: dict):
    out = memo[id(x)] = types.MethodType(x.__func__, copy_value(x.__self__, memo))
    return out


def _copy_partial(x, memo: dict):
    out = memo[id(x)] = functools.partial(copy_value(x.func, memo), *copy_value(x.args, memo),
                                          **copy_value(x.keywords, memo))
    return out


def _copy_set(x, memo: dict):
    out = memo[id(x)] = type(x)(copy_value(v, memo) for v in x)
    return out


_SEQ_ITERATORS = (type(iter([])), type(iter(())), type(iter(range(0))))
COPIERS: dict = {}  # type -> its copier (value, memo), registered by the modules that own it
# types whose values are shared between copies: plain immutable values, and what modules register
# (the rules: syntax tree, compiled program, options offered)
SHARED: set = {int, str, float, bool, type(None), bytes, _Unset, range, type, types.ModuleType,
               types.BuiltinFunctionType}
_COPY = {list: _copy_list, dict: _copy_dict, tuple: _copy_tuple, Routine: _copy_routine,
         types.FunctionType: lambda x, memo: _copy_function(x, memo), types.MethodType: _copy_method,
         functools.partial: _copy_partial, set: _copy_set, frozenset: _copy_set}


def _copy_function(fn, memo: dict):
    """A function made inside a lowered routine (a callback: `lambda pc=pc: options(pc)`) reads
    the routine's cells and its own default values: the copy's reads the copy's. Any other
    function is code, shared."""
    code = fn.__code__
    names = CAPTURED.get(code)
    if not names and code not in NESTED:
        return fn
    got = memo.get(id(fn))
    if got is not None:
        return got
    cells = []
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        if not names or name not in names:
            cells.append(cell)
            continue
        new = memo.get(id(cell))
        if new is None:
            new = memo[id(cell)] = types.CellType()
            try:
                content = cell.cell_contents
            except ValueError:  # not assigned yet
                pass
            else:
                new.cell_contents = copy_value(content, memo)
        cells.append(new)
    defaults = fn.__defaults__
    out = types.FunctionType(code, fn.__globals__, fn.__name__,
                             None if defaults is None else copy_value(defaults, memo),
                             tuple(cells) if fn.__closure__ is not None else None)
    out.__kwdefaults__ = None if fn.__kwdefaults__ is None else copy_value(fn.__kwdefaults__, memo)
    out.__qualname__ = fn.__qualname__
    memo[id(fn)] = out
    return out


# ------------------------------------------------------------------ the transformation
class LoweringError(Exception):
    """Source the lowering does not handle (a developer's error, with its line)."""


_NO_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_nodes(node):
    """The nodes of `node` in its own scope (not inside nested functions, lambdas, classes)."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, _NO_SCOPE):
            todo.extend(ast.iter_child_nodes(n))


def is_generator(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(fn))


def _has_pause(node) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(node)) or \
        isinstance(node, (ast.Yield, ast.YieldFrom))


def _needs(s: ast.stmt) -> bool:
    """Must this statement be split into blocks: does it pause, return, or jump out of itself?"""
    if isinstance(s, _NO_SCOPE):  # a nested function or class: a scope of its own
        return False
    if _has_pause(s) or isinstance(s, (ast.Return, ast.Break, ast.Continue)):
        return True
    todo = [(c, False) for c in ast.iter_child_nodes(s)]
    while todo:
        n, in_loop = todo.pop()
        if isinstance(n, _NO_SCOPE):
            continue
        if isinstance(n, ast.Return):
            return True
        if isinstance(n, (ast.Break, ast.Continue)) and not in_loop:
            return True
        inner = in_loop or isinstance(n, (ast.For, ast.While))
        # a loop's `else` is outside the loop for break/continue
        if isinstance(n, (ast.For, ast.While)):
            todo.extend((c, True) for c in n.body)
            todo.extend((c, in_loop) for c in n.orelse)
            todo.append((n.iter if isinstance(n, ast.For) else n.test, in_loop))
            continue
        todo.extend((c, inner) for c in ast.iter_child_nodes(n))
    return False


def _assigned_names(fn: ast.FunctionDef) -> list[str]:
    """Local names of the function: parameters first, then every name it binds (outside the
    comprehensions, whose variables are their own), in order of appearance."""
    out = _param_names(fn)
    declared: set = set()
    for n in _own_nodes(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared.update(n.names)
    found = []
    for n in _walk_outside_comprehensions(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            found.append((n.lineno, n.col_offset, n.id))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((n.lineno, n.col_offset, n.name))
        elif isinstance(n, ast.ExceptHandler) and n.name:
            found.append((n.lineno, n.col_offset, n.name))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            found += [(n.lineno, n.col_offset, (al.asname or al.name).split(".")[0])
                      for al in n.names]
    for _, _, name in sorted(found):
        if name not in out and name not in declared:
            out.append(name)
    return out


def _walk_outside_comprehensions(fn):
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, _NO_SCOPE):
            continue
        if isinstance(n, _COMPREHENSIONS):
            # the first iterable is evaluated in the enclosing scope
            todo.append(n.generators[0].iter)
            continue
        todo.extend(ast.iter_child_nodes(n))


def _captured(fn: ast.FunctionDef, locals_: list[str]) -> list[str]:
    """Locals of `fn` read or written by a function or lambda nested in it."""
    local = set(locals_)
    out: set = set()
    for n in _own_nodes(fn):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner_params = set()
            args = n.args
            for x in args.posonlyargs + args.args + args.kwonlyargs:
                inner_params.add(x.arg)
            if args.vararg:
                inner_params.add(args.vararg.arg)
            if args.kwarg:
                inner_params.add(args.kwarg.arg)
            body = n.body if isinstance(n.body, list) else [n.body]
            for b in body:
                for m in ast.walk(b):
                    if isinstance(m, ast.Name) and m.id in local and m.id not in inner_params:
                        out.add(m.id)
            # defaults are evaluated in fn's own scope: not captured
    return [x for x in locals_ if x in out]


class _Try:
    __slots__ = ("index", "parent", "fin", "dispatch", "exc", "pend", "blocks")

    def __init__(self, index: int, parent):
        self.index, self.parent = index, parent
        self.fin: int | None = None  # the finally block (a try/finally region)
        self.dispatch: int | None = None  # the block matching handlers (a try/except region)
        self.exc, self.pend = f"_x{index}", f"_p{index}"
        self.blocks: list[int] = []


_PEND_NONE, _PEND_RETURN, _PEND_RAISE = -1, -2, -3


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _parse_stmts(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def _assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign(targets=[_name(name, True)], value=value)


class _Lowerer:
    def __init__(self, fn: ast.FunctionDef, slots: list[str], captured: list[str]):
        self.fn = fn
        self.blocks: list[list[ast.stmt]] = []
        self.region_of: list[_Try | None] = []
        self.tries: list[_Try] = []
        self.region: _Try | None = None
        self.loops: list[tuple[int, int, _Try | None]] = []  # (continue to, break to, region)
        self.temps: list[str] = ["_rv"]  # the return value: kept across a `finally` that pauses
        self.n = 0
        self.slots, self.captured = slots, captured
        self.packs: list[ast.List] = []
        self.cur = self.new_block()

    # blocks
    def new_block(self) -> int:
        self.blocks.append([])
        self.region_of.append(self.region)
        if self.region is not None:
            self.region.blocks.append(len(self.blocks) - 1)
        return len(self.blocks) - 1

    def start(self, block: int) -> None:
        self.cur = block

    def emit(self, s: ast.stmt | list) -> None:
        self.blocks[self.cur].extend(s if isinstance(s, list) else [s])

    def ended(self) -> bool:
        b = self.blocks[self.cur]
        return bool(b) and isinstance(b[-1], (ast.Continue, ast.Break, ast.Raise, ast.Return))

    def goto(self, target: int) -> None:
        if not self.ended():
            self.emit(self.jump(target))

    @staticmethod
    def jump(target: int) -> list[ast.stmt]:
        return [_assign("_pc", ast.Constant(target)), ast.Continue()]

    def temp(self, kind: str) -> str:
        self.n += 1
        name = f"_{kind}{self.n}"
        self.temps.append(name)
        return name

    def pack(self) -> ast.stmt:
        """Store the locals (the list's names are filled in at the end, when every temporary
        is known: `finish_packs`)."""
        node = ast.List(elts=[], ctx=ast.Load())
        self.packs.append(node)
        return _assign("_R.L", node)

    def finish_packs(self, slots: list[str]) -> None:
        for node in self.packs:
            node.elts = [_name(x) for x in slots]

    # statements
    def body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if self.ended():  # unreachable code after a jump: a block of its own nobody enters
            self.start(self.new_block())
        if not _needs(s):
            self.emit(s)
            return
        kind = type(s).__name__
        method = getattr(self, "s_" + kind, None)
        if method is None:
            raise LoweringError(f"line {s.lineno}: cannot lower a {kind} that pauses or jumps")
        method(s)

    def _pause_value(self, s: ast.stmt):
        """(the Yield/YieldFrom, how its value is used) for a statement that pauses."""
        if isinstance(s, ast.Expr) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            return s.value, None
        if isinstance(s, ast.Assign) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            return s.value, ("assign", s.targets)
        if isinstance(s, ast.Return) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            return s.value, ("return", None)
        if isinstance(s, ast.AnnAssign) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            return s.value, ("assign", [s.target])
        raise LoweringError(f"line {s.lineno}: a `yield` must be a whole statement, the value of "
                            "an assignment or of `return`")

    def pause(self, s: ast.stmt) -> None:
        y, use = self._pause_value(s)
        if _has_pause(y.value) if y.value is not None else False:
            raise LoweringError(f"line {s.lineno}: a yield inside a yield")
        resume = self.new_block()
        result = self.temp("r")
        if isinstance(y, ast.Yield):
            val = y.value if y.value is not None else ast.Constant(None)
            self.emit([_assign("_y", val), _assign("_R.pc", ast.Constant(resume)), self.pack(),
                       ast.Return(value=_name("_y"))])
            self.start(resume)
            self.emit(_parse_stmts(
                "if _thrown is not None:\n    _t = _thrown\n    _thrown = None\n    raise _t\n"
                f"{result} = _sent"))
        else:
            sub = self.temp("s")
            after = self.new_block()
            pack = self.pack()
            # the first call: a routine runs at once, and most return without pausing
            first = (
                f"{sub} = _CALL_\n"
                f"if type({sub}) is _Routine:\n"
                f"    _y = {sub}.step({sub}, None, None)\n"
                "    if _y is _DONE:\n"
                f"        {result} = {sub}.L\n"
                f"        {sub} = None\n"
                f"        _pc = {after}\n"
                "        continue\n"
                f"    _R.pc = {resume}\n"
                "    _PACK_\n"
                f"    _R.child = {sub}\n"
                "    return _y\n"
                f"{sub} = _iter_of({sub})\n"
                "_sent = None\n"
                f"_pc = {resume}\n"
                "continue\n")
            stmts = _parse_stmts(first)
            stmts[0].value = y.value
            stmts[1].body[3] = pack
            self.emit(stmts)
            self.start(resume)
            pack = self.pack()
            code = (
                f"if type({sub}) is _Routine:\n"
                f"    if {sub}.pc < 0:\n"  # over, driven by the trampoline (Routine.send)
                "        if _thrown is not None:\n"
                "            _t = _thrown\n"
                "            _thrown = None\n"
                "            _R.child = None\n"
                "            raise _t\n"
                "        _y = _DONE\n"
                "    elif _thrown is not None and isinstance(_thrown, GeneratorExit):\n"
                "        _t = _thrown\n"
                "        _thrown = None\n"
                "        _R.child = None\n"
                f"        {sub}.close()\n"
                "        raise _t\n"
                "    else:\n"
                f"        _y = {sub}.step({sub}, _sent, _thrown)\n"
                "        _thrown = None\n"
                "    if _y is _DONE:\n"
                f"        {result} = {sub}.L\n"
                f"        {sub} = None\n"
                "        _R.child = None\n"
                f"        _pc = {after}\n"
                "        continue\n"
                f"    _R.child = {sub}\n"
                "else:\n"
                "    try:\n"
                "        if _thrown is not None:\n"
                "            _t = _thrown\n"
                "            _thrown = None\n"
                "            if isinstance(_t, GeneratorExit):\n"
                f"                _close_of({sub})\n"
                "                raise _t\n"
                f"            _y = _throw_into({sub}, _t)\n"
                "        elif _sent is None:\n"
                f"            _y = next({sub})\n"
                "        else:\n"
                f"            _y = {sub}.send(_sent)\n"
                "    except StopIteration as _si:\n"
                f"        {result} = _si.value\n"
                f"        {sub} = None\n"
                f"        _pc = {after}\n"
                "        continue\n"
                f"_R.pc = {resume}\n"
                "_PACK_\n"
                "return _y\n")
            stmts = _parse_stmts(code)
            stmts[-2] = pack
            self.emit(stmts)
            self.start(after)
        if use is None:
            return
        kind, targets = use
        if kind == "assign":
            self.emit(ast.Assign(targets=targets, value=_name(result)))
        else:
            self.do_return(_name(result))

    def s_Expr(self, s):
        self.pause(s)

    def s_Assign(self, s):
        self.pause(s)

    def s_AnnAssign(self, s):
        self.pause(s)

    def s_Return(self, s):
        if s.value is not None and _has_pause(s.value):
            self.pause(s)
            return
        self.do_return(s.value if s.value is not None else ast.Constant(None))

    def do_return(self, value: ast.expr) -> None:
        self.emit(_assign("_rv", value))
        fin = self._finally_from(self.region, None)
        if fin is None:
            self.emit(ast.Break())
            return
        self.emit(_assign(fin.pend, ast.Constant(_PEND_RETURN)))
        self.emit(self.jump(fin.fin))

    def _finally_from(self, region, stop):
        """The innermost try/finally region from `region` outwards, not past `stop`."""
        r = region
        while r is not None and r is not stop:
            if r.fin is not None:
                return r
            r = r.parent
        return None

    def _jump_out(self, target: int, loop_region) -> None:
        """break/continue: through every `finally` between here and the loop."""
        chain = []
        r = self.region
        while r is not None and r is not loop_region:
            if r.fin is not None:
                chain.append(r)
            r = r.parent
        if not chain:
            self.emit(self.jump(target))
            return
        for inner, outer in zip(chain, chain[1:]):
            self.emit(_assign(inner.pend, ast.Constant(outer.fin)))
        self.emit(_assign(chain[-1].pend, ast.Constant(target)))
        self.emit(self.jump(chain[0].fin))

    def s_Break(self, s):
        if not self.loops:
            raise LoweringError(f"line {s.lineno}: break outside a loop")
        _, brk, region = self.loops[-1]
        self._jump_out(brk, region)

    def s_Continue(self, s):
        if not self.loops:
            raise LoweringError(f"line {s.lineno}: continue outside a loop")
        cont, _, region = self.loops[-1]
        self._jump_out(cont, region)

    def s_If(self, s):
        if _has_pause(s.test):
            raise LoweringError(f"line {s.lineno}: a yield in an `if` test")
        then = self.new_block()
        other = self.new_block() if s.orelse else None
        after = self.new_block()
        self.emit(ast.If(test=s.test, body=self.jump(then), orelse=[]))
        self.emit(self.jump(other if other is not None else after))
        self.start(then)
        self.body(s.body)
        self.goto(after)
        self.orelse(other, s.orelse, after)

    def orelse(self, other: int | None, stmts: list, after: int) -> None:
        """The `else` of an `if`, a loop or a `try` (block `other`, if any), then what follows."""
        if other is not None:
            self.start(other)
            self.body(stmts)
            self.goto(after)
        self.start(after)

    def s_While(self, s):
        if _has_pause(s.test):
            raise LoweringError(f"line {s.lineno}: a yield in a `while` test")
        self.loop(s, [ast.If(test=s.test, body=[], orelse=[])])

    def s_For(self, s):
        if _has_pause(s.iter):
            raise LoweringError(f"line {s.lineno}: a yield in a `for` iterable")
        seq, i = self.temp("q"), self.temp("i")
        self.emit([_assign(seq, ast.Call(func=_name("_seq_of"), args=[s.iter], keywords=[])),
                   _assign(i, ast.Constant(0))])
        step = _parse_stmts(f"if {i} < len({seq}):\n    _v = {seq}[{i}]\n    {i} += 1\n")
        step[0].body.append(ast.Assign(targets=[s.target], value=_name("_v")))
        self.loop(s, step)

    def loop(self, s, head_code: list) -> None:
        """A loop whose head is `head_code` (an `if` that goes on into the body: the jump is
        added to its branch), then its body, its `else`, and what follows."""
        head = self.new_block()
        body = self.new_block()
        other = self.new_block() if s.orelse else None
        after = self.new_block()
        self.goto(head)
        self.start(head)
        head_code[-1].body.extend(self.jump(body))
        self.emit(head_code)
        self.emit(self.jump(other if other is not None else after))
        self.start(body)
        self.loops.append((head, after, self.region))
        self.body(s.body)
        self.loops.pop()
        self.goto(head)
        self.orelse(other, s.orelse, after)

    def s_Try(self, s):
        if s.finalbody and s.handlers:  # try/except/finally = try: (try/except) finally
            inner = ast.Try(body=s.body, handlers=s.handlers, orelse=s.orelse, finalbody=[])
            ast.copy_location(inner, s)
            self.s_Try(ast.copy_location(ast.Try(body=[inner], handlers=[], orelse=[],
                                                 finalbody=s.finalbody), s))
            return
        outer = self.region
        t = _Try(len(self.tries), outer)
        self.tries.append(t)
        self.temps += [t.exc, t.pend]

        if s.finalbody:
            t.fin = -1  # marks the region as a finally region while its body is lowered
            self.emit(_assign(t.pend, ast.Constant(_PEND_NONE)))
            self.region = t
            body = self.new_block()
            self.region = outer
            fin = self.new_block()
            t.fin = fin
            self.goto(body)
            self.region = t
            self.start(body)
            self.body(s.body)
            if not self.ended():
                self.emit(_assign(t.pend, ast.Constant(_PEND_NONE)))
                self.emit(self.jump(fin))
            self.region = outer
            self.start(fin)
            self.body(s.finalbody)
            after = self.new_block()
            if not self.ended():
                self.emit(ast.If(test=ast.Compare(left=_name(t.pend), ops=[ast.Eq()],
                                                  comparators=[ast.Constant(_PEND_NONE)]),
                                 body=self.jump(after), orelse=[]))
                self.emit(ast.If(test=ast.Compare(left=_name(t.pend), ops=[ast.Eq()],
                                                  comparators=[ast.Constant(_PEND_RAISE)]),
                                 body=[ast.Raise(exc=_name(t.exc), cause=None)], orelse=[]))
                ret_fin = self._finally_from(outer, None)
                if ret_fin is None:
                    on_return = [ast.Break()]
                else:
                    on_return = [_assign(ret_fin.pend, ast.Constant(_PEND_RETURN))] + \
                        self.jump(ret_fin.fin)
                self.emit(ast.If(test=ast.Compare(left=_name(t.pend), ops=[ast.Eq()],
                                                  comparators=[ast.Constant(_PEND_RETURN)]),
                                 body=on_return, orelse=[]))
                self.emit([_assign("_pc", _name(t.pend)), ast.Continue()])
            self.start(after)
            return
        # try/except [else]
        self.region = t
        body = self.new_block()
        self.region = outer
        dispatch = self.new_block()
        t.dispatch = dispatch
        handlers = [self.new_block() for _ in s.handlers]
        other = self.new_block() if s.orelse else None
        after = self.new_block()
        self.goto(body)
        self.region = t
        self.start(body)
        self.body(s.body)
        self.region = outer
        self.goto(other if other is not None else after)
        self.start(dispatch)
        for h, block in zip(s.handlers, handlers):
            bind = [_assign(h.name, _name(t.exc))] if h.name else []
            if h.type is None:
                self.emit(bind + self.jump(block))
                break
            self.emit(ast.If(test=ast.Call(func=_name("isinstance"), args=[_name(t.exc), h.type],
                                           keywords=[]),
                             body=bind + self.jump(block), orelse=[]))
        if not self.ended():
            self.emit(ast.Raise(exc=_name(t.exc), cause=None))
        for h, block in zip(s.handlers, handlers):
            self.start(block)
            self.body([_ReraiseFixer(t.exc).visit(x) for x in h.body])
            self.goto(after)
        self.orelse(other, s.orelse, after)

    def s_With(self, s):
        raise LoweringError(f"line {s.lineno}: a `with` that pauses is not lowered: write "
                            "try/finally")


class _DropAnnotations(ast.NodeTransformer):
    """Annotations of a lowered function's local variables, dropped (its own scope only)."""

    def __init__(self):
        self.depth = 0

    def visit_FunctionDef(self, node):
        self.depth += 1
        if self.depth == 1:
            node.body = [self.visit(x) for x in node.body]
            node.body = [x for x in node.body if x is not None] or [ast.Pass()]
        self.depth -= 1
        return node

    def visit_Lambda(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda

    def generic_visit(self, node):
        if self.depth > 1:
            return node
        return super().generic_visit(node)

    def visit_AnnAssign(self, node):
        if not isinstance(node.target, ast.Name):
            return node if node.value is not None else None
        if node.value is None:
            return None
        return ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)


class _ReraiseFixer(ast.NodeTransformer):
    """A bare `raise` in an `except` handler re-raises the handled exception, kept in a slot."""

    def __init__(self, slot: str):
        self.slot = slot

    def visit_Raise(self, node):
        if node.exc is None:
            return ast.copy_location(ast.Raise(exc=_name(self.slot), cause=None), node)
        return node

    def visit_FunctionDef(self, node):
        return node

    visit_Lambda = visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Try(self, node):  # a nested handler's bare raise is its own
        node.body = [self.visit(x) for x in node.body]
        node.orelse = [self.visit(x) for x in node.orelse]
        node.finalbody = [self.visit(x) for x in node.finalbody]
        return node


def _iter_of(x):
    return x if type(x) in (Routine, types.GeneratorType) else iter(x)


def _seq_of(x):
    return x if type(x) in (list, tuple, range, str) else list(x)


def _close_of(sub) -> None:
    close = getattr(sub, "close", None)
    if close is not None:
        close()


def _throw_into(sub, exc):
    throw = getattr(sub, "throw", None)
    if throw is None:
        raise exc
    return throw(exc)


HELPERS = {"_DONE": DONE, "_iter_of": _iter_of, "_seq_of": _seq_of, "_close_of": _close_of,
           "_throw_into": _throw_into, "_Routine": Routine, "_UNSET": UNSET,
           "_register_lowered": register}


def lower_function(fn: ast.FunctionDef, step_name: str | None = None) -> list[ast.stmt]:
    """A generator function -> [step function def, wrapper def] (the wrapper keeps the name,
    signature and decorators). With captured locals, the step is made inside the wrapper."""
    if fn.decorator_list and any(not isinstance(d, ast.Name) or d.id != "staticmethod"
                                 for d in fn.decorator_list):
        raise LoweringError(f"line {fn.lineno}: a decorated generator is not lowered")
    fn = _DropAnnotations().visit(fn)  # `x: T = v` -> `x = v` (a nonlocal takes none)
    locals_ = _assigned_names(fn)
    captured = _captured(fn, locals_)
    clash = _RESERVED.intersection(locals_)
    if clash:
        raise LoweringError(f"line {fn.lineno}: {fn.name} has a local named "
                            f"{', '.join(sorted(clash))}, a name the lowered step uses")
    params = _param_names(fn)
    lw = _Lowerer(fn, locals_, captured)
    lw.body(fn.body)
    if not lw.ended():
        lw.emit(_assign("_rv", ast.Constant(None)))
        lw.emit(ast.Break())
    step_name = step_name or f"_{fn.name}__step"
    slots = [x for x in locals_ + lw.temps if x not in captured]
    lw.finish_packs(slots)
    # the blocks, each ending in a jump, a break, a raise or a return
    blocks = {}
    for i, block in enumerate(lw.blocks):
        block = block or [ast.Pass()]
        if not isinstance(block[-1], (ast.Continue, ast.Break, ast.Raise, ast.Return)):
            block = block + lw.jump(i + 1) if i + 1 < len(lw.blocks) else \
                block + [_assign("_rv", ast.Constant(None)), ast.Break()]
        blocks[i] = block
    pinned = {0} | {t.fin for t in lw.tries if t.fin is not None} | \
        {t.dispatch for t in lw.tries if t.dispatch is not None}
    # names holding a block number: where to resume (R.pc), where to go after a `finally`
    pends = frozenset(["_pc", "_R.pc"] + [t.pend for t in lw.tries])
    blocks = _optimise(blocks, pinned, lw.region_of, pends)
    # exceptions: to the innermost try region of the block that raised
    dispatch_src = []
    for t in lw.tries:
        held = sorted(b for b in blocks if lw.region_of[b] is t)
        if not held:
            continue
        cond = f"_pc in {set(held)!r}" if len(held) > 1 else f"_pc == {held[0]}"
        if t.fin is not None:
            dispatch_src.append(f"if {cond}:\n    {t.exc} = _e\n    {t.pend} = {_PEND_RAISE}\n"
                                f"    _pc = {t.fin}\n    continue\n")
        else:
            dispatch_src.append(f"if {cond}:\n    {t.exc} = _e\n    _pc = {t.dispatch}\n"
                                "    continue\n")
    dispatch_src.append("_R.pc = -1\n_R.L = None\nraise\n")
    dispatch = _parse_stmts("".join(dispatch_src))
    switch = _switch(sorted(blocks.items()))
    loop = ast.While(test=ast.Constant(True), body=[
        ast.Try(body=[switch], handlers=[ast.ExceptHandler(type=_name("BaseException"),
                                                         name="_e", body=dispatch)],
                orelse=[], finalbody=[])], orelse=[])
    step_body: list[ast.stmt] = []
    if captured:
        step_body.append(ast.Nonlocal(names=list(captured)))
    if slots:
        step_body.append(ast.Assign(targets=[ast.Tuple(elts=[_name(x, True) for x in slots],
                                                       ctx=ast.Store())],
                                    value=_name("_R.L")))
    step_body += [_assign("_pc", _name("_R.pc")), loop]
    step_body += _parse_stmts("_R.pc = -1\n_R.L = _rv\nreturn _DONE")
    step_args = ast.arguments(posonlyargs=[], args=[ast.arg(arg="_R"), ast.arg(arg="_sent"),
                                                    ast.arg(arg="_thrown")],
                              kwonlyargs=[], kw_defaults=[], defaults=[])
    step = ast.FunctionDef(name=step_name, args=step_args, body=step_body, decorator_list=[],
                           returns=None, type_params=[])
    make = ast.Call(func=_name("_Routine"),
                    args=[_name(step_name),
                          ast.List(elts=[_name(x) if x in params else _name("_UNSET")
                                         for x in slots], ctx=ast.Load())], keywords=[])
    wrapper_body: list[ast.stmt] = []
    if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) \
            and isinstance(fn.body[0].value.value, str):
        wrapper_body.append(fn.body[0])  # the docstring
    if captured:
        unbound = [x for x in captured if x not in params]
        if unbound:
            wrapper_body.append(ast.Assign(targets=[_name(x, True) for x in unbound],
                                           value=_name("_UNSET")))
        wrapper_body.append(step)
        wrapper_body.append(ast.Return(value=make))
        out = [_wrapper(fn, wrapper_body)]
    else:
        wrapper_body.append(ast.Return(value=make))
        out = [step, _wrapper(fn, wrapper_body)]
    return out


_RESERVED = frozenset(("_R", "_pc", "_sent", "_thrown", "_y", "_t", "_v", "_si", "_e", "_rv"))


def _jump_target(stmt: ast.stmt) -> int | None:
    """k for `pc = k` (a jump's first half), else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == "_pc" and \
            isinstance(stmt.value, ast.Constant):
        return stmt.value.value
    return None


def _ends_in_jump(block: list) -> int | None:
    if len(block) >= 2 and isinstance(block[-1], ast.Continue):
        return _jump_target(block[-2])
    return None


def _targets(blocks: dict, pends: frozenset):
    """Every `pc = k` (a jump) and every block number stored to resume at or to jump to after a
    `finally` (`_R.pc = k`, `_pN = k`): -> (jumps per target, targets that must stay blocks)."""
    jumps: dict = {}
    kept: set = set()
    for block in blocks.values():
        for stmt in block:
            for n in ast.walk(stmt):
                if not (isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)):
                    continue
                target, value = n.targets[0], n.value.value
                if type(value) is not int or value < 0:
                    continue
                if isinstance(target, ast.Name) and target.id == "_pc":
                    jumps[value] = jumps.get(value, 0) + 1
                elif isinstance(target, ast.Name) and target.id in pends or \
                        isinstance(target, ast.Attribute) and target.attr == "pc":  # _R.pc
                    kept.add(value)
    return jumps, kept


def _optimise(blocks: dict, pinned: set, region_of: list, pends: frozenset) -> dict:
    """Fewer trips through the dispatch: jumps to a block that only jumps go straight to its
    target, and a block entered by one jump only (not a resume point, not a handler) is joined
    to the block that jumps to it, when both are in the same try region."""
    alias = {}
    for i, block in blocks.items():
        if len(block) == 2 and _ends_in_jump(block) is not None:
            alias[i] = _ends_in_jump(block)

    def final(k):
        seen = set()
        while k in alias and k not in seen:
            seen.add(k)
            k = alias[k]
        return k

    for block in blocks.values():
        for stmt in block:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and \
                        type(n.value.value) is int and n.value.value in alias and \
                        isinstance(n.targets[0], ast.Name) and n.targets[0].id in pends:
                    n.value = ast.Constant(final(n.value.value))
    jumps, kept = _targets(blocks, pends)
    live = {i: b for i, b in blocks.items() if i in pinned or i in kept or jumps.get(i)}
    changed = True
    while changed:
        changed = False
        for i in sorted(live):
            block = live.get(i)
            if block is None:
                continue
            j = _ends_in_jump(block)
            if j is None or j == i or j not in live or j in pinned or j in kept or \
                    jumps.get(j) != 1 or region_of[j] is not region_of[i]:
                continue
            live[i] = block[:-2] + live.pop(j)
            changed = True
    return live


def _switch(items: list) -> ast.stmt:
    """`if pc == i: block` for each, as a binary tree of comparisons."""
    if len(items) <= 3:
        node = _parse_stmts("raise SystemError(f'lowered code jumped to no block: {_pc}')")[0]
        for i, block in reversed(items):
            test = ast.Compare(left=_name("_pc"), ops=[ast.Eq()], comparators=[ast.Constant(i)])
            node = ast.If(test=test, body=block, orelse=[node])
        return node
    mid = len(items) // 2
    test = ast.Compare(left=_name("_pc"), ops=[ast.Lt()], comparators=[ast.Constant(items[mid][0])])
    return ast.If(test=test, body=[_switch(items[:mid])], orelse=[_switch(items[mid:])])


def _param_names(fn) -> list[str]:
    a = fn.args
    out = [x.arg for x in a.posonlyargs + a.args]
    if a.vararg:
        out.append(a.vararg.arg)
    out += [x.arg for x in a.kwonlyargs]
    if a.kwarg:
        out.append(a.kwarg.arg)
    return out


def _wrapper(fn: ast.FunctionDef, body: list[ast.stmt]) -> ast.FunctionDef:
    return ast.FunctionDef(name=fn.name, args=fn.args, body=body,
                           decorator_list=fn.decorator_list, returns=fn.returns, type_params=[])


class _ModuleLowerer(ast.NodeTransformer):
    """Every generator function of a module, wherever it is defined, lowered in place. Steps
    of methods go to module level (a class body is no scope for them)."""

    def __init__(self):
        self.lowered: list[str] = []
        self.module_steps: list[ast.stmt] = []
        self.in_class: str | None = None

    def visit_ClassDef(self, node):
        was, self.in_class = self.in_class, node.name
        self.generic_visit(node)
        self.in_class = was
        return node

    def visit_FunctionDef(self, node):
        cls, self.in_class = self.in_class, None
        self.generic_visit(node)  # nested generators first
        self.in_class = cls
        if not is_generator(node):
            return node
        self.lowered.append(node.name if cls is None else f"{cls}.{node.name}")
        out = lower_function(node, f"_{cls}_{node.name}__step" if cls else None)
        if len(out) == 2 and cls:  # a method: its step at module level, named after the class
            step, wrapper = out
            self.module_steps.append(step)
            return wrapper
        return out


def lower_source(source: str, filename: str = "<lowered>") -> tuple[str, list[str]]:
    """The module `source` with its generator functions lowered -> (new source, the names of
    the functions lowered)."""
    tree = ast.parse(source, filename)
    ml = _ModuleLowerer()
    tree = ml.visit(tree)
    tree.body.extend(ml.module_steps)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree), ml.lowered


def compile_lowered(source: str, filename: str, namespace: dict) -> None:
    """Lower `source` and run it in `namespace` (which gets the helpers); registers the cells
    of every lowered function."""
    code = lowered_code(source, filename)
    namespace.update(HELPERS)
    exec(code, namespace)  # noqa: S102 - the project's own source, lowered (never game text)


def cache_suffix() -> str:
    """How the cache names an entry of lowered code."""
    from meeplang.dsl import cache
    return cache.CODE_SUFFIX


@functools.cache
def _lowering_digest() -> bytes:
    """What decides lowered code besides its source: this module's text and Python's bytecode."""
    import hashlib
    import importlib.util
    with open(__file__, "rb") as f:
        return hashlib.sha256(importlib.util.MAGIC_NUMBER + b"\0" + f.read()).digest()


def lowered_code(source: str, filename: str) -> types.CodeType:
    """`source` lowered and compiled, with its routines' cells registered. Lowering a large
    module takes about half a second, so the code is kept in Meeplang's signed cache
    (dsl/cache.py), like a .pyc, under the hash of the source, the file name and this module:
    an entry the user's own Meeplang did not write is never loaded."""
    import hashlib
    import marshal

    from meeplang.dsl import cache
    key = hashlib.sha256(_lowering_digest() + filename.encode("utf-8", "surrogatepass") + b"\0" +
                         source.encode("utf-8", "surrogatepass")).hexdigest()
    code = None
    data = cache.get_code(key)
    if data is not None:
        try:
            code = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            code = None
        if type(code) is not types.CodeType or code.co_filename != filename:
            code = None
    if code is None:
        new, _ = lower_source(source, filename)
        code = compile(new, filename, "exec")
        cache.put_code(key, marshal.dumps(code))
    _register_all(code)
    return code


def _register_all(code: types.CodeType) -> None:
    """A wrapper whose step closes over its cells (the captured locals, `co_cellvars`): those
    cells are the routine's, for the step and for each function nested in it."""
    todo = [code]
    while todo:
        co = todo.pop()
        inner = [k for k in co.co_consts if isinstance(k, types.CodeType)]
        if co.co_cellvars and "_Routine" in co.co_names:  # a wrapper (it makes the routine),
            # not a function that only holds a lowered generator beside its step: the cells of
            # such a function are made once, with the rules, and shared by every routine
            for k in inner:
                if k.co_name.endswith("__step"):
                    register(k, frozenset(co.co_cellvars))
        if co.co_name.endswith("__step"):
            nested = list(inner)
            while nested:
                k = nested.pop()
                NESTED.add(k)
                nested.extend(x for x in k.co_consts if isinstance(x, types.CodeType))
        todo.extend(inner)


# ------------------------------------------------------------------ loading lowered modules
class _LoweringLoader:
    """Imports a module of the project with its generator functions lowered (no bytecode cache:
    the cache of the plain module is the plain module's)."""

    def __init__(self, spec_loader, path: str):
        self.plain, self.path = spec_loader, path

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        with open(self.path, encoding="utf-8") as f:
            source = f.read()
        namespace = module.__dict__
        compile_lowered(source, self.path, namespace)


class _LoweringFinder:
    def __init__(self, names: frozenset):
        self.names = names

    def find_spec(self, name, path=None, target=None):
        if name not in self.names:
            return None
        import importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not (spec.origin or "").endswith(".py"):
            return None  # not a source file: left to Python's own loaders
        spec.loader = _LoweringLoader(spec.loader, spec.origin)
        spec.name = name
        return spec


def install(package: str, modules: tuple) -> None:
    """Lower these modules of `package` when they are imported."""
    import sys
    sys.meta_path.insert(0, _LoweringFinder(frozenset(f"{package}.{m}" for m in modules)))
