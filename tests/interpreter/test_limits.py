"""The limits every game runs within (docs/security.md), each tested at its edge: whole numbers
within ±10**18, work charged per value gone through, at most 200,000 steps between two decisions
(100,000 at the flow's loops), at most 20,000 decisions per game, at most 100 players; and the
bounds a declaration states hold from its first value."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import LoadError, MeeplangError, RuleError, RuleSyntaxError, SchemaError
from meeplang.dsl.limits import MAX_INT, MAX_PLAYERS
from meeplang.dsl.resolve import load_game
from meeplang.interpreter.engine import MAX_DECISIONS, MAX_UNASKED, Engine
from meeplang.interpreter.simulation import play_game

GAME = """\
game: g
players: 2
counters:
  x: {initial: 0}
setup: |
  {rule}
scoring:
  score: x
"""


def setup_error(write_game, rule: str, budget: int | None = None) -> RuleError:
    game = load_game(write_game(GAME.replace("{rule}", rule.replace("\n", "\n  "))))
    with pytest.raises(RuleError) as info:
        if budget is None:
            Engine(game, 2, 0).start()
        else:
            Engine(game, 2, 0, step_budget=budget).start()
    return info.value


def runs(write_game, rule: str, budget: int | None = None) -> Engine:
    game = load_game(write_game(GAME.replace("{rule}", rule.replace("\n", "\n  "))))
    engine = Engine(game, 2, 0) if budget is None else Engine(game, 2, 0, step_budget=budget)
    engine.start()
    return engine


@pytest.mark.parametrize("expr", [f"{MAX_INT} + 0", f"{MAX_INT} - 1 + 1", f"0 - {MAX_INT}",
                                  "1000000000 * 1000000000"])
def test_numbers_up_to_the_bound_are_computed(write_game, expr):
    engine = runs(write_game, f"set x to {expr}")
    assert abs(engine.state["counters"]["x"]) == MAX_INT


@pytest.mark.parametrize("expr", [f"{MAX_INT} + 1", f"0 - {MAX_INT} - 1",
                                  "1000000000 * 1000000001"])
def test_one_past_the_bound_stops_at_the_operator(write_game, expr):
    error = setup_error(write_game, f"set x to {expr}")
    assert "is beyond the limit of ±1,000,000,000,000,000,000" in error.message
    assert (error.pos.line, error.pos.col) == (6, 12)


@pytest.mark.parametrize("closures", [False, True])
@pytest.mark.parametrize("rule", [f"add {MAX_INT} to x\nadd 1 to x",
                                  f"set x to {MAX_INT}\nadd 1 to x",
                                  f"set x to 0 - {MAX_INT}\nadd 0 - 1 to x"])
def test_a_counter_does_not_grow_past_the_bound(write_game, monkeypatch, closures, rule):
    # found in review: a counter's statements added past ±10**18 without the bound expressions have
    monkeypatch.setenv("MEEPLANG_CLOSURES", "1") if closures else monkeypatch.delenv(
        "MEEPLANG_CLOSURES", raising=False)
    error = setup_error(write_game, rule)
    assert "is beyond the limit of ±1,000,000,000,000,000,000" in error.message
    assert (error.pos.line, error.pos.col) == (7, 3)


def test_squaring_forever_stops_at_once(write_game):
    error = setup_error(write_game, "let y = 3\nrepeat 40 times:\n  let y = y * y\nset x to y")
    assert error.message.startswith("the number ") and "beyond the limit" in error.message
    assert (error.pos.line, error.pos.col) == (8, 13)


def test_a_number_in_rule_text_is_bounded_where_it_is_written(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game(GAME.replace("{rule}", "set x to 1" + "0" * 5000)))
    assert str(info.value).startswith("g/game.yaml:6:12: error: the number 10000000000000000000..."
                                      " is beyond the limit")
    load_game(write_game(GAME.replace("{rule}", f"set x to {MAX_INT}")))
    with pytest.raises(RuleSyntaxError):
        load_game(write_game(GAME.replace("{rule}", f"set x to {MAX_INT + 1}")))


@pytest.mark.parametrize("value", [str(MAX_INT + 1), str(-MAX_INT - 1), "1" + "0" * 100, "9" * 5000])
def test_a_number_in_yaml_is_bounded_where_it_is_written(write_game, value):
    with pytest.raises(LoadError) as info:
        load_game(write_game(GAME.replace("x: {initial: 0}", f"x: {{initial: {value}}}")))
    assert str(info.value).startswith("g/game.yaml:4:16: error: the number ")
    assert "beyond the limit" in str(info.value)


UNASKED = "200,000 steps in a row without asking any player anything"


def test_work_inside_a_loop_pass_is_charged(write_game):
    error = setup_error(write_game, "while true:\n  let m = sum(v for v in range(1, 100000))")
    assert error.message.startswith(UNASKED)
    assert error.pos.line == 7


def test_an_empty_range_costs_nothing_and_gives_nothing_back(write_game):
    error = setup_error(write_game, "while true:\n  let l = range(100000, 1)", budget=10_000)
    assert error.message.startswith("step budget of 10000 exceeded")


def test_lists_of_lists_are_charged_for_every_value(write_game):
    error = setup_error(write_game, "let l = [range(1, 100000) for v in range(1, 100000)]")
    assert UNASKED in error.message
    assert error.pos.line == 6


def test_the_budget_spent_listing_what_a_choice_is_among_stops_at_the_choice(write_game):
    """A choice's source is charged per item while its options are listed; past the budget the
    error names the choice, not a Python traceback (found by fuzzing a mutated Otys)."""
    rule = "let big = range(1, 5000)\nchoose v in big where v > 0\nset x to v"
    error = setup_error(write_game, rule, budget=7_000)
    assert error.message.startswith("step budget of 7000 exceeded") and error.pos.line == 7


def test_the_step_budget_holds_at_its_edge(write_game):
    rule = "let l = [v * 2 for v in range(1, 1000) if v % 3 == 0]\nset x to sum(l)"
    used = runs(write_game, rule).steps
    assert used >= 2000  # the 1,000 values of range, then the 1,000 the comprehension goes through
    assert runs(write_game, rule, budget=used).state["counters"]["x"] == 333 * 334 * 3
    assert "step budget of" in setup_error(write_game, rule, budget=used - 1).message


# Listing `costly`'s options rehearses it for each of its 10,000 values (its effect can fail),
# and each rehearsal sums 1,000 numbers: 10,000,000 steps before the first decision.
COSTLY_LISTING = """\
game: g
players: 2
counters:
  coins: {per: player, initial: 0, min: 0}
