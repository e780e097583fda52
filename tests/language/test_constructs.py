"""General constructs the euro games need: grids with gravity, selectors, subset choices,
open auctions, use limits, overflow triggers, item fields, table-made items, automa seats."""
import pytest

from meeplang.dsl.errors import ResolveError, RuleError, RuleSyntaxError

from .helpers import cells, make_game, play_labels, start

GRID = """
game: grid
players: [1, 2]
tables:
  cards: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}, {name: f}, {name: g}]
zones:
  deck: {}
  board: {grid: {rows: 3, columns: 3}, gravity: GRAVITY}
  taken: {}
items:
  card: {from: cards, zone: deck}
setup: |
  place top(deck) on board at 1, 1
  place top(deck) on board at 1, 2
  place top(deck) on board at 2, 1
  place top(deck) on board at 2, 3
  place top(deck) on board at 3, 2
flow:
  - turns: {first: 0, actions: [take, stop], until: never}
actions:
  take:
    choose: card in board
    effect: move card to taken
  stop:
    effect: end game
scoring: {score: count(taken)}
"""


def test_rows_gravity_drops_every_row_above_an_emptied_row(tmp_path):
    e = start(make_game(tmp_path, GRID.replace("GRAVITY", "rows")), players=1)
    assert cells(e, "board") == {"a": (1, 1), "b": (1, 2), "c": (2, 1), "d": (2, 3), "e": (3, 2)}
    play_labels(e, ["take card#5"])  # e was alone in row 3: rows 1 and 2 move down, same columns
    assert cells(e, "board") == {"a": (2, 1), "b": (2, 2), "c": (3, 1), "d": (3, 3)}
    play_labels(e, ["take card#1"])  # row 2 still holds b: nothing moves
    assert cells(e, "board") == {"b": (2, 2), "c": (3, 1), "d": (3, 3)}


def test_columns_gravity_lets_items_fall_into_the_emptied_cell(tmp_path):
    e = start(make_game(tmp_path, GRID.replace("GRAVITY", "columns")), players=1)
    play_labels(e, ["take card#3"])  # c at (2,1) leaves: a above it falls to (2,1)
    assert cells(e, "board") == {"a": (2, 1), "b": (1, 2), "d": (2, 3), "e": (3, 2)}


def test_grid_order_is_row_major_and_at_finds_a_cell(tmp_path):
    game = make_game(tmp_path, GRID.replace("GRAVITY", "none") + """
invariants:
  reading_order: "[row(x) * 10 + column(x) for x in board] == sorted(each x in board by row(x) * 10 + column(x)) and true"
""".replace("sorted(each x in board by row(x) * 10 + column(x))",
            "[row(x) * 10 + column(x) for x in sorted(each x in board by [row(x), column(x)])]"))
    e = start(game, players=1)
    assert [e.state["items"][x]["name"] for x in e.state["zones"]["board"]] == list("abcde")
    from meeplang.interpreter.invariants import declared
    assert declared(e) == []


def test_place_on_a_taken_cell_is_an_error(tmp_path):
    text = GRID.replace("GRAVITY", "none").replace(
        "place top(deck) on board at 3, 2", "place top(deck) on board at 1, 1")
    with pytest.raises(RuleError, match=r"cell 1, 1 of board is taken"):
        start(make_game(tmp_path, text), players=1)


def test_place_needs_a_grid_zone(tmp_path):
    text = GRID.replace("GRAVITY", "none").replace(
        "place top(deck) on board at 3, 2", "place top(deck) on taken at 1, 1")
    with pytest.raises(ResolveError, match="zone 'taken' has no grid"):
        make_game(tmp_path, text)


SELECT = """
game: select
players: 1
tables:
  cards: [{name: a, v: 3}, {name: b, v: 1}, {name: c, v: 2}, {name: d, v: 1}]
counters:
  low: {}
  high: {}
  order: {}
zones:
  deck: {}
items:
  card: {from: cards, zone: deck}
setup: |
  set low to position(lowest(each c in deck by c.v))
  set high to position(highest(each c in deck by c.v))
  set order to sum(position(c) * 10 ** 0 for c in deck)
flow: []
scoring:
  score: 0
"""


def test_lowest_and_highest_pick_by_key_and_keep_the_first_on_ties(tmp_path):
    game = make_game(tmp_path, SELECT.replace(
        "  set order to sum(position(c) * 10 ** 0 for c in deck)\n", ""))
    e = start(game, players=1)
    assert e.state["counters"]["low"] == 2  # b and d tie on 1: the first in the zone wins
    assert e.state["counters"]["high"] == 1


def test_sorted_orders_by_a_list_key(tmp_path):
    game = make_game(tmp_path, SELECT.replace(
        "  set order to sum(position(c) * 10 ** 0 for c in deck)\n",
        "  set order to sum(position(c) for c in [first(sorted(each c in deck by [c.v, -position(c)]))])\n"))
    e = start(game, players=1)
    assert e.state["counters"]["order"] == 4  # v=1 ties broken by the later position: d (4th)


