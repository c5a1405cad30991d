"""The designer's what-if commands: ``rulesbook variants``, ``rulesbook compare``, ``rulesbook sweep``.

They are registered onto the main click group by :func:`register` (see :mod:`rulesbook.cli`);
``rulesbook calc ID ... variant=NAME`` and ``rulesbook rule ID`` use :mod:`rulesbook.variants`
directly. Bad input exits with code 2 and one line naming the field and what is allowed.

Example:
    >>> from click.testing import CliRunner
    >>> from rulesbook.cli import cli
    >>> out = CliRunner().invoke(cli, ["compare", "wh40k.battle-shock", "leadership=7", "--variant", "battle-shock-3d6"])
    >>> out.exit_code, "49/54" in out.output
    (0, True)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from rulesbook.cli.output import echo, fail
from rulesbook.errors import InputError, quote
from rulesbook.present import json_text
from rulesbook.registry import registry
from rulesbook.variants import (
    compare,
    given_inputs,
    overridable_rules,
    resolve_variant,
    shipped_variants,
    signature_text,
    user_variant_problems,
    user_variants,
)

__all__ = ["register"]


@click.command("variants")
@click.argument("system", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {name, system, title, path}.")
@click.option(
    "--rules",
    "list_rules",
    is_flag=True,
    help="List the rules a Python variant can give other code, with the signature its function takes.",
)
def variants_cmd(system: str | None, as_json: bool, list_rules: bool) -> None:
    """List the shipped variants (and yours, in $RULESBOOK_VARIANTS_DIR), optionally of one SYSTEM."""
    try:
        if system is not None:
            registry().system(system)
        if list_rules:
            _list_rules(system, as_json)
            return
        mine = user_variants()
        found = [
            v for v in [*shipped_variants().values(), *mine.values()] if system is None or v.system == system
        ]
    except InputError as exc:
        fail(str(exc))
    for name, why in user_variant_problems().items():
        echo(f"rulesbook: warning: {name} left out: {why}", err=True)
    if as_json:
        click.echo(
            json_text([{k: v.to_json()[k] for k in ("name", "system", "title", "path")} for v in found])
        )
        return
    for v in found:
        echo(f"{v.name:<32} {v.system:<13} {v.title}")
        for line in v.summary():
            echo(f"{'':<34}{line}")


def _list_rules(system: str | None, as_json: bool) -> None:
    """The rules a Python variant can replace: ID, the published function and its signature."""
    rows = [
        {"rule": rule_id, "function": f.__name__, "signature": signature_text(f)}
        for rule_id, functions in sorted(overridable_rules(system).items())
        for f in functions
    ]
    if as_json:
        click.echo(json_text(rows))
        return
    echo("Rules a Python variant can replace (@rule('ID') on a function taking these arguments):")
    for row in rows:
        echo(f"  {row['rule']:<48} {row['signature']}")


@click.command("compare")
@click.argument("calc_id")
@click.argument("assignments", nargs=-1)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    required=True,
    help="A variant name or .yaml path (repeatable; A+B composes).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def compare_cmd(calc_id: str, assignments: Sequence[str], variants: Sequence[str], as_json: bool) -> None:
    """Run CALC_ID with key=value inputs under the baseline and each --variant; show the differences.

    `--variant A+B` composes two variants (a key they set differently is an error).
    """
    try:
        calc = registry().calculator(calc_id)
        raw = given_inputs(calc, assignments)
        specs = [v.split("+") if "+" in v and not v.endswith((".yaml", ".yml")) else v for v in variants]
        result = compare(calc, raw, specs)
    except InputError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json_text(result.to_json()))
    else:
        echo(result.to_text())


@click.command("sweep")
@click.argument("calc_id")
@click.argument("axes", nargs=-1)
@click.option("--variant", "variants", multiple=True, help="Also sweep under this variant (repeatable).")
@click.option("--no-baseline", is_flag=True, help="Leave the unchanged rules out.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the table as CSV.")
@click.option(
    "--parquet", "parquet_path", type=click.Path(dir_okay=False), help="Write the table as Parquet."
)
@click.option(
    "--plot", "plot_path", type=click.Path(dir_okay=False), help="Draw a plot into this .png (or .svg)."
)
@click.option("--y", "y_key", help="Result plotted (default: the first).")
@click.option("--x", "x_key", help="Axis on the plot's x (default: the first swept).")
@click.option(
    "--kind", type=click.Choice(["line", "heatmap"]), help="Plot kind (default: heatmap for 2+ axes)."
)
@click.option("--scheduler", help="Run on a Dask distributed cluster at this address (tcp://host:8786).")
@click.option("--workers", type=click.IntRange(1, 512), help="Local worker processes (default: all cores).")
@click.option("--serial", is_flag=True, help="Run in this process only.")
@click.option(
    "--max-points", type=click.IntRange(1), default=200_000, show_default=True, help="Refuse larger grids."
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0),
    default=1800.0,
    show_default=True,
    help="Refuse longer estimates.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the rows as a JSON list.")
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def sweep_cmd(
    calc_id: str,
    axes: Sequence[str],
    variants: Sequence[str],
    no_baseline: bool,
    csv_path: str | None,
    parquet_path: str | None,
    plot_path: str | None,
    y_key: str | None,
    x_key: str | None,
    kind: Any,
    scheduler: str | None,
    workers: int | None,
    serial: bool,
    max_points: int,
    max_seconds: float,
    as_json: bool,
    progress: bool,
) -> None:
    """Evaluate CALC_ID over a grid: key=a..b (range), key=x,y,z (alternatives), key=v (fixed),
    parameter.KEY=... (a rule parameter); × the baseline and each --variant.

    Writes a tidy table (one row per point) to --csv/--parquet, or prints it. An interrupted
    sweep keeps its finished rows in OUTPUT.partial.jsonl and the same command resumes.
    """
    from rulesbook.sweeps import Budget, Executor, SweepInterrupted, export, plan_sweep, plot_sweep, run_plan

    if plot_path and Path(plot_path).suffix.lower() not in (".png", ".svg"):
        fail(f"plot: {Path(plot_path).name}: expected a .png or .svg file name")
    outputs = [p for p in (csv_path, parquet_path) if p]
    checkpoint = Path(outputs[0] + ".partial.jsonl") if outputs else None
    try:
        calc = registry().calculator(calc_id)
        grid: dict[str, str] = {}
        for word in axes:
            key, sep, value = word.partition("=")
            if not sep or not key.strip():
                raise InputError("axes", f"expected key=a..b, key=x,y or key=value, got {quote(word)}")
            if key.strip() in grid:
                raise InputError(key.strip(), "given twice")
            grid[key.strip()] = value
        plan = plan_sweep(calc, grid, [resolve_variant(v) for v in variants], baseline=not no_baseline)
        executor: Executor = "serial" if serial else ("dask" if scheduler else "auto")
        table = run_plan(
            plan,
            executor=executor,
            workers=workers,
            scheduler=scheduler,
            budget=Budget(max_points=max_points, max_seconds=max_seconds),
            checkpoint=checkpoint,
            progress=progress and sys.stderr.isatty(),
        )
        for path in outputs:
            export(table, path)
        if plot_path:
            fig = plot_sweep(table, y_key, x=x_key, kind=kind)
            fig.savefig(plot_path, dpi=110, bbox_inches="tight")
    except InputError as exc:
        fail(str(exc))
    except SweepInterrupted as exc:
        fail(str(exc), code=130 if isinstance(exc.__cause__, KeyboardInterrupt) else 1)
    if checkpoint is not None:
        checkpoint.unlink(missing_ok=True)
    if as_json:
        click.echo(json_text(json.loads(table.to_json(orient="records"))))
    elif not outputs:
        keys = [
            "variant",
            *plan_keys(table),
            *(f"{o}{x}" for o in table.attrs["outputs"] for x in ("", "_exact")),
        ]
        shown = [c for c in keys if c in table.columns]
        echo(table[shown].to_string(index=False))
    done = ", ".join(str(p) for p in [*outputs, *([plot_path] if plot_path else [])])
    echo(f"{len(table)} points{' written to ' + done if done else ''}", err=True)


def plan_keys(table: Any) -> list[str]:
    """The swept columns of a sweep table."""
    return list(table.attrs.get("axes", []))


def register(group: click.Group) -> None:
    """Add the what-if commands to the ``rulesbook`` click group."""
    for command in (variants_cmd, compare_cmd, sweep_cmd):
        group.add_command(command)
