"""Sweeps: the same tidy table serially, on local cores and on a Dask cluster; budgets; resuming."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
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
        "reroll",
        "enemy_sickness",
        "stratagems",
        "battle_shock_modifiers",
        "battle_shock_phase",
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


# -- trusting a sweep: clusters, progress, resuming, budgets in work, outputs ---------------------------


def slow_variant() -> Any:
    from rulesbook.variants import Variant
    from tests.sweep_helpers import slow_battle_shock

    return Variant.define(
        "slow", system="wh40k", title="Slow", functions={"wh40k.battle-shock": slow_battle_shock}
    )


def test_a_cluster_without_workers_is_waited_for_and_the_sweep_goes_on_when_they_come(tmp_path: Path) -> None:
    from distributed import LocalCluster

    messages: list[str] = []
    with LocalCluster(n_workers=0, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:

        def notify(message: str) -> None:
            messages.append(message)
            if "waiting for workers" in message:
                cluster.scale(1)

        table = sweep(
            CALC,
            GRID,
            ["battle-shock-3d6"],
            scheduler=cluster.scheduler_address,
            lost_grace=1,
            notify=notify,
            checkpoint=tmp_path / "c.jsonl",
        )
    waiting = next(m for m in messages if "waiting for workers" in m)
    assert waiting.startswith(f"sweep: no Dask worker left at {cluster.scheduler_address} for 1 s")
    assert f"kept in {tmp_path / 'c.jsonl'}" in waiting and "(Ctrl-C stops)" in waiting
    assert any(m.startswith("sweep: 1 Dask worker back; continuing") for m in messages)
    assert len(table) == 42 and (table["error"] == "").all()


def test_losing_every_worker_stops_with_rows_kept_and_the_sweep_resumes(tmp_path: Path) -> None:
    from distributed import LocalCluster

    checkpoint = tmp_path / "lost.jsonl"
    grid = {"leadership": "2..12"}
    plan = plan_sweep(CALC, grid, [slow_variant()], baseline=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        lost: list[int] = []

        def lose_the_workers(done: int) -> None:
            if not lost:
                lost.append(done)
                cluster.scale(0)

        started = time.monotonic()
        with pytest.raises(SweepInterrupted) as caught:
            run_plan(
                plan,
                scheduler=cluster.scheduler_address,
                checkpoint=checkpoint,
                chunk_size=1,
                on_lost_workers="stop",
                lost_grace=2,
                progress=False,
                on_rows=lose_the_workers,
            )
        assert time.monotonic() - started < 60  # said within a minute
        message = str(caught.value)
        assert (
            "WorkersLost: no Dask worker left at" in message and "stopped (--on-lost-workers stop)" in message
        )
        kept = len(caught.value.table)
        assert 0 < kept < 11
        assert len(checkpoint.read_text().splitlines()) == kept + 1  # the header and every kept row
        cluster.scale(1)
        said: list[str] = []
        resumed = run_plan(
            plan,
            scheduler=cluster.scheduler_address,
            checkpoint=checkpoint,
            chunk_size=1,
            progress=False,
            notify=said.append,
        )
    assert f"sweep: resuming from {kept} rows of 11 (in {checkpoint})" in said
    expected = sweep(CALC, grid, ["battle-shock-3d6"], baseline=False, executor="serial")
    assert resumed["p_pass_exact"].tolist() == sweep(CALC, grid, executor="serial")["p_pass_exact"].tolist()
    assert len(expected) == len(resumed)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "tcp://10.255.255.1:8786"])
def test_an_unreachable_scheduler_is_refused_within_five_seconds(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from rulesbook.sweeps import cluster

    asked: list[float | None] = []
    real = socket.create_connection

    def connect(where: tuple[str, int], timeout: float | None = None) -> socket.socket:
        asked.append(timeout)
        return real(where, timeout=timeout)

    monkeypatch.setattr(cluster.socket, "create_connection", connect)
    out = CliRunner().invoke(cli, ["sweep", CALC, "leadership=2..12", "--scheduler", address])
    # one try, given at most five seconds to answer (a wall clock here would time the machine's load)
    assert asked == [cluster.CONNECT_SECONDS] and cluster.CONNECT_SECONDS <= 5
    assert out.exit_code == 2
    assert out.stderr.startswith(f"rulesbook: error: scheduler: no Dask scheduler answers at '{address}'")
    assert out.stderr.count("\n") == 1
    bad = CliRunner().invoke(cli, ["sweep", CALC, "leadership=2..12", "--scheduler", "tcp://nowhere"])
    assert bad.exit_code == 2 and "expected an address such as tcp://host:8786" in bad.stderr


def test_progress_lines_resuming_and_restart(tmp_path: Path, serial: pd.DataFrame) -> None:
    plan = plan_sweep(CALC, GRID, ["battle-shock-3d6"])
    lines: list[str] = []
    run_plan(plan, executor="serial", progress="lines", progress_every=0, notify=lines.append)
    progress = [line for line in lines if line.startswith("sweep: ") and " of 42 points (" in line]
    assert progress and progress[-1].startswith("sweep: 42 of 42 points (100 %)")
    checkpoint = tmp_path / "out.csv.partial.jsonl"

    def stop(done: int) -> None:
        if done >= 20:
            raise KeyboardInterrupt

    with pytest.raises(SweepInterrupted):
        run_plan(plan, executor="serial", checkpoint=checkpoint, progress=False, on_rows=stop)
    said: list[str] = []
    computed: list[int] = []
    run_plan(
        plan,
        executor="serial",
        checkpoint=checkpoint,
        progress=False,
        notify=said.append,
        on_rows=computed.append,
        restart=True,
    )
    assert not any("resuming" in s for s in said)
    assert computed[0] < 20  # started again from nothing
    # on the command line: a checkpoint left by an interrupted run is resumed, and said so
    with pytest.raises(SweepInterrupted):
        run_plan(plan, executor="serial", checkpoint=checkpoint, progress=False, on_rows=stop, restart=True)
    args = [
        "sweep",
        CALC,
        *(f"{k}={v}" for k, v in GRID.items()),
        "--variant",
        "battle-shock-3d6",
        "--serial",
    ]
    out = CliRunner().invoke(cli, [*args, "--csv", str(tmp_path / "out.csv"), "--progress"])
    assert out.exit_code == 0, out.stderr
    assert f"sweep: resuming from 20 rows of 42 (in {checkpoint})" in out.stderr
    assert not checkpoint.exists()


def test_the_budget_is_in_estimated_work_from_the_cost_model_up_front() -> None:
    heavy = [
        "attacks=1..200",
        "toughness=1..12",
        "models=1..40",
        "skill=3",
        "strength=5",
        "save=3",
        "wounds=10",
        "damage=2D6",
        "abilities=sustained-hits-d6",
    ]
    started = time.process_time()  # (CPU time: other work on the machine does not count)
    out = CliRunner().invoke(cli, ["sweep", "wh40k.attack", *heavy, "--workers", "2"])
    assert time.process_time() - started < 15  # priced by the model, nothing computed
    assert out.exit_code == 2
    assert out.stderr.startswith(
        "rulesbook: error: sweep: 96,000 points would take about 78 min (cost model: 0.097 s a point on 2 "
        "workers), over the budget of 30 min; narrow the grid (attacks has 200 values (1..200);"
    )
    # the same grid of a light calculator is a few seconds: the points alone do not decide
    light = plan_sweep("wh40k.battle-shock", {"leadership": "2..12", "modifier": "-3..3"})
    from rulesbook.sweeps import estimate

    assert estimate(light, workers=2).seconds < 5


def test_outputs_are_checked_before_any_work_and_cannot_be_tracebacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    missing = runner.invoke(cli, ["sweep", CALC, "leadership=2..12", "--csv", "no/x.csv"])
    assert missing.exit_code == 2
    assert missing.stderr == (
        "rulesbook: error: csv: 'no/x.csv': the folder 'no' does not exist; create it first\n"
    )
    folder = runner.invoke(cli, ["sweep", CALC, "leadership=2..12", "--parquet", str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder" in folder.stderr
    if Path("/dev/full").exists():
        full = runner.invoke(cli, ["sweep", CALC, "leadership=2..12", "--serial", "--csv", "/dev/full"])
        assert full.exit_code == 2
        assert full.stderr == "rulesbook: error: output: cannot write '/dev/full' (no space left on device)\n"
        assert Path("/dev/full").is_char_device()  # written to, never replaced


def run_cli(args: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rulesbook.cli", *args]
    return subprocess.run(command, capture_output="stdout" not in options, text=True, timeout=120, **options)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_and_a_closed_standard_output_are_one_line_and_exit_2() -> None:
    args = ["sweep", CALC, "leadership=2..12", "--serial", "--json"]
    with open("/dev/full", "w") as full:
        proc = run_cli(args, stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 2
    assert (
        proc.stderr == "rulesbook: error: output: cannot write to standard output (no space left on device)\n"
    )
    closed = run_cli(args, stdout=None, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2
    assert (
        closed.stderr
        == "rulesbook: error: output: cannot write to standard output (standard output is closed)\n"
    )


def test_csv_and_parquet_carry_the_variants_and_the_command(tmp_path: Path, serial: pd.DataFrame) -> None:
    from rulesbook.sweeps import read_table
    from rulesbook.sweeps.output import sidecar_of
    from rulesbook.variants import Variant

    folder = tmp_path / "shared"
    folder.mkdir()
    mine = folder / "mine.yaml"
    mine.write_text("system: wh40k\ntitle: Mine\nparameters:\n  battle_shock_dice: 3D6\n", encoding="utf-8")
    csv, parquet = tmp_path / "s.csv", tmp_path / "s.parquet"
    args = ["sweep", CALC, "leadership=6..7", "--variant", f"{mine}+deadly-demise-on-5", "--serial"]
    out = CliRunner().invoke(cli, [*args, "--csv", str(csv), "--parquet", str(parquet)])
    assert out.exit_code == 0, out.stderr
    command = shlex.join(["rulesbook", *args, "--csv", str(csv), "--parquet", str(parquet)])
    for path in (csv, parquet):
        table = read_table(path)
        meta = table.attrs["provenance"]
        assert meta["command"] == command
        assert meta["calculator"] == CALC and meta["axes"] == ["leadership"]
        definition = meta["variants"]["mine+deadly-demise-on-5"]
        again = Variant.from_mapping(definition, name="again")  # loads back as a variant
        assert {k: str(v) for k, v in again.parameters} == {
            "battle_shock_dice": "3D6",
            "deadly_demise_roll": "5",
        }
        # 2D6 ≥ 6: 26/36, ≥ 7: 21/36; 3D6 ≥ 6: 206/216, ≥ 7: 196/216
        assert table["p_pass_exact"].tolist() == ["13/18", "7/12", "103/108", "49/54"]
    assert sidecar_of(csv).read_text(encoding="utf-8").startswith("rulesbook: ")
    plain = pd.read_csv(csv)  # the CSV itself stays a plain table
    assert list(plain.columns)[:2] == ["variant", "leadership"]


def test_a_plot_alone_prints_no_table_and_warns_when_a_variant_changes_nothing(tmp_path: Path) -> None:
    png = tmp_path / "p.png"
    out = CliRunner().invoke(
        cli,
        [
            "sweep",
            CALC,
            "leadership=2..12",
            "--variant",
            "deadly-demise-on-5",
            "--serial",
            "--plot",
            str(png),
        ],
    )
    assert out.exit_code == 0, out.stderr
    assert out.stdout == ""
    assert (
        "rulesbook: warning: Deadly Demise explodes on a 5+ does not affect Battle-shock test" in out.stderr
    )
    assert png.stat().st_size > 10_000


def test_a_table_read_back_from_its_file_plots_as_it_did(tmp_path: Path, serial: pd.DataFrame) -> None:
    from rulesbook.sweeps import export, read_table

    for suffix in ("csv", "parquet"):
        path = export(serial, tmp_path / f"shared.{suffix}", command="test")
        back = read_table(path)
        assert back.attrs["axes"] == ["leadership", "modifier"] and back.attrs["calculator"] == CALC
        assert (back["error"] == "").all()
        fig = plot_sweep(back)
        titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
        assert titles[:2] == ["Published rules", "Battle-shock tests on 3D6"]


def _processes_in_group(group: int) -> list[int]:
    """The live (not zombie) processes of a process group, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _parent, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == group and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_killed_sweep_leaves_no_worker_processes(tmp_path: Path, signal_name: str) -> None:
    """``rulesbook sweep`` on two local worker processes, killed while they compute (``kill -9``
    or ``kill``): its workers, their fork server and resource tracker all end (before, the
    workers computed on for good)."""
    import signal

    heavy = ["attacks=150..200", "toughness=1..12", "models=1..10", "skill=3", "strength=5", "save=3"]
    heavy += ["wounds=10", "damage=2D6", "abilities=sustained-hits-d6"]
    command = [sys.executable, "-m", "rulesbook.cli", "sweep", "wh40k.attack", *heavy, "--workers", "2"]
    command += ["--csv", str(tmp_path / "out.csv"), "--no-progress"]
    proc = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    group = proc.pid
    try:
        deadline = time.monotonic() + 180
        while len(_processes_in_group(group)) < 5:  # the sweep, a fork server, a tracker, 2 workers
            assert proc.poll() is None and time.monotonic() < deadline, "the workers never started"
            time.sleep(0.2)
        os.kill(proc.pid, getattr(signal, signal_name))
        proc.wait(30)
        deadline = time.monotonic() + 60
        while _processes_in_group(group) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes_in_group(group) == []
    finally:
        for pid in _processes_in_group(group):  # (what a failing run left: this test's own processes)
            os.kill(pid, signal.SIGKILL)