SUBSETS = """
game: subsets
players: [2, 2]
tables:
  price: [0, 1, 3, 6]
counters:
  coins: {per: player, initial: 8, min: 0}
zones:
  deck: {}
  hand: {per: player}
  bought: {per: player}
items:
  card: {per: player, count: 3, zone: hand, fields: {value: n}}
flow:
  - do: |
      secretly each player chooses buy from subsets of hand where price[count(buy)] <= coins
      for each p in players:
        p pays price[count(buy[p])] coins
        for each x in buy[p]:
          move x to p.bought
scoring:
  score: count(bought)
"""


def test_secret_subset_choice_offers_every_affordable_subset(tmp_path):
    e = start(make_game(tmp_path, SUBSETS))
    d = e.decision
    assert d.secret and d.player == 0
    assert len(d.options) == 8  # all subsets of 3 cards; 6 coins for 3 is affordable
    assert d.labels[0] == "[]" and d.labels[-1] == "[card#0.1, card#0.2, card#0.3]"
    play_labels(e, ["[card#0.1, card#0.3]", "[card#1.1, card#1.2, card#1.3]"])
    assert [p["coins"] for p in e.state["players"]] == [5, 2]  # 8 - 3 and 8 - 6
    assert e.result["scores"] == [2, 3]


AUCTION = """
game: auction
players: [3, 3]
counters:
  coins: {per: player, initial: 5, min: 0}
  won_by: {initial: -1}
  paid: {initial: 0}
flow:
  - do: |
      auction among players_from(1) paying coins as winner, price
      if winner != none:
        winner pays price coins
        set won_by to winner
        set paid to price
scoring:
  score: coins
"""


def test_open_auction_strictly_higher_bids_and_dropping_out_for_good(tmp_path):
    e = start(make_game(tmp_path, AUCTION), players=3)
    assert e.decision.player == 1 and e.decision.labels == ["out", "1", "2", "3", "4", "5"]
    play_labels(e, ["2"])          # player 1 opens at 2
    assert e.decision.player == 2 and e.decision.labels[:2] == ["out", "3"]
    play_labels(e, ["out"])        # player 2 drops out for good
    assert e.decision.player == 0
    play_labels(e, ["3", "4"])     # player 0 raises to 3, player 1 to 4; player 2 is not asked
    assert e.decision.player == 0 and e.decision.labels == ["out", "5"]
    play_labels(e, ["out"])
    assert e.decision is None
    assert e.state["counters"]["won_by"] == 1 and e.state["counters"]["paid"] == 4
    assert [p["coins"] for p in e.state["players"]] == [5, 1, 5]


def test_an_opening_of_zero_is_out_and_nobody_may_win(tmp_path):
    e = start(make_game(tmp_path, AUCTION), players=3)
    play_labels(e, ["out", "out", "out"])
    assert e.decision is None and e.state["counters"]["won_by"] == -1


def test_the_tie_holder_may_match_the_high_bid_and_lead_with_it(tmp_path):
    """`ties to P`: P may bid the standing high bid itself (a matching offer beats it); every
    other bidder must still outbid, so the tie holder loses only to a strictly higher bid."""
    text = AUCTION.replace("as winner, price", "as winner, price ties to 2")
    e = start(make_game(tmp_path, text), players=3)
    play_labels(e, ["2"])                       # player 1 opens at 2
    assert e.decision.player == 2 and e.decision.labels == ["out", "2", "3", "4", "5"]
    play_labels(e, ["2"])                       # player 2 matches: it leads with 2
    assert e.decision.player == 0 and e.decision.labels[:2] == ["out", "3"]
    play_labels(e, ["out", "3"])                # player 0 drops out, player 1 raises to 3
    assert e.decision.labels == ["out", "3", "4", "5"]
    play_labels(e, ["3", "out"])                # player 2 matches again; player 1 gives up
    assert e.decision is None
    assert e.state["counters"]["won_by"] == 2 and e.state["counters"]["paid"] == 3


def test_the_tie_holder_cannot_match_when_nobody_has_bid(tmp_path):
    text = AUCTION.replace("as winner, price", "as winner, price ties to 1")
    e = start(make_game(tmp_path, text), players=3)
    assert e.decision.labels == ["out", "1", "2", "3", "4", "5"]


LIMIT = """
game: limit
players: 1
tables:
  damage_by_use: [1, 3, 6]
counters:
  coins: {per: player, initial: 0}
  damage: {per: player, initial: 0, min: 0, max: 15, overflow: clamp}
  destroyed: {per: player, initial: 0}
flow:
  - repeat: 2
    steps:
      - phase: work
        steps:
          - turns: {first: 0, actions: [plant, stop], until: all_passed}
actions:
  plant:
    limit: {times: 3, per: work}
    effect: |
      gain 5 coins
      add damage_by_use[uses("plant") - 1] to damage
  stop:
    effect: pass
triggers:
  too_much_damage:
    when: overflow of damage
    effect: |
      add excess to destroyed
scoring:
  score: coins
"""


