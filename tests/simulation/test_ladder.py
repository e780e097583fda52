"""`meeplang simulate GAME --ladder AGENTS`: a round robin of agents, each at one seat turning
round the table against a table of each other one (meeplang/ladder.py)."""
from __future__ import annotations

import pytest

from meeplang.interpreter.simulation import game_seed, load_cached, play_game
from meeplang.ladder import games_at, seat_agents_text, seatings

from tests.language.helpers import make_game

# One player, a choice worth a point on the last of many decisions: the greedy agent takes it.
ALONE = """
game: alone
players: 1
counters:
  points: {per: player, initial: 0}
flow:
  - do: |
      repeat 3 times:
        choose pick in [1, 2]
        if pick == 2:
          add 1 to you.points
scoring:
  score: points
  winners: "[p for p in players if p.points >= 3]"
"""


def _cell(out: dict, agent: str, against: str | None) -> dict:
    (cell,) = [c for c in out["ladder"]["cells"]
               if c["agent"] == agent and c["against"] == against]
    return cell


def test_each_agent_sits_at_every_seat_against_a_table_of_each_other_one():
    plan = seatings(["random", "greedy", "first"], 3)
    assert len(plan) == 3 * 2 * 3  # ordered pairs, times the seats
    assert {(s.agent, s.against) for s in plan if s.seat == 2} == {
        (a, b) for a in ("random", "greedy", "first") for b in ("random", "greedy", "first")
        if a != b}
    greedy_at_1 = [s for s in plan if (s.agent, s.against, s.seat) == ("greedy", "first", 1)]
    assert seat_agents_text(greedy_at_1[0], 3) == "first,greedy,first"
    assert [games_at(seat, 10, 3) for seat in range(3)] == [4, 3, 3]  # all 10 games played


def test_a_cell_is_the_win_share_of_the_games_played_with_those_seats(simulate_json):
    """Recomputed by playing the same seeds directly: the row's agent at each seat in turn."""
    out = simulate_json("pig", "--players", 2, "-n", 10, "--seed", 3, "--option", "target=20",
                        "--ladder", "greedy,random")
    game = load_cached("pig", None)
    share = 0.0
    for seat in range(2):
        agents = "greedy,random" if seat == 0 else "random,greedy"
        for i in range(games_at(seat, 10, 2)):
            winners = play_game(game, 2, game_seed(3, i), agents, {"target": 20}).result["winners"]
            share += 1 / len(winners) if seat in winners else 0.0
    cell = _cell(out, "greedy", "random")
    assert cell["games"] == 10 and cell["win_share"] == pytest.approx(share / 10)
    # two agents: each one's record against every other is its one cell
    overall = {c["agent"]: c for c in out["ladder"]["overall"]}
    assert overall["greedy"]["win_share"] == pytest.approx(cell["win_share"])
    assert cell["equal_share"] == 0.5


def test_the_agent_that_plays_better_is_marked_above_an_equal_share(run_cli):
    rc, out, err = run_cli("simulate", "pig", "--players", 2, "-n", 40, "--seed", 1,
                           "--option", "target=30", "--ladder", "random,greedy")
    assert rc == 0, err
    rows = {line.split()[0]: line for line in out.splitlines()[2:4]}
    assert rows["greedy"].endswith("▲") and rows["random"].endswith("▼")
    assert out.splitlines()[2].startswith("greedy")  # ranked first
    assert "equal share 50%" in out


def test_a_game_for_one_player_ranks_each_agent_alone(tmp_path, simulate_json):
    game = make_game(tmp_path, ALONE)
    out = simulate_json(game.folder, "-n", 8, "--ladder", "random,greedy")
    greedy, rand = _cell(out, "greedy", None), _cell(out, "random", None)
    assert greedy["win_share"] == 1.0 and greedy["mean_score"] == 3.0
    assert rand["win_share"] < 1.0
    assert greedy["verdict"] == rand["verdict"] == ""  # no table to share the wins with


def test_the_ladder_is_the_same_with_more_jobs(simulate_json):
    args = ("pig", "--players", 2, "-n", 8, "--seed", 2, "--option", "target=20",
            "--ladder", "random,first")
    assert simulate_json(*args)["ladder"] == simulate_json(*args, "--jobs", 2)["ladder"]


@pytest.mark.parametrize("args, message", [
    (["--ladder", "random"], "--ladder needs at least two agents to rank, not 'random'"),
    (["--ladder", "random,smart"], "unknown agent 'smart'"),
    (["--ladder", "random,random"], "--ladder names random twice"),
    (["--ladder", "random,,greedy"], "an empty agent name"),
    (["--ladder", "random,human"], "the human agent cannot be simulated"),
    (["--ladder", "random,greedy", "--agents", "greedy"], "--agents does not go with --ladder"),
    (["--ladder", "random,greedy", "--compare", "base"], "--compare does not go with --ladder"),
])
def test_bad_ladders_are_refused_before_any_game(run_cli, args, message):
    rc, out, err = run_cli("simulate", "pig", *args)
    assert rc == 2 and out == "" and message in err
