"""The semantic difference between two games (or a game and its variant), read from the Game
model: players, options, tables, counters, zones, items, formulas, setup, flow, actions (choices,
conditions, limits, effects), triggers, scoring and invariants.

Rule text is compared as syntax trees, whose equality ignores positions, so reformatting a rule or
moving it in its file is not a change. Each change has a readable path (`actions.power_plant.limit`,
`tables.passing_points.3`, `flow.development.turns.actions`), the value before and after (rule
text as Meeplang source, data as plain values; None where a side lacks it) and where each side
defines it (`file:line`). Titles, summaries and terms (labels, not rules) are not compared.
"""
from __future__ import annotations

import attrs

from . import ast as A
from .errors import Pos
from .model import Game, Limit, Param

# Game fields compared, in the order changes are listed; the model's other fields are labels.
SECTIONS = ("min_players", "max_players", "options", "tables", "counters", "zones", "items",
            "formulas", "graphs", "setup", "flow", "actions", "triggers", "scoring",
            "invariants", "automa", "automa_decide")
# Model fields that repeat what the path says, or are documentation.
SKIPPED_FIELDS = {"name", "doc"}
# How some model fields read in a path (the YAML key the author wrote).
FIELD_NAMES = {"min_players": "players.min", "max_players": "players.max", "param": "choose",
               "limits": "limit", "cond": "if", "free_if": "free_actions_if",
               "free_at": "free_actions_at", "other": "else", "automa_decide": "automa.decide",
               "until_cond": "until", "order_list": "order", "steps": "", "sources": "from"}


@attrs.frozen
class Change:
    """One difference: what changed, its value on each side, and where each side defines it."""

    path: str
    before: object
    after: object
    where: tuple  # (file:line or None, file:line or None)

    def as_json(self) -> dict:
        return {"path": self.path, "before": self.before, "after": self.after,
                "where": {"before": self.where[0], "after": self.where[1]}}


def diff_games(a: Game, b: Game) -> list[Change]:
    """Every difference from game `a` to game `b`, in section order."""
    out: list[Change] = []
    for section in SECTIONS:
        before, after = _by_name(section, getattr(a, section)), _by_name(section, getattr(b, section))
        if section == "tables":
            _tables(before, after, a.table_pos, b.table_pos, out)
            continue
        _walk(FIELD_NAMES.get(section, section), before, after, None, None, out)
    return [_where_written(a, b, c) for c in out]


def _where_written(a: Game, b: Game, change: Change) -> Change:
    """Each side's place where the file that gave the value wrote it: a variant's (or an
    include's) own line, which the merged model's positions (the main file's maps) do not
    keep for plain values such as a limit's `per:` (Game.origins)."""
    where = tuple(game.origins.get(change.path) for game in (a, b))
    if not any(where):
        return change
    return attrs.evolve(change, where=tuple(_at(w) if w is not None else old
                                            for w, old in zip(where, change.where)))


def changes_from_base(game: Game) -> list[Change]:
    """What a variant changes from the game it extends (every variant of the chain)."""
    from .resolve import load_game

    if game.variant is None:
        return []
    return diff_games(load_game(game.game_file or game.folder), game)


def _by_name(section: str, value):
    """Triggers and invariants are kept in order in the model; compare them by name."""
    if section == "triggers":
        return {t.name: t for t in value}
    if section == "invariants":
        return dict(value)
    return value


def changed_parts(changes: list[Change]) -> dict:
    """`actions.power_plant` -> ["limit.times"], `tables.passing_points` -> ["3"]: what each
    changed entry changed (nothing listed for an entry added or removed whole). What a diagram
    or report marks as changed by a variant."""
    out: dict = {}
    for ch in changes:
        parts = ch.path.split(".")
        entry, rest = ".".join(parts[:2]), ".".join(parts[2:])
        out.setdefault(entry, [])
        if rest and rest not in out[entry]:
            out[entry].append(rest)
    return out


