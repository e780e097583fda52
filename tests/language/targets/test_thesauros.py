"""Thesauros expressiveness targets (LANGUAGE-TARGETS.md, "Thesauros (T-TH)").

Each test states one target as a small inline game, written as close to the rule sentence as the
language allows, and plays the worked example of shared/rules/thesauros.md (EX-nn) with its
numbers. Where a target can only be stated in part, the docstring says what is missing.
"""
import pytest

from meeplang.dsl.resolve import load_game
from meeplang.dsl.errors import UsageError

from ..helpers import make_game, play_labels, start


def _variant(tmp_path, name: str, text: str, game: str = "g"):
    """Write variants/<name>.yaml next to an inline game and load the game with it."""
    folder = tmp_path / game
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return load_game(str(folder), name)


def _me(e, seat=0):
    return e.state["players"][seat]


# ---------------------------------------------------------------------------------- T-TH-01
ACCOUNTS = """
game: accounts
players: [1, 2]
options:
  year: {default: 2, min: 1, max: 3}
  expense: {default: 12}
tables:
  fee: {1: 1, 2: 2, 3: 3}                # per source account used, by year (§7.2)
  start: {hr: 4, rd: 8, me: 4, sf: 0}
counters:
  accounts:                              # never to or from the Slush Fund (outside Intro)
    per: player
    each: [hr, rd, me, sf]
    initial: start[key]
    min: 0
    transfer: {fee: "fee[year]", from: [hr, rd, me], into: [hr, rd, me], fee_to: bank}
  rp: {per: player, initial: 0, min: 0}
  workers: {per: player, initial: 5}
  bank: {initial: 0}
actions:
  pay_expense:                           # "pay N from HR": the rules make the transfers
    requires: funds(accounts["hr"]) >= expense
    effect: |
      pay expense from accounts["hr"] to bank
      end game
  bribe:                                 # Zone 10 is paid from the Slush Fund
    requires: funds(accounts["sf"]) >= 9
    effect: pay 9 from accounts["sf"] to bank
  # Salary (§7.5): $2 per worker from HR; if HR is short, every possible transfer is made
  # (fees paid), then 1 RP lost per worker not fully paid.
  salary:
    effect: |
      let paid = min(workers, funds(accounts["hr"]) // 2)
      pay 2 * paid from accounts["hr"] to bank
      lose workers - paid rp
flow:
  - turns: {first: 0, actions: [pay_expense, bribe, salary], until: never}
scoring: {score: rp}
"""


def _accounts(e, seat=0):
    return tuple(_me(e, seat)[f"accounts[{a}]"] for a in ("hr", "rd", "me", "sf"))


def test_target_t_th_01_account_transfers_fees_and_salary(tmp_path):
    """EX-03 (transfers with a per-source fee by year) and EX-29 (forced transfers at Salary).

    The fee, its sources and its payee are declared once on the accounts; actions only say "pay N
    from HR", and a payment HR cannot make, even with every transfer, is not offered."""
    game = make_game(tmp_path, ACCOUNTS)
    e = start(game, players=1, options={"expense": 13})
    assert e.decision.labels == ["salary"]  # $13 > HR 4 + R&D (8 - 2) + ME (4 - 2)
    e = start(game, players=1)
    assert e.decision.labels == ["pay_expense", "salary"]  # the Slush Fund is empty: no bribe
    play_labels(e, ["pay_expense"])
    assert _accounts(e) == (0, 8 - 8, 4 - 4, 0)             # EX-03: $6 + $2 moved, $2 fee each
    assert e.state["counters"]["bank"] == 12 + 4
    assert [(t["from"], t["amount"], t["fee"]) for t in e.events if t["event"] == "transfer"] == [
        ("accounts[rd]", 6, 2), ("accounts[me]", 2, 2)]

    # EX-29: year 3, 4 workers, HR $5, R&D $10: $3 moves from R&D plus a $3 fee; all paid.
    ex29 = (ACCOUNTS.replace("start: {hr: 4, rd: 8, me: 4, sf: 0}", "start: {hr: 5, rd: 10, me: 0, sf: 0}")
            .replace("workers: {per: player, initial: 5}", "workers: {per: player, initial: 4}")
            .replace("rp: {per: player, initial: 0", "rp: {per: player, initial: 2"))
    e = start(make_game(tmp_path, ex29, name="ex29"), players=1, options={"year": 3})
    play_labels(e, ["salary"])
    assert _accounts(e)[:2] + (_me(e)["rp"], e.state["counters"]["bank"]) == (0, 10 - 3 - 3, 2, 3 + 8)
    # all accounts together short: R&D $4 can give only $1 (fee $3): 3 workers unpaid, RP 2 -> 0
    short = ex29.replace("start: {hr: 5, rd: 10,", "start: {hr: 1, rd: 4,")
    e = start(make_game(tmp_path, short, name="short"), players=1, options={"year": 3})
    play_labels(e, ["salary"])
    assert _accounts(e)[:2] + (_me(e)["rp"], e.state["counters"]["bank"]) == (0, 0, 0, 2 + 3)


def test_target_t_th_01_intro_slush_fund_overlays(tmp_path):
    """Intro mode: the FR reading adds the Slush Fund as a source only, the EN one both ways;
    each is an overlay changing only the accounts' transfer `from:`/`into:` lists."""
    make_game(tmp_path, ACCOUNTS.replace("me: 4, sf: 0}", "me: 4, sf: 7}"))
    fr = _variant(tmp_path, "intro_fr", "variant: intro_fr\nextends: accounts\ncounters:\n"
                                        "  accounts: {transfer: {from: [hr, rd, me, sf]}}\n")
    en = _variant(tmp_path, "intro_en", "variant: intro_en\nextends: accounts\ncounters:\n"
                                        "  accounts: {transfer: {from: [hr, rd, me, sf], "
                                        "into: [hr, rd, me, sf]}}\n")
    base = start(load_game(str(tmp_path / "g")), players=1, options={"expense": 16})
    assert base.decision.labels == ["salary"]     # 4 + 6 + 2 < 16; the Slush Fund $7 is out of reach
    e = start(fr, players=1, options={"expense": 16})
    assert e.decision.labels == ["pay_expense", "salary"]  # FR: out of the Slush Fund
    play_labels(e, ["pay_expense"])
    assert _accounts(e) == (0, 0, 0, 7 - 4 - 2)
    e = start(en, players=1)
    assert e.decision.labels == ["pay_expense", "bribe", "salary"]  # EN: into it as well
    play_labels(e, ["bribe"])                     # $2 short: HR, the first source, gives it
    assert _accounts(e) == (4 - 2 - 2, 8, 4, 0)


# ---------------------------------------------------------------------------------- T-TH-02
LINES = """
game: lines
players: [3, 4]
tables:
  zones_with_lines: [1, 2, 6]            # 1 = the blue line, 2 = a red line, 6 = no limit
  line_sizes: {3: {1: 4, 2: 3, 6: null}, 4: {1: 5, 2: 4, 6: null}}   # null: no limit
zones:
  rest: {per: player}
  line: {each: zones_with_lines, capacity: "by_players(line_sizes)[key]"}
items:
  meeple: {per: player, count: 3, zone: rest}
actions:
  place:
    choose: z in zones_with_lines where not full(line[z])
    requires: not empty(rest)
    effect: move top(rest) to line[z]          # the first free (top-most) space
flow:
  - turns: {first: 0, actions: [place], per_turn: 1, until: "all(empty(p.rest) for p in players)"}
scoring: {score: 0}
"""