def test_use_limit_per_phase_with_a_cost_indexed_by_the_use_count(tmp_path):
    e = start(make_game(tmp_path, LIMIT), players=1)
    play_labels(e, ["plant", "plant", "plant"])
    me = e.state["players"][0]
    assert (me["coins"], me["damage"]) == (15, 10)  # +1, +3, +6
    assert e.decision.labels == ["stop"]  # a 4th use is not offered
    play_labels(e, ["stop", "plant", "plant"])  # the next `work` phase resets the count
    assert (me["coins"], me["damage"], me["destroyed"]) == (25, 10 + 1 + 3, 0)


def test_overflow_trigger_gets_the_excess_once_per_event(tmp_path):
    e = start(make_game(tmp_path, LIMIT), players=1)
    play_labels(e, ["plant", "plant", "plant", "stop", "plant"])
    me = e.state["players"][0]
    assert me["damage"] == 11 and me["destroyed"] == 0
    play_labels(e, ["plant"])  # 11 + 3 = 14
    play_labels(e, ["plant"])  # 14 + 6 = 20 -> clamped at 15, excess 5
    assert me["damage"] == 15 and me["destroyed"] == 5


FIELDS = """
game: fields
players: 1
zones:
  deck: {}
items:
  card: {count: 2, zone: deck, fields: {face_up: false, charge: 0}}
setup: |
  set top(deck).face_up to true
  add 3 to top(deck).charge
  subtract 1 to_remove
flow: []
scoring: {score: sum(c.charge for c in deck)}
"""


def test_item_fields_can_be_set_and_added_to(tmp_path):
    game = make_game(tmp_path, FIELDS.replace("  subtract 1 to_remove\n", ""))
    e = start(game, players=1)
    assert e.state["items"]["card#1"] == {"kind": "card", "owner": None, "face_up": True,
                                          "charge": 3}
    assert e.state["items"]["card#2"]["face_up"] is False


AUTOMA = """
game: automa
players: [1, 1]
automa: {name: robot, seats: 1}
counters:
  points: {per: player, initial: 0}
flow:
  - turns: {first: 1, actions: [score_one, score_two, stop], automa_actions: [robot_turn, stop],
            until: all_passed}
actions:
  score_one: {effect: "gain 1 points"}
  score_two: {effect: "gain 2 points"}
  robot_turn:
    requires: points < 3
    effect: gain 1 points
  stop:
    requires: not is_automa(you) or points >= 3
    effect: pass
scoring: {score: points}
"""


def test_automa_seats_are_played_by_their_rules_without_asking_anyone(tmp_path):
    e = start(make_game(tmp_path, AUTOMA), players=1)
    assert e.n == 2 and e.decision.player == 0  # the robot (seat 1) already took its turn
    play_labels(e, ["score_two", "score_two", "stop"])
    assert e.decision is None
    assert e.result["scores"] == [4, 3]
    automa_events = [ev for ev in e.events if ev["event"] == "automa"]
    assert [ev["option"] for ev in automa_events] == ["robot_turn"] * 3 + ["stop"]


def test_an_automa_with_two_options_is_an_error(tmp_path):
    game = make_game(tmp_path, AUTOMA.replace("automa_actions: [robot_turn, stop]",
                                              "automa_actions: [score_one, score_two]"))
    with pytest.raises(RuleError, match="the automa .seat 1. has 2 options") as info:
        start(game, players=1)
    assert info.value.pos.path.endswith("g/game.yaml") and info.value.pos.line == 8  # the turns step


PASSERS = """
game: passers
players: [3, 3]
tables:
  pass_points: [3, 2, 0]
counters:
  points: {per: player, initial: 0}
  leader: {initial: 0}
flow:
  - turns: {first: 0, actions: [wait, pass_], until: all_passed}
actions:
  wait: {effect: "end turn"}
  pass_:
    effect: |
      if count(passers) == 0:
        set leader to you
      pass
triggers:
  passing_points:
    when: after pass_
    effect: gain pass_points[count(passers) - 1] points
scoring: {score: points}
"""


def test_passers_lists_the_passing_order(tmp_path):
    e = start(make_game(tmp_path, PASSERS), players=3)
    play_labels(e, ["wait", "pass_", "wait", "pass_", "pass_"])
    assert e.state["counters"]["leader"] == 1
    assert e.result["scores"] == [2, 3, 0]  # player 1 passed first, then 0, then 2


CHOOSER = """
game: chooser
players: [2, 2]
counters:
  picked: {per: player, initial: 0}
flow:
  - do: |
      choose n from 1 to 3 by left(you)
      set picked to n
scoring: {score: picked}
"""


def test_choose_by_another_player_asks_that_player(tmp_path):
    e = start(make_game(tmp_path, CHOOSER))
    assert e.decision.player == 1 and e.decision.labels == ["1", "2", "3"]
    play_labels(e, ["3"])
    assert e.result["scores"] == [3, 0]


