"""The server's compute pool: answers are worked out in worker processes, never on the event loop.

``rulesbook serve`` runs every Panel session on one event loop. The exact engines are CPU-bound
Python (a 40k attack near the budget takes seconds), so a computation on that loop would freeze
every other player's page; threads would not help (the GIL). :class:`ComputePool` keeps a few
worker processes (by default one more than the machine has cores) and gives each job to an idle
one:

* a job that runs longer than :attr:`ComputePool.time_limit` has its worker killed (and a fresh
  one started) and fails with :class:`TimeLimitError`, a one-line message in the words of the
  cost budget (:data:`TIME_LIMIT_MESSAGE`);
* a job can be cancelled (a newer input made it useless): a queued job is dropped, a running one
  has its worker replaced, so a slow answer nobody waits for does not hold a worker;
* workers run at a lower CPU priority (:data:`WORKER_NICENESS`) than the event loop;
* workers are forked from a forkserver that has already imported and loaded the registry, so a
  replacement is ready in a few milliseconds and every worker shares the loaded rules.

The job the live calculators send is :func:`widgets.forms.compare.answer`: values (the results, or the
one-line error), which the server renders. Jobs and their results must pickle.

Example:
    >>> from widgets.forms.compare import answer
    >>> pool = ComputePool(workers=1, time_limit=30)
    >>> found = pool.submit(answer, "scrollhammer.morale-check", {"ld": 7}).result(timeout=60)
    >>> found.results[0][1]["p_pass_exact"]
    '7/12'
    >>> pool.shutdown()
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

__all__ = [
    "TIME_LIMIT_MESSAGE",
    "ComputePool",
    "Job",
    "JobCancelled",
    "JobError",
    "TimeLimitError",
    "default_workers",
    "log_to_stderr",
]

TIME_LIMIT_MESSAGE = (
    "this answer needs more than {seconds:g} s, longer than a live calculator may take; "
    "make the input smaller (fewer attacks, models or weapons) or use `rulesbook calc` on the command line"
)
"""What a player reads when a computation escapes the cost budget and hits the time limit."""


WORKER_NICENESS = 5
"""Workers run at a lower CPU priority than the server's event loop: while a long answer computes,
the pages and the quick answers of everyone else still get the processor first."""


class TimeLimitError(RuntimeError):
    """A job ran longer than the pool's time limit; its worker was replaced."""


class JobCancelled(RuntimeError):
    """A job was cancelled before it finished (a newer input made it useless)."""


class JobError(RuntimeError):
    """The job raised; the message holds the exception and its traceback (for the server's log)."""


class _WorkerDied(RuntimeError):
    """The worker process ended while it ran a job."""


