"""Otys (T-OT-01 .. T-OT-15): can Meeplang state each target as a small game that reads like the
rule sentence? Each test plays a worked example of the Otys rulebook (Ex. n) and checks its
numbers. Targets or parts the language cannot state are reported, not tested."""
import pytest

from meeplang.dsl.errors import UsageError
from meeplang.dsl.resolve import load_game

from ..helpers import make_game, play_labels, start


def names(e, zone):
    return [e.state["items"][x]["name"] for x in e.state["zones"][zone]]


def me(e, seat=0):
    return e.state["players"][seat]


# ------------------------------------------------------------------ T-OT-01
QUEUE = """
game: surfacing
players: 1
tables:
  divers: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}, {name: f}, {name: g}, {name: h}]
counters:
  batteries: {per: player, initial: 1, min: 0}
zones:
  queue: {per: player, capacity: 8}      # top first: S1 S2 S3 L1 L2 L3 L4 L5
items:
  diver: {per: player, from: divers, zone: queue}
formulas:
  diver_at(p, level): first([d for d in p.queue if position(d) == 3 + level])
flow:
  - turns: {first: 0, actions: [activate], per_turn: 1, until: one_round}
actions:
  activate:
    choose: level from 1 to 5
    effect: |
      do one of [surface, oxygen] with diver = diver_at(you, level)
  surface:
    takes: diver
    effect: move diver to queue at top
  oxygen:                                  # the oxygen reserve cancels the diver's ascent
    takes: diver
    effect: pay 1 batteries
scoring: {score: batteries}
"""


def test_target_t_ot_01_surfacing_moves_to_top_and_shifts_the_rest(tmp_path):
    game = make_game(tmp_path, QUEUE)
    e = start(game, players=1)
    assert names(e, "queue@0") == list("abcdefgh")  # S1 S2 S3 = a b c, L1..L5 = d e f g h
    play_labels(e, ["activate 3", "surface"])      # the diver at L3 (f) surfaces
    # Ex. 1 / §5.3: S1->S2, S2->S3, S3->L1, L1->L2, L2->L3; L4 and L5 stay put
    assert names(e, "queue@0") == list("fabcdegh")
    assert me(e)["batteries"] == 1
    e = start(game, players=1)
    play_labels(e, ["activate 3", "oxygen"])       # the oxygen reserve cancels the ascent
    assert names(e, "queue@0") == list("abcdefgh") and me(e)["batteries"] == 0
    e = start(game, players=1)
    me(e)["batteries"] = 0
    play_labels(e, ["activate 2"])                 # no battery: the reserve is not offered,
    assert e.decision is None and names(e, "queue@0") == list("eabcdfgh")   # the diver surfaces


# ------------------------------------------------------------------ T-OT-02
THRUSTER = """
game: thruster
players: 1
options:
  capacity_after_third: {default: 4, min: 3, max: 5, doc: "Mechanic capacity after a 3rd upgrade [?]"}
tables:
  divers: [{name: a}, {name: b}, {name: c}, {name: d}, {name: metals}, {name: f}, {name: g}, {name: h}]
counters:
  batteries: {per: player, initial: 3, min: 0}
  credits: {per: player, initial: 3, min: 0}
  mechanic: {per: player, initial: 0, min: 0, max: 3}   # upgrades done
zones:
  queue: {per: player}                                  # S1 S2 S3 L1 .. L5
items:
  diver: {per: player, from: divers, zone: queue}
formulas:
  level_of(d): position(d) - 3
  move_capacity(p): "[1, 2, 3, capacity_after_third][p.mechanic]"
flow:
  - turns: {first: 0, actions: [thruster, upgrade_mechanic, stop], until: all_passed}
actions:
  thruster:
    choose: diver in queue where level_of(diver) >= 1
    requires: batteries >= 1
    effect: |
      choose level from 1 to 5 where level != level_of(diver) and abs(level - level_of(diver)) <= move_capacity(you)
      pay 1 batteries
      move diver to queue at position 3 + level           # the divers it passes close the gap
  upgrade_mechanic:
    requires: mechanic < 3 and credits >= 1
    effect: |
      pay 1 credits
      add 1 to mechanic
  stop: {effect: pass}
scoring: {score: batteries}
"""


def test_target_t_ot_02_thruster_moves_by_up_to_the_mechanic_capacity(tmp_path):
    """Met. The thruster is one `move diver to queue at position 3 + level`: the divers it
    passes shift by the zone's order, the reach is `move_capacity` read from the Mechanic track
    (the value after a 3rd upgrade one option [?]), and a move beyond it is refused."""
    game = make_game(tmp_path, THRUSTER)
    e = start(game, players=1)
    play_labels(e, ["upgrade_mechanic", "upgrade_mechanic"])   # capacity 3 (Ex. 3)
    play_labels(e, ["thruster diver#0.5", "4"])                 # the Metals expert L2 -> L4
    assert names(e, "queue@0") == ["a", "b", "c", "d", "f", "g", "metals", "h"]  # f, g move up
    assert me(e)["batteries"] == 2
    play_labels(e, ["thruster diver#0.5", "2"])                 # and back up L4 -> L2: f, g move down
    assert names(e, "queue@0") == list("abcd") + ["metals", "f", "g", "h"]
    # the same move at capacity 1 is refused
    e = start(game, players=1)
    play_labels(e, ["thruster diver#0.5"])
    assert e.decision.labels == ["1", "3"]
    with pytest.raises(UsageError, match="'4' is not one of the options; legal: 1, 3"):
        e.choose_label("4")
    # a technician is upgraded at most 3 times; the 4th capacity is one parameter
    e = start(game, players=1, options={"capacity_after_third": 5})
    me(e)["credits"] = 4
    play_labels(e, ["upgrade_mechanic"] * 3)
    assert "upgrade_mechanic" not in e.decision.labels
    with pytest.raises(UsageError, match=r"requires mechanic < 3 and credits >= 1"):
        e.choose_label("upgrade_mechanic")
    play_labels(e, ["thruster diver#0.4"])                     # L1: capacity 5 reaches every level
    assert e.decision.labels == ["2", "3", "4", "5"]


# ------------------------------------------------------------------ T-OT-03
KEYS = """
game: keys
players: 1
options:
  hacker_start: {default: 6, min: 3, max: 8, doc: "keys placed before the first recovery [LOST]; [EXT] says 6"}
  already_played: {default: false, doc: "test setup: keys 2-5 and the X key are already in the row"}
counters:
  hacker: {per: player, initial: 0, min: 0, max: 3}     # upgrades: one notch left each
zones:
  keys: {per: player}                                   # available, active side up
  key_row: {per: player}                                # the row below the board, leftmost first
  neutral_supply: {}
items:                                                  # each key says where it goes back
  key: {per: player, count: 5, zone: keys, fields: {number: n, recovery: return_key}}
  own_x: {per: player, count: 1, zone: keys, fields: {recovery: return_key}}
  neutral_x: {count: 12, zone: neutral_supply, fields: {recovery: return_to_supply}}
formulas:
  recovery_threshold(p): hacker_start - p.hacker
setup: |
  move top(neutral_supply) to keys
  if already_played:
    for each k in [k for k in keys if k.kind == "own_x" or (k.kind == "key" and k.number >= 2)]:
      move k to key_row
flow:
  - turns: {first: 0, actions: [play_key, upgrade_hacker, stop], until: all_passed}
actions:
  play_key:
    choose: key in keys
    effect: move key to key_row                         # flipped, leftmost free place
  upgrade_hacker:
    requires: hacker < 3
    effect: add 1 to hacker
  stop: {effect: pass}
  return_key: {takes: k, effect: move k to keys}
  return_to_supply: {takes: k, effect: move k to neutral_supply}
triggers:
  hacker_recovery:
    when: as soon as count(key_row) >= recovery_threshold(you)
    effect: |
      for each k in key_row:
        do k.recovery with k = k
scoring: {score: count(keys)}
"""


