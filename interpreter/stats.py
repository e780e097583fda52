"""Statistics for simulation runs, in plain Python (no scipy, so the base install stays small).

Win rates count a tie as a shared win (each of k winners gets 1/k), so the seats' win rates plus
the share of games with no winner sum to 1. Intervals are Wilson's (sound near 0 and 1, where
most lopsided games live). A comparison plays the same seeds on both sides, so its tests are
paired: Student's paired t on the per-game differences of scores and game lengths, and the exact
McNemar (sign) test on the games a seat wins on one side only. Each difference also has a 95%
interval (Student's t on the per-game differences), and the tests of one comparison (every seat's
win rate and score, the pooled score of all seats, game length) are corrected together by Holm's
method, so that a comparison of a game with itself stars something in at most 5% of runs.
"""
from __future__ import annotations

import functools
import math
from statistics import NormalDist

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%


# ------------------------------------------------------------ distributions
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


@functools.lru_cache(maxsize=256)
def t_quantile(alpha: float, df: float) -> float:
    """The t with P(|T| >= t) = alpha for Student's t with df degrees of freedom (bisection on
    the exact tail above: 60 halvings reach double precision)."""
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > alpha:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_two_sided_p(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


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


# ------------------------------------------------------------ paired tests
def paired_t(diffs) -> dict:
    """Student's paired t-test of the mean of per-game differences (variant - base, same seed).

    A shift that every game shares is found even when games vary a lot, where an unpaired test
    would drown it in the spread. With fewer than two pairs t and p are None; with no spread in
    the differences the mean is certain: p is 0 if it is not 0, 1 if it is.
    """
    diffs = list(diffs)
    n = len(diffs)
    mean, sd = mean_sd(diffs)
    if n < 2:
        return {"diff": mean, "t": None, "df": None, "p": None, "ci": None, "sd": sd, "n": n}
    if sd == 0.0:
        return {"diff": mean, "t": None, "df": n - 1, "p": 1.0 if mean == 0 else 0.0,
                "ci": [mean, mean], "sd": sd, "n": n}
    t = mean / (sd / math.sqrt(n))
    margin = t_quantile(0.05, n - 1) * sd / math.sqrt(n)
    return {"diff": mean, "t": t, "df": n - 1, "p": t_two_sided_p(t, n - 1),
            "ci": [mean - margin, mean + margin], "sd": sd, "n": n}


def holm(pvalues) -> list:
    """Holm's step-down adjustment of a family of p-values (None: no test, left out and kept as
    None): the k-th smallest of m is multiplied by m - k + 1, and each adjusted value is at least
    the one before it. Rejecting where the adjusted p < alpha keeps the chance of any false star
    in the family at most alpha whatever the tests' dependence (seats of one game are dependent:
    their win rates sum to one)."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(tested)
    out: list = [None] * len(pvalues)
    running = 0.0
    for k, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - k) * p))
        out[i] = running
    return out


def detectable(sd: float, n: int, alpha: float, power: float = 0.8) -> float | None:
    """The smallest true difference a two-sided test at level alpha finds with probability
    `power` in n paired games whose differences spread by sd (normal approximation):
    (z(1 - alpha/2) + z(power)) sd / sqrt(n). None for fewer than two pairs."""
    if n < 2:
        return None
    z = NormalDist()
    return (z.inv_cdf(1 - alpha / 2) + z.inv_cdf(power)) * sd / math.sqrt(n)


# ------------------------------------------------------------ estimates


def sign_test(gained: int, lost: int) -> float:
    """Exact two-sided McNemar (sign) test: of the games whose outcome changed, `gained` went
    one way and `lost` the other; the p-value of so uneven a split if both ways were equally
    likely (binomial with p = 1/2)."""
    n = gained + lost
    if n == 0:
        return 1.0
    k = min(gained, lost)
    tail = math.fsum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


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
    """The statistics of one run: win rates with intervals, score and length spread. Seats played
    by the rules (automa) count as seats: `players` humans may give more seats than that."""
    n = len(records)
    players = max([players] + [len(r["scores"]) for r in records])
    shares, no_winner = win_shares(records, players)
    spreads = [mean_sd(col) for col in seat_scores(records, players)]
    length_mean, length_sd = mean_sd(r["decisions"] for r in records)
    turns_mean, turns_sd = mean_sd(r["turns"] for r in records)
    return {**_more(records, players),
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


def quantiles(values) -> dict | None:
    """Where the values lie: min, 10%, 25%, median, 75%, 90%, max (nearest rank); None if none."""
    values = sorted(values)
    if not values:
        return None
    n = len(values)

    def at(q: float):
        return values[min(n - 1, max(0, math.ceil(q * n) - 1))]

    return {"min": values[0], "p10": at(0.10), "p25": at(0.25), "median": at(0.5),
            "p75": at(0.75), "p90": at(0.90), "max": values[-1]}


def _more(records, players: int) -> dict:
    """What a house rule's author reads beside the win rates: how often each action is taken,
    whether the first player is favoured, and how long games run (their spread, not only their
    mean). Records without these fields (older callers) give empty ones."""
    n = len(records)
    names = sorted({a for r in records for a in r.get("actions", {})})
    actions = {}
    for a in names:
        uses = [r.get("actions", {}).get(a, 0) for r in records]
        mean, sd = mean_sd(uses)
        actions[a] = {"mean": mean, "sd": sd, "games_used": sum(1 for u in uses if u) / n}
    firsts = [r for r in records if r.get("first") is not None]
    first = None
    if firsts:
        share = math.fsum(win_share(r, r["first"]) for r in firsts)
        seats = max(players, max(len(r["scores"]) for r in firsts))
        lo, hi = wilson_interval(share, len(firsts))
        first = {"games": len(firsts), "win_rate": share / len(firsts), "ci": [lo, hi],
                 "equal_share": 1.0 / seats,
                 "seats": [sum(1 for r in firsts if r["first"] == p) for p in range(seats)]}
    return {"actions": actions, "first_player": first,
            "decisions_quantiles": quantiles(r["decisions"] for r in records),
            "turns_quantiles": quantiles(r["turns"] for r in records)}


def compare_actions(base_records, other_records) -> dict:
    """Each action's uses per game, base → variant on the same seeds: the means and the paired
    difference with its 95% interval (described, not tested: no p-value joins the Holm family)."""
    pairs = list(zip(base_records, other_records))
    names = sorted({a for b, o in pairs for r in (b, o) for a in r.get("actions", {})})
    out = {}
    for a in names:
        base = [b.get("actions", {}).get(a, 0) for b, _ in pairs]
        other = [o.get("actions", {}).get(a, 0) for _, o in pairs]
        t = paired_t([y - x for x, y in zip(base, other)])
        out[a] = {"mean": [mean_sd(base)[0], mean_sd(other)[0]], "diff": t["diff"], "ci": t["ci"]}
    return out


def win_share(record, p: int) -> float:
    """Seat p's share of one game's win: 1/k when it is one of k winners, else 0."""
    winners = record["winners"]
    return 1.0 / len(winners) if p in winners else 0.0


# How far a comparison's test of a win rate may stay blind before it says the games are too few:
# a difference of 10 percentage points in a seat's win rate is one a house rule's author cares about.
ENOUGH_WIN_RATE = 0.10
POWER = 0.8


def compare(base_records, other_records, base: dict, other: dict, alpha: float = 0.05) -> dict:
    """Base → variant on the same seeds: per seat the differences (variant - base) in win rate
    and mean score, the same over all seats pooled (each game's mean over seats), and game length,
    each with a 95% interval and a paired test over the shared games; the p-values of all these
    tests adjusted together (Holm), and the smallest differences the games could detect."""
    pairs = list(zip(base_records, other_records))
    n = len(pairs)
    seats = []
    for p in range(len(base["win_rates"])):
        gained = sum(1 for b, o in pairs if p in o["winners"] and p not in b["winners"])
        lost = sum(1 for b, o in pairs if p in b["winners"] and p not in o["winners"])
        wins = paired_t(win_share(o, p) - win_share(b, p) for b, o in pairs)
        score = paired_t(o["scores"][p] - b["scores"][p] for b, o in pairs)
        seats.append({"seat": p,
                      "win_rate": [base["win_rates"][p], other["win_rates"][p]],
                      "win_rate_diff": other["win_rates"][p] - base["win_rates"][p],
                      "win_rate_diff_ci": _within(wins["ci"], -1.0, 1.0),
                      "win_rate_diff_sd": wins["sd"],
                      "wins_gained": gained, "wins_lost": lost,
                      "win_rate_p": sign_test(gained, lost),
                      "mean_score": [base["mean_scores"][p], other["mean_scores"][p]],
                      "mean_score_diff": score["diff"], "mean_score_diff_ci": score["ci"],
                      "mean_score_diff_sd": score["sd"], "score_t": score["t"],
                      "score_df": score["df"], "score_p": score["p"]})
    count = len(seats)
    pooled = paired_t(math.fsum(o["scores"][p] - b["scores"][p] for p in range(count)) / count
                      for b, o in pairs) if count else paired_t([])
    all_seats = {"mean_score": [_mean(base["mean_scores"]), _mean(other["mean_scores"])],
                 "mean_score_diff": pooled["diff"], "mean_score_diff_ci": pooled["ci"],
                 "mean_score_diff_sd": pooled["sd"], "score_t": pooled["t"],
                 "score_df": pooled["df"], "score_p": pooled["p"],
                 "no_winner": [base["no_winner"], other["no_winner"]]}
    length = paired_t(o["decisions"] - b["decisions"] for b, o in pairs)
    turns = paired_t(o["turns"] - b["turns"] for b, o in pairs)
    out = {"paired_games": n, "seats": seats, "all_seats": all_seats,
           "decisions": {"mean": [base["decisions_mean"], other["decisions_mean"]], **length},
           "turns": {"mean": [base["turns_mean"], other["turns_mean"]], **turns}}
    has_turns = any(out["turns"]["mean"])
    # The family: every test the comparison shows (turns only in games that have turns).
    family = [(row, key) for row in seats for key in ("win_rate_p", "score_p")]
    family += [(all_seats, "score_p"), (out["decisions"], "p")]
    family += [(out["turns"], "p")] if has_turns else []
    adjusted = holm([row[key] for row, key in family])
    for (row, key), value in zip(family, adjusted):
        row[key + "_adjusted" if key != "p" else "p_adjusted"] = value
    if not has_turns:
        out["turns"]["p_adjusted"] = None
    tests = sum(1 for row, key in family if row[key] is not None)
    out["correction"] = {"method": "holm", "tests": tests, "alpha": alpha}
    out["detectable"] = _detectable(seats, all_seats, out["decisions"], n, alpha / max(tests, 1))
    return out


def _within(ci, lo: float, hi: float):
    """An interval cut to what the difference can be (a win rate moves by at most 1)."""
    return None if ci is None else [max(lo, ci[0]), min(hi, ci[1])]


def _mean(values) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def _detectable(seats, all_seats, decisions, n: int, alpha: float) -> dict:
    """The smallest differences these n pairs find 80% of the time at the level the correction
    gives the smallest p-value (alpha / tests), from the observed spread of the differences: the
    largest over seats. `enough` is False when a seat's win rate could move by ENOUGH_WIN_RATE
    unseen; `games_needed` then says about how many games would do (the blind spot shrinks as
    1/sqrt(n))."""
    def worst(key):
        values = [detectable(row[key], n, alpha, POWER) for row in seats]
        values = [v for v in values if v is not None]
        return max(values) if values else None

    win = worst("win_rate_diff_sd")
    out = {"power": POWER, "alpha_per_test": alpha, "win_rate_diff": win,
           "mean_score_diff": worst("mean_score_diff_sd"),
           "all_seats_mean_score_diff": detectable(all_seats["mean_score_diff_sd"], n, alpha,
                                                   POWER),
           "decisions_diff": detectable(decisions["sd"], n, alpha, POWER)}
    enough = n >= 2 and (win is None or win <= ENOUGH_WIN_RATE)
    out["enough"] = enough
    out["games_needed"] = None if enough or not win else \
        math.ceil(n * (win / ENOUGH_WIN_RATE) ** 2)
    return out