def default_workers(processes: int = 1) -> int:
    """One worker more than the machine has cores (at least three): a slow answer keeps one
    worker busy while the others go on answering the cheap inputs of everyone else. For each of
    several server ``processes``: the cores shared out among them, plus one (at least two)."""
    if processes > 1:
        return max(1, (os.cpu_count() or 1) // processes) + 1
    return max(2, os.cpu_count() or 1) + 1


def log_to_stderr() -> None:
    """Write rulesbook's log (logger ``rulesbook``: a variant file left out, an answer that failed)
    to standard error, a line as it comes: the server's log.

    rulesbook's modules log without setting up any output (a library's manners); the server sets
    it up. Workers leave it unset: what they find is the server's to say (a variant file left out
    is logged by the server, at start and when a page next lists the variants), and said once.
    """
    logger = logging.getLogger("rulesbook")
    if not any(isinstance(h, logging.StreamHandler) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)


def _serve(conn: Connection) -> None:
    """A worker's loop: receive ``(function, args)``, send back ``("ok", value, seconds)`` or
    ``("error", text, seconds)`` (``seconds``: the time the function took here)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)  # the event loop (every page, every cheap answer) comes first
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):
            return
        start = time.perf_counter()
        try:
            reply: tuple[str, Any, float] = ("ok", func(*args), 0.0)
        except Exception as exc:  # reported to the server's log, one line to the job's owner
            reply = ("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}", 0.0)
        reply = (reply[0], reply[1], time.perf_counter() - start)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        except Exception as exc:  # the value did not pickle
            conn.send(("error", f"{type(exc).__name__}: {exc}", 0.0))


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True, name="rulesbook-worker")
        self.proc.start()
        child.close()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()

    def call(self, job: Job, limit: float) -> Any:
        """Run ``job`` here; raises TimeLimitError or JobCancelled (then this process must go)."""
        cancelled = job._cancelled
        self.conn.send(job.task)
        deadline = time.monotonic() + limit
        while not self.conn.poll(0.02):
            if cancelled.is_set():
                raise JobCancelled("cancelled")
            if time.monotonic() > deadline:
                raise TimeLimitError(TIME_LIMIT_MESSAGE.format(seconds=limit))
            if not self.proc.is_alive():
                raise _WorkerDied(f"the worker process died (exit code {self.proc.exitcode})")
        status, value, job.seconds = self.conn.recv()
        if status == "error":
            raise JobError(value)
        return value


class Job:
    """A submitted computation: :attr:`future` resolves to its value; :meth:`cancel` drops it;
    :attr:`seconds` is how long it computed in its worker (0 until it ran)."""

    def __init__(self, task: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        self.task = task
        self.future: Future[Any] = Future()
        self.seconds = 0.0
        self._cancelled = threading.Event()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Drop the job: a queued one never runs, a running one has its worker replaced."""
        self._cancelled.set()
        self.future.cancel()

    def result(self, timeout: float | None = None) -> Any:
        """Wait for the value (raises what the job raised)."""
        return self.future.result(timeout)


class ComputePool:
    """Worker processes that compute jobs off the server's event loop, with a per-job time limit.

    Each of ``workers`` threads hands one job at a time to an idle worker process and waits on
    its pipe (without holding the GIL); jobs queue in submission order. A ``lazy`` pool starts its
    workers at its first job, in the process that submits it (``rulesbook serve --processes``
    makes the pool before it forks the server processes, and each process needs its own).
    """

    def __init__(self, workers: int | None = None, time_limit: float = 10.0, *, lazy: bool = False) -> None:
        self.workers = workers or default_workers()
        self.time_limit = time_limit
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["widgets.server.preload"])
        self._lock = threading.Lock()
        self._owner = 0  # the process whose workers these are (0: none started yet)
        if not lazy:
            self._start()

    def _start(self) -> None:
        """Start the threads and worker processes, in this process: a lazy pool made before the
        server forks its processes starts in each of them at its first job, never in the parent."""
        with self._lock:
            if self._owner == os.getpid():
                return
            self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
            self._all: list[_Worker] = []
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="rulesbook-compute")
            self._owner = os.getpid()
        for _ in range(self.workers):
            self._idle.put(self._spawn())

    def _spawn(self) -> _Worker:
        worker = _Worker(self._ctx)
        with self._lock:
            self._all.append(worker)
        return worker

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        with self._lock:
            self._all.remove(worker)
        return self._spawn()

    def _run(self, job: Job) -> Any:
        if job.cancelled:
            raise JobCancelled("cancelled")
        worker = self._idle.get()
        start = time.monotonic()
        try:
            return worker.call(job, self.time_limit)
        except (TimeLimitError, JobCancelled, _WorkerDied, OSError, EOFError):
            job.seconds = time.monotonic() - start
            worker = self._replace(worker)  # it is still computing, or gone
            raise
        finally:
            self._idle.put(worker)

    def submit(self, func: Callable[..., Any], *args: Any) -> Job:
        """Queue ``func(*args)`` (both must pickle); returns its :class:`Job`."""
        if self._owner != os.getpid():
            self._start()
        job = Job((func, args))
        job.future = self._threads.submit(self._run, job)
        return job

    def pids(self) -> list[int]:
        """The worker processes' ids (the load benchmark adds up their memory)."""
        with self._lock:
            if self._owner != os.getpid():
                return []
            return [w.proc.pid for w in self._all if w.proc.pid is not None]

    def shutdown(self) -> None:
        """Stop the threads and the worker processes (those of this process)."""
        if self._owner != os.getpid():
            return
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            workers = list(self._all)
        for worker in workers:
            worker.kill()