MAY_DO = """
game: maydo
players: 1
counters:
  moves: {per: player, initial: 0}
  low: {initial: 0}
flow:
  - do: |
      may do move 3 times
      set low to clamp(moves - 10, 0, 15)
actions:
  move:
    choose: n from 1 to 2
    effect: add n to moves
scoring: {score: moves}
"""


def test_may_do_offers_skip_and_skipping_ends_the_remaining_uses(tmp_path):
    e = start(make_game(tmp_path, MAY_DO), players=1)
    assert e.decision.labels == ["move 1", "move 2", "skip"]
    play_labels(e, ["move 2", "skip"])
    assert e.decision is None and e.result["scores"] == [2]
    assert e.state["counters"]["low"] == 0  # clamp(2 - 10, 0, 15)


def test_may_do_can_be_taken_every_time(tmp_path):
    e = start(make_game(tmp_path, MAY_DO), players=1)
    play_labels(e, ["move 2", "move 2", "move 1"])
    assert e.decision is None and e.result["scores"] == [5]


SOON = """
game: soon
players: [2, 2]
counters:
  fame: {per: player, initial: 0}
  ending: {initial: 0}
  bonus: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [climb, rest], per_turn: 1, until: never, until_round: ending == 1}
actions:
  climb: {effect: gain 3 fame}
  rest: {effect: gain 0 fame}
triggers:
  someone_reached_six:
    when: as soon as any(p.fame >= 6 for p in players)
    effect: set ending to 1
  first_climber:
    when: after climb
    once: true
    effect: gain 10 bonus
scoring: {score: fame, tie_break: [bonus]}
"""


def test_as_soon_as_fires_once_when_true_and_the_round_is_finished(tmp_path):
    e = start(make_game(tmp_path, SOON))
    play_labels(e, ["climb", "rest", "climb"])  # player 0 reaches 6 in the middle of round 2
    assert e.state["counters"]["ending"] == 1
    assert e.decision is not None and e.decision.player == 1  # the round is finished first
    play_labels(e, ["climb"])
    assert e.decision is None  # then the game stops
    assert e.result["scores"] == [6, 3]
    assert [p["bonus"] for p in e.state["players"]] == [10, 0]  # `once`: only the first climb
    fired = [ev["trigger"] for ev in e.events if ev["event"] == "trigger"]
    assert fired.count("someone_reached_six") == 1 and fired.count("first_climber") == 1


HEAD_START = """
game: head-start
players: [2, 2]
counters:
  fame: {per: player, initial: START}
  bonus: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [climb], per_turn: 1, until: never, until_round: fame >= 12}
actions:
  climb: {effect: gain 3 fame}
triggers:
  famous:
    when: as soon as fame >= 6
    TIMING
    effect: gain 1 bonus
scoring: {score: fame + bonus}
"""


@pytest.mark.parametrize("timing", ["timing: immediately", ""])
def test_as_soon_as_fires_on_a_condition_that_holds_when_play_starts(tmp_path, timing):
    """"As soon as" is the first time the condition holds, also when the components as set up
    already meet it (no statement made it true), with or without `timing: immediately`."""
    e = start(make_game(tmp_path, HEAD_START.replace("START", "6").replace("TIMING", timing)))
    assert [p["bonus"] for p in e.state["players"]] == [1, 1]  # before the first turn:
    assert [(ev["event"], ev.get("player")) for ev in e.events[1:]] == [
        ("trigger", 0), ("trigger", 1)]  # the current player first, nothing decided yet
    play_labels(e, ["climb", "climb"])  # it stays true: it does not fire again
    assert [p["bonus"] for p in e.state["players"]] == [1, 1]
    e = start(make_game(tmp_path, HEAD_START.replace("START", "3").replace("TIMING", timing),
                        name="late"))
    assert [p["bonus"] for p in e.state["players"]] == [0, 0]
    play_labels(e, ["climb"])  # the first climber gets there on their turn
    assert [p["bonus"] for p in e.state["players"]] == [1, 0]


TIMING = """
game: timing
players: 1
counters:
  heat: {per: player, initial: 9, max: 10, overflow: clamp}
  order: {per: player, initial: 0, visibility: owner}
actions:
  burn:
    effect: |
      add 5 to heat
      set order to order * 10 + 2
triggers:
  boom:
    when: overflow of heat
    TIMING
    effect: set order to order * 10 + 1
flow:
  - turns: {first: 0, actions: [burn], per_turn: 1, until: one_round}
scoring: {score: order}
"""


@pytest.mark.parametrize("timing, order", [("timing: immediately", 12), ("", 21)])
def test_overflow_trigger_timing(tmp_path, timing, order):
    e = start(make_game(tmp_path, TIMING.replace("TIMING", timing)), players=1)
    play_labels(e, ["burn"])
    assert e.result["scores"] == [order]


