"""`meeplang simulate`: play many games with agents and report what the rules do.

    meeplang simulate pig --players 2 -n 1000 --seed 1 --jobs 2
    meeplang simulate pig -n 500 --compare short --json
    meeplang simulate goofspiel -n 200 --agents greedy,random --report out/

Game i of a run has seed `game_seed(seed, i)`, whatever the number of jobs or the executor, so a
run is reproducible anywhere and `meeplang play GAME --seed <that seed>` replays any one game.
`--compare VARIANT` plays the same seeds with the variant, which makes the two runs comparable.

Finished games are results: a run stopped part-way (Ctrl-C, SIGTERM, SIGHUP, a worker process
that died) prints the summary of the games it finished, marked partial (`"partial"` in `--json`,
and in the report's summary.json), says why on stderr and exits 130, 143, 129 (128 + the signal)
or 1; its worker processes are stopped, never left running.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import signal
import sys
import threading
import time
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from pathlib import Path

from meeplang.dsl.atomic import write_files
from meeplang.dsl.errors import UsageError
from meeplang.dsl.model import players_text
from meeplang.interpreter import stats
from meeplang.interpreter.agents import make_agents
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.parallel import default_jobs, in_order, open_runner
from meeplang.interpreter.simulation import SimSpec, load_cached

from .arguments import add_output_misuse, parse_options, split_target
from .output import Table, print_table, raw_stream

PLOTS_HINT = "pip install meeplang[plots]"
TIMING_KEYS = ("elapsed_seconds", "games_per_second", "seconds_per_game", "run")  # differ between identical runs
ALPHA = 0.05
# What the comparison's numbers are measured in (--json says it beside them).
COMPARE_UNITS = {"win_rate": "fraction of games (ties shared); its Δ x 100 is percentage points",
                 "mean_score": "points of the game's score", "decisions": "decisions per game",
                 "turns": "turns per game",
                 "ci": "95% interval of the difference (Student's t on the paired games)",
                 "p_adjusted": "Holm-adjusted over every test of the comparison"}


# ------------------------------------------------------------ the command line
def register(subparsers) -> None:
    """Add `simulate` to the meeplang command (found through cli.COMMAND_MODULES)."""
    s = subparsers.add_parser(
        "simulate", help="play many games with agents: win rates, scores, game length",
        description="Play N games with agents and summarize win rates (95% Wilson intervals), "
                    "scores and game length. Game i uses a seed derived from --seed and i, so "
                    "results do not depend on --jobs or --executor.")
    s.add_argument("game", metavar="GAME[:VARIANT]")
    s.add_argument("--variant", action="append", metavar="VARIANT", help="a variant name or "
                   "file; give it again to stack another (applied in order)")
    s.add_argument("--players", "-p", type=int, help="default: the game's minimum")
    s.add_argument("-n", "--games", type=int, default=100, dest="n", help="games to play "
                   "(default 100)")
    s.add_argument("--seed", "-s", type=int, default=0, help="master seed (default 0)")
    s.add_argument("--agents", help="comma-separated, one per seat (the last repeats): random "
                   "(the default), first, greedy, mcts (mcts:400 iterations or mcts:0.5s per "
                   "decision)")
    s.add_argument("--ladder", metavar="AGENTS", help="rank these agents (comma-separated) in a "
                   "round robin: each at one seat, turning round the table, against a table of "
                   "each other one, -n games a pair; win shares with 95%% intervals")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a game option, e.g. --option target=50")
    add_output_misuse(s)
    s.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (0: one per CPU)")
    s.add_argument("--executor", choices=("local", "dask"), help="local process pool (default) "
                   "or dask.distributed (" + "pip install meeplang[dask]" + ")")
    s.add_argument("--scheduler", metavar="ADDR", help="a running dask scheduler, e.g. "
                   "tcp://host:8786 (default: start a LocalCluster of --jobs workers)")
    s.add_argument("--compare", metavar="VARIANT", help="also play the same seeds with VARIANT "
                   "(a variant name, a variant file, or `base` for the game without variant) "
                   "and test the differences")
    s.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    s.add_argument("--report", metavar="DIR", help="write per-game CSV, plots (PNG, SVG) and "
                   "summary.json to DIR")
    s.set_defaults(func=cmd_simulate)


@dataclass
class Run:
    """One simulated game (the base or the compared variant) and, once played, its records."""

    label: str
    game: object
    spec: SimSpec
    agents: list
    options: dict
    records: list = field(default_factory=list)
    elapsed: float = 0.0
    n: int | None = None  # games of this run, when not the plan's (a ladder's seat positions)


@dataclass
class Plan:
    """Everything the command will do, checked before the first game is played."""

    runs: list
    n: int
    jobs: int
    executor: str
    scheduler: str | None
    stopped: "Stop | None" = None  # why the games stopped before all were played


@dataclass
class Stop:
    """Why a simulation stopped part-way, and the exit status that says so."""

    reason: str
    status: int


class Signalled(BaseException):
    """SIGTERM or SIGHUP arrived: stop the run as Ctrl-C does (a BaseException, as
    KeyboardInterrupt is: no `except Exception` on the way may swallow it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals():
    """Inside the `with`, SIGTERM and SIGHUP raise Signalled (once: a second one while the run
    shuts down is ignored) so the workers are stopped and the finished games kept."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = []

    def handler(signum, frame):
        if not raised:
            raised.append(signum)
            raise Signalled(signum)

    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {name: signal.signal(getattr(signal, name), handler) for name in names}
    try:
        yield
    finally:
        for name, old in previous.items():
            signal.signal(getattr(signal, name), old)


def stop_for(exc: BaseException) -> Stop:
    if isinstance(exc, Signalled):
        return Stop(f"stopped by {signal.Signals(exc.signum).name}", 128 + exc.signum)
    if isinstance(exc, KeyboardInterrupt):
        return Stop("interrupted", 130)
    return Stop("a worker process died (killed, or out of memory?)", 1)


def cmd_simulate(args) -> int:
    """Check the request, play the games, then print a table or JSON and write the report."""
    if args.ladder is not None:
        return cmd_ladder(args)
    plan = make_plan(args)
    if args.report:
        require_matplotlib()
    play_runs(plan, show_progress=sys.stderr.isatty())  # on stderr: --json > file shows it too
    stopped = plan.stopped
    if stopped is not None and not keep_finished(plan):
        print(f"meeplang: {stopped.reason}: no game finished", file=sys.stderr)
        return stopped.status
    out = result_object(plan)
    if stopped is not None:
        out["partial"] = {"reason": stopped.reason, "games": len(plan.runs[0].records),
                          "planned": plan.n}
    if args.report:
        write_report(Path(args.report), plan, out)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print_result(plan, out, args.report)
    if stopped is not None:
        sys.stdout.flush()
        print(f"meeplang: {stopped.reason}: {len(plan.runs[0].records)} of {plan.n} games "
              "finished; the summary is of those games", file=sys.stderr)
        return stopped.status
    return 0


def cmd_ladder(args) -> int:
    """`--ladder AGENTS`: a round robin of agents on one game (meeplang/ladder.py)."""
    from . import ladder

    for flag, value, why in (("--agents", args.agents, "a ladder sets every seat's agent"),
                             ("--compare", args.compare, "a ladder ranks agents on one game"),
                             ("--report", args.report, "--json gives the ladder as data")):
        if value:
            raise UsageError(f"{flag} does not go with --ladder: {why}")
    _, variant, options, target, base, players, jobs, executor = common_setup(args)
    agents = ladder.ladder_agents(args.ladder, args.seed)
    resolved = Engine(base, players, args.seed, options).opts
    label = base.name + (f":{base.variant}" if base.variant else "")
    runs, seats = [], []
    for seating in ladder.seatings(agents, players):
        n = args.n if players == 1 else ladder.games_at(seating.seat, args.n, players)
        if n == 0:
            continue
        text = ladder.seat_agents_text(seating, players)
        spec = SimSpec(target, variant, players, args.seed, text, dict(options), base.rules_hash)
        who = seating.agent if seating.against is None else \
            f"{seating.agent} at seat {seating.seat} vs {seating.against}"
        runs.append(Run(f"{label}: {who}", base, spec, text.split(","), resolved, n=n))
        seats.append(seating)
    plan = Plan(runs, args.n, jobs, executor, args.scheduler)
    play_runs(plan, show_progress=sys.stderr.isatty())
    result = ladder.ladder_result(agents, players, [(s, run.records)
                                                    for s, run in zip(seats, plan.runs)])
    out = {"game": base.name, "variant": base.variant, "players": players, "seed": args.seed,
           "games_per_pair": args.n, "options_changed": {
               k: v for k, v in resolved.items()
               if k not in base.options or base.options[k].default != v},
           "rules": base.rules_hash, "ladder": result}
    stopped = plan.stopped
    if stopped is not None:
        out["partial"] = {"reason": stopped.reason,
                          "games": sum(len(run.records) for run in plan.runs),
                          "planned": sum(run.n for run in plan.runs)}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        what = "games a pair" if players > 1 else "games an agent"
        print_table(ladder.ladder_table(
            f"{label}: ladder of {len(agents)} agents, {players_text(players, players)}, "
            f"{args.n} {what}, seed {args.seed}" + options_text(out), result))
        for file, names in base.sample_data:
            print(f"sample data (invented values, not the published game's): "
                  f"{', '.join(names)} ({file})")
    if stopped is not None:
        sys.stdout.flush()
        print(f"meeplang: {stopped.reason}: the ladder is of the games finished", file=sys.stderr)
        return stopped.status
    return 0


def keep_finished(plan: Plan) -> bool:
    """After a stop: keep the runs' finished games, compared on the seeds both runs finished
    (a compared run with none is left out). False if the base run finished none."""
    if len(plan.runs) > 1:
        shared = {r["index"] for r in plan.runs[0].records} & \
            {r["index"] for r in plan.runs[1].records}
        if shared:
            for run in plan.runs:
                run.records = [r for r in run.records if r["index"] in shared]
        else:
            plan.runs = plan.runs[:1]
    return bool(plan.runs[0].records)


# ------------------------------------------------------------ checking the request
def make_plan(args) -> Plan:
    """Turn arguments into runs, refusing bad usage (exit 2) before any work starts."""
    name, variant, options, target, base, players, jobs, executor = common_setup(args)
    args.agents = args.agents or "random"
    runs = [make_run(target, variant, base, players, args, options)]
    if args.compare:
        folder, other_variant = compare_target(name, base, args.compare)
        other = load_cached(folder, other_variant)
        if other.rules_hash == base.rules_hash:
            raise UsageError(f"--compare {args.compare}: that is the game being simulated")
        runs.append(make_run(folder, other_variant, other, players, args, options))
        if other_variant is None and base.variant is not None and \
                Path(base.folder).resolve() == Path(other.folder).resolve():
            runs.reverse()  # `simulate VARIANT --compare base`: still read base → variant
    return Plan(runs, args.n, jobs, executor, args.scheduler)


def common_setup(args) -> tuple:
    """What every simulation checks first: counts, executor, the game, its players and options."""
    if args.n < 1:
        raise UsageError(f"-n must be at least 1, not {args.n}")
    if args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per CPU) or more, not {args.jobs}")
    executor = args.executor or ("dask" if args.scheduler else "local")
    if args.scheduler and executor != "dask":
        raise UsageError("--scheduler is for --executor dask")
    jobs = args.jobs or default_jobs()
    if executor == "local":
        jobs = min(jobs, args.n)
    name, variant = split_target(args.game, args.variant)
    options = parse_options(args.option)
    target = worker_target(name)
    base = load_cached(target, variant)  # cached: the serial runner and forked workers reuse it
    players = args.players if args.players is not None else base.min_players
    return name, variant, options, target, base, players, jobs, executor


def make_run(target: str, variant, game, players: int, args, options: dict) -> Run:
    """A run of `game`, with its players, options and agents checked here rather than in a
    worker (where a mistake would surface late and once per chunk)."""
    resolved = Engine(game, players, args.seed, options).opts
    agents = [a.name for a in make_agents(args.agents, players, args.seed)]
    if "human" in agents:
        raise UsageError("the human agent cannot be simulated: use `meeplang play`")
    spec = SimSpec(target, variant, players, args.seed, args.agents, dict(options),
                   game.rules_hash)
    label = game.name + (f":{game.variant}" if game.variant else "")
    return Run(label, game, spec, agents, resolved)


def worker_target(name: str) -> str:
    """Workers may run in another folder (dask): give them absolute paths, names as names."""
    path = Path(name)
    return str(path.resolve()) if path.exists() else name


def compare_target(name: str, base, compare: str) -> tuple[str, str | None]:
    """(target, variant) of what `--compare` names: `base` (or the game's own name) for the game
    without any variant, a variant file's path, or a variant of the base game."""
    folder = str(Path(base.folder).resolve()) if Path(name).suffix in (".yaml", ".yml") \
        else worker_target(name.partition(":")[0])
    if compare in ("base", base.name):
        return folder, None
    if Path(compare).suffix in (".yaml", ".yml"):
        if not Path(compare).is_file():
            raise UsageError(f"--compare {compare}: no such file")
        return worker_target(compare), None
    return folder, compare


def require_matplotlib() -> None:
    """--report draws plots: check for matplotlib before spending minutes on games."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError(f"--report needs matplotlib: {PLOTS_HINT}") from None


# ------------------------------------------------------------ playing
def play_runs(plan: Plan, show_progress: bool) -> None:
    """Play every run with one runner (a pool or cluster is started once), with a progress bar
    on a terminal."""
    runner = open_runner(plan.executor, plan.jobs, plan.scheduler)
    plan.jobs = runner.jobs
    failed = True
    try:
        with stop_on_signals(), progress_bar(show_progress) as bar:
            tasks = [bar.add_task(run.label, total=run.n or plan.n) for run in plan.runs]
            for run, task in zip(plan.runs, tasks):
                start = time.perf_counter()
                done = []
                try:
                    run.records = runner.run(run.spec, run.n or plan.n,
                                             lambda k, task=task: bar.advance(task, k), done)
                except (KeyboardInterrupt, Signalled, BrokenExecutor) as exc:
                    run.records = in_order([done])  # finished games are results
                    run.elapsed = time.perf_counter() - start
                    plan.stopped = stop_for(exc)
                    break
                run.elapsed = time.perf_counter() - start
        failed = plan.stopped is not None
    finally:
        runner.close(failed)


class _NoProgress:
    """Stands in for rich's Progress when output is not a terminal or is JSON."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *args, **kwargs) -> int:
        return 0

    def advance(self, task, k) -> None:
        pass


def progress_bar(show: bool):
    """rich's progress bar, or a silent stand-in."""
    if not show:
        return _NoProgress()
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    # rich draws with escape sequences of its own: it writes to the terminal itself
    return Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    transient=True, console=Console(file=raw_stream(sys.stderr)))


# ------------------------------------------------------------ results
def run_summary(run: Run, plan: Plan) -> dict:
    """One run's statistics plus what was run (and how fast, which varies between runs)."""
    s = stats.summarize(run.records, run.spec.players)
    rate = len(run.records) / run.elapsed if run.elapsed > 0 else None
    return {"game": run.game.name, "variant": run.game.variant, "players": run.spec.players,
            "seats": len(s["win_rates"]), "agents": seat_agents(run, len(s["win_rates"])), "options": run.options, "seed": run.spec.seed,
            "options_changed": changed_options(run),
            "sample_data": [{"file": f, "names": list(names)} for f, names in run.game.sample_data],
            "rules": run.game.rules_hash, **s,
            "elapsed_seconds": run.elapsed,
            "games_per_second": rate,
            "seconds_per_game": 1 / rate if rate else None,
            "run": {"executor": plan.executor, "jobs": plan.jobs, "scheduler": plan.scheduler}}


def changed_options(run: Run) -> dict:
    """The options whose value is not the game's default (what a header needs to say)."""
    return {k: v for k, v in run.options.items()
            if k not in run.game.options or run.game.options[k].default != v}


def seat_agents(run: Run, seats: int) -> list:
    """Who plays each seat: the agents, then the automa for seats the rules play."""
    automa = run.game.automa[0] if run.game.automa else "automa"
    return [run.agents[p] if p < len(run.agents) else automa for p in range(seats)]


def result_object(plan: Plan) -> dict:
    """The --json object: the base run's summary, and under --compare the variant's and the
    paired tests of the differences (variant - base)."""
    summaries = [run_summary(run, plan) for run in plan.runs]
    out = summaries[0]
    if len(summaries) > 1:
        other = summaries[1]
        base_run, other_run = plan.runs
        out["compare"] = {"variant": other["variant"], "alpha": ALPHA,
                          "direction": f"{base_run.label} → {other_run.label}: Δ = variant - base",
                          "units": COMPARE_UNITS,
                          **stats.compare(base_run.records, other_run.records, out, other, ALPHA),
                          "actions": stats.compare_actions(base_run.records, other_run.records),
                          "summary": other}
    return out


def without_timing(obj):
    """A result with the fields that differ between identical runs (time, jobs) removed."""
    if isinstance(obj, dict):
        return {k: without_timing(v) for k, v in obj.items() if k not in TIMING_KEYS}
    if isinstance(obj, list):
        return [without_timing(v) for v in obj]
    return obj


# ------------------------------------------------------------ the terminal
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def p_text(p, star: bool = True) -> str:
    """A p-value as people read it, starred when significant at ALPHA (after correction, when
    the p given is adjusted)."""
    if p is None:
        return "n/a"
    text = "<0.001" if p < 0.001 else f"{p:.3f}"
    return text + (" *" if star and p < ALPHA else "")


def print_result(plan: Plan, out: dict, report: str | None) -> None:
    """The summary table, then the comparison table under --compare."""
    print_table(summary_table(plan.runs[0], out))
    for line in more_lines(out):
        print(line)
    if "compare" in out:
        print_table(summary_table(plan.runs[1], out["compare"]["summary"]))
        for line in more_lines(out["compare"]["summary"]):
            print(line)
        print_table(compare_table(plan.runs, out))
        if out["compare"]["actions"]:
            print_table(compare_actions_table(plan.runs, out))
    elif out["actions"]:
        print_table(actions_table(plan.runs[0], out))
    for line in data_notes(plan.runs, out):
        print(line)
    if report:
        print(f"report written to {report}")


def options_text(s: dict) -> str:
    """The options a run set away from the game's defaults, or nothing."""
    changed = s.get("options_changed") or {}
    return " (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")" if changed else ""