def test_target_t_ot_03_key_row_meets_the_hacker_and_recovers_keys(tmp_path):
    """Met. Recovery is one `as soon as` on the player's own key row (watched for each seat),
    the threshold one formula of the Hacker track; each key holds where it goes back as a value
    (`do k.recovery`), so a neutral X key returns to the supply with no table by kind."""
    game = make_game(tmp_path, KEYS)
    e = start(game, players=1, options={"already_played": True})
    assert [e.state["items"][k]["kind"] for k in e.state["zones"]["keys@0"]] == ["key", "neutral_x"]
    play_labels(e, ["play_key key#0.1"])     # Ex. 1: key 1 meets the Hacker (6th key placed)
    assert e.state["zones"]["key_row@0"] == []
    assert sorted(e.state["zones"]["keys@0"]) == sorted(
        ["key#0.1", "key#0.2", "key#0.3", "key#0.4", "key#0.5", "own_x#0.1", "neutral_x#1"])
    # a neutral X key played into the row goes back to the general supply; one upgrade: 5 keys
    e = start(game, players=1)
    play_labels(e, ["upgrade_hacker", "play_key neutral_x#1", "play_key key#0.1",
                    "play_key key#0.2", "play_key key#0.3"])
    assert len(e.state["zones"]["key_row@0"]) == 4 and len(e.state["zones"]["neutral_supply"]) == 11
    play_labels(e, ["play_key key#0.4"])     # the 5th key meets the Hacker moved one notch left
    assert e.state["zones"]["key_row@0"] == []
    assert "neutral_x#1" in e.state["zones"]["neutral_supply"]
    assert len(e.state["zones"]["keys@0"]) == 6


# ------------------------------------------------------------------ T-OT-04
ROTATION = """
game: rotation
players: [1, 2]
tables:
  sponsors: [{id: 3}, {id: 1}, {id: 2}, {id: 4}, {id: 5}]          # display levels 1..5 at setup
  levels: [1, 2, 3, 4, 5]
counters:
  credits: {per: player, initial: 0, min: 0}
zones:
  display: {}                                   # one Sponsor slot per level, level 1 first
  reward_display: {each: levels}                # 2 Reward slots per level: they never rotate
  bag: {}
  keys: {per: player}
  key_row: {per: player}
items:
  sponsor: {from: sponsors, zone: display, fields: {side: '"standard"'}}
  reward: {count: 10, zone: bag}
  key: {per: player, count: 5, zone: key_row, fields: {number: n}}
  own_x: {per: player, count: 1, zone: keys}
formulas:
  sponsor_at(level): first([s for s in display if position(s) == level])
setup: |
  for each l in levels:
    deal 2 from bag to reward_display[l]
  for each k in key_row:
    if k.number not in [2, 4]:
      move k to keys                            # Ex. 2: keys 2 and 4 have been played
flow:
  - turns: {first: 0, actions: [play_x_key], per_turn: 1, until: one_round}
actions:
  play_x_key:
    choose: level from 1 to 5
    requires: any(k.kind == "own_x" for k in keys)
    effect: |
      move last(display) to display at top      # the rotation: level 5 -> 1, the others down one
      may do use_sponsor with level = level
      move first([k for k in keys if k.kind == "own_x"]) to key_row
  use_sponsor:
    takes: level
    effect: |
      let s = sponsor_at(level)
      if s.id == 1:
        gain 1 credits
      elif s.id == 3:
        choose played in key_row                # recover one own played key; the row closes up
        move played to keys
scoring: {score: count(keys)}
"""


def test_target_t_ot_04_x_key_rotates_the_sponsors_not_the_rewards(tmp_path):
    e = start(make_game(tmp_path, ROTATION), players=1)
    rewards = {l: list(e.state["zones"][f"reward_display[{l}]"]) for l in range(1, 6)}
    ids = lambda: [e.state["items"][s]["id"] for s in e.state["zones"]["display"]]  # noqa: E731
    assert ids() == [3, 1, 2, 4, 5]
    play_labels(e, ["play_x_key 2"])            # Ex. 2: the X key at level 2
    assert ids() == [5, 3, 1, 2, 4]             # Sponsor 3 moved from level 1 to level 2
    assert {l: e.state["zones"][f"reward_display[{l}]"] for l in range(1, 6)} == rewards
    assert e.decision.labels == ["use_sponsor", "skip"]
    play_labels(e, ["use_sponsor"])
    assert e.decision.labels == ["key#0.2", "key#0.4"]
    play_labels(e, ["key#0.4"])                 # Pauline recovers key 4 with Sponsor 3
    assert e.state["zones"]["key_row@0"] == ["key#0.2", "own_x#0.1"]
    assert "key#0.4" in e.state["zones"]["keys@0"]
    # the rotation is for everyone, for the rest of the game: a second X key rotates again
    e = start(make_game(tmp_path, ROTATION, name="two"), players=2)
    play_labels(e, ["play_x_key 5", "skip", "play_x_key 4", "use_sponsor"])
    assert ids() == [4, 5, 3, 1, 2] and me(e, 1)["credits"] == 1   # P2 finds Sponsor 1 at level 4


# ------------------------------------------------------------------ T-OT-05
TWICE = """
game: twice
players: 1
tables:
  sponsors:                                                 # both sides declared on the tile
    - {id: 2, standard: "may do diver.action 2 times", advanced: "may do diver.action\\ndo one of reward_tokens[level]"}
    - {id: 1, standard: "may do diver.action", advanced: "may do diver.action"}
    - {id: 3, standard: "may do diver.action", advanced: "may do diver.action"}
  divers: [{role: fuels, action: fuels_action}, {role: engineer, action: engineer_action}]   # L1, L2
  reward_tokens:                                            # the immediate sides at each level
    1: ["gain 2 credits", "gain 1 notoriety"]
    2: ["gain 1 credits", "gain 2 notoriety"]
rule_text:
  sponsors: {fields: [standard, advanced], takes: [diver, level]}
  divers: {fields: [action]}
  reward_tokens: {}
counters:
  credits: {per: player, initial: 3, min: 0}
  notoriety: {per: player, initial: 0, min: 0}
  mechanic: {per: player, initial: 0, min: 0, max: 3}
  hacker: {per: player, initial: 0, min: 0, max: 3}
zones:
  display: {}
  queue: {per: player}
  zone1: {per: player, capacity: 2}
  supply: {}
items:
  sponsor: {from: sponsors, zone: display, fields: {shown: none}}   # the side shown: its effect
  diver: {per: player, from: divers, zone: queue}
  fuel: {count: 5, zone: supply}
formulas:
  at_level(z, level): first([x for x in z if position(x) == level])
setup: |
  do place_sponsors
flow:
  - turns: {first: 0, actions: [activate], free_actions: [complete_contract], per_turn: 1,
            free_after_last: true, until: one_round}
actions:
  place_sponsors:                                           # the standard game: standard sides
    takes: []
    effect: |
      for each s in display:
        set s.shown to s.standard
  activate:
    choose: level from 1 to 2
    effect: do at_level(display, level).shown with diver = at_level(queue, level), level = level
  fuels_action: {effect: move top(supply) to zone1}
  engineer_action:
    effect: |
      pay 1 credits
      do one of [upgrade_mechanic, upgrade_hacker]
  upgrade_mechanic: {effect: add 1 to mechanic}
  upgrade_hacker: {effect: add 1 to hacker}
  complete_contract:                                        # needs 1 fuel, worth 3
    requires: count(zone1) >= 1
    effect: |
      move top(zone1) to supply
      gain 3 notoriety
scoring: {score: notoriety}
"""


