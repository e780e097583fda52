"""Effects and actions as values: rule text held in data (`rule_text:`), `do VALUE`, `do one of`,
`do any of`, `may do ... else`, and performing another seat's or item's action."""
import pytest

from meeplang.dsl import ast as A
from meeplang.dsl.errors import MeeplangError, RuleError
from meeplang.dsl.parser import parse_block

from .helpers import make_game, play_labels, start

CARDS = """
game: cards
players: 2
tables:
  cards:
    - {name: mint, effect: "gain 2 coins"}
    - {name: works, effect: build_module}
    - {name: blank, effect: null}
    - {name: tax, effect: "pay 3 coins\\ngain 1 points"}
rule_text:
  cards: {fields: [effect]}
counters:
  coins: {per: player, initial: 1, min: 0}
  points: {per: player, initial: 0}
  modules: {per: player, initial: 0}
zones:
  deck: {}
items:
  card: {from: cards, zone: deck}
flow:
  - turns: {first: 0, actions: [play], per_turn: 1, until: one_round}
actions:
  play:
    choose: card in deck
    effect: do card.effect
  build_module: {effect: add 1 to modules}
scoring: {score: points}
"""


def card(e, name):
    return next(i for i, it in e.state["items"].items() if it.get("name") == name)


def test_a_card_field_holds_rule_text_or_an_action_name(tmp_path):
    game = make_game(tmp_path, CARDS)
    e = start(game)
    me = e.state["players"][0]
    play_labels(e, [f"play {card(e, 'mint')}"])
    assert me["coins"] == 3                                   # "gain 2 coins"
    play_labels(e, [f"play {card(e, 'works')}"])              # build_module: an action's name
    assert e.state["players"][1]["modules"] == 1
    e = start(game)
    play_labels(e, [f"play {card(e, 'blank')}"])              # null: no effect
    assert e.state["players"][0]["coins"] == 1 and e.decision.player == 1


def test_rule_text_that_cannot_run_to_its_end_is_not_offered(tmp_path):
    """`tax` pays 3 coins: with 1 coin its play is not legal (legality from the effect)."""
    e = start(make_game(tmp_path, CARDS))
    assert f"play {card(e, 'tax')}" not in e.decision.labels
    assert f"play {card(e, 'mint')}" in e.decision.labels


def test_an_error_in_a_cell_points_inside_the_cell(tmp_path):
    text = CARDS.replace('"gain 2 coins"', '"gain 2 coinz"')
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, text)
    line = text.splitlines().index('    - {name: mint, effect: "gain 2 coinz"}') + 1
    assert "coinz" in str(err.value) and f"game.yaml:{line}:" in str(err.value)
    text = CARDS.replace('"gain 2 coins"', '"gain 2 +"')
    with pytest.raises(MeeplangError) as err:
        make_game(tmp_path, text, name="syntax")
    col = '    - {name: mint, effect: "gain 2 +"}'.index('+"') + 2   # the end of the cell's text
    assert f"game.yaml:{line}:{col}: " in str(err.value) and "unexpected" in str(err.value)


def test_a_single_word_must_be_an_action(tmp_path):
    with pytest.raises(MeeplangError, match="unknown action 'build_modul'; did you mean "
                                            "'build_module'"):
        make_game(tmp_path, CARDS.replace("effect: build_module}", "effect: build_modul}"))


def test_rule_text_must_be_text(tmp_path):
    with pytest.raises(MeeplangError, match="rule text must be an action's name or statements"):
        make_game(tmp_path, CARDS.replace("effect: build_module}", "effect: 3}"))


def test_rule_text_table_must_exist(tmp_path):
    with pytest.raises(MeeplangError, match="unknown table 'card'"):
        make_game(tmp_path, CARDS.replace("  cards: {fields: [effect]}", "  card: {fields: [effect]}"))


def test_doing_something_that_is_not_an_action_is_an_error(tmp_path):
    text = CARDS.replace("effect: do card.effect", "effect: do card.name")
    with pytest.raises(RuleError, match="'mint': it is neither an action nor rule text"):
        start(make_game(tmp_path, text))      # found while the play is rehearsed, not hidden


def test_do_statements_print_back_to_the_same_tree():
    for text in ["do card.effect for you 2 times", "may do one of s.actions else lose 1 rp",
                 "do any of [a, b] with x = 1", "do zone_actions[z]", "do act with z = z",
                 "if can(card.effect):\n  gain 1 coins"]:
        block = parse_block(text)
        assert parse_block(A.block_source(block)) == block


COMBINATORS = """
game: combinators
players: 1
counters:
  travels: {per: player, initial: 0}
  sonars: {per: player, initial: 0}
  notes: {per: player, initial: 0}
zones:
  discs: {per: player}
  ocean: {per: player}
items:
  disc: {per: player, count: DISCS, zone: discs}
flow:
  - turns: {first: 0, actions: [one, any], per_turn: 1, until: one_round}
actions:
  one: {effect: "may do one of [travel, sonar, note]"}
  any: {effect: "do any of [travel, sonar, note]"}
  travel: {effect: add 1 to travels}
  sonar:
    effect: |
      move top(discs) to ocean
      add 1 to sonars
  note:
    effect: |
      move top(discs) to ocean
      add 1 to notes
scoring: {score: 0}
"""