def test_owner_visible_counters_are_masked_for_other_players(tmp_path):
    game = make_game(tmp_path, SUBSETS.replace("coins: {per: player, initial: 8, min: 0}",
                                               "coins: {per: player, initial: 8, min: 0, "
                                               "visibility: owner}"))
    e = start(game)
    assert e.view(0)["players"][0]["coins"] == 8 and e.view(0)["players"][1]["coins"] == "?"
    assert e.view(None)["players"][1]["coins"] == 8


FORMULAS = """
game: formulas
players: [2, 2]
counters: {points: {per: player, initial: 3}}
formulas:
  double(x): 2 * x
  bonus(p): double(p.points) + 1
  leader(): highest(each p in players by p.points)
flow: []
scoring: {score: bonus(you) + leader()}
"""


def test_formulas_are_named_expressions_with_parameters(tmp_path):
    e = start(make_game(tmp_path, FORMULAS))
    assert e.result["scores"] == [7, 7]  # 2 * 3 + 1 + seat 0 (the first of the tied leaders)


@pytest.mark.parametrize("change, message", [
    ("double(x): 2 * x", "double(x): triple(x)\n  triple(x): double(x)"),
])
def test_formula_cycles_are_refused(tmp_path, change, message):
    with pytest.raises(ResolveError, match="formula cycle: double -> triple -> double"):
        make_game(tmp_path, FORMULAS.replace(change, message))


def test_formula_arity_is_checked(tmp_path):
    with pytest.raises(ResolveError, match=r"double\(\) takes 1 argument, got 2"):
        make_game(tmp_path, FORMULAS.replace("double(p.points)", "double(p.points, 1)"))


ARGS = """
game: args
players: 1
counters: {points: {per: player, initial: 0}, seen: {per: player, initial: 0}}
actions:
  score:
    takes: n
    requires: n > 0
    effect: gain n points
  go:
    effect: |
      do score with n = 2
      do score with n = 0
      if can(score with n = 5):
        do score with n = 5 2 times
triggers:
  count_it: {when: after score, if: n >= 5, effect: add 1 to seen}
flow:
  - turns: {first: 0, actions: [go], per_turn: 1, until: one_round}
scoring: {score: points}
"""


def test_actions_with_arguments_can_and_triggers_that_see_the_arguments(tmp_path):
    e = start(make_game(tmp_path, ARGS), players=1)
    play_labels(e, ["go"])
    assert e.result["scores"] == [12]
    assert e.state["players"][0]["seen"] == 2
    assert [ev["action"] for ev in e.events if ev["event"] == "cannot"] == ["score"]


def test_an_action_that_takes_arguments_cannot_be_offered_to_players(tmp_path):
    with pytest.raises(ResolveError, match="score takes arguments: only rules can do it"):
        make_game(tmp_path, ARGS.replace("actions: [go]", "actions: [go, score]"))


def test_do_must_give_every_argument(tmp_path):
    with pytest.raises(ResolveError, match="score needs n"):
        make_game(tmp_path, ARGS.replace("do score with n = 2", "do score"))


FAMILIES = """
game: families
players: [2, 2]
tables: {sizes: {a: 1, b: 2}, keys: [a, b]}
counters: {total: {per: player, initial: 0}}
zones:
  bin: {per: player, each: keys, capacity: "sizes[key]"}
  pool: {}
items: {token: {count: 4, zone: pool}}
setup: |
  move top(pool) to bin["a"]
  move top(pool) to bin["b"]
  move top(pool) to left(you).bin["b"]
flow: []
scoring: {score: count(bin)}
"""


def test_zone_families_have_a_member_per_key_with_their_own_capacity(tmp_path):
    e = start(make_game(tmp_path, FAMILIES))
    assert e.result["scores"] == [2, 1]
    assert e.state["zones"]["bin[a]@0"] == ["token#1"]
    assert e.state["zones"]["bin[b]@1"] == ["token#3"]


def test_a_full_family_member_and_unknown_keys_are_errors(tmp_path):
    with pytest.raises(RuleError, match=r"zone bin\[a\]@0 is full \(capacity 1\)"):
        start(make_game(tmp_path, FAMILIES.replace('left(you).bin["b"]', 'bin["a"]')))
    with pytest.raises(ResolveError, match="bin has no key 'c'"):
        make_game(tmp_path, FAMILIES.replace('to bin["a"]', 'to bin["c"]'))
    with pytest.raises(ResolveError, match="must be one zone of the family"):
        make_game(tmp_path, FAMILIES.replace('to bin["a"]', "to bin"))


@pytest.mark.parametrize("key", ["[1]", '{"x": 1}'])
def test_a_list_or_map_as_a_family_key_is_an_error_with_its_position(tmp_path, key):
    # found by the fuzzer: a map read from a mutated table as a key raised TypeError (unhashable)
    game = FAMILIES.replace("tables: {", f"tables: {{odd: {key}, ").replace(
        'to bin["a"]', "to bin[odd]")
    with pytest.raises(RuleError, match=r"bin has no key .* \(keys: a, b\)") as err:
        start(make_game(tmp_path, game))
    assert (err.value.pos.line, err.value.pos.col) == (11, 21)  # `bin[odd]`


