"""The command line's ``rulesbook matchup A B [key=value ...]``, which this system brings
(``SystemPackage(commands=...)``): every unit of 40k list A, with each of its weapon choices,
shooting and in melee, against every unit of list B (:mod:`rulesbook.systems.wh40k.lists.matchup`),
run on the sweep machinery (serially, on local worker processes or on Dask, with a progress bar);
the best choice of each unit and phase against each target, a line each (P(unit destroyed) as a
percentage beside its fraction), all of them as CSV/Parquet, and a heatmap. A file that cannot be
read is one line and exit code 2.

It sits with the command line in the layers (it builds on :mod:`rulesbook.cli.output` and
:mod:`rulesbook.sweeps`), and nothing imports it: the command line loads it by name when
``matchup`` is run or listed (:meth:`rulesbook.registry.Registry.command`).

Example:
    >>> from click.testing import CliRunner
    >>> from rulesbook.cli import cli
    >>> CliRunner().invoke(cli, ["matchup", "--help"]).output.splitlines()[0]
    'Usage: cli matchup [OPTIONS] LIST_A LIST_B [INPUTS]...'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from rulesbook.cli.output import (
    command_line,
    echo,
    fail,
    plot_option_checked,
    progress_shown,
    run_options,
    warn,
    write_plot,
)
from rulesbook.data import DataFileError
from rulesbook.errors import InputError
from rulesbook.inputs import PathInput
from rulesbook.present import fixed, json_text, percent, short_fraction
from rulesbook.rosters import SUFFIXES
from rulesbook.sweeps import Budget, SweepInterrupted, SweepPlan, parse_axes, plan_points, run_plan
from rulesbook.sweeps.output import check_output, export
from rulesbook.systems.wh40k.faction.types import Faction
from rulesbook.systems.wh40k.lists.army import army_at
from rulesbook.systems.wh40k.lists.matchup import describe, matchup_figure, matchup_points, matchup_summary

__all__ = ["matchup_cmd"]


@click.command("matchup")
@click.argument("list_a")
@click.argument("list_b")
@click.argument("inputs", nargs=-1)
@click.option(
    "--csv", "csv_path", help="Write every attack (each weapon choice) as CSV, its provenance beside it."
)
@click.option("--parquet", "parquet_path", help="Write every attack as Parquet (its provenance inside).")
@click.option("--plot", "plot_path", help="Draw the heatmap into this .png (or .svg).")
@run_options("a matchup")
@click.option("--json", "as_json", is_flag=True, help="Print the best choices as a JSON list.")
def matchup_cmd(
    list_a: str,
    list_b: str,
    inputs: Sequence[str],
    csv_path: str | None,
    parquet_path: str | None,
    plot_path: str | None,
    scheduler: str | None,
    workers: int | None,
    serial: bool,
    max_seconds: float,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Every unit of army list LIST_A, with each of its weapon choices (shooting, melee), against
    every unit of LIST_B (rosters or faction files): exact expected models destroyed and
    P(unit destroyed). KEY=VALUE sets another input of wh40k.datasheet-attack for every attack
    (battle_round=2, half_range=true …)."""

    try:
        for key, path in (("csv", csv_path), ("parquet", parquet_path)):
            if path:
                check_output(path, (f".{key}",), key)
        if plot_path:
            plot_option_checked(plot_path)
        a, b, plan = _matchup_plan(list_a, list_b, inputs)
    except (InputError, DataFileError) as exc:
        fail(str(exc))
    shown = progress_shown(progress)
    echo(
        f"matchup: {len(a.datasheets)} units of {a.name} against {len(b.datasheets)} of {b.name}: {plan.size} attacks",
        err=True,
    )
    try:
        table = run_plan(
            plan,
            executor="serial" if serial else ("dask" if scheduler else "auto"),
            workers=workers,
            scheduler=scheduler,
            budget=Budget(max_seconds=max_seconds),
            progress=shown or False,
            notify=lambda message: echo(message, err=True),
        )
        summary = matchup_summary(table, a, b)
        summary.attrs = {**table.attrs, "kind": "matchup"}
        for path in (p for p in (csv_path, parquet_path) if p):
            export(summary, path, command=command_line())
        if plot_path:
            write_plot(plot_path, matchup_figure(summary, a, b))
    except InputError as exc:
        fail(str(exc))
    except SweepInterrupted as exc:
        fail(str(exc), code=130 if isinstance(exc.__cause__, KeyboardInterrupt) else 1)
    _print_best(describe(summary), as_json)
    refused = int((summary["error"].fillna("") != "").sum())
    if refused:
        warn(f"{refused} attacks refused by the calculator (the table's error column says why)")
    written = ", ".join(p for p in (csv_path, parquet_path, plot_path) if p)
    echo(f"{plan.size} attacks{' written to ' + written if written else ''}", err=True)


def _matchup_plan(list_a: str, list_b: str, inputs: Sequence[str]) -> tuple[Faction, Faction, SweepPlan]:
    """The two army lists read and the sweep plan of every unit of A's every weapon choice
    against every unit of B, with the other inputs given as KEY=VALUE."""

    files = [PathInput(key=f"list {x}", help="", suffixes=(*SUFFIXES, ".yaml", ".yml")) for x in "AB"]
    path_a, path_b = files[0].parse(list_a), files[1].parse(list_b)
    a, b = army_at(path_a, "list A"), army_at(path_b, "list B")
    fixed_inputs = parse_axes(inputs)
    for key in ("faction", "attacker", "weapons", "target_faction", "target"):
        if key in fixed_inputs:
            raise InputError(key, "set by the matchup for each attack; give the other inputs")
    points = matchup_points(a, str(Path(path_a).resolve()), b, str(Path(path_b).resolve()), fixed_inputs)
    return a, b, plan_points("wh40k.datasheet-attack", points)


def _print_best(best: list[dict[str, Any]], as_json: bool) -> None:
    """Each attacker's best attack on each target: as JSON, or a line each."""
    if as_json:
        click.echo(json_text(json.loads(json.dumps(best, default=str))))
        return
    for r in best:
        p, exact = float(r["p_unit_destroyed"]), str(r["p_unit_destroyed_exact"])
        echo(
            f"{r['attacker']} ({r['phase']}: {r['weapons']}) vs {r['target']}: "
            f"{fixed(float(r['mean_models_destroyed']))} models destroyed on average, "
            f"P(unit destroyed) {percent(p)} ({short_fraction(exact)})"
        )
