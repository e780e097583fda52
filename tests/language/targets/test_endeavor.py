"""Endeavor: Deep Sea targets (T-EN-01 .. T-EN-16, rated in docs/language-targets.md).

Each test states one target as a small game written in Meeplang and plays the worked example of
the Endeavor: Deep Sea rulebook (examples E1..E35). Track tables, tiles and rewards are not in the
rulebook's text, so the games use synthetic data.
"""
from ..helpers import make_game, play_labels, start


def names(engine, labels, prefix):
    """The `name` fields of the items offered as `<prefix> <item id>` options."""
    items = engine.state["items"]
    return sorted(items[lab.split(" ", 1)[1]]["name"] for lab in labels if lab.startswith(prefix + " "))


def zone_names(engine, zone):
    return [engine.state["items"][x]["name"] for x in engine.state["zones"][zone]]


def item_id(engine, name):
    return next(i for i, it in engine.state["items"].items() if it.get("name") == name)


# ----------------------------------------------------------------------------------------------
# T-EN-01  Attribute tracks: wrap-around to the Impact space, +1 impact on every entry into it,
# and a new submersible the first time Ingenuity reaches an extra-submersible space. The attribute
# tracks are one declaration (`tracks:` with `each:`), each track with its spaces' icons as data;
# the rewards are `enter space of` triggers on the icons, so any "+N" in any effect passes each
# space one at a time, and "the first time" is `once` (per seat and space). Nothing missing.
TRACKS = """
game: tracks
players: 2
tables:
  attribute_spaces:                             # synthetic icons ([LOST]); Impact is space 5
    ingenuity: [plain, plain, plain, submersible, plain, impact, submersible]
    mastery: [plain, plain, plain, plain, plain, impact, plain]
counters:
  impact: {per: player, initial: 0}
  research: {per: player, initial: 0}
tracks:
  attribute: {per: player, each: [ingenuity, mastery], spaces: attribute_spaces, initial: 2,
              wrap_to: 5}                       # past the end: back to the Impact space
zones:
  sub_supply: {per: player}
  launch_zone: {per: player}                    # the player's submersibles on the launch zone
items:
  sub: {per: player, count: 2, zone: sub_supply}   # the 2 beyond the one already in play
flow:
  - turns: {first: 0, actions: [vents_arrival, double_gain, train, stop], per_turn: 1,
            until: all_passed}
actions:
  vents_arrival: {effect: gain 1 ingenuity}     # any "+1 Ingenuity" reward
  double_gain: {effect: gain 2 ingenuity}       # any "+2 Ingenuity" reward
  train: {effect: gain 4 mastery}               # another attribute track, same declaration
  stop: {effect: pass}
triggers:                                       # all declared once, on the tracks
  impact_space_reached:                         # whenever a cube enters the Impact space
    when: enter space of attribute
    if: space == "impact"
    effect: gain 1 impact
  extra_submersible:                            # the first time it reaches each icon space
    when: enter space of attribute
    if: space == "submersible"
    once: true
    effect: |
      move top(sub_supply, 1) to launch_zone    # (none left: nothing moves)
      gain 1 research                           # the launch zone's arrival bonus (synthetic)
scoring: {score: impact}
"""


def test_target_t_en_01_track_wraps_to_impact_space_with_first_time_rewards(tmp_path):
    e = start(make_game(tmp_path, TRACKS))
    me, other = e.state["players"]

    def seat(p, i):
        return (p["ingenuity"], p["impact"], len(e.state["zones"][f"launch_zone@{i}"]),
                p["research"])

    play_labels(e, ["vents_arrival"])                   # 2 -> 3: the first extra submersible
    assert seat(me, 0) == (3, 0, 1, 1) and seat(other, 1) == (2, 0, 0, 0)
    play_labels(e, ["double_gain"])                     # player 1: 2 -> 3 -> 4, passing space 3
    assert seat(other, 1) == (4, 0, 1, 1)
    play_labels(e, ["double_gain"])                     # 3 -> 4 -> 5: the Impact space
    assert seat(me, 0) == (5, 1, 1, 1)
    play_labels(e, ["double_gain"])                     # player 1: 4 -> 5 (impact) -> 6 (2nd sub)
    assert seat(other, 1) == (6, 1, 2, 2)
    play_labels(e, ["double_gain"])                     # 5 -> 6 (2nd sub), then past the end: 5
    assert seat(me, 0) == (5, 2, 2, 2)
    play_labels(e, ["vents_arrival"])                   # player 1: 6 + 1, past the end: back to 5
    assert seat(other, 1) == (5, 2, 2, 2)
    play_labels(e, ["vents_arrival"])                   # 5 -> 6 again: not the first time
    assert seat(me, 0) == (6, 2, 2, 2)
    play_labels(e, ["double_gain"])                     # player 1: 5 -> 6, past the end: 5
    assert seat(other, 1) == (5, 3, 2, 2)
    play_labels(e, ["vents_arrival"])                   # 6 + 1: wraps again
    assert seat(me, 0) == (5, 3, 2, 2)
    play_labels(e, ["train"])                           # player 1's Mastery 2 -> 6: the Impact
    assert other["mastery"] == 6 and seat(other, 1) == (5, 4, 2, 2)   # space, no submersible icon
    play_labels(e, ["stop", "stop"])
    assert e.decision is None and e.result["scores"] == [3, 4]


# ----------------------------------------------------------------------------------------------
# T-EN-02  Phase 1: levels read from tracks; recruit, effort, recover up to N
PREP = """
game: prep
players: 1
tables:
  recruitment_level: [1, 1, 2, 2, 3, 3]     # by Reputation (synthetic; the real table is [LOST])
  effort_level: [1, 2, 2, 3, 3, 4]          # by Inspiration
  recovery_level: [1, 1, 2, 2, 3]           # by Coordination (1 at Coordination 0)
  specialists:
    - {name: team_leader, rank: 0, on_recruit: null, start: true}
    - {name: pilot, rank: 1, on_recruit: null, start: true}
    - {name: reef_diver, rank: 1, on_recruit: null, start: false}
    - {name: navigator, rank: 2, on_recruit: "gain 1 inspiration", start: false}
    - {name: ecologist, rank: 3, on_recruit: null, start: false}
rule_text:
  specialists: {fields: [on_recruit]}
counters:
  reputation: {per: player, initial: 2}
  inspiration: {per: player, initial: 2}
  coordination: {per: player, initial: 0}
zones:
  tray: {}
  team: {per: player}
  reserve: {per: player}
  transit: {per: player}
  activation: {per: player}                 # discs on activation spaces; disc.spec tells which
items:
  specialist: {from: specialists, zone: tray}
  disc: {per: player, count: 10, zone: reserve, fields: {spec: none}}
formulas:
  busy(p, s): any(d.spec == s for d in p.activation)
setup: |
  for each s in [x for x in tray if x.start]:   # the Team Leader and the Pilot, each with a disc
    move s to team
    let d = top(reserve)
    move d to activation
    set d.spec to s
flow:
  - do: |
      for each p in players:                # from the Wave token holder: 1a, 1b, 1c
        do recruit for p
        do effort for p
        do recover for p
actions:
  recruit:
    choose: s in tray where s.rank <= recruitment_level[reputation]
    effect: |
      move s to team
      do s.on_recruit                       # immediate gain, counts for 1b of this round
  effort:
    effect: deal effort_level[inspiration] from reserve to transit
  recover:                                  # up to the recovery level, the player picks which
    choose: back from subsets of activation where count(back) <= recovery_level[coordination]
    effect: |
      for each d in back:
        set d.spec to none
        move d to transit
scoring: {score: count(transit)}
"""