POLICY = """
game: policy
players: 1
automa: {name: bot, seats: 1, decide: {bid: 'if 3 in options then 3 else "out"'}}
counters: {coins: {per: player, initial: 5}, won: {initial: -1}}
flow:
  - do: |
      auction among players_from(1) paying coins as winner, price
      if winner != none:
        set won to winner
scoring: {score: coins}
"""


def test_automa_policy_decides_bids_without_asking_an_agent(tmp_path):
    e = start(make_game(tmp_path, POLICY), players=1)
    assert e.decision.player == 0 and e.decision.labels == ["out", "4", "5"]  # the bot opened at 3
    play_labels(e, ["4"])  # the bot's policy answers "out": 3 is no longer an option
    assert e.decision is None and e.state["counters"]["won"] == 0


WINDOWS = """
game: windows
players: [2, 2]
counters: {coins: {per: player, initial: 0}}
actions:
  earn: {limit: {times: 1, per: market}, effect: gain 5 coins}
flow:
  - phase: market
    free_actions: [earn]
    steps:
      - do: |
          secretly each player chooses spend from 0 to 5 where spend <= coins
          for each p in players:
            p pays spend[p] coins
scoring: {score: coins}
"""


def test_phase_free_actions_are_offered_at_every_decision_of_the_phase(tmp_path):
    e = start(make_game(tmp_path, WINDOWS))
    assert e.decision.labels == ["0", "earn"]
    play_labels(e, ["earn"])
    assert e.decision.player == 0 and e.decision.labels == ["0", "1", "2", "3", "4", "5"]
    play_labels(e, ["4", "0"])
    assert e.result["scores"] == [1, 0]


def test_move_without_gravity_leaves_the_grid_as_it_is(tmp_path):
    text = GRID.replace("GRAVITY", "rows").replace("effect: move card to taken",
                                                    "effect: move card to taken without gravity")
    e = start(make_game(tmp_path, text), players=1)
    play_labels(e, ["take card#5"])  # e leaves row 3 empty, but nothing drops
    assert cells(e, "board") == {"a": (1, 1), "b": (1, 2), "c": (2, 1), "d": (2, 3)}


def _pig_copy(tmp_path):
    import shutil

    from meeplang.dsl.loader import games_dir
    folder = tmp_path / "pig"
    shutil.copytree(games_dir() / "pig", folder)
    return folder


def test_flow_patches_change_a_named_step_and_partial_overrides_merge(tmp_path):
    from meeplang.dsl.resolve import load_game
    folder = _pig_copy(tmp_path)
    game = (folder / "game.yaml").read_text().replace("  - phase: play\n",
                                                      "  - name: play\n    phase: play\n")
    (folder / "game.yaml").write_text(game)
    (folder / "variants" / "patched.yaml").write_text("""
variant: patched
extends: pig:short
flow_patches:
  play:
    before:
      - do: log "hello"
actions:
  stop:
    requires: turn_total >= 10 or points + turn_total >= target
""")
    g = load_game(str(folder), "patched")
    assert g.options["target"].default == 50  # inherited from pig:short
    assert g.actions["stop"].effect == load_game(str(folder)).actions["stop"].effect
    e = start(g, players=2)
    assert e.events[1] == {"event": "log", "text": "hello", "player": 0}
    assert e.decision.labels == ["roll"]  # stop now needs a turn total of 10


def test_flow_patches_at_one_level_each_find_their_own_step(tmp_path):
    """A `before:` of one patch shifts the steps after it; a later patch still patches its own
    step (it once patched the step the shift had moved into its place)."""
    from meeplang.dsl.resolve import load_game
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text("""
game: g
players: 1
flow:
  - name: first
    do: log "first"
  - name: second
    do: log "second"
scoring: {score: 0}
""")
    (folder / "variants").mkdir()
    (folder / "variants" / "v.yaml").write_text("""
variant: v
extends: g
flow_patches:
  first:
    before: [{do: 'log "before first"'}]
  second:
    after: [{do: 'log "after second"'}]
""")
    e = start(load_game(str(folder), "v"), players=1)
    assert [ev["text"] for ev in e.events if ev.get("event") == "log"] == [
        "before first", "first", "second", "after second"]


def test_flow_patches_name_an_unknown_step(tmp_path):
    from meeplang.dsl.errors import LoadError
    from meeplang.dsl.resolve import load_game
    folder = _pig_copy(tmp_path)
    (folder / "variants" / "bad.yaml").write_text("variant: bad\nextends: pig\n"
                                                  "flow_patches:\n  nowhere: {}\n")
    with pytest.raises(LoadError, match="no flow step named 'nowhere'"):
        load_game(str(folder), "bad")


def test_a_variant_removes_a_rule_with_null(tmp_path):
    from meeplang.dsl.resolve import load_game
    folder = _pig_copy(tmp_path)
    (folder / "variants" / "no_horizon.yaml").write_text(
        "variant: no_horizon\nextends: pig\ntriggers:\n  count_moves: null\n")
    assert [t.name for t in load_game(str(folder)).triggers] == ["count_moves"]
    assert load_game(str(folder), "no_horizon").triggers == ()


