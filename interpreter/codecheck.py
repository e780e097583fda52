"""The gate between generated source and `exec`: verify, compile, run with a bare namespace.

interpreter/codegen.py never splices a game's text into source; this module does not trust that.
It parses the module with `ast` and refuses anything the generator does not emit: a node type
outside a short list, an import, a name or attribute that is not the generator's own (and so any
`_` name, dunders included), an assignment to anything but a temporary, a rule's local
(`c.v['x']`) or an entry of a temporary (a counter's holder, `t3['coins']`), a deletion of
anything but a rule's local (a loop puts back the local it bound), a function that
takes more than `c` and temporaries (a formula's arguments), a call to anything but a runtime
function, a generated one, a statement's closure (`S[3]`) or one of a few engine methods, a
literal that is not a number, text, true/false or none. Only then is the source compiled and run, with globals that hold the runtime functions, the
tables `P`, `K` and `S`, and no builtins at all.
"""
from __future__ import annotations

import ast
import re

from meeplang.dsl.errors import MeeplangError

from .codegen import Generated
from .coderuntime import runtime

# every node type the generator emits; anything else is refused
NODES = frozenset({
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign, ast.If, ast.For,
    ast.Break, ast.Pass, ast.Expr, ast.YieldFrom, ast.Call, ast.Name, ast.Load, ast.Store,
    ast.Delete, ast.Del, ast.Attribute,
    ast.Subscript, ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.BoolOp, ast.And, ast.Or,
    ast.UnaryOp, ast.Not, ast.USub, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
    ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn, ast.IfExp, ast.NamedExpr, ast.BinOp, ast.Add,
    ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd,
})
# the context's fields generated code reads (state, seat, locals, engine) and the engine's (options,
# seat count, triggers waiting to run now, is it rehearsing), a zone's key and a zone family's owner
ATTRIBUTES = frozenset({"s", "you", "v", "eng", "opts", "n", "pending_now", "watching_now",
                        "rehearsing", "key", "owner"})
# the engine's methods generated code calls (`c.eng.tick(P[3])`), and a list's, on a temporary
ENGINE_METHODS = frozenset({"tick", "flush_now", "do_action"})
FUNCTION_NAME = re.compile(r"(e|b|formula|choice)[0-9]+(_[0-9]+)?\Z")
# names generated code reads but never calls: the context, the tables, the types it tests for
NOT_CALLED = frozenset({"c", "P", "K", "S", "MISSING", "int", "bool", "str", "list", "dict",
                        "ZoneRef", "FamilyRef"})
TEMPORARY = re.compile(r"t[0-9]+\Z")
LITERALS = (int, str, bool, type(None))


class GeneratedCodeError(MeeplangError):
    """Generated source that breaks the generator's rules: a bug of ours, never run."""

    stage = "codegen"


def verify(source: str, names: frozenset) -> ast.Module:
    """The parsed module, if every node keeps the rules; `names` are the globals it may read."""
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        raise GeneratedCodeError(f"generated code does not parse at line {exc.lineno}: "
                                 f"{exc.msg}") from None
    nodes = list(ast.walk(tree))
    for node in nodes:
        if type(node) not in NODES:
            _refuse(node, f"{type(node).__name__} is not something the generator emits")
    defined = set()
    for top in tree.body:
        if not isinstance(top, ast.FunctionDef) or not FUNCTION_NAME.match(top.name):
            _refuse(top, "only generated functions (e12, e12_3, b4, formula2, choice1) at the "
                          "top level")
        defined.add(top.name)
    known = names | defined
    tops = {id(top) for top in tree.body}
    for node in nodes:
        _check(node, known, id(node) in tops)
    return tree


