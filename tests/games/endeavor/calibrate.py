"""Endeavor: Deep Sea: what the sample data gives over whole games, to set it against the
rulebook's own numbers (games/endeavor-deep-sea/README.md, "Calibration"). Not a test: a
measurement, run as

    nice python -m tests.games.endeavor.calibrate --players 5 -n 100 [--agents greedy] [--variant coop]

It plays seeded games and reports, per player, the specialists in the team at the end (the
book: seven, the Team Leader included, FR l.874-875), the rank-5 specialists recruited and
those scored on their Senior side, the VP of the attribute tracks (the book's 69-VP example
leaves about 28 to them), the discs of each kind in the ocean, the final score, and for Co-Op
the objectives met and the wins."""
from __future__ import annotations

import argparse
import statistics

from meeplang.interpreter.agents import make_agents
from meeplang.interpreter.engine import Engine

from .helpers import formula, game


def measure(variant, players, seed, agents):
    e = Engine(game(variant), players, seed)
    seats = make_agents(agents, players, seed)
    d = e.start()
    while d is not None:
        d = e.choose(seats[d.player].choose(e, d, e.view(d.player) if seats[d.player].needs_view
                                                else None))
    s = e.state
    rows = []
    for p in range(players):
        team = [s["items"][x] for x in s["zones"][f"team@{p}"]]
        rows.append({
            "team": len(team),
            "rank5": sum(t["rank"] == 5 for t in team),
            "rank5_scored": sum(t["rank"] == 5 and t["promoted"] for t in team),
            "track_vp": formula(e, "track_vp(you)", p),
            "sonar": formula(e, 'ocean_discs(you, "sonar")', p),
            "conservation": formula(e, 'ocean_discs(you, "conservation")', p),
            "publication": formula(e, 'ocean_discs(you, "publication")', p),
            "score": e.result["scores"][p]})
    coop = None
    if variant is not None:
        coop = (s["counters"]["objectives_met"], bool(e.result["winners"]))
    return rows, coop


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rows, coops = [], []
    for i in range(a.n):
        r, c = measure(a.variant, a.players, a.seed + i, a.agents)
        rows += r
        if c is not None:
            coops.append(c)
    print(f"endeavor-deep-sea{':' + a.variant if a.variant else ''}, {a.players} players, "
          f"{a.n} games, agents {a.agents}, seeds {a.seed}..{a.seed + a.n - 1}")
    for k in rows[0]:
        v = [x[k] for x in rows]
        print(f"  {k:13} mean {statistics.mean(v):6.2f}  min {min(v):3}  max {max(v):3}")
    if coops:
        met = [m for m, _ in coops]
        print(f"  objectives met mean {statistics.mean(met):.2f} max {max(met)}; "
              f"group wins {sum(w for _, w in coops)}/{len(coops)}")


if __name__ == "__main__":
    main()
