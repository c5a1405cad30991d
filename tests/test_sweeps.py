"""Sweeps: the same tidy table serially, on local cores and on a Dask cluster; budgets; resuming."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.errors import InputError
from rulesbook.sweeps import (
    Budget,
    SweepInterrupted,
    SweepTooLarge,
    plan_sweep,
    plot_sweep,
    run_plan,
    sweep,
)

GRID = {"leadership": "4..10", "modifier": "-1,0,1"}
CALC = "wh40k.battle-shock"


@pytest.fixture(scope="module")
def serial() -> pd.DataFrame:
    return sweep(CALC, GRID, ["battle-shock-3d6"], executor="serial")


@pytest.mark.covers(CALC)
def test_the_table_is_tidy_one_row_per_point(serial: pd.DataFrame) -> None:
    assert len(serial) == 2 * 7 * 3
    assert list(serial.columns) == [
        "variant",
        "leadership",
        "modifier",
        "p_pass",
        "p_pass_exact",
        "p_battle_shocked",
        "p_battle_shocked_exact",
        "error",
    ]
    row = serial[(serial.variant == "battle-shock-3d6") & (serial.leadership == 7) & (serial.modifier == 0)]
    assert row["p_pass_exact"].tolist() == ["49/54"]
    base = serial[(serial.variant == "baseline") & (serial.leadership == 7) & (serial.modifier == 0)]
    assert base["p_pass_exact"].tolist() == ["7/12"]
    assert (serial["error"] == "").all()


def test_serial_processes_and_a_local_dask_cluster_give_identical_tables(serial: pd.DataFrame) -> None:
    processes = sweep(CALC, GRID, ["battle-shock-3d6"], executor="processes", workers=2)
    pd.testing.assert_frame_equal(serial, processes)
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = sweep(CALC, GRID, ["battle-shock-3d6"], scheduler=cluster.scheduler_address)
        args = ["sweep", CALC, *(f"{k}={v}" for k, v in GRID.items()), "--variant", "battle-shock-3d6"]
        out = CliRunner().invoke(cli, [*args, "--scheduler", cluster.scheduler_address, "--json"])
    pd.testing.assert_frame_equal(serial, dask)
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(serial.to_json(orient="records"))


def test_a_rule_parameter_is_an_axis_too() -> None:
    table = sweep(CALC, {"leadership": "7", "parameter.battle_shock_dice": "2D6,3D6"}, executor="serial")
    assert table["parameter.battle_shock_dice"].tolist() == ["2D6", "3D6"]
    assert table["p_pass_exact"].tolist() == ["7/12", "49/54"]
    with pytest.raises(InputError, match=r"parameter\.battle_shock_dicee: unknown rule parameter"):
        plan_sweep(CALC, {"parameter.battle_shock_dicee": "3D6"})


def test_points_whose_inputs_do_not_go_together_get_an_error_not_a_crash() -> None:
    table = sweep(
        "warstrike.strike-force-morale",
        {"starting_units": "3", "remaining_units": "2..4", "officer_ld": "8"},
        executor="serial",
    )
    assert table["error"].tolist()[:2] == ["", ""]
    assert table["error"].iloc[2].startswith("remaining_units:")
    assert pd.isna(table["p_retreat"].iloc[2])


def test_a_grid_over_budget_is_refused_up_front_with_the_estimate_and_how_to_narrow() -> None:
    plan = plan_sweep(CALC, {"leadership": "2..12", "modifier": "-3,-2,-1,0,1,2,3"})
    with pytest.raises(SweepTooLarge) as caught:
        run_plan(plan, budget=Budget(max_points=50), progress=False)
    assert str(caught.value) == (
        "sweep: 77 points exceed the budget of 50; narrow the grid (leadership has 11 values (2..12); "
        "modifier has 7 values (-3..3)) or fix an input, or raise the budget"
    )
    with pytest.raises(SweepTooLarge, match=r"^sweep: 77 points would take about .* over the budget of 0 s"):
        run_plan(plan, budget=Budget(max_seconds=0), executor="serial", progress=False)


def test_an_interrupted_sweep_keeps_its_rows_and_resumes(tmp_path: Path, serial: pd.DataFrame) -> None:
    checkpoint = tmp_path / "out.csv.partial.jsonl"
    plan = plan_sweep(CALC, GRID, ["battle-shock-3d6"])

    def stop_after_ten(done: int) -> None:
        if done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(SweepInterrupted) as caught:
        run_plan(plan, executor="serial", checkpoint=checkpoint, progress=False, on_rows=stop_after_ten)
    assert len(caught.value.table) == 10
    assert f"after 10 of 42 rows; they are in {checkpoint}" in str(caught.value)
    kept = [json.loads(line) for line in checkpoint.read_text().splitlines()[1:]]
    assert len({k["i"] for k in kept}) == len(kept) == 10  # the rows timed for the estimate among them

    computed: list[int] = []
    resumed = run_plan(
        plan, executor="serial", checkpoint=checkpoint, progress=False, on_rows=computed.append
    )
    assert computed[0] == 11  # the ten kept rows were not computed again
    pd.testing.assert_frame_equal(serial, resumed)
    other = plan_sweep(CALC, {"leadership": "4..5"})
    with pytest.raises(InputError, match="belongs to another sweep"):
        run_plan(other, executor="serial", checkpoint=checkpoint, progress=False)


def test_plots_in_one_call(serial: pd.DataFrame) -> None:
    heat = plot_sweep(serial)
    titles = [ax.get_title() for ax in heat.axes if ax.get_title()]
    assert titles == [
        "Published rules",
        "Battle-shock tests on 3D6",
        "Battle-shock tests on 3D6 − Published rules",
    ]
    line = plot_sweep(serial, "p_battle_shocked", x="leadership", kind="line")
    assert len(line.axes[0].get_lines()) == 2 * 3  # a line per variant and modifier
    assert len(line.axes[1].get_lines()) == 3 + 1  # the differences (and the zero line)
    with pytest.raises(InputError, match="y: expected a result column"):
        plot_sweep(serial, "nope")


def test_sweep_on_the_command_line_writes_csv_parquet_and_a_plot(
    tmp_path: Path, serial: pd.DataFrame
) -> None:
    csv, parquet, png = tmp_path / "s.csv", tmp_path / "s.parquet", tmp_path / "s.png"
    args = ["sweep", CALC, *(f"{k}={v}" for k, v in GRID.items()), "--variant", "battle-shock-3d6"]
    args += ["--csv", str(csv), "--parquet", str(parquet), "--plot", str(png), "--serial"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.stderr
    assert out.stderr.strip().startswith("42 points written to")
    from_csv = pd.read_csv(csv, keep_default_na=False)
    assert from_csv["p_pass_exact"].tolist() == serial["p_pass_exact"].tolist()
    assert from_csv["p_pass"].tolist() == serial["p_pass"].tolist()
    pd.testing.assert_frame_equal(pd.read_parquet(parquet), serial, check_like=False)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "s.csv.partial.jsonl").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["leadership=4..13"], "rulesbook: error: leadership: expected an integer from 2 to 12, got 13"),
        (["leadership=9..4"], "rulesbook: error: leadership: empty range '9..4'; write low..high"),
        (
            ["wibble=1,2"],
            "rulesbook: error: wibble: unknown input for wh40k.battle-shock; allowed: leadership, modifier",
        ),
        (["leadership"], "rulesbook: error: axes: expected key=a..b, key=x,y or key=value, got 'leadership'"),
        (
            ["leadership=2..12", "--max-points", "5"],
            "rulesbook: error: sweep: 11 points exceed the budget of 5;",
        ),
        (
            ["leadership=7", "--variant", "morale-per-40-points"],
            "rulesbook: error: variant: morale-per-40-points changes army-morale rules",
        ),
        (
            ["leadership=7", "--plot", "x.jpg"],
            "rulesbook: error: plot: 'x.jpg': expected a .png or .svg file name",
        ),
    ],
)
def test_bad_sweeps_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = CliRunner().invoke(cli, ["sweep", CALC, *args, "--serial"])
    assert out.exit_code == 2
    assert out.stderr.startswith(message), out.stderr
    assert out.stderr.count("\n") == 1


def test_sweep_json_rows(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["sweep", CALC, "leadership=6..7", "--serial", "--json"])
    assert out.exit_code == 0, out.stderr
    rows: list[dict[str, Any]] = json.loads(out.stdout)
    assert [(r["leadership"], r["p_pass_exact"]) for r in rows] == [(6, "13/18"), (7, "7/12")]
