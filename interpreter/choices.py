"""What a seat is asked, as the Python API and agents of your own see it: a `Choice` (whose
decision, what kind, the rule that asks, the options) made of `Option`s, each with its label as
the chooser sees it and a stable action id.

Action ids. An id names a move by the move itself, never by its place among the options: it is
the top `bits` bits of the BLAKE2b hash of the option's label as the chooser sees it (`roll`,
`bid_card#0.3`, `build_extension extension#1.2`, `deck 2` for a face-down pick). So `roll` has
the same id whatever else is legal, in every game, process and machine, and the id space is
finite (2**bits ids, 2**20 by default) as OpenSpiel's `num_distinct_actions` and a PettingZoo
action mask need. Two options of one decision with the same label are one move (the first is
taken, as `Engine.choose_label` does). Hashing bounds the space for any game, where a table of
every possible option cannot be made from a game's data (a choice of several items is a subset:
thousands of possible labels); its price is that two labels may share an id. Within a decision
that is checked: the label that sorts first keeps its id and the other takes the next free one,
so every decision's ids are distinct; across decisions two labels may share an id, which
tests/api/test_action_ids.py checks does not happen among the labels that random games of every
bundled game offer. `bits` can be raised (up to 30) where a game needs more room.
"""
from __future__ import annotations

import functools
import hashlib
from typing import Any, Callable

import attrs

from meeplang.dsl.errors import UsageError

from .decisions import ActionOption

DEFAULT_BITS = 20
MAX_BITS = 30  # OpenSpiel keeps action counts in a C int


@functools.lru_cache(maxsize=1 << 16)  # a game's labels come back decision after decision
def action_id(label: str, bits: int = DEFAULT_BITS) -> int:
    """The stable id of an option's label: the top `bits` bits of its BLAKE2b hash."""
    digest = hashlib.blake2b(label.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - bits)


def check_bits(bits: int) -> int:
    """`bits` as given, if it is a whole number from 1 to MAX_BITS."""
    if type(bits) is not int or not 1 <= bits <= MAX_BITS:
        raise UsageError(f"action id bits must be a whole number from 1 to {MAX_BITS}, "
                         f"not {bits!r}")
    return bits


def option_ids(labels: list[str], bits: int = DEFAULT_BITS) -> list[int]:
    """The id of each of one decision's labels: `action_id`, except that of two different labels
    with the same id, the one sorting second takes the next free id (rare, see above)."""
    size = 1 << bits
    distinct = sorted(set(labels))
    if len(distinct) > size:
        raise UsageError(f"{len(distinct)} options do not fit in {size} action ids: give more "
                         f"bits (at most {MAX_BITS})")
    by_label: dict[str, int] = {}
    taken: set[int] = set()
    for label in distinct:
        i = action_id(label, bits)
        while i in taken:
            i = (i + 1) % size
        taken.add(i)
        by_label[label] = i
    return [by_label[label] for label in labels]


@attrs.frozen
class Option:
    """One legal option: its place among the decision's options (`index`), its `label` as the
    chooser sees it, its stable action `id`, and the action's name when the option is an
    action (`None` otherwise: a card, a number, yes or no)."""

    index: int
    label: str
    id: int
    action: str | None = None

    def __str__(self) -> str:
        return self.label


class Choice:
    """A decision as the seat that makes it sees it: `player` (the seat), `kind` (`action`, `choose
    card`, `secret bid`, `may activate`...), `why` (`file:line:col` of the rule that asks),
    `secret` (the other seats do not see the answer), `options` (the legal `Option`s) and `view`
    (what the seat sees of the game: counters, zones and items, the others' hidden ones as `?`).
    """

    __slots__ = ("player", "kind", "why", "secret", "options", "_view", "_why_not")

    def __init__(self, player: int, kind: str, why: str, secret: bool, options: tuple,
                 view: Callable[[], dict], why_not: Callable[[str], str]):
        self.player, self.kind, self.why, self.secret = player, kind, why, secret
        self.options: tuple[Option, ...] = options
        self._view: Any = view
        self._why_not = why_not

    @property
    def view(self) -> dict:
        """What the seat sees of the game now (made on first use: a copy, free to change)."""
        if callable(self._view):
            self._view = self._view()
        return self._view

    @property
    def labels(self) -> list[str]:
        """The options' labels, in order."""
        return [o.label for o in self.options]

    @property
    def ids(self) -> list[int]:
        """The options' action ids, in order."""
        return [o.id for o in self.options]

    def option(self, move: Option | str | int) -> Option:
        """The option `move` names: an Option of this decision, a label, or an index; an illegal
        one is a UsageError that says why it is not allowed."""
        if isinstance(move, Option):
            if move.index < len(self.options) and self.options[move.index] == move:
                return move
            raise UsageError(f"{move.label!r} is an option of another decision: "
                             + self._why_not(move.label))
        if isinstance(move, str):
            for option in self.options:
                if option.label == move:
                    return option
            raise UsageError(self._why_not(move))
        if type(move) is int and 0 <= move < len(self.options):
            return self.options[move]
        raise UsageError(f"{move!r} is not an option here: give an Option, a label or an index "
                         f"from 0 to {len(self.options) - 1} ({', '.join(self.labels)})")

    def by_id(self, action: int) -> Option:
        """The option with this action id; a UsageError if none has it."""
        for option in self.options:
            if option.id == action:
                return option
        raise UsageError(f"action id {action!r} is not legal here (legal: "
                         + ", ".join(f"{o.id} {o.label}" for o in self.options) + ")")

    def __repr__(self) -> str:
        return f"<Choice player={self.player} kind={self.kind!r} options={self.labels}>"


def choice_of(engine: Any, bits: int = DEFAULT_BITS) -> Choice | None:
    """The engine's waiting decision as a Choice (None when the game is over)."""
    d = engine.decision
    if d is None:
        return None
    labels = d.labels
    options = tuple(Option(i, text, n, o.action if isinstance(o, ActionOption) else None)
                    for i, (o, text, n) in enumerate(zip(d.options, labels,
                                                         option_ids(labels, bits))))
    return Choice(d.player, d.kind, d.why, d.secret, options, lambda: engine.view(d.player),
                  engine.why_illegal)
