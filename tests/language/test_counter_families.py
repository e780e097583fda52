"""Counter families: one counter per key (`accounts: {per: player, each: [hr, rd, me, sf]}`), read
and changed as `accounts[a]`, passed to formulas and actions by key, with the family's automatic
transfers (`transfer: {fee: ..., from: [...]}`) and `funds(...)`."""
import json

import pytest

from meeplang.dsl.errors import ResolveError, RuleError, RuleSyntaxError, SchemaError
from meeplang.interpreter import invariants
from meeplang.interpreter.log import dumps_line, header, load, replay_records, save
from meeplang.cli import main

from .helpers import make_game, play_labels, start

ACCOUNTS = """
game: accounts
players: [2, 2]
options:
  year: {default: 2}
tables:
  start: {hr: 4, rd: 8, me: 4, sf: 0}
  fee: {1: 1, 2: 2, 3: 3}
  tracks: [mussels, ads]
  ends: {mussels: 3, ads: 5}
counters:
  accounts:
    per: player
    each: [hr, rd, me, sf]
    initial: start[key]
    min: 0
    visibility: owner
    transfer: {fee: "fee[year]", from: [rd, me], into: [hr, sf], fee_to: bank}
  track: {each: tracks, initial: 1, min: 1, max: "ends[key]", overflow: clamp}
  bank: {initial: 0}
formulas:
  short(p, a, n): p.accounts[a] < n
actions:
  expense:
    choose: amount from 1 to 20
    requires: funds(accounts["hr"]) >= amount
    effect: |
      pay amount from accounts["hr"] to bank
      end turn
  advance:
    choose: t in tracks
    effect: do move_up with t = t
  move_up:
    takes: t
    effect: |
      gain 1 track[t]
      add 2 to track["mussels"]
  move_money:
    choose: a in ["rd", "me"]
    requires: not short(you, a, 3)
    effect: |
      transfer 1 from accounts[a] to accounts["sf"]
      end turn
  stop: {effect: end game}
flow:
  - turns: {first: 0, actions: [expense, advance, move_money, stop], until: never}
scoring: {score: 'sum(accounts) + accounts["sf"]'}
"""


def _acc(e, seat=0):
    return {k[9:-1]: v for k, v in e.state["players"][seat].items() if k.startswith("accounts[")}


def test_one_counter_per_key_with_initial_and_bounds_per_key(tmp_path):
    game = make_game(tmp_path, ACCOUNTS)
    e = start(game)
    assert _acc(e) == {"hr": 4, "rd": 8, "me": 4, "sf": 0}
    assert (e.state["counters"]["track[mussels]"], e.state["counters"]["track[ads]"]) == (1, 1)
    assert (game.counter_spec("track[mussels]").max, game.counter_spec("track[ads]").max) == (3, 5)
    play_labels(e, ["advance ads"])   # the action takes the key: one rule for every track
    assert (e.state["counters"]["track[mussels]"], e.state["counters"]["track[ads]"]) == (3, 2)
    play_labels(e, ["advance mussels"])  # clamped at its own end (3), ads unchanged
    assert (e.state["counters"]["track[mussels]"], e.state["counters"]["track[ads]"]) == (3, 2)


def test_a_short_member_is_made_up_by_transfers_paying_their_fee(tmp_path):
    e = start(make_game(tmp_path, ACCOUNTS))
    labels = e.decision.labels
    assert "expense 12" in labels and "expense 13" not in labels  # 4 + (8-2) + (4-2) = 12
    play_labels(e, ["expense 12"])
    assert _acc(e) == {"hr": 0, "rd": 0, "me": 0, "sf": 0}
    assert e.state["counters"]["bank"] == 12 + 2 * 2  # two sources used: two fees
    assert [(x["from"], x["amount"], x["fee"]) for x in e.events if x["event"] == "transfer"] == [
        ("accounts[rd]", 6, 2), ("accounts[me]", 2, 2)]


def test_a_payment_the_member_covers_needs_no_transfer(tmp_path):
    e = start(make_game(tmp_path, ACCOUNTS), options={"year": 1})
    play_labels(e, ["expense 3"])
    assert _acc(e) == {"hr": 1, "rd": 8, "me": 4, "sf": 0}
    assert not [x for x in e.events if x["event"] == "transfer"]
    play_labels(e, ["expense 2"])     # player 1
    play_labels(e, ["expense 5"])     # hr 1: 4 more from rd, fee 1
    assert _acc(e) == {"hr": 0, "rd": 3, "me": 4, "sf": 0}


