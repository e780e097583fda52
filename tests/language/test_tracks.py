"""Tracks: a counter whose values are the spaces of a table, advanced one space at a time."""
import pytest

from meeplang.dsl.errors import MeeplangError

from .helpers import make_game, play_labels, start

TRACK = """
game: t
players: 2
tables:
  spaces: [{icon: none}, {icon: coin}, {icon: none}, {icon: star}, {icon: coin}]
counters:
  coins: {per: player}
  stars: {per: player}
tracks:
  fame: {per: player, spaces: spaces, wrap_to: 2}
flow:
  - turns: {first: 0, actions: [climb, leap, stop], per_turn: 1, until: all_passed}
actions:
  climb: {effect: gain 1 fame}
  leap: {effect: add 3 to fame}
  stop: {effect: pass}
triggers:
  coin_space:
    when: enter space of fame
    if: space.icon == "coin"
    effect: gain 1 coins
  first_star:
    when: enter space of fame
    if: space.icon == "star"
    once: true
    effect: gain position stars
scoring: {score: coins}
"""


def seat(e, p):
    s = e.state["players"][p]
    return s["fame"], s["coins"], s["stars"]


def test_an_advance_enters_every_space_it_passes(tmp_path):
    e = start(make_game(tmp_path, TRACK))
    play_labels(e, ["leap"])                  # 0 -> 1 (coin) -> 2 -> 3 (star, first time)
    assert seat(e, 0) == (3, 1, 3)


def test_past_the_last_space_the_cube_wraps_and_enters_the_wrap_space(tmp_path):
    e = start(make_game(tmp_path, TRACK))
    play_labels(e, ["leap", "stop"])          # seat 0 at 3
    play_labels(e, ["leap"])                  # 3 -> 4 (coin) -> wrap to 2 -> 3 (star again)
    assert seat(e, 0) == (3, 2, 3)            # `once` is per seat and space: no second star


def test_once_is_per_seat(tmp_path):
    e = start(make_game(tmp_path, TRACK))
    play_labels(e, ["leap", "leap"])
    assert seat(e, 0) == (3, 1, 3) and seat(e, 1) == (3, 1, 3)


def test_a_track_family_shares_one_declaration(tmp_path):
    e = start(make_game(tmp_path, """
        game: t
        players: 1
        tables:
          attributes: [might, wit]
        counters:
          impact: {per: player}
        tracks:
          attribute: {per: player, each: attributes, spaces: 4, initial: 1, wrap_to: 2}
        flow:
          - do: |
              add 2 to might
              gain 5 wit
        triggers:
          impact_space:
            when: enter space of attribute
            if: position == 2
            effect: gain 1 impact
        scoring: {score: impact + might + wit}
        """), players=1)
    s = e.state["players"][0]
    # might: 1 -> 2 (impact) -> 3; wit: 1 -> 2 (impact) -> 3 -> 2 (impact) -> 3 -> 2 (impact)
    assert (s["might"], s["wit"], s["impact"]) == (3, 2, 4)


def test_a_family_member_may_have_its_own_spaces(tmp_path):
    e = start(make_game(tmp_path, """
        game: t
        players: 1
        tables:
          rows: {might: [a, b, c], wit: [a, x, c]}
        counters:
          xs: {per: player}
        tracks:
          attribute: {per: player, each: [might, wit], spaces: rows}
        flow:
          - do: |
              gain 2 might
              gain 2 wit
        triggers:
          x_space: {when: enter space of attribute, if: space == "x", effect: gain 1 xs}
        scoring: {score: xs}
        """), players=1)
    assert e.state["players"][0]["xs"] == 1


BY_KEY = """
game: t
players: 2
tables:
  attributes: [might, wit]
counters:
  impact: {per: player}
tracks:
  attribute: {per: player, each: attributes, spaces: 4, wrap_to: 2}
flow:
  - turns: {first: 0, actions: [raise_one, stop], per_turn: 1, until: all_passed}
actions:
  raise_one:                          # one rule for every track of the family
    choose: a in attributes where p_lowest(a)
    effect: gain 3 attribute[a]
  stop: {effect: pass}
formulas:
  p_lowest(a): all(attribute[a] <= you.attribute[b] for b in attributes)
triggers:
  impact_space: {when: enter space of attribute, if: position == 2, effect: gain 1 impact}
scoring: {score: "impact + sum(you.attribute[a] for a in attributes)"}
"""