def test_target_t_ot_05_sponsor_2_does_the_diver_action_twice(tmp_path):
    """Sponsor 2's standard side re-invokes the activated diver's action by reference (`may do
    diver.action 2 times`: the diver's action is a value held on the diver); contracts may be
    completed between the two; both sides are rule text declared on the tile."""
    game = make_game(tmp_path, TWICE)
    e = start(game, players=1)
    play_labels(e, ["activate 1", "fuels_action"])          # Sponsor 2 at level 1: Fuels expert
    assert e.decision.labels == ["fuels_action", "skip", "complete_contract"]
    play_labels(e, ["complete_contract", "fuels_action"])   # a contract between the two actions
    assert me(e)["notoriety"] == 3 and len(e.state["zones"]["zone1@0"]) == 1
    assert e.decision.labels == ["complete_contract", "end turn"]   # no third action
    # a diver with two options may choose a different one each time
    e = start(make_game(tmp_path, TWICE.replace("- {id: 2,", "- {id: 0,").replace(
        "- {id: 1, standard: \"may do diver.action\"", "- {id: 2, standard: \"may do diver.action 2 times\""),
        name="eng"), players=1)
    play_labels(e, ["activate 2", "engineer_action", "upgrade_mechanic", "engineer_action",
                    "upgrade_hacker"])
    assert (me(e)["mechanic"], me(e)["hacker"], me(e)["credits"]) == (1, 1, 1)
    # without Sponsor 2, once
    e = start(make_game(tmp_path, TWICE.replace("may do diver.action 2 times", "may do diver.action"),
                        name="once"), players=1)
    play_labels(e, ["activate 1", "fuels_action"])
    assert e.decision.labels == ["complete_contract", "end turn"]   # no second action


ADVANCED = """
variant: advanced
extends: twice
actions:
  place_sponsors:                                           # the advanced mode: tile by tile
    effect: |
      for each s in display:
        roll d2 as coin
        set s.shown to (if coin == 2 then s.advanced else s.standard)
"""


def advanced_mode(tmp_path):
    """The advanced mode is a variant replacing the setup action, not an option flag."""
    make_game(tmp_path, TWICE)
    (tmp_path / "g" / "variants").mkdir()
    (tmp_path / "g" / "variants" / "advanced.yaml").write_text(ADVANCED, encoding="utf-8")
    return load_game(str(tmp_path / "g"), "advanced")


def test_target_t_ot_05_advanced_side_gains_one_reward_instead(tmp_path):
    """The advanced side of Sponsor 2: the diver's action once, then the immediate bonus of one
    of the 2 Reward tokens at its level (discarding and refilling the token is not modelled)."""
    game = advanced_mode(tmp_path)
    advanced = next(k for k in range(20) if start(game, players=1, seed=k).state["items"][
        "sponsor#1"]["shown"].endswith("[level]"))
    e = start(game, players=1, seed=advanced)
    play_labels(e, ["activate 1", "fuels_action"])
    assert e.decision.labels == ["gain 2 credits", "gain 1 notoriety", "complete_contract"]
    play_labels(e, ["gain 1 notoriety"])
    assert (me(e)["notoriety"], me(e)["credits"], len(e.state["zones"]["zone1@0"])) == (1, 3, 1)
    assert e.decision.labels == ["complete_contract", "end turn"]   # no second diver action


def test_target_t_ot_05_advanced_mode_draws_each_tile_side(tmp_path):
    game = make_game(tmp_path, TWICE)
    advanced = advanced_mode(tmp_path)
    sides = lambda e: ["advanced" if e.state["items"][s]["shown"] == e.state["items"][s]["advanced"]  # noqa: E731
                       and e.state["items"][s]["shown"] != e.state["items"][s]["standard"]
                       else "standard" for s in e.state["zones"]["display"]]
    assert all(set(sides(start(game, players=1, seed=k))) == {"standard"} for k in range(5))
    drawn = [sides(start(advanced, players=1, seed=k)) for k in range(12)]
    assert any("advanced" in d for d in drawn)             # Sponsor 2's side is drawn
    assert len({tuple(d) for d in drawn}) > 1              # and differs from game to game


# ------------------------------------------------------------------ T-OT-06
SPY = """
game: spy
players: [2, 4]
tables:
  levels: [1, 2, 3]
  mine: [{role: spy, action: spy_action}, {role: spy, action: spy_action}, {role: spy, action: spy_action}]   # seat 0: a Spy at L1, L2 and L3
  theirs: [{role: fuels, action: fuels_action}, {role: spy, action: spy_action}, {role: engineer, action: engineer_action}]   # every other seat
rule_text:                                                # a diver's action is a value on the tile
  mine: {fields: [action]}
  theirs: {fields: [action]}
counters:
  credits: {per: player, initial: 3, min: 0}
  mechanic: {per: player, initial: 0, min: 0, max: 3}
zones:
  queue: {per: player}                                     # L1, L2, L3 (no surface here)
  dig: {per: player, each: levels, capacity: 3}
  supply: {}
  spare: {}
  deck: {}
  drawn: {per: player, visibility: owner}
  hand: {per: player, visibility: owner}                  # private contracts
items:
  diver: {per: player, from: theirs, zone: queue, fields: {module: false}}
  spy_diver: {from: mine, zone: spare, fields: {module: false}}
  cube: {count: 6, zone: supply, fields: {type: '"fuel"'}}
  contract: {count: 8, zone: deck, fields: {points: n}}
formulas:
  diver_at(p, level): first([d for d in p.queue if position(d) == level])
  beside(p): "[q for q in others if q == left(p) or q == right(p)]"
setup: |
  for each d in players[0].queue:                          # seat 0 plays three Spies instead
    move d to spare
  for each s in [x for x in spare if x.kind == "spy_diver"]:
    move s to players[0].queue
flow:
  - turns: {first: 0, actions: [activate], per_turn: 1, until: one_round}
actions:
  activate:
    choose: level in levels
    requires: diver_at(you, level) != none
    effect: |
      let d = diver_at(you, level)
      do d.action with diver = d, level = level, copied = false
  fuels_action:                                            # each acts on YOUR board
    takes: [diver, level, copied]
    effect: move top(supply) to dig[level]
  engineer_action:
    takes: [diver, level, copied]
    effect: |
      pay 1 credits
      add 1 to mechanic
  spy_action:
    takes: [diver, level, copied]
    effect: |
      if not diver.module:
        pay 1 credits
      do one of [draw_contracts, copy_neighbour] with level = level, copied = copied
  draw_contracts:
    takes: [level, copied]
    effect: |
      deal 4 from deck to drawn
      choose kept in drawn
      move kept to hand
      for each c in drawn:
        move c to deck at bottom
  copy_neighbour:                                          # a copied Spy only draws contracts
    takes: [level, copied]
    requires: not copied
    effect: |
      choose neighbour in beside(you)
      let d = diver_at(neighbour, level)
      do d.action with diver = d, level = level, copied = true
scoring: {score: credits}
"""


def test_target_t_ot_06_spy_copies_a_neighbour_diver_on_its_own_board(tmp_path):
    text = SPY
    game = make_game(tmp_path, text)
    e = start(game, players=2)
    assert [e.state["items"][d]["role"] for d in e.state["zones"]["queue@0"]] == ["spy"] * 3
    play_labels(e, ["activate 1", "copy_neighbour"])
    assert e.decision.labels == ["1"]          # 2 players: left and right are the same opponent
    play_labels(e, ["1"])                      # copies the Fuels expert at L1 of seat 1
    assert len(e.state["zones"]["dig[1]@0"]) == 1 and e.state["zones"]["dig[1]@1"] == []
    assert me(e, 0)["credits"] == 2
    # a copied Engineer's own cost is paid too, on the spy owner's technicians
    e = start(game, players=2)
    play_labels(e, ["activate 3", "copy_neighbour", "1"])
    assert (me(e, 0)["credits"], me(e, 0)["mechanic"], me(e, 1)["mechanic"]) == (1, 1, 0)
    # a copied Spy only draws contracts: draw 4, keep 1 (private), 3 to the bottom
    e = start(game, players=2)
    play_labels(e, ["activate 2", "copy_neighbour", "1"])
    assert e.decision.labels == ["contract#1", "contract#2", "contract#3", "contract#4"]
    play_labels(e, ["contract#3"])
    assert e.state["zones"]["hand@0"] == ["contract#3"] and me(e, 0)["credits"] == 1
    assert e.state["zones"]["deck"] == ["contract#5", "contract#6", "contract#7", "contract#8",
                                        "contract#1", "contract#2", "contract#4"]
    assert e.view(1)["zones"]["hand@0"] != ["contract#3"]   # hidden from the opponent
    # with 3 players, both neighbours are offered
    e = start(make_game(tmp_path, text, name="three"), players=3)
    play_labels(e, ["activate 1", "copy_neighbour"])
    assert sorted(e.decision.labels) == ["1", "2"]


