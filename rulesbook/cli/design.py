"""The designer's analysis commands: ``solve``, ``sensitivity``, ``matrix`` and ``parameters``.

* ``rulesbook solve CALC 'p_pass>=0.5' over ld=2..12 modifier=-1`` — the smallest (``--largest``:
  largest) value of one input or ``parameter.KEY`` that meets a target, exactly, with the output
  at the neighbouring values; "no value meets it" is an answer (exit 0).
* ``rulesbook sensitivity CALC ld=8 lost_by=2`` — every rule parameter one step each way and every
  reading to each alternative, sorted by the exact change; ``--plot`` draws a tornado chart.
* ``rulesbook matrix CALC rows=ld:5..10 cols=modifier:-2..1`` — a balance table (and under
  ``--variant`` the difference from the published rules), as text, CSV, Parquet, JSON or an
  annotated heatmap.
* ``rulesbook parameters [SYSTEM]`` — every rule parameter and reading a variant can change.

Every command takes ``--json``; ``--csv``/``--parquet`` files carry their provenance
(:mod:`rulesbook.sweeps.output`); ``--plot`` writes ``.png`` or ``.svg``, and with ``--plot`` or
a file and no ``--json`` nothing but a summary line is printed. Bad input is one line, exit 2.

Example:
    >>> from click.testing import CliRunner
    >>> from rulesbook.cli import cli
    >>> out = CliRunner().invoke(cli, ["solve", "scrollhammer.morale-check", "p_pass>=0.5", "over", "ld=2..12", "modifier=-1"])
    >>> out.exit_code, out.output.splitlines()[1]
    (0, 'The smallest Leadership (Ld) that meets p_pass>=0.5 is 8.')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from rulesbook.cli.output import command_line, echo, emit_json, fail, plot_option_checked, warn, write_plot
from rulesbook.errors import InputError, quote
from rulesbook.registry import registry
from rulesbook.variants import parameter_catalogue
from rulesbook.variants.labels import reach_warning

__all__ = ["register"]


def _inputs(words: Sequence[str], field: str = "arguments") -> dict[str, str]:
    """``key=value`` words as a mapping (one line naming a bad word or a key given twice)."""
    out: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(field, f"expected key=value, got {quote(word)}")
        if key in out:
            raise InputError(key, "given twice")
        out[key] = value
    return out


def _variants(options: Sequence[str], words: dict[str, str]) -> str | list[str] | None:
    """The variants of ``--variant`` options and a ``variant=`` word (composed), if any."""
    named = [*options, *([words.pop("variant")] if "variant" in words else [])]
    if any(not n.strip() for n in named):
        raise InputError("variant", "expected a variant name or the path of a .yaml file")
    return named or None


def _finish(
    obj: Any,
    *,
    as_json: bool,
    csv_path: str | None,
    parquet_path: str | None,
    plot_path: str | None,
    what: str,
) -> bool:
    """Write the files asked for, then print JSON, or the text table when nothing else was asked
    (then True: the text holds the warnings too)."""
    from rulesbook.sweeps.output import export

    files = []
    for path in (csv_path, parquet_path):
        if path:
            export(obj.frame(), path, command=command_line())
            files.append(path)
    if plot_path:
        write_plot(plot_path, obj.figure())
        files.append(plot_path)
    if files:
        echo(f"{what} written to {', '.join(files)}", err=True)
    if as_json:
        emit_json(obj.to_json())
    elif not files:
        echo(obj.to_text())
        return True
    return False


def _check_files(csv_path: str | None, parquet_path: str | None, plot_path: str | None) -> None:
    from rulesbook.sweeps.output import check_output

    if csv_path:
        check_output(csv_path, (".csv",), "csv")
    if parquet_path:
        check_output(parquet_path, (".parquet",), "parquet")
    if plot_path:
        plot_option_checked(plot_path)


# -- solve ---------------------------------------------------------------------------------------


@click.command("solve")
@click.argument("calc_id")
@click.argument("condition")
@click.argument("words", nargs=-1)
@click.option(
    "--variant", "variants", multiple=True, help="Under this variant (a name or .yaml path; A+B composes)."
)
@click.option(
    "--largest", is_flag=True, help="The largest value that meets the condition (default: the smallest)."
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"key", "value", "output", "exact", "neighbours", ...}.'
)
def solve_cmd(
    calc_id: str, condition: str, words: Sequence[str], variants: Sequence[str], largest: bool, as_json: bool
) -> None:
    """Find the smallest (or --largest) value of one input or rule parameter meeting CONDITION.

    rulesbook solve CALC_ID 'OUTPUT>=TARGET' over KEY=a..b [key=value ...] — the condition uses
    >=, <=, > or <; the target is a decimal, a fraction (1/2) or a percentage (50%); KEY is an
    input or parameter.KEY, over a range a..b or a list x,y,z. The answer is exact and gives the
    output at the neighbouring values too; no value meeting it is an answer, not an error.
    """
    from rulesbook.sweeps.solve import solve

    try:
        calc = registry().calculator(calc_id)
        if list(words).count("over") != 1:
            raise InputError("over", "expected one 'over KEY=a..b' (e.g. over ld=2..12)")
        at = list(words).index("over")
        if at + 1 >= len(words):
            raise InputError("over", "expected KEY=a..b after over (e.g. over ld=2..12)")
        key, sep, values = words[at + 1].partition("=")
        if not sep or not key.strip() or not values.strip():
            raise InputError("over", f"expected KEY=a..b or KEY=x,y after over, got {quote(words[at + 1])}")
        given = _inputs([*words[:at], *words[at + 2 :]])
        variant = _variants(variants, given)
        found = solve(calc, condition, (key, values), given, variant=variant, largest=largest)
    except InputError as exc:
        fail(str(exc))
    if as_json:
        emit_json(found.to_json())
    else:
        echo(found.to_text())
    if warning := reach_warning(calc, found.variant):
        warn(warning)


# -- sensitivity ---------------------------------------------------------------------------------


@click.command("sensitivity")
@click.argument("calc_id")
@click.argument("words", nargs=-1)
@click.option("--output", "output_key", help="The output to follow (default: the first probability).")
@click.option(
    "--variant", "variants", multiple=True, help="Start from this variant instead of the published rules."
)
@click.option("--json", "as_json", is_flag=True, help="Print the moves as JSON.")
@click.option("--csv", "csv_path", help="Write the moves as CSV (provenance beside it).")
@click.option("--plot", "plot_path", help="Draw a tornado chart into this .png or .svg.")
def sensitivity_cmd(
    calc_id: str,
    words: Sequence[str],
    output_key: str | None,
    variants: Sequence[str],
    as_json: bool,
    csv_path: str | None,
    plot_path: str | None,
) -> None:
    """Which rule moves this answer most: every rule parameter of the calculator's system one step
    each way and every reading to each alternative, at key=value inputs, sorted by the exact
    change in the output. Parameters and readings that cannot affect it are listed apart."""
    from rulesbook.variants.sensitivity import sensitivity

    try:
        calc = registry().calculator(calc_id)
        _check_files(csv_path, None, plot_path)
        given = _inputs(words)
        variant = _variants(variants, given)
        found = sensitivity(calc, given, output=output_key, variant=variant)
        _finish(
            found, as_json=as_json, csv_path=csv_path, parquet_path=None, plot_path=plot_path, what="moves"
        )
    except InputError as exc:
        fail(str(exc))
    if warning := reach_warning(calc, found.variant):
        warn(warning)


# -- matrix --------------------------------------------------------------------------------------


@click.command("matrix")
@click.argument("calc_id")
@click.argument("words", nargs=-1)
@click.option("--output", "output_key", help="The output in the cells (default: the first probability).")
@click.option("--variant", "variants", multiple=True, help="Also under this variant, with the difference.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--csv", "csv_path", help="Write one row per cell as CSV (provenance beside it).")
@click.option("--parquet", "parquet_path", help="Write one row per cell as Parquet (provenance inside).")
@click.option("--plot", "plot_path", help="Draw annotated heatmaps into this .png or .svg.")
def matrix_cmd(
    calc_id: str,
    words: Sequence[str],
    output_key: str | None,
    variants: Sequence[str],
    as_json: bool,
    csv_path: str | None,
    parquet_path: str | None,
    plot_path: str | None,
) -> None:
    """A balance table: one output over rows=KEY:values × cols=KEY:values (e.g. rows=ld:5..10
    cols=modifier:-2..1), the other inputs as key=value; under --variant also the variant's table
    and its difference from the published rules."""
    from rulesbook.sweeps.matrix import balance_table, parse_axis

    try:
        calc = registry().calculator(calc_id)
        _check_files(csv_path, parquet_path, plot_path)
        given = _inputs(words)
        if "rows" not in given or "cols" not in given:
            raise InputError("matrix", "expected rows=KEY:values and cols=KEY:values (e.g. rows=ld:5..10)")
        rows = parse_axis(given.pop("rows"), "rows")
        cols = parse_axis(given.pop("cols"), "cols")
        variant = _variants(variants, given)
        table = balance_table(calc, rows, cols, given, variant=variant, output=output_key)
        _finish(
            table,
            as_json=as_json,
            csv_path=csv_path,
            parquet_path=parquet_path,
            plot_path=plot_path,
            what="table",
        )
    except InputError as exc:
        fail(str(exc))
    for line in table.warnings():
        warn(line)


# -- parameters ----------------------------------------------------------------------------------


@click.command("parameters")
@click.argument("system", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def parameters_cmd(system: str | None, as_json: bool) -> None:
    """Every rule parameter and reading a variant can change (of one SYSTEM, or all): type,
    bounds, default, rule and source section; readings with their options."""
    try:
        if system is not None:
            registry().system(system)
        items = parameter_catalogue(system)
    except InputError as exc:
        fail(str(exc))
    if as_json:
        emit_json(items)
        return
    current = None
    for item in items:
        if item["system"] != current:
            current = item["system"]
            echo(("" if current == items[0]["system"] else "\n") + f"{current}")
        if item["kind"] == "parameter":
            echo(f"  parameter {item['key']} = {item['default']}  ({item['allowed']})")
            echo(f"      {item['label']}; rule {item['rule']}; source: {item['section']}")
        else:
            options = ", ".join(item["options"])
            inert = f"; inert: {item['inert']}" if item["inert"] else ""
            echo(f"  reading {item['key']} = {item['default']}  (one of {options})")
            echo(f"      {item['interpretation']}; rules {', '.join(item['rules'])}{inert}")


def register(group: click.Group) -> None:
    """Add the analysis commands to the ``rulesbook`` click group."""
    for command in (solve_cmd, sensitivity_cmd, matrix_cmd, parameters_cmd):
        group.add_command(command)