def test_a_track_of_a_family_is_read_and_advanced_by_a_key_held_in_a_variable(tmp_path):
    e = start(make_game(tmp_path, BY_KEY))
    assert sorted(e.decision.labels) == ["raise_one might", "raise_one wit", "stop"]
    play_labels(e, ["raise_one wit"])         # 0 -> 1 -> 2 (impact) -> 3, a track's advance
    s = e.state["players"][0]
    assert (s["might"], s["wit"], s["impact"]) == (0, 3, 1)
    assert e.decision.labels == ["raise_one might", "raise_one wit", "stop"]   # seat 1's own
    play_labels(e, ["stop"])
    assert e.decision.labels == ["raise_one might", "stop"]   # seat 0: might is now the lowest
    play_labels(e, ["raise_one might"])
    assert e.state["players"][0]["might"] == 3 and e.state["players"][1]["might"] == 0


def test_a_family_read_whole_and_moved_back_by_key(tmp_path):
    e = start(make_game(tmp_path, """
        game: t
        players: 1
        tables:
          attributes: [might, wit]
        counters:
          total: {per: player}
        tracks:
          attribute: {per: player, each: attributes, spaces: 5, initial: 3}
        flow:
          - do: |
              for each a in attributes:
                lose 1 attribute[a]
              set attribute["wit"] to 4
              set total to sum(you.attribute)
        scoring: {score: total}
        """), players=1)
    s = e.state["players"][0]
    assert (s["might"], s["wit"], s["total"]) == (2, 4, 6)


def test_a_key_the_family_lacks_is_a_positioned_error(tmp_path):
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, BY_KEY.replace("gain 3 attribute[a]", 'gain 3 attribute["luck"]'))
    assert "attribute has no key 'luck'" in str(err.value) and err.value.pos.line == 15


def test_without_wrap_the_cube_stops_at_the_end_and_overflows(tmp_path):
    e = start(make_game(tmp_path, """
        game: t
        players: 1
        counters:
          spill: {per: player}
        tracks:
          heat: {per: player, spaces: 3}
        flow:
          - do: gain 5 heat
        triggers:
          too_hot: {when: overflow of heat, effect: gain excess spill}
        scoring: {score: heat}
        """), players=1)
    s = e.state["players"][0]
    assert (s["heat"], s["spill"]) == (2, 3)


def test_moving_back_enters_no_space(tmp_path):
    e = start(make_game(tmp_path, """
        game: t
        players: 1
        counters:
          hits: {per: player}
        tracks:
          heat: {per: player, spaces: 5, initial: 3}
        flow:
          - do: |
              lose 2 heat
              subtract 1 from heat
        triggers:
          hit: {when: enter space of heat, effect: gain 1 hits}
        scoring: {score: heat}
        """), players=1)
    assert (e.state["players"][0]["heat"], e.state["players"][0]["hits"]) == (0, 0)


@pytest.mark.parametrize("bad, message", [
    ("tracks: {fame: {spaces: nowhere}}", "unknown table 'nowhere'"),
    ("tracks: {fame: {spaces: 3, wrap_to: 3}}", "wrap_to: 3 is not a space of the track fame (0 to 2)"),
    ("tables: {r: {a: [1]}}\ntracks: {f: {each: [a, b], spaces: r}}",
     "table 'r' has no spaces for 'b'"),
    ("tracks: {coins: {spaces: 3}}", "track 'coins' has the name of another counter"),
    ("tracks: {fame: {spaces: 3}}\ntriggers: {t: {when: enter space of fam, effect: end game}}",
     "unknown track 'fam'; did you mean 'fame'?"),
    ("tracks: {fame: {spaces: 3}}\ntriggers: {t: {when: enter space of fame, timing: "
     "immediately, effect: end game}}", "`enter space of` runs as the cube enters"),
])
def test_track_errors_are_positioned(tmp_path, bad, message):
    text = "game: t\nplayers: 1\ncounters: {coins: {}}\nflow: [{do: 'add 1 to coins'}]\n" \
           "scoring: {score: 0}\n" + bad + "\n"
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, text)
    assert message in str(err.value)
    assert err.value.pos.line >= 6
