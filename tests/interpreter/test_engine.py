"""Engine constructs, each on a tiny game written to tmp_path."""
from __future__ import annotations

import json

import pytest

from meeplang.dsl.errors import RuleError, SchemaError, UsageError
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import play_game


def logs(engine):
    """The texts of `log` statements, in order, with the player they were about."""
    return [(e["text"], e["player"]) for e in engine.events if e["event"] == "log"]


# ---------------------------------------------------------------- counters
def test_counter_clamp_keeps_value_within_bounds(load):
    game = load("""
        game: g
        players: 2
        counters:
          c: {initial: 2, min: 0, max: 5, overflow: clamp}
          trace: {initial: 0}
        setup: |
          add 10 to c
          set trace to c
          subtract 20 from c
          set trace to trace * 10 + c
          set c to 7
          set trace to trace * 10 + c
          set c to 3
          set trace to trace * 10 + c
        scoring:
          score: trace
        """)
    e = play_game(game, 2, 0)
    assert e.state["counters"]["c"] == 3
    assert e.result["scores"] == [5053, 5053]


def test_counter_error_bounds_stop_with_positioned_errors(load, stop_message):
    text = """
        game: g
        players: 2
        counters:
          c: {initial: 0, min: 0, max: 3}
        setup: |
          add 1 to c
          {bad}
        scoring:
          score: c
        """
    game = load(text.replace("{bad}", "add 3 to c"))
    assert stop_message(game, 2) == "g/game.yaml:7:3: error: c would become 4, above its maximum 3"
    game = load(text.replace("{bad}", "subtract 2 from c"))
    assert stop_message(game, 2) == "g/game.yaml:7:3: error: c would become -1, below its minimum 0"


def test_player_counters_gain_lose_pay(load):
    game = load("""
        game: g
        players: 3
        counters:
          coins: {per: player, initial: 2 + you, min: 1, max: 6, overflow: clamp}
        setup: |
          gain 10 coins
          left(you) loses 10 coins
          right(you) pays 1 coins
          for each p in others:
            p gains 1 coins
        scoring:
          score: coins
        """)
    e = play_game(game, 3, 0)
    # initial 2, 3, 4; setup runs as seat 0: seat 0 gains 10 -> 6 (clamped);
    # seat 1 loses 10 -> 1 (its minimum); seat 2 pays 1 -> 3; seats 1, 2 gain 1 -> 2, 4
    assert [p["coins"] for p in e.state["players"]] == [6, 2, 4]
    assert e.result["scores"] == [6, 2, 4]
    assert e.result["winners"] == [0]


def test_pay_refuses_to_go_below_the_minimum(load, stop_message):
    game = load("""
        game: g
        players: 2
        counters:
          coins: {per: player, initial: 1}
        setup: |
          pay 2 coins
        scoring:
          score: coins
        """)
    assert stop_message(game, 2) == "g/game.yaml:6:3: error: player 0 cannot pay 2 coins: has 1"


def test_gain_of_a_negative_amount_is_an_error(load, stop_message):
    game = load("""
        game: g
        players: 2
        counters:
          coins: {per: player, initial: 1}
        setup: |
          gain 0 - 2 coins
        scoring:
          score: coins
        """)
    assert stop_message(game, 2) == (
        "g/game.yaml:6:3: error: cannot gain a negative amount (-2 coins)")


# ---------------------------------------------------------------- zones, items, visibility
ZONES = """
game: g
players: 2
counters:
  x: {initial: 0}
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
  hand: {per: player, visibility: owner}
  shown: {per: player, visibility: public}
items:
  card: {count: 6, zone: deck, fields: {value: n * 10, odd: n % 2}}
  token: {per: player, count: 2, zone: shown, fields: {value: 100 + n}}
setup: |
  deal 2 from deck to hand
  deal 2 from deck to right(you).hand
  move top(deck) to table
  set x to sum(c.value for c in hand)
scoring:
  score: x + count(shown)
"""


def test_items_are_made_with_fields_ids_and_owners(load):
    e = Engine(load(ZONES), 2, seed=0)
    e.start()
    s = e.state
    assert s["zones"]["shown@0"] == ["token#0.1", "token#0.2"]
    assert s["zones"]["shown@1"] == ["token#1.1", "token#1.2"]
    assert s["items"]["card#3"] == {"kind": "card", "owner": None, "value": 30, "odd": 1}
    assert s["items"]["token#1.2"] == {"kind": "token", "owner": 1, "value": 102}
    # every item is in exactly one zone, and loc says which
    placed = [i for z in s["zones"].values() for i in z]
    assert sorted(placed) == sorted(s["items"])
    assert all(i in s["zones"][s["loc"][i]] for i in placed)


def test_deal_and_move_take_from_the_top(load):
    e = play_game(load(ZONES), 2, seed=0)
    z = e.state["zones"]
    assert z["hand@0"] == ["card#1", "card#2"]
    assert z["hand@1"] == ["card#3", "card#4"]
    assert z["table"] == ["card#5"]
    assert z["deck"] == ["card#6"]
    assert e.state["counters"]["x"] == 30


