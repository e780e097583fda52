"""What `simulate` says beside win rates (House rules 2): how often each action is taken, the
first player's record, how long games run; and, under --compare, each action's change."""
from __future__ import annotations

import pytest

from meeplang.interpreter import stats
from meeplang.interpreter.simulation import game_record, load_cached, play_game


def _record(winners, scores, first, actions, turns=10, decisions=20):
    return {"winners": winners, "scores": scores, "first": first, "actions": actions,
            "turns": turns, "decisions": decisions}


def test_a_record_counts_the_actions_each_game_took_as_its_log_does():
    game = load_cached("pig", None)
    record = game_record(game, 2, 7, 3, "random", {"target": 30})
    e = play_game(game, 2, record["seed"], "random", {"target": 30})
    taken = [ev["option"] for ev in e.events if ev.get("event") == "decision"]
    assert record["actions"] == {name: taken.count(name) for name in set(taken)}
    assert sum(record["actions"].values()) == record["decisions"]
    assert record["first"] == 0  # pig: the first seat starts


def test_the_first_players_record_and_the_action_counts_by_hand():
    records = [_record([0], [5, 3], 0, {"a": 2}), _record([1], [1, 4], 1, {"a": 1, "b": 3}),
               _record([0, 1], [4, 4], 1, {}), _record([1], [0, 9], 0, {"b": 1})]
    s = stats.summarize(records, 2)
    first = s["first_player"]
    # the first player won games 1 and 2, and half of game 3 (a shared win)
    assert first["games"] == 4 and first["win_rate"] == pytest.approx(2.5 / 4)
    assert first["seats"] == [2, 2] and first["equal_share"] == 0.5
    lo, hi = stats.wilson_interval(2.5, 4)
    assert first["ci"] == [pytest.approx(lo), pytest.approx(hi)]
    assert s["actions"]["a"]["mean"] == pytest.approx(3 / 4)
    assert s["actions"]["a"]["games_used"] == pytest.approx(2 / 4)
    assert s["actions"]["b"]["mean"] == pytest.approx(4 / 4)


def test_no_first_player_where_no_action_is_taken():
    s = stats.summarize([_record([0], [1, 0], None, {})], 2)
    assert s["first_player"] is None and s["actions"] == {}


def test_length_quantiles_by_nearest_rank():
    q = stats.quantiles([7, 1, 3, 9, 5, 2, 8, 4, 6, 10])
    assert q == {"min": 1, "p10": 1, "p25": 3, "median": 5, "p75": 8, "p90": 9, "max": 10}
    assert stats.quantiles([]) is None


def test_compare_actions_pairs_the_games():
    base = [_record([0], [1, 0], 0, {"a": 1}), _record([0], [1, 0], 0, {"a": 3})]
    other = [_record([0], [1, 0], 0, {"a": 2, "b": 1}), _record([0], [1, 0], 0, {"a": 5})]
    out = stats.compare_actions(base, other)
    assert out["a"]["mean"] == [2.0, 3.5] and out["a"]["diff"] == pytest.approx(1.5)
    assert out["b"]["mean"] == [0.0, 0.5]


def test_the_table_says_the_actions_the_first_player_and_the_spread_of_length(run_cli):
    rc, out, err = run_cli("simulate", "pig", "-n", 20, "--seed", 2, "--option", "target=30")
    assert rc == 0, err
    assert "actions taken, per game" in out and "roll" in out and "stop" in out
    assert "first player (the seat that takes the game's first action): wins" in out
    assert "game length in turns: min" in out


def test_compare_shows_each_actions_change(run_cli, pig_copy):
    rc, out, err = run_cli("simulate", pig_copy, "-n", 20, "--seed", 2, "--compare", "short")
    assert rc == 0, err
    line = next(line for line in out.splitlines() if line.startswith("roll "))
    before, after = (float(x) for x in line.split()[1:4:2])
    assert after < before  # a game to 30 takes fewer rolls than a game to 100
