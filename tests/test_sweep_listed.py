"""A sweep over listed points (``plan_points``), the machinery ``rulesbook matchup`` runs on: the
rows are the listed points in order, each equal to the calculator run on its own, the same on
local worker processes as serially; a checkpoint of one list never resumes another."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesbook as rb
from rulesbook.errors import InputError
from rulesbook.sweeps import plan_points, run_plan
from rulesbook.sweeps.budget import sample_indices

POINTS = [{"ld": str(ld), "modifier": str(m)} for ld, m in ((9, 0), (6, -1), (12, -2), (2, 0), (7, -3))]


def test_each_row_is_its_point_run_on_its_own() -> None:
    table = run_plan(plan_points("scrollhammer.panic-test", POINTS), executor="serial", progress=False)
    assert table[["ld", "modifier"]].astype(str).to_dict("records") == POINTS
    for row, point in zip(table.to_dict("records"), POINTS, strict=True):
        assert row["p_pass_exact"] == rb.calc("scrollhammer.panic-test", **point)["p_pass_exact"]


def test_worker_processes_give_the_same_table() -> None:
    plan = plan_points("scrollhammer.panic-test", POINTS * 3)
    serial = run_plan(plan, executor="serial", progress=False)
    pooled = run_plan(plan, executor="processes", workers=2, chunk_size=4, progress=False)
    assert serial.equals(pooled)


def test_a_bad_value_or_a_missing_key_is_refused_before_any_work() -> None:
    with pytest.raises(InputError, match=r"^ld: expected an integer from 0 to 12, got 13"):
        plan_points("scrollhammer.panic-test", [*POINTS, {"ld": "13", "modifier": "0"}])
    with pytest.raises(InputError, match=r"^points: point 2 has the keys ld, expected ld, modifier"):
        plan_points("scrollhammer.panic-test", [POINTS[0], {"ld": "7"}])


def test_a_checkpoint_belongs_to_its_list(tmp_path: Path) -> None:
    checkpoint = tmp_path / "rows.jsonl"
    run_plan(plan_points("scrollhammer.panic-test", POINTS), checkpoint=checkpoint, progress=False)
    other = plan_points("scrollhammer.panic-test", POINTS[::-1])
    with pytest.raises(InputError, match="belongs to another sweep"):
        run_plan(other, checkpoint=checkpoint, progress=False)


def test_the_budget_samples_points_of_the_list() -> None:
    plan = plan_points("scrollhammer.panic-test", [{"ld": str(ld), "modifier": "0"} for ld in range(13)] * 8)
    picked = sample_indices(plan, 10)
    assert len(set(picked)) == 10 and all(0 <= i < plan.size for i in picked)
    assert {0, plan.size - 1} <= set(picked)