@pytest.mark.parametrize("players, blue, red", [(3, 4, 3), (4, 5, 4)])
def test_target_t_th_02_waiting_lines_sized_by_player_count(tmp_path, players, blue, red):
    """EX-04/EX-05: the blue line holds 5 at 4p and 4 at 3p, a red line 4 and 3; Zone 6 has no
    limit. The capacity is declared once on the zone family (a player-count table, `null` for
    no limit) and the choice reads it with `full(...)`."""
    e = start(make_game(tmp_path, LINES), players=players)
    play_labels(e, ["place 1"] * blue)
    assert e.decision.labels == ["place 2", "place 6"]  # a full line takes no more
    with pytest.raises(UsageError, match="'place 1' is not a legal way to place now"):
        e.choose_label("place 1")
    line = e.state["zones"]["line[1]"]
    assert [e.state["items"][m]["owner"] for m in line] == [s % players for s in range(blue)]
    play_labels(e, ["place 2"] * red)
    assert e.decision.labels == ["place 6"]
    while e.decision is not None:  # compulsory: every meeple is placed, Zone 6 takes the rest
        play_labels(e, ["place 6"])
    assert len(e.state["zones"]["line[6]"]) == 3 * players - blue - red
    assert all(not e.state["zones"][f"rest@{p}"] for p in range(players))


# ---------------------------------------------------------------------------------- T-TH-03
RESOLUTION = """
game: resolution
players: [2, 2]
tables:
  zone_keys: [1, 4, 5, 6]
  zone_actions: {1: [earn, recruit], 4: [fly], 5: [rent], 6: [fish]}
rule_text:
  zone_actions: {}                 # every value is an action of its zone
counters:
  coins: {per: player, initial: 0}
  rp: {per: player, initial: 2, min: 0}
zones:
  line: {each: zone_keys}
  rest: {per: player}
items:
  meeple: {per: player, count: 2, zone: rest, fields: {double: false}}
setup: |
  move top(players[1].rest) to line[1]
  move top(players[0].rest) to line[1]
  set line[1][1].double to true                # on its owner's Double Action token
  move top(players[0].rest) to line[4]
  move top(players[1].rest) to line[6]
actions:
  resolve:                       # a meeple acts in its zone; "does not act" costs 1 RP, once here
    takes: [m, z]
    effect: |
      let actions = if m.double then 2 else 1
      may do one of zone_actions[z] actions times else lose 1 rp
      set m.double to false       # the Double Action token goes back to the box
  earn: {effect: gain 1 coins}
  recruit: {effect: gain 10 coins}
  fly: {effect: gain 100 coins}
  rent: {effect: gain 1000 coins}
  fish: {effect: gain 2 coins}
flow:
  - repeat: 2
    as: q
    steps:
      - do: |
          for each z in zone_keys:
            if q > 1 or z not in [4, 5]:         # Zones 4 and 5 are skipped in Q1
              for each m in line[z]:               # waiting-line order
                do resolve for owner(m) with m = m, z = z
scoring: {score: coins}
"""


def test_target_t_th_03_resolution_order_decline_costs_rp_and_double_action(tmp_path):
    """Zones resolve in ascending order (4 and 5 skipped in Q1), meeples in line order; declining
    costs 1 RP in one rule; a Double Action meeple performs 2 (different) actions of its zone.

    The zone's actions are data (`rule_text:`), done with `may do one of zone_actions[z]`; the
    price of declining is that statement's `else lose 1 rp`."""
    e = start(make_game(tmp_path, RESOLUTION))
    seen = []

    def answer(label):
        seen.append((e.decision.player, tuple(e.decision.labels)))
        play_labels(e, [label])

    answer("earn")           # Q1, zone 1: player 1's meeple first
    answer("earn")           # player 0's meeple on its Double Action token: two actions...
    answer("recruit")        # ...which may differ
    answer("skip")           # zone 6: player 1 declines (zone 4 was skipped in Q1)
    assert seen == [(1, ("earn", "recruit", "skip"))] + [(0, ("earn", "recruit", "skip"))] * 2 \
        + [(1, ("fish", "skip"))]
    assert [(p["coins"], p["rp"]) for p in e.state["players"]] == [(11, 2), (1, 1)]
    answer("earn")           # Q2, zone 1: the token is gone, one action only
    answer("recruit")
    assert e.decision.player == 0 and e.decision.labels == ["fly", "skip"]  # zone 4 now
    answer("skip")
    answer("fish")
    assert e.decision is None
    assert [(p["coins"], p["rp"]) for p in e.state["players"]] == [(21, 1), (4, 1)]


# ---------------------------------------------------------------------------------- T-TH-04
APPRENTICE = """
game: apprentice
players: [2, 4]
tables:
  zone_keys: [2, 6]
  hat_zones: [2, 3, 7, 8]
  hats_per_zone: {2: 1, 3: 2, 4: 3}
counters:
  coins: {per: player, initial: 20}
zones:
  line: {each: zone_keys}
  rest: {per: player}
  hat_supply: {}
  box: {}
items:
  meeple: {per: player, count: 2, zone: rest, fields: {boss: "n == 1", hat: none}}
  hat: {count: by_players(hats_per_zone), zone: hat_supply, fields: {zones: "[2]"}}   # #5/7: [5, 7]
formulas:
  # the one "Boss advantage here" predicate: the Boss, or a worker wearing this zone's hat
  advantaged(m, z): m.boss or (m.hat != none and z in m.hat.zones)
  hatless(p, z): "[x for x in line[z] if owner(x) == p and not x.boss and x.hat == none]"
  boss_or_hatless(p, z): "[x for x in line[z] if owner(x) == p and (x.boss or x.hat == none)]"
  hats_left(z): "[h for h in hat_supply if z in h.zones]"
setup: |
  move players[0].rest[0] to line[2]      # Red's Boss
  move players[0].rest[0] to line[2]      # Red's basic worker
  move players[1].rest[1] to line[2]      # Green's basic worker
  move players[1].rest[0] to line[2]      # Green's Boss
actions:
  resolve:
    takes: [m, z]
    effect: pay 5 - (if advantaged(m, z) then 2 else 0) coins     # buy at bank cost $5, $2 off
  put_hat:
    takes: z
    effect: |
      let hat = first(hats_left(z))
      set first(hatless(you, z)).hat to hat      # worn for good
      move hat to box
triggers:
  apprenticeship:                          # just before the first of Boss / hatless worker resolves
    when: before resolve
    if: >-
      z in hat_zones and not empty(hats_left(z)) and not empty(hatless(you, z))
      and any(x.boss for x in boss_or_hatless(you, z)) and m == first(boss_or_hatless(you, z))
    effect: may do put_hat with z = z
flow:
  - do: |
      for each z in zone_keys:
        for each m in line[z]:
          do resolve for owner(m) with m = m, z = z
scoring: {score: coins}
"""


@pytest.mark.parametrize("players, green_hat", [(3, True), (2, False)])
def test_target_t_th_04_apprenticeship_hat_gives_boss_advantage_at_once(tmp_path, players, green_hat):
    """EX-06: line Red Boss, Red worker, Green worker, Green Boss. Red hats its worker just before
    its Boss acts; Green hats its worker just before that worker acts, which then pays $2 less in
    the same action. Hats: 2 per zone at 3p, 1 at 2p (then they go in line order: Green gets none).
    The worker's `hat` field holds the hat item itself, so the one predicate reads the zones that
    hat covers (the #5/7 hat would be `zones: [5, 7]`), with no coded hat number."""
    e = start(make_game(tmp_path, APPRENTICE), players=players)
    assert e.decision.player == 0 and e.decision.labels == ["put_hat", "skip"]
    play_labels(e, ["put_hat"])
    if green_hat:
        assert e.decision.player == 1 and e.decision.labels == ["put_hat", "skip"]
        play_labels(e, ["put_hat"])
    assert e.decision is None
    items = e.state["items"]
    hats = {items[m]["owner"]: items[m]["hat"] and items[items[m]["hat"]]["zones"]
            for m in e.state["zones"]["line[2]"] if not items[m]["boss"]}
    assert hats == {0: [2], 1: [2] if green_hat else None}
    assert _me(e, 0)["coins"] == 20 - 3 - 3
    assert _me(e, 1)["coins"] == 20 - (3 if green_hat else 5) - 3