def test_a_variant_removing_what_the_game_lacks_is_an_error(tmp_path):
    """A misspelt removal would otherwise change nothing, silently (found by the fuzzer's
    neighbour: an empty action name in the game made the engine fail with a KeyError)."""
    from meeplang.dsl.errors import LoadError
    from meeplang.dsl.resolve import load_game
    folder = _pig_copy(tmp_path)
    (folder / "variants" / "typo.yaml").write_text(
        "variant: typo\nextends: pig\ntriggers:\n  count_move: null\n")
    with pytest.raises(LoadError) as info:
        load_game(str(folder), "typo")
    assert str(info.value).endswith("variants/typo.yaml:4:3: error: `count_move: null` removes "
                                    "nothing: the game has no triggers.count_move; did you mean "
                                    "'count_moves'?")


GRAPH = """
game: sea
players: 1
tables:
  spaces: [port, a, b, c, d, site4, reef]
  lanes: [[port, a], [a, b], [b, c], [port, site4], [site4, c], [c, d], [d, reef]]
graphs:
  sea: {nodes: spaces, edges: lanes}
counters:
  direct: {initial: -1}
  around: {initial: -1}
  nearby: {initial: 0}
  cut_off: {initial: 0}
setup: |
  set direct to steps_between(sea, "port", "d")
  set around to steps_between(sea, "port", "d", ["site4"])
  set nearby to count(within(sea, "port", 2))
  set cut_off to if steps_between(sea, "port", "reef", ["d"]) == none then 1 else 0
flow: []
scoring: {score: direct}
"""


def test_graphs_shortest_steps_with_forbidden_nodes_and_reach_within_n(tmp_path):
    e = start(make_game(tmp_path, GRAPH), players=1)
    counters = e.state["counters"]
    assert counters["direct"] == 3  # port - site4 - c - d
    assert counters["around"] == 4  # avoiding site4: port - a - b - c - d
    assert counters["nearby"] == 4  # a, site4 (1 step), b, c (2 steps)
    assert counters["cut_off"] == 1  # the reef is reached only through d


def test_graph_edges_must_join_declared_nodes(tmp_path):
    with pytest.raises(ResolveError, match="edge .'reef', 'atlantis'. must join two of its nodes"):
        make_game(tmp_path, GRAPH.replace("[d, reef]]", "[d, reef], [reef, atlantis]]"))


@pytest.mark.parametrize("lanes, message", [
    ("[d, reef], [[reef], d]]", r"edge \[\['reef'\], 'd'\] must join two of its nodes"),
    ("[d, reef], [d, {x: 1}]]", r"edge \['d', \{'x': 1\}\] must join two of its nodes"),
])
def test_graph_edges_of_lists_or_maps_are_errors_not_crashes(tmp_path, lanes, message):
    # found by the fuzzer: an unhashable end used to raise TypeError
    with pytest.raises(ResolveError, match=message):
        make_game(tmp_path, GRAPH.replace("[d, reef]]", lanes))


def test_graph_nodes_must_be_names_or_numbers(tmp_path):
    with pytest.raises(ResolveError, match=r"node \['x'\] must be a name or a number"):
        make_game(tmp_path, GRAPH.replace("spaces: [port,", "spaces: [[x], port,"))


CAPACITY = """
game: cap
players: 1
tables:
  sizes: {a: 2, b: null}
zones:
  src: {}
  bins: {each: [a, b], capacity: "sizes[key]"}
  board: {grid: {rows: 1, columns: 2}}
items:
  token: {count: 7, zone: src}
counters:
  board_cap: {initial: -1}
  b_unlimited: {initial: -1}
actions:
  drop:
    choose: bin in ["a", "b"] where not full(bins[bin])
    effect: move top(src) to bins[bin]
  stop:
    effect: end game
flow:
  - do: |
      move top(src) to board
      move top(src) to board
      set board_cap to capacity(board)
      set b_unlimited to if capacity(bins["b"]) == none then 1 else 0
  - turns: {first: 0, actions: [drop, stop], until: never}
scoring: {score: 'count(bins["a"])'}
"""


def test_capacity_and_full_make_a_full_zone_an_illegal_choice(tmp_path):
    """`full(zone)` and `capacity(zone)`: a full zone is filtered out of the choices instead of
    stopping the game; `capacity: none` is no limit; a grid holds one item per cell."""
    e = start(make_game(tmp_path, CAPACITY), players=1)
    assert (e.state["counters"]["board_cap"], e.state["counters"]["b_unlimited"]) == (2, 1)
    assert e.decision.labels == ["drop a", "drop b", "stop"]
    play_labels(e, ["drop a", "drop a"])
    assert e.decision.labels == ["drop b", "stop"]  # bin a holds its 2
    play_labels(e, ["drop b", "drop b"])
    assert e.decision.labels == ["drop b", "stop"]  # bin b has no limit
    assert len(e.state["zones"]["bins[b]"]) == 2
    play_labels(e, ["drop b"])
    assert e.decision.labels == ["stop"]  # nothing left to drop: `top(src)` would be none