def test_target_t_en_02_levels_from_tracks_and_recover_up_to_n(tmp_path):
    e = start(make_game(tmp_path, PREP), players=1)
    # E3: recruitment level 2 -> ranks 1 and 2 only
    assert names(e, e.decision.labels, "recruit") == ["navigator", "reef_diver"]
    play_labels(e, ["recruit " + item_id(e, "navigator")])
    me = e.state["players"][0]
    assert me["inspiration"] == 3
    # E4: the Navigator's +1 Inspiration raised the effort level from 2 to 3: 3 discs moved
    # E5/E6: recovery level 1 (Coordination 0): one disc, chosen by the player, or none
    tl, pilot = item_id(e, "team_leader"), item_id(e, "pilot")
    on_tl = next(d for d in e.state["zones"]["activation@0"] if e.state["items"][d]["spec"] == tl)
    on_pilot = next(d for d in e.state["zones"]["activation@0"]
                    if e.state["items"][d]["spec"] == pilot)
    assert sorted(e.decision.labels) == sorted(
        ["recover []", f"recover [{on_tl}]", f"recover [{on_pilot}]"])
    play_labels(e, [f"recover [{on_tl}]"])
    assert e.decision is None
    transit = e.state["zones"]["transit@0"]
    assert len(transit) == 3 + 1 and transit[-1] == on_tl   # 3 from 1b, then the recovered one
    assert e.state["zones"]["activation@0"] == [on_pilot]   # the Pilot stays blocked this round
    assert len(e.state["zones"]["reserve@0"]) == 10 - 2 - 3


# ----------------------------------------------------------------------------------------------
# T-EN-03  Phase 2: take a turn or pass until all have passed; the Wave token goes left
ROUNDS = """
game: rounds
players: [1, 4]
options:
  rounds: {default: 6, min: 1, doc: "6 rounds (solo: 7, variants/solo.yaml)"}
counters:
  wave: {initial: 0}
  rounds_played: {initial: 0}
  turns_taken: {per: player, initial: 0}
zones:
  reserve: {per: player}
  transit: {per: player}
  dive_tokens: {per: player}
  activation: {per: player}
items:
  disc: {per: player, count: 20, zone: reserve}
flow:
  - repeat: rounds
    as: round
    steps:
      - do: |
          for each p in players:
            deal 1 from p.reserve to p.transit
      - turns: {first: wave, order: clockwise, actions: [activate, spend_token, pass_], per_turn: 1,
                until: all_passed}
      - do: |
          set rounds_played to round
          set wave to left(wave)
actions:
  activate:
    requires: not empty(transit)
    effect: |
      move top(transit) to activation
      add 1 to turns_taken
  spend_token:
    requires: not empty(dive_tokens)
    effect: move top(dive_tokens) to reserve
  pass_: {effect: pass}
scoring: {score: turns_taken}
"""


def test_target_t_en_03_turn_or_pass_until_all_passed_and_wave_moves_left(tmp_path):
    game = make_game(tmp_path, ROUNDS)
    e = start(game, players=3)
    assert e.decision.player == 0 and e.decision.labels == ["activate", "pass_"]
    play_labels(e, ["activate", "pass_", "activate"])   # players 0, 1, 2
    # player 0 has no disc in transit and no dive token: only "pass"
    assert e.decision.player == 0 and e.decision.labels == ["pass_"]
    play_labels(e, ["pass_"])
    assert e.decision.player == 2                    # player 1 passed: skipped for the round
    play_labels(e, ["pass_"])
    # round 2: the Wave token went to the left neighbour (seat 1), who starts
    assert e.state["counters"]["wave"] == 1 and e.state["counters"]["rounds_played"] == 1
    assert e.decision.player == 1
    for _ in range(5):                               # rounds 2..6: everyone passes
        play_labels(e, ["pass_"] * 3)
    assert e.decision is None and e.state["counters"]["rounds_played"] == 6
    assert e.result["scores"] == [1, 0, 1]


def test_target_t_en_03_solo_mode_plays_seven_rounds(tmp_path):
    from meeplang.dsl.resolve import load_game
    make_game(tmp_path, ROUNDS)
    (tmp_path / "g" / "variants").mkdir()
    (tmp_path / "g" / "variants" / "solo.yaml").write_text(
        "variant: solo\nextends: rounds\noptions:\n  rounds: {default: 7, min: 1}\n")
    e = start(load_game(str(tmp_path / "g"), "solo"), players=1)
    for _ in range(6):
        play_labels(e, ["pass_"])
    assert e.decision is not None and e.state["counters"]["rounds_played"] == 6
    play_labels(e, ["pass_"])
    assert e.decision is None and e.state["counters"]["rounds_played"] == 7


# ----------------------------------------------------------------------------------------------
# T-EN-04  Activating a specialist: "one of" (/) versus "any subset in any order"
ACTIVATE = """
game: activate
players: 1
tables:
  specialists:                               # what each card says, as rule text
    - {name: ecologist, activation: "may do one of [travel, conservation]"}   # "Travel / Conservation"
    - {name: researcher, activation: "do any of [sonar, publication]"}        # "Sonar Publication"
rule_text:
  specialists: {fields: [activation]}
counters:
  travels: {per: player, initial: 0}
  conservations: {per: player, initial: 0}
  sonars: {per: player, initial: 0}
  publications: {per: player, initial: 0}
zones:
  team: {}
  reserve: {per: player}
  transit: {per: player}
  activation: {per: player}
  ocean: {per: player}                       # discs put on sonar, conservation, publication sites
items:
  specialist: {from: specialists, zone: team, fields: {}}
  disc: {per: player, count: 10, zone: reserve, fields: {spec: none}}
setup: |
  deal 4 from reserve to transit
flow:
  - repeat: 2
    steps:
      - turns: {first: 0, actions: [activate_specialist], per_turn: 1, until: one_round}
actions:
  activate_specialist:
    choose: s in team where not any(d.spec == s for d in activation)
    requires: not empty(transit)
    effect: |
      let d = top(transit)
      move d to activation
      set d.spec to s
      do s.activation
  travel: {effect: add 1 to travels}
  conservation:                              # needs a 2nd disc: derived from its effect
    effect: |
      move top(transit) to ocean
      add 1 to conservations
  sonar:
    effect: |
      move top(transit) to ocean
      add 1 to sonars
  publication:
    effect: |
      move top(transit) to ocean
      add 1 to publications
scoring: {score: 0}
"""


def test_target_t_en_04_one_of_versus_any_subset_in_any_order(tmp_path):
    """The card's text is its activation: `do one of [...]` (/) or `do any of [...]` (any
    subset, each once, in any order); an action that cannot run (no disc left) is not offered."""
    e = start(make_game(tmp_path, ACTIVATE), players=1)
    me = e.state["players"][0]
    ecologist, researcher = item_id(e, "ecologist"), item_id(e, "researcher")
    # E9: the Researcher does Publication then Sonar: 1 activation disc + 1 + 1 = 3 discs
    play_labels(e, [f"activate_specialist {researcher}"])
    assert sorted(e.decision.labels) == ["publication", "sonar", "stop"]
    play_labels(e, ["publication"])
    assert e.decision.labels == ["sonar", "stop"]     # each action once, the other still open
    play_labels(e, ["sonar"])
    assert (me["sonars"], me["publications"]) == (1, 1)
    assert len(e.state["zones"]["transit@0"]) == 4 - 3
    assert len(e.state["zones"]["ocean@0"]) == 2 and len(e.state["zones"]["activation@0"]) == 1
    # E8: the Ecologist allows exactly one of Travel / Conservation; its disc is the last one,
    # so Conservation (a 2nd disc) cannot run and is not offered
    assert e.decision.labels == [f"activate_specialist {ecologist}"]   # the Researcher is busy
    play_labels(e, [f"activate_specialist {ecologist}"])
    assert sorted(e.decision.labels) == ["skip", "travel"]
    play_labels(e, ["travel"])
    assert (me["travels"], me["conservations"]) == (1, 0)
    assert e.decision is None                       # no Conservation after the Travel
    assert len(e.state["zones"]["transit@0"]) == 0 and len(e.state["zones"]["ocean@0"]) == 2


def test_target_t_en_04_one_of_offers_conservation_when_a_disc_is_left(tmp_path):
    e = start(make_game(tmp_path, ACTIVATE), players=1)
    play_labels(e, [f"activate_specialist {item_id(e, 'ecologist')}"])
    assert e.decision.labels == ["travel", "conservation", "skip"]
    play_labels(e, ["conservation"])
    me = e.state["players"][0]
    assert (me["travels"], me["conservations"]) == (0, 1) and e.decision.labels == [
        f"activate_specialist {item_id(e, 'researcher')}"]      # one of: no Travel after it


