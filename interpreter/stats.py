"""Statistics for simulation runs, in plain Python (no scipy, so the base install stays small).

Win rates count a tie as a shared win (each of k winners gets 1/k), so the seats' win rates plus
the share of games with no winner sum to 1. Intervals are Wilson's (sound near 0 and 1, where
most lopsided games live); comparisons use a two-proportion z-test for win rates and Welch's t
(unequal variances) for scores and game lengths.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%


# ------------------------------------------------------------ distributions
def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z; math.erf is all it takes."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|): the p-value of a two-sided z-test."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's continued fraction for the incomplete beta (Numerical Recipes' betacf)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 20_000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                    -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta I_x(a, b), which gives Student's t tail exactly."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom (df may be fractional: Welch)."""
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2.0, 0.5, df / (df + t * t))


# ------------------------------------------------------------ estimates
def mean_sd(values) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1); the sd is 0 for fewer than two values."""
    values = list(values)
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; successes may be fractional (shared wins)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - margin), min(1.0, centre + margin)


# ------------------------------------------------------------ tests
def two_proportion_z(x1: float, n1: int, x2: float, n2: int) -> dict:
    """Pooled two-proportion z-test of p2 - p1; z is None when both samples show no variance."""
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = p2 - p1
    if se == 0.0:
        return {"diff": diff, "z": None, "p": 1.0 if diff == 0 else 0.0}
    z = diff / se
    return {"diff": diff, "z": z, "p": normal_two_sided_p(z)}


def welch_t(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int) -> dict:
    """Welch's t-test of mean2 - mean1 with Welch-Satterthwaite degrees of freedom.

    With fewer than two values on a side there is no variance estimate: t and p are None. With
    no variance on either side the means are certain: p is 0 if they differ, 1 if not.
    """
    diff = mean2 - mean1
    if n1 < 2 or n2 < 2:
        return {"diff": diff, "t": None, "df": None, "p": None}
    v1, v2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    se2 = v1 + v2
    if se2 == 0.0:
        return {"diff": diff, "t": None, "df": float(n1 + n2 - 2), "p": 1.0 if diff == 0 else 0.0}
    df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    t = diff / math.sqrt(se2)
    return {"diff": diff, "t": t, "df": df, "p": t_two_sided_p(t, df)}


# ------------------------------------------------------------ simulation summaries
def win_shares(records, players: int) -> tuple[list[float], int]:
    """Each seat's wins with ties shared (1/k each) and the count of games nobody won."""
    shares = [0.0] * players
    no_winner = 0
    for r in records:
        winners = r["winners"]
        if not winners:
            no_winner += 1
            continue
        for w in winners:
            shares[w] += 1.0 / len(winners)
    return shares, no_winner


def seat_scores(records, players: int) -> list[list[float]]:
    """Scores by seat (columns of the per-game results)."""
    return [[r["scores"][p] for r in records] for p in range(players)]


def summarize(records, players: int) -> dict:
    """The statistics of one run: win rates with intervals, score and length spread."""
    n = len(records)
    shares, no_winner = win_shares(records, players)
    spreads = [mean_sd(col) for col in seat_scores(records, players)]
    length_mean, length_sd = mean_sd(r["decisions"] for r in records)
    turns_mean, turns_sd = mean_sd(r["turns"] for r in records)
    return {
        "games": n,
        "win_rates": [s / n for s in shares],
        "win_rate_ci": [list(wilson_interval(s, n)) for s in shares],
        "wins": shares,
        "no_winner": no_winner / n,
        "no_winner_games": no_winner,
        "mean_scores": [m for m, _ in spreads],
        "score_sd": [sd for _, sd in spreads],
        "decisions_mean": length_mean,
        "decisions_sd": length_sd,
        "turns_mean": turns_mean,  # 0 for a game without `turns` steps (goofspiel's rounds)
        "turns_sd": turns_sd,
    }


def compare(base: dict, other: dict, players: int) -> dict:
    """Per-seat differences (other - base) in win rate and mean score, and in game length."""
    nb, no = base["games"], other["games"]
    seats = []
    for p in range(players):
        wins = two_proportion_z(base["wins"][p], nb, other["wins"][p], no)
        score = welch_t(base["mean_scores"][p], base["score_sd"][p], nb,
                        other["mean_scores"][p], other["score_sd"][p], no)
        seats.append({"seat": p,
                      "win_rate": [base["win_rates"][p], other["win_rates"][p]],
                      "win_rate_diff": wins["diff"], "win_rate_z": wins["z"],
                      "win_rate_p": wins["p"],
                      "mean_score": [base["mean_scores"][p], other["mean_scores"][p]],
                      "mean_score_diff": score["diff"], "score_t": score["t"],
                      "score_df": score["df"], "score_p": score["p"]})
    length = welch_t(base["decisions_mean"], base["decisions_sd"], nb,
                     other["decisions_mean"], other["decisions_sd"], no)
    turns = welch_t(base["turns_mean"], base["turns_sd"], nb,
                    other["turns_mean"], other["turns_sd"], no)
    return {"seats": seats,
            "decisions": {"mean": [base["decisions_mean"], other["decisions_mean"]], **length},
            "turns": {"mean": [base["turns_mean"], other["turns_mean"]], **turns}}
