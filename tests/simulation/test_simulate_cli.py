"""`meeplang simulate` end to end: JSON fields, shared wins, job-independence, --compare,
--report and bad usage."""
from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys

import pytest

from meeplang.interpreter.simulation import game_seed
from meeplang.simulate_cli import speed_text, without_timing

HAS_DASK = importlib.util.find_spec("distributed") is not None


def test_json_has_the_documented_fields(simulate_json):
    out = simulate_json("pig", "--players", 2, "-n", 30, "--seed", 4)
    for key in ("games", "players", "mean_scores", "win_rates", "games_per_second", "score_sd",
                "win_rate_ci", "decisions_mean", "no_winner", "seed"):
        assert key in out, key
    assert out["games"] == 30 and out["players"] == 2 and out["seed"] == 4
    assert out["games_per_second"] > 0
    assert len(out["win_rate_ci"]) == 2
    for rate, (lo, hi) in zip(out["win_rates"], out["win_rate_ci"]):
        assert 0 <= lo <= rate <= hi <= 1
    assert out["decisions_mean"] > 0 and "compare" not in out


@pytest.mark.parametrize("game,players", [("pig", 3), ("goofspiel", 2)])
def test_win_rates_and_no_winner_sum_to_one(simulate_json, game, players):
    out = simulate_json(game, "--players", players, "-n", 40, "--seed", 1,
                        *(["--option", "num_cards=4"] if game == "goofspiel" else []))
    assert sum(out["win_rates"]) + out["no_winner"] == pytest.approx(1.0)


def test_goofspiel_ties_are_shared(simulate_json):
    # With 2 cards over half the games are drawn (both players win); counted whole, the rates
    # would sum to about 1.6.
    out = simulate_json("goofspiel", "-n", 60, "--option", "num_cards=2")
    assert out["no_winner"] == 0
    assert sum(out["win_rates"]) == pytest.approx(1.0)


def test_games_without_winner(simulate_json):
    # Pig stopped by its horizon after 3 moves: nobody reaches the target.
    out = simulate_json("pig", "-n", 10, "--option", "horizon=3")
    assert out["no_winner"] == 1.0 and out["win_rates"] == [0.0, 0.0]
    assert out["no_winner_games"] == 10


def test_jobs_do_not_change_results(simulate_json):
    one = simulate_json("pig", "-n", 60, "--seed", 9, "--jobs", 1)
    two = simulate_json("pig", "-n", 60, "--seed", 9, "--jobs", 2)
    assert one["run"]["jobs"] == 1 and two["run"]["jobs"] == 2
    assert without_timing(one) == without_timing(two)


@pytest.mark.skipif(not HAS_DASK, reason="dask.distributed is not installed")
def test_dask_local_cluster_does_not_change_results(simulate_json):
    local = simulate_json("pig", "-n", 20, "--seed", 3)
    dask = simulate_json("pig", "-n", 20, "--seed", 3, "--executor", "dask", "--jobs", 2)
    assert dask["run"]["executor"] == "dask"
    assert without_timing(local) == without_timing(dask)


def test_compare_finds_shorter_games(simulate_json, pig_copy):
    out = simulate_json(pig_copy, "-n", 40, "--seed", 2, "--compare", "short", "--jobs", 2)
    cmp = out["compare"]
    assert cmp["variant"] == "short"
    assert cmp["summary"]["options"]["target"] == 30 and out["options"]["target"] == 100
    assert cmp["summary"]["seed"] == out["seed"]
    length = cmp["decisions"]
    assert length["diff"] < 0 and length["p"] < 0.001
    assert cmp["turns"]["diff"] < 0 and cmp["turns"]["p"] < 0.001
    for seat in cmp["seats"]:
        assert seat["mean_score_diff"] < 0 and seat["score_p"] < 0.001
        assert 0 <= seat["win_rate_p"] <= 1


def test_compare_uses_the_same_seeds(pig_copy, tmp_path, run_cli):
    pytest.importorskip("matplotlib")
    rc, _, err = run_cli("simulate", pig_copy, "-n", 5, "--seed", 7, "--compare", "short",
                         "--report", tmp_path / "rep", "--json")
    assert rc == 0, err
    seeds = [[row["seed"] for row in csv.DictReader((tmp_path / "rep" / name).open())]
             for name in ("games.csv", "games-short.csv")]
    assert seeds[0] == seeds[1] == [str(game_seed(7, i)) for i in range(5)]