# ----------------------------------------------------------------------------------------------
# T-EN-05  Dive tokens: free actions at any point of the own turn; research capped at 12; keep 1
DIVE = """
game: dive
players: 1
tables:
  dive_tokens:
    - {name: stored, research: 2, special: travel, zone: dive_tokens}
    - {name: three_or_travel, research: 3, special: travel, zone: dive_site}
  token_use:                                  # what each side of a dive token does
    research: gain t.research research
    travel: add 1 to travels
rule_text:
  token_use: {takes: [t]}
counters:
  research: {per: player, initial: 10, min: 0, max: 12, overflow: clamp}   # excess is lost
  travels: {per: player, initial: 0}
zones:
  dive_site: {}
  spent: {}
  dive_tokens: {per: player}
items:
  token: {from: dive_tokens, zone: dive_site}
setup: |
  move first([t for t in dive_site if t.zone == "dive_tokens"]) to dive_tokens
flow:
  - repeat: 2
    steps:
      - turns: {first: 0, actions: [dive], free_actions: [spend_dive_token],
                per_turn: 1, free_after_last: true, until: one_round}   # one specialist activation
actions:
  dive:
    requires: not empty(dive_site)
    effect: move top(dive_site) to dive_tokens
  spend_dive_token:
    choose: t in dive_tokens
    effect: do use_token with t = t
  use_token:
    takes: t
    effect: |
      choose use in ["research", t.special]   # either its research or its effect, never both
      do token_use[use] with t = t
      move t to spent
triggers:
  keep_at_most_one:
    when: after turn
    effect: |
      while count(dive_tokens) > 1:
        choose t in dive_tokens
        do use_token with t = t
scoring: {score: research}
"""


def test_target_t_en_05_dive_tokens_are_free_actions_capped_research_keep_one(tmp_path):
    e = start(make_game(tmp_path, DIVE), players=1)
    me = e.state["players"][0]
    stored, found = item_id(e, "stored"), item_id(e, "three_or_travel")
    # offered before activating
    assert sorted(e.decision.labels) == sorted(["dive", f"spend_dive_token {stored}"])
    play_labels(e, ["dive"])                          # E17: reveal and take the top token
    # offered after activating too (the turn's one activation), the token gained this turn
    # included, beside `end turn`; dive is used up
    assert sorted(e.decision.labels) == sorted(
        ["end turn", f"spend_dive_token {stored}", f"spend_dive_token {found}"])
    play_labels(e, ["end turn"])
    # end of turn with 2 tokens: one must be spent
    assert sorted(e.decision.labels) == sorted([stored, found])
    play_labels(e, [found])
    assert sorted(e.decision.labels) == ["research", "travel"]
    play_labels(e, ["research"])                      # E20: 10 + 3 -> 12, 1 lost
    assert (me["research"], me["travels"]) == (12, 0)
    assert e.state["zones"]["dive_tokens@0"] == [stored]    # one token kept
    # the next turn: spending is the whole turn, for the special effect only; while the token is
    # being spent, spending it again is not offered (free actions do not nest)
    play_labels(e, [f"spend_dive_token {stored}"])
    assert sorted(e.decision.labels) == ["research", "travel"]
    play_labels(e, ["travel"])
    assert (me["research"], me["travels"]) == (12, 1)
    # the dive site is empty now: no dive, no token left to spend, so the turn (and game) ends
    assert e.state["zones"]["dive_site"] == [] and e.decision is None


# ----------------------------------------------------------------------------------------------
# T-EN-06  Travel over the grid of placed tiles (and T-EN-12's "Travel from this zone: +1")
TRAVEL = """
game: travel
players: 1
tables:
  tech_level: [1, 1, 2, 2, 3, 3, 4, 4, 5]     # by Ingenuity (synthetic)
  spaces: [r1c1, r1c2, r1c3, r1c4, r2c1, r2c2, r2c3, r2c4, r3c1, r3c2, r3c3, r3c4, r4c1, r4c2, r4c3, r4c4, r5c1, r5c2, r5c3, r5c4]
  orthogonal: [[r1c1, r1c2], [r1c1, r2c1], [r1c2, r1c3], [r1c2, r2c2], [r1c3, r1c4], [r1c3, r2c3], [r1c4, r2c4], [r2c1, r2c2], [r2c1, r3c1], [r2c2, r2c3], [r2c2, r3c2], [r2c3, r2c4], [r2c3, r3c3], [r2c4, r3c4], [r3c1, r3c2], [r3c1, r4c1], [r3c2, r3c3], [r3c2, r4c2], [r3c3, r3c4], [r3c3, r4c3], [r3c4, r4c4], [r4c1, r4c2], [r4c1, r5c1], [r4c2, r4c3], [r4c2, r5c2], [r4c3, r4c4], [r4c3, r5c3], [r4c4, r5c4], [r5c1, r5c2], [r5c2, r5c3], [r5c3, r5c4]]
  tiles:   # the zones in play (row = depth level); the other grid spaces hold no tile
    - {name: star_of_the_seas, pos: r1c1, depth: 1, arrival: disc, travel_from_bonus: 0}
    - {name: calm_waters, pos: r1c2, depth: 1, arrival: none, travel_from_bonus: 0}
    - {name: atoll, pos: r1c3, depth: 1, arrival: none, travel_from_bonus: 0}
    - {name: frozen_reef, pos: r1c4, depth: 1, arrival: none, travel_from_bonus: 0}
    - {name: kelp_forest, pos: r2c1, depth: 2, arrival: none, travel_from_bonus: 0}
    - {name: sunken_ruins, pos: r2c2, depth: 2, arrival: research, travel_from_bonus: 0}
    - {name: hydrothermal_vents, pos: r3c2, depth: 3, arrival: ingenuity, travel_from_bonus: 1}
    - {name: brine_pool, pos: r4c2, depth: 4, arrival: none, travel_from_bonus: 0}
    - {name: trench, pos: r5c2, depth: 5, arrival: none, travel_from_bonus: 0}
  arrival_bonus: {none: null, disc: null, research: "gain 1 research", ingenuity: "gain 1 ingenuity"}
rule_text:
  arrival_bonus: {}
graphs:
  sea: {nodes: spaces, edges: orthogonal}
counters:
  ingenuity: {per: player, initial: 4}
  research: {per: player, initial: 0}
zones:
  ocean: {}
  subs: {per: player}
items:
  tile: {from: tiles, zone: ocean}
  sub: {per: player, count: 1, zone: subs, fields: {at: none}}
formulas:
  here(p): top(p.subs).at
  holes(): '[n for n in spaces if not any(t.pos == n for t in ocean)]'
  tech(p, extra): tech_level[p.ingenuity] + extra + here(p).travel_from_bonus
  destinations(p, extra): >-
    [t for t in ocean if t.pos in within(sea, here(p).pos, tech(p, extra), holes())
     and t.depth <= tech(p, extra)]
setup: |
  set top(subs).at to first([t for t in ocean if t.name == "kelp_forest"])
flow:
  - turns: {first: 0, actions: [travel, travel_plus], per_turn: 1, until: never}
actions:
  travel:
    choose: dest in destinations(you, 0)
    effect: do arrive with dest = dest
  travel_plus:                                  # a journal's Travel+: +1 tech level for this move
    choose: dest in destinations(you, 1)
    effect: do arrive with dest = dest
  arrive:
    takes: dest
    effect: |
      set top(subs).at to dest
      do arrival_bonus[dest.arrival]            # the destination's arrival bonus only
scoring: {score: 0}
"""


