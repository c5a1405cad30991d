"""The server's compute pool (widgets/server/workers.py): answers off the event loop, a time limit that
holds, cancellation that frees the worker, and errors that come back as one line."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import CancelledError

import pytest

from rulesbook.registry import registry
from widgets.forms.compare import answer, answer_html, form_result_html
from widgets.server.workers import ComputePool, JobCancelled, JobError, TimeLimitError


@pytest.fixture(scope="module")
def pool() -> Iterator[ComputePool]:
    """A pool whose time limit no answer here reaches, however busy the machine (the limit is wall
    time: a CPU-starved worker takes many times longer than on a quiet machine)."""
    p = ComputePool(workers=2, time_limit=600)
    yield p
    p.shutdown()


@pytest.fixture(scope="module")
def short_pool() -> Iterator[ComputePool]:
    """A pool with a short limit, given only jobs that sleep (or take no time at all): what
    reaches its limit does so by waiting, not by needing a CPU, so a busy machine changes nothing."""
    p = ComputePool(workers=2, time_limit=2)
    yield p
    p.shutdown()


def test_an_answer_from_the_pool_is_the_form_s_answer(pool: ComputePool) -> None:
    calc = registry().calculator("scrollhammer.break-test")
    values = {"ld": 8, "lost_by": 2}
    for variant in ("none", "break-2-ld-per-point"):
        found = pool.submit(answer, calc.id, values, variant).result(60)  # values, pickled back
        assert found == answer(calc.id, values, variant)
        assert answer_html(found) == form_result_html(calc, values, variant)
    assert [name for name, _ in found.results] == ["baseline", "break-2-ld-per-point"]
    bad = pool.submit(answer, calc.id, {"ld": 99}, "none").result(60)
    assert bad.results == () and bad.error.startswith("ld:")
    assert 'data-key="error"' in answer_html(bad)


def test_the_time_limit_stops_a_job_and_the_pool_keeps_answering(short_pool: ComputePool) -> None:
    before = set(short_pool.pids())
    job = short_pool.submit(time.sleep, 3600)
    # it ends with the limit's error, long before the hour it asked for (a TimeoutError otherwise)
    with pytest.raises(TimeLimitError, match=r"more than 2 s, longer than a live calculator may take"):
        job.result(600)
    assert job.seconds >= 2  # it was given its whole limit
    after = set(short_pool.pids())
    assert len(after) == 2 and after != before  # the stuck worker was replaced by a fresh one
    assert short_pool.submit(abs, -3).result(600) == 3


def test_a_cancelled_job_frees_its_worker(pool: ComputePool) -> None:
    jobs = [pool.submit(time.sleep, 3600) for _ in range(3)]  # two run, one waits in the queue
    time.sleep(1.0)
    for job in jobs:
        job.cancel()
    assert all(job.cancelled for job in jobs)
    # both workers free again: without the cancel this would wait for the pool's 600 s limit
    assert pool.submit(abs, -3).result(300) == 3
    for job in jobs:
        with pytest.raises((JobCancelled, CancelledError)):  # running: JobCancelled; queued: never ran
            job.result(10)


def test_an_exception_in_a_job_comes_back_as_job_error(pool: ComputePool) -> None:
    with pytest.raises(JobError, match=r"ValueError: invalid literal"):
        pool.submit(int, "x").result(30)
    assert pool.submit(int, "12").result(30) == 12


def test_a_lazy_pool_starts_its_workers_at_its_first_job() -> None:
    lazy = ComputePool(workers=1, time_limit=30, lazy=True)
    try:
        assert lazy.pids() == []  # made before the server forks: no worker yet
        found = lazy.submit(answer, "scrollhammer.morale-check", {"ld": 7}).result(60)
        assert 'data-key="p_pass_exact"' in answer_html(found) and len(lazy.pids()) == 1
    finally:
        lazy.shutdown()
