"""The statistics against values worked out by hand (or closed forms)."""
from __future__ import annotations

import math

import pytest

from meeplang.interpreter import stats


def test_mean_sd_uses_n_minus_one():
    assert stats.mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert stats.mean_sd([3]) == (3.0, 0.0)
    assert stats.mean_sd([]) == (0.0, 0.0)


def test_wilson_interval_by_hand():
    # 8 of 10, z = 1.96: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.716738...,
    # margin 1.96 sqrt(0.016 + 1.96²/400) / (1 + 1.96²/10) = 0.226581...
    lo, hi = stats.wilson_interval(8, 10, z=1.96)
    assert lo == pytest.approx(0.716738 - 0.226581, abs=1e-5)
    assert hi == pytest.approx(0.716738 + 0.226581, abs=1e-5)


def test_wilson_interval_edges_stay_in_0_1():
    lo, hi = stats.wilson_interval(0, 20)
    assert lo == 0.0 and 0 < hi < 0.2
    lo, hi = stats.wilson_interval(20, 20)
    assert 0.8 < lo < 1 and hi == 1.0
    lo, hi = stats.wilson_interval(2.5, 5)  # shared wins make fractional successes
    assert lo + hi == pytest.approx(1.0) and 0 < lo < 0.5


def test_t_distribution_closed_forms():
    # df = 1 is Cauchy: P(|T| >= t) = 1 - 2 atan(t) / pi; df = 2: 1 - t / sqrt(2 + t²)
    for t in (0.3, 1.0, 4.0):
        assert stats.t_two_sided_p(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi)
        assert stats.t_two_sided_p(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t))
    assert stats.t_two_sided_p(2.228138852, 10) == pytest.approx(0.05, abs=1e-8)  # t table
    assert stats.t_two_sided_p(1.959963984540054, 1e7) == pytest.approx(0.05, abs=1e-6)
    assert stats.t_two_sided_p(0, 5) == 1.0


def test_win_shares_split_ties_and_count_no_winner():
    records = [{"winners": [0]}, {"winners": [0, 1]}, {"winners": []}, {"winners": [1, 2]}]
    shares, none = stats.win_shares(records, 3)
    assert shares == [1.5, 1.0, 0.5] and none == 1
    assert sum(shares) + none == len(records)


def test_summarize_and_compare():
    base = [{"scores": [s, 10 - s], "winners": [0] if s > 5 else [1], "decisions": 10 + s,
             "turns": 4} for s in range(10)]
    other = [dict(r, decisions=r["decisions"] + 100, turns=2 + r["scores"][0] % 2) for r in base]
    b, o = stats.summarize(base, 2), stats.summarize(other, 2)
    assert b["games"] == 10 and b["win_rates"] == [0.4, 0.6] and b["no_winner"] == 0
    assert b["mean_scores"] == [4.5, 5.5]
    assert b["score_sd"][0] == pytest.approx(math.sqrt(sum((s - 4.5) ** 2 for s in range(10)) / 9))
    assert b["decisions_mean"] == 14.5
    cmp = stats.compare(base, other, b, o)
    assert cmp["paired_games"] == 10
    assert cmp["seats"][0]["win_rate_diff"] == 0 and cmp["seats"][0]["win_rate_p"] == 1.0
    assert cmp["seats"][0]["score_p"] == 1.0
    assert cmp["decisions"]["diff"] == 100 and cmp["decisions"]["p"] == 0.0
    assert (b["turns_mean"], b["turns_sd"], o["turns_mean"]) == (4, 0, 2.5)
    assert cmp["turns"]["mean"] == [4, 2.5] and cmp["turns"]["diff"] == -1.5


def test_paired_t_finds_a_small_shift_that_every_game_shares():
    """Scores spread 0..99, the variant adds 1 to each (plus a little noise): unpaired, a shift
    of 1 in a spread of 29 is invisible; paired, it is certain."""
    base = list(range(100))
    other = [s + 1 + (i % 3 - 1) * 0.1 for i, s in enumerate(base)]
    r = stats.paired_t(o - b for b, o in zip(base, other))
    assert r["diff"] == pytest.approx(1.0, abs=0.01) and r["df"] == 99 and r["p"] < 1e-10