def test_report_writes_csv_plots_and_summary(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "report"
    rc, out, err = run_cli("simulate", "pig", "-n", 12, "--seed", 1, "--report", folder)
    assert rc == 0, err
    assert "report written" in out
    for name in ("games.csv", "scores.png", "scores.svg", "win_rates.png", "win_rates.svg",
                 "lengths.png", "lengths.svg", "summary.json"):
        assert (folder / name).stat().st_size > 0, name
    assert (folder / "scores.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (folder / "win_rates.svg").read_bytes()[:2000]
    rows = list(csv.DictReader((folder / "games.csv").open()))
    assert [r["index"] for r in rows] == [str(i) for i in range(12)]
    assert set(rows[0]) == {"index", "seed", "score_0", "score_1", "winners", "turns",
                            "decisions", "first_player", "uses_roll", "uses_stop"}
    # pig's decisions are all actions (roll or stop), and seat 0 always starts
    assert all(int(r["uses_roll"]) + int(r["uses_stop"]) == int(r["decisions"]) for r in rows)
    assert {r["first_player"] for r in rows} == {"0"}
    assert all(int(r["turns"]) <= int(r["decisions"]) for r in rows)  # a pig turn: 1+ decisions
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["games"] == 12
    wins = sum(len(r["winners"].split()) for r in rows)
    assert wins >= 12 - summary["no_winner_games"]


def test_table_output(run_cli):
    rc, out, err = run_cli("simulate", "pig", "-n", 10, "--agents", "random,first")
    assert rc == 0, err
    assert "win rate" in out and "95% interval" in out and "ms per game" in out
    assert "first" in out and "random" in out
    assert "turns per game" in out  # pig has turns; goofspiel, below, only rounds
    rc, out, err = run_cli("simulate", "goofspiel", "-n", 4)
    assert rc == 0, err
    assert "decisions per game" in out and "turns" not in out



@pytest.mark.parametrize(("rate", "said"), [
    (12.46, "80.3 ms per game"), (0.1, "10,000 ms per game"), (468.0, "2.14 ms per game"),
    (1 / 190, "190,000 ms per game"),  # a search agent: not "0.0 games/s"
    (0.0, ""),
])
def test_the_speed_is_said_in_one_unit_whatever_the_agents(rate, said):
    assert speed_text(rate) == said


@pytest.mark.parametrize("args,message", [
    (["-n", "0"], "-n must be at least 1"),
    (["--agents", "random,nobody"], "unknown agent 'nobody'"),
    (["--agents", "human"], "human agent cannot be simulated"),
    (["--jobs", "-2"], "--jobs"),
    (["--compare", "nope"], "no variant 'nope'"),
    (["--option", "target=x"], "whole number"),
    (["--players", "1"], "2-10 players"),
    (["--executor", "local", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
])
def test_bad_usage_exits_2(run_cli, args, message):
    rc, out, err = run_cli("simulate", "pig", *args)
    assert rc == 2
    assert message in err and "Traceback" not in err


def test_bad_usage_from_the_shell_has_no_traceback():
    for args in (["-n", "0"], ["--agents", "bogus"], ["-n", "many"]):
        proc = subprocess.run([sys.executable, "-m", "meeplang.cli", "simulate", "pig", *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert "error" in proc.stderr and "Traceback" not in proc.stderr
        assert proc.stdout == ""


def test_missing_extras_are_usage_errors(run_cli, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    rc, _, err = run_cli("simulate", "pig", "-n", 2, "--report", tmp_path / "r")
    assert rc == 2 and "pip install meeplang[plots]" in err
    assert not (tmp_path / "r").exists()
    rc, _, err = run_cli("simulate", "pig", "-n", 2, "--executor", "dask")
    assert rc == 2 and "pip install meeplang[dask]" in err


def test_report_with_constant_scores(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    rc, _, err = run_cli("simulate", "pig", "-n", 5, "--option", "horizon=1", "--report", tmp_path)
    assert rc == 0, err
    assert (tmp_path / "scores.svg").exists()


def test_a_house_rule_file_is_compared_with_its_base_game(tmp_path, capsys):
    import json

    from meeplang.cli import main

    rules = tmp_path / "fast-pig.yaml"
    rules.write_text("variant: fast\nextends: pig\noptions:\n  target: {default: 30, min: 1}\n")
    assert main(["simulate", str(rules), "--players", "2", "-n", "60", "--compare", "base",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # read base → variant whichever was named first
    assert out["variant"] is None and out["compare"]["variant"] == "fast"
    assert out["decisions_mean"] > out["compare"]["summary"]["decisions_mean"]
    assert out["compare"]["decisions"]["diff"] < 0  # Δ = variant - base: fast games are shorter
    assert out["compare"]["paired_games"] == 60


@pytest.mark.skipif(not HAS_DASK, reason="dask.distributed is not installed")
def test_search_agents_give_the_same_results_here_and_on_dask(simulate_json, pig_copy):
    """`mcts:N` and `greedy` travel to workers by name, and play the same games there."""
    args = (pig_copy, "-n", 4, "--seed", 5, "--agents", "mcts:8,greedy", "--option", "target=12")
    local = simulate_json(*args, "--compare", "short", "--jobs", 1)
    dask = simulate_json(*args, "--compare", "short", "--executor", "dask", "--jobs", 2)
    assert local["agents"] == ["mcts:8", "greedy"]
    assert without_timing(local) == without_timing(dask)


def test_compare_says_intervals_units_correction_pooled_effect_and_blind_spot(run_cli, pig_copy):
    rc, out, err = run_cli("simulate", pig_copy, "-n", 30, "--seed", 2, "--compare", "short",
                           "--option", "horizon=999")
    assert rc == 0, err
    lines = out.splitlines()
    header = next(line for line in lines if "→" in line and "Δ = variant − base" in line)
    assert "percentage points (pp)" in header and "adjusted for 7 tests (Holm)" in header
    assert "Δ pp" in out and out.count("95% interval") >= 3
    assert any(line.split()[0] == "all" for line in lines if line.strip())  # the pooled row
    assert "TOO FEW GAMES" in out and "would likely go unnoticed (80% power)" in out
    assert "agents by seat: random, random" in out
    # the header names the options set away from their defaults, not every option
    assert lines[0] == "pig: 30 games, 2 players, seed 2 (horizon=999)"
    assert "target=" not in out.split("\n")[0]
    assert "ms per game" in out and "games/s" not in out


def test_compare_json_has_intervals_pooled_and_adjusted_p(simulate_json, pig_copy):
    out = simulate_json(pig_copy, "-n", 20, "--seed", 3, "--compare", "short")
    cmp = out["compare"]
    assert cmp["correction"]["method"] == "holm" and cmp["correction"]["tests"] == 7
    assert "percentage points" in cmp["units"]["win_rate"]
    for seat in cmp["seats"]:
        lo, hi = seat["win_rate_diff_ci"]
        assert lo <= seat["win_rate_diff"] <= hi
        lo, hi = seat["mean_score_diff_ci"]
        assert lo <= seat["mean_score_diff"] <= hi
        assert seat["score_p_adjusted"] >= seat["score_p"]
    pooled = cmp["all_seats"]
    assert pooled["mean_score_diff"] == pytest.approx(
        sum(s["mean_score_diff"] for s in cmp["seats"]) / 2)
    assert cmp["detectable"]["enough"] is False and cmp["detectable"]["games_needed"] > 20
    assert out["options_changed"] == {} and out["seconds_per_game"] > 0


def test_sample_data_is_named(run_cli):
    rc, out, err = run_cli("simulate", "otys", "-n", 1, "--players", 2)
    assert rc == 0, err
    assert "sample data" in out and "contract_cards, reward_tokens (games/otys/data.yaml)" in out


def test_a_named_variant_compared_with_base_still_reads_base_to_variant(simulate_json):
    """`simulate pig:short --compare base` read pig:short → pig while calling Δ variant − base."""
    out = simulate_json("pig:short", "-n", 10, "--compare", "base")
    assert out["variant"] is None and out["compare"]["variant"] == "short"
    assert out["compare"]["direction"].startswith("pig → pig:short")
    assert out["compare"]["decisions"]["diff"] < 0  # pig to 50 is shorter than pig to 100
    for seat in out["compare"]["seats"]:
        lo, hi = seat["win_rate_diff_ci"]
        assert -1 <= lo <= hi <= 1  # a win rate moves by at most 100 points