@pytest.mark.parametrize("players", [2, 3])
def test_target_t_th_04_a_declined_hat_is_offered_only_before_the_first_of_the_two(tmp_path,
                                                                                   players):
    """Red declines the hat just before its Boss, the first of the two, resolves: it is not
    offered again before Red's worker, which pays in full; the hat left goes to Green, next in
    line (at 2 players the only hat)."""
    e = start(make_game(tmp_path, APPRENTICE), players=players)
    play_labels(e, ["skip"])
    assert e.decision.player == 1 and e.decision.labels == ["put_hat", "skip"]
    play_labels(e, ["put_hat"])
    assert e.decision is None
    assert _me(e, 0)["coins"] == 20 - 3 - 5
    assert _me(e, 1)["coins"] == 20 - 3 - 3


# ---------------------------------------------------------------------------------- T-TH-05
ROYALTIES = """
game: royalties
players: [2, 2]
tables:
  techs: [{name: mask, d: 5, g: 3, h: 2}, {name: cage, d: 4, g: 3, h: 2}]
counters:
  coins: {per: player, initial: 20, min: 0}
  bank: {initial: 0}
zones:
  market: {}
  acting: {per: player}                        # the meeple taking the Zone 2 action
items:
  tech: {from: techs, zone: market, fields: {patent: none}}
  meeple: {per: player, count: 1, zone: acting, fields: {boss: false, hat: 2}}
setup: set market[1].patent to players[1]      # player 1 owns the cage patent
formulas:
  # the Boss or a SW#2 gets $2 off once, on the bank part only
  advantage(): sum((if m.boss or m.hat == 2 then 2 else 0) for m in acting)
actions:
  develop_and_buy:                 # D + G + H, all to the bank
    choose: card in market where card.patent == none
    cost:
      from: coins
      bank: {amount: card.d + card.g + card.h, to: bank}
    discount: {bank: advantage()}
    effect: |
      set card.patent to you
      end turn
  buy:                             # G to the bank, H to the patent owner (never discounted)
    choose: card in market where card.patent != none
    cost:
      from: coins
      bank: {amount: card.g, to: bank}
      royalty: {amount: card.h, to: card.patent}
    discount: {bank: advantage()}
    effect: end turn
flow:
  - turns: {first: 0, actions: [develop_and_buy, buy], per_turn: 1, until: one_round}
scoring: {score: coins}
"""


def test_target_t_th_05_bank_part_discounted_royalty_in_full(tmp_path):
    """EX-27: a SW#2 develops and buys (D 5, G 3, H 2): $8 to the bank; a SW#2 buying a patent
    another player owns pays G - 2 to the bank and H in full to the owner; the owner pays only G
    (a part paid to oneself costs nothing). The price is parts with payees; the discount names
    the bank part; a price the player cannot pay is not offered."""
    e = start(make_game(tmp_path, ROYALTIES))
    assert e.decision.labels == ["develop_and_buy tech#1", "buy tech#2"]
    play_labels(e, ["develop_and_buy tech#1"])
    assert (_me(e, 0)["coins"], e.state["counters"]["bank"]) == (20 - 8, 8)
    play_labels(e, ["buy tech#1"])  # player 1 buys player 0's mask: G - 2 = 1 to the bank, H = 2 to 0
    assert (_me(e, 1)["coins"], _me(e, 0)["coins"], e.state["counters"]["bank"]) == (17, 14, 9)

    basic = ROYALTIES.replace("hat: 2}", "hat: 1}")   # a SW#1 acts: no discount
    e = start(make_game(tmp_path, basic, name="plain"))
    play_labels(e, ["buy tech#2"])   # no advantage: G 3 to the bank, H 2 to the owner
    assert (_me(e, 0)["coins"], _me(e, 1)["coins"], e.state["counters"]["bank"]) == (15, 22, 3)
    play_labels(e, ["buy tech#2"])   # the patent owner pays only G
    assert (_me(e, 1)["coins"], e.state["counters"]["bank"]) == (19, 6)

    for coins, labels in ((8, ["develop_and_buy tech#1", "buy tech#2"]),   # 10 - 2 = $8
                          (7, ["buy tech#2"])):                            # G - 2 + H = $3
        game = make_game(tmp_path, ROYALTIES.replace("initial: 20", f"initial: {coins}"),
                         name=f"c{coins}")
        assert start(game).decision.labels == labels
    e = start(make_game(tmp_path, basic.replace("initial: 20", "initial: 4"), name="poor"))
    assert e.decision.player == 1 and e.decision.labels == ["buy tech#2"]  # 0 cannot pay 3 + 2
    play_labels(e, ["buy tech#2"])   # the owner pays G = 3 of its 4
    assert (_me(e, 1)["coins"], e.state["counters"]["bank"]) == (1, 3)


# ---------------------------------------------------------------------------------- T-TH-06
FLEA = """
game: flea
players: 1
tables:
  prices: [1, 2, 3, 4, 5, 6, 7, 8]                  # the price track; a space is named by its price
  draws: [{number: 1}, {number: 3}, {number: 2}, {number: 2}, {number: 4}, {number: 2}]
counters:
  coins: {per: player, initial: 30, min: 0}
zones:
  deck: {}
  space: {each: prices}                            # each space holds a stack (index 0 = top)
  maps: {per: player}
items:
  map: {from: draws, zone: deck}
formulas:
  free_spaces(): "[s for s in prices if empty(space[s])]"
  nearest_cheaper(here): "highest(each s in [s for s in free_spaces() if s < here] by s)"
  nearest_dearer(here): "lowest(each s in [s for s in free_spaces() if s > here] by s)"
  holding(n): "[s for s in prices if any(m.number == n for m in space[s])]"
actions:
  place_new_map:                    # setup and maintenance alike
    takes: card
    effect: |
      if empty(holding(card.number)):
        move card to space[lowest(each s in [s for s in free_spaces() if s >= 4] by s)]
      else:
        let here = first(holding(card.number))
        move card to space[here] at top
        do move_stack with here = here, there = nearest_cheaper(here)
  move_stack:
    takes: [here, there]
    effect: |
      if there != none:
        for each m in [m for m in space[here]]:
          move m to space[there]
  draw:                             # stands for a maintenance draw
    requires: not empty(deck)
    effect: do place_new_map with card = top(deck)
  buy:
    choose: s in prices where not empty(space[s])
    effect: |
      pay s coins
      move top(space[s]) to maps
      if not empty(space[s]):
        do move_stack with here = s, there = nearest_dearer(s)
setup: |
  repeat 3 times:
    do place_new_map with card = top(deck)
flow:
  - turns: {first: 0, actions: [draw, buy], until: never}
scoring: {score: coins}
"""


def _track(e):
    return {int(k[6:-1]): [e.state["items"][m]["number"] for m in v]
            for k, v in e.state["zones"].items() if k.startswith("space[") and v}