def test_one_of_offers_each_action_that_can_run(tmp_path):
    e = start(make_game(tmp_path, COMBINATORS.replace("DISCS", "1")), players=1)
    play_labels(e, ["one"])
    assert e.decision.labels == ["travel", "sonar", "note", "skip"]
    play_labels(e, ["sonar"])
    assert e.decision is None and e.state["players"][0]["sonars"] == 1
    e = start(make_game(tmp_path, COMBINATORS.replace("DISCS", "0"), name="nodisc"), players=1)
    play_labels(e, ["one"])
    assert e.decision.labels == ["travel", "skip"]           # no disc: sonar and note cannot run


def test_any_of_each_at_most_once_in_any_order_until_stop(tmp_path):
    e = start(make_game(tmp_path, COMBINATORS.replace("DISCS", "1")), players=1)
    play_labels(e, ["any", "note"])
    assert e.decision.labels == ["travel", "stop"]           # note done; sonar: the disc is gone
    play_labels(e, ["travel"])
    assert e.decision is None
    me = e.state["players"][0]
    assert (me["travels"], me["sonars"], me["notes"]) == (1, 0, 1)
    e = start(make_game(tmp_path, COMBINATORS.replace("DISCS", "3"), name="three"), players=1)
    play_labels(e, ["any", "sonar", "stop"])
    assert e.decision is None and e.state["players"][0]["sonars"] == 1


DECLINE = """
game: decline
players: 1
counters:
  coins: {per: player, initial: 0}
  rp: {per: player, initial: 2, min: 0}
flow:
  - do: |
      may do earn 2 times else lose 1 rp
scoring: {score: coins}
actions:
  earn: {effect: gain 1 coins}
"""


def test_declining_a_may_do_has_a_price(tmp_path):
    game = make_game(tmp_path, DECLINE)
    e = play_labels(start(game, players=1), ["skip"])
    assert (e.state["players"][0]["coins"], e.state["players"][0]["rp"]) == (0, 1)
    e = play_labels(start(game, players=1), ["earn", "skip"])  # done once: nothing to pay
    assert (e.state["players"][0]["coins"], e.state["players"][0]["rp"]) == (1, 2)


def test_else_needs_a_statement_the_checker_accepts(tmp_path):
    with pytest.raises(MeeplangError, match="unknown player counter 'rq'"):
        make_game(tmp_path, DECLINE.replace("lose 1 rp", "lose 1 rq"))


COPY = """
game: copy
players: 2
tables:
  roles:
    - {role: fuels, action: "gain 1 fuel"}
    - {role: miner, action: "gain level ore"}
rule_text:
  roles: {fields: [action], takes: [level]}
counters:
  fuel: {per: player, initial: 0}
  ore: {per: player, initial: 0}
zones:
  queue: {per: player}
items:
  diver: {per: player, from: roles, zone: queue}
flow:
  - turns: {first: 0, actions: [copy], per_turn: 1, until: one_round}
actions:
  copy:
    choose: d in [d for d in left(you).queue]
    effect: do d.action with level = 3
scoring: {score: 0}
"""


def test_copying_another_seats_item_action_acts_for_you(tmp_path):
    e = start(make_game(tmp_path, COPY))
    play_labels(e, ["copy diver#1.2"])                        # seat 1's miner, on seat 0's board
    assert [(p["fuel"], p["ore"]) for p in e.state["players"]] == [(0, 3), (0, 0)]


def test_rule_text_needs_the_names_it_takes(tmp_path):
    with pytest.raises(RuleError, match="this rule text reads 'level'"):
        start(make_game(tmp_path, COPY.replace("with level = 3", "")))


def test_a_local_holding_an_action_name_is_done_by_value(tmp_path):
    text = COMBINATORS.replace("DISCS", "1").replace(
        'one: {effect: "may do one of [travel, sonar, note]"}',
        'one:\n    choose: a in [travel, note]\n    effect: do a')
    e = start(make_game(tmp_path, text), players=1)
    play_labels(e, ["one note"])
    assert e.state["players"][0]["notes"] == 1


def test_do_of_an_unknown_name_is_an_error(tmp_path):
    with pytest.raises(MeeplangError, match="unknown action 'travle'; did you mean 'travel'"):
        make_game(tmp_path, COMBINATORS.replace("DISCS", "1").replace(
            "[travel, sonar, note]\"}\n  any", "[travel]\"}\n  move_on: {effect: do travle}\n  any"))


def test_the_report_names_the_tables_holding_rule_text(tmp_path):
    from meeplang.visualizer.report import build_html
    game = make_game(tmp_path, CARDS)
    assert "Rule text held in data: cards" in build_html(game, "", lang="en")
    assert "Texte de règle tenu dans les données : cards" in build_html(game, "", lang="fr")


def test_a_rule_text_needs_only_the_inputs_it_reads(tmp_path):
    """The same text in two tables, one of which gives it an input it does not read: each `do`
    gives what its own table says, and only a name the text reads must be given."""
    text = COPY.replace(
        "rule_text:\n  roles: {fields: [action], takes: [level]}",
        "  bonus: [\"gain 1 fuel\"]\n"
        "rule_text:\n  roles: {fields: [action], takes: [level]}\n  bonus: {}").replace(
        "actions:\n  copy:", "actions:\n  bonus:\n    effect: do bonus[0]\n  copy:").replace(
        "actions: [copy]", "actions: [bonus, copy]")
    e = start(make_game(tmp_path, text))
    play_labels(e, ["bonus"])
    assert e.state["players"][0]["fuel"] == 1