def test_a_declared_transfer_charges_its_fee_and_formulas_take_the_key(tmp_path):
    e = start(make_game(tmp_path, ACCOUNTS))
    play_labels(e, ["move_money rd"])
    assert _acc(e) == {"hr": 4, "rd": 8 - 1 - 2, "me": 4, "sf": 1}
    assert e.state["counters"]["bank"] == 2
    play_labels(e, ["stop"])
    assert e.result["scores"] == [4 + 5 + 4 + 1 + 1, 16]


def test_members_are_hidden_from_other_seats_and_checked_by_invariants(tmp_path):
    e = start(make_game(tmp_path, ACCOUNTS))
    view = e.view(1)
    assert view["players"][0]["accounts[hr]"] == "?" and view["players"][1]["accounts[hr]"] == 4
    assert invariants.check(e) == []
    e.state["players"][0]["accounts[rd]"] = -1
    assert invariants.check(e) == ["counter accounts[rd] of player 0 is -1, outside 0..None"]


def test_logs_with_transfers_replay_and_reload(tmp_path):
    e = start(make_game(tmp_path, ACCOUNTS))
    play_labels(e, ["expense 12", "advance ads", "stop"])
    records = [json.loads(dumps_line(r)) for r in [header(e)] + e.events]
    again = replay_records(records)
    assert again.state == e.state
    part = start(make_game(tmp_path, ACCOUNTS))
    play_labels(part, ["expense 12"])
    resumed = load(save(part))
    play_labels(resumed, ["advance ads", "stop"])
    assert resumed.state == e.state


def test_deep_check_covers_family_members(tmp_path, capsys):
    make_game(tmp_path, ACCOUNTS)
    assert main(["check", "--deep", str(tmp_path / "g"), "-n", "2"]) == 0


@pytest.mark.parametrize("old, new, error, message", [
    ('gain 1 track[t]', 'gain 1 track["boats"]', ResolveError,
     "track has no key 'boats' (keys: mussels, ads)"),
    ('gain 1 track[t]', 'gain 1 track', ResolveError,
     "track is a family of counters: name one, e.g. track['mussels']"),
    ('transfer 1 from accounts[a] to accounts["sf"]', 'transfer 1 from accounts[a] to bank',
     ResolveError, "a transfer goes to another member of accounts"),
    ('pay amount from accounts["hr"] to bank', 'pay amount from 3', RuleSyntaxError,
     "`pay ... from` needs a counter (`coins`, `p.coins`, `accounts[a]`), not 3"),
    ('funds(accounts["hr"])', 'funds(3)', ResolveError, "funds() takes a counter"),
    ('max: "ends[key]"', 'max: "ends[key] + 1"', ResolveError,
     "counter track: max must be a number or read a table with `key`"),
    ("each: tracks,", "each: [a, a],", SchemaError, "counter track: each: needs distinct keys"),
    ("tracks: [mussels, ads]", "tracks: [mussels, [ads]]", SchemaError,
     "counter track: each: keys are names or whole numbers, not ['ads']"),
    ("fee_to: bank}", "fee_to: bankk}", ResolveError, "unknown game counter 'bankk'; did you mean 'bank'?"),
    ("from: [rd, me]", "from: [rd, mf]", ResolveError,
     "counter accounts: transfer from 'mf', which is not one of its keys"),
])
def test_misuse_is_a_positioned_error(tmp_path, old, new, error, message):
    assert old in ACCOUNTS
    with pytest.raises(error, match=r"g/game\.yaml:\d+:\d+: error: ") as info:
        make_game(tmp_path, ACCOUNTS.replace(old, new))
    assert message in str(info.value)


def test_a_payment_beyond_funds_stops_at_the_rule(tmp_path):
    game = make_game(tmp_path, ACCOUNTS.replace('requires: funds(accounts["hr"]) >= amount',
                                                "requires: true"))
    e = start(game)
    with pytest.raises(RuleError, match="cannot pay 13 from accounts\\[hr\\]: has 4, and "
                                        "transfers cannot make up the rest"):
        play_labels(e, ["expense 13"])