def test_target_t_en_06_travel_within_tech_level_over_placed_tiles(tmp_path):
    e = start(make_game(tmp_path, TRAVEL), players=1)
    me = e.state["players"][0]
    # E11: tech level 3 from the Kelp Forest: the Frozen Reef is 4 steps away, the Brine Pool
    # is at depth 4; the empty space r3c1 cannot be crossed
    assert names(e, e.decision.labels, "travel") == [
        "atoll", "calm_waters", "hydrothermal_vents", "star_of_the_seas", "sunken_ruins"]
    # Travel+ (+1 tech level): range 4 and depth 4, but not the depth-5 trench
    assert names(e, e.decision.labels, "travel_plus") == [
        "atoll", "brine_pool", "calm_waters", "frozen_reef", "hydrothermal_vents",
        "star_of_the_seas", "sunken_ruins"]
    # E12: travel to the Vents through the Ruins: only the Vents' arrival bonus (+1 Ingenuity)
    play_labels(e, ["travel " + item_id(e, "hydrothermal_vents")])
    assert (me["ingenuity"], me["research"]) == (5, 0)
    # E27: the Vents say "Travel from this zone: +1 tech level": tech 3 -> range 4, depth 4
    assert names(e, e.decision.labels, "travel") == [
        "atoll", "brine_pool", "calm_waters", "frozen_reef", "kelp_forest", "star_of_the_seas",
        "sunken_ruins"]


# ----------------------------------------------------------------------------------------------
# T-EN-07  Sonar: leftmost empty space of a shared track, reward per space
SONAR = """
game: sonar
players: 2
tables:
  track_names: [calm_left, calm_right, star]
  track_zone: {calm_left: calm_waters, calm_right: calm_waters, star: star_of_the_seas}
  track_rewards:                       # the reward printed on each space, left to right
    calm_left: [research, impact]
    calm_right: [research, discover]
    star: [research, research, discover]
  reward_effect: {research: "gain 1 research", impact: "gain 1 impact", discover: "add 1 to discovers"}
rule_text:
  reward_effect: {}
counters:
  research: {per: player, initial: 0}
  impact: {per: player, initial: 0}
  discovers: {per: player, initial: 0}
zones:
  transit: {per: player}
  subs: {per: player}
  sonar_track: {each: track_names, capacity: "count(track_rewards[key])"}   # shared by all
items:
  disc: {per: player, count: 4, zone: transit}
  sub: {per: player, count: 1, zone: subs, fields: {at: '"calm_waters"'}}
setup: |
  move top(left(you).transit) to sonar_track["calm_right"]          # a yellow disc on space 1
flow:
  - turns: {first: 0, actions: [sonar, pass_], per_turn: 1, until: all_passed}
actions:
  pass_: {effect: pass}
  sonar:
    choose: track in track_names where track_zone[track] in [s.at for s in subs] and not full(sonar_track[track])
    requires: not empty(transit)
    effect: |
      move top(transit) to sonar_track[track]                # the leftmost empty space
      let reward = track_rewards[track][count(sonar_track[track]) - 1]
      do reward_effect[reward]
scoring: {score: research}
"""


def test_target_t_en_07_sonar_leftmost_empty_space_of_a_shared_track(tmp_path):
    e = start(make_game(tmp_path, SONAR))
    violet, yellow = e.state["players"]
    # E13: both Calm Waters tracks, not the Star's (no submersible there)
    assert e.decision.labels == ["sonar calm_left", "sonar calm_right", "pass_"]
    play_labels(e, ["sonar calm_right"])
    assert e.state["zones"]["sonar_track[calm_right]"][1].startswith("disc#0.")   # space 2
    assert (violet["discovers"], violet["research"]) == (1, 0)    # space 2 gives Discover
    # the right track is now full: it cannot be chosen
    assert e.decision.player == 1 and e.decision.labels == ["sonar calm_left", "pass_"]
    play_labels(e, ["sonar calm_left"])
    assert (yellow["research"], yellow["discovers"]) == (1, 0)    # space 1 of the left track
    play_labels(e, ["sonar calm_left"])
    assert violet["impact"] == 1                                   # space 2 of the left track
    assert e.decision.player == 1 and e.decision.labels == ["pass_"]   # every track here is full


# ----------------------------------------------------------------------------------------------
# T-EN-08  Discover: draw 2, keep 1 (the other to the bottom of its pile), place below a zone.
# "Draw, keep one, return the other to the bottom" is one `draw` statement, each tile from a pile
# the player picks among those the spec allows; the fallback to the shallowest open level is
# declared once in a formula with `otherwise`. The full play area's fixed reward is the
# rulebook's own "if ... instead" (Endeavor FR l.516).
DISCOVER = """
game: discover
players: 1
tables:
  levels: LEVELS
  columns: COLUMNS
  level1_columns: COLUMNS              # where the scenario lets level-1 tiles start columns
  tile_names: [star, calm, kelp, atoll, lagoon, sunken_ruins, shelf, deep_a, deep_b, abyss, edge_a, edge_b, edge_c, edge_d]
  tiles:                               # row 0: face down in the pile of its level (top first)
TILES
counters:
  research: {per: player, initial: 0}
  fallback_rewards: {per: player, initial: 0}
zones:
  box: {}
  pile: {each: levels, visibility: hidden}
  hand: {per: player, visibility: owner}       # drawn tiles: seen by their drawer only
  ocean: {grid: {rows: 4, columns: 4}}
  token_supply: {visibility: hidden, recycle: token_discard}   # short: the spent tokens go back
  token_discard: {}
  dive_stack: {each: tile_names, visibility: hidden}
items:
  tile: {from: tiles, zone: box}
  token: {count: 5, zone: token_supply}
formulas:
  free_spaces(l): >-
    [c for c in columns if at(ocean, l, c) == none
     and (if l == 1 then c in level1_columns else at(ocean, l - 1, c) != none)]
  open_level(l): not empty(free_spaces(l)) and not empty(pile[l])
  # the levels the spec allows that still have room, otherwise the shallowest level that has
  levels_to_draw(lo, hi): >-
    [l for l in range(lo, hi) if open_level(l)] otherwise [l for l in levels if open_level(l)][:1]
setup: |
  for each t in box:
    if t.row > 0:
      place t on ocean at t.row, t.col
    else:
      move t to pile[t.level]
  deal 3 from token_supply to token_discard       # the supply is short: 2 left
flow:
  - do: do discover with lo = 1, hi = 2           # a Discover "1-2" icon
actions:
  discover:
    takes: [lo, hi]
    effect: |
      let allowed = levels_to_draw(lo, hi)
      if empty(allowed):                          # the play area is complete: a fixed reward
        gain 1 fallback_rewards
      else:
        draw 2 from any of [pile[l] for l in allowed] to hand, keep 1 as tile, return the rest to the bottom
        choose col in free_spaces(tile.level)
        place tile on ocean at tile.level, col
        deal min(tile.dive, count(token_supply) + count(token_discard)) from token_supply to dive_stack[tile.name]
        gain tile.bonus research                  # its discovery bonus
scoring: {score: research}
"""
E14_TILES = """
    - {name: star, level: 1, row: 1, col: 1, dive: 4, bonus: 0}
    - {name: calm, level: 1, row: 1, col: 2, dive: 0, bonus: 0}
    - {name: kelp, level: 2, row: 2, col: 1, dive: 0, bonus: 0}
    - {name: atoll, level: 1, row: 0, col: 0, dive: 0, bonus: 1}
    - {name: lagoon, level: 1, row: 0, col: 0, dive: 0, bonus: 1}
    - {name: sunken_ruins, level: 2, row: 0, col: 0, dive: 4, bonus: 2}
    - {name: shelf, level: 2, row: 0, col: 0, dive: 0, bonus: 1}
    - {name: deep_a, level: 3, row: 0, col: 0, dive: 0, bonus: 3}
    - {name: deep_b, level: 3, row: 0, col: 0, dive: 0, bonus: 3}
    - {name: abyss, level: 4, row: 0, col: 0, dive: 0, bonus: 4}"""
E15_TILES = E14_TILES + """
    - {name: edge_a, level: 1, row: 1, col: 3, dive: 0, bonus: 0}
    - {name: edge_b, level: 2, row: 2, col: 2, dive: 0, bonus: 0}
    - {name: edge_c, level: 2, row: 2, col: 3, dive: 0, bonus: 0}
    - {name: edge_d, level: 3, row: 3, col: 1, dive: 0, bonus: 0}"""


def discover_game(tmp_path, tiles, columns="[1, 2, 3]"):
    text = DISCOVER.replace("TILES", tiles).replace("LEVELS", "[1, 2, 3, 4]").replace("COLUMNS", columns)
    return start(make_game(tmp_path, text), players=1)