def _tables(before: dict, after: dict, pos_a: dict, pos_b: dict, out: list) -> None:
    for name in _keys(before, after):
        x, y = before.get(name), after.get(name)
        if x == y:
            continue
        where = (_at(pos_a.get(name)), _at(pos_b.get(name)))
        if isinstance(x, dict) and isinstance(y, dict):  # a mapping table changes key by key
            for key in _keys(x, y):
                if x.get(key) != y.get(key):
                    out.append(Change(f"tables.{name}.{key}", x.get(key), y.get(key), where))
        else:
            out.append(Change(f"tables.{name}", x, y, where))


def _walk(path: str, x, y, pos_x, pos_y, out: list) -> None:
    """Compare x and y below `path`; pos_x, pos_y: the nearest positions enclosing them."""
    if x == y:
        return
    pos_x, pos_y = _pos_of(x) or pos_x, _pos_of(y) or pos_y
    if isinstance(x, dict) and isinstance(y, dict):
        for key in _keys(x, y):
            _walk(f"{path}.{key}", x.get(key), y.get(key), pos_x, pos_y, out)
        return
    if _is_model(x) and type(x) is type(y):
        for field in attrs.fields(type(x)):
            if field.eq and field.name not in SKIPPED_FIELDS:
                key = FIELD_NAMES.get(field.name, field.name)
                _walk(f"{path}.{key}" if key else path,
                      getattr(x, field.name), getattr(y, field.name), pos_x, pos_y, out)
        return
    if _are_limits(x) and _are_limits(y) and len(x) == len(y):  # `limit:` one, or a list
        for i, (lx, ly) in enumerate(zip(x, y), 1):
            _walk(path if len(x) == 1 else f"{path}[{i}]", lx, ly, pos_x, pos_y, out)
        return
    if _are_steps(x) and _are_steps(y) and step_labels(x) == step_labels(y):
        for label, sx, sy in zip(step_labels(x), x, y):
            _walk(f"{path}.{label}", sx, sy, pos_x, pos_y, out)
        return
    out.append(Change(path, source_text(x), source_text(y), (_at(pos_x), _at(pos_y))))


def source_text(value):
    """A value as the author would write it: rule text for syntax trees, plain data otherwise."""
    if isinstance(value, A.Block):
        return A.block_source(value)
    if isinstance(value, Param):
        return A.choice_source(value)
    if _is_model(value):  # a whole entry or step: its fields as written
        return {FIELD_NAMES.get(f.name) or f.name: source_text(getattr(value, f.name))
                for f in attrs.fields(type(value))
                if f.eq and f.name not in SKIPPED_FIELDS and not _empty(getattr(value, f.name))}
    if isinstance(value, A.Num):  # a number written as an expression (`times: 3`) is a number
        return value.value
    if attrs.has(type(value)):
        return A.expr_source(value)
    if isinstance(value, tuple):
        return [source_text(v) for v in value]
    return value


def _is_model(value) -> bool:
    return attrs.has(type(value)) and type(value).__module__ == "meeplang.dsl.model"


def _are_limits(value) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(v, Limit) for v in value)


def _are_steps(value) -> bool:
    return isinstance(value, tuple) and bool(value) and all(_is_model(v) for v in value)


def step_labels(steps: tuple) -> list[str]:
    """Flow steps in a path: a phase's or step's name, else its kind (`turns`, `do`, `repeat`,
    `while`, `if`), numbered when several of a kind share a list."""
    kinds = [_STEP_KINDS.get(type(s).__name__, "step") for s in steps]
    labels = []
    for i, (step, kind) in enumerate(zip(steps, kinds)):
        name = getattr(step, "name", None)
        if name:
            labels.append(str(name))
        elif kinds.count(kind) > 1:
            labels.append(f"{kind}{kinds[:i + 1].count(kind)}")
        else:
            labels.append(kind)
    return labels


_STEP_KINDS = {"TurnsStep": "turns", "DoStep": "do", "RepeatStep": "repeat", "LoopStep": "while",
               "IfStep": "if", "PhaseStep": "phase"}


def _empty(value) -> bool:
    """A field left at its default in an added entry (not worth listing)."""
    return value is None or value is False or (isinstance(value, (tuple, str, dict)) and not value)


