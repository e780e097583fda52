"""JSON Schema validation of a game file's YAML tree, with errors placed on the offending node.

The schema (`dsl/game.schema.json`) is the same file editors use through yaml-language-server:
`# yaml-language-server: $schema=../../dsl/game.schema.json`.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from .errors import SchemaError
from .yamlpos import YList, YMap, plain

SCHEMA_PATH = Path(__file__).resolve().parent / "game.schema.json"


@functools.cache
def _validator():
    import jsonschema  # here, not at the top: a game from the cache is never validated again

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _node_at(doc, path):
    """Walk the YAML tree along a jsonschema path; return (node, parent, key) of the deepest step."""
    node, parent, key = doc, None, None
    for step in path:
        if isinstance(node, (YMap, YList)) and (step in node if isinstance(node, YMap)
                                                 else 0 <= step < len(node)):
            parent, key, node = node, step, node[step]
        else:
            break
    return node, parent, key


def _pos_of(doc, path):
    node, parent, key = _node_at(doc, path)
    if parent is not None:
        return parent.pos_of(key)
    return getattr(node, "pos", doc.pos)


def _dotted(path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the file"


def _best(error):
    """jsonschema reports oneOf failures vaguely; descend to the most specific sub-error."""
    while error.context:
        deepest = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        if len(deepest.absolute_path) <= len(error.absolute_path) and deepest.validator == "type":
            break
        error = deepest
    return error


def validate(doc: YMap, variant: bool = False) -> None:
    """Raise SchemaError at the first problem (document order)."""
    errors = list(_validator().iter_errors(plain(doc)))
    if not variant and "game" not in doc and "extends" not in doc:
        from .errors import Pos

        raise SchemaError("a game file needs a `game:` name", Pos(doc.pos.path, 1, 1))
    if not errors:
        return
    errors.sort(key=lambda e: (_pos_of(doc, list(e.absolute_path)).line,
                               _pos_of(doc, list(e.absolute_path)).col))
    error = _best(errors[0])
    path = list(error.absolute_path)
    where = _dotted(path)
    if error.validator == "additionalProperties":
        node, _, _ = _node_at(doc, path)
        allowed = sorted(error.schema.get("properties", {}))
        extra = [k for k in node if k not in allowed] if isinstance(node, YMap) else []
        key = extra[0] if extra else "?"
        pos = node.key_pos.get(key, node.pos) if isinstance(node, YMap) else _pos_of(doc, path)
        raise SchemaError(f"unknown key {key!r} in {where}; expected one of: {', '.join(allowed)}",
                          pos)
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        raise SchemaError(f"{where} must be {_a(expected)}, not {_kind(error.instance)}",
                          _pos_of(doc, path))
    if error.validator == "required":
        raise SchemaError(f"{where}: {error.message}", _pos_of(doc, path))
    if error.validator == "enum":
        choices = ", ".join(str(v) for v in error.validator_value)
        raise SchemaError(f"{where} must be one of: {choices} (got {error.instance!r})",
                          _pos_of(doc, path))
    raise SchemaError(f"{where}: {error.message}", _pos_of(doc, path))


def _a(kind: str) -> str:
    return {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
            "boolean": "true or false"}.get(kind, kind)


def _kind(value) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    return type(value).__name__
