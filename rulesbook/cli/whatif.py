"""The designer's what-if commands: ``rulesbook variants`` (and ``variants show``), ``rulesbook
compare``, ``rulesbook sweep``.

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
@click.argument("words", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (a list, or the one variant shown).")
@click.option(
    "--rules",
    "list_rules",
    is_flag=True,
    help="List the rules a Python variant can give other code, with the signature its function takes.",
)
def variants_cmd(words: Sequence[str], as_json: bool, list_rules: bool) -> None:
    """List the variants (designer what-ifs): the shipped ones and yours ($RULESBOOK_VARIANTS_DIR),
    optionally of one SYSTEM; `rulesbook variants show NAME|PATH|A+B` prints one as the YAML of a
    variant file that loads back to it."""
    if words and words[0] == "show":
        if len(words) != 2:
            fail("variants show: expected one NAME, PATH or A+B (e.g. rulesbook variants show fall-back-3d6)")
        try:
            variant = resolve_variant(words[1])
            text = variant.to_yaml()
        except InputError as exc:
            fail(str(exc))
        if as_json:
            click.echo(json_text(variant.to_json()))
        else:
            click.echo(text, nl=False)  # YAML as written by the one writer (it reads back exactly)
        return
    if len(words) > 1:
        fail(f"variants: expected SYSTEM or show NAME, got {quote(' '.join(words))}")
    system = words[0] if words else None
    try:
        if system is not None:
            registry().system(system)
        if list_rules:
            _list_rules(system, as_json)
            return
        mine = [v for v in user_variants().values() if system is None or v.system == system]
        found = [v for v in shipped_variants().values() if system is None or v.system == system]
    except InputError as exc:
        fail(str(exc))
    for name, why in user_variant_problems().items():
        echo(f"rulesbook: warning: {name} left out: {why}", err=True)
    if as_json:
        keys = ("name", "system", "title", "path")
        click.echo(
            json_text(
                [{k: v.to_json()[k] for k in keys} for v in found]
                + [{**{k: v.to_json()[k] for k in keys}, "yours": True} for v in mine]
            )
        )
    else:
        for v in [*found, *mine]:
            echo(f"{v.name:<32} {v.system:<13} {v.title}{'  (yours)' if v in mine else ''}")
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
        raw = given_inputs(calc, assignments, variants)
        result = compare(calc, raw, list(variants))
    except InputError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json_text(result.to_json()))
    else:
        echo(result.to_text())


@click.command("sweep")
@click.argument("calc_id")
@click.argument("axes", nargs=-1)
@click.option(
    "--variant", "variants", multiple=True, help="Also sweep under this variant (repeatable; A+B composes)."
)
@click.option("--no-baseline", is_flag=True, help="Leave the unchanged rules out.")
@click.option("--csv", "csv_path", help="Write the table as CSV (its provenance in CSV.provenance.yaml).")
@click.option("--parquet", "parquet_path", help="Write the table as Parquet (its provenance inside).")
@click.option("--plot", "plot_path", help="Draw a plot into this .png (or .svg).")
@click.option("--y", "y_key", help="Result plotted (default: the first).")
@click.option("--x", "x_key", help="Axis on the plot's x (default: the first swept).")
@click.option(
    "--kind", type=click.Choice(["line", "heatmap"]), help="Plot kind (default: heatmap for 2+ axes)."
)
@run_options("sweeps")
@click.option(
    "--on-lost-workers",
    type=click.Choice(["wait", "stop"]),
    default="wait",
    show_default=True,
    help="When a Dask cluster has no worker left: wait for workers, or stop (finished rows are kept).",
)
@click.option(
    "--max-points", type=click.IntRange(1), default=200_000, show_default=True, help="Refuse larger grids."
)
@click.option("--restart", is_flag=True, help="Discard the checkpoint of an earlier, interrupted run.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as a JSON list.")
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
    on_lost_workers: Any,
    workers: int | None,
    serial: bool,
    max_points: int,
    max_seconds: float,
    restart: bool,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Evaluate CALC_ID over a grid: key=a..b (range), key=x,y,z (alternatives), key=v (fixed),
    parameter.KEY=... (a rule parameter); × the baseline and each --variant.

    Writes a tidy table (one row per point) to --csv/--parquet, or prints it (not when only a
    --plot is asked for). An interrupted sweep keeps its finished rows in
    OUTPUT.partial.jsonl and the same command resumes from them (--restart starts afresh).
    """
    from rulesbook.sweeps import (
        Budget,
        Executor,
        SweepInterrupted,
        parse_axes,
        plan_sweep,
        plot_sweep,
        run_plan,
    )
    from rulesbook.sweeps.output import check_output, export, is_special
    from rulesbook.sweeps.plot import sweep_warnings

    try:
        checked = [
            check_output(p, (f".{k}",), k) for k, p in (("csv", csv_path), ("parquet", parquet_path)) if p
        ]
        if plot_path:
            plot_option_checked(plot_path)
        calc = registry().calculator(calc_id)
        grid = parse_axes(axes)
        plan = plan_sweep(calc, grid, [resolve_variant(v) for v in variants], baseline=not no_baseline)
    except InputError as exc:
        fail(str(exc))
    outputs = [str(p) for p in (csv_path, parquet_path) if p]
    regular = [p for p, target in zip(outputs, checked, strict=True) if not is_special(target)]
    checkpoint = Path(regular[0] + ".partial.jsonl") if regular else None
    executor: Executor = "serial" if serial else ("dask" if scheduler else "auto")
    shown = progress_shown(progress)
    try:
        table = run_plan(
            plan,
            executor=executor,
            workers=workers,
            scheduler=scheduler,
            budget=Budget(max_points=max_points, max_seconds=max_seconds),
            checkpoint=checkpoint,
            restart=restart,
            progress=shown or False,
            notify=lambda message: echo(message, err=True),
            on_lost_workers=on_lost_workers,
        )
        table.attrs["command"] = command_line()
        for path in outputs:
            export(table, path, command=command_line())
        if plot_path:
            write_plot(plot_path, plot_sweep(table, y_key, x=x_key, kind=kind))
    except InputError as exc:
        fail(str(exc))
    except SweepInterrupted as exc:
        fail(str(exc), code=130 if isinstance(exc.__cause__, KeyboardInterrupt) else 1)
    if checkpoint is not None:
        checkpoint.unlink(missing_ok=True)
    if as_json or (not outputs and not plot_path):
        _print_table(table, as_json)
    for line in sweep_warnings(table, y_key or next(iter(table.attrs["outputs"]), None)):
        warn(line)
    done = ", ".join(str(p) for p in [*outputs, *([plot_path] if plot_path else [])])
    echo(f"{len(table)} points{' written to ' + done if done else ''}", err=True)


def _print_table(table: Any, as_json: bool) -> None:
    """A sweep's table on standard output: as JSON records, or its variant, swept columns and
    outputs (each beside its exact value)."""
    if as_json:
        click.echo(json_text(json.loads(table.to_json(orient="records"))))
        return
    keys = [
        "variant",
        *plan_keys(table),
        *(f"{o}{x}" for o in table.attrs["outputs"] for x in ("", "_exact")),
    ]
    echo(table[[c for c in keys if c in table.columns]].to_string(index=False))


def plan_keys(table: Any) -> list[str]:
    """The swept columns of a sweep table."""
    return list(table.attrs.get("axes", []))


def register(group: click.Group) -> None:
    """Add the what-if commands to the ``rulesbook`` click group."""
    for command in (variants_cmd, compare_cmd, sweep_cmd):
        group.add_command(command)
