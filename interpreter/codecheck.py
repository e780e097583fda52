"""The gate between generated source and `exec`: verify, compile, run with a bare namespace.

interpreter/codegen.py never splices a game's text into source; this module does not trust that.
It parses the module with `ast` and refuses anything the generator does not emit: a node type
outside a short list, an import, a name or attribute that is not the generator's own (and so any
`_` name, dunders included), a call to anything but a runtime function or a generated one, a
literal that is not a number, text, true/false or none. Only then is the source compiled and run,
with globals that hold the runtime functions, the positions table and no builtins at all.
"""
from __future__ import annotations

import ast
import re

from meeplang.dsl.errors import MeeplangError

from .codegen import Generated
from .coderuntime import runtime

# every node type the generator emits; anything else is refused
NODES = frozenset({
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Call, ast.Name, ast.Load,
    ast.Attribute, ast.Subscript, ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.BoolOp,
    ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.Compare, ast.Eq, ast.NotEq, ast.IfExp,
})
# the context's fields generated code reads: state, seat, locals, engine, options, seat count
ATTRIBUTES = frozenset({"s", "you", "v", "eng", "opts", "n"})
FUNCTION_NAME = re.compile(r"(e|formula)[0-9]+(_[0-9]+)?\Z")
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
    for node in ast.walk(tree):
        if type(node) not in NODES:
            _refuse(node, f"{type(node).__name__} is not something the generator emits")
    defined = set()
    for top in tree.body:
        if not isinstance(top, ast.FunctionDef) or not FUNCTION_NAME.match(top.name):
            _refuse(top, "only generated functions (e12, e12_3, formula2) at the top level")
        defined.add(top.name)
    known = names | defined
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            if not _plain_function(node):
                _refuse(node, "a generated function is `def NAME(c): return EXPRESSION`")
        elif isinstance(node, ast.Name):
            if node.id.startswith("_") or (node.id != "c" and node.id not in known):
                _refuse(node, f"unknown name {node.id!r}")
        elif isinstance(node, ast.Attribute):
            if node.attr not in ATTRIBUTES:
                _refuse(node, f"attribute {node.attr!r} is not one of the context's fields")
        elif isinstance(node, ast.Call):
            if node.keywords or not isinstance(node.func, ast.Name) or node.func.id == "c":
                _refuse(node, "calls name a runtime or generated function, with plain arguments")
        elif isinstance(node, ast.Constant):
            if type(node.value) not in LITERALS:
                _refuse(node, f"a {type(node.value).__name__} literal")
    return tree


def _plain_function(node: ast.FunctionDef) -> bool:
    """`def NAME(c): return EXPRESSION`, nothing more (no decorator, default or annotation)."""
    args = node.args
    return (not node.decorator_list and node.returns is None and len(node.body) == 1 and
            isinstance(node.body[0], ast.Return) and [a.arg for a in args.args] == ["c"] and
            args.args[0].annotation is None and not (args.posonlyargs or args.kwonlyargs or
                                                     args.vararg or args.kwarg or args.defaults))


def _refuse(node, why: str):
    raise GeneratedCodeError(f"generated code refused at line {getattr(node, 'lineno', '?')}: "
                             f"{why}")


def load(generated: Generated, prog) -> dict:
    """Verify, compile and run a generated module: -> {id of expression node: function}."""
    namespace = runtime(prog)
    namespace["P"] = generated.positions
    tree = verify(generated.source, frozenset(namespace))
    code = compile(tree, "<meeplang generated>", "exec")
    namespace["__builtins__"] = {}
    exec(code, namespace)  # noqa: S102 - verified above; globals hold only the runtime
    return {key: namespace[name] for key, name in generated.names.items()}