def summary_table(run: Run, s: dict):
    """Per seat: win rate with its 95% interval, score mean and sd; the caption has the rest."""
    table = Table(f"{run.label}: {s['games']} games, {players_text(s['players'], s['players'])}, "
                  f"seed {s['seed']}" + options_text(s),
                  ["seat", "agent", "win rate", "95% interval", "mean score", "sd"],
                  left=frozenset({"agent"}))
    for p in range(s["seats"]):
        lo, hi = s["win_rate_ci"][p]
        table.rows.append([str(p), s["agents"][p], pct(s["win_rates"][p]), f"{pct(lo)} – {pct(hi)}",
                           f"{s['mean_scores'][p]:.2f}", f"{s['score_sd'][p]:.2f}"])
    rate = s["games_per_second"]
    turns = (f"{s['turns_mean']:.1f} turns per game (sd {s['turns_sd']:.1f}) · "
             if s["turns_mean"] else "")
    table.caption = (f"no winner {pct(s['no_winner'])} · {turns}{s['decisions_mean']:.1f} "
                     f"decisions per game (sd {s['decisions_sd']:.1f}) · "
                     + speed_text(rate) +
                     f" ({s['run']['executor']}, {s['run']['jobs']} "
                     f"job{'s' if s['run']['jobs'] > 1 else ''})")
    return table