flow:
  - turns: {first: 0, actions: [costly, rest], per_turn: 1, until: never}
actions:
  costly:
    choose: n from 1 to 10000
    effect: |
      let m = sum(v for v in range(1, 1000))
      pay n coins
  rest: {effect: end game}
scoring: {score: coins}
"""


def test_rehearsals_while_listing_options_are_charged_to_the_budget(write_game):
    game = load_game(write_game(COSTLY_LISTING))
    with pytest.raises(RuleError) as info:
        Engine(game, 2, 0, step_budget=50_000).start()
    assert info.value.message.startswith("step budget of 50000 exceeded")
    assert "trying whether an option can be taken" in info.value.message
    assert (info.value.pos.line, info.value.pos.col) == (11, 15)  # the sum in the effect
    with pytest.raises(RuleError) as info:  # the default budget: the stretch without a decision
        Engine(game, 2, 0).start()
    assert info.value.message.startswith(UNASKED)


def test_a_rehearsal_s_work_stays_counted_and_a_lookahead_s_does_not(write_game):
    from meeplang.interpreter.lookahead import after_action

    game = load_game(write_game(COSTLY_LISTING.replace("1 to 10000", "1 to 2")))
    e = Engine(game, 2, 0)
    e.start()
    assert e.decision.labels == ["rest"]  # nobody has coins: `costly` never pays
    before = e.steps
    assert not e.can("costly", 0, {})
    assert e.steps >= before + 2 * 1000  # two rehearsals, each summing 1,000 numbers
    before = e.steps
    after_action(e, e.decision.options[0], 0, __import__("random").Random(1), [])
    assert e.steps == before  # an agent's thinking is not the game's work


NEVER_ENDS = """\
game: g
players: 2
counters:
  x: {initial: 0}
actions:
  wait: {effect: add 1 to x}
flow:
  - turns:
      first: 0
      actions: [wait]
      until: never
scoring:
  score: x