def test_view_hides_hidden_zones_and_other_players_owner_zones(load):
    e = play_game(load(ZONES), 2, seed=0)
    v0 = e.view(0)
    assert v0["zones"]["deck"] == ["?"]
    assert v0["zones"]["hand@0"] == ["card#1", "card#2"]
    assert v0["zones"]["hand@1"] == ["?", "?"]
    assert v0["zones"]["table"] == ["card#5"]
    assert v0["zones"]["shown@1"] == ["token#1.1", "token#1.2"]
    for secret in ("card#3", "card#4", "card#6"):
        assert secret not in v0["items"] and secret not in v0["loc"]
        assert secret not in json.dumps(v0)
    assert v0["items"]["card#1"]["value"] == 10
    v1 = e.view(1)
    assert v1["zones"]["hand@1"] == ["card#3", "card#4"]
    assert v1["zones"]["hand@0"] == ["?", "?"]
    assert "card#1" not in json.dumps(v1)
    # the omniscient view is the whole state, and views are copies
    assert e.view(None) == e.state
    v0["zones"]["table"].clear()
    assert e.state["zones"]["table"] == ["card#5"]


def test_move_and_deal_at_top_or_bottom(load):
    game = load("""
        game: g
        players: 2
        zones:
          deck: {}
          pile: {}
        items:
          card: {count: 5, zone: deck, fields: {value: n}}
        setup: |
          deal 2 from deck to pile
          deal 2 from deck to pile at top
          move bottom(pile) to pile at top
          move top(deck) to pile at bottom
        scoring:
          score: position(top(pile)) + 10 * position(bottom(pile))
        """)
    e = play_game(game, 2, 0)
    # pile: [1, 2]; dealt one at a time on top: [4, 3, 1, 2]; bottom to top: [2, 4, 3, 1];
    # last deck card to the bottom: [2, 4, 3, 1, 5]
    assert e.state["zones"]["pile"] == ["card#2", "card#4", "card#3", "card#1", "card#5"]
    assert e.state["zones"]["deck"] == []
    assert e.result["scores"] == [51, 51]


def test_capacity_is_enforced(load, stop_message):
    game = load("""
        game: g
        players: 2
        zones:
          deck: {}
          hand: {per: player, capacity: 2}
        items:
          card: {count: 5, zone: deck}
        setup: deal 3 from deck to hand
        scoring:
          score: count(hand)
        """)
    assert stop_message(game, 2) == "g/game.yaml:8:8: error: zone hand@0 is full (capacity 2)"


def test_dealing_more_than_a_zone_holds_is_an_error(load, stop_message):
    game = load("""
        game: g
        players: 2
        zones:
          deck: {}
          hand: {per: player}
        items:
          card: {count: 2, zone: deck}
        setup: deal 3 from deck to hand
        scoring:
          score: count(hand)
        """)
    assert stop_message(game, 2) == "g/game.yaml:8:8: error: cannot deal 3 from deck: it holds 2"


SHUFFLE = """
game: g
players: 2
zones:
  deck: {visibility: hidden}
items:
  card: {count: 20, zone: deck, fields: {value: n}}
setup: shuffle deck
scoring:
  score: top(deck).value
"""


def test_shuffle_is_a_permutation_and_determined_by_the_seed(load):
    game = load(SHUFFLE)
    orders = {seed: play_game(game, 2, seed).state["zones"]["deck"] for seed in (1, 1, 2, 3)}
    again = play_game(game, 2, 1).state["zones"]["deck"]
    assert again == orders[1]
    assert sorted(orders[1]) == sorted(f"card#{i}" for i in range(1, 21))
    # 20! orders: three seeds giving the same one would mean the seed is ignored
    assert len({tuple(o) for o in orders.values()}) == 3
    assert orders[1] != [f"card#{i}" for i in range(1, 21)]
    shuffles = [ev for ev in play_game(game, 2, 1).events if ev["event"] == "shuffle"]
    assert shuffles == [{"event": "shuffle", "zone": "deck", "at": "g/game.yaml:7:8"}]


# ---------------------------------------------------------------- choices
CHOOSE = """
game: g
players: 2
counters:
  x: {initial: 0}
zones:
  deck: {}
items:
  card: {count: 6, zone: deck, fields: {value: n}}
setup: |
  choose c in deck where c.value % 2 == 0
  choose n from 1 to 6 where n != 3 and n <= x + 5
  set x to c.value * 10 + n
scoring:
  score: x
"""


def test_choose_with_where_and_choose_range(load):
    e = Engine(load(CHOOSE), 2, seed=0)
    d = e.start()
    assert d.player == 0 and d.kind == "choose c"
    assert d.labels == ["card#2", "card#4", "card#6"]
    assert d.why == "g/game.yaml:10:3"
    d = e.choose(1)
    assert d.kind == "choose n"
    assert d.options == [1, 2, 4, 5]
    assert e.choose(3) is None
    assert e.result["scores"] == [45, 45]


