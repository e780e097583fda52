"""A Decision is one choice point: who chooses, what kind of choice, the legal options, and why.

Options are derived from the rules (an action's `choose:` and `requires:`, a `choose` statement's
source and `where`), never listed by hand. Agents answer with an option's index.
"""
from __future__ import annotations

from typing import Any


class Decision:
    __slots__ = ("player", "kind", "options", "why", "secret", "_labels", "ctx", "hiding")

    def __init__(self, player: int, kind: str, options: list, why: str, secret: bool = False):
        self.player = player
        self.kind = kind
        self.options = options
        self.why = why  # file:line of the rule that asks
        self.secret = secret
        self._labels: Any = None  # made on first use
        self.ctx: Any = None  # the asking rule's context (for automa policies), never serialised
        # the engine, when options may be items the chooser cannot see: their labels then name
        # places (`pile 2`); made when first read, at the decision (replays never read them)
        self.hiding: Any = None

    @property
    def name(self) -> str:
        """The decision's name for automa policies: the chosen variable, `bid`, or the action."""
        return self.kind.split()[-1]

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            if self.hiding is not None:
                self._labels = self.hiding.hidden_labels(self.player, self.options)
            if self._labels is None:
                self._labels = [label(o) for o in self.options]
        return self._labels

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "options": self.labels, "why": self.why}

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, options={self.labels})"


class ActionOption:
    """One legal way to take an action: the action's name and its chosen value, if any."""

    __slots__ = ("action", "value", "free", "args")

    def __init__(self, action: str, value=None, free: bool = False, args: dict | None = None):
        self.action, self.value, self.free, self.args = action, value, free, args

    def __repr__(self) -> str:
        return label(self)


def label(option) -> str:
    if isinstance(option, ActionOption):
        return option.action if option.value is None else f"{option.action} {label(option.value)}"
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, (list, tuple)):
        return "[" + ", ".join(label(x) for x in option) + "]"
    return str(option)
