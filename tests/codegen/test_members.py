"""A zone family's member in generated code (`bins[k]`, `p.shelf["x"]`): read from a table of
members by owner and key when the family and the key are one, else the runtime's `index`, which
says and does what the closure does (keys compare as text, a wrong key or a non-player is an
error at the index's position)."""
from __future__ import annotations

import pytest

from language.helpers import make_game

from .test_logs_differential import played

MEMBERS = """
game: members
players: 2
zones:
  src: {}
  bins: {each: [a, b, 2]}
  shelf: {per: player, each: [x, y]}
items:
  token: {count: 6, zone: src}
counters:
  seen: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [look], until: never}
actions:
  look:
    effect: |
      let p = SEAT
      let k = KEY
      EFFECT
scoring: {score: seen}
"""


def _game(tmp_path, seat: str, key: str, effect: str, name: str = "g"):
    text = (MEMBERS.replace("SEAT", seat).replace("KEY", key)
            .replace("EFFECT", effect.replace("\n", "\n      ")))
    return make_game(tmp_path, text, name=name)


@pytest.mark.parametrize("effect", [
    "move top(src) to bins[k]\nset seen to count(bins[k])\nif seen > 2:\n  end game",
    "move top(src) to p.shelf[k]\nset seen to count(p.shelf[k])\nif seen > 2:\n  end game",
    "move top(src) to shelf[k]\nset seen to count(shelf[k]) + count(p.shelf[k])\n"
    "if seen > 2:\n  end game",
])
@pytest.mark.parametrize("seat, key", [("0", '"a"'), ("1", '"x"'), ("0", "2"), ("0", '"2"'),
                                       ("5", '"x"'), ("0", '"z"'), ("0", "[1]")])
def test_members_generated_or_not(tmp_path, monkeypatch, seat, key, effect):
    game = _game(tmp_path, seat, key, effect)
    want = played(game, 2, 0, True, monkeypatch)
    assert played(game, 2, 0, False, monkeypatch) == want


def test_a_member_read_or_refused_as_the_closures_do(tmp_path, monkeypatch):
    game = _game(tmp_path, "1", '"y"', "move top(src) to p.shelf[k]\nset seen to count(p.shelf[k])"
                                       "\nif seen > 1:\n  end game")
    lines, _, error = played(game, 2, 0, False, monkeypatch)
    assert error is None and lines  # the member of seat 1 filled, then the game ended
    game = _game(tmp_path, "5", '"x"', "set seen to count(p.shelf[k])", "no")
    assert "is not a player" in played(game, 2, 0, False, monkeypatch)[2]
    game = _game(tmp_path, "0", '"z"', "set seen to count(bins[k])", "key")
    assert "has no key 'z'" in played(game, 2, 0, False, monkeypatch)[2]