def test_illegal_choice_index_is_refused_with_the_legal_options(load):
    e = Engine(load(CHOOSE), 2, seed=0)
    e.start()
    with pytest.raises(UsageError) as info:
        e.choose(3)
    assert info.value.message == ("option 3 is not legal here: choose 0 to 2 (card#2, card#4, "
                                  "card#6)")
    with pytest.raises(UsageError):
        e.choose(-1)
    with pytest.raises(UsageError):
        e.choose("0")
    assert e.choices == []  # nothing was recorded
    e.choose(0)
    assert e.choices == [0]


def test_choose_with_nothing_legal_is_an_error(load, stop_message):
    game = load(CHOOSE.replace("c.value % 2 == 0", "c.value > 6"))
    assert stop_message(game, 2) == (
        "g/game.yaml:10:3: error: nothing to choose for `c`: no option is "
        "legal")


def test_choosing_after_the_end_is_refused(load):
    e = play_game(load(CHOOSE), 2, 0, "first")
    with pytest.raises(UsageError) as info:
        e.choose(0)
    assert info.value.message == "the game is over: there is nothing to choose"


SECRET = """
game: g
players: 3
counters:
  points: {per: player, initial: 0}
zones:
  hand: {per: player, visibility: owner}
  played: {per: player, visibility: public}
items:
  bid: {per: player, count: 4, zone: hand, fields: {value: n}}
flow:
  - do: |
      secretly each player chooses card in hand where card.value != 2
      for each p in players:
        move card[p] to p.played
        p gains card[p].value points
scoring:
  score: points
"""


def test_secret_choice_asks_every_player_and_indexes_by_seat(load):
    e = Engine(load(SECRET), 3, seed=0)
    d = e.start()
    asked = []
    picks = {0: "bid#0.4", 1: "bid#1.1", 2: "bid#2.3"}
    while d is not None:
        asked.append(d.player)
        assert d.secret and d.kind == "secret card"
        assert d.labels == [f"bid#{d.player}.{i}" for i in (1, 3, 4)]
        d = e.choose(d.labels.index(picks[d.player]))
    assert asked == [0, 1, 2]
    assert e.result["scores"] == [4, 1, 3]
    assert e.state["zones"]["played@1"] == ["bid#1.1"]
    reveal = [ev for ev in e.events if ev["event"] == "reveal"]
    assert reveal == [{"event": "reveal", "name": "card", "values": ["bid#0.4", "bid#1.1",
                                                                     "bid#2.3"],
                       "at": "g/game.yaml:12"}]


def test_a_players_view_does_not_contain_others_pending_picks(load):
    e = Engine(load(SECRET), 3, seed=0)
    d = e.start()
    d = e.choose(2)  # player 0 picks bid#0.4, still secret
    assert d.player == 1
    for seat in (1, 2):
        text = json.dumps(e.view(seat))
        assert "bid#0." not in text
    assert "bid#0.4" in json.dumps(e.view(0))
    assert e.view(1)["zones"]["played@0"] == []


def test_free_actions_any_time_at_turn_and_nested_choices(load):
    """`free_actions_at: any_time` (New Eden FR l.168 « à tout moment de ton tour »): offered
    at the turn's choice and inside its action's own choices."""
    game = load("""
        game: g
        players: 2
        counters:
          x: {per: player, initial: 0}
          bonus: {per: player, initial: 0}
        actions:
          main:
            effect: |
              choose n from 1 to 3
              add n to x
              end turn
          extra:
            requires: bonus == 0
            effect: add 100 to bonus
        flow:
          - turns:
              actions: [main]
              free_actions: [extra]
              free_actions_at: any_time
              until: one_round
        scoring:
          score: x + bonus
        """)
    e = Engine(game, 2, seed=0)
    d = e.start()
    assert (d.player, d.kind, d.labels) == (0, "action", ["main", "extra"])
    d = e.choose(0)
    assert (d.player, d.kind, d.labels) == (0, "choose n", ["1", "2", "3", "extra"])
    d = e.choose(3)  # the free action, in the middle of the choice
    assert (d.player, d.kind, d.labels) == (0, "choose n", ["1", "2", "3"])
    d = e.choose(1)
    assert (d.player, d.kind, d.labels) == (1, "action", ["main", "extra"])
    d = e.choose(0)
    assert d.labels == ["1", "2", "3", "extra"]
    assert e.choose(2) is None
    assert e.result["scores"] == [102, 3]


