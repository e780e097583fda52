"""A simulation stopped part-way keeps the games it finished and leaves no process behind.

Each test runs the real command in a session of its own, its stderr on a pseudo-terminal so the
progress bar says when games are finished; then sends the signal, and checks the exit status, the
partial summary (of more than 0 games, fewer than planned) and that no process of the session
is left. Every wait is bounded."""
from __future__ import annotations

import json
import os
import pty
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and ptys")]

PROGRESS = re.compile(rb"\b([1-9]\d*)/(\d+)\b")


def command(*args):
    exe = shutil.which("meeplang")
    return [exe, *args] if exe else [sys.executable, "-m", "meeplang.cli", *args]


def session(pid: int) -> list[tuple[int, int]]:
    """(pid, parent pid) of every process in the session `pid` leads."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == pid and fields[0] != "Z":  # session id; zombies are gone
                out.append((int(entry), int(fields[1])))
    return out


class Run:
    """The command with stdout on a pipe and stderr on a pseudo-terminal, read by a thread."""

    def __init__(self, *args):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=slave,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        os.close(slave)
        self.master, self.err = master, b""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the terminal's other end is closed
                return
            if not chunk:
                return
            self.err += chunk

    def wait_for_games(self, timeout=120) -> None:
        deadline = time.monotonic() + timeout
        while not PROGRESS.search(self.err):
            assert self.proc.poll() is None, self.err.decode(errors="replace")
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.05)

    def finish(self, timeout=60):
        out, _ = self.proc.communicate(timeout=timeout)
        self.reader.join(10)
        os.close(self.master)
        deadline = time.monotonic() + 10
        while session(self.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.proc.returncode, out.decode(), self.err.decode(errors="replace")

    def kill_all(self):
        for pid, _ in session(self.proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.fixture
def run():
    runs = []

    def start(*args):
        runs.append(Run(*args))
        return runs[-1]

    yield start
    for r in runs:  # whatever happened, nothing of ours is left running
        r.kill_all()
        r.proc.wait(10)


GAMES = 64


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143),
                                        (signal.SIGHUP, 129)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_signal_keeps_the_finished_games_and_leaves_no_process(run, sig, status, jobs):
    r = run("simulate", "pig", "-n", str(GAMES), "--agents", "greedy", "--jobs", jobs, "--json")
    r.wait_for_games()
    workers = [pid for pid, parent in session(r.proc.pid) if parent == r.proc.pid]
    assert len(workers) == (2 if jobs == "2" else 0)
    os.kill(r.proc.pid, sig)
    code, out, err = r.finish()
    assert code == status, err
    data = json.loads(out)
    assert 0 < data["games"] < GAMES
    assert data["partial"]["games"] == data["games"] and data["partial"]["planned"] == GAMES
    assert f"{data['games']} of {GAMES} games finished; the summary is of those games" in err
    assert session(r.proc.pid) == []
    assert "Traceback" not in err


def test_a_killed_worker_is_an_error_and_keeps_the_finished_games(run):
    r = run("simulate", "pig", "-n", str(GAMES), "--agents", "greedy", "--jobs", "2", "--json")
    r.wait_for_games()
    worker = next(pid for pid, parent in session(r.proc.pid) if parent == r.proc.pid)
    os.kill(worker, signal.SIGKILL)
    code, out, err = r.finish()
    assert code == 1, err
    data = json.loads(out)
    assert 0 < data["games"] < GAMES and data["partial"]["reason"].startswith("a worker process died")
    assert "meeplang: a worker process died" in err and "internal error" not in err
    assert session(r.proc.pid) == []


def test_workers_end_with_a_killed_main_process(run):
    r = run("simulate", "pig", "-n", str(GAMES), "--agents", "greedy", "--jobs", "2")
    r.wait_for_games()
    workers = [pid for pid, parent in session(r.proc.pid) if parent == r.proc.pid]
    assert len(workers) == 2
    os.kill(r.proc.pid, signal.SIGKILL)
    r.finish()
    assert session(r.proc.pid) == []


def test_a_text_summary_says_it_is_partial(run):
    r = run("simulate", "pig", "-n", str(GAMES), "--agents", "greedy", "--jobs", "2")
    r.wait_for_games()
    os.kill(r.proc.pid, signal.SIGINT)
    code, out, err = r.finish()
    assert code == 130
    games = int(re.search(r"pig: (\d+) games", out).group(1))
    assert 0 < games < GAMES
    assert f"meeplang: interrupted: {games} of {GAMES} games finished" in err


REPORT = ["games.csv", "scores.png", "scores.svg", "win_rates.png", "win_rates.svg",
          "lengths.png", "lengths.svg", "summary.json", "index.html"]


@pytest.mark.parametrize("seed", range(8))
def test_a_signal_at_a_random_point_keeps_what_was_there_and_what_finished(run, tmp_path, seed):
    """INT, TERM, HUP or a killed worker, at a random moment of `simulate --jobs 2 --report`
    (starting, playing, summing up, writing the report): the previous report is whole or
    replaced whole by one of the games finished, the summary printed is of those games, and no
    process is left."""
    pytest.importorskip("matplotlib")
    rng = random.Random(seed)
    out = tmp_path / "out"
    out.mkdir()
    for name in REPORT:
        (out / name).write_text(f"previous run's {name}")
    r = run("simulate", "pig", "-n", str(GAMES), "--agents", "greedy", "--jobs", "2", "--json",
            "--report", str(out))
    time.sleep(rng.uniform(0, 6))
    how = rng.choice(["INT", "TERM", "HUP", "worker"])
    if how == "worker":
        workers = [pid for pid, parent in session(r.proc.pid) if parent == r.proc.pid]
        if workers:
            os.kill(rng.choice(workers), signal.SIGKILL)
    elif r.proc.poll() is None:
        os.kill(r.proc.pid, getattr(signal, f"SIG{how}"))
    code, text, err = r.finish()
    assert "Traceback" not in err and "internal error" not in err, err
    assert session(r.proc.pid) == []
    assert not [p for p in out.rglob(".meeplang-*")]
    files = {name: (out / name).read_text(errors="replace") for name in REPORT}
    if code == 0:  # finished before the signal
        assert json.loads(text)["games"] == GAMES and "partial" not in text
    else:
        # 128 + the signal when caught; killed by it (-N, which a shell shows as 128 + N) when it
        # came before Python had started the command (a slow start: nothing begun, nothing kept)
        assert code in (1, 129, 130, 143, -signal.SIGTERM, -signal.SIGHUP), err
    if files == {name: f"previous run's {name}" for name in REPORT}:
        return  # stopped before a game finished, or before the report was written
    summary = json.loads(files["summary.json"])
    assert all(not v.startswith("previous run's") for v in files.values())
    assert summary == json.loads(text)
    assert len(files["games.csv"].splitlines()) == summary["games"] + 1
    if code != 0:
        assert 0 < summary["partial"]["games"] == summary["games"] <= GAMES