def _check(node, known: frozenset, top: bool) -> None:
    """One node against the rules (see the module's docstring)."""
    if isinstance(node, ast.FunctionDef):
        if not top or not _plain_function(node):
            _refuse(node, "a generated function is `def NAME(c):` (or `def NAME(c, t1, t2):`, "
                          "a formula's arguments) at the top level")
    elif isinstance(node, ast.Name):
        if isinstance(node.ctx, ast.Store):
            if not TEMPORARY.match(node.id):
                _refuse(node, f"only temporaries are assigned, not {node.id!r}")
        elif not (node.id == "c" or TEMPORARY.match(node.id) or node.id in known) or \
                node.id.startswith("_"):
            _refuse(node, f"unknown name {node.id!r}")
    elif isinstance(node, ast.Attribute):
        if node.attr not in ATTRIBUTES | ENGINE_METHODS | {"append"} or not isinstance(
                node.ctx, ast.Load):
            _refuse(node, f"attribute {node.attr!r} is not one of the context's fields")
        if node.attr in ENGINE_METHODS and not _is(node.value, "c", "eng"):
            _refuse(node, f"{node.attr!r} is a method of the engine only")
    elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        if not (_is(node.value, "c", "v") or isinstance(node.value, ast.Name) and
                TEMPORARY.match(node.value.id)):
            _refuse(node, "only a rule's locals (`c.v[...]`) and temporaries (a counter's holder, "
                          "`t3[...]`) are assigned by subscript")
    elif isinstance(node, ast.Delete):
        if not all(isinstance(t, ast.Subscript) and _is(t.value, "c", "v") for t in node.targets):
            _refuse(node, "only a rule's locals (`del c.v[...]`) are deleted")
    elif isinstance(node, ast.Call):
        _check_call(node, known)
    elif isinstance(node, ast.Constant):
        if type(node.value) not in LITERALS:
            _refuse(node, f"a {type(node.value).__name__} literal")


def _check_call(node: ast.Call, known: frozenset) -> None:
    """Calls name a runtime or generated function, a statement's closure (`S[3]`), an engine
    method, or `append` on a temporary; with plain arguments; `type()` with one."""
    func = node.func
    if node.keywords:
        _refuse(node, "calls name a runtime or generated function, with plain arguments")
    if isinstance(func, ast.Name):
        ok = func.id in known and func.id not in NOT_CALLED
        if func.id == "type" and len(node.args) != 1:
            ok = False
    elif isinstance(func, ast.Attribute):
        ok = func.attr in ENGINE_METHODS or (
            func.attr == "append" and isinstance(func.value, ast.Name) and
            TEMPORARY.match(func.value.id) is not None)
    else:
        ok = (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and
              func.value.id == "S" and isinstance(func.slice, ast.Constant) and
              type(func.slice.value) is int)
    if not ok:
        _refuse(node, "calls name a runtime or generated function, with plain arguments")


def _is(node, name: str, attr: str) -> bool:
    """Is `node` exactly `name.attr` (`c.v`, `c.eng`)?"""
    return (isinstance(node, ast.Attribute) and node.attr == attr and
            isinstance(node.value, ast.Name) and node.value.id == name)


def _plain_function(node: ast.FunctionDef) -> bool:
    """`def NAME(c):` or `def NAME(c, t1, t2):` (a formula's arguments, as temporaries) and a
    body, nothing more (no decorator, default or annotation)."""
    args = node.args
    names = [a.arg for a in args.args]
    return (not node.decorator_list and node.returns is None and names[:1] == ["c"] and
            all(TEMPORARY.match(n) for n in names[1:]) and
            all(a.annotation is None for a in args.args) and
            not (args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg or
                 args.defaults))


def _refuse(node, why: str):
    raise GeneratedCodeError(f"generated code refused at line {getattr(node, 'lineno', '?')}: "
                             f"{why}")


# what the lowered form of a generated module reads of Python's builtins (lowering.py's steps:
# exceptions they catch and raise, and the calls of `yield from`), and nothing else
LOWERED_BUILTINS = {"BaseException": BaseException, "StopIteration": StopIteration,
                    "GeneratorExit": GeneratorExit, "isinstance": isinstance, "len": len,
                    "next": next}


def load(generated: Generated, prog) -> dict:
    """Verify, compile and run a generated module: -> its namespace (functions by name), with an
    empty table `S` of statement closures for the caller to fill (interpreter/generated.py)."""
    namespace = runtime(prog, generated.constants)
    namespace["P"] = generated.positions
    namespace["S"] = [None] * len(generated.fallbacks)
    verify(generated.source, frozenset(namespace))  # raises GeneratedCodeError
    # Engine 3: its generators lowered to copyable routines (lowering.py), from the verified source
    from .lowering import HELPERS, lowered_code
    code = lowered_code(generated.source, "<meeplang generated>")
    namespace.update(HELPERS)
    namespace["__builtins__"] = dict(LOWERED_BUILTINS)
    exec(code, namespace)  # noqa: S102 - verified above (and lowered mechanically); globals hold only the runtime
    return namespace