def more_lines(s: dict) -> list[str]:
    """The first player's record and the spread of game length, a line each."""
    lines = []
    first = s.get("first_player")
    if first:
        lo, hi = first["ci"]
        lines.append(f"first player (the seat that takes the game's first action): wins "
                     f"{pct(first['win_rate'])} [{pct(lo)} – {pct(hi)}] of {first['games']} games, "
                     f"against an equal share of {pct(first['equal_share'])}")
    for key, unit in (("turns_quantiles", "turns"), ("decisions_quantiles", "decisions")):
        q = s.get(key)
        if q and q["max"]:
            lines.append(f"game length in {unit}: min {q['min']}, 10% {q['p10']}, quartiles "
                         f"{q['p25']} / {q['median']} / {q['p75']}, 90% {q['p90']}, max {q['max']}")
            break  # turns where the game has them, else decisions
    return lines


def actions_table(run: Run, s: dict):
    """How often each action is taken: uses per game (all seats), and in how many games."""
    table = Table(f"{run.label}: actions taken, per game (all seats)",
                  ["action", "mean", "sd", "games using it"], left=frozenset({"action"}))
    for name, a in sorted(s["actions"].items(), key=lambda kv: (-kv[1]["mean"], kv[0])):
        table.rows.append([name, f"{a['mean']:.2f}", f"{a['sd']:.2f}", pct(a["games_used"])])
    return table