def test_target_t_en_08_discover_draw_two_keep_one_place_below_a_zone(tmp_path):
    e = discover_game(tmp_path, E14_TILES)
    # E14: spec 1-2; level 1 has 1 empty space (column 3), level 2 one valid space (below calm)
    assert e.decision.kind == "draw pile" and e.decision.labels == ["pile[1]", "pile[2]"]
    play_labels(e, ["pile[1]", "pile[2]"])        # draw the Atoll and the Sunken Ruins
    assert sorted(names(e, ["x " + x for x in e.decision.labels], "x")) == ["atoll", "sunken_ruins"]
    play_labels(e, [item_id(e, "sunken_ruins")])  # keep the Ruins
    assert e.decision.labels == ["2"]             # the only valid level-2 space: below calm
    play_labels(e, ["2"])
    assert e.decision is None
    assert zone_names(e, "pile[1]") == ["lagoon", "atoll"]     # the Atoll at the bottom
    assert e.view(0)["zones"]["pile[1]"] == ["?", item_id(e, "atoll")]     # which the drawer saw
    assert tuple(e.state["cells"][item_id(e, "sunken_ruins")]) == (2, 2)   # below calm
    assert e.state["zones"]["hand@0"] == []
    assert len(e.state["zones"]["dive_stack[sunken_ruins]"]) == 4           # refilled supply
    assert len(e.state["zones"]["token_supply"]) == 1 and e.state["zones"]["token_discard"] == []
    assert e.state["players"][0]["research"] == 2                            # its bonus


def test_target_t_en_08_discover_fallback_to_the_shallowest_open_level(tmp_path):
    # E15: every level-1 and level-2 space is full: the tiles come from level 3 only (level 4
    # has room too, below edge_d, but is not the shallowest)
    e = discover_game(tmp_path, E15_TILES)
    assert e.state["players"][0]["fallback_rewards"] == 0    # not the full play area's reward
    assert e.decision.labels == ["pile[3]"]
    play_labels(e, ["pile[3]", "pile[3]", item_id(e, "deep_b")])
    assert e.decision.labels == ["2", "3"]        # below edge_b or edge_c
    play_labels(e, ["2"])
    assert tuple(e.state["cells"][item_id(e, "deep_b")]) == (3, 2)
    assert zone_names(e, "pile[3]") == ["deep_a"] and e.state["players"][0]["research"] == 3


def test_target_t_en_08_discover_when_the_play_area_is_full(tmp_path):
    # E16: a one-column play area with all 4 levels taken: the fixed reward instead
    e = discover_game(tmp_path, E14_TILES + """
    - {name: edge_a, level: 3, row: 3, col: 1, dive: 0, bonus: 0}
    - {name: edge_b, level: 4, row: 4, col: 1, dive: 0, bonus: 0}""", columns="[1]")
    assert e.decision is None
    assert e.state["players"][0]["fallback_rewards"] == 1
    assert zone_names(e, "pile[1]") == ["atoll", "lagoon"] and e.state["zones"]["hand@0"] == []


# ----------------------------------------------------------------------------------------------
# T-EN-09  Connections: both ends occupied pays both owners, active player first. One `as soon
# as` trigger per connection line (`each: l in lines`), watched for each seat that holds an end:
# it fires for the active player first (all their lines), then clockwise, and once per seat and
# line, so a line with the same owner at both ends pays once. Nothing missing.
CONNECT = """
game: connect
players: 3
tables:
  site_names: [x, a, b, c, d]
  lines:                                     # a connection line and the reward printed on it
    - {a: x, b: a, reward: 1}
    - {a: b, b: x, reward: 2}
    - {a: x, b: c, reward: 3}
    - {a: x, b: d, reward: 4}
counters:
  rewards: {per: player, initial: 0}
zones:
  transit: {per: player}
  site: {each: site_names, capacity: 1}
items:
  disc: {per: player, count: 3, zone: transit}
formulas:
  end_owners(l): "[owner(top(site[e])) for e in [l.a, l.b] if not empty(site[e])]"
setup: |
  move top(left(you).transit) to site["a"]             # Yellow
  move top(left(left(you)).transit) to site["b"]       # Red
  move top(transit) to site["c"]                       # Violet's own disc
flow:
  - turns: {first: 0, actions: [conservation], per_turn: 1, until: one_round}
actions:
  conservation:
    choose: s in site_names where empty(site[s])
    requires: not empty(transit)
    effect: move top(transit) to site[s]
triggers:
  connection_established:                    # both ends hold a disc: each owner of an end gains
    each: l in lines
    when: as soon as count(end_owners(l)) == 2 and you in end_owners(l)
    effect: gain l.reward rewards
scoring: {score: rewards}
"""


def test_target_t_en_09_connections_pay_each_owner_active_player_first(tmp_path):
    e = start(make_game(tmp_path, CONNECT), players=3)
    assert e.decision.labels == ["conservation x", "conservation d"]
    play_labels(e, ["conservation x"])
    # E24: three lines established at once (x-d has an empty end): Violet 1 + 2 + 3 first, the
    # x-c line with Violet at both ends paying her once; then Yellow (1), then Red (2)
    assert [p["rewards"] for p in e.state["players"]] == [6, 1, 2]
    paid = [ev["player"] for ev in e.events if ev.get("trigger") == "connection_established"]
    assert paid == [0, 0, 0, 1, 2]


# ----------------------------------------------------------------------------------------------
# T-EN-10  Impact board: a start hex or a hex next to any occupied hex; chained rewards; ∞ hex.
# The reward is a trigger on a token entering a hex (`enters hex`, `key` the hex), so a reward
# that gains impact chains into another placement under the trigger depth limit.
IMPACT = """
game: impact
players: 2
tables:
  hex_names: [h1, h2, h3, h4, h5, h6, h7, inf]
  hex_edges: [[h1, h2], [h1, h3], [h2, h4], [h3, h4], [h4, inf], [h5, h6], [h6, inf], [h2, h7]]
  start_hexes: [h1, h5]
  hex_capacity: {h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1, h7: 1, inf: null}   # ∞: no limit
  hex_reward:                                   # what a token placed on each hex gains
    h1: {impact: 0, research: 0}
    h2: {impact: 1, research: 0}
    h3: {impact: 0, research: 1}
    h4: {impact: 0, research: 1}
    h5: {impact: 0, research: 0}
    h6: {impact: 0, research: 0}
    h7: {impact: 0, research: 0}
    inf: {impact: 0, research: 0}
  hex_vp: {h1: 0, h2: 1, h3: 1, h4: 2, h5: 1, h6: 0, h7: 1, inf: 2}
graphs:
  impact_board: {nodes: hex_names, edges: hex_edges}
counters:
  research: {per: player, initial: 0}
zones:
  impact_tokens: {per: player}
  hex: {each: hex_names, capacity: "hex_capacity[key]"}
items:
  impact_token: {per: player, count: 20, zone: impact_tokens}
formulas:
  available(h): >-
    not full(hex[h])
    and (h in start_hexes or any(not empty(hex[n]) for n in neighbours(impact_board, h)))
setup: |
  move top(left(you).impact_tokens) to hex["h1"]        # Yellow already holds the start hex h1
flow:
  - turns: {first: 0, actions: [gain_impact, stop], per_turn: 1, until: all_passed}
actions:
  gain_impact: {effect: do place_impact}                # any "gain 1 impact"
  stop: {effect: pass}
  place_impact:
    choose: h in hex_names where available(h)
    effect: move top(impact_tokens) to hex[h]
triggers:
  hex_reward:                                           # a token entering a hex gains its reward,
    when: enters hex                                    # which may chain into more impact
    effect: |
      gain hex_reward[key].research research
      repeat hex_reward[key].impact times:
        do place_impact
scoring:
  score: sum(hex_vp[h] * count([t for t in hex[h] if t.owner == you]) for h in hex_names)
"""


