"""JSON Schemas of the three kinds of file, and validation of a game's YAML tree against the game
schema with errors placed on the offending node.

`dsl/game.schema.json` is written by hand: a complete game file. The two others are made from it
(`python -m meeplang.regen_schemas` rewrites them; a test fails when they are stale), so a key
added to the language is added once:
  - `variant.schema.json`: an overlay says only what it changes (every mapping partial, any key
    may be `null` to remove it; a list replaces the base list, so list items stay complete);
  - `include.schema.json`: a file named by `include:`, whose sections join the main file's.
Editors use them through yaml-language-server, from each file's first line:
`# yaml-language-server: $schema=../../dsl/game.schema.json` (`meeplang schema KIND` prints where
the installed ones are). Their `$id`s name them, and the file format they describe, as URNs
(`urn:meeplang:1:game.schema.json`): the schemas ship with Meeplang and are read from its files,
never fetched.
"""
from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from .errors import Pos, SchemaError
from .yamlpos import YList, YMap, plain

SCHEMA_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = SCHEMA_DIR / "game.schema.json"
VARIANT_SCHEMA_PATH = SCHEMA_DIR / "variant.schema.json"
INCLUDE_SCHEMA_PATH = SCHEMA_DIR / "include.schema.json"
# `meeplang schema KIND`, `meeplang new variant`, the language server: which file is for what
SCHEMAS = {"game": SCHEMA_PATH, "variant": VARIANT_SCHEMA_PATH, "include": INCLUDE_SCHEMA_PATH}
FORMAT = 1  # the `meeplang:` format version the schemas describe
# What a game file without one of its required top-level keys is told.
_MISSING = {"game": "a game file needs a `game:` name",
            "scoring": "a game needs a `scoring:` section with at least `score:`"}


def game_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def variant_schema(game: dict) -> dict:
    """The schema of an overlay file: the game's, partial, with the variant keys (`extends:`
    required)."""
    out = _partial(game)
    out["properties"] = {**game["$defs"]["variant_keys"]["properties"], **out["properties"]}
    out.update({"$id": schema_id(VARIANT_SCHEMA_PATH), "required": ["extends"],
                "title": "Meeplang variant file: an overlay on a game (`extends:`) that gives only "
                         "what it changes; `KEY: null` removes KEY",
                "$defs": game["$defs"]})
    return out


def include_schema(game: dict) -> dict:
    """The schema of an included file: sections of a game, complete, without the file's header."""
    out = copy.deepcopy(game)
    for key in ("game", "include"):
        out["properties"].pop(key)
    out.pop("required")
    out.update({"$id": schema_id(INCLUDE_SCHEMA_PATH),
                "title": "Meeplang included file: sections that join the including game file's"})
    return out


def schema_id(path: Path) -> str:
    """The `$id` of a schema file: a URN naming the file and the format version."""
    return f"urn:meeplang:{FORMAT}:{path.name}"


def modeline(path: Path) -> str:
    """The first line that tells yaml-language-server which schema a file follows."""
    return f"# yaml-language-server: $schema={path}"


def _partial(schema):
    """A schema accepting what an overlay may give where `schema` stands: mappings merge key by
    key (so nothing in them is required, and each value may be `null`), everything else replaces."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return schema  # a list item or a referenced flow step: lists replace, so they are whole
    out = {k: v for k, v in schema.items() if k not in ("required", "minProperties", "oneOf")}
    if "oneOf" in schema:  # a partial mapping may now also fit another branch: any one will do
        out["anyOf"] = [_partial(s) for s in schema["oneOf"]]
    if "properties" in schema:
        out["properties"] = {k: _nullable(_partial(v)) for k, v in schema["properties"].items()}
    if isinstance(schema.get("additionalProperties"), dict):
        out["additionalProperties"] = _nullable(_partial(schema["additionalProperties"]))
    return out


def _nullable(schema: dict) -> dict:
    return {"anyOf": [{"type": "null"}, schema]}


def derived_schemas() -> dict[Path, dict]:
    game = game_schema()
    return {VARIANT_SCHEMA_PATH: variant_schema(game), INCLUDE_SCHEMA_PATH: include_schema(game)}


def schema_text(schema: dict) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


@functools.cache
def _validator():
    import jsonschema  # here, not at the top: a game from the cache is never validated again

    return jsonschema.Draft202012Validator(game_schema())


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


def validate(doc: YMap) -> None:
    """Raise SchemaError at the first problem (document order) of a (merged) game document."""
    missing = next((key for key in _MISSING if key not in doc), None)
    if missing is not None:  # the schema's top-level `required`, said the way an author needs
        raise SchemaError(_MISSING[missing], Pos(doc.pos.path, 1, 1))
    errors = list(_validator().iter_errors(plain(doc)))
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