def test_free_actions_are_not_offered_to_other_players(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {per: player, initial: 0}
        actions:
          main:
            effect: do bet for left(you)
          bet:
            choose: n from 1 to 2
            effect: add n to x
          extra:
            effect: add 10 to x
        flow:
          - turns:
              actions: [main]
              free_actions: [extra]
              per_turn: 1
              until: one_round
        scoring:
          score: x
        """)
    e = Engine(game, 2, seed=0)
    d = e.start()
    assert d.labels == ["main", "extra"]
    d = e.choose(0)
    assert (d.player, d.kind, d.labels) == (1, "do bet", ["bet 1", "bet 2"])
    d = e.choose(1)
    assert (d.player, d.labels) == (1, ["main", "extra"])
    assert e.state["players"][1]["x"] == 2


# ---------------------------------------------------------------- do ACTION
DO = """
game: g
players: 3
counters:
  x: {per: player, initial: 0}
actions:
  bump:
    effect: add 1 to x
  bet:
    choose: n from 1 to 3
    effect: add 10 * n to x
  never:
    requires: x > 1000
    effect: add 1000 to x
setup: |
  do bump
  do bump for left(you) 3 times
  do bet for right(you)
  do never
scoring:
  score: x
"""


def test_do_action_with_and_without_param(load):
    e = Engine(load(DO), 3, seed=0)
    d = e.start()
    # bump runs without asking; bet asks its player (seat 2) for the param
    assert (d.player, d.kind, d.labels) == (2, "do bet", ["bet 1", "bet 2", "bet 3"])
    assert e.choose(1) is None
    assert [p["x"] for p in e.state["players"]] == [1, 3, 20]
    cannot = [ev for ev in e.events if ev["event"] == "cannot"]
    assert cannot == [{"event": "cannot", "action": "never", "player": 0, "at": "g/game.yaml:18"}]


def test_negative_do_count_is_an_error(load, stop_message):
    game = load(DO.replace("do bump for left(you) 3 times", "do bump -1 times"))
    assert stop_message(game, 3) == (
        "g/game.yaml:16:3: error: cannot do an action a negative number of "
        "times (-1)")


# ---------------------------------------------------------------- turns
TURNS = """
game: g
players: 3
counters:
  x: {initial: 0}
  acts: {per: player, initial: 0}
actions:
  act:
    effect: |
      add 1 to x
      add 1 to acts
  stop:
    effect: pass
flow:
  - turns:
      first: 1
      order: {order}
      actions: [act{more}]
      {extra}
scoring:
  score: acts
"""


def turns_game(load, order="clockwise", more="", extra=""):
    return load(TURNS.replace("{order}", order).replace("{more}", more).replace("{extra}", extra))


def seats_asked(engine, pick=lambda d: 0, limit=1000):
    d = engine.start()
    seen = []
    while d is not None and len(seen) < limit:
        seen.append(d.player)
        d = engine.choose(pick(d))
    return seen


def test_turns_one_round_clockwise_with_per_turn(load):
    e = Engine(turns_game(load, extra="per_turn: 2\n      until: one_round"), 3, seed=0)
    assert seats_asked(e) == [1, 1, 2, 2, 0, 0]
    assert e.result["scores"] == [2, 2, 2]


def test_turns_counterclockwise(load):
    e = Engine(turns_game(load, "counterclockwise", extra="per_turn: 1\n      until: one_round"),
               3, seed=0)
    assert seats_asked(e) == [1, 0, 2]


def test_turns_until_a_condition_checked_after_each_turn(load):
    e = Engine(turns_game(load, extra="per_turn: 1\n      until: x >= 4"), 3, seed=0)
    assert seats_asked(e) == [1, 2, 0, 1]
    assert e.state["counters"]["x"] == 4


def test_turns_until_all_passed(load):
    game = turns_game(load, more=", stop", extra="per_turn: 1\n      until: all_passed")
    e = Engine(game, 3, seed=0)
    # seat 1 acts twice then passes; seat 2 passes at once; seat 0 acts until the others are out
    script = {1: ["act", "act", "stop"], 2: ["stop"], 0: ["act", "act", "act", "stop"]}
    seen = seats_asked(e, lambda d: d.labels.index(script[d.player].pop(0)))
    assert seen == [1, 2, 0, 1, 0, 1, 0, 0]
    assert e.result["scores"] == [3, 2, 0]
    assert all(not s for s in script.values())


def test_turn_without_per_turn_lasts_until_end_turn(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {per: player, initial: 0}
        actions:
          more: {requires: x < 3, effect: add 1 to x}
          done: {effect: end turn}
        flow:
          - turns:
              actions: [more, done]
              until: one_round
        scoring:
          score: x
        """)
    e = Engine(game, 2, seed=0)
    seen = seats_asked(e)  # always the first legal option: `more` while allowed, then `done`
    assert seen == [0, 0, 0, 0, 1, 1, 1, 1]
    assert e.result["scores"] == [3, 3]


