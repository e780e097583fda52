"""A/A calibration of `simulate --compare`: a game compared with itself (the same rules on other
seeds) must star a difference in at most about 5% of comparisons, however many tests one
comparison makes (each seat's win rate and score, all seats' score, game length). Before Holm's
correction about one comparison in four starred something in a symmetric random run."""
from __future__ import annotations

import random

import pytest

from meeplang.interpreter import stats
from meeplang.interpreter.simulation import SimSpec, play_chunk

ALPHA = 0.05


def _flags(base, other, adjusted=True) -> bool:
    """Does the comparison of these two runs star anything?"""
    players = len(base[0]["scores"])
    cmp = stats.compare(base, other, stats.summarize(base, players),
                        stats.summarize(other, players), ALPHA)
    suffix = "_adjusted" if adjusted else ""
    ps = [row[key + suffix] for row in cmp["seats"] for key in ("win_rate_p", "score_p")]
    ps += [cmp["all_seats"]["score_p" + suffix], cmp["decisions"]["p" + suffix],
           cmp["turns"]["p" + suffix]]
    return any(p is not None and p < ALPHA for p in ps)


def _pig_runs(runs: int, games: int, seed0: int):
    """`runs` pairs of runs of pig (target 30, two random seats) on disjoint seeds."""
    spec = lambda seed: SimSpec("pig", None, 2, seed, "random", {"target": "30"})  # noqa: E731
    return [(play_chunk(spec(seed0 + 2 * k), range(games)),
             play_chunk(spec(seed0 + 2 * k + 1), range(games))) for k in range(runs)]


def test_pig_against_itself_on_other_seeds_stars_little():
    """40 A/A comparisons of 15 games each side (the fast sample of the slow test below)."""
    pairs = _pig_runs(40, 15, 1000)
    corrected = sum(_flags(b, o) for b, o in pairs)
    uncorrected = sum(_flags(b, o, adjusted=False) for b, o in pairs)
    assert corrected <= 4  # about 5% of 40 is 2
    assert uncorrected > corrected  # the raw p-values would star more: the correction matters


@pytest.mark.slow
def test_pig_against_itself_many_times():
    pairs = _pig_runs(400, 30, 5000)
    corrected = sum(_flags(b, o) for b, o in pairs)
    assert corrected <= 0.065 * len(pairs), corrected


def _synthetic(rng, n):
    """n games of a symmetric two-seat game: scores drawn alike, the higher wins."""
    out = []
    for _ in range(n):
        a, b = rng.randint(0, 20), rng.randint(0, 20)
        winners = [0] if a > b else [1] if b > a else [0, 1]
        out.append({"scores": [a, b], "winners": winners, "decisions": rng.randint(5, 30),
                    "turns": rng.randint(2, 10)})
    return out


def test_synthetic_a_a_comparisons_star_at_most_alpha_and_intervals_cover():
    rng = random.Random(7)
    runs, flagged, raw, covered = 600, 0, 0, 0
    for _ in range(runs):
        base, other = _synthetic(rng, 40), _synthetic(rng, 40)
        flagged += _flags(base, other)
        raw += _flags(base, other, adjusted=False)
        cmp = stats.compare(base, other, stats.summarize(base, 2), stats.summarize(other, 2))
        lo, hi = cmp["seats"][0]["mean_score_diff_ci"]
        covered += lo <= 0 <= hi  # the true difference is 0
    assert flagged <= 0.06 * runs, flagged
    assert raw > 0.15 * runs  # each test at 5% alone: about one comparison in five starred
    assert 0.93 * runs <= covered <= 0.97 * runs, covered