def compare_actions_table(runs: list, out: dict):
    """Each action's uses per game, base → variant, with the paired difference."""
    table = Table(f"{runs[0].label} → {runs[1].label}: actions taken per game (all seats), "
                  "Δ = variant − base with its 95% interval (paired; described, not tested)",
                  ["action", "uses per game", "Δ", "95% interval"], left=frozenset({"action"}))
    rows = out["compare"]["actions"]
    for name, a in sorted(rows.items(), key=lambda kv: (-abs(kv[1]["diff"]), kv[0])):
        b, o = a["mean"]
        table.rows.append([name, f"{b:.2f} → {o:.2f}", f"{a['diff']:+.2f}",
                           interval_text(a["ci"], digits=2)])
    return table


def speed_text(rate: float) -> str:
    """How fast the games went, always in one unit whatever the agents: milliseconds per game
    (`2.13 ms per game`, `11,200 ms per game` for a search agent), never `0.0 games/s`."""
    if not rate:
        return ""
    ms = 1000.0 / rate
    return f"{ms:,.0f} ms per game" if ms >= 100 else f"{ms:.3g} ms per game"


def interval_text(ci, scale: float = 1.0, digits: int = 1) -> str:
    if ci is None:
        return "n/a"
    lo, hi = ci
    return f"[{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"