def test_a_turn_with_no_legal_action_ends(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {per: player, initial: 0}
        actions:
          more: {requires: x < you, effect: add 1 to x}
        flow:
          - turns:
              actions: [more]
              until: one_round
        scoring:
          score: x
        """)
    e = Engine(game, 2, seed=0)
    assert seats_asked(e) == [1]
    assert {"event": "no legal action", "player": 0} in e.events


def test_bad_first_seat_is_an_error(load, stop_message):
    game = load(TURNS.replace("first: 1", "first: 5").replace("{order}", "clockwise")
                .replace("{more}", "").replace("{extra}", "until: one_round"))
    assert stop_message(game, 3) == (
        "g/game.yaml:14:5: error: the first player must be a seat from 0 "
        "to 2, got 5")


# ---------------------------------------------------------------- triggers
def test_trigger_order_around_actions_turns_and_phases(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        actions:
          act:
            effect: log "act"
        triggers:
          t1: {when: start of main, effect: log "start main"}
          t2: {when: end of main, effect: log "end main"}
          t3: {when: before turn, effect: log "before turn"}
          t4: {when: after turn, effect: log "after turn"}
          t5: {when: before act, effect: log "before act"}
          t6: {when: after act, effect: log "after act"}
          t7: {when: after any action, effect: add 1 to x}
          t8: {when: after any action, if: x == 2, effect: log "second action"}
        flow:
          - phase: main
            steps:
              - turns:
                  actions: [act]
                  per_turn: 1
                  until: one_round
          - do: log "after the phase"
        scoring:
          score: x
        """)
    e = play_game(game, 2, 0, "first")
    per_turn = ["before turn", "before act", "act", "after act"]
    assert [t for t, _ in logs(e)] == (
        ["start main"] + per_turn + ["after turn"] + per_turn + ["second action", "after turn",
                                                                 "end main", "after the phase"])
    assert [p for t, p in logs(e) if t == "act"] == [0, 1]
    assert [p for t, p in logs(e) if t == "after turn"] == [0, 1]
    triggers = [ev["trigger"] for ev in e.events if ev["event"] == "trigger"]
    assert triggers.count("t7") == 2 and triggers.count("t8") == 1
    assert e.result["scores"] == [2, 2]


def test_triggers_that_set_each_other_off_hit_the_depth_limit(load, stop_message):
    game = load("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        actions:
          ping: {effect: add 1 to x}
          pong: {effect: add 1 to x}
        triggers:
          after_ping:
            when: after ping
            effect: do pong
          after_pong:
            when: after pong
            effect: do ping
        flow:
          - turns:
              actions: [ping]
              until: one_round
        scoring:
          score: x
        """)
    assert stop_message(game, 2, "first") == (
        "g/game.yaml:9:3: error: trigger 'after_ping' nested more than 32 "
        "deep: do triggers set each other off?")
    e = Engine(game, 2, seed=0, trigger_depth=4)
    with pytest.raises(RuleError) as info:
        play_through_engine(e)
    assert "nested more than 4 deep" in info.value.message


def play_through_engine(e):
    d = e.start()
    while d is not None:
        d = e.choose(0)
    return e


# ---------------------------------------------------------------- end game and scoring
def test_end_game_skips_the_rest_of_the_flow(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        actions:
          finish: {effect: end game}
          go: {effect: add 1 to x}
        flow:
          - turns:
              actions: [go, finish]
              per_turn: 1
              until: never
        scoring:
          score: x
        """)
    e = Engine(game, 2, seed=0)
    d = e.start()
    d = e.choose(d.labels.index("go"))
    d = e.choose(d.labels.index("go"))
    assert e.choose(d.labels.index("finish")) is None
    assert e.result["scores"] == [2, 2]
    assert [ev for ev in e.events if ev["event"] == "end game"] == [
        {"event": "end game", "at": "g/game.yaml:6"}]


SCORING = """
game: g
players: 3
counters:
  vp: {per: player, initial: "[5, 7, 7][you]"}
  coins: {per: player, initial: "[9, 1, 2][you]"}
  cards: {per: player, initial: "[0, 3, 3][you]"}
scoring:
  score: vp
  tie_break: [coins, cards]
"""


def test_scoring_with_tie_breaks(load):
    e = play_game(load(SCORING), 3, 0)
    assert e.result["scores"] == [5, 7, 7]
    assert e.result["tie_breaks"] == [[9, 0], [1, 3], [2, 3]]
    assert e.result["winners"] == [2]
    e = play_game(load(SCORING.replace('"[9, 1, 2][you]"', '"[9, 2, 2][you]"')), 3, 0)
    assert e.result["winners"] == [1, 2]


def test_winners_expression_overrides_best_score(load):
    e = play_game(load(SCORING + "  winners: \"[p for p in players if p.coins > 1]\"\n"), 3, 0)
    assert e.result["winners"] == [0, 2]
    e = play_game(load(SCORING + "  winners: \"[]\"\n"), 3, 0)
    assert e.result["winners"] == []


# ---------------------------------------------------------------- options and usage
OPTIONS = """
game: g
players: {min: 2, max: 4}
options:
  target: {default: 10, min: 1, max: 50}
  fast: false
counters:
  x: {initial: 0}
setup: |
  set x to target
  if fast: add 1000 to x
scoring:
  score: x
"""