def test_target_t_th_06_flea_market_stacks_move_to_the_nearest_free_space(tmp_path):
    """EX-10 (a second copy is stacked and the stack moves to the first free cheaper space, a $3
    space) and EX-09 (buying the top of a stack on $5 with $6 taken moves the rest to $7)."""
    e = start(make_game(tmp_path, FLEA), players=1)
    assert _track(e) == {4: [1], 5: [3], 6: [2]}
    play_labels(e, ["buy 5", "draw"])        # $5 freed; a 2nd #2 joins the #2 on $6: the stack -> $5
    assert _track(e) == {4: [1], 5: [2, 2]}
    play_labels(e, ["draw"])                 # #4: the cheapest free space worth at least $4
    assert _track(e) == {4: [1], 5: [2, 2], 6: [4]}
    play_labels(e, ["buy 5"])                # EX-09: pays $5, the remaining #2 moves to $7
    assert _track(e) == {4: [1], 6: [4], 7: [2]}
    assert _me(e)["coins"] == 30 - 5 - 5
    play_labels(e, ["draw"])                 # a 3rd #2 joins $7; $6 is taken: the stack moves to $5
    assert _track(e) == {4: [1], 5: [2, 2], 6: [4]}
    e2 = start(make_game(tmp_path, FLEA.replace("{number: 3}, {number: 2}, {number: 2}",
                                                "{number: 2}, {number: 3}, {number: 2}"), name="ex10"), players=1)
    play_labels(e2, ["draw"])                # EX-10: #1 on $4, #2 on $5, #3 on $6; a 2nd #2 is drawn
    assert _track(e2) == {3: [2, 2], 4: [1], 6: [3]}


# ---------------------------------------------------------------------------------- T-TH-07
DIG_TILES = """
game: digtiles
players: [3, 3]
tables:
  sites: [3, 5]
  tiles: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}]
zones:
  pile: {visibility: hidden}
  drawn: {per: player, visibility: owner}
  dig_site: {each: sites, visibility: hidden}
  map_supply: {}
  maps: {per: player}
items:
  tile:                             # face down, only the holders of the site's map may look
    from: tiles
    zone: pile
    fields: {face_up: false}
    visible_to: item.face_up or holds(viewer, key)
  map: {count: 3, zone: map_supply, fields: {number: "[3, 5, 5][n - 1]"}}
formulas:
  holds(p, n): any(m.number == n for m in p.maps)
triggers:
  first_map:                        # the first player to get map n: keep 1 of the top 3
    when: enters maps
    if: empty(dig_site[item.number])
    effect: |
      deal 3 from pile to drawn
      choose kept in drawn
      for each t in [t for t in drawn if t != kept]:
        move t to pile at bottom
      move kept to dig_site[item.number]
actions:
  arrive:                           # a map holder's zodiac first arrives at site n
    choose: n in sites where holds(you, n) and not empty(dig_site[n]) and not top(dig_site[n]).face_up
    effect: set top(dig_site[n]).face_up to true
  wait: {effect: end turn}
setup: |                            # EX-11: Red gets maps 3 and 5, then Blue a map 5
  move map_supply[0] to players[0].maps
  move map_supply[0] to players[0].maps
  move map_supply[0] to players[1].maps
flow:
  - turns: {first: 0, actions: [arrive, wait], per_turn: 1, until: one_round}
scoring: {score: 0}
"""


def test_target_t_th_07_keep_one_of_three_face_down_then_face_up_on_arrival(tmp_path):
    """EX-11: Red (maps 3 and 5) draws 3 tiles for each site, keeps 1 secretly, the other 2 go
    under the pile; the kept tiles lie face down, seen by the holders of the site's map (Red both,
    Blue site 5's, Green neither), and site 5's turns face up for all when Red arrives there.

    Visibility is declared on the tile (`visible_to:`) and `view` derives it; the first map of a
    number draws through a trigger on a map entering a player's maps."""
    e = start(make_game(tmp_path, DIG_TILES), players=3)
    assert e.decision.player == 0 and e.decision.labels == ["tile#1", "tile#2", "tile#3"]
    assert e.view(2)["zones"]["drawn@0"] == ["?"] * 3        # the draw is secret
    play_labels(e, ["tile#2"])                               # for site 3; tiles 1 and 3 go under
    assert e.state["zones"]["drawn@0"] == ["tile#4", "tile#5", "tile#1"]   # the pile: 4 5 1 3
    assert e.state["zones"]["pile"] == ["tile#3"]
    play_labels(e, ["tile#4"])                               # for site 5 (Blue's map 5 draws none)
    assert e.state["zones"]["pile"] == ["tile#3", "tile#5", "tile#1"]
    red, blue, green = (e.view(p)["zones"] for p in range(3))
    assert (red["dig_site[3]"], red["dig_site[5]"]) == (["tile#2"], ["tile#4"])
    assert (blue["dig_site[3]"], blue["dig_site[5]"]) == (["?"], ["tile#4"])
    assert (green["dig_site[3]"], green["dig_site[5]"]) == (["?"], ["?"])
    assert "tile#4" not in e.view(2)["items"] and "tile#2" not in e.view(1)["items"]
    assert e.decision.labels == ["arrive 3", "arrive 5", "wait"]
    play_labels(e, ["arrive 5"])                             # Red's zodiac arrives at site 5
    green = e.view(2)["zones"]
    assert (green["dig_site[3]"], green["dig_site[5]"]) == (["?"], ["tile#4"])
    assert e.view(1)["zones"]["dig_site[3]"] == ["?"]        # site 3 stays face down


# ---------------------------------------------------------------------------------- T-TH-08
SEA = """
game: sea
players: [2, 2]
options:
  moves: {default: 8}
tables:
  spaces: [d2, d4a, d4b, d6, a1, a2, c1, b1, b2, b3, b4, b5, b6, b7, f1]
  lanes: [[d2, a1], [a1, d4a], [d4a, a2], [a2, d6], [d2, c1], [c1, d4b], [d4b, d6],
          [d2, b1], [b1, b2], [b2, b3], [b3, b4], [b4, b5], [b5, b6], [b6, b7], [b7, d6], [b1, f1]]
  number: {d2: 2, d4a: 4, d4b: 4, d6: 6}             # dig-site spaces and their numbers
  fishing: [f1]                                      # large spaces: no limit, $2 for stopping
graphs:
  sea: {nodes: spaces, edges: lanes}
counters:
  coins: {per: player, initial: 0}
  route: {per: player, initial: 0}
zones:
  maps: {per: player}
  boat: {per: player}
  supply: {}
items:
  map: {count: 2, zone: supply, fields: {number: "[2, 6][n - 1]"}}
  zodiac: {per: player, count: 1, zone: boat, fields: {at: '"d2"'}}        # every zodiac starts on dig site 2...
formulas:
  holds(p, n): any(m.number == n for m in p.maps)
  forbidden(p): "[s for s in spaces if s in number and not holds(p, number[s])]"
  small(s): s not in fishing and s not in number
  occupied(s): any(first(p.boat).at == s for p in players)
  can_stop(p, s): not (small(s) and occupied(s))
setup: |
  move supply[0] to players[0].maps
  move supply[0] to players[0].maps
  set first(players[1].boat).at to "b3"              # ...but Blue's, on a small space
actions:
  sail:
    choose: to in within(sea, first(boat).at, moves, forbidden(you)) where can_stop(you, to)
    effect: |
      set route to steps_between(sea, first(boat).at, to, forbidden(you))
      set first(boat).at to to
triggers:
  fishing_space:
    when: after sail
    if: to in fishing
    effect: gain 2 coins
flow:
  - turns: {first: 0, actions: [sail], per_turn: 1, until: one_round}
scoring: {score: coins}
"""