def compare_table(runs: list, out: dict):
    """Per seat and for all seats pooled: base → variant win rate and mean score, differences
    with their 95% intervals and Holm-adjusted p-values."""
    cmp = out["compare"]
    tests = cmp["correction"]["tests"]
    table = Table(f"{runs[0].label} → {runs[1].label}: Δ = variant − base, paired on "
                  f"{cmp['paired_games']} shared seeds; win rates in %, their Δ in percentage "
                  f"points (pp); p adjusted for {tests} tests (Holm), * p < {ALPHA}",
                  ["seat", "win rate", "Δ pp", "95% interval", "p (sign)", "mean score", "Δ",
                   "95% interval ", "p (paired t)"])
    for row in cmp["seats"]:
        b, o = row["win_rate"]
        mb, mo = row["mean_score"]
        table.rows.append([str(row["seat"]), f"{pct(b)} → {pct(o)}",
                           f"{100 * row['win_rate_diff']:+.1f}",
                           interval_text(row["win_rate_diff_ci"], 100),
                           p_text(row["win_rate_p_adjusted"]),
                           f"{mb:.2f} → {mo:.2f}", f"{row['mean_score_diff']:+.2f}",
                           interval_text(row["mean_score_diff_ci"], digits=2),
                           p_text(row["score_p_adjusted"])])
    pooled = cmp["all_seats"]
    mb, mo = pooled["mean_score"]
    nb, no = pooled["no_winner"]
    table.rows.append(["all", f"no winner {pct(nb)} → {pct(no)}" if nb or no else "", "", "", "",
                       f"{mb:.2f} → {mo:.2f}", f"{pooled['mean_score_diff']:+.2f}",
                       interval_text(pooled["mean_score_diff_ci"], digits=2),
                       p_text(pooled["score_p_adjusted"])])
    lines = []
    for key in ("turns", "decisions"):
        d = cmp[key]
        if key == "turns" and not any(d["mean"]):
            continue  # no `turns` steps in this game
        lines.append(f"{key} per game {d['mean'][0]:.1f} → {d['mean'][1]:.1f} "
                     f"({d['diff']:+.1f}, 95% {interval_text(d['ci'])}, "
                     f"p {p_text(d['p_adjusted'])})")
    lines.append(detectable_text(cmp))
    table.caption = " · ".join(lines)
    return table