"""


def test_a_never_ending_game_stops_at_the_turns_step(write_game):
    game = load_game(write_game(NEVER_ENDS))
    engine = Engine(game, 2, 0)
    engine.max_decisions = 50
    d = engine.start()
    with pytest.raises(RuleError) as info:
        for _ in range(50):
            d = engine.choose(0)
        assert d is not None  # the 50th decision was still allowed
        engine.choose(0)
    assert str(info.value) == ("g/game.yaml:8:5: error: the game has asked for 50 decisions and is "
                               "not over: does it ever end? (stopped at the step that asks)")
    assert MAX_DECISIONS == 20_000


# Games that run on without asking anything: a flow loop of automatic steps, and turns in which
# nobody can act but a trigger between turns does something (so they are not simply idle).
NEVER_ASKS = {
    "while": """\
game: g
players: 2
counters:
  x: {initial: 0}
flow:
  - do: add 1 to x
  - while: x > 0
    steps:
      - do: add 1 to x
scoring:
  score: x
""",
    "turns": """\
game: g
players: 2
counters:
  x: {initial: 0}
actions:
  wait: {requires: x < 0, effect: add 1 to x}
triggers:
  tick:
    when: after turn
    effect: add 1 to x
flow:
  - do: add 1 to x
  - turns:
      first: 0
      actions: [wait]
      until: never
scoring:
  score: x
""",
}


@pytest.mark.parametrize("kind, where", [("while", "7:5"), ("turns", "13:5")])
def test_a_game_that_never_asks_stops_at_the_step_that_loops(write_game, kind, where):
    engine = Engine(load_game(write_game(NEVER_ASKS[kind])), 2, 0)
    engine.max_unasked = 100
    with pytest.raises(RuleError) as info:
        engine.start()
    assert str(info.value) == (f"g/game.yaml:{where}: error: 50 steps in a row without asking any "
                               "player anything: does this step loop forever? (stopped at the "
                               "step that loops)")
    assert engine.steps == 51  # stopped at the first pass past the stretch, not at the budget
    assert MAX_UNASKED == 200_000


REPEATS = """\
game: g
players: 2
counters:
  x: {initial: 0}
flow:
  - repeat: {n}
    steps:
      - do: add 1 to x
scoring:
  score: x
"""


@pytest.mark.parametrize("passes, ok", [(50, True), (51, False)])
def test_the_unasked_stretch_holds_at_its_edge(write_game, passes, ok):
    engine = Engine(load_game(write_game(REPEATS.replace("{n}", str(passes)))), 2, 0)
    engine.max_unasked = 100
    if ok:
        assert engine.start() is None and engine.state["counters"]["x"] == 50
    else:
        with pytest.raises(RuleError, match="6:5: error: 50 steps in a row without asking"):
            engine.start()


def test_a_loop_inside_a_rule_may_take_the_whole_stretch(write_game):
    def setup(times: int) -> Engine:
        game = load_game(write_game(GAME.replace("{rule}", f"repeat {times} times: add 1 to x")))
        engine = Engine(game, 2, 0)
        engine.max_unasked = 100
        engine.start()
        return engine
    assert setup(100).state["counters"]["x"] == 100
    with pytest.raises(RuleError, match="6:3: error: 100 steps in a row without asking any player "
                                        "anything: does a rule loop forever"):
        setup(101)


ASKS_BETWEEN = """\
game: g
players: 2
counters:
  x: {initial: 0}
actions:
  wait: {effect: add 1 to x}
flow:
  - repeat: 10
    steps:
      - repeat: 40
        steps:
          - do: add 1 to x
      - turns:
          first: 0
          actions: [wait]
          per_turn: 1
          until: one_round
scoring:
  score: x