def test_options_default_and_override(load):
    game = load(OPTIONS)
    assert play_game(game, 2, 0).result["scores"] == [10, 10]
    assert play_game(game, 2, 0, options={"target": 42}).result["scores"] == [42, 42]
    assert play_game(game, 2, 0, options={"target": "7", "fast": "yes"}).result["scores"] == [
        1007, 1007]
    assert Engine(game, 3, options={"target": 50}).opts == {"target": 50, "fast": False}


@pytest.mark.parametrize("given,message", [
    ({"target": 0}, "option target=0 is out of bounds (1..50)"),
    ({"target": 51}, "option target=51 is out of bounds (1..50)"),
    ({"target": "many"}, "option target takes a whole number, not 'many'"),
    ({"speed": 1}, "game 'g' has no option 'speed' (options: fast, target)"),
])
def test_bad_options_are_usage_errors(load, given, message):
    with pytest.raises(UsageError) as info:
        Engine(load(OPTIONS), 2, options=given)
    assert info.value.message == message


@pytest.mark.parametrize("players", [1, 5, "2", None])
def test_bad_player_count_is_a_usage_error(load, players):
    with pytest.raises(UsageError) as info:
        Engine(load(OPTIONS), players)
    assert info.value.message == f"g is for 2-4 players, not {players}"


def test_choose_label_refuses_an_action_whose_requires_is_false(load):
    game = load("""
        game: g
        players: 2
        counters:
          gold: {per: player, initial: 2}
        actions:
          buy:
            requires: gold >= 5
            effect: pay 5 gold
          wait:
            effect: gain 1 gold
        flow:
          - turns:
              actions: [buy, wait]
              per_turn: 1
              until: one_round
        scoring:
          score: gold
        """)
    e = Engine(game, 2, seed=0)
    d = e.start()
    assert d.labels == ["wait"]
    with pytest.raises(UsageError) as info:
        e.choose_label("buy")
    assert info.value.message == ("buy is not allowed now: it requires gold >= 5 "
                                  "(g/game.yaml:7:20), which is false; legal: wait")
    with pytest.raises(UsageError) as info:
        e.choose_label("dance")
    assert info.value.message == "'dance' is not one of the options; legal: wait"
    d = e.choose_label("wait")
    assert d.player == 1


def test_requires_with_and_without_the_chosen_value(load):
    """`requires` that does not read the choice holds for the action as a whole (asked once);
    one that reads it filters the values. Both decide the options a player sees, and `can`."""
    game = load("""
        game: g
        players: 1
        counters:
          gold: {per: player, initial: 5}
          able: {initial: -1}
        tables:
          prices: [2, 5, 7]
        actions:
          build:
            choose: price in prices
            requires: gold >= 6
            effect: pay price gold
          buy:
            choose: price in prices
            requires: gold >= price
            effect: pay price gold
          work:
            effect: |
              gain 1 gold
              set able to if can(build) then 1 else 0
        flow:
          - turns:
              actions: [build, buy, work]
              per_turn: 1
              until: never
        scoring:
          score: gold
        """)
    e = Engine(game, 1, seed=0)
    d = e.start()
    assert d.labels == ["buy 2", "buy 5", "work"]  # 5 gold: no build at all
    d = e.choose_label("work")
    assert e.state["counters"]["able"] == 1
    assert d.labels == ["build 2", "build 5", "build 7", "buy 2", "buy 5", "work"]
    d = e.choose_label("build 5")
    assert d.labels == ["work"]  # 1 gold: neither build nor any buy
    d = e.choose_label("work")
    assert e.state["counters"]["able"] == 0
    assert d.labels == ["buy 2", "work"]


def test_free_actions_do_not_nest(load):
    """A free action that asks something is not offered again inside itself (it would take
    effect twice on one choice), nor is any other free action; after it, they are offered again."""
    game = load("""
        game: g
        players: 1
        counters:
          notoriety: {per: player, initial: 0}
          moves: {initial: 0}
        zones:
          hand: {per: player}
          done: {per: player}
        items:
          contract: {count: 2, zone: hand, per: player, fields: {value: 3}}
        actions:
          work:
            effect: |
              add 1 to moves
              choose n from 1 to 2
          complete:
            choose: c in hand
            effect: |
              choose how from 1 to 2
              gain c.value notoriety
              move c to done
          tidy:
            effect: add 10 to moves
        flow:
          - turns:
              actions: [work]
              free_actions: [complete, tidy]
              free_actions_at: any_time
              per_turn: 2
              until: one_round
        scoring:
          score: notoriety
        """)
    e = Engine(game, 1, seed=0)
    d = e.start()
    assert d.labels == ["work", "complete contract#0.1", "complete contract#0.2", "tidy"]
    d = e.choose_label("complete contract#0.1")
    assert (d.kind, d.labels) == ("choose how", ["1", "2"])  # nothing free inside it
    d = e.choose_label("1")
    assert e.state["players"][0]["notoriety"] == 3
    assert d.labels == ["work", "complete contract#0.2", "tidy"]
    d = e.choose_label("work")
    assert d.labels == ["1", "2", "complete contract#0.2", "tidy"]  # inside a main action: any time