def detectable_text(cmp: dict) -> str:
    """What these games could not have seen: the smallest differences found 80% of the time
    after the correction, and a warning when a seat's win rate could move 10 points unseen."""
    d = cmp["detectable"]
    n = cmp["paired_games"]
    if d["win_rate_diff"] is None:
        return f"too few games ({n}) to test anything"
    win = (f"about ±{100 * d['win_rate_diff']:.1f} pp in a seat's win rate"
           if d["win_rate_diff"] < 1 else "any size in a seat's win rate")
    said = (f"with {n} paired games, differences of {win} or ±{d['mean_score_diff']:.2f} in its "
            f"score (±{d['all_seats_mean_score_diff']:.2f} over all seats) would likely go "
            f"unnoticed ({100 * d['power']:.0f}% power)")
    if not d["enough"]:
        said = (f"TOO FEW GAMES: {said}; about {d['games_needed']:,} games would detect "
                f"{100 * stats.ENOUGH_WIN_RATE:.0f} pp")
    return said


def data_notes(runs: list, out: dict) -> list[str]:
    """Who played (the agents, which shape every number) and which data is sample (invented
    values standing for lost ones: results measured on them are about the sample)."""
    summaries = [out] + ([out["compare"]["summary"]] if "compare" in out else [])
    lines = []
    agents = {", ".join(s["agents"]) for s in summaries}
    lines.append("agents by seat: " + " | ".join(sorted(agents)))
    seen = []
    for run in runs:
        for file, names in run.game.sample_data:
            if (file, names) not in seen:
                seen.append((file, names))
    for file, names in seen:
        lines.append(f"sample data (invented values, not the published game's): "
                     f"{', '.join(names)} ({file})")
    return lines