"""


def test_each_decision_starts_a_new_stretch(write_game):
    engine = Engine(load_game(write_game(ASKS_BETWEEN)), 2, 0)
    engine.max_unasked = 100
    d = engine.start()
    while d is not None:
        d = engine.choose(0)
    assert engine.over and engine.state["counters"]["x"] == 10 * 42
    assert engine.steps > 400  # four times the stretch, in stretches of less than half of it


@pytest.mark.parametrize("form", ["{{min: 2, max: {}}}", "{}"])  # a range, or one count
@pytest.mark.parametrize("players, ok", [(MAX_PLAYERS, True), (MAX_PLAYERS + 1, False)])
def test_players_are_bounded(write_game, form, players, ok):
    folder = write_game(GAME.replace("players: 2", "players: " + form.format(players))
                        .replace("{rule}", "add 1 to x"))
    if ok:
        assert load_game(folder).max_players == MAX_PLAYERS
    else:
        with pytest.raises(SchemaError, match=f"players: at most 100 players, not {players}"):
            load_game(folder)


BOUNDS = [
    ("counter-initial-below-min", "  x: {initial: 0}", "  x: {initial: -1, min: 0}",
     "g/game.yaml:4:16: error: counter x: initial -1 is out of its bounds (at least 0)"),
    ("counter-initial-above-max", "  x: {initial: 0}", "  x: {initial: 11, min: 0, max: 10}",
     "g/game.yaml:4:16: error: counter x: initial 11 is out of its bounds (0..10)"),
    ("counter-min-above-max", "  x: {initial: 0}", "  x: {initial: 0, min: 5, max: 1}",
     "g/game.yaml:4:3: error: counter x: min 5 is larger than max 1"),
    ("option-default-above-max", "counters:",
     "options:\n  n: {default: 9, min: 1, max: 5}\ncounters:",
     "g/game.yaml:4:16: error: option n: default 9 is out of its bounds (1..5)"),
    ("option-min-above-max", "counters:", "options:\n  n: {default: 3, min: 5, max: 1}\ncounters:",
     "g/game.yaml:4:3: error: option n: min 5 is larger than max 1"),
]


@pytest.mark.parametrize("name, old, new, message", BOUNDS, ids=[b[0] for b in BOUNDS])
def test_a_declaration_out_of_its_own_bounds_is_refused(write_game, name, old, new, message):
    text = GAME.replace(old, new).replace("set x to", "")
    with pytest.raises(SchemaError) as info:
        load_game(write_game(text.replace("{rule}", "add 1 to x")))
    assert str(info.value) == message


def test_a_computed_initial_value_out_of_bounds_stops_at_the_counter(write_game, stop_message):
    text = GAME.replace("  x: {initial: 0}", "  x: {initial: 0}\n  y: {initial: x - 1, min: 0}")
    game = load_game(write_game(text.replace("{rule}", "add y to x")))
    assert stop_message(game) == ("g/game.yaml:5:3: error: counter y starts at -1, out of its "
                                  "bounds (at least 0)")


def test_an_option_given_out_of_bounds_is_named_with_its_bounds(write_game):
    text = GAME.replace("counters:", "options:\n  n: {default: 3, min: 1}\ncounters:")
    game = load_game(write_game(text.replace("{rule}", "add n to x")))
    with pytest.raises(MeeplangError) as info:
        Engine(game, 2, 0, {"n": 0})
    assert info.value.message == "option n=0 is out of bounds (at least 1)"
    with pytest.raises(MeeplangError) as info:
        Engine(game, 2, 0, {"n": MAX_INT + 1})
    assert "None" not in info.value.message


NUMBERS = """\
game: numbers
players: 2
counters:
  coins: {per: player, initial: COINS}
  price_paid: {initial: 0}
flow:
  - do: |
      choose n from 1 to TOP
      auction among players paying coins as winner, price
      set price_paid to price
scoring:
  score: coins
"""


def numbers_game(write_game, top: int, coins: int):
    return load_game(write_game(NUMBERS.replace("TOP", str(top)).replace("COINS", str(coins))))


def test_a_choice_among_numbers_offers_at_most_10000():
    from meeplang.interpreter.compile import MAX_NUMBER_OPTIONS
    assert MAX_NUMBER_OPTIONS == 10_000  # docs/security.md


def test_a_choice_from_a_range_is_refused_past_10000_numbers(write_game):
    d = Engine(numbers_game(write_game, 10_000, 5), 2, 0).start()
    assert len(d.options) == 10_000
    with pytest.raises(RuleError) as info:
        Engine(numbers_game(write_game, 10_001, 5), 2, 0).start()
    assert info.value.message == "a choice from 1 to 10001 has too many options (at most 10,000)"
    assert info.value.pos.line == 8


def test_a_bidder_holding_a_fortune_is_not_offered_every_bid(write_game):
    """Found by the fuzzer: `initial: 10**12` coins made an auction build a list of 10**12 bids
    (a MemoryError). The bids are numbers to choose among, bounded like any such choice."""
    e = Engine(numbers_game(write_game, 1, 9_999), 2, 0)
    e.start()
    d = e.choose(0)                                   # n = 1; then the auction
    assert d.kind == "bid" and len(d.options) == 10_000   # "out" and 1 .. 9,999
    e = Engine(numbers_game(write_game, 1, 10**12), 2, 0)
    e.start()
    with pytest.raises(RuleError) as info:
        e.choose(0)
    assert info.value.message.startswith("a bid from 1 to 1000000000000 has too many options")
    assert info.value.pos.line == 9