# ------------------------------------------------------------------ T-OT-07
CONTRACTS = """
game: contracts
players: 1
tables:
  levels: [1, 2, 3, 4, 5]
  capacities: {1: 3, 2: 3, 3: 4, 4: 5, 5: 6}
  cubes:                                  # the dig zones of the examples (start = zone level)
    - {type: plant, start: 1}
    - {type: plant, start: 1}
    - {type: metal, start: 1}
    - {type: plant, start: 2}
    - {type: metal, start: 2}
    - {type: fuel, start: 2}
    - {type: technology, start: 3}
    - {type: fuel, start: 3}
    - {type: fuel, start: 3}
    - {type: plant, start: 4}
    - {type: plant, start: 4}
    - {type: metal, start: 4}
    - {type: metal, start: 4}
    - {type: plant, start: 5}
    - {type: metal, start: 5}
    - {type: fuel, start: 5}
    - {type: plant, start: 0}
  cards:
    - {name: one_one_one, points: 2, needs: [], groups: [1, 1, 1]}
    - {name: tech_fuel, points: 2, needs: [technology, fuel], groups: []}
    - {name: two_two, points: 4, needs: [], groups: [2, 2]}
    - {name: rodrigue, points: 3, needs: [plant, plant, metal], groups: []}
counters:
  notoriety: {per: player, initial: 0, min: 0}
zones:
  dig: {per: player, each: levels, capacity: "capacities[key]"}
  supply: {}
  public: {}
  discard: {}
items:
  cube: {from: cubes, zone: supply}
  contract: {from: cards, zone: public}
formulas:
  kinds(cubes): "[x.type for x in cubes]"
  # only the cubes required: the exact resources named, then groups of one type each, all
  # groups of different types (a free combination)
  fits(cubes, c): count(cubes) == count(c.needs) + sum(c.groups) and contains(kinds(cubes), c.needs) and fits_groups(kinds(cubes), c.groups)
  zones_for(p, c): "[l for l in levels if any(fits(s, c) for s in subsets(p.dig[l]))]"
setup: |
  for each c in supply:
    if c.start > 0:
      move c to dig[c.start]
flow:
  - turns: {first: 0, actions: [find_plant], free_actions: [complete_contract], per_turn: 1,
            free_after_last: true, until: one_round}
actions:
  find_plant:                             # Ex. 4: the Plants expert at L5
    effect: move first([x for x in supply if x.type == "plant"]) to dig[5]
  complete_contract:
    choose: contract in public where not empty(zones_for(you, contract))
    effect: |
      choose level in zones_for(you, contract)
      choose spent from subsets of dig[level] where fits(spent, contract)
      for each x in spent:
        move x to supply
      gain contract.points notoriety
      move contract to discard
scoring: {score: notoriety}
"""


def test_target_t_ot_07_fixed_and_free_combinations_from_one_zone(tmp_path):
    """Met. Completing a contract is a free action; the engine derives the zones and the cube
    subsets that fit. Free actions do not nest, so its own questions offer nothing else."""
    e = start(make_game(tmp_path, CONTRACTS), players=1)
    types = lambda z: sorted(e.state["items"][x]["type"] for x in e.state["zones"][z])  # noqa: E731
    # before the plant is found: Rodrigue's 2 plants + 1 metal is met by zone 1 only
    assert e.decision.labels == ["find_plant", "complete_contract contract#1",
                                 "complete_contract contract#2", "complete_contract contract#3",
                                 "complete_contract contract#4"]
    play_labels(e, ["complete_contract contract#1"])    # Ex. 5(b) 1-1-1
    assert e.decision.labels == ["2", "5"]              # zone 1 {plant, plant, metal} is refused
    play_labels(e, ["2"])
    assert e.decision.labels == ["[cube#4, cube#5, cube#6]"]
    play_labels(e, ["[cube#4, cube#5, cube#6]"])
    assert me(e)["notoriety"] == 2 and e.state["zones"]["dig[2]@0"] == []
    play_labels(e, ["complete_contract contract#2"])    # Ex. 5(a) exactly {technology, fuel}
    assert e.decision.labels == ["3"]
    play_labels(e, ["3"])
    assert e.decision.labels == ["[cube#7, cube#8]", "[cube#7, cube#9]"]
    play_labels(e, ["[cube#7, cube#9]"])
    assert types("dig[3]@0") == ["fuel"]
    play_labels(e, ["complete_contract contract#3"])    # 2-2 (4 cubes): never zones 1-2 (capacity 3)
    assert e.decision.labels == ["4"]
    play_labels(e, ["4", "[cube#10, cube#11, cube#12, cube#13]"])
    assert me(e)["notoriety"] == 8


def test_target_t_ot_07_contract_completed_mid_turn_ex4(tmp_path):
    e = start(make_game(tmp_path, CONTRACTS), players=1)
    play_labels(e, ["find_plant", "complete_contract contract#4"])   # Ex. 4 (Rodrigue)
    assert e.decision.labels == ["1", "4", "5"]
    play_labels(e, ["5"])
    assert len(e.decision.labels) == 1                  # 2 plants + 1 metal; the fuel stays
    play_labels(e, e.decision.labels)
    assert me(e)["notoriety"] == 3
    assert [e.state["items"][x]["type"] for x in e.state["zones"]["dig[5]@0"]] == ["fuel"]
    assert e.state["zones"]["discard"] == ["contract#4"]
    assert e.decision.labels[-1] == "end turn"      # free actions go on after the one main action
    play_labels(e, ["end turn"])
    assert e.decision is None


def test_target_t_ot_07_a_contract_is_not_completed_again_inside_its_own_completion(tmp_path):
    """Free actions do not nest: while a completion asks for the zone, completing contracts is
    not offered, so the same contract and cubes cannot score twice on one choice."""
    e = start(make_game(tmp_path, CONTRACTS), players=1)
    play_labels(e, ["complete_contract contract#4"])    # Rodrigue: 2 plants + 1 metal
    assert e.decision.labels == ["1", "4"]
    with pytest.raises(UsageError,
                       match=r"'complete_contract contract#4' is not one of the options; legal: 1, 4$"):
        e.choose_label("complete_contract contract#4")
    play_labels(e, ["1", "[cube#1, cube#2, cube#3]"])
    assert me(e)["notoriety"] == 3 and e.state["zones"]["discard"] == ["contract#4"]
    assert e.state["zones"]["dig[1]@0"] == []
    # once it is done, the free action is offered again (the other contracts)
    assert e.decision.labels == ["find_plant", "complete_contract contract#1",
                                 "complete_contract contract#2", "complete_contract contract#3"]