# ------------------------------------------------------------ --report DIR
def write_report(folder: Path, plan: Plan, out: dict) -> list[Path]:
    """Per-game CSV for each run, plots as PNG and SVG, and summary.json (the --json object)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create report folder {str(folder)!r}: {exc.strerror}") from None
    contents = []  # every file made in memory first, then all written together
    for i, run in enumerate(plan.runs):
        name = "games.csv" if i == 0 else f"games-{run.spec.variant}.csv"
        contents.append((folder / name, csv_text(run)))
    summaries = [out] + ([out["compare"]["summary"]] if "compare" in out else [])
    contents += figure_files(score_figure(plan.runs), folder / "scores")
    contents += figure_files(win_rate_figure(plan.runs, summaries), folder / "win_rates")
    contents += figure_files(length_figure(plan.runs), folder / "lengths")
    contents.append((folder / "summary.json", json.dumps(out, indent=2) + "\n"))
    replays = replay_files(folder / "replays", plan.runs[0])
    pages = [path for path, _ in replays if path.suffix == ".html"]
    csvs = [path.name for path, _ in contents if path.suffix == ".csv"]
    contents.append((folder / "index.html", index_page(plan, out, pages, csvs)))
    # a full disk leaves the previous report whole, never a cut CSV beside an older summary,
    # nor a new page beside the previous run's replays: every file goes together
    made = not (folder / "replays").is_dir()
    (folder / "replays").mkdir(exist_ok=True)
    try:
        write_files(contents + replays)
    except OSError:
        if made:  # nothing new stays, not even an empty folder
            with contextlib.suppress(OSError):
                (folder / "replays").rmdir()
        raise
    return [path for path, _ in contents + replays]


REPLAYS = 3  # games of a run replayed with their logs for the viewer (the first ones)


def replay_files(folder: Path, run: Run) -> list[tuple[Path, str]]:
    """The first games of the run played again with their logs recorded (same seeds and
    agents), each with its `meeplang view` page: (replays/game-I.jsonl, its text) and
    (replays/game-I.html, its page), made in memory."""
    from meeplang.interpreter.log import log_text
    from meeplang.interpreter.simulation import play_game
    from meeplang.visualizer.viewer import view_page

    out = []
    for r in run.records[:REPLAYS]:
        engine = play_game(run.game, run.spec.players, r["seed"], run.spec.agents,
                           run.spec.options)
        log = folder / f"game-{r['index']}.jsonl"
        text = log_text(engine)
        out += [(log, text), (log.with_suffix(".html"),
                              view_page(str(log), need_dot=False, text=text))]
    return out


def index_page(plan: Plan, out: dict, pages: list[Path], csv_names: list[str]) -> str:
    """index.html: the plots, the files, and links to the replayed games' pages."""
    from html import escape as e

    run = plan.runs[0]
    games = "".join(
        f'<li><a href="replays/{e(page.name)}">{e(page.stem)}</a> (seed {r["seed"]}; scores '
        f'{e(", ".join(map(str, r["scores"])))}; winners '
        f'{e(" ".join(map(str, r["winners"])) or "none")}) · '
        f'<a href="replays/{e(page.stem)}.jsonl">log</a></li>'
        for r, page in zip(run.records, pages))
    csvs = "".join(f'<li><a href="{e(name)}">{e(name)}</a></li>' for name in csv_names)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{e(run.label)}: {out["games"]} games</title>