def test_target_t_th_08_sea_moves_avoid_unmapped_sites_and_pass_occupied_spaces(tmp_path):
    """EX-14: Red on dig site 2 without map #4 reaches the central site of zone 6 by the shortest
    legal path, 8 spaces, avoiding every space numbered 4 and passing (not stopping on) a small
    space holding Blue's zodiac; stopping on a large fishing space earns $2."""
    e = start(make_game(tmp_path, SEA))
    offered = set(label.split()[1] for label in e.decision.labels)
    assert "sail d6" in e.decision.labels and not offered & {"d4a", "d4b", "b3"}
    assert {"b4", "b7", "f1", "a1"} <= offered
    play_labels(e, ["sail d6"])
    assert _me(e)["route"] == 8
    e = start(make_game(tmp_path, SEA, name="fish"))
    play_labels(e, ["sail f1"])
    assert (_me(e)["route"], _me(e)["coins"]) == (2, 2)
    with_map_4 = make_game(tmp_path, SEA.replace('"[2, 6][n - 1]"', '"[4, 6][n - 1]"'), name="m4")
    e = start(with_map_4)
    assert "sail d4a" in e.decision.labels and "sail d2" not in e.decision.labels  # no map #2 now
    play_labels(e, ["sail d6"])
    assert _me(e)["route"] == 3                  # through a space numbered 4, now allowed


# ---------------------------------------------------------------------------------- T-TH-09
ENGINES = """
game: engines
players: 1
tables:
  # an engine is data: spaces it adds for free, spaces it may add for a price
  engine_data: [{name: base, free: 2, extra: 1, price: 1},
                {name: super, free: 0, extra: 2, price: 0},
                {name: medium, free: 0, extra: 2, price: 1},
                {name: booster, free: 0, extra: 1, price: 1}]
counters:
  me: {per: player, initial: 10, min: 0}
  moved: {per: player, initial: 0}
zones:
  shop: {}
  aboard: {per: player}
items:
  engine: {from: engine_data, zone: shop}
formulas:
  reach(engines): sum(e.free + e.extra for e in engines)
  # the price of a move: the cheapest set of engines whose paid spaces cover the distance
  move_cost(d): >-
    min(sum(e.price for e in used) for used in subsets(aboard)
        if sum(e.free for e in aboard) + sum(e.extra for e in used) >= d)
setup: move shop[0] to aboard             # the base engine
actions:
  install:                                # at most 2 extra engines
    choose: e in shop
    requires: count(aboard) < 3
    effect: move e to aboard
  move:
    choose: d from 1 to reach(aboard)
    requires: me >= move_cost(d)
    effect: |
      pay move_cost(d) me
      set moved to d
      end game
flow:
  - turns: {first: 0, actions: [install, move], until: never}
scoring: {score: me}
"""


def test_target_t_th_09_move_price_is_the_cheapest_engine_combination(tmp_path):
    """EX-23: base + Super + Medium: 1-4 spaces $0, 5-6 $1, 7 $2; a third extra engine is refused.

    The minimum over combinations is written as a formula over `subsets(...)` of the engines
    aboard (no per-item cases); engines are data rows."""
    e = start(make_game(tmp_path, ENGINES), players=1)
    play_labels(e, ["install engine#2", "install engine#3"])
    assert "install engine#4" not in e.decision.labels
    with pytest.raises(UsageError, match="'install engine#4' is not a legal way to install now"):
        e.choose_label("install engine#4")
    assert [x for x in e.decision.labels if x.startswith("move")] == [f"move {d}" for d in range(1, 8)]
    paid = []
    for d in range(1, 8):
        f = e.fork()
        play_labels(f, [f"move {d}"])
        paid.append(10 - f.result["scores"][0])
    assert paid == [0, 0, 0, 0, 1, 1, 2]


# ---------------------------------------------------------------------------------- T-TH-10
SHARK = """
game: shark
players: 1
options:
  boss: {default: true, doc: "the diver is the Boss (or a SW#5/7)"}
tables:
  gear_data: [{name: spear_gun, kills_at: 4, bonus: 0, at: aboard},
              {name: shark_cage, kills_at: 0, bonus: 2, at: aboard},
              {name: harpoon, kills_at: 6, bonus: 0, at: shop}]
counters:
  die: {per: player, initial: 0}
  sharks: {per: player, initial: 0}
  depth: {per: player, initial: 0}
zones:
  shop: {}
  aboard: {}                                     # the diver's zodiac
items:
  gear: {from: gear_data, zone_field: at}
formulas:
  weapons(): "[g for g in aboard if g.kills_at > 0]"
  role_bonus(): if boss then 1 else 0
  # each modifier is declared where it comes from: on the gear and on the role
  shark_total(roll): roll + sum(g.bonus for g in aboard) + role_bonus()
actions:
  dive_past_shark:
    requires: not empty(aboard)                 # with none of the three it cannot dive here
    effect: |
      if empty(weapons()):
        add 1 to depth                          # a Cage alone: pass without a roll
      else:
        roll d6 as d
        set die to d
        if shark_total(d) >= min(g.kills_at for g in weapons()):
          add 1 to sharks
        add 1 to depth                          # either way the diver goes on down
      end game
flow:
  - turns: {first: 0, actions: [dive_past_shark], until: never}
scoring: {score: sharks}
"""


def test_target_t_th_10_shark_roll_adds_modifiers_declared_on_gear_and_role(tmp_path):
    """EX-16: Boss + Spear Gun + Shark Cage kills even on a die of 1 (1 + 2 + 1 = 4); with a basic
    worker, Cage + Spear Gun kills on 2-6; a Cage alone passes without a roll."""
    game = make_game(tmp_path, SHARK)
    seen = set()
    for seed in range(12):
        for boss in (True, False):
            e = start(game, players=1, seed=seed, options={"boss": boss})
            play_labels(e, ["dive_past_shark"])
            me = _me(e)
            seen.add(me["die"])
            assert me["depth"] == 1
            assert me["sharks"] == (1 if boss or me["die"] >= 2 else 0), (seed, boss, me["die"])
    assert 1 in seen and len(seen) >= 4          # the seeds do roll a 1
    cage_only = start(make_game(tmp_path, SHARK.replace("spear_gun, kills_at: 4, bonus: 0, at: aboard",
                                                        "spear_gun, kills_at: 4, bonus: 0, at: shop"),
                                name="cage"), players=1)
    play_labels(cage_only, ["dive_past_shark"])
    assert (_me(cage_only)["depth"], _me(cage_only)["die"]) == (1, 0)
    assert not any(ev["event"] == "roll" for ev in cage_only.events)