def test_target_t_en_10_impact_hexes_next_to_occupied_chained_and_infinity(tmp_path):
    e = start(make_game(tmp_path, IMPACT))
    play_labels(e, ["gain_impact"])
    # E28: start hexes (h1 taken, h5) and hexes next to an occupied hex, whoever holds it
    assert sorted(e.decision.labels) == ["place_impact h2", "place_impact h3", "place_impact h5"]
    play_labels(e, ["place_impact h2"])           # h2's reward is 1 more impact: chained
    assert sorted(e.decision.labels) == [
        "place_impact h3", "place_impact h4", "place_impact h5", "place_impact h7"]
    play_labels(e, ["place_impact h7", "stop"])   # then player 1 stops
    play_labels(e, ["gain_impact", "place_impact h3", "gain_impact", "place_impact h4"])
    assert e.state["players"][0]["research"] == 2       # h3 and h4 pay research
    play_labels(e, ["gain_impact", "place_impact inf", "gain_impact"])
    assert "place_impact inf" in e.decision.labels   # the ∞ hex takes any number of tokens
    play_labels(e, ["place_impact inf", "stop"])
    # E29: h2, h7, h3 at 1 VP; h4 and two tokens on the ∞ hex at 2 VP: 3 + 6 = 9
    assert e.result["scores"] == [9, 0]


# ----------------------------------------------------------------------------------------------
# T-EN-11  Publication: a matching journal on display, refill, "You" / "Others", action spaces
PUBLISH = """
game: publish
players: 3
tables:
  journal_names: [teaching, deep_review, coral_letters, kelp_notes, ice_journal, late]
  journal_cards:
    - {name: teaching, icons: [eco, risk], cost: 3, you_ingenuity: 2, others_research: 1, points: 4, spaces: 1, action: "add 1 to travels", start: display}
    - {name: deep_review, icons: [deep], cost: 1, you_ingenuity: 0, others_research: 0, points: 1, spaces: 0, action: null, start: display}
    - {name: coral_letters, icons: [coral], cost: 1, you_ingenuity: 0, others_research: 0, points: 1, spaces: 0, action: null, start: display}
    - {name: kelp_notes, icons: [kelp], cost: 1, you_ingenuity: 0, others_research: 0, points: 1, spaces: 0, action: null, start: display}
    - {name: ice_journal, icons: [ice], cost: 2, you_ingenuity: 0, others_research: 0, points: 2, spaces: 0, action: null, start: journal_deck}
    - {name: late, icons: [ice], cost: 2, you_ingenuity: 0, others_research: 0, points: 2, spaces: 0, action: null, start: journal_deck}
  site_names: [star_pub1, star_pub2]
  site_icon: {star_pub1: risk, star_pub2: ice}
rule_text:
  journal_cards: {fields: [action]}
counters:
  research: {per: player, initial: 0, min: 0, max: 12, overflow: clamp}
  ingenuity: {per: player, initial: 0}
  travels: {per: player, initial: 0}
zones:
  display: {}
  journal_deck: {visibility: hidden}
  journals: {per: player}
  transit: {per: player}
  pub_site: {each: site_names, capacity: 1}
  journal_space: {each: journal_names}
items:
  journal: {from: journal_cards, zone_field: start}
  disc: {per: player, count: 4, zone: transit}
formulas:
  matching(s, p): '[j for j in display if site_icon[s] in j.icons and j.cost <= p.research]'
setup: |
  set research to 5                                       # Violet
flow:
  - turns: {first: 0, actions: [publication, journal_action, pass_], per_turn: 1, until: all_passed}
actions:
  pass_: {effect: pass}
  publication:
    choose: s in site_names where empty(pub_site[s]) and not empty(matching(s, you))
    requires: count(transit) >= 1
    effect: |
      choose j in matching(s, you)
      pay j.cost research
      move top(transit) to pub_site[s]
      move j to journals
      deal 1 from journal_deck to display                 # refilled at once
      gain j.you_ingenuity ingenuity                      # "You": the publisher only
      for each p in others:                               # "Others": everyone but the publisher
        p gains j.others_research research
  journal_action:                                         # a disc on a free action space
    choose: j in journals where count(journal_space[j.name]) < j.spaces
    requires: not empty(transit)
    effect: |
      move top(transit) to journal_space[j.name]          # stays for the game
      do j.action                                         # the action printed on the space
scoring: {score: sum(j.points for j in journals)}
"""


def test_target_t_en_11_publication_refill_you_and_others_and_journal_actions(tmp_path):
    e = start(make_game(tmp_path, PUBLISH), players=3)
    violet, yellow, red = e.state["players"]
    teaching = item_id(e, "teaching")
    # the ice site matches no journal on display: only star_pub1 (risk)
    assert e.decision.labels == ["publication star_pub1", "pass_"]
    play_labels(e, ["publication star_pub1"])
    assert e.decision.labels == [teaching]                 # the matching journal
    play_labels(e, [teaching])
    # E22: research 5 - 3; the journal is Violet's; the display is refilled from the deck
    assert violet["research"] == 2 and e.state["zones"]["journals@0"] == [teaching]
    assert zone_names(e, "display") == ["deep_review", "coral_letters", "kelp_notes", "ice_journal"]
    assert violet["ingenuity"] == 2                        # "You"
    assert (violet["research"], yellow["research"], red["research"]) == (2, 1, 1)   # "Others"
    play_labels(e, ["pass_", "pass_"])
    # Violet's next turn: the journal's action space, and the ice site now matches the refill
    assert e.decision.labels == ["publication star_pub2", f"journal_action {teaching}", "pass_"]
    play_labels(e, [f"journal_action {teaching}"])
    assert violet["travels"] == 1 and len(e.state["zones"]["journal_space[teaching]"]) == 1
    assert e.decision.labels == ["publication star_pub2", "pass_"]   # its only space is taken


# ----------------------------------------------------------------------------------------------
# T-EN-12  Zone icons as data: action effect (after Dive here) and special space (E27, the
# general effect "Travel from this zone: +1 tech level", is in the T-EN-06 test)
ZONE_ICONS = """
game: zoneicons
players: 2
tables:
  tiles:                                   # the zone's icons, as rule text
    - {name: ruins, after_dive: "gain 1 impact", special_space: ruins_special, special_rule: conserve_again_here}
    - {name: kelp, after_dive: null, special_space: null, special_rule: null}
  tile_names: [ruins, kelp]
  site_names: [ruins_special, ruins_c1, ruins_c2, ruins_c3, kelp_c1]
  site_zone: {ruins_special: ruins, ruins_c1: ruins, ruins_c2: ruins, ruins_c3: ruins, kelp_c1: kelp}
  site_cost: {ruins_special: 0, ruins_c1: 2, ruins_c2: 1, ruins_c3: 1, kelp_c1: 0}
rule_text:
  tiles: {fields: [after_dive, special_rule]}
counters:
  research: {per: player, initial: 4}
  impact: {per: player, initial: 0}
zones:
  ocean: {}
  token_supply: {}
  dive_stack: {each: tile_names}
  cons_site: {each: site_names, capacity: 1}
  transit: {per: player}
  dive_tokens: {per: player}
  subs: {per: player}
items:
  tile: {from: tiles, zone: ocean}
  token: {count: 4, zone: token_supply}
  disc: {per: player, count: 5, zone: transit}
  sub: {per: player, count: 1, zone: subs, fields: {at: '"ruins"'}}
formulas:
  here(p): '[t for t in ocean if any(s.at == t.name for s in p.subs)]'
  tile_named(n): first([t for t in ocean if t.name == n])
  holds(p, s): s != none and any(d.owner == p for d in cons_site[s])
setup: |
  deal 4 from token_supply to dive_stack["ruins"]
  move top(transit) to cons_site["ruins_special"]         # Violet occupies the special space
flow:
  - turns: {first: 0, actions: [dive, conservation, pass_], per_turn: 1, until: all_passed}
actions:
  pass_: {effect: pass}
  dive:
    choose: t in here(you) where not empty(dive_stack[t.name])
    effect: move top(dive_stack[t.name]) to dive_tokens
  conservation:
    choose: s in site_names where empty(cons_site[s]) and tile_named(site_zone[s]) in here(you) and site_cost[s] <= research
    requires: not empty(transit)
    effect: do conserve_at with s = s
  conserve_again_here:
    takes: z
    choose: s in site_names where site_zone[s] == z and empty(cons_site[s]) and site_cost[s] <= research
    requires: not empty(transit)
    effect: do conserve_at with s = s
  conserve_at:
    takes: s
    effect: |
      pay site_cost[s] research
      move top(transit) to cons_site[s]
triggers:
  action_effect_after_dive:                # "if you Dive here, ...": the tile's own rule text
    when: after dive
    effect: do t.after_dive
  special_space_rule:                      # "while your disc is on this zone's special space"
    when: after conservation
    if: holds(you, tile_named(site_zone[s]).special_space)
    effect: may do tile_named(site_zone[s]).special_rule with z = site_zone[s]
scoring: {score: impact}
"""