# ------------------------------------------------------------------ T-OT-08
COMPLETE = """
game: complete
players: [2, 4]
tables:
  levels: [1, 2, 3, 4, 5]
  types: [metal, plant, fuel, technology]
  public_slots: {2: 2, 3: 3, 4: 3}            # 2 players: one of the 3 slots stays empty
  cubes: [{type: plant}, {type: plant}, {type: metal}, {type: fuel}]
  cards:
    - {points: 2, needs: [plant], credit: 1, battery: 0}
    - {points: 3, needs: [plant, metal], credit: 0, battery: 1}
    - {points: 1, needs: [fuel], credit: 1, battery: 1}
    - {points: 5, needs: [technology], credit: 0, battery: 0}
    - {points: 4, needs: [metal, metal], credit: 0, battery: 0}
counters:
  notoriety: {per: player, initial: 0, min: 0}
  credits: {per: player, initial: 0, min: 0}
  batteries: {per: player, initial: 0, min: 0}
zones:
  dig: {per: player, each: levels}
  reward_slot: {per: player, each: levels, capacity: 1}
  supply: {}
  tokens: {}
  deck: {}
  public: {capacity: "by_players(public_slots)", refill_from: deck}   # kept filled from the deck
  discard: {}
items:
  cube: {from: cubes, zone: supply}
  contract: {from: cards, zone: deck}
  reward: {count: 1, zone: tokens, fields: {permanent_credits: 2, permanent_notoriety: 0}}
formulas:
  how_many(cubes, t): count([x for x in cubes if x.type == t])
  fits(cubes, c): count(cubes) == count(c.needs) and all(how_many(cubes, t) == count([n for n in c.needs if n == t]) for t in types)
  completable(p, l, c): any(fits(s, c) for s in subsets(p.dig[l]))
setup: |
  for each c in supply:
    move c to dig[4]
  move top(tokens) to reward_slot[4]          # Ex. 7: the Scout's token, back side up in slot L4
flow:
  - turns: {first: 0, actions: [done], free_actions: [complete_contract], until: one_round}
actions:
  done: {effect: end turn}
  permanent_bonus:
    takes: token
    effect: |
      gain token.permanent_credits credits
      gain token.permanent_notoriety notoriety
  complete_contract:
    choose: level in levels where any(completable(you, level, c) for c in public)
    effect: |
      choose contract in public where completable(you, level, contract)
      choose spent from subsets of dig[level] where fits(spent, contract)
      for each x in spent:
        move x to supply
      gain contract.points notoriety
      gain contract.credit credits
      gain contract.battery batteries
      move contract to discard
triggers:
  permanent_reward:
    when: after complete_contract
    if: not empty(reward_slot[level])
    effect: may do permanent_bonus with token = first(reward_slot[level])
scoring: {score: notoriety, tie_break: [credits]}
"""


def test_target_t_ot_08_rewards_refill_and_the_permanent_reward(tmp_path):
    """Met. "Keep the public row filled from the deck" is declared on the row (`refill_from:`,
    its size from a player-count table), which also fills it after setup."""
    game = make_game(tmp_path, COMPLETE)
    e = start(game, players=2)
    assert e.state["zones"]["public"] == ["contract#1", "contract#2"]   # 2 players: 2 shown
    play_labels(e, ["complete_contract 4", "contract#1", "[cube#1]"])
    assert e.decision.labels[:2] == ["permanent_bonus", "skip"]        # "may" gain it
    play_labels(e, ["permanent_bonus"])
    assert (me(e)["notoriety"], me(e)["credits"], me(e)["batteries"]) == (2, 1 + 2, 0)
    assert e.state["zones"]["public"] == ["contract#2", "contract#3"]   # refilled at once
    assert e.state["zones"]["discard"] == ["contract#1"] and "cube#1" in e.state["zones"]["supply"]
    play_labels(e, ["complete_contract 4", "contract#2", "[cube#2, cube#3]", "permanent_bonus"])
    assert (me(e)["notoriety"], me(e)["credits"], me(e)["batteries"]) == (5, 3 + 2, 1)  # +2 again
    assert e.state["zones"]["public"] == ["contract#3", "contract#4"]
    play_labels(e, ["complete_contract 4", "contract#3", "[cube#4]", "skip"])
    assert (me(e)["notoriety"], me(e)["credits"], me(e)["batteries"]) == (6, 6, 2)
    assert e.state["zones"]["public"] == ["contract#4", "contract#5"]
    e = start(game, players=3)
    assert e.state["zones"]["public"] == ["contract#1", "contract#2", "contract#3"]


# ------------------------------------------------------------------ T-OT-09
CAPACITY = """
game: capacity
players: 1
tables:
  levels: [1, 2, 3, 4, 5]
  capacities: {1: 3, 2: 3, 3: 4, 4: 5, 5: 6}
counters:
  credits: {per: player, initial: 0, min: 0}
zones:
  dig: {per: player, each: levels, capacity: "capacities[key]"}   # declared once
  supply: {}
items:
  cube: {count: 30, zone: supply}
setup: |
  for each l in levels:
    repeat capacity(dig[l]) - 1 times:
      move top(supply) to dig[l]
flow:
  - turns: {first: 0, actions: [plants_expert], per_turn: 1, until: never}
actions:
  plants_expert:                       # with module: find 1 plant, + 1 credit; each part optional
    choose: level in levels
    effect: |
      may do find with level = level
      may do module_bonus
  find:                                # no `requires:`: a move into a full zone cannot be done
    takes: level
    effect: move top(supply) to dig[level]
  module_bonus: {effect: gain 1 credits}
scoring: {score: credits}
"""


def test_target_t_ot_09_dig_zone_capacities(tmp_path):
    """Met. The capacities are declared once (3/3/4/5/6 by level) and read back with
    `capacity()`; no rule repeats them: a find into a full zone is not offered because the move it
    would make cannot be done (legality derived from the effect), not because a `requires:` says
    `not full(...)`."""
    e = start(make_game(tmp_path, CAPACITY), players=1)
    assert [len(e.state["zones"][f"dig[{l}]@0"]) for l in range(1, 6)] == [2, 2, 3, 4, 5]
    play_labels(e, ["plants_expert 1", "find", "module_bonus"])   # zone 1 is now full (3)
    assert len(e.state["zones"]["dig[1]@0"]) == 3 and me(e)["credits"] == 1
    play_labels(e, ["plants_expert 1"])
    assert e.decision.labels == ["module_bonus", "skip"]        # nothing can be found there,
    play_labels(e, ["module_bonus"])                            # but the bonus is still taken
    assert len(e.state["zones"]["dig[1]@0"]) == 3 and me(e)["credits"] == 2
    play_labels(e, ["plants_expert 5", "find", "skip"])         # zone 5 holds 6
    assert len(e.state["zones"]["dig[5]@0"]) == 6
    play_labels(e, ["plants_expert 5"])
    assert e.decision.labels == ["module_bonus", "skip"]        # and no more



# ------------------------------------------------------------------ T-OT-10
STORE = """
game: store
players: 1
options:
  trader_module: {default: false}
tables:
  types: [metal, plant, fuel, technology]
  rows: {1: {credits: 3, notoriety: 1}, 2: {credits: 2, notoriety: 0}, 3: {credits: 1, notoriety: 0}}
  sale_gain: {credits: gain sale_credits(row) credits, notoriety: gain sale_notoriety(row) notoriety}
  cubes:                                       # Ex. 6: the Store's setup state, and zone 5
    - {type: metal, at: store}
    - {type: plant, at: store}
    - {type: fuel, at: store}
    - {type: fuel, at: store}
    - {type: metal, at: zone}
    - {type: fuel, at: zone}
    - {type: fuel, at: zone}
    - {type: technology, at: supply}
counters:
  credits: {per: player, initial: 5, min: 0}
  notoriety: {per: player, initial: 0, min: 0}
zones:
  store: {each: types, capacity: 3}           # a column per resource, row 1 first
  zone5: {per: player, capacity: 6}
  supply: {}
items:
  cube: {from: cubes, zone: supply}
rule_text:
  sale_gain: {takes: [row]}
formulas:
  row_of(c): position(c)
  sale_credits(row): rows[row].credits + (if trader_module then 1 else 0)
  sale_notoriety(row): rows[row].notoriety + (if trader_module then 1 else 0)
  buy_price(t): max(0, rows[position(last(store[t]))].credits - (if trader_module then 1 else 0))
setup: |
  for each c in [c for c in supply if c.at == "store"]:
    move c to store[c.type]                    # filled from the top down
  for each c in [c for c in supply if c.at == "zone"]:
    move c to zone5
flow:
  - turns: {first: 0, actions: [sell, buy], per_turn: 1, until: one_round}
actions:
  sell:
    choose: cube in zone5 where not full(store[cube.type])
    effect: |
      move cube to store[cube.type]            # the highest free slot of its column
      choose gain in ["credits", "notoriety"] where gain == "credits" or sale_notoriety(row_of(cube)) > 0
      do sale_gain[gain] with row = row_of(cube)
  buy:
    choose: type in types where not empty(store[type]) and not full(zone5) and credits >= buy_price(type)
    effect: |
      pay buy_price(type) credits
      move last(store[type]) to zone5          # the lowest occupied slot
scoring: {score: credits}
"""