<link rel="icon" href="data:,">
<style>body {{ font-family: Helvetica, Arial, sans-serif; margin: 1.2rem; color: #222; }}
img {{ max-width: 100%; }}</style></head>
<body>
<h1>{e(run.label)}: {out["games"]} games</h1>
<h2>Replays</h2><ul>{games}</ul>
<h2>Plots</h2><p><img src="win_rates.svg" alt="win rates"></p><p><img src="scores.svg" alt="scores"></p><p><img src="lengths.svg" alt="game lengths"></p>
<h2>Files</h2><ul>{csvs}<li><a href="summary.json">summary.json</a></li></ul>
</body>
</html>
"""
    return page


def csv_text(run: Run) -> str:
    """One row per game: index, seed, a score column per seat, winners (space-separated seats,
    empty when nobody won), turns and decisions, the first player (empty in a game without
    actions), then the uses of each action (`uses_NAME`)."""
    players = max([run.spec.players] + [len(r["scores"]) for r in run.records])  # automa seats too
    actions = sorted({a for r in run.records for a in r.get("actions", {})})
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(["index", "seed", *(f"score_{p}" for p in range(players)), "winners",
                "turns", "decisions", "first_player", *(f"uses_{a}" for a in actions)])
    for r in run.records:
        first = r.get("first")
        w.writerow([r["index"], r["seed"], *r["scores"], " ".join(map(str, r["winners"])),
                    r["turns"], r["decisions"], "" if first is None else first,
                    *(r.get("actions", {}).get(a, 0) for a in actions)])
    return f.getvalue()


def _figure(width: float, height: float):
    """A matplotlib figure on the Agg canvas: no display and no pyplot global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def figure_files(fig, stem: Path) -> list[tuple[Path, bytes]]:
    """The same figure as PNG (to look at) and SVG (to put in documents): (path, bytes) each."""
    out = []
    for fmt in ("png", "svg"):
        data = io.BytesIO()
        fig.savefig(data, format=fmt, dpi=120)
        out.append((stem.with_suffix(f".{fmt}"), data.getvalue()))
    return out


def score_figure(runs: list):
    """One histogram of scores per seat, the runs overlaid on shared bins."""
    import numpy as np

    players = runs[0].spec.players
    cols = min(players, 4)
    rows = -(-players // cols)
    fig = _figure(3.2 * cols, 2.6 * rows)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for p, ax in enumerate(axes):
        if p >= players:
            ax.set_visible(False)
            continue
        data = [stats.seat_scores(run.records, players)[p] for run in runs]
        pooled = np.concatenate([np.asarray(d, float) for d in data])
        edges = np.histogram_bin_edges(pooled, bins="auto")
        if len(edges) > 51:  # "auto" can ask for thousands of bins on long-tailed scores
            edges = np.histogram_bin_edges(pooled, bins=50)
        for run, values in zip(runs, data):
            ax.hist(values, bins=edges, alpha=0.55, label=run.label)
        ax.set_title(f"seat {p} ({runs[0].agents[p]})")
        ax.set_xlabel("score")
        ax.set_ylabel("games")
    if len(runs) > 1:
        axes[0].legend(fontsize="small")
    fig.suptitle(f"Score distributions, {len(runs[0].records)} games")
    return fig


def length_figure(runs: list):
    """How long games run: a histogram of turns per game (decisions where the game has no
    turns), the runs overlaid on shared bins."""
    import numpy as np

    key = "turns" if any(r["turns"] for run in runs for r in run.records) else "decisions"
    fig = _figure(5.0, 3.0)
    ax = fig.subplots()
    data = [np.asarray([r[key] for r in run.records], float) for run in runs]
    edges = np.histogram_bin_edges(np.concatenate(data), bins="auto")
    if len(edges) > 51:
        edges = np.histogram_bin_edges(np.concatenate(data), bins=50)
    for run, values in zip(runs, data):
        ax.hist(values, bins=edges, alpha=0.55, label=run.label)
    ax.set_xlabel(f"{key} per game")
    ax.set_ylabel("games")
    if len(runs) > 1:
        ax.legend(fontsize="small")
    fig.suptitle(f"Game length, {len(runs[0].records)} games")
    return fig


def win_rate_figure(runs: list, summaries: list):
    """Win rate by seat with 95% Wilson intervals, runs side by side; plus the no-winner share."""
    players = runs[0].spec.players
    fig = _figure(max(4.0, 1.2 * players + 2), 3.4)
    ax = fig.subplots()
    width = 0.8 / len(runs)
    for k, (run, s) in enumerate(zip(runs, summaries)):
        xs = [p - 0.4 + width * (k + 0.5) for p in range(players)]
        rates = s["win_rates"]
        err = [[r - lo for r, (lo, _) in zip(rates, s["win_rate_ci"])],
               [hi - r for r, (_, hi) in zip(rates, s["win_rate_ci"])]]
        ax.bar(xs, rates, width, yerr=err, capsize=4, label=run.label)
        if s["no_winner"] > 0:
            ax.bar([players - 0.4 + width * (k + 0.5)], [s["no_winner"]], width, color="grey")
    labels = [f"seat {p}\n{runs[0].agents[p]}" for p in range(players)]
    if any(s["no_winner"] > 0 for s in summaries):
        labels.append("no winner")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("win rate (ties shared)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    ax.set_title(f"Win rate by seat, 95% intervals, {len(runs[0].records)} games")
    return fig