def test_paired_t_by_hand():
    r = stats.paired_t([1, 2, 3, 4, 5])  # mean 3, sd sqrt(2.5), t = 3 / (sqrt(2.5) / sqrt(5))
    assert r["t"] == pytest.approx(3 / math.sqrt(0.5))
    assert r["p"] == pytest.approx(0.013236, abs=1e-6)  # Student's t, 4 df, two-sided (scipy)
    assert stats.paired_t([2])["p"] is None


def test_sign_test_is_exact():
    assert stats.sign_test(0, 0) == 1.0
    assert stats.sign_test(5, 0) == pytest.approx(2 / 32)
    assert stats.sign_test(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert stats.sign_test(3, 3) == 1.0


def test_t_quantile_inverts_the_tail():
    assert stats.t_quantile(0.05, 10) == pytest.approx(2.228138852, abs=1e-8)  # t table
    assert stats.t_quantile(0.05, 4) == pytest.approx(2.776445105, abs=1e-8)
    assert stats.t_quantile(0.05, 1e7) == pytest.approx(stats.Z95, abs=1e-5)


def test_paired_t_interval_by_hand():
    # mean 3, sd sqrt(2.5), n 5: 3 ± 2.776445 * sqrt(2.5) / sqrt(5)
    r = stats.paired_t([1, 2, 3, 4, 5])
    margin = 2.776445105 * math.sqrt(0.5)
    assert r["ci"] == pytest.approx([3 - margin, 3 + margin])
    assert stats.paired_t([2, 2, 2])["ci"] == [2, 2] and stats.paired_t([2])["ci"] is None


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.5 (m = 4): 0.04, max(0.04, 0.06), max(0.06, 0.06), 0.5
    adjusted = stats.holm([0.03, None, 0.01, 0.5, 0.02])
    assert adjusted[1] is None
    assert [adjusted[i] for i in (0, 2, 3, 4)] == pytest.approx([0.06, 0.04, 0.5, 0.06])
    assert stats.holm([0.9, 0.8]) == [1.0, 1.0]  # 2 x 0.8 capped at 1; 0.9 not below it


def test_detectable_difference_by_hand():
    # (1.959964 + 0.841621) * 10 / sqrt(100)
    assert stats.detectable(10, 100, 0.05) == pytest.approx(2.801585, abs=1e-5)
    assert stats.detectable(10, 1, 0.05) is None


def test_compare_pools_seats_corrects_and_says_what_it_could_not_see():
    base = [{"scores": [s, 10 - s], "winners": [0] if s > 5 else [1], "decisions": 10 + s,
             "turns": 4} for s in range(10)]
    other = [dict(r, scores=[r["scores"][0] + 2, r["scores"][1] + (i % 2)])
             for i, r in enumerate(base)]
    cmp = stats.compare(base, other, stats.summarize(base, 2), stats.summarize(other, 2))
    pooled = cmp["all_seats"]
    assert pooled["mean_score_diff"] == pytest.approx(1.25)  # (2 + 0.5) / 2
    lo, hi = pooled["mean_score_diff_ci"]
    assert lo < 1.25 < hi
    assert cmp["correction"] == {"method": "holm", "tests": 7, "alpha": 0.05}
    seat = cmp["seats"][0]
    assert seat["score_p"] == 0.0 and seat["score_p_adjusted"] == 0.0
    assert seat["win_rate_diff_ci"] == [0, 0]  # no game changed its winner
    d = cmp["detectable"]
    assert d["alpha_per_test"] == pytest.approx(0.05 / 7) and d["power"] == 0.8
    assert d["all_seats_mean_score_diff"] == pytest.approx(
        stats.detectable(pooled["mean_score_diff_sd"], 10, 0.05 / 7))