def test_target_t_ot_10_store_columns_with_row_values(tmp_path):
    """Met. The Store is 4 columns of capacity 3 (`full()`), with a (credits, notoriety) row
    table read as `rows[row].credits`; the options of Ex. 6 are derived."""
    game = make_game(tmp_path, STORE)
    e = start(game, players=1)
    assert e.decision.labels == ["sell cube#5", "sell cube#6", "sell cube#7",
                                 "buy metal", "buy plant", "buy fuel"]   # technology: no cube
    play_labels(e, ["sell cube#5"])            # the metal goes to row 2
    assert e.decision.labels == ["credits"]    # no notoriety below the top row
    play_labels(e, ["credits"])
    assert me(e)["credits"] == 5 + 2 and e.state["zones"]["store[metal]"] == ["cube#1", "cube#5"]
    assert e.state["zones"]["zone5@0"] == ["cube#6", "cube#7"]
    e = start(game, players=1)
    play_labels(e, ["sell cube#6", "credits"])  # a fuel goes to row 3
    assert me(e)["credits"] == 5 + 1
    for t, price in [("metal", 3), ("plant", 3), ("fuel", 2)]:
        e = start(game, players=1)
        play_labels(e, [f"buy {t}"])
        assert me(e)["credits"] == 5 - price
    e = start(game, players=1)
    play_labels(e, ["buy fuel"])
    assert e.state["zones"]["store[fuel]"] == ["cube#3"]    # the row-2 fuel was taken
    # a technology would go to row 1: 3 credits or 1 notoriety
    tech = STORE.replace("{type: technology, at: supply}", "{type: technology, at: zone}")
    e = start(make_game(tmp_path, tech, name="tech"), players=1)
    play_labels(e, ["sell cube#8"])
    assert e.decision.labels == ["credits", "notoriety"]
    play_labels(e, ["notoriety"])
    assert me(e)["notoriety"] == 1 and me(e)["credits"] == 5
    # with the Trader's module: the metal sale gives 3 credits or 1 notoriety; buying costs 1 less
    e = start(game, players=1, options={"trader_module": True})
    play_labels(e, ["sell cube#5"])
    assert e.decision.labels == ["credits", "notoriety"]
    play_labels(e, ["credits"])
    assert me(e)["credits"] == 5 + 3
    e = start(game, players=1, options={"trader_module": True})
    play_labels(e, ["buy fuel"])
    assert me(e)["credits"] == 5 - 1


# ------------------------------------------------------------------ T-OT-11
SCOUT = """
game: scout
players: 1
tables:
  levels: [1, 2, 3, 4, 5]
  rewards:                                     # bag order: 2 per level at setup, one left over
    - {name: r1, immediate: battery, colours: [], permanent: notoriety}
    - {name: r2, immediate: battery, colours: [], permanent: notoriety}
    - {name: r3, immediate: battery, colours: [], permanent: notoriety}
    - {name: r4, immediate: battery, colours: [], permanent: notoriety}
    - {name: r5, immediate: battery, colours: [], permanent: notoriety}
    - {name: r6, immediate: battery, colours: [], permanent: notoriety}
    - {name: A, immediate: resource, colours: [fuel, metal], permanent: credits}
    - {name: B, immediate: battery, colours: [], permanent: notoriety}
    - {name: r9, immediate: battery, colours: [], permanent: notoriety}
    - {name: r10, immediate: battery, colours: [], permanent: notoriety}
    - {name: C, immediate: battery, colours: [], permanent: credits}
    - {name: D, immediate: battery, colours: [], permanent: notoriety}
  cubes: [{type: fuel}, {type: metal}]
  immediate_effect:                            # the token's immediate side
    resource: |
      choose colour in token.colours
      move first([c for c in supply if c.type == colour]) to dig[level]
    battery: gain 1 batteries
rule_text:
  immediate_effect: {takes: [token, level]}
counters:
  credits: {per: player, initial: 3, min: 0}
  batteries: {per: player, initial: 0, min: 0}
zones:
  bag: {visibility: hidden, recycle: reward_discard}    # empty: the discards go back in first
  reward_display: {each: levels, capacity: 2, refill_from: bag}   # each level keeps 2 tokens
  reward_discard: {}
  reward_slot: {per: player, each: levels, capacity: 1}
  dig: {per: player, each: levels}
  supply: {}
items:
  reward: {from: rewards, zone: bag}
  cube: {from: cubes, zone: supply}
setup: |
  move last(bag) to reward_slot[4]             # Pauline already has token D in her L4 slot
flow:
  - turns: {first: 0, actions: [scout, sponsor_2_advanced], per_turn: 1, until: never}
actions:
  scout:
    choose: level in levels
    requires: credits >= 2
    effect: |
      pay 2 credits
      choose token in reward_display[level]
      do immediate_effect[token.immediate] with token = token, level = level
      for each old in reward_slot[level]:
        move old to reward_discard
      move token to reward_slot[level]         # flipped: its permanent side
  sponsor_2_advanced:
    choose: level in levels
    effect: |
      choose token in reward_display[level]
      do immediate_effect[token.immediate] with token = token, level = level
      move token to reward_discard
scoring: {score: credits}
"""


def test_target_t_ot_11_scout_and_the_reward_bag(tmp_path):
    """Met. "Each level keeps its 2 tokens, refilled from the bag" is declared on the display
    (`refill_from: bag`, which also lays out the tokens after setup) and "discards recycled when
    it is empty" on the bag (`recycle:`), shared by the Scout and Sponsor 2."""
    e = start(make_game(tmp_path, SCOUT), players=1)
    name = lambda zone: [e.state["items"][x]["name"] for x in e.state["zones"][zone]]  # noqa: E731
    assert name("reward_display[4]") == ["A", "B"] and name("bag") == ["C"]
    play_labels(e, ["scout 4", "reward#7", "metal"])     # Ex. 7: Pauline takes A, chooses metal
    assert me(e)["credits"] == 3 - 2
    assert [e.state["items"][c]["type"] for c in e.state["zones"]["dig[4]@0"]] == ["metal"]
    assert name("reward_slot[4]@0") == ["A"] and name("reward_discard") == ["D"]
    assert name("reward_display[4]") == ["B", "C"] and name("bag") == []   # 2 tokens again
    # Sponsor 2's advanced side shares the refill; the bag is empty: the discards go back first
    play_labels(e, ["sponsor_2_advanced 4", "reward#8"])
    assert me(e)["batteries"] == 1
    assert name("reward_display[4]")[0] == "C" and len(name("reward_display[4]")) == 2
    assert sorted(name("reward_display[4]")[1:] + name("bag")) == ["B", "D"]
    assert name("reward_discard") == []
    assert e.decision.labels == ["sponsor_2_advanced 1", "sponsor_2_advanced 2",
                                 "sponsor_2_advanced 3", "sponsor_2_advanced 4",
                                 "sponsor_2_advanced 5"]   # 1 credit left: no Scout


