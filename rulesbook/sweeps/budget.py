"""A sweep's budget: points, and the work estimated before any of it is done.

Counting points is not enough: a 200,000-point grid of one-roll Battle-shock tests takes seconds,
the same grid of heavy 40k attacks would take days. So before a sweep starts, :func:`estimate`
predicts its work:

* where the calculator declares a **cost model** (``Calculator.cost``: the wh40k attack
  calculators, from the engine's own prediction, see ``rulesbook/systems/wh40k/attack/cost.py``), the
  model prices a seeded sample of the grid's points — the grid's corners (where the heaviest and
  lightest points are) and random points — without computing any of them;
* otherwise a few of those points are **timed** (their rows are kept, not computed again).

The estimate (mean seconds a point × points ÷ workers) is checked against :class:`Budget`; over
it, the sweep is refused with the estimate and the widest axes to narrow.

Example:
    >>> from rulesbook.sweeps.plan import plan_sweep
    >>> plan = plan_sweep("wh40k.attack", {"attacks": "1..200", "toughness": "1..12", "models": "1..40",
    ...     "skill": "3", "strength": "5", "save": "3", "wounds": "10", "damage": "2D6",
    ...     "abilities": "sustained-hits-d6"})
    >>> found = estimate(plan, workers=2)  # priced by the cost model in a few ms, nothing computed
    >>> found.text()
    '96,000 points, about 78 min on 2 workers (cost model: 0.097 s a point)'
    >>> check_budget(plan, Budget(max_seconds=600), found)
    Traceback (most recent call last):
    ...
    rulesbook.sweeps.budget.SweepTooLarge: sweep: 96,000 points would take about 78 min (cost model: 0.097 s a point on 2 workers), over the budget of 10 min; narrow the grid (attacks has 200 values (1..200); models has 40 values (1..40); toughness has 12 values (1..12)) or fix an input, or raise the budget
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.sweeps.plan import SweepPlan, evaluate, point_inputs

__all__ = ["Budget", "Estimate", "SweepTooLarge", "check_budget", "duration", "estimate", "narrow"]

SAMPLE = 64
"""Points a cost model prices (the corners first, then seeded random points)."""
TIMED = 6
"""Points timed when the calculator has no cost model."""
OVERHEAD = 2e-4
"""Seconds of bookkeeping a point costs beyond its computation (validating, a table row)."""


class SweepTooLarge(InputError):
    """The grid exceeds the budget; the message gives the estimate and how to narrow it."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits checked before a sweep starts: points, and estimated seconds of work."""

    max_points: int = 200_000
    max_seconds: float = 1800.0


@dataclass(frozen=True)
class Estimate:
    """What a sweep will cost: ``seconds`` of wall-clock time on ``workers`` workers, from
    ``method`` (``cost model`` or ``timed``), and the rows computed while timing (kept)."""

    points: int
    seconds: float
    per_point: float
    workers: int
    method: str
    rows: dict[int, dict[str, Any]] = field(default_factory=dict)

    def text(self) -> str:
        """``96,000 points, about 3.2 h of work on 2 workers (cost model: 240 ms a point)``."""
        workers = f" on {self.workers} workers" if self.workers > 1 else ""
        return (
            f"{self.points:,} points, about {duration(self.seconds)}{workers} "
            f"({self.method}: {duration(self.per_point)} a point)"
        )