# ---------------------------------------------------------------------------------- T-TH-11
MUSSELS = """
game: mussels
players: [2, 2]
options:
  start_space: {default: 1, min: 1, max: 3}
  in_zone_6: {default: 2}
  in_zone_9: {default: 0}
tables:
  track_zones: [6, 9]                  # Zone 6 (mussels) and Zone 9 (advertising) share the rule
  track_end: {6: 3, 9: 3}              # Zone 9's middle values are lost with the images: 4, 3, 2
  rewards:
    6: {1: {coins: 1, rp: 0}, 2: {coins: 2, rp: 0}, 3: {coins: 0, rp: 1}}
    9: {1: {coins: 0, rp: 4}, 2: {coins: 0, rp: 3}, 3: {coins: 0, rp: 2}}
  boss_bonus: {6: 2, 9: 0}             # the Boss fishes $2 more
counters:
  coins: {per: player, initial: 0}
  rp: {per: player, initial: 0}
  cube: {each: track_zones, initial: "if key == 6 then start_space else 1", min: 1,
         max: "track_end[key]", overflow: clamp}
zones:
  line: {each: track_zones}
  rest: {per: player}
items:
  meeple: {per: player, count: 2, zone: rest, fields: {boss: "n == 1"}}
setup: |
  repeat in_zone_6 times:
    move top(players[0].rest) to line[6]
  repeat in_zone_9 times:
    move top(players[1].rest) to line[9]
actions:
  use_track:                           # the reward above the cube
    takes: [m, z]
    effect: |
      gain rewards[z][cube[z]].coins + (if m.boss then boss_bonus[z] else 0) coins
      gain rewards[z][cube[z]].rp rp
  resolve_track_zone:                  # then the cube moves one space right if the zone was used
    takes: z
    effect: |
      for each m in line[z]:
        do use_track for owner(m) with m = m, z = z
      if not empty(line[z]):
        gain 1 cube[z]
flow:
  - phase: resolution
    steps:
      - do: |
          for each z in track_zones:
            do resolve_track_zone with z = z
scoring: {score: rp}
"""


@pytest.mark.parametrize("start_space, in_zone, coins, rp, cube", [
    (3, 2, 2, 2, 3),       # EX-25: Boss 1 RP + $2, worker 1 RP, the cube stays at the end
    (1, 2, 1 + 2 + 1, 0, 2),
    (2, 1, 2 + 2, 0, 3),
    (2, 0, 0, 0, 2),       # nobody in Zone 6: the cube does not move
])
def test_target_t_th_11_mussel_track_reward_at_the_cube_and_advance_if_used(
        tmp_path, start_space, in_zone, coins, rp, cube):
    """The rewards are data rows per track and space (`rewards[z][cube[z]]`); the cubes are one
    counter family with a bound per track, so one rule pays and advances the mussel track and
    Zone 9's advertising track (4 ... 2 RP) alike."""
    e = start(make_game(tmp_path, MUSSELS), options={"start_space": start_space, "in_zone_6": in_zone})
    assert e.decision is None
    assert (_me(e)["coins"], _me(e)["rp"], e.state["counters"]["cube[6]"]) == (coins, rp, cube)
    assert e.state["counters"]["cube[9]"] == 1 and _me(e, 1)["rp"] == 0   # Zone 9 unused


@pytest.mark.parametrize("in_zone_9, rp, cube", [(0, 0, 1), (1, 4, 2), (2, 4 + 4, 2)])
def test_target_t_th_11_advertising_track_reuses_the_rule(tmp_path, in_zone_9, rp, cube):
    """Zone 9: each meeple gains the RP above the cube (4 at the start); the cube then moves once."""
    e = start(make_game(tmp_path, MUSSELS), options={"in_zone_6": 0, "in_zone_9": in_zone_9})
    assert (_me(e, 1)["rp"], _me(e, 1)["coins"], e.state["counters"]["cube[9]"]) == (rp, 0, cube)
    assert e.state["counters"]["cube[6]"] == 1


# ---------------------------------------------------------------------------------- T-TH-12
MUSEUM = """
game: museum
players: [2, 2]
tables:
  room_keys: [1, 2, 4]
  room_size: {1: 2, 2: 3, 4: 2}
  door_data: [{room: 1, opening: 1, seat: 0}, {room: 2, opening: 3, seat: 1}, {room: 4, opening: 2, seat: 0}]
counters:
  rp: {per: player, initial: 0, min: 0}
zones:
  room: {each: room_keys, capacity: "room_size[key]"}
  doors: {}
  treasures: {per: player}
items:
  door: {from: door_data, zone: doors, fields: {open: false}}
  treasure: {per: player, count: 3, zone: treasures}
formulas:
  door_of(r): first([d for d in doors if d.room == r])
setup: |
  move top(players[1].treasures) to room[4]
actions:
  sell:
    choose: r in room_keys where not full(room[r])
    requires: not empty(treasures)
    effect: move top(treasures) to room[r]
triggers:
  room_opens:                             # as soon as a room's last display space is filled
    when: as soon as any(full(room[d.room]) and not d.open for d in doors)
    effect: |
      for each d in [d for d in doors if full(room[d.room]) and not d.open]:
        set d.open to true
        players[d.seat] gains d.opening rp
flow:
  - turns: {first: 0, actions: [sell], per_turn: 1, until: one_round}
scoring: {score: rp}
"""

LAWLESS_MUSEUM = """
variant: lawless
extends: museum
add:
  actions:
    mercenary:                            # a Zone 8 mercenary takes a treasure out of a room
      choose: r in room_keys where not empty(room[r])
      effect: move top(room[r]) to treasures
  triggers:
    room_closes:                          # the reverse of room_opens
      when: as soon as any(d.open and not full(room[d.room]) for d in doors)
      effect: |
        for each d in [d for d in doors if d.open and not full(room[d.room])]:
          set d.open to false
          players[d.seat] loses d.opening rp
flow:
  - turns: {first: 0, actions: [sell, mercenary], per_turn: 1, until: one_round}
"""


def test_target_t_th_12_room_opening_credits_the_sponsor_and_lawless_reverses_it(tmp_path):
    """EX-19: Red (sponsor of the 4th-column room) fills its last space: +2 RP at once; the
    sponsor need not be the seller; in Lawless a mercenary emptying a space closes it again."""
    game = make_game(tmp_path, MUSEUM)
    e = start(game)
    play_labels(e, ["sell 4"])                    # Red fills the room it sponsors
    assert [p["rp"] for p in e.state["players"]] == [2, 0]
    assert e.decision.labels == ["sell 1", "sell 2"]
    play_labels(e, ["sell 1"])                    # Blue fills nothing yet
    assert [p["rp"] for p in e.state["players"]] == [2, 0]
    e = start(game, seed=1)
    play_labels(e, ["sell 1", "sell 1"])          # Blue fills room 1, sponsored by Red: Red gains
    assert [p["rp"] for p in e.state["players"]] == [1, 0]
    lawless = _variant(tmp_path, "lawless", LAWLESS_MUSEUM)
    e = start(lawless)
    play_labels(e, ["sell 4"])
    assert _me(e, 0)["rp"] == 2
    play_labels(e, ["mercenary 4"])               # Blue's mercenary: the room closes, Red loses 2
    assert [p["rp"] for p in e.state["players"]] == [0, 0]
    assert not [d for d in e.state["zones"]["doors"] if e.state["items"][d]["open"]]


# ---------------------------------------------------------------------------------- T-TH-13
BRIBES = """
game: bribes
players: [4, 4]
tables:
  posting: [3, 0, 2, 1]            # when each seat posted its envelope (0 = none): White, Blue, Green
counters:
  sf: {per: player, initial: 10, min: 0}
  rp: {per: player, initial: 1, min: 0}
  posted_at: {per: player, initial: "posting[you]"}
  bribe: {per: player, initial: 0}
  place: {per: player, initial: "you + 1"}      # the Zone 10 track: Green, Red, Blue, White
  turns_taken: {initial: 0}
  turn_at: {per: player, initial: 0}            # when each seat took its turn (0 = none)
  bank: {initial: 0}
actions:
  place_meeple:
    effect: |
      add 1 to turns_taken
      set turn_at to turns_taken
formulas:
  posters(): "[p for p in players if p.posted_at > 0]"
flow:
  - do: |
      secretly each p in posters() chooses bid from 0 to sf where bid == 0 or bid >= 2
      for each p in posters():
        if bid[p] == 0:
          p loses 1 rp                            # posted but does not bid: no part in it
        p pays bid[p] sf
        add bid[p] to bank
        set p.bribe to bid[p]
      # bidders by bid, highest first, ties to whoever posted first; then the others (bribe 0),
      # keeping their previous relative order
      let new_order = sorted(each p in players by [-p.bribe, if p.bribe > 0 then p.posted_at else p.place])
      let at = 1
      for each p in new_order:
        set p.place to at
        let at = at + 1
  - turns:                                        # the next quadrimester follows the new order
      order: 'sorted(each p in players by p.place)'
      actions: [place_meeple]
      per_turn: 1
      until: one_round
scoring: {score: -place}
"""


