"""What the rules can do, read from the Game model: which actions a block runs (`do ACTION`),
which blocks say `end game`, which steps never finish, and which triggers fire where."""
from __future__ import annotations

from meeplang.dsl import ast as A
from meeplang.dsl.model import IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep


def _nodes(block):
    if block is None:
        return []
    try:
        return list(A.walk(block))
    except Exception:  # pragma: no cover - a node type the walker does not know
        return []


def ends_game(block) -> bool:
    """The block itself says `end game` somewhere."""
    return any(isinstance(n, A.ControlStmt) and n.what == "end game" for n in _nodes(block))


FROM_DATA = ""  # stands for "an action or rule text held in data" (`do card.effect`)


def calls(block) -> list[str]:
    """Actions the block runs with `do ACTION`, in source order, without repeats; a `do` by value
    adds the actions its value names (`do one of [travel, sonar]`) and FROM_DATA."""
    out = []
    for n in _nodes(block):
        if not isinstance(n, A.DoStmt):
            continue
        names = [n.action] if n.action else [x.name for x in _nodes(n.value)
                                               if isinstance(x, A.Name)] + [FROM_DATA]
        out.extend(a for a in names if a not in out)
    return out


def deck_operations(block) -> list:
    """The `draw ..., keep ...` and `search ... for` statements of a block, in source order."""
    return [n for n in _nodes(block) if isinstance(n, (A.DrawStmt, A.SearchStmt))]


def tables_read(game, *parts) -> list[str]:
    """The tables the given rule parts (expressions, blocks, an action's choice) read, in source
    order: what a house rule that changes a table changes."""
    out: list[str] = []
    for part in parts:
        if part is None:
            continue
        subparts = [part.source, part.cond] if hasattr(part, "is_range") else [part]
        for sub in subparts:
            for e in sub if isinstance(sub, tuple) else (sub,):
                for n in _nodes(e):
                    if isinstance(n, A.Name) and n.name in game.tables and n.name not in out:
                        out.append(n.name)
    return out


def reach(game, blocks) -> list[str]:
    """Every action the blocks run, directly or through actions they run (transitively), also
    through actions and rule text held in data."""
    out: list[str] = []
    todo = [a for b in blocks for a in calls(b)]
    from_data = False
    while todo:
        a = todo.pop(0)
        if a == FROM_DATA and not from_data:
            from_data = True
            todo.extend(game.data_actions)
            todo.extend(x for rt in game.rule_texts.values() for x in calls(rt.block))
        if a in out or a not in game.actions:
            continue
        out.append(a)
        todo.extend(calls(game.actions[a].effect))
    return out


def trigger_key(t):
    """The event key a trigger listens to (matched against the keys an anchor fires)."""
    if t.event in ("before_turn", "after_turn"):
        return ("turn",)
    if t.event in ("before_action", "after_action"):
        return ("action", t.target) if t.target else ("any_action",)
    if t.event in ("phase_start", "phase_end"):
        return ("phase", t.target)
    return (t.event, t.target)


def end_sources(game, runs, keys, with_triggers: bool) -> list[str | None]:
    """Names of the rules that can end the game from a place that runs `runs` (pairs of
    (name or None for the place itself, block)) and fires the event `keys`: actions run from
    there, and (with_triggers) the triggers fired there, followed transitively. None means the
    place's own text says `end game`."""
    keys = set(keys)
    found: list[str | None] = []
    seen_actions: set[str] = set()
    seen_triggers: set[str] = set()
    queue = list(runs)
    for name, _ in runs:
        if name is not None and name in game.actions:
            seen_actions.add(name)
    while True:
        while queue:
            name, block = queue.pop(0)
            if ends_game(block) and name not in found:
                found.append(name)
            for a in calls(block):
                if a in game.actions and a not in seen_actions:
                    seen_actions.add(a)
                    keys.add(("action", a))
                    queue.append((a, game.actions[a].effect))
        if not with_triggers:
            break
        for t in game.triggers:
            if t.name not in seen_triggers and trigger_key(t) in keys:
                seen_triggers.add(t.name)
                queue.append((t.name, t.effect))
        if not queue:
            break
    return found


def never_ends(step) -> bool:
    """A step after which the flow cannot continue (only `end game` leaves it)."""
    if isinstance(step, TurnsStep):
        return step.until == "never" and step.until_round is None
    if isinstance(step, LoopStep):
        c = step.cond
        if isinstance(c, A.Const) and c.value is (not step.until):
            return True
        return seq_never_ends(step.steps)
    if isinstance(step, (PhaseStep, RepeatStep)):
        return seq_never_ends(step.steps)
    if isinstance(step, IfStep):
        return seq_never_ends(step.steps) and seq_never_ends(step.other)
    return False


def seq_never_ends(steps) -> bool:
    return any(never_ends(s) for s in steps)


def all_steps(steps):
    """Every flow step, parents before children."""
    for s in steps:
        yield s
        for attr in ("steps", "other"):
            yield from all_steps(getattr(s, attr, ()) or ())