def test_a_table_row_is_read_with_a_dot_and_a_field_holds_text(tmp_path):
    game = make_game(tmp_path, """
        game: rows
        players: 1
        tables:
          accounts: {hr: {coins: 2, rp: 1}, rd: {coins: 5, rp: 0}}
        counters:
          coins: {per: player, initial: 0}
          total: {initial: 0}
        zones:
          tiles: {}
        items:
          tile: {count: 1, zone: tiles, fields: {side: '"basic"'}}
        setup: |
          for each a in ["hr", "rd"]:
            add accounts[a].coins to total
          gain accounts["rd"].coins coins
          for each t in tiles:
            set t.side to "advanced"
        flow: []
        scoring: {score: total}
        """)
    e = start(game, players=1)
    assert e.state["counters"]["total"] == 7
    assert e.state["players"][0]["coins"] == 5  # `coins` is also a player counter: no confusion
    assert [e.state["items"][t]["side"] for t in e.state["zones"]["tiles"]] == ["advanced"]


def test_a_field_cannot_hold_a_zone(tmp_path):
    with pytest.raises(ResolveError, match="an item's field holds plain data"):
        make_game(tmp_path, """
            game: z
            players: 1
            zones: {tiles: {}, other: {}}
            items:
              tile: {count: 1, zone: tiles, fields: {where: 0}}
            setup: |
              for each t in tiles:
                set t.where to other
            flow: []
            scoring: {score: 0}
            """)


def test_an_action_chooses_from_subsets(tmp_path):
    """`choose: kept from subsets of hand where ...` on an action, as in a statement."""
    game = make_game(tmp_path, """
        game: keep
        players: 1
        zones: {hand: {}, kept: {}}
        items:
          card: {count: 3, zone: hand, fields: {value: n}}
        counters:
          total: {initial: 0}
        actions:
          keep:
            choose: picked from subsets of hand where count(picked) == 2
            effect: |
              for each c in picked:
                add c.value to total
                move c to kept
              end game
        flow:
          - turns: {first: 0, actions: [keep], until: never}
        scoring: {score: total}
        """)
    e = start(game, players=1)
    assert e.decision.labels == ["keep [card#1, card#2]", "keep [card#1, card#3]",
                                 "keep [card#2, card#3]"]
    play_labels(e, ["keep [card#2, card#3]"])
    assert e.result is not None and e.state["counters"]["total"] == 2 + 3
    assert e.state["zones"]["kept"] == ["card#2", "card#3"]


QUEUE = """
game: queue
players: 1
tables:
  names: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}]
zones:
  queue: {}
  bench: {}
  board: {grid: {rows: 1, columns: 3}}
items:
  diver: {from: names, zone: queue}
  spare: {count: 1, zone: bench, fields: {name: '"x"'}}
setup: |
  STEPS
flow: []
scoring: {score: 0}
"""


def _queue(tmp_path, steps: str):
    e = start(make_game(tmp_path, QUEUE.replace("STEPS", steps.replace("\n", "\n  "))), 1)
    return [e.state["items"][x]["name"] for x in e.state["zones"]["queue"]]


def test_move_at_position_inserts_and_shifts_the_rest(tmp_path):
    """`move x to zone at position N`: x ends up Nth (1 = top) and the items from there on move
    one place further, in the same zone or from another."""
    assert _queue(tmp_path, 'move [d for d in queue if d.name == "c"][0] to queue at position 1'
                  ) == list("cabde")
    assert _queue(tmp_path, "move top(queue) to queue at position 5") == list("bcdea")
    assert _queue(tmp_path, "move top(bench) to queue at position 2") == list("axbcde")
    assert _queue(tmp_path, "move top(bench) to queue at position 6") == list("abcdex")


def test_move_at_a_position_outside_the_zone_or_into_a_grid_is_an_error(tmp_path, stop_message):
    for i, (steps, message) in enumerate([
        ("move top(bench) to queue at position 7",
         "position 7 is outside queue, which will hold 6 items (positions 1 to 6)"),
        ("move top(queue) to queue at position 0",
         "position 0 is outside queue, which will hold 5 items (positions 1 to 5)"),
        ("move top(bench) to board at position 1",
         "board is a grid: its items are on cells (`place ... at R, C`), not at positions"),
    ]):
        folder = tmp_path / str(i)
        folder.mkdir()
        game = make_game(folder, QUEUE.replace("STEPS", steps))
        assert stop_message(game, 1).endswith(message)
    with pytest.raises(RuleSyntaxError) as info:
        make_game(tmp_path, QUEUE.replace("STEPS", "deal 1 from bench to queue at position 2"))
    assert str(info.value).endswith(
        "g/game.yaml:14:30: error: deal puts items at the top or the bottom; to put one item at a "
        "position, `move` it `at position N`")