def _pos_of(value) -> Pos | None:
    pos = getattr(value, "pos", None)
    return pos if isinstance(pos, Pos) else None


def _at(pos: Pos | None) -> str | None:
    return f"{pos.path}:{pos.line}" if pos is not None else None


def _keys(x: dict, y: dict) -> list:
    """The keys of both sides: x's order, then y's new ones."""
    return list(x) + [k for k in y if k not in x]


# ------------------------------------------------------------ what a change reaches
def rule_label(rule: str) -> str:
    """`actions.power_plant` -> `power_plant`, `triggers.x` -> `trigger x`."""
    section, _, name = rule.partition(".")
    if section == "actions":
        return name
    singular = {"triggers": "trigger", "formulas": "formula", "invariants": "invariant",
                "counters": "counter"}
    return f"{singular[section]} {name}" if section in singular and name else rule


def _names(rules) -> str:
    labels = [rule_label(r) for r in rules]
    return ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6 else "")


def _period(action, per) -> str | None:
    from .depends import limit_of

    limit = limit_of(action, per) if action is not None else None
    return limit.per if limit is not None else None


def reach(a: Game, b: Game, change: Change) -> list[str]:
    """What else a change reaches, from the games' dependency graphs (dsl/depends.py): the rules
    that read a changed table, counter, option, zone or formula, and for a changed limit the
    rules that read the action's use count (its period may have changed under them)."""
    graph = b.deps or a.deps
    if graph is None:
        return []
    parts = change.path.split(".")
    section, name = parts[0], parts[1] if len(parts) > 1 else ""
    out = []
    kind = {"tables": "table", "counters": "counter", "options": "option", "zones": "zone",
            "formulas": "formula"}.get(section)
    if kind:
        readers = graph.readers(kind, name)
        writers = graph.writers(kind, name) if kind in ("counter", "zone") else []
        if readers:
            out.append(f"{name} is read by {_names(readers)}")
        if writers:
            out.append(f"{name} is changed by {_names(writers)}")
        for ix in graph.indexes:
            if ix.table == name:
                out.append(f"{name} is indexed by {ix.source} in {rule_label(ix.rule)}: its "
                           f"entries are {ix.action}'s uses per "
                           f"{_period(b.actions.get(ix.action), ix.per)}")
    if section == "actions" and name:
        action_a, action_b = a.actions.get(name), b.actions.get(name)
        if len(parts) > 2 and parts[2].startswith("limit"):
            for ix in graph.indexes:
                if ix.action != name:
                    continue
                before, after = _period(action_a, ix.per), _period(action_b, ix.per)
                if parts[-1] == "times":
                    out.append(_entries_read(b, ix, action_b))
                    continue
                counted = (f"now counted per {after} (was per {before})" if before != after
                           else f"counted per {after}")
                out.append(f"{ix.table} is read by {rule_label(ix.rule)}, whose uses are "
                           f"{counted}: {ix.source}")
            readers = [r for r in graph.readers("uses", name)
                       if not any(ix.action == name and ix.rule == r for ix in graph.indexes)]
            if readers:
                out.append(f"uses(\"{name}\") is read by {_names(readers)}")
        doers = graph.readers("action", name)
        if doers:
            out.append(f"{name} is done by {_names(doers)}")
    return out


def _entries_read(game: Game, ix, action) -> str:
    """`plant_damage[uses("power_plant") - 1] in power_plant reads entries 0 to 1 of 3 (2 uses
    per game)`."""
    from .depends import limit_of, most_uses

    limit = limit_of(action, ix.per) if action is not None else None
    most = most_uses(game, limit) if limit is not None else None
    table = game.tables.get(ix.table)
    if most is None or not isinstance(table, list):
        return f"{ix.table} is read by {rule_label(ix.rule)} at each use: {ix.source}"
    return (f"{ix.table} is read by {rule_label(ix.rule)} at each use: {ix.source} reads "
            f"entries {1 + ix.offset} to {most + ix.offset} of its {len(table)} "
            f"({most} uses per {limit.per})")
