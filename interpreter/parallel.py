"""Running many games in chunks: in this process, in a process pool, or on a dask cluster.

Every game's seed comes from the master seed and its index (`simulation.game_seed`), and a chunk
is just a list of indexes, so how games are split and where they run never changes the results:
they are put back in index order. A runner is opened once (a pool or a cluster costs seconds to
start) and may run several simulations, e.g. the base game and a variant under `--compare`.

A run that stops part-way (Ctrl-C, a signal, a worker that died) keeps what it finished: every
`run` appends the records of finished games to the list `done` it is given (the serial runner game
by game, the pools chunk by chunk), and a runner closed after a failure stops its workers at once
rather than waiting for their chunks: no process is left behind.
"""
from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed

from meeplang.dsl.errors import UsageError

from .simulation import SimSpec, play_chunk

CHUNKS_PER_JOB = 8  # enough chunks that a slow one does not leave the other workers idle
MAX_CHUNK = 100  # and small enough that progress moves and a failure surfaces soon
DASK_HINT = "pip install meeplang[dask]"


def chunk_size(n: int, jobs: int) -> int:
    """Games per chunk: a few chunks per worker for balance, but never huge ones."""
    return max(1, min(MAX_CHUNK, math.ceil(n / (jobs * CHUNKS_PER_JOB))))


def chunks(n: int, jobs: int) -> list[range]:
    """The index ranges 0..n-1 split for `jobs` workers."""
    size = chunk_size(n, jobs)
    return [range(lo, min(n, lo + size)) for lo in range(0, n, size)]


def in_order(parts) -> list[dict]:
    """Chunks come back in any order; the records go out sorted by game index."""
    records = [r for part in parts for r in part]
    records.sort(key=lambda r: r["index"])
    return records


def _noop(_done: int) -> None:
    """The default progress callback."""


class SerialRunner:
    """Games in this process: no start-up cost, and tracebacks stay simple (--jobs 1)."""

    name = "local"
    jobs = 1

    def run(self, spec: SimSpec, n: int, progress=_noop, done: list | None = None) -> list[dict]:
        """Play n games chunk by chunk, reporting the games done after each chunk."""
        done = [] if done is None else done
        for part in chunks(n, 4):  # split as for 4 jobs: about 32 progress steps
            play_chunk(spec, list(part), done)
            progress(len(part))
        return in_order([done])

    def close(self, failed: bool = False) -> None:
        """Nothing to release."""


@contextlib.contextmanager
def sigint_ignored():
    """Start worker processes with Ctrl-C ignored: they inherit that, leave the interrupt to this
    process (which shuts them down) and print no KeyboardInterrupt tracebacks of their own."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _worker_start(parent: int) -> None:
    """Pool workers leave Ctrl-C to the main process, which cancels the run cleanly; a SIGTERM or
    SIGHUP ends them (not the handler the main process has for those); and on Linux they end
    when the main process does, however it ends (killed, too)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl here
            pass
    if os.getppid() != parent:  # the main process ended before the line above ran
        os._exit(1)


class PoolRunner:
    """A concurrent.futures process pool; each worker loads a game once and keeps it."""

    name = "local"

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                                        initargs=(os.getpid(),))
        # Start the workers now, before a progress bar's thread runs: forking while another
        # thread holds a lock (stdout's) can leave a worker stuck on it.
        self.pool.submit(int).result()

    def run(self, spec: SimSpec, n: int, progress=_noop, done: list | None = None) -> list[dict]:
        """Submit every chunk, collect them as they finish, and return the records in order."""
        done = [] if done is None else done
        futures = [self.pool.submit(play_chunk, spec, list(part)) for part in chunks(n, self.jobs)]
        for future in as_completed(futures):
            part = future.result()
            done.extend(part)
            progress(len(part))
        return in_order([done])

    def close(self, failed: bool = False) -> None:
        """Shut the pool down; after a failure (an interrupt too), stop the workers at once
        rather than wait for the chunks they are playing."""
        if not failed:
            self.pool.shutdown(wait=True)
            return
        workers = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(5)
            if process.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
                process.kill()
                process.join()
        self.pool.shutdown(wait=True)


class DaskRunner:
    """dask.distributed: a LocalCluster of single-threaded processes, or a running scheduler."""

    name = "dask"

    def __init__(self, jobs: int, scheduler: str | None = None):
        distributed = import_distributed()
        self.jobs, self.scheduler, self.cluster = jobs, scheduler, None
        if scheduler is None:
            import logging

            with sigint_ignored():
                self.cluster = distributed.LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL)
            self.client = distributed.Client(self.cluster)
        else:
            try:
                self.client = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"cannot reach the dask scheduler at {scheduler!r}: {exc}") \
                    from None
            self.jobs = max(1, sum(self.client.nthreads().values()))

    def run(self, spec: SimSpec, n: int, progress=_noop, done: list | None = None) -> list[dict]:
        """Submit every chunk to the cluster and gather them as they finish."""
        from distributed import as_completed as dask_completed

        done = [] if done is None else done
        futures = [self.client.submit(play_chunk, spec, list(part), pure=False)
                   for part in chunks(n, self.jobs)]
        try:
            for future in dask_completed(futures):
                part = future.result()
                done.extend(part)
                progress(len(part))
        finally:
            self.client.cancel(futures)
        return in_order([done])

    def close(self, failed: bool = False) -> None:
        """Disconnect, and stop the cluster if this runner started it."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def import_distributed():
    """dask.distributed is an optional extra: say how to get it instead of failing obscurely."""
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--executor dask needs dask.distributed: {DASK_HINT}") from None
    return distributed


def open_runner(executor: str = "local", jobs: int = 1, scheduler: str | None = None):
    """The runner for the command line's --executor, --jobs and --scheduler."""
    if executor == "dask":
        return DaskRunner(jobs, scheduler)
    if executor != "local":
        raise UsageError(f"unknown executor {executor!r} (local or dask)")
    if scheduler is not None:
        raise UsageError("--scheduler is for --executor dask")
    return SerialRunner() if jobs == 1 else PoolRunner(jobs)


def default_jobs() -> int:
    """--jobs 0: one worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
