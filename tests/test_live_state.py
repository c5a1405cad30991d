"""The served answer's bookkeeping (widgets/forms/panel_app.py with widgets/forms/live.py): every answer the
server starts is covered by one it shows, every typed value is answered, and answers are numbered
in the order they were computed, so the browser can ignore a message that arrives late.

A real compute pool answers (worker processes); the expected numbers come from the calculator's
Python API in this process. The browser's half of the protocol (largest counter wins, an older
answer never replaces a newer one) is tested in tests/browser/test_live_answers.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import widgets.forms.panel_app as panel_app
from rulesbook.registry import registry
from widgets.forms.panel_app import CalculatorApp
from widgets.server.workers import ComputePool

CALC = registry().calculator("scrollhammer.morale-check")


@pytest.fixture(scope="module")
def pool() -> Iterator[ComputePool]:
    p = ComputePool(workers=1, time_limit=60)
    yield p
    p.shutdown()


def _shown_value(app: CalculatorApp) -> str:
    html = app.live.answer[1]
    return html.split('data-key="p_pass_exact">', 1)[1].split("<", 1)[0]


def _want(app: CalculatorApp) -> str:
    return str(CALC.run(**app.values())["p_pass_exact"])


async def _settled(app: CalculatorApp) -> None:
    for _ in range(1200):  # (a minute at most)
        live = app.live
        answered = live.answer[0] > 0 and live.answered == live.pending and live.done == live.request
        if answered and not app._running:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never settled: {app.live.param.values()}")


def _numbers(app: CalculatorApp) -> list[int]:
    numbers = [app.live.answer[0]]
    app.live.param.watch(lambda event: numbers.append(event.new[0]), "answer")
    return numbers


def _type(app: CalculatorApp, ld: int) -> None:
    """What the browser sends for a typed value: the new value, then one more request."""
    app.widgets["ld"].value = ld
    app.live.request += 1


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lds=st.lists(st.integers(2, 12), min_size=1, max_size=6), pauses=st.lists(st.booleans(), max_size=6))
def test_answers_from_the_pool_cover_every_change_in_order(
    pool: ComputePool, monkeypatch: pytest.MonkeyPatch, lds: list[int], pauses: list[bool]
) -> None:
    monkeypatch.setattr(panel_app, "INLINE_BELOW_S", 0.0)  # every answer goes through the pool

    async def scenario() -> None:
        app = CalculatorApp(CALC, pool=pool)
        await _settled(app)
        numbers = _numbers(app)
        for ld, pause in zip(lds, pauses + [False] * len(lds), strict=False):
            _type(app, ld)
            if pause:  # sometimes the answer arrives before the next keystroke
                await _settled(app)
        await _settled(app)
        assert app.live.done == app.live.request == len(lds)
        assert app.live.answered == app.live.pending >= 1
        assert numbers == sorted(set(numbers))  # numbered in the order shown, none twice
        assert _shown_value(app) == _want(app)
        assert app.result.object == app.live.answer[1]  # the notebook pane keeps the same answer
        app.close()

    asyncio.run(scenario())


def test_a_cheap_answer_is_shown_at_once_and_settles_nothing_pending(
    pool: ComputePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(panel_app, "_answers_inline", lambda _calc_id, _values: True)

    async def scenario() -> None:
        app = CalculatorApp(CALC, pool=pool)
        numbers = _numbers(app)
        for ld in (9, 4, 11):
            _type(app, ld)
            # answered in the callback itself: nothing was started, nothing waits
            assert app.live.pending == app.live.answered == 0
            assert app.live.done == app.live.request
            assert _shown_value(app) == _want(app)
        assert numbers == [1, 2, 3, 4]
        app.live.request += 1  # a commit that changed nothing: acknowledged, no new answer
        assert app.live.done == app.live.request and numbers[-1] == 4
        app.close()

    asyncio.run(scenario())


def test_an_unexpected_error_still_settles_the_page(
    pool: ComputePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(panel_app, "INLINE_BELOW_S", 0.0)

    async def scenario() -> None:
        app = CalculatorApp(CALC, pool=pool)
        await _settled(app)

        async def broken(*_args: Any) -> str:
            raise RuntimeError("a bug")

        monkeypatch.setattr(app, "_compute", broken)
        _type(app, 9)
        await _settled(app)
        assert 'data-key="error"' in app.live.answer[1] and "could not compute" in app.live.answer[1]
        assert app.live.answered == app.live.pending and app.live.done == app.live.request
        app.close()

    asyncio.run(scenario())


def test_rule_choices_wait_closed_and_count_once_opened(pool: ComputePool) -> None:
    """Served, the interpretation inputs are built when their section is first opened; until then
    the form computes with their defaults, and once built they change the answer like any input."""
    choices = [i.key for i in CALC.inputs if i.kind == "interpretation"]
    assert len(choices) >= 2

    async def scenario() -> None:
        app = CalculatorApp(CALC, pool=pool)
        await _settled(app)
        assert app.choices is not None and app.choices.collapsed
        assert not set(choices) & set(app.widgets) and app.choices.objects == []
        assert CALC.validate(app.values()) == CALC.validate(CALC.initial_values())  # as texts or values
        assert app.choices.title == f"Rule choices ({len(choices)})"
        app.widgets["modifier"].value = 1
        await _settled(app)
        assert _shown_value(app) == str(CALC.run(**{**CALC.initial_values(), "modifier": 1})["p_pass_exact"])
        app.choices.collapsed = False  # opened: built with the defaults, nothing recomputed
        assert [w.value for w in app.choices.objects] == [CALC.initial_values()[k] for k in choices]
        assert list(app.widgets) == [i.key for i in CALC.inputs]  # the declared order again
        app.widgets["positive_modifiers"].value = "ignored"
        app.live.request += 1
        await _settled(app)
        want = CALC.run(**{**CALC.initial_values(), "modifier": 1, "positive_modifiers": "ignored"})
        assert (
            _shown_value(app)
            == str(want["p_pass_exact"])
            != str(CALC.run(**{**CALC.initial_values(), "modifier": 1})["p_pass_exact"])
        )
        app.close()
        # a choice set by the caller (or a link) is built at once and shown open
        other = CalculatorApp(CALC, pool=pool, positive_modifiers="ignored")
        assert other.choices is not None and not other.choices.collapsed
        assert other.widgets["positive_modifiers"].value == "ignored"
        other.close()
        # in a notebook every input is in the form from the start
        assert set(CalculatorApp(CALC).widgets) == {i.key for i in CALC.inputs}

    asyncio.run(scenario())


class _NeverAnswers:
    """A compute pool that takes every job and never answers."""

    def submit(self, func: Any, *args: Any) -> Any:
        from concurrent.futures import Future

        from widgets.server.workers import Job

        job = Job((func, args))
        job.future = Future()
        return job


def test_a_cancelled_answer_loop_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the server stops, its tasks are cancelled: a form waiting for an answer ends its loop
    instead of taking the cancellation for a dropped answer and submitting it again forever."""
    monkeypatch.setattr(panel_app, "INLINE_BELOW_S", 0.0)

    async def scenario() -> None:
        app = CalculatorApp(CALC, pool=_NeverAnswers())  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        assert app._running
        tasks = asyncio.all_tasks() - {asyncio.current_task()}
        assert tasks
        for task in tasks:
            task.cancel()
        _done, pending = await asyncio.wait(tasks, timeout=5)
        app.close()  # (ends a loop that kept going, so a regression fails here instead of hanging)
        assert not pending and not app._running

    asyncio.run(asyncio.wait_for(scenario(), 30))
