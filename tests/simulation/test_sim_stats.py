"""The statistics against values worked out by hand (or closed forms)."""
from __future__ import annotations

import math

import pytest

from interpreter import stats


def test_mean_sd_uses_n_minus_one():
    assert stats.mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert stats.mean_sd([3]) == (3.0, 0.0)
    assert stats.mean_sd([]) == (0.0, 0.0)


def test_normal_cdf():
    assert stats.normal_cdf(0) == 0.5
    assert stats.normal_cdf(1.959963984540054) == pytest.approx(0.975, abs=1e-12)
    assert stats.normal_two_sided_p(1.959963984540054) == pytest.approx(0.05, abs=1e-12)


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


def test_two_proportion_z_by_hand():
    # 45/100 vs 60/100: pooled 0.525, se = sqrt(0.525 * 0.475 * 0.02) = 0.0706222
    r = stats.two_proportion_z(45, 100, 60, 100)
    assert r["diff"] == pytest.approx(0.15)
    assert r["z"] == pytest.approx(0.15 / math.sqrt(0.525 * 0.475 * 0.02))
    assert r["z"] == pytest.approx(2.12398, abs=1e-5)
    assert r["p"] == pytest.approx(0.033672, abs=1e-6)


def test_two_proportion_z_without_variance():
    assert stats.two_proportion_z(0, 10, 0, 10) == {"diff": 0.0, "z": None, "p": 1.0}


def test_t_distribution_closed_forms():
    # df = 1 is Cauchy: P(|T| >= t) = 1 - 2 atan(t) / pi; df = 2: 1 - t / sqrt(2 + t²)
    for t in (0.3, 1.0, 4.0):
        assert stats.t_two_sided_p(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi)
        assert stats.t_two_sided_p(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t))
    assert stats.t_two_sided_p(2.228138852, 10) == pytest.approx(0.05, abs=1e-8)  # t table
    assert stats.t_two_sided_p(1.959963984540054, 1e7) == pytest.approx(0.05, abs=1e-6)
    assert stats.t_two_sided_p(0, 5) == 1.0


def test_welch_t_by_hand():
    # [1..5]: mean 3, var 2.5; [2,4,..,12]: mean 7, var 14. se² = 2.5/5 + 14/6 = 2.8333
    # df = 2.8333² / (0.5²/4 + 2.3333²/5) = 6.97226
    m1, s1 = stats.mean_sd([1, 2, 3, 4, 5])
    m2, s2 = stats.mean_sd([2, 4, 6, 8, 10, 12])
    r = stats.welch_t(m1, s1, 5, m2, s2, 6)
    assert r["diff"] == pytest.approx(4.0)
    assert r["t"] == pytest.approx(4 / math.sqrt(2.5 / 5 + 14 / 6))
    assert r["df"] == pytest.approx((17 / 6) ** 2 / (0.25 / 4 + (7 / 3) ** 2 / 5))
    assert r["df"] == pytest.approx(6.97226, abs=1e-5)
    assert 0.045 < r["p"] < 0.055


def test_welch_t_degenerate_cases():
    assert stats.welch_t(1, 0, 5, 1, 0, 5)["p"] == 1.0
    assert stats.welch_t(1, 0, 5, 2, 0, 5)["p"] == 0.0
    assert stats.welch_t(1, 1, 1, 2, 1, 5)["p"] is None


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
    cmp = stats.compare(b, o, 2)
    assert cmp["seats"][0]["win_rate_diff"] == 0 and cmp["seats"][0]["win_rate_p"] == 1.0
    assert cmp["seats"][0]["score_p"] == 1.0
    assert cmp["decisions"]["diff"] == 100 and cmp["decisions"]["p"] < 1e-10
    assert (b["turns_mean"], b["turns_sd"], o["turns_mean"]) == (4, 0, 2.5)
    assert cmp["turns"]["mean"] == [4, 2.5] and cmp["turns"]["diff"] == -1.5
    assert cmp["turns"]["p"] < 1e-4