AS_SOON_AS = """
    game: g
    players: 2
    counters:
      ingenuity: {per: player, initial: 0}
      impact: {per: player, initial: 0}
      bonus: {per: player, initial: 0}
      total: {initial: 0}
      rang: {initial: 0}
      ready: {initial: 0}
    zones:
      public: {}
      bag: {}
    items:
      token: {count: 5, zone: bag}
    actions:
      study:
        effect: |
          gain 1 ingenuity
          add 1 to total
      forget:
        effect: lose 1 ingenuity
    triggers:
      reach_two:
        when: as soon as ingenuity >= 2        # each player's own track
        effect: gain 1 impact
      first_time_three:
        when: as soon as ingenuity >= 3
        once: true                             # the first time *you* reach 3
        effect: gain 10 bonus
      game_wide:
        when: as soon as total >= 3            # one condition for the table: fires once
        effect: add 1 to rang
      keep_filled:
        when: as soon as count(public) < 2     # true right after setup
        effect: |
          while count(public) < 2:
            move top(bag) to public
    flow:
      - turns: {first: 0, actions: [study, forget], per_turn: 1, until: never}
    scoring:
      score: impact
"""


def test_as_soon_as_is_watched_for_each_player_on_their_own(load):
    e = Engine(load(AS_SOON_AS), 2, seed=0)
    d = e.start()
    assert len(e.state["zones"]["public"]) == 2  # setup left it empty: filled before any turn
    players = e.state["players"]
    for label in ["study", "study", "study", "study"]:  # 0 and 1 alternate: each reaches 2
        d = e.choose_label(label)
    assert [p["impact"] for p in players] == [1, 1]  # seat 1 too, though seat 0 got there first
    assert e.state["counters"]["rang"] == 1  # total reached 3 once; not once per seat
    for label in ["forget", "study", "study", "forget"]:  # seat 0: 2 -> 1 -> 2, seat 1: 2 -> 3 -> 2
        d = e.choose_label(label)
    assert [p["ingenuity"] for p in players] == [2, 2] and [p["impact"] for p in players] == [2, 1]
    assert [p["bonus"] for p in players] == [0, 10]
    for label in ["study", "study"]:  # both reach 3: seat 1 for the second time
        d = e.choose_label(label)
    assert [p["ingenuity"] for p in players] == [3, 3]
    assert [p["bonus"] for p in players] == [10, 10]  # `once` is once per seat
    assert e.state["counters"]["rang"] == 1
    assert d is not None


STUCK = """
    game: g
    players: 2
    counters:
      coins: {per: player, initial: 0}
      done: {initial: 0}
    actions:
      buy:
        requires: coins >= 3
        effect: |
          pay 3 coins
          add 1 to done
          if done >= 2:
            end game
    flow:
      - do: set done to 10
      - turns: {first: 0, actions: [buy], per_turn: 1, until: UNTIL}
    scoring:
      score: done
"""


def test_turns_nobody_can_act_in_stops_with_an_error_not_at_the_step_budget(load, stop_message):
    game = load(STUCK.replace("UNTIL", "never"))
    assert stop_message(game, 2) == (
        "g/game.yaml:16:5: error: no player can take any action, and these turns go on until a "
        "rule ends the game (until: never): the game cannot go on")


def test_who_cannot_act_passes_in_turns_until_all_passed(load):
    e = Engine(load(STUCK.replace("UNTIL", "all_passed")), 2, seed=0)
    assert e.start() is None  # nobody can buy: both pass, the step ends, and the game
    assert e.state["counters"]["done"] == 10
    assert e.turns_taken == 2  # one turn each, in which each could only pass


def test_turn_triggers_can_make_an_action_legal_again(load):
    game = load(STUCK.replace("UNTIL", "never").replace("    scoring:", """    triggers:
      income:
        when: before turn
        effect: gain 1 coins
    scoring:"""))
    e = Engine(game, 2, seed=0)
    d = e.start()
    assert (d.player, d.labels) == (0, ["buy"])  # seat 0's third turn: 3 coins
    assert [p["coins"] for p in e.state["players"]] == [3, 2]


