"""Every built-in the checker knows is implemented by the interpreter, and nothing more."""
from meeplang.dsl.builtins import FUNCTIONS as SIGNATURES
from meeplang.interpreter.functions import FUNCTIONS as IMPLEMENTATIONS


def test_each_builtin_signature_has_an_implementation_and_back():
    assert set(SIGNATURES) == set(IMPLEMENTATIONS)


def test_implementations_accept_the_declared_argument_counts():
    import inspect

    for name, (lo, hi, _, _) in SIGNATURES.items():
        params = list(inspect.signature(IMPLEMENTATIONS[name]).parameters.values())[1:]
        variadic = any(p.kind is p.VAR_POSITIONAL for p in params)
        required = sum(1 for p in params if p.default is p.empty and p.kind is not p.VAR_POSITIONAL)
        if variadic:  # max(...), min(...): the checker enforces the least count
            assert required <= lo, name
        else:
            assert (required, len(params)) == (lo, hi), name