def _turn_order(e):
    """The seats in the order they took their turn in the `turns` step."""
    turn_at = [p["turn_at"] for p in e.state["players"]]
    return sorted((s for s in range(4) if turn_at[s]), key=lambda s: turn_at[s])


def test_target_t_th_13_sealed_bribes_sort_the_turn_order(tmp_path):
    """EX-20: order Green, Red, Blue, White; envelopes White, Blue, Green; bids Green $6, White $6,
    Blue $3 -> White, Green, Blue, Red, and $15 to the bank.

    The secret choice is taken only by the players who posted an envelope; the new order is one
    `sorted(...)` stored on the Zone 10 track (`place`), and the next `turns` step follows it
    with `order:`. Partly: the envelope posting is a table, not a move made during placement."""
    e = start(make_game(tmp_path, BRIBES), players=4)
    assert e.decision.secret and e.decision.labels[:3] == ["0", "2", "3"]
    play_labels(e, ["6"])                          # Green
    assert e.decision.player == 2                  # Red posted nothing: not asked
    play_labels(e, ["3", "6"])                     # Blue, White
    place = [p["place"] for p in e.state["players"]]
    assert sorted(range(4), key=lambda s: place[s]) == [3, 0, 2, 1]   # White, Green, Blue, Red
    assert e.state["counters"]["bank"] == 15
    assert [p["sf"] for p in e.state["players"]] == [4, 10, 7, 4]
    assert [p["rp"] for p in e.state["players"]] == [1, 1, 1, 1]
    seats = []
    while e.decision is not None:                  # the next turns follow the new order
        seats.append(e.decision.player)
        play_labels(e, ["place_meeple"])
    assert seats == [3, 0, 2, 1] and _turn_order(e) == [3, 0, 2, 1]   # White, Green, Blue, Red
    e = start(make_game(tmp_path, BRIBES, name="nobid"), players=4)
    play_labels(e, ["6", "0", "6"])                # Blue posted but does not bid: -1 RP, no part
    place = [p["place"] for p in e.state["players"]]
    assert sorted(range(4), key=lambda s: place[s]) == [3, 0, 1, 2]   # White, Green, then Red, Blue
    assert [p["rp"] for p in e.state["players"]] == [1, 1, 0, 1]
    play_labels(e, ["place_meeple"] * 4)
    assert e.decision is None and _turn_order(e) == [3, 0, 1, 2]


# ---------------------------------------------------------------------------------- T-TH-14
TECH = """
game: tech
players: [2, 2]
tables:
  reveals_after: [0, 1, 1, 2, 1, 2, 0, 0, 0, 0]       # by quadrimester (index 0 unused)
zones:
  tech_deck: {visibility: hidden}
  zone_2: {}
  deck_reservation: {}
  line_2: {}
  rest: {per: player}
items:
  tech: {count: 14, zone: tech_deck}
  meeple: {per: player, count: 1, zone: rest}
setup: deal 3 from tech_deck to zone_2
actions:
  reserve_deck:                        # only one meeple per quadrimester, across all players
    limit: {times: 1, per: quadrimester, shared: true}
    requires: not empty(rest)
    effect: |
      move top(rest) to deck_reservation
      end turn
  done: {effect: pass}
flow:
  - repeat: 7
    as: q
    steps:
      - phase: quadrimester
        steps:
          - turns: {first: 0, actions: [reserve_deck, done], until: all_passed}
      - phase: maintenance
        steps:
          - do: |
              let due = reveals_after[q]
              for each m in deck_reservation:
                if due > 0:
                  peek tech_deck by owner(m)             # looks through the deck
                  choose card in tech_deck by owner(m)
                  move card to zone_2
                  let due = due - 1
                move m to line_2 at top                  # space 1 of the Zone 2 line
              deal due from tech_deck to zone_2
scoring: {score: 0}
"""


def test_target_t_th_14_reveal_schedule_and_one_deck_reservation(tmp_path):
    """EX-28: after the maintenance of Q1..Q5 the board holds 4, 5, 7, 8, 10 face-up cards, none
    more from Q6 on; a reservation lets its owner pick the card revealed (the others keep their
    order), once per quadrimester across all players (a shared limit on the action), and puts
    the meeple on space 1 of line 2.

    Partly: the search of the deck is written out (choose + move), not a generic deck operation."""
    e = start(make_game(tmp_path, TECH))
    counts = []
    for q in range(1, 8):
        if q == 3:  # player 0 reserves the deck in Q3 (2 cards due); player 1 then cannot
            play_labels(e, ["reserve_deck"])
            assert e.decision.player == 1 and e.decision.labels == ["done"]
            play_labels(e, ["done", "done"])
            deck_before = list(e.state["zones"]["tech_deck"])
            assert e.decision.player == 0 and len(e.decision.labels) == len(deck_before)
            play_labels(e, ["tech#11"])
            assert e.state["zones"]["zone_2"][-2:] == ["tech#11", deck_before[0]]
            assert e.state["zones"]["tech_deck"] == [c for c in deck_before if c != "tech#11"][1:]
            assert e.state["zones"]["line_2"] == ["meeple#0.1"]
        elif q == 4:  # a new quadrimester: player 1 may reserve the deck again
            play_labels(e, ["done"])
            assert e.decision.labels == ["reserve_deck", "done"]
            play_labels(e, ["done"])
        else:
            play_labels(e, ["done", "done"])
        counts.append(len(e.state["zones"]["zone_2"]))
    assert counts == [4, 5, 7, 8, 10, 10, 10]


# ---------------------------------------------------------------------------------- T-TH-15
ENDING = """
game: ending
players: [1, 2]
tables:
  solo_bonus: {1: 30, 2: 30, 3: 30, 4: 30, 5: 30, 6: 30, 7: 20, 8: 10, 9: 0}
counters:
  quad: {initial: 0}
  open_rooms: {initial: 0, max: 3}
  salaries: {initial: 0}
  maintenances: {initial: 0}
  rp: {per: player, initial: 0}
actions:
  open_room: {requires: open_rooms < 3, effect: add 1 to open_rooms}
  wait: {effect: pass}
triggers:
  final_scoring:                     # right after the Salary phase: all rooms open, or Q9
    when: end of salary
    if: open_rooms == 3 or quad == 9
    effect: end game
flow:
  - repeat: 9
    as: q
    steps:
      - do: set quad to q
      - phase: actions
        steps:
          - turns: {first: 0, actions: [open_room, wait], per_turn: 1, until: all_passed}
      - phase: salary
        steps:
          - do: add 1 to salaries
      - phase: maintenance
        steps:
          - do: add 1 to maintenances
scoring: {score: rp}
"""

SOLO_ENDING = """
variant: solo
extends: ending
players: 1
scoring: {score: "rp + (if open_rooms == 3 then solo_bonus[quad] else 0)"}
"""