def test_target_t_en_12_zone_action_effect_and_special_space(tmp_path):
    e = start(make_game(tmp_path, ZONE_ICONS))
    violet, yellow = e.state["players"]
    ruins = item_id(e, "ruins")
    # E25: Dive in the Ruins: the token, plus 1 impact from the zone's action effect
    play_labels(e, [f"dive {ruins}"])
    assert len(e.state["zones"]["dive_tokens@0"]) == 1 and violet["impact"] == 1
    play_labels(e, [f"dive {ruins}"])                      # Yellow dives there too
    assert yellow["impact"] == 1
    # E26: Violet's disc is on the special space: after a Conservation there, another one
    play_labels(e, ["conservation ruins_c1"])
    assert sorted(e.decision.labels) == sorted(
        ["conserve_again_here ruins_c2", "conserve_again_here ruins_c3", "skip"])
    play_labels(e, ["conserve_again_here ruins_c2"])
    assert violet["research"] == 4 - 2 - 1
    assert len(e.state["zones"]["transit@0"]) == 5 - 3     # special space, c1, c2
    # Yellow has no disc on the special space: one Conservation only
    play_labels(e, ["conservation ruins_c3"])
    assert e.decision.player == 0 and yellow["research"] == 3


# ----------------------------------------------------------------------------------------------
# T-EN-13  Majority bonus with ties: one formula reused by every objective
MAJORITY = """
game: majority
players: 3
tables:
  discs_in_ocean:                  # per seat: Violet, Yellow, Red (the examples' positions)
    sonar: SONAR
    publication: PUBLICATION
    conservation: CONSERVATION
    depth5_subs: [0, 0, 0]
counters:
  sonar: {per: player, initial: 0}
  publication: {per: player, initial: 0}
  conservation: {per: player, initial: 0}
  depth5_subs: {per: player, initial: 0}
  sonar_vp: {per: player, initial: 0}
  publication_vp: {per: player, initial: 0}
  conservation_vp: {per: player, initial: 0}
  depth5_vp: {per: player, initial: 0}
formulas:
  # tied players share a place; a shared 1st removes 2nd; a count of 0 is not eligible
  higher(counts, x): count([c for c in counts if c > x])
  majority(counts, x, first, second): >-
    if x == 0 then 0
    else if higher(counts, x) == 0 then first
    else if higher(counts, x) == 1 then second
    else 0
setup: |
  for each p in players:
    set p.sonar to discs_in_ocean["sonar"][p]
    set p.publication to discs_in_ocean["publication"][p]
    set p.conservation to discs_in_ocean["conservation"][p]
    set p.depth5_subs to discs_in_ocean["depth5_subs"][p]
flow:
  - do: |
      for each p in players:
        set p.sonar_vp to p.sonar + majority([q.sonar for q in players], p.sonar, 5, 3)
        set p.publication_vp to p.publication + majority([q.publication for q in players], p.publication, 5, 3)
        set p.conservation_vp to p.conservation + majority([q.conservation for q in players], p.conservation, 6, 4)
        set p.depth5_vp to majority([q.depth5_subs for q in players], p.depth5_subs, 5, 3)
scoring: {score: sonar_vp + publication_vp + conservation_vp + depth5_vp}
"""


def majority_game(tmp_path, sonar, publication, conservation):
    text = (MAJORITY.replace("SONAR", sonar).replace("PUBLICATION", publication)
            .replace("CONSERVATION", conservation))
    return start(make_game(tmp_path, text), players=3)


def test_target_t_en_13_majority_bonus_with_ties_and_zero_not_eligible(tmp_path):
    e = majority_game(tmp_path, "[6, 4, 2]", "[3, 5, 5]", "[5, 7, 2]")
    violet, yellow, red = e.state["players"]
    assert violet["sonar_vp"] == 11                        # E31: clear 1st, 6 + 5
    assert violet["publication_vp"] == 3                   # E32: Yellow and Red tie for 1st ...
    assert yellow["publication_vp"] == red["publication_vp"] == 5 + 5   # ... both get 1st
    assert violet["conservation_vp"] == 9                  # E33: clear 2nd, 5 + 4
    assert (yellow["sonar_vp"], red["sonar_vp"]) == (4 + 3, 2)
    assert [p["depth5_vp"] for p in e.state["players"]] == [0, 0, 0]   # E34: nobody qualifies


def test_target_t_en_13_players_tied_for_second_all_get_it(tmp_path):
    e = majority_game(tmp_path, "[5, 9, 5]", "[0, 1, 0]", "[2, 2, 2]")
    violet, yellow, red = e.state["players"]
    assert (violet["sonar_vp"], yellow["sonar_vp"], red["sonar_vp"]) == (5 + 3, 9 + 5, 5 + 3)
    assert (violet["publication_vp"], yellow["publication_vp"]) == (0, 1 + 5)   # 0: no 2nd place
    assert [p["conservation_vp"] for p in e.state["players"]] == [2 + 6] * 3    # all tied 1st


# ----------------------------------------------------------------------------------------------
# T-EN-14  Floor division and complete sets in final scoring
FLOOR = """
game: floor
players: 1
tables:
  tile_names: [z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13]
  disc_places: [z1, z2, z2, z3, z4, z5, z6, z7, z8]        # two discs in z2
  sub_places: [z8, z9, z10, z11]                           # z8 holds a disc and a submersible
  stored_tokens: [{name: stored, research: 3}]
  journal_cards: [{name: teaching, points: 4}]
counters:
  research: {per: player, initial: 2, max: 12}
  research_vp: {per: player, initial: 0}
  journal_vp: {per: player, initial: 0}
  senior_vp: {per: player, initial: 0}
zones:
  reserve: {per: player}
  transit: {per: player}
  ocean_discs: {per: player}
  subs: {per: player}
  dive_tokens: {}
  journals: {}
items:
  disc: {per: player, count: 20, zone: reserve, fields: {at: none}}
  sub: {per: player, count: 4, zone: subs, fields: {at: none}}
  token: {from: stored_tokens, zone: dive_tokens}
  journal: {from: journal_cards, zone: journals}
formulas:
  present(p, z): any(d.at == z for d in p.ocean_discs) or any(s.at == z for s in p.subs)
setup: |
  deal 2 from reserve to transit
  for each z in disc_places:
    let d = top(reserve)
    move d to ocean_discs
    set d.at to z
  for each z in sub_places:
    set first([s for s in subs if s.at == none]).at to z
flow:
  - do: |
      # research (with the stored token's) plus transit discs: 1 VP per 3, rounded down
      set research_vp to (research + sum(t.research for t in dive_tokens) + count(transit)) // 3
      set journal_vp to sum(j.points for j in journals)
      # Senior Famous Adventurer: 1 VP per complete set of 3 zones with a disc or a submersible
      set senior_vp to count([z for z in tile_names if present(you, z)]) // 3
scoring: {score: research_vp + journal_vp + senior_vp}
"""


def test_target_t_en_14_floor_division_and_complete_sets(tmp_path):
    e = start(make_game(tmp_path, FLOOR), players=1)
    me = e.state["players"][0]
    assert me["research_vp"] == 2                          # E35: (2 + 2 + 3) // 3
    assert me["journal_vp"] + me["senior_vp"] == 7         # E30: 4 + 11 // 3
    assert me["senior_vp"] == 3 and e.result["scores"] == [9]


