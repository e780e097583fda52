"""The floor of the design: goofspiel and pig written by hand against the engine's own state and
decision protocol, timed beside Meeplang, the plain reference loops and OpenSpiel in one run.

    python benchmarks/floor.py [--rounds 5] [--seconds 0.5]

The Speed 2 issue asks Meeplang's random playouts of goofspiel-13 and pig-100 to reach
OpenSpiel's. What any code generator can reach is bounded by what the generated code must work on
and answer to, whatever the rules compile to. This script writes each game's rules as the best
generated code could be (plain Python, no checks, no work budget, no positions, no triggers or
hidden-information bookkeeping), but on what the engine keeps:
- the state as plain data (interpreter/state.py): named items in zone lists, `loc` and `items`
  dicts, the game's components copied per game from the template the engine makes once
  (`state.copy_state`), since logs, copies, views and `meeplang state` read it;
- a Decision (interpreter/decisions.py) per choice, with its own list of options, answered from
  outside the rules: the rules are a generator paused at each decision (`start` / `choose`), as
  the CLI, the agents and search drive them.
tests/interpreter/test_floor.py checks that both play the engine's games, move for move.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.playouts import handwritten_game, meeplang_game, openspiel_game, random_game  # noqa: E402
from meeplang.dsl.resolve import load_game  # noqa: E402
from meeplang.interpreter.state import copy_state  # noqa: E402
from meeplang.interpreter.decisions import ActionOption, Decision  # noqa: E402
from meeplang.interpreter.engine import Engine  # noqa: E402

WHY = "game.yaml"  # a Decision's `why`: the engine's is the asking rule's file:line


def goofspiel_rules(s: dict, rng: random.Random):
    """games/goofspiel/game.yaml's round, as straight Python on the engine's state."""
    zones, loc, items, players = s["zones"], s["loc"], s["items"], s["players"]
    prizes, shown, discard = zones["prizes"], zones["prize_shown"], zones["discard"]
    hands = [zones["hand@0"], zones["hand@1"]]
    played, won = ("played@0", "played@1"), ("won@0", "won@1")
    rng.shuffle(prizes)
    while prizes:
        prize = prizes.pop(0)
        shown.append(prize)
        loc[prize] = "prize_shown"
        cards = []
        for p in (0, 1):  # secretly each player chooses card in hand
            i = yield Decision(p, "secret card", list(hands[p]), WHY, True)
            cards.append(hands[p][i])
        for p in (0, 1):
            hands[p].remove(cards[p])
            zones[played[p]].append(cards[p])
            loc[cards[p]] = played[p]
        bids = [items[card]["value"] for card in cards]
        high = max(bids)
        best = [p for p in (0, 1) if bids[p] == high]
        shown.remove(prize)
        if len(best) == 1:
            players[best[0]]["points"] += items[prize]["value"]
            zones[won[best[0]]].append(prize)
            loc[prize] = won[best[0]]
        else:
            discard.append(prize)
            loc[prize] = "discard"


ROLL, STOP = ActionOption("roll"), ActionOption("stop")


def pig_rules(s: dict, rng: random.Random):
    """games/pig/game.yaml's turns, its two actions and its `after any action` trigger."""
    counters, players = s["counters"], s["players"]
    target, horizon = 100, 1000
    p = 0
    while True:
        options = [ROLL, STOP] if players[p]["points"] + counters["turn_total"] < target else [STOP]
        action = options[(yield Decision(p, "action", options, WHY))]
        turn_over = False
        if action is ROLL:
            die = rng.randint(1, 6)
            if die == 1:
                counters["turn_total"] = 0
                turn_over = True
            else:
                counters["turn_total"] += die
        else:
            players[p]["points"] += counters["turn_total"]
            counters["turn_total"] = 0
            if players[p]["points"] >= target:  # `end game`: the trigger does not run
                return
            turn_over = True
        counters["moves"] += 1  # the trigger
        if counters["moves"] >= horizon:
            return
        if turn_over:
            p = 1 - p


class FloorEngine:
    """The engine's driving protocol and nothing else."""

    def __init__(self, rules, template: dict, seed: int):
        self.state = copy_state(template)
        self.rules = rules(self.state, random.Random(seed))

    def start(self) -> Decision | None:
        return next(self.rules, None)

    def choose(self, index: int) -> Decision | None:
        try:
            return self.rules.send(index)
        except StopIteration:
            return None


def template_of(name: str) -> dict:
    """The components the engine makes once per seats and options, before setup."""
    engine = Engine(load_game(name), 2, seed=0, record=False)
    engine.start()
    (template,) = engine.prog.initial_states.values()
    return template


def best_rates(players: dict, rounds: int, seconds: float) -> dict:
    """Games per CPU second of each player, the best of `rounds` rounds that take turns, so that
    a change in the machine's load falls on all of them alike."""
    best = dict.fromkeys(players, 0.0)
    for _ in range(rounds):
        for name, play in players.items():
            rng = random.Random(1)
            games = 0
            start = time.process_time()
            while (spent := time.process_time() - start) < seconds:
                play(games, rng)
                games += 1
            best[name] = max(best[name], games / spent)
    return best


def copy_cost(template: dict, n: int = 20000) -> float:
    """µs to copy a game's components (what every game pays before its first rule)."""
    start = time.process_time()
    for _ in range(n):
        copy_state(template)
    return (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per round")
    args = parser.parse_args()
    cases = [("goofspiel", goofspiel_rules,
              "goofspiel(num_cards=13,points_order=random,returns_type=total_points)"),
             ("pig", pig_rules, "pig(players=2,winscore=100)")]
    print(f"games per CPU second, one core, best of {args.rounds} rounds taking turns; "
          "ratios against OpenSpiel")
    columns = ("openspiel", "meeplang", "floor", "hand-written")
    print(f"{'game':<10}" + "".join(f"{c:>17}" for c in columns) + f"{'copy us/game':>14}")
    for name, rules, spec in cases:
        template = template_of(name)
        players = {"openspiel": openspiel_game(spec), "meeplang": meeplang_game(name, 2),
                   "floor": random_game(lambda seed, r=rules, t=template: FloorEngine(r, t, seed)),
                   "hand-written": handwritten_game(name)}
        if players["openspiel"] is None:
            del players["openspiel"]
        best = best_rates(players, args.rounds, args.seconds)
        osp = best.get("openspiel")
        cells = [f"{best[c]:,.0f}" + (f" ({best[c] / osp:.2f}x)" if osp and c != "openspiel" else "")
                 if c in best else "n/a" for c in columns]
        print(f"{name:<10}" + "".join(f"{c:>17}" for c in cells) + f"{copy_cost(template):>14.1f}")


if __name__ == "__main__":
    main()