@pytest.mark.parametrize("opened_in, last_q, bonus", [(5, 5, 30), (7, 7, 20), (8, 8, 10), (9, 9, 0), (None, 9, 0)])
def test_target_t_th_15_game_ends_after_salary_and_skips_maintenance(tmp_path, opened_in, last_q, bonus):
    """Final scoring right after the Salary phase of the quadrimester in which all rooms are open
    (or of Q9): that Maintenance never runs; in Solo, all rooms open by Q6/7/8/9 -> +30/20/10/0."""
    make_game(tmp_path, ENDING)
    e = start(_variant(tmp_path, "solo", SOLO_ENDING), players=1)
    for q in range(1, 10):
        if e.decision is None:
            break
        play_labels(e, ["open_room"] * 3 + ["wait"] if q == opened_in else ["wait"])
    assert e.decision is None
    counters = e.state["counters"]
    assert (counters["quad"], counters["salaries"], counters["maintenances"]) == (last_q, last_q, last_q - 1)
    assert e.result["scores"] == [bonus]


# ---------------------------------------------------------------------------------- T-TH-16
MERCENARIES = """
game: mercs
players: [2, 2]
counters:
  quad: {initial: 0}
  sf: {per: player, initial: 6, min: 0}
  rp: {per: player, initial: 3, min: 0}
  mercenaries: {per: player, initial: 0}
  auctions: {initial: 0}
  bank: {initial: 0}
flow:
  - repeat: 8
    as: q
    steps:
      - do: set quad to q
      - name: maintenance
        phase: maintenance
        steps:
          - do: log "maintenance"
scoring: {score: mercenaries}
"""

LAWLESS_MERCS = """
variant: lawless
extends: mercs
flow_patches:
  maintenance:
    after:
      - if: quad in [3, 5, 7, 8]
        steps:
          - do: |
              add 1 to auctions
              auction among players_from(0) paying sf beyond means as winner, price, bids
              if winner != none and winner.sf < price:   # a last bidder who cannot pay
                winner loses 1 rp
                let previous = last(bids[:-1])           # the previous bidder buys instead
                let winner = if previous == none then none else previous[0]
                let price = if previous == none then 0 else previous[1]
              if winner != none:
                pay price from winner.sf to bank
                winner gains 1 mercenaries
"""


def test_target_t_th_16_lawless_open_mercenary_auction_after_four_maintenances(tmp_path):
    """An open ascending auction (optional, strictly higher bids, only the winner pays from the
    Slush Fund to the bank) inserted after the Maintenance of Q3, Q5, Q7 and Q8 by an overlay.
    Bids may go beyond one's means (up to what the richest bidder holds) and the bid history is
    bound, so "a last bidder who cannot pay loses 1 RP and the previous bidder buys" is a rule."""
    make_game(tmp_path, MERCENARIES)
    base = start(load_game(str(tmp_path / "g")))
    assert base.decision is None and base.state["counters"]["auctions"] == 0
    e = start(_variant(tmp_path, "lawless", LAWLESS_MERCS))
    assert e.state["counters"]["quad"] == 3 and e.decision.labels == ["out"] + [str(b) for b in range(1, 7)]
    play_labels(e, ["2", "3"])
    assert e.decision.player == 0 and e.decision.labels == ["out", "4", "5", "6"]
    play_labels(e, ["out"])
    assert e.state["counters"]["quad"] == 5
    play_labels(e, ["out", "out"])               # taking part is optional: nobody buys
    assert e.state["counters"]["quad"] == 7
    play_labels(e, ["6", "out", "out", "out"])   # Q7: player 0 pays 6; Q8: nobody
    assert e.decision is None
    assert [(p["sf"], p["mercenaries"], p["rp"]) for p in e.state["players"]] == [(0, 1, 3), (3, 1, 3)]
    assert (e.state["counters"]["auctions"], e.state["counters"]["bank"]) == (4, 9)


def test_target_t_th_16_a_winner_who_cannot_pay_loses_1_rp_and_the_previous_bidder_buys(tmp_path):
    make_game(tmp_path, MERCENARIES.replace("sf: {per: player, initial: 6", 'sf: {per: player, initial: "[6, 4][you]"'))
    e = start(_variant(tmp_path, "lawless", LAWLESS_MERCS))
    play_labels(e, ["2"])
    assert e.decision.labels == ["out", "3", "4", "5", "6"]   # player 1 holds $4 but may bid $6
    play_labels(e, ["5", "out"])                # player 1 wins at $5 with $4: cannot pay
    assert [(p["sf"], p["mercenaries"], p["rp"]) for p in e.state["players"]] == [(6 - 2, 1, 3), (4, 0, 2)]
    assert e.state["counters"]["bank"] == 2


# ---------------------------------------------------------------------------------- T-TH-17
VIRTUAL = """
game: virtual
players: [1, 1]
automa: {name: virtual_opponent, seats: 1}
tables:
  spaces: [1, 2, 3]
  marked: [1, 3]                   # Zone 2 spaces holding a virtual-opponent cube
  techs: [{name: mask, g: 3, h: 2}, {name: cage, g: 4, h: 1}, {name: tank, g: 5, h: 2}]
counters:
  coins: {per: player, initial: 20, min: 0}
  bank: {initial: 0}
zones:
  tech_deck: {}
  zone_2: {each: spaces}
  bought: {per: player}
items:
  tech: {from: techs, zone: tech_deck, fields: {patent: none, copies: 3}}
formulas:
  virtual(): first([p for p in players if is_automa(p)])
actions:
  buy:                              # G to the bank, H to the patent owner (the bank if virtual)
    choose: s in spaces where not empty(zone_2[s]) and top(zone_2[s]).patent not in [none, you]
    effect: |
      let card = top(zone_2[s])
      pay card.g + card.h coins
      add card.g to bank
      if is_automa(card.patent):
        add card.h to bank
      else:
        card.patent gains card.h coins
      subtract 1 from card.copies
  stop: {effect: pass}
triggers:
  virtual_patent:                   # a card placed on a marked space: the virtual opponent owns
    when: enters zone_2             # its patent and has bought one copy
    if: key in marked
    effect: |
      set item.patent to virtual()
      subtract 1 from item.copies
setup: |
  for each s in spaces:
    move top(tech_deck) to zone_2[s]
flow:
  - turns: {first: 0, actions: [buy, stop], automa_actions: [stop], per_turn: 1, until: all_passed}
scoring: {score: coins}
"""


def test_target_t_th_17_virtual_opponent_owns_patents_royalties_to_the_bank(tmp_path):
    """EX-24: the Mask revealed on marked space 1: the virtual opponent owns its patent and has
    bought one (2 Masks left for sale); buying one costs G + H, with H going to the bank.

    "A card placed on a marked space" is a trigger on the card entering a Zone 2 space, whatever
    rule puts it there. Partly: the payee is an if on `is_automa(owner)` in the buying action
    rather than declared once on the royalty."""
    e = start(make_game(tmp_path, VIRTUAL), players=1)
    items = e.state["items"]
    assert [(items[x]["patent"], items[x]["copies"]) for x in ("tech#1", "tech#2", "tech#3")] == \
        [(1, 2), (None, 3), (1, 2)]
    assert e.decision.labels == ["buy 1", "buy 3", "stop"]   # no patent on the unmarked space
    play_labels(e, ["buy 1"])
    assert (_me(e, 0)["coins"], _me(e, 1)["coins"], e.state["counters"]["bank"]) == (15, 20, 5)
    assert items["tech#1"]["copies"] == 1