# ----------------------------------------------------------------------------------------------
# T-EN-15  Co-Op: an overlay with group thresholds by player count and a difficulty
COOP_BASE = """
game: coop
players: [1, 5]
options:
  difficulty: {default: beginner}
tables:
  objective_names: [impact_board, sonar, publication, conservation, bonus_a, bonus_b, bonus_c]
  coop_band:                                   # group threshold by player count
    impact_board: {1: 15, 2: 30, 3: 45, 4: 60, 5: 75}
    sonar: {1: 8, 2: 12, 3: 15, 4: 18, 5: 20}
    publication: {1: 5, 2: 8, 3: 11, 4: 13, 5: 15}
    conservation: {1: 6, 2: 9, 3: 14, 4: 17, 5: 20}
    bonus_a: {1: 2, 2: 3, 3: 4, 4: 5, 5: 6}
    bonus_b: {1: 2, 2: 3, 3: 4, 4: 5, 5: 6}
    bonus_c: {1: 2, 2: 3, 3: 4, 4: 5, 5: 6}
  objectives_needed: {beginner: 4, intermediate: 5, expert: 6, legendary: 7}
  end_state:                                   # what each seat achieved (synthetic)
    impact_board: [15, 15, 15]
    sonar: [5, 5, 5]
    publication: PUBLICATION
    conservation: [1, 1, 1]
    bonus_a: [2, 1, 1]
    bonus_b: [0, 0, 0]
    bonus_c: [0, 0, 0]
zones:
  reserve: {per: player}
  achieved: {per: player, each: objective_names}
items:
  marker: {per: player, count: 60, zone: reserve}
formulas:
  group_total(k): sum(count(p.achieved[k]) for p in players)
  met(k): group_total(k) >= coop_band[k][player_count]
  majority_bonus(p): >-
    if count(p.achieved["publication"]) > 0
    and all(count(q.achieved["publication"]) <= count(p.achieved["publication"]) for q in players)
    then 5 else 0
setup: |
  for each p in players:
    for each k in objective_names:
      deal end_state[k][p] from p.reserve to p.achieved[k]
flow: []
scoring:
  score: count(achieved["publication"]) + majority_bonus(you)
"""
COOP_VARIANT = """
variant: coop
extends: coop
formulas:
  majority_bonus(p): 0                          # no majority bonuses in Co-Op
scoring:
  winners: >-
    if count([k for k in objective_names if met(k)]) >= objectives_needed[difficulty]
    then players else []
"""


def coop_game(tmp_path, publication, variant="coop", difficulty=None):
    from meeplang.dsl.resolve import load_game
    from meeplang.interpreter.engine import Engine
    make_game(tmp_path, COOP_BASE.replace("PUBLICATION", publication))
    (tmp_path / "g" / "variants").mkdir()
    (tmp_path / "g" / "variants" / "coop.yaml").write_text(COOP_VARIANT)
    game = load_game(str(tmp_path / "g"), variant)
    e = Engine(game, 3, 0, {"difficulty": difficulty} if difficulty else None)
    e.start()
    return e


def test_target_t_en_15_coop_group_thresholds_by_player_count(tmp_path):
    # 3 players: the Publication objective is met at 11 combined discs (with 3 others: 4 of 7)
    e = coop_game(tmp_path, "[4, 4, 3]")
    assert e.decision is None and e.result["winners"] == [0, 1, 2]
    assert e.result["scores"] == [4, 4, 3]                 # no majority bonus in Co-Op


def test_target_t_en_15_coop_ten_discs_miss_the_band(tmp_path):
    e = coop_game(tmp_path, "[4, 4, 2]")
    assert e.result["winners"] == []


def test_target_t_en_15_coop_difficulty_needs_more_objectives(tmp_path):
    e = coop_game(tmp_path, "[4, 4, 3]", difficulty="intermediate")
    assert e.result["winners"] == []                       # 4 met, 5 needed


def test_target_t_en_15_competitive_mode_keeps_majorities(tmp_path):
    e = start(make_game(tmp_path, COOP_BASE.replace("PUBLICATION", "[4, 4, 3]")), players=3)
    assert e.result["scores"] == [9, 9, 3] and e.result["winners"] == [0, 1]


# ----------------------------------------------------------------------------------------------
# T-EN-16  Co-Op: the bonus/setback pile, one card revealed at the start of every round
PILE = """
game: pile
players: [1, 4]
tables:
  setbacks: SETBACKS
  bonus_objectives: [{name: erudition}, {name: motivation}, {name: b3}, {name: b4}, {name: b5}, {name: b6}]
rule_text:
  setbacks: {fields: [effect]}
zones:
  setback_box: {visibility: hidden}
  bonus_box: {visibility: hidden}
  pile: {visibility: hidden}
  face_up_objectives: {}
  setback_discard: {}
  subs: {per: player}
items:
  setback: {from: setbacks, zone: setback_box, fields: {revealed: suffer_setback}}
  bonus_card: {from: bonus_objectives, zone: bonus_box, fields: {revealed: take_up_objective}}
  sub: {per: player, count: 2, zone: subs, fields: {depth: "if n == 1 then 2 else 5"}}
setup: |
  shuffle setback_box
  deal (if player_count == 1 then 4 else 3) from setback_box to pile    # solo: 4
  shuffle bonus_box
  deal 3 from bonus_box to pile at top
flow:
  - repeat: if player_count == 1 then 7 else 6
    as: round
    steps:
      - phase: round_start
        steps:
          - do: |
              let card = top(pile)
              do card.revealed with card = card    # what revealing it does: a field
      - turns: {first: 0, actions: [pass_], until: all_passed}
actions:
  pass_: {effect: pass}
  take_up_objective: {takes: card, effect: move card to face_up_objectives}
  suffer_setback:
    takes: card
    effect: |
      do card.effect
      move card to setback_discard
  volcanic_activity:                        # every submersible of every player: up 2 levels
    effect: |
      for each p in players:
        for each s in p.subs:
          set s.depth to max(1, s.depth - 2)
scoring: {score: 0}
"""
VARIED = ("[{name: volcanic_activity, effect: volcanic_activity}, {name: storm, effect: null}, "
          "{name: leak, effect: null}, {name: strike, effect: null}, {name: fog, effect: null}]")
VOLCANIC = "[" + ", ".join(["{name: volcanic_activity, effect: volcanic_activity}"] * 4) + "]"


def test_target_t_en_16_bonus_objectives_then_setbacks_one_per_round(tmp_path):
    e = start(make_game(tmp_path, PILE.replace("SETBACKS", VARIED)), players=2)
    kinds = [e.state["items"][c]["kind"] for c in e.state["zones"]["pile"]]
    assert kinds == ["bonus_card"] * 2 + ["setback"] * 3     # round 1 already revealed one
    for _ in range(2):
        play_labels(e, ["pass_", "pass_"])
    assert len(e.state["zones"]["face_up_objectives"]) == 3 and e.state["zones"]["setback_discard"] == []
    play_labels(e, ["pass_", "pass_"])                       # round 4: the first setback
    assert len(e.state["zones"]["setback_discard"]) == 1
    for _ in range(3):
        play_labels(e, ["pass_", "pass_"])
    assert e.decision is None and e.state["zones"]["pile"] == []
    assert len(e.state["zones"]["setback_discard"]) == 3 and len(e.state["zones"]["setback_box"]) == 2


def test_target_t_en_16_volcanic_activity_moves_every_submersible_up_two(tmp_path):
    e = start(make_game(tmp_path, PILE.replace("SETBACKS", VOLCANIC)), players=2)
    depths = lambda: [[e.state["items"][s]["depth"] for s in e.state["zones"][f"subs@{p}"]]
                      for p in (0, 1)]
    for _ in range(3):
        play_labels(e, ["pass_", "pass_"])
    assert depths() == [[1, 3]] * 2                          # round 4: 2 -> 1, 5 -> 3, both players
    play_labels(e, ["pass_", "pass_"])
    assert depths() == [[1, 1]] * 2                          # as far as possible: 3 -> 1, 1 stays


def test_target_t_en_16_solo_pile_has_four_setbacks_over_seven_rounds(tmp_path):
    e = start(make_game(tmp_path, PILE.replace("SETBACKS", VARIED)), players=1)
    assert len(e.state["zones"]["pile"]) == 6                # 3 bonus + 4 setbacks, 1 revealed
    play_labels(e, ["pass_"] * 7)
    assert e.decision is None and len(e.state["zones"]["setback_discard"]) == 4
    assert len(e.state["zones"]["face_up_objectives"]) == 3
