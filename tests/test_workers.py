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
    p = ComputePool(workers=2, time_limit=1.5)
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


def test_the_time_limit_stops_a_job_and_the_pool_keeps_answering(pool: ComputePool) -> None:
    before = set(pool.pids())
    start = time.monotonic()
    job = pool.submit(time.sleep, 30)
    with pytest.raises(TimeLimitError, match=r"more than 1\.5 s, longer than a live calculator may take"):
        job.result(60)
    assert time.monotonic() - start < 15  # stopped near the limit, not after the 30 s it wanted
    assert 1.4 < job.seconds < 10
    after = set(pool.pids())
    assert len(after) == 2 and after != before  # the stuck worker was replaced by a fresh one
    assert (
        pool.submit(answer, "scrollhammer.morale-check", {"ld": 7}).result(60).results[0][1]["p_pass_exact"]
        == "7/12"
    )


def test_a_cancelled_job_frees_its_worker(pool: ComputePool) -> None:
    jobs = [pool.submit(time.sleep, 20) for _ in range(3)]  # two run, one waits in the queue
    time.sleep(1.0)
    for job in jobs:
        job.cancel()
    assert all(job.cancelled for job in jobs)
    start = time.monotonic()
    assert pool.submit(abs, -3).result(30) == 3  # both workers free again, long before 20 s
    assert time.monotonic() - start < 10
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