# ------------------------------------------------------------------ T-OT-12
ENDING = """
game: ending
players: [2, 4]
tables:
  levels: [1, 2, 3, 4, 5]
counters:
  notoriety: {per: player, initial: 0, min: 0}
  ending: {initial: 0}
zones:
  dig: {per: player, each: levels}
  supply: {}
items:
  cube: {count: 40, zone: supply}
formulas:
  cubes_in_zones(p): count(p.dig)
flow:
  - turns: {first: 1, actions: [dive], per_turn: 1, until: never, until_round: ending == 1}
actions:
  dive:
    choose: points from 0 to 10
    effect: |
      gain points notoriety
      choose found from 0 to 2
      repeat found times:
        move top(supply) to dig[1 + found]
triggers:
  eighteen:
    when: as soon as notoriety >= 18              # watched for each player
    effect: set ending to 1
scoring:
  score: notoriety
  tie_break: [cubes_in_zones(you)]
"""


def test_target_t_ot_12_end_of_round_at_18_and_tie_breaks(tmp_path):
    """Met. "As soon as a player reaches 18" is a per-seat `as soon as` on their own notoriety;
    the round is finished by `until_round:`. Still a workaround: the end flag is a 0/1 counter."""
    e = start(make_game(tmp_path, ENDING), players=3)
    assert e.decision.player == 1                       # the first player
    play_labels(e, ["dive 9", "2", "dive 9", "1", "dive 9", "2"])
    play_labels(e, ["dive 9", "1"])                     # seat 1 reaches 18: the round goes on
    assert e.state["counters"]["ending"] == 1 and e.decision.player == 2
    play_labels(e, ["dive 9", "1"])
    assert e.decision.player == 0                       # the player to the right of the first one
    play_labels(e, ["dive 9", "1"])
    assert e.decision is None
    assert e.result["scores"] == [18, 18, 18]
    assert e.result["tie_breaks"] == [[3], [3], [2]]    # most cubes in the 5 dig zones
    assert e.result["winners"] == [0, 1]                # still tied: a shared win


# ------------------------------------------------------------------ T-OT-13
TIMERS = """
game: timers
players: 1
options:
  timer_step: {default: 1, min: 1, max: 3, doc: "spaces a Timer moves back each turn [?]"}
tables:
  types: [technology, plant, metal, fuel]          # ties in the Store: this order (player's choice)
  store_cubes: [{type: fuel}, {type: fuel}, {type: metal}, {type: plant}]
  solo_cubes: [{type: technology}, {type: plant}, {type: metal}, {type: fuel}]
  cards: [{points: 3}, {points: 2}, {points: 4}, {points: 1}]
counters:
  credits: {per: player, initial: 0, min: 0}
zones:
  timers: {}
  store: {each: types, capacity: 3}
  supply: {}
  track_supply: {}
  contract_supply: {}
  track: {}                                        # cubes on the score track (field: space)
  reserve: {}                                      # cubes near the contracts, in track order
  carried: {}                                      # cubes on contracts (field: carrier)
  box: {}
  deck: {}
  public: {}
  discard: {}
items:
  cube: {from: store_cubes, zone: supply}
  track_cube: {from: solo_cubes, zone: track_supply, fields: {space: 0}}
  contract_cube: {from: solo_cubes, zone: contract_supply, fields: {carrier: none}}
  contract: {from: cards, zone: deck}
  timer: {count: 2, zone: timers, fields: {space: 23}}
formulas:
  of_type(z, t): first([c for c in z if c.type == t])
setup: |
  for each c in supply:
    move c to store[c.type]
  # Ex. 8: one cube of each type on 21, 19, 17, 15, the scarcest in the Store highest
  let order = sorted(each t in types by count(store[t]))
  for each i in range(0, 3):
    set of_type(track_supply, order[i]).space to 21 - 2 * i
    move of_type(track_supply, order[i]) to track
  # Ex. 9: two contracts, ascending; the cubes of spaces 21 and 19 on them, the others in reserve
  deal 2 from deck to public
  for each k in sorted(each k in public by k.points):
    move k to public
  for each i in range(0, 3):
    let c = of_type(contract_supply, order[i])
    if i < 2:
      set c.carrier to [k for k in public][i]
      move c to carried
    else:
      move c to reserve
flow:
  - turns: {first: 0, actions: [move_timer], per_turn: 1, until: never}
actions:
  move_timer:                                      # at the end of each turn (the turn is elided)
    choose: which in timers
    effect: subtract timer_step from which.space
  place_in_store:                                  # the Trader's sale placement (T-OT-10), no gain
    takes: cube
    effect: move cube to store[cube.type]
triggers:
  timer_lands_on_a_cube:
    when: after move_timer
    if: any(c.space == which.space for c in track)
    effect: |
      let cube = first([c for c in track if c.space == which.space])
      do place_in_store with cube = cube
      for each x in [x for x in carried if x.type == cube.type]:
        move x.carrier to discard
        move x to box
      deal 1 from deck to public
      if not empty(reserve):
        set top(reserve).carrier to last(public)
        move top(reserve) to carried
scoring: {score: credits}
"""


def test_target_t_ot_13_solo_timer_lands_on_a_cube(tmp_path):
    e = start(make_game(tmp_path, TIMERS), players=1)
    it = e.state["items"]
    at = {it[c]["space"]: it[c]["type"] for c in e.state["zones"]["track"]}
    assert at == {21: "technology", 19: "plant", 17: "metal", 15: "fuel"}       # Ex. 8
    left, right = e.state["zones"]["public"]
    assert (it[left]["points"], it[right]["points"]) == (2, 3)                   # Ex. 9
    on = {it[c]["type"]: c_on for c in e.state["zones"]["carried"] for c_on in [it[c]["carrier"]]}
    assert on == {"technology": left, "plant": right}
    assert [it[c]["type"] for c in e.state["zones"]["reserve"]] == ["metal", "fuel"]
    play_labels(e, ["move_timer timer#1"])                 # 23 -> 22: nothing there
    assert e.state["zones"]["store[technology]"] == [] and len(e.state["zones"]["public"]) == 2
    play_labels(e, ["move_timer timer#1"])                 # 22 -> 21: the technology space (Ex. 10)
    assert [it[c]["type"] for c in e.state["zones"]["store[technology]"]] == ["technology"]
    assert e.state["zones"]["discard"] == [left]     # the 2-pt card carrying the tech cube
    assert [it[c]["type"] for c in e.state["zones"]["track"]] == ["plant", "metal", "fuel"]
    new = e.state["zones"]["public"][-1]
    assert e.state["zones"]["public"] == [right, new] and new not in (left, right)
    on = {it[c]["type"]: it[c]["carrier"] for c in e.state["zones"]["carried"]}
    assert on == {"plant": right, "metal": new}      # the next reserve cube in track order
    assert it["timer#1"]["space"] == 21 and e.state["players"][0]["credits"] == 0
    e = start(make_game(tmp_path, TIMERS, name="two"), players=1, options={"timer_step": 2})
    play_labels(e, ["move_timer timer#2"])                 # the distance is one parameter
    assert e.state["items"]["timer#2"]["space"] == 21 and len(e.state["zones"]["store[technology]"]) == 1


# ------------------------------------------------------------------ T-OT-14
SOLO_END = """
game: solo-end
players: 1
counters:
  notoriety: {per: player, initial: 12, min: 0}
  credits: {per: player, initial: 0}
tables:
  solo_timers: [{space: 16, zone: timers}, {space: 14, zone: timers}]   # first, second
zones:
  public: {}
  discard: {}
  timers: {}                                        # the Timers in play
  spent_timers: {}
items:
  contract: {count: 2, zone: public, fields: {points: "[5, 3][n - 1]"}}
  timer: {from: solo_timers, zone_field: zone}
flow:
  - turns: {first: 0, actions: [move_timer], free_actions: [complete_contract], until: never}
actions:
  complete_contract:
    choose: contract in public
    effect: |
      gain contract.points notoriety
      gain 1 credits                                # the contract's one-time bonus
      move contract to discard
  move_timer:                                       # end of turn: a Timer still in play, back 1
    choose: timer in timers
    effect: add -1 to timer.space
triggers:
  score_meets_a_timer:                              # after each contract, or a Timer's move,
    each: t in timers                               # each Timer met on its own
    when: as soon as notoriety >= t.space
    timing: immediately                             # is discarded
    effect: move t to spent_timers
  no_timer_left:                                    # the second one gone: the game ends at once
    when: as soon as empty(timers)
    timing: immediately
    effect: end game
scoring: {score: notoriety}
"""