def sample_indices(plan: SweepPlan, count: int, seed: int = 0) -> list[int]:
    """Up to ``count`` point indices: every corner of the grid (each axis at its first or last
    value, the first variant and the last; a listed plan's first and last points) first, then
    seeded random points."""
    total = plan.size
    if total <= count:
        return list(range(total))
    corners = [0, plan.per_variant - 1, total - 1] if plan.listed else _corners(plan, count)
    picked = list(dict.fromkeys(corners))[: count // 2]
    rng = random.Random(seed)
    while len(picked) < count:
        i = rng.randrange(total)
        if i not in picked:
            picked.append(i)
    return picked


def _corners(plan: SweepPlan, count: int) -> list[int]:
    strides = []
    step = 1
    for axis in reversed(plan.axes):
        strides.append((step, len(axis.values)))
        step *= len(axis.values)
    corners: list[int] = []
    for v in dict.fromkeys((0, len(plan.variants) - 1)):
        combos = [v * plan.per_variant]
        for stride, size in strides:
            if size > 1:
                combos = [c + edge * stride for c in combos for edge in (0, size - 1)]
            if len(combos) >= count // 2:
                break
        corners += combos
    return corners


def estimate(plan: SweepPlan, *, workers: int = 1, timed: bool = True) -> Estimate:
    """Predict the seconds ``plan`` takes on ``workers`` workers (see the module help);
    ``timed=False`` skips the timing of calculators without a cost model (then only the
    bookkeeping is counted)."""
    calc = registry().calculator(plan.calc_id)
    workers = max(1, workers)
    cost = getattr(calc, "cost", None)
    if cost is not None:
        seconds: list[float] = []
        for i in sample_indices(plan, SAMPLE):
            _, variant, values = plan.point(i)
            try:
                checked, choices = point_inputs(calc, variant, values)
            except InputError:
                seconds.append(OVERHEAD)  # refused at once
                continue
            predicted = cost(checked, choices if choices is not None else calc.choices)
            if predicted is None:  # inputs the model does not cover: time points instead
                break
            seconds.append(OVERHEAD + predicted)
        else:
            per_point = sum(seconds) / len(seconds)
            return Estimate(plan.size, per_point * plan.size / workers, per_point, workers, "cost model")
    rows: dict[int, dict[str, Any]] = {}
    if not timed:
        return Estimate(plan.size, OVERHEAD * plan.size / workers, OVERHEAD, workers, "bookkeeping")
    spent = []
    lacking = plan.lacking()
    for i in sample_indices(plan, TIMED):
        started = time.perf_counter()
        rows.update(evaluate(plan.calc_id, [plan.point(i)], lacking))
        spent.append(time.perf_counter() - started)
    per_point = max(sum(spent) / len(spent), OVERHEAD)
    return Estimate(plan.size, per_point * plan.size / workers, per_point, workers, "timed", rows)


def check_budget(plan: SweepPlan, budget: Budget, found: Estimate | None = None) -> None:
    """Refuse a plan over ``budget`` (points first, then the estimate's seconds)."""
    if plan.size > budget.max_points:
        raise SweepTooLarge(
            "sweep", f"{plan.size:,} points exceed the budget of {budget.max_points:,}; {narrow(plan)}"
        )
    if found is not None and found.seconds > budget.max_seconds:
        raise SweepTooLarge(
            "sweep",
            f"{plan.size:,} points would take about {duration(found.seconds)} "
            f"({found.method}: {duration(found.per_point)} a point"
            f"{f' on {found.workers} workers' if found.workers > 1 else ''}), over the budget of "
            f"{duration(budget.max_seconds)}; {narrow(plan)}",
        )


def duration(seconds: float) -> str:
    """Seconds in words: ``0.24 s``, ``12 s``, ``4 min``, ``3.2 h``, ``2.5 days``.

    >>> duration(0.00024), duration(12.2), duration(240), duration(11520), duration(216000)
    ('0.24 ms', '12 s', '4 min', '3.2 h', '2.5 days')
    """
    if 0 < seconds < 0.01:
        return f"{seconds * 1000:.2g} ms"
    if seconds < 90:
        return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:.2g} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def narrow(plan: SweepPlan) -> str:
    """How to narrow a plan: its widest axes, with their sizes."""
    widest: Sequence[Any] = sorted(plan.axes, key=lambda a: -len(a.values))[:3]
    parts = [f"{a.key} has {len(a.values)} values ({a.values[0]}..{a.values[-1]})" for a in widest]
    if len(plan.variants) > 1:
        parts.append(f"{len(plan.variants)} variants")
    return "narrow the grid (" + "; ".join(parts) + ") or fix an input, or raise the budget"