def test_free_actions_after_the_last_main_action_until_end_turn(load):
    """`free_after_last: true`: "before or after it, any number of free actions during your own
    turn". After the turn's last main action its free actions are offered beside `end turn`;
    without the key the turn ends at once."""
    text = """
        game: g
        players: 2
        counters:
          coins: {per: player, initial: 0}
          plants: {per: player, initial: 0}
        actions:
          work:
            effect: gain 2 coins
          plant:
            limit: {times: 2, per: turn}
            effect: add 1 to plants
        flow:
          - turns: {first: 0, actions: [work], free_actions: [plant], per_turn: 1,
                    until: one_round FREE_AFTER}
        scoring:
          score: coins + plants
        """
    e = Engine(load(text.replace(" FREE_AFTER", ", free_after_last: true")), 2, seed=0)
    d = e.start()
    assert (d.player, d.labels) == (0, ["work", "plant"])
    d = e.choose_label("work")
    assert (d.player, d.labels) == (0, ["plant", "end turn"])  # the turn goes on
    d = e.choose_label("plant")
    assert (d.player, d.labels) == (0, ["plant", "end turn"])
    d = e.choose_label("plant")
    assert (d.player, d.labels) == (1, ["work", "plant"])  # no free action left: the turn ends
    d = e.choose_label("plant")
    d = e.choose_label("work")
    assert (d.player, d.labels) == (1, ["plant", "end turn"])  # one plant used, one left
    assert e.choose_label("end turn") is None
    assert [(p["coins"], p["plants"]) for p in e.state["players"]] == [(2, 2), (2, 1)]
    e = Engine(load(text.replace(" FREE_AFTER", "")), 2, seed=0)
    e.start()
    assert e.choose_label("work").player == 1  # by default the last main action ends the turn


def test_free_actions_alone_are_not_forced(load):
    """With no legal main action, the free actions are offered beside `end turn`: nobody is made
    to spend a free action because nothing else is possible."""
    game = load("""
        game: g
        players: 1
        counters:
          coins: {per: player, initial: 0}
          tokens: {per: player, initial: 1}
        actions:
          buy:
            requires: coins >= 5
            effect: pay 5 coins
          spend:
            requires: tokens >= 1
            effect: |
              lose 1 tokens
              gain 2 coins
        flow:
          - turns: {first: 0, actions: [buy], free_actions: [spend], per_turn: 1, until: one_round}
        scoring:
          score: tokens
        """)
    e = Engine(game, 1, seed=0)
    d = e.start()
    assert d.labels == ["spend", "end turn"]
    assert e.choose_label("end turn") is None
    assert e.result["scores"] == [1]  # the token was kept


ORDER = """
    game: g
    players: 4
    counters:
      bribe: {per: player, initial: 0}
      log_pos: {initial: 0}
      seen: {per: player, initial: -1}
    actions:
      act:
        effect: |
          set seen to log_pos
          add 1 to log_pos
    setup: |
      for each p in players:
        set p.bribe to [3, 9, 5, 9][p]
    flow:
      - turns:
          order: ORDER
          actions: [act]
          per_turn: 1
          until: one_round
    scoring:
      score: seen
"""


def test_turns_follow_a_computed_order_of_seats(load, stop_message):
    """`order: EXPR` lists the seats in turn order (sealed bribes: the highest first, ties to the
    lower seat); a seat missing from the list has no turn in this step."""
    game = load(ORDER.replace("ORDER", "'sorted(each p in players by [-p.bribe, p])'"))
    e = play_game(game, 4, 0, "first")
    assert [p["seen"] for p in e.state["players"]] == [3, 0, 2, 1]  # seats 1, 3, 2, 0
    e = play_game(load(ORDER.replace("ORDER", "'[2, 0]'")), 4, 0, "first")
    assert [p["seen"] for p in e.state["players"]] == [1, -1, 0, -1]
    for order in ("[2, 2]", "[[2]]", "[4]"):
        assert stop_message(load(ORDER.replace("ORDER", f"'{order}'")), 4).endswith(
            f"the turn order must list different seats from 0 to 3, got {order}")


def test_an_order_that_is_not_a_direction_or_a_list_is_refused(load):
    with pytest.raises(SchemaError) as info:
        load(ORDER.replace("ORDER", "clockwize"))
    assert "order must be clockwise, counterclockwise, or the seats in turn order" in str(
        info.value)
    with pytest.raises(SchemaError) as info:
        load(ORDER.replace("ORDER", "'[1, 0]'\n          first: 1"))
    assert "first: is not used when `order` lists the seats" in str(info.value)


def test_ending_turns_by_choice_is_not_being_stuck(load):
    """Only turns in which nothing at all was legal count towards 'nobody can act': players
    who end their turns by choice, with a free action open, may still use it later."""
    game = load("""
        game: g
        players: 2
        counters:
          coins: {per: player, initial: 0}
          bought: {initial: 0}
        actions:
          buy:
            requires: coins >= 2
            effect: |
              pay 2 coins
              add 1 to bought
              end game
          earn:
            effect: gain 1 coins
        flow:
          - turns: {first: 0, actions: [buy], free_actions: [earn], per_turn: 1, until: never}
        scoring:
          score: bought
        """)
    e = Engine(game, 2, seed=0)
    d = e.start()
    for _ in range(3):  # a whole round and more of turns ended at once: no error
        assert d.labels == ["earn", "end turn"]
        d = e.choose_label("end turn")
    d = e.choose_label("earn")
    d = e.choose_label("earn")
    assert d.labels == ["buy", "earn"]
    assert e.choose_label("buy") is None and e.state["counters"]["bought"] == 1