def test_target_t_ot_14_solo_immediate_end(tmp_path):
    """Ex. 11: the Timers are items; reaching one discards it (one trigger instance per Timer,
    `each: t in timers`, so a score passing both meets both), and the game ends at once when
    no Timer is left (no flag counter picks the next Timer)."""
    game = make_game(tmp_path, SOLO_END.replace("{space: 16, zone: timers}",
                                                "{space: 16, zone: spent_timers}"))
    e = start(game, players=1)                      # Ex. 11: first Timer gone, second on 14
    assert e.decision.labels == ["move_timer timer#2", "complete_contract contract#1",
                                 "complete_contract contract#2"]
    play_labels(e, ["complete_contract contract#1"])  # 12 + 5 = 17 passes the Timer
    assert e.decision is None and e.result["scores"] == [17]
    assert e.state["players"][0]["credits"] == 0    # ended right after the score: no bonus
    with pytest.raises(UsageError, match="the game is over"):
        e.choose_label("complete_contract contract#2")   # the 3-pt contract is refused
    # the first Timer is discarded instead, and then only the second one moves
    e = start(make_game(tmp_path, SOLO_END.replace("space: 14", "space: 20"),
                        name="first"), players=1)
    assert [x for x in e.decision.labels if x.startswith("move")] == [
        "move_timer timer#1", "move_timer timer#2"]
    play_labels(e, ["complete_contract contract#1"])  # 17 >= 16: the first Timer goes
    assert e.decision is not None and e.state["zones"]["timers"] == ["timer#2"]
    assert e.state["players"][0]["credits"] == 1    # the action went on after the Timer
    assert [x for x in e.decision.labels if x.startswith("move")] == ["move_timer timer#2"]
    play_labels(e, ["move_timer timer#2", "move_timer timer#2"])  # 20 -> 19 -> 18
    assert e.state["items"]["timer#2"]["space"] == 18 and e.decision is not None
    play_labels(e, ["complete_contract contract#2"])  # 20 >= 18: the game ends at once
    assert e.decision is None and e.result["scores"] == [20]
    # a Timer that reaches the marker at the end of the turn ends the game too
    e = start(make_game(tmp_path, SOLO_END.replace("space: 14", "space: 18"),
                        name="timer"), players=1)
    play_labels(e, ["move_timer timer#1", "complete_contract contract#1"])  # 15 <= 17: discarded
    assert e.state["zones"]["spent_timers"] == ["timer#1"] and e.decision is not None
    play_labels(e, ["move_timer timer#2"])          # 18 -> 17 reaches the marker
    assert e.decision is None and e.result["scores"] == [17]
    # one score that passes both Timers meets both: the game ends at once (FR l.622)
    e = start(make_game(tmp_path, SOLO_END.replace("space: 14", "space: 15"),
                        name="both"), players=1)
    play_labels(e, ["complete_contract contract#1"])  # 17 passes 16 and 15
    assert e.decision is None and e.result["scores"] == [17]
    assert sorted(e.state["zones"]["spent_timers"]) == ["timer#1", "timer#2"]


# ------------------------------------------------------------------ T-OT-15
AUTHOR_BASE = """
game: author
players: 2
tables:
  divers:                                  # S1, L1.. (one surface slot here); a, b: no action here
    - {role: spy, action: spy_action}
    - {role: fuels, action: fuels_action}
    - {role: a, action: null}
    - {role: b, action: null}
rule_text:
  divers: {fields: [action]}
counters:
  credits: {per: player, initial: 3, min: 0}
  batteries: {per: player, initial: 1, min: 0}
zones:
  queue: {per: player}                     # S1, then L1, L2, L3
  dig: {per: player}
  supply: {}
items:
  diver: {per: player, from: divers, zone: queue}
  cube: {count: 4, zone: supply}
formulas:
  diver_at(p, level): first([d for d in p.queue if position(d) == 1 + level])
  beside(p): "[q for q in others if q == left(p) or q == right(p)]"
setup: |
  move first([d for d in players[0].queue if d.role == "fuels"]) to players[0].queue at top   # seat 0: Spy at L1
flow:
  - turns: {first: 0, actions: [activate], per_turn: 1, until: one_round}
actions:
  activate:
    choose: level from 1 to 3
    effect: |
      let d = diver_at(you, level)
      do d.action with level = level
      move d to queue at top                 # the activated diver surfaces
  spy_action:                                # pay 1 credit to copy a neighbour's diver
    takes: level
    choose: neighbour in beside(you)
    cost: {from: credits, copy_fee: {amount: 1, to: none}}   # to the supply
    effect: do copy with diver = diver_at(neighbour, level), level = level
  fuels_action:
    takes: level
    effect: move top(supply) to dig
  copy:                                      # the copied diver acts on your board; it stays put
    takes: [diver, level]
    effect: do diver.action with level = level
scoring: {score: credits}
"""

AUTHOR_VARIANT = """
variant: author
extends: author
title: Author's variant (spy)
actions:
  spy_action:
    cost: {copy_fee: {to: neighbour}}         # the credit is paid to that opponent instead
add:                                          # everything here is new to the base game
  triggers:
    copied_diver_surfaces_too:                # the opponent decides
      when: after copy
      effect: do one of [surface, stay_down] for owner(diver) with diver = diver
  actions:
    surface:                                  # done by the diver's owner: their own queue
      takes: diver
      effect: move diver to queue at top
    stay_down:                                # offered only if they can pay the battery
      takes: diver
      effect: pay 1 batteries
"""


def test_target_t_ot_15_authors_variant_copied_diver_surfaces(tmp_path):
    from meeplang.dsl.resolve import load_game
    make_game(tmp_path, AUTHOR_BASE, name="author")      # writes (and checks) the base game
    folder = tmp_path / "author"
    (folder / "variants").mkdir()
    (folder / "variants" / "author.yaml").write_text(AUTHOR_VARIANT.lstrip())
    queue = lambda e, p: [e.state["items"][d]["role"] for d in e.state["zones"][f"queue@{p}"]]  # noqa: E731
    e = start(load_game(str(folder)), players=2)
    assert queue(e, 0) == ["fuels", "spy", "a", "b"] and queue(e, 1) == ["spy", "fuels", "a", "b"]
    play_labels(e, ["activate 1"])           # the Spy copies seat 1's Fuels expert at L1
    assert len(e.state["zones"]["dig@0"]) == 1 and e.state["zones"]["dig@1"] == []
    assert queue(e, 0) == ["spy", "fuels", "a", "b"] and queue(e, 1) == ["spy", "fuels", "a", "b"]
    assert (me(e, 0)["credits"], me(e, 1)["credits"]) == (2, 3)   # the credit goes to the supply
    # the author's variant: the opponent is paid, and decides whether their diver surfaces
    variant = load_game(str(folder), "author")
    e = start(variant, players=2)
    play_labels(e, ["activate 1"])
    assert e.decision.player == 1 and e.decision.labels == ["surface", "stay_down"]
    play_labels(e, ["surface"])
    assert queue(e, 1) == ["fuels", "spy", "a", "b"] and len(e.state["zones"]["dig@0"]) == 1
    assert (me(e, 0)["credits"], me(e, 1)["credits"]) == (2, 4)
    assert e.decision.player == 1                # then seat 1's own turn
    e = start(variant, players=2)
    play_labels(e, ["activate 1", "stay_down"])
    assert queue(e, 1) == ["spy", "fuels", "a", "b"] and me(e, 1)["batteries"] == 0
