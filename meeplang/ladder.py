"""`meeplang simulate GAME --ladder AGENTS`: which agent to trust, as a round robin.

    meeplang simulate thesauros --players 3 -n 60 --ladder random,greedy

For each ordered pair of agents (A, B), A sits at one seat and B at every other seat; A's seat
turns round the table, each seat position playing the same deals (game i of a position has seed
`game_seed(seed, i)`, as in `simulate`), so no seat's advantage and no deal favours a pair. A
cell is A's share of the wins (ties shared) against B's table, with its 95% Wilson interval,
marked ▲ when the interval lies above an equal share (1 / seats) and ▼ when below: an agent
worth using against a table of B beats it ▲. The last column pools each agent's games against
every other. A game for one player has no table: each agent plays it alone, and the ladder is
its win rate against the game itself (a solo target or an automa).
"""
from __future__ import annotations

from dataclasses import dataclass

from meeplang.dsl.errors import UsageError
from meeplang.interpreter import stats
from meeplang.interpreter.agents import make_agents

from .output import Table

ABOVE, BELOW = "▲", "▼"


@dataclass
class Seating:
    """One run of a ladder: `agent` at `seat`, `against` at every other seat."""

    agent: str
    against: str | None  # None: a game for one player, played alone
    seat: int


def ladder_agents(text: str, seed: int) -> list[str]:
    """The agents a `--ladder` names, checked (each a name `--agents` accepts, at least two, none
    twice, no human)."""
    names = [part.strip() for part in text.split(",")]
    if any(not name for name in names):
        raise UsageError(f"--ladder {text!r}: an empty agent name (agents are separated by commas)")
    if len(names) < 2:
        raise UsageError(f"--ladder needs at least two agents to rank, not {text!r}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"--ladder names {', '.join(twice)} twice")
    for name in names:
        make_agents(name, 1, seed)  # an unknown agent or setting is refused here, with its name
    if "human" in names:
        raise UsageError("the human agent cannot be simulated: use `meeplang play`")
    return names


def seatings(agents: list[str], players: int) -> list[Seating]:
    """Every (agent, the table it plays against, its seat) the round robin plays."""
    if players == 1:
        return [Seating(a, None, 0) for a in agents]
    return [Seating(a, b, seat) for a in agents for b in agents if a != b
            for seat in range(players)]


def seat_agents_text(s: Seating, players: int) -> str:
    """The `--agents` text of a seating: one agent per seat."""
    if s.against is None:
        return s.agent
    return ",".join(s.agent if p == s.seat else s.against for p in range(players))


def games_at(seat: int, n: int, players: int) -> int:
    """Of a pair's n games, how many have the agent at `seat` (the first seats take the rest)."""
    return n // players + (seat < n % players)


def ladder_result(agents: list[str], players: int, runs: list) -> dict:
    """The ladder as data: each pair's games pooled over the seats, with the agent's win share,
    its interval and mean score, and each agent's record against all the others. `runs` are
    (Seating, records)."""
    def cell(agent: str, against: str | None) -> dict:
        shares, scores, games, seats = 0.0, 0.0, 0, 1
        for s, records in runs:
            if s.agent != agent or s.against != against:
                continue
            for r in records:
                shares += stats.win_share(r, s.seat)
                scores += r["scores"][s.seat]
                seats = max(seats, len(r["scores"]))
            games += len(records)
        equal = 1.0 / seats
        ci = _interval(shares, games)
        verdict = "" if ci is None or against is None else _verdict(ci, equal)  # alone: no table
        return {"agent": agent, "against": against, "games": games,
                "win_share": shares / games if games else None, "ci": ci,
                "equal_share": equal, "mean_score": scores / games if games else None,
                "verdict": verdict}

    if players == 1:
        cells = [cell(a, None) for a in agents]
        return {"agents": agents, "players": 1, "cells": cells, "overall": cells}
    cells = [cell(a, b) for a in agents for b in agents if a != b]
    overall = []
    for a in agents:
        mine = [c for c in cells if c["agent"] == a]
        games = sum(c["games"] for c in mine)
        shares = sum(c["win_share"] * c["games"] for c in mine if c["games"])
        equal = mine[0]["equal_share"]
        ci = _interval(shares, games)
        overall.append({"agent": a, "against": "every other", "games": games,
                        "win_share": shares / games if games else None, "ci": ci,
                        "equal_share": equal,
                        "mean_score": sum(c["mean_score"] * c["games"] for c in mine
                                          if c["games"]) / games if games else None,
                        "verdict": "" if ci is None else _verdict(ci, equal)})
    return {"agents": agents, "players": players, "cells": cells, "overall": overall}


def _interval(shares: float, games: int) -> list | None:
    """The 95% Wilson interval of a win share, to 4 places (no 2.8e-17 for 0)."""
    if not games:
        return None
    return [round(x, 4) for x in stats.wilson_interval(shares, games)]


def _verdict(ci: list, equal: float) -> str:
    return "above" if ci[0] > equal else "below" if ci[1] < equal else ""


def _cell_text(c: dict) -> str:
    if not c["games"]:
        return "no game"
    lo, hi = c["ci"]
    mark = {"above": f" {ABOVE}", "below": f" {BELOW}"}.get(c["verdict"], "")
    return f"{100 * c['win_share']:.0f}% [{100 * lo:.0f}–{100 * hi:.0f}]{mark}"


def ladder_table(title: str, ladder: dict) -> Table:
    """Rows: the agent at one seat; columns: the agent at every other seat, then all of them."""
    agents = ladder["agents"]
    if ladder["players"] == 1:
        table = Table(title, ["agent", "win rate [95%]", "mean score", "games"],
                      left=frozenset({"agent"}))
        for c in ladder["cells"]:
            table.rows.append([c["agent"], _cell_text(c), f"{c['mean_score']:.2f}"
                               if c["games"] else "", str(c["games"])])
        table.caption = "each agent alone against the game"
        return table
    by_pair = {(c["agent"], c["against"]): c for c in ladder["cells"]}
    table = Table(title, ["agent at one seat", *(f"vs {b}" for b in agents), "vs every other"],
                  left=frozenset({"agent at one seat"}))
    ranked = sorted(ladder["overall"], key=lambda c: -(c["win_share"] or 0.0))
    for overall in ranked:
        a = overall["agent"]
        table.rows.append([a, *("—" if a == b else _cell_text(by_pair[a, b]) for b in agents),
                           _cell_text(overall)])
    equal = ladder["overall"][0]["equal_share"]
    table.caption = (f"win share of the row's agent at one seat (turning round the table), the "
                     f"column's agent at every other seat; ties shared; equal share "
                     f"{100 * equal:.0f}%; {ABOVE} above it, {BELOW} below it (95% Wilson "
                     "interval)")
    return table
